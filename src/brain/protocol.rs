//! The Gomocup brain protocol's lines, typed: what a manager sends ([`Command`], read by
//! [`CommandReader`], which also gathers `BOARD` and `SWAP2BOARD` blocks) and what a brain
//! answers ([`Response`]). Both directions parse and format, so a brain (this program) and a
//! manager driving an external brain share one definition. Knows no game and no engine.
//!
//! Coordinates are the protocol's: `X` the column and `Y` the row, both from 0 at the
//! top-left corner.

use std::fmt;

use crate::error::quote_within;

/// The longest line either side reads, in bytes, without its line ending. The protocol's
/// lines are short (a move, `INFO folder` with a path); a longer one is skipped to its end
/// and refused, so that a peer sending megabytes without a newline costs no memory.
pub const MAX_LINE_BYTES: usize = 64 * 1024;

/// The commands a manager sends, by their first word (`DONE` only ends a block).
const COMMAND_WORDS: [&str; 12] = [
    "START",
    "RECTSTART",
    "RESTART",
    "BEGIN",
    "TURN",
    "BOARD",
    "TAKEBACK",
    "PLAY",
    "SWAP2BOARD",
    "INFO",
    "ABOUT",
    "END",
];

/// The first word of `line`, if it names a command of the protocol (in any case).
pub(crate) fn command_word(line: &str) -> Option<&'static str> {
    let word = line.split_whitespace().next()?;
    COMMAND_WORDS
        .into_iter()
        .find(|known| word.eq_ignore_ascii_case(known))
}

/// True for an `END` line (whatever follows the word): the brain's input reader looks for
/// it, so that `END` stops the brain however many lines wait before it.
pub fn is_end(line: &str) -> bool {
    command_word(line) == Some("END")
}

/// A point in protocol coordinates: `x` the column, `y` the row, 0-based from the top-left.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Coord {
    /// Column, 0 on the left.
    pub x: u32,
    /// Row, 0 at the top.
    pub y: u32,
}

impl fmt::Display for Coord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{}", self.x, self.y)
    }
}

impl Coord {
    /// Parses `X,Y` (spaces around either number are tolerated).
    pub fn parse(text: &str) -> Result<Self, String> {
        let (x, y) = text
            .split_once(',')
            .ok_or_else(|| format!("`{}` is not X,Y", shorten(text)))?;
        let number = |part: &str| {
            part.trim()
                .parse::<u32>()
                .map_err(|_| format!("`{}` is not X,Y with whole numbers X and Y", shorten(text)))
        };
        Ok(Self {
            x: number(x)?,
            y: number(y)?,
        })
    }
}

/// Whose a stone of a `BOARD` block is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Field {
    /// 1: the brain's own stone.
    Own,
    /// 2: the opponent's stone.
    Opponent,
    /// 3: a stone of the continuous game (the `rule` bit 2): part of a finished five,
    /// belonging to nobody any more.
    Continuous,
}

impl Field {
    fn number(self) -> u32 {
        match self {
            Self::Own => 1,
            Self::Opponent => 2,
            Self::Continuous => 3,
        }
    }
}

/// One `INFO key value` line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Info {
    /// Time for each move in ms; 0 = play as fast as possible.
    TimeoutTurn(u64),
    /// Time for the whole match in ms; 0 = no limit.
    TimeoutMatch(u64),
    /// Time left of the match in ms (negative once exceeded).
    TimeLeft(i64),
    /// Memory limit in bytes; 0 = no limit.
    MaxMemory(u64),
    /// 0 human opponent, 1 brain, 2 tournament, 3 network tournament.
    GameType(u32),
    /// Bits: 1 exactly five wins, 2 continuous game, 4 renju (8 caro in some managers).
    Rule(u32),
    /// A point the user's mouse is over (for brains that show an evaluation).
    Evaluate(Coord),
    /// A folder for files the brain keeps between matches.
    Folder(String),
    /// Search threads the brain may use (Yixin Board's extension, which Rapfi and PentaZen
    /// also read).
    ThreadNum(u64),
    /// A key this protocol version does not name; the brain may ignore it.
    Other {
        /// The key.
        key: String,
        /// Everything after it.
        value: String,
    },
}

