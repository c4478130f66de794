//! The protocol's requests, read from one JSON object per line, and its errors. Every field
//! a request may carry is listed here; any other is refused by name.

use serde::Serialize;
use serde_json::{Map, Value, json};

use crate::engine::settings;
use crate::games::GameKind;

/// What went wrong, as the `kind` of an error response.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorKind {
    /// The line is not JSON.
    MalformedJson,
    /// JSON, but not a request: not an object, no `cmd`, a field of the wrong type.
    BadRequest,
    /// `cmd` names no request.
    UnknownCommand,
    /// A field the request does not have.
    UnknownField,
    /// A value out of range: an option, a setting, a depth.
    InvalidValue,
    /// A move that cannot be read in the game's notation (or an index of no move).
    BadMove,
    /// A move the rules refuse here.
    IllegalMove,
    /// `undo` with fewer moves played than asked.
    NothingToUndo,
    /// A search of a finished game.
    GameOver,
    /// A line longer than the protocol accepts.
    LineTooLong,
    /// A search failed inside the engine.
    Internal,
}

impl ErrorKind {
    /// Every kind, as the schema lists them.
    pub const ALL: [Self; 11] = [
        Self::MalformedJson,
        Self::BadRequest,
        Self::UnknownCommand,
        Self::UnknownField,
        Self::InvalidValue,
        Self::BadMove,
        Self::IllegalMove,
        Self::NothingToUndo,
        Self::GameOver,
        Self::LineTooLong,
        Self::Internal,
    ];
}

/// A refused request: its kind and a message that says what was expected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProtocolError {
    /// What went wrong.
    pub kind: ErrorKind,
    /// In words.
    pub message: String,
}

impl ProtocolError {
    /// An error of `kind`.
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        Self {
            kind,
            message: message.into(),
        }
    }

    /// The error response to request `id`, as a line.
    pub fn response(&self, id: &Value) -> String {
        let mut fields = Map::new();
        fields.insert(
            "error".into(),
            json!({ "kind": self.kind, "message": self.message }),
        );
        super::table::line(id, "error", fields)
    }
}

/// A move as a request gives it: in the game's notation, or as its index (see `legal`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveRef {
    /// `"b2"`, `"c"`, `"a1-b1"`.
    Notation(String),
    /// The move's index.
    Index(u64),
}

/// A request's command with its fields.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// The protocol version, the games and their options, the engine settings.
    Hello,
    /// A new game: which, and options over the configured ones.
    New {
        /// The game.
        game: GameKind,
        /// Options to change (a part of the game's config section, as JSON).
        options: Map<String, Value>,
    },
    /// The position these moves reach from the start of the current game.
    Position {
        /// The moves.
        moves: Vec<MoveRef>,
    },
    /// One move for the side to move.
    Play {
        /// The move.
        mv: MoveRef,
    },
    /// Takes back moves.
    Undo {
        /// How many (default 1).
        count: usize,
    },
    /// The legal moves.
    Legal,
    /// The position and who is to move.
    State,
    /// A search with engine settings over the configured ones.
    Go {
        /// Engine settings by their `config.toml` keys.
        settings: Map<String, Value>,
    },
    /// Stops the search under way.
    Stop,
    /// The exact value of the position.
    Solve {
        /// Search threads (0 = one per core).
        threads: usize,
        /// Table size in MiB.
        tt_mb: usize,
    },
    /// Counts move sequences.
    Perft {
        /// Moves per sequence.
        depth: u32,
        /// Counts per first move too.
        divide: bool,
    },
    /// A search with its tree recorded.
    Tree {
        /// Nodes to record at most.
        max_nodes: usize,
        /// Engine settings by their keys.
        settings: Map<String, Value>,
    },
    /// Ends the process.
    Quit,
}

/// Every command's name, in the order the documentation lists them.
pub const COMMANDS: [&str; 13] = [
    "hello", "new", "position", "play", "undo", "legal", "state", "go", "stop", "solve", "perft",
    "tree", "quit",
];

/// The deepest `perft` (as the command line's).
pub const MAX_PERFT_DEPTH: u64 = 64;
/// The most nodes `tree` records.
pub const MAX_TREE_NODES: u64 = 1_000_000;
/// Nodes `tree` records when the request does not say.
pub const DEFAULT_TREE_NODES: usize = 10_000;
/// `solve`'s table size when the request does not say (as the command line's).
pub const DEFAULT_SOLVE_TT_MB: usize = 16;

/// A request: its id (any JSON number or string, `null` when it has none) and command.
#[derive(Clone, Debug, PartialEq)]
pub struct Request {
    /// Echoed in every response to it.
    pub id: Value,
    /// What it asks.
    pub command: Command,
}

