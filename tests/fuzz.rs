//! Property tests over arbitrary and mutated bytes for every parser that reads what a user,
//! a config file, a save file, a Gomocup manager or the terminal gives: configs, saves, move
//! strings, `--entrant` flags, tournament files, brain protocol lines and terminal bytes. Each must answer with a value or an error, never panic, and an error
//! message must never carry an escape character from its input.
//!
//! Seeds live in `tests/data/fuzz/<surface>/`; mutations flip, insert, delete and splice
//! bytes and plant awkward tokens. `PROPTEST_CASES=100000 cargo test --release --test fuzz`
//! runs a long campaign; the default is a short one for CI.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::Path;

use gametree::brain::protocol::{CommandReader, Response};
use gametree::config::Config;
use gametree::games::Playable;
use gametree::games::dots::Dots;
use gametree::games::gomoku::{Gomoku, GomokuOptions, Rule};
use gametree::games::kalah::Kalah;
use gametree::games::tictactoe::TicTacToe;
use gametree::session::{Session, parse_saved, peek_saved};
use gametree::tournament::entrants::{TournamentSpec, parse_entrant_flag};
use gametree::tui::input::{Decoder, PARTIAL_TIMEOUT};
use proptest::prelude::*;
use ratatui::crossterm::event::{Event as CtEvent, KeyCode, KeyEvent};
use std::time::{Duration, Instant};

/// Cases per surface when `PROPTEST_CASES` is not set.
const SHORT_BUDGET: u32 = 300;

fn config() -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(SHORT_BUDGET);
    ProptestConfig {
        cases,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

fn seeds(surface: &str) -> Vec<Vec<u8>> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/fuzz")
        .join(surface);
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    let seeds: Vec<Vec<u8>> = files.iter().map(|p| std::fs::read(p).unwrap()).collect();
    assert!(!seeds.is_empty(), "no seeds in {}", dir.display());
    seeds
}

/// The config seeds, and the built-in config.toml itself (so that every key it has, the
/// Gomoku pattern table's among them, is mutated, and the seed never goes stale).
fn config_seeds() -> Vec<Vec<u8>> {
    let mut all = seeds("config");
    all.push(include_bytes!("../config.toml").to_vec());
    all
}

/// Seeds of one line each (moves, entrant flags).
fn line_seeds(surface: &str) -> Vec<Vec<u8>> {
    seeds(surface)
        .iter()
        .flat_map(|file| file.split(|&b| b == b'\n').map(<[u8]>::to_vec))
        .collect()
}

/// Tokens that have broken parsers of this kind elsewhere.
const TOKENS: &[&str] = &[
    "\u{1b}[2J",
    "\u{1b}]0;x\u{7}",
    "\n",
    "\r",
    "\"",
    "'",
    "[",
    "]",
    "{",
    "}",
    "=",
    ",",
    ".",
    "-",
    "-1",
    "0",
    "4294967296",
    "18446744073709551616",
    "99999999999999999999999",
    "nan",
    "inf",
    "1e309",
    "true",
    "null",
    "\u{202e}",
    "é",
    "\u{0}",
];

#[derive(Clone, Debug)]
enum Mutation {
    Flip(usize, u8),
    Insert(usize, u8),
    Delete(usize, usize),
    Token(usize, usize),
    Duplicate(usize, usize),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<usize>(), any::<u8>()).prop_map(|(i, b)| Mutation::Flip(i, b)),
        (any::<usize>(), any::<u8>()).prop_map(|(i, b)| Mutation::Insert(i, b)),
        (any::<usize>(), 1..16usize).prop_map(|(i, n)| Mutation::Delete(i, n)),
        (any::<usize>(), any::<usize>()).prop_map(|(i, t)| Mutation::Token(i, t)),
        (any::<usize>(), 1..64usize).prop_map(|(i, n)| Mutation::Duplicate(i, n)),
    ]
}

fn apply(mut bytes: Vec<u8>, mutations: &[Mutation]) -> Vec<u8> {
    for m in mutations {
        let len = bytes.len();
        let at = |i: usize| if len == 0 { 0 } else { i % (len + 1) };
        match *m {
            Mutation::Flip(i, b) if len > 0 => bytes[i % len] ^= b,
            Mutation::Flip(..) => {}
            Mutation::Insert(i, b) => bytes.insert(at(i), b),
            Mutation::Delete(i, n) => {
                let start = at(i).min(len);
                let end = (start + n).min(len);
                bytes.drain(start..end);
            }
            Mutation::Token(i, t) => {
                let token = TOKENS[t % TOKENS.len()].as_bytes();
                let start = at(i);
                bytes.splice(start..start, token.iter().copied());
            }
            Mutation::Duplicate(i, n) => {
                let start = at(i).min(len);
                let end = (start + n).min(len);
                let piece = bytes[start..end].to_vec();
                bytes.splice(end..end, piece);
            }
        }
    }
    bytes
}