impl fmt::Display for Info {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::TimeoutTurn(ms) => write!(f, "timeout_turn {ms}"),
            Self::TimeoutMatch(ms) => write!(f, "timeout_match {ms}"),
            Self::TimeLeft(ms) => write!(f, "time_left {ms}"),
            Self::MaxMemory(bytes) => write!(f, "max_memory {bytes}"),
            Self::GameType(kind) => write!(f, "game_type {kind}"),
            Self::Rule(bits) => write!(f, "rule {bits}"),
            Self::Evaluate(at) => write!(f, "evaluate {at}"),
            Self::Folder(path) => write!(f, "folder {path}"),
            Self::ThreadNum(threads) => write!(f, "thread_num {threads}"),
            Self::Other { key, value } => write!(f, "{key} {value}"),
        }
    }
}

impl Info {
    fn parse(rest: &str) -> Result<Self, ProtocolError> {
        let rest = rest.trim();
        let (key, value) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
        let value = value.trim();
        let key_lower = key.to_ascii_lowercase();
        let malformed = |expected: &str| {
            ProtocolError::Malformed(format!(
                "INFO {} `{}`: expected {expected}",
                shorten(key),
                shorten(value)
            ))
        };
        let unsigned = |what: &str| value.parse::<u64>().map_err(|_| malformed(what));
        Ok(match key_lower.as_str() {
            "" => return Err(ProtocolError::Malformed("INFO without a key".to_string())),
            "timeout_turn" => Self::TimeoutTurn(unsigned("milliseconds")?),
            "timeout_match" => Self::TimeoutMatch(unsigned("milliseconds")?),
            "time_left" => Self::TimeLeft(
                value
                    .parse::<i64>()
                    .map_err(|_| malformed("milliseconds"))?,
            ),
            "max_memory" => Self::MaxMemory(unsigned("bytes")?),
            "game_type" => Self::GameType(
                value
                    .parse::<u32>()
                    .map_err(|_| malformed("a number 0..=3"))?,
            ),
            "rule" => Self::Rule(
                value
                    .parse::<u32>()
                    .map_err(|_| malformed("a sum of rule bits"))?,
            ),
            "evaluate" => Self::Evaluate(Coord::parse(value).map_err(|_| malformed("X,Y"))?),
            "folder" => Self::Folder(value.to_string()),
            "thread_num" => Self::ThreadNum(unsigned("a number of threads")?),
            _ => Self::Other {
                key: key.to_string(),
                value: value.to_string(),
            },
        })
    }
}

/// A command from the manager (a `BOARD` or `SWAP2BOARD` block counts as one).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `START N`: a new match on an N x N board; answer `OK` or `ERROR`.
    Start(u32),
    /// `RECTSTART W,H`: a new match on a W x H board.
    RectStart {
        /// Columns.
        width: u32,
        /// Rows.
        height: u32,
    },
    /// `RESTART`: a new match on the same board; answer `OK`.
    Restart,
    /// `BEGIN`: the brain opens on the empty board; answer its move.
    Begin,
    /// `TURN X,Y`: the opponent's move; answer the brain's.
    Turn(Coord),
    /// `BOARD` ... `DONE`: a whole position, the brain to move; answer its move.
    Board(Vec<(Coord, Field)>),
    /// `TAKEBACK X,Y`: remove that stone; answer `OK`.
    Takeback(Coord),
    /// `PLAY X,Y`: the brain must play this move (one it suggested); answer it back.
    Play(Coord),
    /// `SWAP2BOARD` ... `DONE`: the swap2 opening with 0, 3 or 5 stones played so far
    /// (black, white, black, ...).
    Swap2Board(Vec<Coord>),
    /// `INFO key value`: a setting; no answer.
    Info(Info),
    /// `ABOUT`: answer `name="…", version="…", …`.
    About,
    /// `END`: exit at once, no answer.
    End,
}

