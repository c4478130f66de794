//! `gametree serve`, the JSON-lines protocol: transcripts per request and per game through
//! the real binary, every response checked against docs/protocol.schema.json (with a small
//! validator for the part of JSON Schema that file uses), and a property test driving the
//! protocol's core in-process against the library.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::Duration;

use gametree::config::Config;
use gametree::engine::Player;
use gametree::engine::settings::{EngineSettings, keys};
use gametree::games::{GameKind, GameOptions, Playable};
use gametree::serve::Core;
use gametree::serve::position::Describe;
use gametree::serve::request::{COMMANDS, ErrorKind};
use proptest::prelude::*;
use serde_json::{Value, json};

/// Long enough for any answer here on a loaded machine; only a hang reaches it.
const PATIENCE: Duration = Duration::from_secs(120);

// ---------------------------------------------------------------------------------------
// The schema and a validator for the subset of JSON Schema it uses: type, const, enum,
// properties, required, additionalProperties, items, oneOf, $ref, minimum, maximum.

fn schema() -> Value {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/docs/protocol.schema.json"
    ))
    .unwrap();
    serde_json::from_str(&text).unwrap()
}

fn type_matches(name: &str, value: &Value) -> bool {
    match name {
        "null" => value.is_null(),
        "boolean" => value.is_boolean(),
        "integer" => value.is_i64() || value.is_u64(),
        "number" => value.is_number(),
        "string" => value.is_string(),
        "array" => value.is_array(),
        "object" => value.is_object(),
        other => panic!("the validator does not know type {other}"),
    }
}

/// The reasons `value` does not match `schema` (none when it does), at `path`.
fn check(root: &Value, schema: &Value, value: &Value, path: &str) -> Vec<String> {
    const KNOWN: [&str; 14] = [
        "type",
        "const",
        "enum",
        "properties",
        "required",
        "additionalProperties",
        "items",
        "oneOf",
        "$ref",
        "minimum",
        "maximum",
        "description",
        "title",
        "$schema",
    ];
    let schema = schema.as_object().expect("a schema is an object");
    for key in schema.keys() {
        assert!(
            KNOWN.contains(&key.as_str()) || key == "$defs" || key == "$id",
            "the validator does not know `{key}`"
        );
    }
    let mut errors = Vec::new();
    if let Some(reference) = schema.get("$ref") {
        let name = reference
            .as_str()
            .unwrap()
            .strip_prefix("#/$defs/")
            .unwrap();
        return check(root, &root["$defs"][name], value, path);
    }
    if let Some(types) = schema.get("type") {
        let fits = match types {
            Value::String(name) => type_matches(name, value),
            Value::Array(names) => names
                .iter()
                .any(|n| type_matches(n.as_str().unwrap(), value)),
            _ => panic!("bad type"),
        };
        if !fits {
            return vec![format!("{path}: {value} is not of type {types}")];
        }
    }
    if let Some(constant) = schema.get("const")
        && constant != value
    {
        errors.push(format!("{path}: {value} is not {constant}"));
    }
    if let Some(Value::Array(choices)) = schema.get("enum")
        && !choices.contains(value)
    {
        errors.push(format!("{path}: {value} is not one of {choices:?}"));
    }
    if let Some(n) = value.as_f64() {
        if let Some(min) = schema.get("minimum").and_then(Value::as_f64)
            && n < min
        {
            errors.push(format!("{path}: {n} < {min}"));
        }
        if let Some(max) = schema.get("maximum").and_then(Value::as_f64)
            && n > max
        {
            errors.push(format!("{path}: {n} > {max}"));
        }
    }
    if let Value::Object(fields) = value {
        let properties = schema.get("properties").and_then(Value::as_object);
        if let Some(Value::Array(required)) = schema.get("required") {
            for key in required {
                if !fields.contains_key(key.as_str().unwrap()) {
                    errors.push(format!("{path}: `{}` is missing", key.as_str().unwrap()));
                }
            }
        }
        for (key, item) in fields {
            match properties.and_then(|p| p.get(key)) {
                Some(inner) => errors.extend(check(root, inner, item, &format!("{path}.{key}"))),
                None => match schema.get("additionalProperties") {
                    Some(Value::Bool(false)) => {
                        errors.push(format!("{path}: `{key}` is not in the schema"));
                    }
                    Some(inner @ Value::Object(_)) => {
                        errors.extend(check(root, inner, item, &format!("{path}.{key}")));
                    }
                    _ => {}
                },
            }
        }
    }
    if let (Value::Array(items), Some(inner)) = (value, schema.get("items")) {
        for (i, item) in items.iter().enumerate() {
            errors.extend(check(root, inner, item, &format!("{path}[{i}]")));
        }
    }
    if let Some(Value::Array(choices)) = schema.get("oneOf") {
        let matching: Vec<usize> = choices
            .iter()
            .enumerate()
            .filter(|(_, choice)| check(root, choice, value, path).is_empty())
            .map(|(i, _)| i)
            .collect();
        if matching.len() != 1 {
            let why: Vec<String> = choices
                .iter()
                .flat_map(|choice| check(root, choice, value, path))
                .take(12)
                .collect();
            errors.push(format!(
                "{path}: matches {} of the oneOf choices, not exactly one: {why:#?}",
                matching.len()
            ));
        }
    }
    errors
}