/// A seed mutated, or arbitrary bytes.
fn raw_input(seeds: Vec<Vec<u8>>) -> impl Strategy<Value = Vec<u8>> {
    let count = seeds.len();
    prop_oneof![
        4 => (0..count, prop::collection::vec(mutation(), 0..8))
            .prop_map(move |(i, ms)| apply(seeds[i].clone(), &ms)),
        1 => prop::collection::vec(any::<u8>(), 0..256),
    ]
}

/// A seed mutated, or arbitrary bytes, as text (invalid UTF-8 replaced).
fn input(seeds: Vec<Vec<u8>>) -> impl Strategy<Value = String> {
    raw_input(seeds).prop_map(|bytes| String::from_utf8_lossy(&bytes).into_owned())
}

/// Feeds `bytes` to a fresh decoder in pieces ending at `cuts`, the i-th piece `gaps_ms[i]`
/// after the one before, settling timed-out sequences before each piece as the input thread
/// does. Returns the events and the decoder.
fn decode_in_pieces(bytes: &[u8], cuts: &[usize], gaps_ms: &[u64]) -> (Vec<CtEvent>, Decoder) {
    let mut decoder = Decoder::new();
    let mut events = Vec::new();
    let mut now = Instant::now();
    let mut ends: Vec<usize> = cuts.iter().map(|&c| c % (bytes.len() + 1)).collect();
    ends.push(bytes.len());
    ends.sort_unstable();
    let mut start = 0;
    for (i, &end) in ends.iter().enumerate() {
        now += Duration::from_millis(gaps_ms.get(i).copied().unwrap_or(0));
        decoder.expire(now, &mut events);
        decoder.feed(&bytes[start..end], now, &mut events);
        start = end;
    }
    decoder.expire(now + PARTIAL_TIMEOUT, &mut events);
    (events, decoder)
}

fn assert_clean(message: &str) {
    assert!(
        !message.contains('\u{1b}') && !message.contains('\u{7}'),
        "an escape character reached a message: {message:?}"
    );
}

fn replay_moves<G: Playable>(text: &str) {
    let options = G::Options::default();
    let mut game = G::new_game(&options);
    for word in text.split_whitespace().take(64) {
        match game.parse_move(word) {
            Ok(mv) => {
                if let Err(e) = game.try_play(mv) {
                    assert_clean(&e.to_string());
                }
            }
            Err(e) => assert_clean(&e.to_string()),
        }
        if game.outcome().is_some() {
            break;
        }
    }
}