impl Command {
    /// The command as the lines a manager sends (several for a block).
    pub fn to_lines(&self) -> Vec<String> {
        match self {
            Self::Start(size) => vec![format!("START {size}")],
            Self::RectStart { width, height } => vec![format!("RECTSTART {width},{height}")],
            Self::Restart => vec!["RESTART".to_string()],
            Self::Begin => vec!["BEGIN".to_string()],
            Self::Turn(at) => vec![format!("TURN {at}")],
            Self::Board(stones) => std::iter::once("BOARD".to_string())
                .chain(
                    stones
                        .iter()
                        .map(|(at, field)| format!("{at},{}", field.number())),
                )
                .chain(std::iter::once("DONE".to_string()))
                .collect(),
            Self::Takeback(at) => vec![format!("TAKEBACK {at}")],
            Self::Play(at) => vec![format!("PLAY {at}")],
            Self::Swap2Board(stones) => std::iter::once("SWAP2BOARD".to_string())
                .chain(stones.iter().map(ToString::to_string))
                .chain(std::iter::once("DONE".to_string()))
                .collect(),
            Self::Info(info) => vec![format!("INFO {info}")],
            Self::About => vec!["ABOUT".to_string()],
            Self::End => vec!["END".to_string()],
        }
    }
}

/// Why a line is not a command the brain can act on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProtocolError {
    /// Not a command of the protocol: answered `UNKNOWN`.
    Unknown(String),
    /// A known command with missing or unreadable parameters: answered `ERROR`.
    Malformed(String),
}

impl fmt::Display for ProtocolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Unknown(text) | Self::Malformed(text) => f.write_str(text),
        }
    }
}

impl ProtocolError {
    /// The answer a brain gives to it.
    pub fn response(&self) -> Response {
        match self {
            Self::Unknown(text) => Response::Unknown(text.clone()),
            Self::Malformed(text) => Response::Error(text.clone()),
        }
    }
}

/// Which block a [`CommandReader`] is inside.
#[derive(Debug)]
enum Block {
    Board {
        stones: Vec<(Coord, Field)>,
        problem: Option<String>,
    },
    Swap2 {
        stones: Vec<Coord>,
        problem: Option<String>,
    },
}

/// Turns manager lines into commands: one line is one command, except that `BOARD` and
/// `SWAP2BOARD` gather lines up to `DONE`. A bad line inside a block spoils the block
/// (reported at `DONE`) but never the reader's place in the input. A command line inside a
/// block (a manager that lost count of its lines) drops the block: `END` at once and
/// silently, any other with one error for the block before the line is read as the command.
#[derive(Debug, Default)]
pub struct CommandReader {
    block: Option<Block>,
}

impl CommandReader {
    /// A reader outside any block.
    pub fn new() -> Self {
        Self::default()
    }

    /// True inside a `BOARD` or `SWAP2BOARD` block (the next lines are stones).
    pub fn in_block(&self) -> bool {
        self.block.is_some()
    }

    /// Reads one line: nothing while a block is still open or for an empty line, otherwise
    /// the command or why there is none; two results when a command line drops an open
    /// block (the block's error, then the line's own result).
    pub fn feed(&mut self, line: &str) -> Vec<Result<Command, ProtocolError>> {
        let line = line.trim();
        if line.is_empty() {
            return Vec::new();
        }
        let Some(block) = &mut self.block else {
            return self.feed_command(line).into_iter().collect();
        };
        if line.eq_ignore_ascii_case("DONE") {
            return self.block.take().map(finish_block).into_iter().collect();
        }
        if let Some(word) = command_word(line) {
            let name = block.name();
            self.block = None;
            if word == "END" {
                return vec![Ok(Command::End)];
            }
            let dropped = ProtocolError::Malformed(format!(
                "{name} without DONE: `{}` came first, so the block is dropped and that line \
                 read as a command",
                shorten(line)
            ));
            let mut read = vec![Err(dropped)];
            read.extend(self.feed_command(line));
            return read;
        }
        match block {
            Block::Board { stones, problem } => match parse_board_line(line) {
                Ok(stone) => stones.push(stone),
                Err(e) => {
                    problem.get_or_insert(e);
                }
            },
            Block::Swap2 { stones, problem } => match Coord::parse(line) {
                Ok(at) => stones.push(at),
                Err(e) => {
                    problem.get_or_insert(format!("SWAP2BOARD: {e}"));
                }
            },
        }
        Vec::new()
    }

    /// A line longer than [`MAX_LINE_BYTES`] (`length` bytes, or more), skipped unread: it
    /// spoils an open block (reported at `DONE`), else it is refused at once.
    pub fn too_long(&mut self, length: usize) -> Option<ProtocolError> {
        let problem = format!(
            "a line of {length} bytes is longer than the {MAX_LINE_BYTES} bytes a line may \
             have; it was skipped"
        );
        let Some(block) = &mut self.block else {
            return Some(ProtocolError::Malformed(problem));
        };
        let name = block.name();
        let (Block::Board {
            problem: spoilt, ..
        }
        | Block::Swap2 {
            problem: spoilt, ..
        }) = block;
        spoilt.get_or_insert(format!("{name}: {problem}"));
        None
    }