/// Reads one line. On error, the id is given when the line had a readable one.
pub fn parse(line: &str) -> Result<Request, (Value, ProtocolError)> {
    let value: Value = serde_json::from_str(line).map_err(|e| {
        (
            Value::Null,
            ProtocolError::new(
                ErrorKind::MalformedJson,
                format!("not a JSON object on one line: {e}"),
            ),
        )
    })?;
    let Value::Object(mut fields) = value else {
        return Err((
            Value::Null,
            bad_request("a request is a JSON object, like {\"id\": 1, \"cmd\": \"state\"}"),
        ));
    };
    let id = match fields.remove("id") {
        None | Some(Value::Null) => Value::Null,
        Some(id @ (Value::Number(_) | Value::String(_))) => id,
        Some(other) => {
            return Err((
                Value::Null,
                bad_request(format!("`id` must be a number or a string, not {other}")),
            ));
        }
    };
    match command(fields) {
        Ok(command) => Ok(Request { id, command }),
        Err(e) => Err((id, e)),
    }
}

fn bad_request(message: impl Into<String>) -> ProtocolError {
    ProtocolError::new(ErrorKind::BadRequest, message)
}

fn command(mut fields: Map<String, Value>) -> Result<Command, ProtocolError> {
    let name = match fields.remove("cmd") {
        Some(Value::String(name)) => name,
        Some(other) => return Err(bad_request(format!("`cmd` must be a string, not {other}"))),
        None => {
            return Err(bad_request(format!(
                "no `cmd`: every request names one of {}",
                COMMANDS.join(", ")
            )));
        }
    };
    let mut fields = Fields {
        cmd: name.clone(),
        fields,
    };
    let command = match name.as_str() {
        "hello" => Command::Hello,
        "new" => {
            fields.only(&["game", "options"])?;
            let game = fields.string("game")?.ok_or_else(|| {
                bad_request("`new` needs `game`: one of tictactoe, gomoku, kalah, dots")
            })?;
            let game = game
                .parse::<GameKind>()
                .map_err(|e| ProtocolError::new(ErrorKind::InvalidValue, e))?;
            let options = match fields.take("options") {
                None | Some(Value::Null) => Map::new(),
                Some(Value::Object(options)) => options,
                Some(other) => {
                    return Err(bad_request(format!(
                        "`options` must be an object of the game's options, like {{\"pits\": 4}}, not {other}"
                    )));
                }
            };
            Command::New { game, options }
        }
        "position" => {
            fields.only(&["moves"])?;
            let moves = match fields.take("moves") {
                None | Some(Value::Null) => Vec::new(),
                Some(Value::Array(items)) => items
                    .into_iter()
                    .enumerate()
                    .map(|(i, item)| {
                        move_ref(item)
                            .map_err(|e| bad_request(format!("`moves` item {}: {e}", i + 1)))
                    })
                    .collect::<Result<_, _>>()?,
                Some(other) => {
                    return Err(bad_request(format!(
                        "`moves` must be a list of moves, like [\"b2\", \"a1\"], not {other}"
                    )));
                }
            };
            Command::Position { moves }
        }
        "play" => {
            fields.only(&["move"])?;
            let mv = fields.take("move").ok_or_else(|| {
                bad_request("`play` needs `move`, like {\"cmd\": \"play\", \"move\": \"b2\"}")
            })?;
            Command::Play {
                mv: move_ref(mv).map_err(|e| bad_request(format!("`move`: {e}")))?,
            }
        }
        "undo" => {
            fields.only(&["count"])?;
            let count = fields.number("count", 1, 100_000)?.unwrap_or(1);
            Command::Undo {
                count: count as usize,
            }
        }
        "legal" => Command::Legal,
        "state" => Command::State,
        "go" => Command::Go {
            settings: fields.settings(&[])?,
        },
        "stop" => Command::Stop,
        "solve" => {
            fields.only(&["threads", "tt_mb"])?;
            let threads = fields.number("threads", 0, 256)?.unwrap_or(1);
            let tt_mb = fields
                .number("tt_mb", 1, 65_536)?
                .unwrap_or(DEFAULT_SOLVE_TT_MB as u64);
            Command::Solve {
                threads: threads as usize,
                tt_mb: tt_mb as usize,
            }
        }
        "perft" => {
            fields.only(&["depth", "divide"])?;
            let depth = fields.number("depth", 0, MAX_PERFT_DEPTH)?.ok_or_else(|| {
                bad_request("`perft` needs `depth`, like {\"cmd\": \"perft\", \"depth\": 3}")
            })?;
            let divide = fields.boolean("divide")?.unwrap_or(false);
            Command::Perft {
                depth: depth as u32,
                divide,
            }
        }
        "tree" => {
            let max_nodes = fields
                .number("max_nodes", 1, MAX_TREE_NODES)?
                .map_or(DEFAULT_TREE_NODES, |n| n as usize);
            Command::Tree {
                max_nodes,
                settings: fields.settings(&["max_nodes"])?,
            }
        }
        "quit" => Command::Quit,
        other => {
            return Err(ProtocolError::new(
                ErrorKind::UnknownCommand,
                format!(
                    "unknown command `{other}`: expected one of {}",
                    COMMANDS.join(", ")
                ),
            ));
        }
    };
    fields.only(&[])?;
    Ok(command)
}