fn load_save<G: Playable>(text: &str) {
    match parse_saved::<G>(text, "fuzz") {
        Ok((session, _)) => {
            let _ = session.to_json(&Config::builtin().unwrap().players);
        }
        Err(e) => assert_clean(&e.to_string()),
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn config_files_never_panic(text in input(config_seeds())) {
        match Config::parse(&text, "fuzz.toml") {
            Ok(config) => {
                let _ = config.game_options::<TicTacToe>();
                let _ = config.game_options::<Gomoku>();
                let _ = config.game_options::<Kalah>();
                let _ = config.game_options::<Dots>();
            }
            Err(e) => assert_clean(&e.to_string()),
        }
    }

    #[test]
    fn save_files_never_panic(text in input(seeds("save"))) {
        if let Err(e) = peek_saved(&text) {
            assert_clean(&e.to_string());
        }
        load_save::<TicTacToe>(&text);
        load_save::<Gomoku>(&text);
        load_save::<Kalah>(&text);
        load_save::<Dots>(&text);
    }

    #[test]
    fn move_strings_never_panic(text in input(line_seeds("move"))) {
        replay_moves::<TicTacToe>(&text);
        replay_moves::<Gomoku>(&text);
        replay_moves::<Kalah>(&text);
        replay_moves::<Dots>(&text);
    }

    #[test]
    fn entrant_flags_never_panic(text in input(line_seeds("entrant"))) {
        if let Err(e) = parse_entrant_flag(&text) {
            // The flag's own message quotes raw; the command line quotes it (see
            // tournament::command), so only the absence of a panic is checked here.
            let _ = e;
        }
    }

    #[test]
    fn tournament_files_never_panic(text in input(seeds("tournament"))) {
        match TournamentSpec::parse(&text, "fuzz.toml", None) {
            Ok(spec) => {
                let config = Config::builtin().unwrap();
                if let Err(e) = spec.resolve::<Kalah>(&config) {
                    assert_clean(&e.to_string());
                }
            }
            Err(e) => assert_clean(&e.to_string()),
        }
    }
}

proptest! {
    #![proptest_config(config())]

    /// Manager lines to the brain: every line gets a command, an error or waits for its
    /// block's end; an error's answer is one line; a command read back from the lines it
    /// prints is the same command.
    #[test]
    fn brain_protocol_lines_never_panic(text in input(seeds("brain"))) {
        let mut reader = CommandReader::new();
        for line in text.lines() {
            for read in reader.feed(line) {
                match read {
                    Ok(command) => {
                        let mut again = CommandReader::new();
                        let lines = command.to_lines();
                        let reread: Vec<_> = lines.iter().flat_map(|l| again.feed(l)).collect();
                        prop_assert_eq!(reread, vec![Ok(command.clone())], "{:?}", lines);
                    }
                    Err(e) => {
                        let answer = e.response().to_string();
                        prop_assert!(!answer.chars().any(char::is_control), "{:?}", answer);
                    }
                }
            }
            if let Ok(response) = Response::parse(line) {
                let shown = response.to_string();
                prop_assert!(!shown.chars().any(char::is_control), "{:?}", shown);
            }
        }
    }

    /// Terminal bytes in any pieces at any pace: the decoder never panics, always settles
    /// (nothing left waiting once the timeout has passed), and a key typed afterwards
    /// arrives as that key.
    #[test]
    fn terminal_bytes_always_make_progress(
        bytes in raw_input(seeds("terminal")),
        cuts in prop::collection::vec(any::<usize>(), 0..8),
        gaps_ms in prop::collection::vec(0u64..120, 0..9),
    ) {
        let (_, mut decoder) = decode_in_pieces(&bytes, &cuts, &gaps_ms);
        prop_assert!(decoder.is_idle());
        let mut events = Vec::new();
        decoder.feed(b"q", Instant::now() + PARTIAL_TIMEOUT * 2, &mut events);
        prop_assert_eq!(events, vec![CtEvent::Key(KeyEvent::from(KeyCode::Char('q')))]);
    }

    /// Without pauses, how the bytes are split into reads does not change what they mean.
    #[test]
    fn terminal_bytes_mean_the_same_however_split(
        bytes in raw_input(seeds("terminal")),
        cuts in prop::collection::vec(any::<usize>(), 0..8),
    ) {
        let (whole, _) = decode_in_pieces(&bytes, &[], &[]);
        let (pieces, _) = decode_in_pieces(&bytes, &cuts, &[]);
        prop_assert_eq!(whole, pieces);
    }
}

fn accepted<G: Playable>(text: &str) {
    parse_saved::<G>(text, "seed").unwrap();
}

#[test]
fn every_seed_is_accepted() {
    // A corpus of refused inputs would test only the first error path of each parser.
    for seed in config_seeds() {
        Config::parse(&String::from_utf8(seed).unwrap(), "seed").unwrap();
    }
    for seed in seeds("tournament") {
        TournamentSpec::parse(&String::from_utf8(seed).unwrap(), "seed", None).unwrap();
    }
    let saves = seeds("save");
    let texts: Vec<String> = saves
        .into_iter()
        .map(|s| String::from_utf8(s).unwrap())
        .collect();
    assert_eq!(texts.len(), 4);
    for text in &texts {
        match peek_saved(text).unwrap() {
            gametree::games::GameKind::TicTacToe => accepted::<TicTacToe>(text),
            gametree::games::GameKind::Gomoku => accepted::<Gomoku>(text),
            gametree::games::GameKind::Kalah => accepted::<Kalah>(text),
            gametree::games::GameKind::Dots => accepted::<Dots>(text),
        }
    }
    let brain = seeds("brain");
    let [responses, commands] = brain.as_slice() else {
        panic!("tests/data/fuzz/brain: expected brain.txt and manager.txt");
    };
    for line in String::from_utf8_lossy(responses).lines() {
        Response::parse(line).unwrap();
    }
    let mut reader = CommandReader::new();
    for line in String::from_utf8_lossy(commands).lines() {
        for command in reader.feed(line) {
            command.unwrap();
        }
    }
    for line in line_seeds("entrant").iter().filter(|l| !l.is_empty()) {
        parse_entrant_flag(std::str::from_utf8(line).unwrap()).unwrap();
    }
}

/// Regenerates the save seeds: `cargo test --release --test fuzz -- --ignored`.
#[test]
#[ignore = "writes tests/data/fuzz/save"]
fn write_save_seeds() {
    fn write<G: Playable>(name: &str, options: G::Options, moves: &str) {
        let mut session = Session::<G>::new(options);
        for word in moves.split_whitespace() {
            let mv = session.current().parse_move(word).unwrap();
            // Each move's time (`ms`) too, so that mutations reach it.
            let spent = std::time::Duration::from_millis(250);
            session.play_timed(mv, Some(1), spent).unwrap();
        }
        let players = Config::builtin().unwrap().players;
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/data/fuzz/save")
            .join(format!("{name}.json"));
        std::fs::write(path, session.to_json(&players).unwrap()).unwrap();
    }
    // The Gomoku save carries a rule and a pattern table of its own, so that mutations reach
    // those fields too.
    let mut gomoku = GomokuOptions {
        rule: Rule::Standard,
        ..GomokuOptions::default()
    };
    gomoku.patterns.open_three = 333.5;
    gomoku.patterns.closed_two = 2.0;
    write::<TicTacToe>(
        "tictactoe",
        <TicTacToe as Playable>::Options::default(),
        "b2 a1 c3",
    );
    write::<Gomoku>("gomoku", gomoku, "h8 h9 i8");
    write::<Kalah>("kalah", <Kalah as Playable>::Options::default(), "c f");
    write::<Dots>(
        "dots",
        <Dots as Playable>::Options::default(),
        "a1-b1 c3-c4",
    );
}