    /// One line outside a block: `None` when it opens one.
    fn feed_command(&mut self, line: &str) -> Option<Result<Command, ProtocolError>> {
        let (word, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let rest = rest.trim();
        let command = match word.to_ascii_uppercase().as_str() {
            "BOARD" => {
                self.block = Some(Block::Board {
                    stones: Vec::new(),
                    problem: None,
                });
                return None;
            }
            "SWAP2BOARD" => {
                self.block = Some(Block::Swap2 {
                    stones: Vec::new(),
                    problem: None,
                });
                return None;
            }
            "START" => rest
                .parse::<u32>()
                .map(Command::Start)
                .map_err(|_| malformed(line, "START N with a board size N")),
            "RECTSTART" => Coord::parse(rest)
                .map(|c| Command::RectStart {
                    width: c.x,
                    height: c.y,
                })
                .map_err(|_| malformed(line, "RECTSTART W,H")),
            "RESTART" => no_arguments(line, rest, Command::Restart),
            "BEGIN" => no_arguments(line, rest, Command::Begin),
            "ABOUT" => no_arguments(line, rest, Command::About),
            "END" => Ok(Command::End),
            "TURN" => coord_argument(line, rest, "TURN X,Y").map(Command::Turn),
            "TAKEBACK" => coord_argument(line, rest, "TAKEBACK X,Y").map(Command::Takeback),
            "PLAY" => coord_argument(line, rest, "PLAY X,Y").map(Command::Play),
            "INFO" => Info::parse(rest).map(Command::Info),
            _ => Err(ProtocolError::Unknown(format!(
                "`{}`: not a command of this brain (it knows START, RECTSTART, RESTART, \
                 BEGIN, TURN, BOARD, TAKEBACK, PLAY, SWAP2BOARD, INFO, ABOUT, END)",
                shorten(line)
            ))),
        };
        Some(command)
    }
}

impl Block {
    /// The command that opened it.
    fn name(&self) -> &'static str {
        match self {
            Self::Board { .. } => "BOARD",
            Self::Swap2 { .. } => "SWAP2BOARD",
        }
    }
}

fn finish_block(block: Block) -> Result<Command, ProtocolError> {
    match block {
        Block::Board { stones, problem } => match problem {
            Some(problem) => Err(ProtocolError::Malformed(problem)),
            None => Ok(Command::Board(stones)),
        },
        Block::Swap2 { stones, problem } => match problem {
            Some(problem) => Err(ProtocolError::Malformed(problem)),
            None => Ok(Command::Swap2Board(stones)),
        },
    }
}

/// One stone line of a `BOARD` block: `X,Y,FIELD`.
fn parse_board_line(line: &str) -> Result<(Coord, Field), String> {
    let expected = || {
        format!(
            "BOARD: `{}` is not X,Y,FIELD (FIELD 1, 2 or 3)",
            shorten(line)
        )
    };
    let (coord, field) = line.rsplit_once(',').ok_or_else(expected)?;
    let at = Coord::parse(coord).map_err(|_| expected())?;
    let field = match field.trim() {
        "1" => Field::Own,
        "2" => Field::Opponent,
        "3" => Field::Continuous,
        _ => return Err(expected()),
    };
    Ok((at, field))
}

fn malformed(line: &str, expected: &str) -> ProtocolError {
    ProtocolError::Malformed(format!("`{}`: expected {expected}", shorten(line)))
}

fn no_arguments(line: &str, rest: &str, command: Command) -> Result<Command, ProtocolError> {
    if rest.is_empty() {
        Ok(command)
    } else {
        Err(ProtocolError::Malformed(format!(
            "`{}`: takes no parameters",
            shorten(line)
        )))
    }
}

fn coord_argument(line: &str, rest: &str, expected: &str) -> Result<Coord, ProtocolError> {
    Coord::parse(rest).map_err(|_| malformed(line, expected))
}