/// Panics unless `value` is a response the schema allows.
fn assert_response(value: &Value) {
    let root = schema();
    let errors = check(&root, &root["$defs"]["response"], value, "response");
    assert!(errors.is_empty(), "{value}\n{errors:#?}");
}

/// Panics unless `value` is a request the schema allows.
fn assert_request(value: &Value) {
    let root = schema();
    let errors = check(&root, &root["$defs"]["request"], value, "request");
    assert!(errors.is_empty(), "{value}\n{errors:#?}");
}

#[test]
fn the_schema_and_the_code_agree_on_commands_settings_and_error_kinds() {
    let root = schema();
    let defs = &root["$defs"];
    for command in COMMANDS {
        assert!(
            defs.get(format!("request_{command}")).is_some(),
            "{command} has no request schema"
        );
    }
    let requests = defs["request"]["oneOf"].as_array().unwrap();
    assert_eq!(requests.len(), COMMANDS.len());
    let mut settings: Vec<&str> = defs["request_go"]["properties"]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .filter(|k| !["id", "cmd"].contains(k))
        .collect();
    settings.sort_unstable();
    let mut fields: Vec<&str> = keys().collect();
    fields.sort_unstable();
    assert_eq!(settings, fields, "go's schema lists every engine setting");
    let kinds: Vec<Value> = ErrorKind::ALL
        .iter()
        .map(|k| serde_json::to_value(k).unwrap())
        .collect();
    assert_eq!(
        defs["response_error"]["properties"]["error"]["properties"]["kind"]["enum"],
        Value::Array(kinds)
    );
    // The validator refuses what it should.
    assert!(
        !check(
            &root,
            &defs["response"],
            &json!({"id": 1, "type": "ok", "x": 1}),
            "r"
        )
        .is_empty()
    );
    assert!(
        !check(
            &root,
            &defs["response"],
            &json!({"id": 1, "type": "nope"}),
            "r"
        )
        .is_empty()
    );
    assert!(!check(&root, &defs["request"], &json!({"cmd": "play"}), "r").is_empty());
}

// ---------------------------------------------------------------------------------------
// A served process.

struct Served {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    next_id: u64,
}

impl Served {
    /// A server with its cache (Kalah's endgame databases) in the tests' shared cache
    /// directory, never the user's.
    fn start(args: &[&str]) -> Self {
        Self::start_in(args, &common::test_cache_dir())
    }

    fn start_in(args: &[&str], cache: &std::path::Path) -> Self {
        let mut child = Command::new(env!("CARGO_BIN_EXE_gametree"))
            .env("GAMETREE_CACHE_DIR", cache)
            .arg("serve")
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        Self {
            child,
            stdin,
            lines,
            next_id: 0,
        }
    }

    fn send_raw(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().unwrap();
        stdin.write_all(bytes).unwrap();
        stdin.flush().unwrap();
    }

    /// Sends `request` with a fresh id (unless it has one).
    fn send(&mut self, mut request: Value) -> Value {
        if request.get("id").is_none() {
            self.next_id += 1;
            request["id"] = json!(self.next_id);
        }
        assert_request(&request);
        self.send_raw(format!("{request}\n").as_bytes());
        request["id"].clone()
    }

    /// The next response line, checked against the schema.
    fn next(&mut self) -> Value {
        let line = self
            .lines
            .recv_timeout(PATIENCE)
            .expect("an answer (the server went silent or ended)");
        // `id` and `type` come first, for people reading transcripts (a tree: its nodes).
        assert!(
            line.starts_with("{\"id\":") || line.starts_with("{\"nodes\":"),
            "{line}"
        );
        let value: Value = serde_json::from_str(&line).unwrap();
        assert_response(&value);
        value
    }

    /// Sends `request` and reads until its final response (skipping `info` and `preparing`),
    /// which is returned after the `info` lines.
    fn ask(&mut self, request: Value) -> (Vec<Value>, Value) {
        let id = self.send(request);
        let mut infos = Vec::new();
        loop {
            let response = self.next();
            assert_eq!(response["id"], id, "{response}");
            if response["type"] == "preparing" {
                continue;
            }
            if response["type"] == "info" {
                infos.push(response);
            } else {
                return (infos, response);
            }
        }
    }

    fn one(&mut self, request: Value) -> Value {
        self.ask(request).1
    }