/// A request's fields past `id` and `cmd`, taken one by one; what is left is unknown.
struct Fields {
    cmd: String,
    fields: Map<String, Value>,
}

impl Fields {
    /// Refuses any field not in `known` (nor already taken).
    fn only(&self, known: &[&str]) -> Result<(), ProtocolError> {
        if let Some(key) = self.fields.keys().find(|k| !known.contains(&k.as_str())) {
            let expected = if known.is_empty() {
                "it has none besides `id` and `cmd`".to_string()
            } else {
                format!(
                    "its fields are {}",
                    known
                        .iter()
                        .map(|k| format!("`{k}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            };
            return Err(ProtocolError::new(
                ErrorKind::UnknownField,
                format!("unknown field `{key}` in `{}`: {expected}", self.cmd),
            ));
        }
        Ok(())
    }

    fn take(&mut self, key: &str) -> Option<Value> {
        self.fields.remove(key)
    }

    fn string(&mut self, key: &str) -> Result<Option<String>, ProtocolError> {
        match self.take(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s)),
            Some(other) => Err(bad_request(format!(
                "`{key}` must be a string, not {other}"
            ))),
        }
    }

    fn boolean(&mut self, key: &str) -> Result<Option<bool>, ProtocolError> {
        match self.take(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::Bool(b)) => Ok(Some(b)),
            Some(other) => Err(bad_request(format!(
                "`{key}` must be true or false, not {other}"
            ))),
        }
    }

    fn number(&mut self, key: &str, min: u64, max: u64) -> Result<Option<u64>, ProtocolError> {
        match self.take(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::Number(n)) => match n.as_u64().filter(|n| (min..=max).contains(n)) {
                Some(n) => Ok(Some(n)),
                None => Err(ProtocolError::new(
                    ErrorKind::InvalidValue,
                    format!("`{key}` = {n}: must be a whole number {min}..={max}"),
                )),
            },
            Some(other) => Err(bad_request(format!(
                "`{key}` must be a whole number {min}..={max}, not {other}"
            ))),
        }
    }

    /// The rest as engine settings: every key must be one of the settings' (`extra` have
    /// been taken already); values are checked when they are applied.
    fn settings(&mut self, extra: &[&'static str]) -> Result<Map<String, Value>, ProtocolError> {
        if let Some(key) = self
            .fields
            .keys()
            .find(|k| crate::engine::settings::EngineSettings::field(k).is_none())
        {
            let known: Vec<String> = extra
                .iter()
                .copied()
                .chain(settings::keys())
                .map(|k| format!("`{k}`"))
                .collect();
            return Err(ProtocolError::new(
                ErrorKind::UnknownField,
                format!(
                    "unknown field `{key}` in `{}`: its fields are the engine settings {}",
                    self.cmd,
                    known.join(", ")
                ),
            ));
        }
        Ok(std::mem::take(&mut self.fields))
    }
}

fn move_ref(value: Value) -> Result<MoveRef, String> {
    match value {
        Value::String(text) => Ok(MoveRef::Notation(text)),
        Value::Number(n) => n
            .as_u64()
            .map(MoveRef::Index)
            .ok_or_else(|| format!("a move index is a whole number 0 or more, not {n}")),
        other => Err(format!(
            "a move is its notation (a string, like \"b2\") or its index (a number), not {other}"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refused(line: &str) -> (Value, ErrorKind, String) {
        let (id, e) = parse(line).unwrap_err();
        (id, e.kind, e.message)
    }

    #[test]
    fn requests_are_read_and_unknown_fields_named() {
        let r = parse(r#"{"id": 7, "cmd": "play", "move": "b2"}"#).unwrap();
        assert_eq!(r.id, json!(7));
        assert_eq!(
            r.command,
            Command::Play {
                mv: MoveRef::Notation("b2".into())
            }
        );
        let (id, kind, message) =
            refused(r#"{"id": "a", "cmd": "play", "move": "b2", "colour": 1}"#);
        assert_eq!((id, kind), (json!("a"), ErrorKind::UnknownField));
        assert!(message.contains("`colour`"), "{message}");
        let (_, kind, message) = refused(r#"{"cmd": "go", "depht": 3}"#);
        assert_eq!(kind, ErrorKind::UnknownField);
        assert!(
            message.contains("`depht`") && message.contains("`depth`"),
            "{message}"
        );
        assert_eq!(refused("{").1, ErrorKind::MalformedJson);
        assert_eq!(refused("[1]").1, ErrorKind::BadRequest);
        assert_eq!(refused(r#"{"cmd": "fly"}"#).1, ErrorKind::UnknownCommand);
        assert_eq!(
            refused(r#"{"cmd": "state", "x": 1}"#).1,
            ErrorKind::UnknownField
        );
        assert_eq!(
            refused(r#"{"cmd": "perft", "depth": 65}"#).1,
            ErrorKind::InvalidValue
        );
        assert_eq!(
            refused(r#"{"id": [1], "cmd": "state"}"#).1,
            ErrorKind::BadRequest
        );
    }
}