/// An echoed line made safe and short: control characters (a NUL, a stray carriage return,
/// escape sequences) written as Rust escapes (`\u{0}`, `\r`), and at most about 60
/// characters kept, so that an answer is one printable line whatever the line held (and a
/// brain's name or program in the client's messages).
pub(crate) fn shorten(line: &str) -> String {
    quote_within(line, 60)
}

/// A line a brain sends.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Response {
    /// `OK`.
    Ok,
    /// `ERROR reason`.
    Error(String),
    /// `UNKNOWN reason`.
    Unknown(String),
    /// `X,Y`: a move.
    Move(Coord),
    /// `X1,Y1 X2,Y2 ...`: the stones a brain places in the swap2 opening.
    Stones(Vec<Coord>),
    /// `SWAP`: in the swap2 opening, the brain takes the other colour.
    Swap,
    /// `MESSAGE text`: for the user's eyes.
    Message(String),
    /// `DEBUG text`: for the brain author's eyes.
    Debug(String),
    /// The answer to `ABOUT`: `key="value"` pairs.
    About(Vec<(String, String)>),
}

impl fmt::Display for Response {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Ok => f.write_str("OK"),
            Self::Error(reason) => write!(f, "ERROR {}", one_line(reason)),
            Self::Unknown(reason) => write!(f, "UNKNOWN {}", one_line(reason)),
            Self::Move(at) => write!(f, "{at}"),
            Self::Stones(stones) => {
                let list: Vec<String> = stones.iter().map(ToString::to_string).collect();
                f.write_str(&list.join(" "))
            }
            Self::Swap => f.write_str("SWAP"),
            Self::Message(text) => write!(f, "MESSAGE {}", one_line(text)),
            Self::Debug(text) => write!(f, "DEBUG {}", one_line(text)),
            Self::About(pairs) => {
                let list: Vec<String> = pairs
                    .iter()
                    .map(|(key, value)| {
                        format!(
                            "{}=\"{}\"",
                            one_line(key),
                            one_line(&value.replace('"', "'"))
                        )
                    })
                    .collect();
                f.write_str(&list.join(", "))
            }
        }
    }
}

/// A line break inside a response would split it into two lines, and other control
/// characters have no place in one either: line breaks become spaces, the rest Rust escapes.
/// (Echoes of input are escaped where they are made; this keeps every line one line.)
fn one_line(text: &str) -> String {
    let mut line = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\r' | '\n' => line.push(' '),
            c if c.is_control() => line.extend(c.escape_default()),
            c => line.push(c),
        }
    }
    line
}