    /// Closes the input; the exit status once the process has ended.
    fn finish(mut self) -> (std::process::ExitStatus, Vec<Value>) {
        drop(self.stdin.take());
        let mut rest = Vec::new();
        while let Ok(line) = self.lines.recv_timeout(PATIENCE) {
            let value: Value = serde_json::from_str(&line).unwrap();
            assert_response(&value);
            rest.push(value);
        }
        (self.child.wait().unwrap(), rest)
    }
    /// Every response until the process ends by itself (the input closed first when
    /// `close` says so) or `within` has passed, when it is killed (the status is then
    /// `None`): a guard against a hang that a test can assert on.
    fn until_end(
        mut self,
        close: bool,
        within: Duration,
    ) -> (Option<std::process::ExitStatus>, Vec<Value>) {
        if close {
            drop(self.stdin.take());
        }
        let deadline = std::time::Instant::now() + within;
        let mut rest = Vec::new();
        let ended = loop {
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    let value: Value = serde_json::from_str(&line).unwrap();
                    assert_response(&value);
                    rest.push(value);
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => break true,
                Err(mpsc::RecvTimeoutError::Timeout) => break false,
            }
        };
        if !ended {
            let _ = self.child.kill();
        }
        let status = self.child.wait().unwrap();
        (ended.then_some(status), rest)
    }
}

fn error_kind(response: &Value) -> &str {
    assert_eq!(response["type"], "error", "{response}");
    response["error"]["kind"].as_str().unwrap()
}

// ---------------------------------------------------------------------------------------
// Transcripts.

#[test]
fn hello_reports_the_version_the_games_and_their_typed_options() {
    let mut served = Served::start(&[]);
    let hello = served.one(json!({"cmd": "hello"}));
    assert_eq!(hello["protocol"], 1);
    let config = Config::builtin().unwrap();
    let games = hello["games"].as_array().unwrap();
    assert_eq!(games.len(), GameKind::ALL.len());
    for (entry, kind) in games.iter().zip(GameKind::ALL) {
        assert_eq!(entry["name"], kind.name());
        gametree::with_game!(kind, G => {
            let options = config.games.get::<G>().unwrap();
            assert_eq!(entry["options"], serde_json::to_value(options).unwrap());
            let keys: Vec<String> = options.entries().into_iter().map(|(k, _)| k).collect();
            assert_eq!(entry["option_keys"], json!(keys));
            assert_eq!(entry["sides"]["first"], G::side_name(Player::First));
        });
    }
    let fields: Vec<&str> = hello["engine"]["fields"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["key"].as_str().unwrap())
        .collect();
    assert_eq!(fields, keys().collect::<Vec<_>>());
    assert_eq!(served.one(json!({"cmd": "quit"}))["type"], "bye");
    let (status, rest) = served.finish();
    assert!(status.success());
    assert!(rest.is_empty(), "{rest:?}");
}

#[test]
fn tictactoe_transcript_new_play_legal_state_undo_position() {
    let mut served = Served::start(&[]);
    let state = served.one(json!({"cmd": "new", "game": "tictactoe"}));
    assert_eq!(state["type"], "state");
    assert_eq!(state["to_move"], "first");
    assert_eq!(state["to_move_name"], "X");
    assert_eq!(state["position"]["rows"], json!(["...", "...", "..."]));
    let legal = served.one(json!({"cmd": "legal"}));
    assert_eq!(legal["moves"].as_array().unwrap().len(), 9);
    assert_eq!(legal["moves"][0], json!({"move": "a1", "index": 0}));
    let state = served.one(json!({"cmd": "play", "move": "b2"}));
    assert_eq!(state["to_move"], "second");
    assert_eq!(state["last_move"], "b2");
    assert_eq!(state["extra_turn"], false);
    assert_eq!(state["position"]["rows"], json!(["...", ".X.", "..."]));
    // A move by its index: 6 is a3 (row 3 is the top row).
    let state = served.one(json!({"cmd": "play", "move": 6}));
    assert_eq!(state["moves"], json!(["b2", "a3"]));
    assert_eq!(state["position"]["rows"], json!(["O..", ".X.", "..."]));
    let state = served.one(json!({"cmd": "undo"}));
    assert_eq!(state["moves"], json!(["b2"]));
    let state = served.one(json!({"cmd": "position", "moves": ["a1", "b1", "a2", "b2", "a3"]}));
    assert_eq!(state["outcome"], json!({"winner": "first", "margin": 1}));
    assert_eq!(state["to_move"], Value::Null);
    assert_eq!(state["position"]["winning_line"], json!(["a1", "a2", "a3"]));
    assert_eq!(served.one(json!({"cmd": "legal"}))["moves"], json!([]));
    assert_eq!(error_kind(&served.one(json!({"cmd": "go"}))), "game_over");
    assert_eq!(
        error_kind(&served.one(json!({"cmd": "play", "move": "c3"}))),
        "illegal_move"
    );
    let state = served.one(json!({"cmd": "state"}));
    assert_eq!(state["ply"], 5);
    let (status, _) = served.finish();
    assert!(status.success());
}

#[test]
fn kalah_extra_turns_are_explicit() {
    let mut served = Served::start(&[]);
    let state = served.one(json!({"cmd": "new", "game": "kalah"}));
    assert_eq!(state["position"]["south"], json!([4, 4, 4, 4, 4, 4]));
    assert_eq!(state["scores"], json!({"first": 0, "second": 0}));
    // Pit c holds 4 stones: d, e, f and the store: South moves again.
    let state = served.one(json!({"cmd": "play", "move": "c"}));
    assert_eq!(state["to_move"], "first");
    assert_eq!(state["to_move_name"], "South");
    assert_eq!(state["extra_turn"], true);
    assert_eq!(state["scores"], json!({"first": 1, "second": 0}));
    let state = served.one(json!({"cmd": "play", "move": "a"}));
    assert_eq!(state["to_move"], "second");
    assert_eq!(state["extra_turn"], false);
    let refused = served.one(json!({"cmd": "play", "move": "z"}));
    assert_eq!(error_kind(&refused), "bad_move");
    let state =
        served.one(json!({"cmd": "new", "game": "kalah", "options": {"pits": 4, "stones": 3}}));
    assert_eq!(state["position"]["north"], json!([3, 3, 3, 3]));
    let solved = served.one(json!({"cmd": "solve"}));
    assert_eq!(solved["units"], "margin");
    assert_eq!(solved["value"], 6, "Kalah(4,3) standard capture: +6");
    assert_eq!(solved["completed"], true);
}