impl Response {
    /// Reads a brain's line. `ABOUT`'s answer is recognised by its `key="value"` form; a
    /// line that is none of the forms is an error naming it.
    pub fn parse(line: &str) -> Result<Self, String> {
        let line = line.trim();
        let (word, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let rest = rest.trim().to_string();
        match word.to_ascii_uppercase().as_str() {
            "OK" => return Ok(Self::Ok),
            "ERROR" => return Ok(Self::Error(rest)),
            "UNKNOWN" => return Ok(Self::Unknown(rest)),
            "SWAP" if rest.is_empty() => return Ok(Self::Swap),
            "MESSAGE" => return Ok(Self::Message(rest)),
            "DEBUG" => return Ok(Self::Debug(rest)),
            _ => {}
        }
        if line.contains('=') {
            return parse_about(line).map(Self::About);
        }
        let coords: Result<Vec<Coord>, String> =
            line.split_whitespace().map(Coord::parse).collect();
        match coords {
            Ok(list) if list.len() == 1 => Ok(Self::Move(list[0])),
            Ok(list) if !list.is_empty() => Ok(Self::Stones(list)),
            _ => Err(format!("`{}` is not a brain's answer", shorten(line))),
        }
    }
}

/// `name="x", version="1.0"` into pairs.
fn parse_about(line: &str) -> Result<Vec<(String, String)>, String> {
    let mut pairs = Vec::new();
    let mut rest = line.trim();
    while !rest.is_empty() {
        let (key, after) = rest
            .split_once('=')
            .ok_or_else(|| format!("`{}` is not key=\"value\" pairs", shorten(line)))?;
        let after = after.trim_start();
        let (value, after) = if let Some(quoted) = after.strip_prefix('"') {
            quoted
                .split_once('"')
                .ok_or_else(|| format!("`{}`: unclosed quote", shorten(line)))?
        } else {
            after.split_once(',').unwrap_or((after, ""))
        };
        pairs.push((key.trim().to_string(), value.to_string()));
        rest = after.trim_start().trim_start_matches(',').trim_start();
    }
    Ok(pairs)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_all(lines: &[&str]) -> Vec<Result<Command, ProtocolError>> {
        let mut reader = CommandReader::new();
        lines.iter().flat_map(|line| reader.feed(line)).collect()
    }

    #[test]
    fn commands_round_trip_through_their_lines() {
        let commands = [
            Command::Start(15),
            Command::RectStart {
                width: 20,
                height: 15,
            },
            Command::Restart,
            Command::Begin,
            Command::Turn(Coord { x: 7, y: 8 }),
            Command::Board(vec![
                (Coord { x: 1, y: 2 }, Field::Own),
                (Coord { x: 3, y: 4 }, Field::Opponent),
                (Coord { x: 5, y: 6 }, Field::Continuous),
            ]),
            Command::Takeback(Coord { x: 0, y: 14 }),
            Command::Play(Coord { x: 9, y: 9 }),
            Command::Swap2Board(vec![Coord { x: 7, y: 7 }, Coord { x: 8, y: 8 }]),
            Command::Info(Info::TimeoutTurn(5000)),
            Command::Info(Info::TimeLeft(-20)),
            Command::Info(Info::Rule(1)),
            Command::Info(Info::Folder("/tmp/x y".to_string())),
            Command::Info(Info::ThreadNum(1)),
            Command::About,
            Command::End,
        ];
        for command in commands {
            let lines = command.to_lines();
            let mut reader = CommandReader::new();
            let read: Vec<_> = lines.iter().flat_map(|l| reader.feed(l)).collect();
            assert_eq!(read, vec![Ok(command.clone())], "{lines:?}");
        }
    }

    #[test]
    fn lines_are_read_leniently_but_bad_ones_are_named() {
        let read = read_all(&["turn 7 , 8\r", "", "  BEGIN  "]);
        assert_eq!(
            read,
            vec![Ok(Command::Turn(Coord { x: 7, y: 8 })), Ok(Command::Begin)]
        );
        let read = read_all(&["TURN 7", "START x", "BEGIN now", "HELLO there"]);
        assert!(matches!(&read[0], Err(ProtocolError::Malformed(m)) if m.contains("TURN X,Y")));
        assert!(matches!(&read[1], Err(ProtocolError::Malformed(m)) if m.contains("START N")));
        assert!(matches!(&read[2], Err(ProtocolError::Malformed(_))));
        assert!(matches!(&read[3], Err(ProtocolError::Unknown(m)) if m.contains("HELLO")));
        assert_eq!(read.len(), 4);
    }

    #[test]
    fn a_bad_stone_spoils_its_block_but_not_what_follows() {
        let read = read_all(&["BOARD", "1,2,1", "1,2,7", "oops", "DONE", "BEGIN"]);
        assert!(matches!(&read[0], Err(ProtocolError::Malformed(m)) if m.contains("1,2,7")));
        assert_eq!(read[1], Ok(Command::Begin));
        // Yixin Board's upper-case key is the same key.
        let read = read_all(&["INFO THREAD_NUM 2", "INFO thread_num many"]);
        assert_eq!(read[0], Ok(Command::Info(Info::ThreadNum(2))));
        assert!(matches!(&read[1], Err(ProtocolError::Malformed(m)) if m.contains("threads")));
        let read = read_all(&["INFO timeout_turn soon", "INFO strange 5", "INFO"]);
        assert!(matches!(&read[0], Err(ProtocolError::Malformed(m)) if m.contains("timeout_turn")));
        assert_eq!(
            read[1],
            Ok(Command::Info(Info::Other {
                key: "strange".to_string(),
                value: "5".to_string()
            }))
        );
        assert!(read[2].is_err());
    }

    #[test]
    fn a_command_inside_a_block_drops_the_block() {
        // END ends at once, silently, wherever it comes.
        assert_eq!(read_all(&["BOARD", "7,7,1", "END"]), vec![Ok(Command::End)]);
        assert_eq!(
            read_all(&["SWAP2BOARD", "7,7", "end now"]),
            vec![Ok(Command::End)]
        );
        // Any other command: one error for the block, then the line as that command.
        let read = read_all(&["BOARD", "7,7,1", "turn 8,8", "9,9,1", "DONE"]);
        assert_eq!(read.len(), 4, "{read:?}");
        assert!(
            matches!(&read[0], Err(ProtocolError::Malformed(m))
                if m.starts_with("BOARD without DONE") && m.contains("`turn 8,8`")),
            "{read:?}"
        );
        assert_eq!(read[1], Ok(Command::Turn(Coord { x: 8, y: 8 })));
        // The lines after it are no block's: a stone, and DONE alone, are not commands.
        assert!(matches!(&read[2], Err(ProtocolError::Unknown(m)) if m.contains("`9,9,1`")));
        assert!(matches!(&read[3], Err(ProtocolError::Unknown(m)) if m.contains("`DONE`")));
        // A new block in place of the open one; a bad command still drops it.
        let read = read_all(&["SWAP2BOARD", "7,7", "BOARD", "1,1,1", "DONE"]);
        assert!(
            matches!(&read[0], Err(ProtocolError::Malformed(m)) if m.starts_with("SWAP2BOARD"))
        );
        assert_eq!(
            read[1],
            Ok(Command::Board(vec![(Coord { x: 1, y: 1 }, Field::Own)]))
        );
        let read = read_all(&["BOARD", "TURN x", "BEGIN"]);
        assert_eq!(read.len(), 3, "{read:?}");
        assert!(matches!(&read[1], Err(ProtocolError::Malformed(m)) if m.contains("TURN X,Y")));
        assert_eq!(read[2], Ok(Command::Begin));
        // Not a command word: a bad stone, as before.
        let read = read_all(&["BOARD", "hello", "DONE"]);
        assert!(matches!(&read[..], [Err(ProtocolError::Malformed(m))] if m.contains("hello")));
    }

    #[test]
    fn a_line_too_long_is_refused_or_spoils_its_block() {
        let mut reader = CommandReader::new();
        let refused = reader.too_long(70_000).unwrap().response().to_string();
        assert!(
            refused.starts_with("ERROR a line of 70000 bytes"),
            "{refused}"
        );
        assert!(refused.contains("65536"), "{refused}");
        assert!(reader.feed("BOARD").is_empty());
        assert_eq!(reader.too_long(70_000), None);
        let read = reader.feed("DONE");
        assert!(
            matches!(&read[..], [Err(ProtocolError::Malformed(m))] if m.starts_with("BOARD: a line of 70000")),
            "{read:?}"
        );
    }

    #[test]
    fn echoed_control_characters_are_escaped() {
        let read = read_all(&[
            "START 15\0",
            "\u{1b}[2Jhello\u{7}",
            "INFO timeout_turn 5\u{0}",
        ]);
        let answers: Vec<String> = read
            .iter()
            .map(|r| r.as_ref().unwrap_err().response().to_string())
            .collect();
        for answer in &answers {
            assert!(!answer.chars().any(char::is_control), "{answer:?}");
        }
        assert!(answers[0].contains("START 15\\u{0}"), "{answers:?}");
        assert!(
            answers[1].starts_with("UNKNOWN `\\u{1b}[2Jhello\\u{7}`"),
            "{answers:?}"
        );
        assert!(answers[2].contains("`5\\u{0}`"), "{answers:?}");
        // Whatever a message holds, a response is one printable line.
        let shown = Response::Message("a\u{0}b\rc\u{1b}".to_string()).to_string();
        assert_eq!(shown, "MESSAGE a\\u{0}b c\\u{1b}");
    }

    #[test]
    fn responses_round_trip() {
        let responses = [
            Response::Ok,
            Response::Error("no such size".to_string()),
            Response::Unknown("what".to_string()),
            Response::Move(Coord { x: 10, y: 3 }),
            Response::Stones(vec![Coord { x: 1, y: 1 }, Coord { x: 2, y: 2 }]),
            Response::Swap,
            Response::Message("depth 3".to_string()),
            Response::Debug("x".to_string()),
            Response::About(vec![
                ("name".to_string(), "gametree".to_string()),
                ("version".to_string(), "0.1.0".to_string()),
            ]),
        ];
        for response in responses {
            let line = response.to_string();
            assert_eq!(Response::parse(&line), Ok(response), "{line}");
        }
        assert!(Response::parse("7;7").is_err());
        assert_eq!(
            Response::Error("two\nlines".to_string()).to_string(),
            "ERROR two lines"
        );
    }
}