#[test]
fn a_search_first_prepares_the_endgame_database_with_progress_lines() {
    // A cache of its own, so that the database is built here, not loaded.
    let cache = std::env::temp_dir().join(format!("gametree-serve-prepare-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&cache);
    let mut served = Served::start_in(&[], &cache);
    let options = json!({"pits": 3, "stones": 2, "endgame_stones": 6});
    served.one(json!({"cmd": "new", "game": "kalah", "options": options}));
    let id = served.send(json!({"cmd": "go", "depth": 4, "threads": 1}));
    let first = served.next();
    assert_eq!(first["id"], id);
    assert_eq!(first["type"], "preparing", "{first}");
    assert_eq!(first["what"], "endgame database");
    assert!(first["total"].as_u64().unwrap() > 0, "{first}");
    let mut last = first;
    while last["type"] != "bestmove" {
        last = served.next();
        assert_eq!(last["id"], id);
    }
    assert!(
        cache.read_dir().unwrap().next().is_some(),
        "the database is cached"
    );
    // Ready now: the next search starts at once.
    let id = served.send(json!({"cmd": "go", "depth": 4, "threads": 1}));
    let next = served.next();
    assert_eq!(next["id"], id);
    assert_ne!(next["type"], "preparing", "{next}");
    let (status, _) = served.finish();
    assert!(status.success());
    let _ = std::fs::remove_dir_all(&cache);
}

#[test]
fn dots_and_gomoku_transcripts() {
    let mut served = Served::start(&[]);
    let state =
        served.one(json!({"cmd": "new", "game": "dots", "options": {"rows": 1, "cols": 2}}));
    assert_eq!(state["position"]["boxes"], json!([".."]));
    let state = served.one(json!({"cmd": "position", "moves": ["a1-b1", "a2-b2", "a1-a2"]}));
    assert_eq!(state["to_move"], "second");
    // B closes the left box and moves again.
    let state = served.one(json!({"cmd": "play", "move": "b1-b2"}));
    assert_eq!(state["extra_turn"], true);
    assert_eq!(state["to_move"], "second");
    assert_eq!(state["position"]["boxes"], json!(["B."]));
    assert_eq!(state["scores"], json!({"first": 0, "second": 1}));
    assert_eq!(state["position"]["drawn"].as_array().unwrap().len(), 4);
    let perft = served.one(json!({"cmd": "perft", "depth": 2, "divide": true}));
    let divided: u64 = perft["divide"]
        .as_object()
        .unwrap()
        .values()
        .map(|n| n.as_u64().unwrap())
        .sum();
    assert_eq!(perft["nodes"], divided);
    assert_eq!(perft["nodes"], 3 * 2);

    let state =
        served.one(json!({"cmd": "new", "game": "gomoku", "options": {"size": 7, "connect": 4}}));
    assert_eq!(state["position"]["rows"].as_array().unwrap().len(), 7);
    assert_eq!(state["to_move_name"], "Black");
    let state = served.one(json!({"cmd": "play", "move": "d4"}));
    assert_eq!(state["position"]["rows"][3], "...X...");
    let (infos, best) = served.ask(json!({"cmd": "go", "depth": 2, "time_ms": 0, "seed": 3}));
    assert_eq!(best["type"], "bestmove");
    assert_eq!(best["completed"], true);
    assert_eq!(best["depth"], 2);
    for info in &infos {
        assert!(info["move"].is_string());
    }
    assert_eq!(
        served.one(json!({"cmd": "play", "move": best["move"].clone()}))["ply"],
        2
    );
    let perft = served.one(json!({"cmd": "perft", "depth": 1}));
    assert_eq!(perft["nodes"], 47);
}

#[test]
fn tree_is_bounded_and_has_the_fields_of_tree_json() {
    let mut served = Served::start(&[]);
    served.one(json!({"cmd": "new", "game": "tictactoe"}));
    let tree = served.one(json!({"cmd": "tree", "max_nodes": 40, "depth": 3, "seed": 1}));
    assert_eq!(tree["type"], "tree");
    let nodes = tree["nodes"].as_array().unwrap();
    // The budget, and the root's children past it (kept so every root move shows).
    assert!((40..40 + 9).contains(&nodes.len()), "{}", nodes.len());
    assert_eq!(tree["truncated"], true);
    let out = common::gametree(&[
        "tree",
        "tictactoe",
        "--json",
        "--max-nodes",
        "40",
        "--depth",
        "3",
        "--seed",
        "1",
    ]);
    let cli: Value = serde_json::from_slice(&out.stdout).unwrap();
    let keys = |v: &Value| {
        let mut k: Vec<String> = v.as_object().unwrap().keys().cloned().collect();
        k.retain(|k| k != "id" && k != "type");
        k.sort();
        k
    };
    assert_eq!(keys(&tree), keys(&cli));
    assert_eq!(
        tree["nodes"], cli["nodes"],
        "the same search, the same tree"
    );
}

#[test]
fn refused_requests_are_errors_with_kinds_and_the_server_goes_on() {
    let mut served = Served::start(&[]);
    let cases: [(&str, &str, &str); 14] = [
        ("{\"cmd\": \"state\"", "malformed_json", "JSON"),
        ("[1, 2]", "bad_request", "object"),
        ("{\"id\": 4}", "bad_request", "no `cmd`"),
        (
            "{\"id\": 5, \"cmd\": \"castle\"}",
            "unknown_command",
            "castle",
        ),
        (
            "{\"id\": 6, \"cmd\": \"play\", \"move\": \"b2\", \"colour\": \"x\"}",
            "unknown_field",
            "`colour`",
        ),
        (
            "{\"id\": 7, \"cmd\": \"go\", \"dpth\": 3}",
            "unknown_field",
            "`dpth`",
        ),
        (
            "{\"id\": 8, \"cmd\": \"go\", \"depth\": 99}",
            "invalid_value",
            "0..=64",
        ),
        (
            "{\"id\": 9, \"cmd\": \"go\", \"depth\": \"deep\"}",
            "invalid_value",
            "depth",
        ),
        (
            "{\"id\": 10, \"cmd\": \"new\", \"game\": \"kalah\", \"options\": {\"pitz\": 4}}",
            "unknown_field",
            "pitz",
        ),
        (
            "{\"id\": 11, \"cmd\": \"new\", \"game\": \"kalah\", \"options\": {\"pits\": 40}}",
            "invalid_value",
            "kalah.pits",
        ),
        (
            "{\"id\": 12, \"cmd\": \"new\", \"game\": \"chess\"}",
            "invalid_value",
            "chess",
        ),
        (
            "{\"id\": 13, \"cmd\": \"undo\", \"count\": 3}",
            "nothing_to_undo",
            "3",
        ),
        (
            "{\"id\": 14, \"cmd\": \"go\", \"evaluator\": \"magic\"}",
            "invalid_value",
            "magic",
        ),
        (
            "{\"id\": 15, \"cmd\": \"go\", \"match_ms\": 60000}",
            "invalid_value",
            "keeps no match clock",
        ),
    ];
    served.one(json!({"cmd": "new", "game": "tictactoe"}));
    for (line, kind, mentions) in cases {
        served.send_raw(format!("{line}\n").as_bytes());
        let response = served.next();
        assert_eq!(error_kind(&response), kind, "{line}: {response}");
        let message = response["error"]["message"].as_str().unwrap();
        assert!(message.contains(mentions), "{line}: {message}");
        if let Ok(Value::Object(request)) = serde_json::from_str::<Value>(line)
            && let Some(id) = request.get("id")
        {
            assert_eq!(&response["id"], id, "{line}");
        }
    }
    let refused = served.one(json!({"id": "s", "cmd": "play", "move": "b2"}));
    assert_eq!(refused["type"], "state");
    let refused = served.one(json!({"id": "t", "cmd": "play", "move": "b2"}));
    assert_eq!(error_kind(&refused), "illegal_move");
    assert_eq!(refused["id"], "t");
    assert!(
        refused["error"]["message"]
            .as_str()
            .unwrap()
            .contains("taken")
    );
    let refused = served.one(json!({"cmd": "position", "moves": ["a1", "a1"]}));
    assert!(
        refused["error"]["message"]
            .as_str()
            .unwrap()
            .contains("move 2")
    );
    assert_eq!(
        served.one(json!({"cmd": "state"}))["moves"],
        json!(["b2"]),
        "unchanged"
    );
    let (status, _) = served.finish();
    assert!(status.success());
}

#[test]
fn very_long_lines_are_refused_and_the_server_goes_on() {
    let mut served = Served::start(&[]);
    let mut long = vec![b'x'; 3 << 20];
    long.push(b'\n');
    served.send_raw(&long);
    let response = served.next();
    assert_eq!(error_kind(&response), "line_too_long");
    assert!(
        response["error"]["message"]
            .as_str()
            .unwrap()
            .contains("3145728 bytes")
    );
    assert_eq!(served.one(json!({"cmd": "state"}))["type"], "state");
    // A long line without its end, then the end of the input.
    served.send_raw(&vec![b'{'; 2 << 20]);
    let (status, rest) = served.finish();
    assert!(status.success());
    assert_eq!(rest.len(), 1);
    assert_eq!(error_kind(&rest[0]), "line_too_long");
}

#[test]
fn stop_ends_a_long_search_which_still_answers() {
    let mut served = Served::start(&[]);
    served.one(json!({"cmd": "new", "game": "gomoku"}));
    let go = served.send(json!({"cmd": "go", "depth": 64, "time_ms": 0, "threads": 1}));
    // Thinking: a first progress line, and `state` is answered at once.
    let info = served.next();
    assert_eq!(
        (info["id"].clone(), info["type"].as_str()),
        (go.clone(), Some("info"))
    );
    let state_id = served.send(json!({"cmd": "state"}));
    let stop_id = served.send(json!({"cmd": "stop"}));
    let mut seen = Vec::new();
    let best = loop {
        let response = served.next();
        if response["type"] == "bestmove" {
            break response;
        }
        seen.push(response);
    };
    assert_eq!(best["id"], go);
    assert_eq!(best["completed"], false);
    assert!(best["move"].is_string());
    assert!(
        seen.iter()
            .any(|r| r["id"] == state_id && r["type"] == "state"),
        "{seen:?}"
    );
    let ok = served.next();
    assert_eq!(
        (ok["id"].clone(), ok["type"].as_str()),
        (stop_id, Some("ok"))
    );
    // `quit` during a search stops it too: its answer, then bye.
    let go = served.send(json!({"cmd": "go", "depth": 64, "time_ms": 0, "threads": 1}));
    assert_eq!(served.next()["id"], go);
    served.send(json!({"cmd": "quit"}));
    let (status, rest) = served.finish();
    assert!(status.success());
    let last_two: Vec<&str> = rest
        .iter()
        .rev()
        .take(2)
        .map(|r| r["type"].as_str().unwrap())
        .collect();
    assert_eq!(last_two, ["bye", "bestmove"], "{rest:?}");
}

#[test]
fn piped_requests_are_all_answered_before_the_end() {
    // A script: every line at once, then the end of the input. The search runs to its
    // depth and the requests after it wait for it.
    let mut served = Served::start(&["--seed", "5"]);
    served.send_raw(
        b"{\"id\":1,\"cmd\":\"new\",\"game\":\"kalah\",\"options\":{\"pits\":4,\"stones\":3}}\n\
          {\"id\":2,\"cmd\":\"go\",\"depth\":6,\"time_ms\":0}\n\
          {\"id\":3,\"cmd\":\"play\",\"move\":\"a\"}\n\
          {\"id\":4,\"cmd\":\"state\"}\n",
    );
    let (status, rest) = served.finish();
    assert!(status.success());
    let finals: Vec<(u64, &str)> = rest
        .iter()
        .filter(|r| r["type"] != "info")
        .map(|r| (r["id"].as_u64().unwrap(), r["type"].as_str().unwrap()))
        .collect();
    assert_eq!(
        finals,
        [(1, "state"), (2, "bestmove"), (3, "state"), (4, "state")]
    );
    let best = rest.iter().find(|r| r["type"] == "bestmove").unwrap();
    assert_eq!(best["completed"], true);
    assert_eq!(best["depth"], 6);
}

/// The answers in `responses` other than progress lines, as (id, type, completed).
fn finals(responses: &[Value]) -> Vec<(u64, String, Option<bool>)> {
    responses
        .iter()
        .filter(|r| r["type"] != "info" && r["type"] != "preparing")
        .map(|r| {
            (
                r["id"].as_u64().unwrap(),
                r["type"].as_str().unwrap().to_string(),
                r["completed"].as_bool(),
            )
        })
        .collect()
}

#[test]
fn lines_queued_behind_a_search_act_on_the_search_they_waited_for() {
    // Every line at once: while the first search (a perft of some milliseconds) runs, the
    // solve waits, and so do the lines behind it. Once the solve (of 9x9 Dots: never in
    // test time) has started, they act on it as if they came then: `state` is answered,
    // `stop` and `quit` end it. They used to wait behind it for ever.
    const WITHIN: Duration = Duration::from_secs(60);
    let new = r#"{"id":1,"cmd":"new","game":"dots","options":{"rows":9,"cols":9}}"#;
    for first in [
        r#"{"id":2,"cmd":"perft","depth":3}"#,
        r#"{"id":2,"cmd":"go","depth":3,"time_ms":0,"threads":1}"#,
    ] {
        let mut served = Served::start(&[]);
        served.send_raw(
            format!(
                "{new}\n{first}\n{}\n\n{}\n{}\n{}\n{}\n",
                r#"{"id":3,"cmd":"solve","threads":1}"#,
                r#"{"id":4,"cmd":"state"}"#,
                r#"{"id":5,"cmd":"stop"}"#,
                r#"{"id":6,"cmd":"quit"}"#,
                r#"{"id":7,"cmd":"state"}"#,
            )
            .as_bytes(),
        );
        // The input stays open: `quit` alone ends the process.
        let (status, rest) = served.until_end(false, WITHIN);
        let first_type = if first.contains("perft") {
            "perft"
        } else {
            "bestmove"
        };
        assert_eq!(
            finals(&rest),
            [
                (1, "state".into(), None),
                (2, first_type.into(), Some(true)),
                (4, "state".into(), None),
                (3, "solved".into(), Some(false)),
                (5, "ok".into(), None),
                (6, "bye".into(), None),
            ],
            "{first}: {rest:?}"
        );
        assert!(status.is_some_and(|s| s.success()), "{first}: {status:?}");
    }
    // The end of the input behind them: the stopped solve answers, then the `stop`, then
    // the line that waited for the search (a move), and the process ends.
    let mut served = Served::start(&[]);
    served.send_raw(
        format!(
            "{new}\n{}\n{}\n{}\n{}\n",
            r#"{"id":2,"cmd":"perft","depth":3}"#,
            r#"{"id":3,"cmd":"solve","threads":1}"#,
            r#"{"id":4,"cmd":"stop"}"#,
            r#"{"id":5,"cmd":"play","move":0}"#,
        )
        .as_bytes(),
    );
    let (status, rest) = served.until_end(true, WITHIN);
    let kinds: Vec<_> = finals(&rest)
        .into_iter()
        .map(|(id, kind, _)| (id, kind))
        .collect();
    assert_eq!(
        kinds,
        [
            (1, "state".into()),
            (2, "perft".into()),
            (3, "solved".into()),
            (4, "ok".into()),
            (5, "state".into()),
        ],
        "{rest:?}"
    );
    assert!(status.is_some_and(|s| s.success()), "{status:?}");
}

/// Plays a whole game of `game` with `options`, the engine choosing every move through
/// the protocol; checks extra turns and returns the final state.
fn whole_game(served: &mut Served, game: &str, options: &Value, go: &Value) -> (Value, usize) {
    let mut state = served.one(json!({"cmd": "new", "game": game, "options": options}));
    let mut extra_turns = 0;
    while state["outcome"].is_null() {
        let legal = served.one(json!({"cmd": "legal"}));
        let mut request = go.clone();
        request["cmd"] = json!("go");
        let best = served.one(request);
        assert_eq!(best["type"], "bestmove", "{best}");
        let mv = best["move"].clone();
        assert!(
            legal["moves"]
                .as_array()
                .unwrap()
                .iter()
                .any(|m| m["move"] == mv),
            "{mv} is not among {legal}"
        );
        let mover = state["to_move"].clone();
        state = served.one(json!({"cmd": "play", "move": mv}));
        assert_eq!(state["type"], "state", "{state}");
        if state["extra_turn"] == true {
            assert_eq!(state["to_move"], mover);
            extra_turns += 1;
        } else if state["outcome"].is_null() {
            assert_ne!(state["to_move"], mover);
        }
    }
    (state, extra_turns)
}

#[test]
fn a_whole_game_of_every_kind_through_the_protocol() {
    let mut served = Served::start(&["--seed", "11"]);
    let quick = json!({"depth": 2, "time_ms": 0});
    let (state, _) = whole_game(
        &mut served,
        "tictactoe",
        &json!({}),
        &json!({"depth": 9, "time_ms": 0}),
    );
    assert_eq!(
        state["outcome"],
        json!({"winner": null, "margin": 0}),
        "perfect play draws"
    );
    let (state, _) = whole_game(
        &mut served,
        "gomoku",
        &json!({"size": 7, "connect": 4}),
        &quick,
    );
    assert!(!state["outcome"].is_null());
    let (state, extra) = whole_game(
        &mut served,
        "kalah",
        &json!({"pits": 4, "stones": 3}),
        &quick,
    );
    let stores = &state["position"]["stores"];
    assert_eq!(
        stores[0].as_u64().unwrap() + stores[1].as_u64().unwrap(),
        24
    );
    assert!(extra > 0, "no extra turn in a whole Kalah game");
    let (state, extra) = whole_game(&mut served, "dots", &json!({"rows": 2, "cols": 2}), &quick);
    let scores = &state["scores"];
    assert_eq!(
        scores["first"].as_u64().unwrap() + scores["second"].as_u64().unwrap(),
        4
    );
    assert!(extra > 0, "no extra turn in a whole Dots and Boxes game");
    let (status, _) = served.finish();
    assert!(status.success());
}

#[test]
fn play_text_quiet_prints_no_boards_and_fails_on_a_refused_line() {
    let (status, out, errors) = common::gametree_piped(
        &["play", "tictactoe", "--text", "--quiet", "--seed", "1"],
        b"b2\n",
    );
    assert!(status.success(), "{errors}");
    assert!(out.contains("O plays"), "{out}");
    assert!(!out.contains("to move>") && !out.contains(". . ."), "{out}");
    let (status, out, errors) = common::gametree_piped(
        &["play", "tictactoe", "--text", "--quiet", "--seed", "1"],
        b"b2\nb2\nc3\n",
    );
    assert!(!status.success());
    assert!(errors.contains("already taken"), "{errors}");
    assert!(!out.contains("already taken"), "{out}");
    let help = common::gametree(&["play", "--help"]);
    assert!(String::from_utf8_lossy(&help.stdout).contains("gametree serve"));
}

// ---------------------------------------------------------------------------------------
// In-process: the protocol against the library, for random games.

fn respond(core: &mut Core, request: &Value) -> Value {
    let lines = core.respond(&request.to_string());
    let last = lines.last().unwrap();
    serde_json::from_str(last).unwrap()
}

fn agrees<G: Describe>(options: &Value, choices: &[usize]) {
    let mut core = Core::new(Config::builtin().unwrap(), EngineSettings::default()).unwrap();
    let state = respond(
        &mut core,
        &json!({"cmd": "new", "game": G::KIND.name(), "options": options}),
    );
    assert_eq!(state["type"], "state", "{state}");
    let mut options_json =
        serde_json::to_value(Config::builtin().unwrap().games.get::<G>().unwrap()).unwrap();
    for (k, v) in options.as_object().unwrap() {
        options_json[k] = v.clone();
    }
    let options: G::Options = serde_json::from_value(options_json).unwrap();
    let mut game = G::new_game(&options);
    let mut played = Vec::new();
    for &choice in choices {
        let legal = respond(&mut core, &json!({"cmd": "legal"}));
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        let expected: Vec<Value> = moves
            .iter()
            .map(|&m| json!({"move": game.format_move(m), "index": game.move_index(m)}))
            .collect();
        assert_eq!(legal["moves"], Value::Array(expected));
        let state = respond(&mut core, &json!({"cmd": "state"}));
        let to_move = game.outcome().is_none().then(|| game.to_move());
        assert_eq!(state["to_move"], json!(to_move));
        assert_eq!(state["moves"], json!(played));
        assert_eq!(state["position"], game.position());
        assert_eq!(
            state["scores"],
            json!(game.scores().map(|[a, b]| json!({"first": a, "second": b})))
        );
        match game.outcome() {
            None => assert!(state["outcome"].is_null()),
            Some(outcome) => {
                assert_eq!(
                    state["outcome"]["margin"],
                    outcome.value_for(Player::First).abs()
                );
            }
        }
        if moves.is_empty() {
            break;
        }
        let mv = moves[choice % moves.len()];
        let notation = game.format_move(mv);
        // Half the moves by notation, half by index.
        let by = if choice % 2 == 0 {
            json!(notation)
        } else {
            json!(game.move_index(mv))
        };
        let after = respond(&mut core, &json!({"cmd": "play", "move": by}));
        assert_eq!(after["type"], "state", "{after}");
        let mover = game.to_move();
        game.play(mv);
        played.push(notation);
        assert_eq!(
            after["extra_turn"],
            game.outcome().is_none() && game.to_move() == mover
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn legal_and_state_over_the_protocol_equal_the_library(
        choices in prop::collection::vec(0usize..1000, 0..40),
    ) {
        use gametree::games::{dots::Dots, gomoku::Gomoku, kalah::Kalah, tictactoe::TicTacToe};
        agrees::<TicTacToe>(&json!({}), &choices);
        agrees::<Gomoku>(&json!({"size": 6, "connect": 4}), &choices);
        agrees::<Kalah>(&json!({"pits": 4, "stones": 2}), &choices);
        agrees::<Dots>(&json!({"rows": 2, "cols": 3}), &choices);
    }
}
