//! Defects found by trying the program as a new user and as an attacker would: the command
//! line's own consistency, files that cannot be written, and input that must be refused
//! without ending the session.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::gametree;

use clap::CommandFactory;

#[test]
fn the_command_line_passes_clap_debug_assertions() {
    // Release builds skip these checks; two arguments of one command sharing an id (tune's
    // and Gomoku's `candidates`) made every `tune` command panic in a debug build.
    gametree::cli::Cli::command().debug_assert();
}

#[test]
fn gomoku_candidates_reach_tune() {
    use clap::Parser;
    let cli = gametree::cli::Cli::try_parse_from([
        "gametree",
        "tune",
        "gomoku",
        "--candidates",
        "7",
        "--max-candidates",
        "3",
    ])
    .unwrap();
    let Some(gametree::cli::Command::Tune(args)) = cli.command else {
        panic!("not a tune command: {cli:?}");
    };
    assert_eq!(args.max_candidates, 3);
    assert_eq!(args.game_flags.get("candidates"), Some("7"));
}

#[test]
fn tune_refuses_an_unwritable_out_before_tuning() {
    let out = gametree(&[
        "tune",
        "kalah",
        "--depth",
        "1",
        "--out",
        "/nonexistent-gametree-dir/tuned.toml",
    ]);
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("--out"), "{stderr}");
    // The header line comes before the climb; an output opened late prints it first.
    assert!(
        out.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

#[test]
fn perft_depth_is_bounded_like_the_engine_depth() {
    let out = gametree(&["perft", "tictactoe", "--depth", "4294967295"]);
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("0..=64"), "{stderr}");
}

#[test]
fn a_table_larger_than_the_machine_is_refused_with_the_number() {
    let Some(available) = gametree::engine::tt::available_memory_mb() else {
        return;
    };
    if available >= 65_536 {
        return;
    }
    let out = gametree(&["selfplay", "kalah", "--tt-mb", "65536", "--max-moves", "1"]);
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("tt_mb = 65536"), "{stderr}");
    assert!(stderr.contains("MiB of memory"), "{stderr}");
}

#[test]
fn tree_time_limit_applies_under_alpha_beta() {
    // Depth 12 of Gomoku takes alpha-beta many seconds; the limit ends it early.
    let out = gametree(&[
        "tree",
        "gomoku",
        "--algorithm",
        "alphabeta",
        "--depth",
        "12",
        "--time-ms",
        "100",
        "--max-nodes",
        "1000",
        "--json",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["completed"], false);
    assert!(v["best_move"].is_string(), "{}", v["best_move"]);
    assert_eq!(v["nodes"].as_array().unwrap().len(), 1000);
}

#[test]
fn streamed_tree_json_is_one_document_with_every_node() {
    let out = gametree(&["tree", "tictactoe", "--depth", "3", "--json"]);
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let nodes = v["nodes"].as_array().unwrap();
    assert!(nodes.len() > 5);
    for (i, node) in nodes.iter().enumerate() {
        assert_eq!(node["id"], i);
    }
    assert_eq!(v["completed"], true);
    assert!(v["stats"]["nodes"].as_u64().unwrap() > 0);
}

#[test]
fn escape_sequences_in_a_save_are_not_printed_raw() {
    use gametree::engine::Game;
    use gametree::games::tictactoe::{TicTacToe, TicTacToeOptions};
    let mut session = gametree::session::Session::<TicTacToe>::new(TicTacToeOptions::default());
    let mv = session.current().parse_move("b2").unwrap();
    session.play(mv, None).unwrap();
    let players = gametree::config::Config::builtin().unwrap().players;
    let text = session
        .to_json(&players)
        .unwrap()
        .replace("\"b2\"", "\"\\u001b[2J\\u001b]0;PWNED\\u0007\"");
    assert!(text.contains("PWNED"));
    let dir = std::env::temp_dir().join(format!("gametree-escapes-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("planted.json");
    std::fs::write(&path, text).unwrap();
    let out = gametree(&["play", "--load", path.to_str().unwrap()]);
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("PWNED"), "{stderr}");
    assert!(
        !stderr.contains('\u{1b}') && !stderr.contains('\u{7}'),
        "{stderr:?}"
    );
}

#[test]
fn a_very_long_move_is_cut_in_the_message() {
    let long = format!("z{}", "9".repeat(100_000));
    let out = gametree(&["tree", "tictactoe", "--moves", &long]);
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("characters cut"), "{stderr}");
    assert!(stderr.len() < 2000, "{} bytes", stderr.len());
}

fn play_text(args: &[&str], input: &[u8]) -> String {
    common::gametree_with_input(args, input)
}

#[test]
fn an_invalid_utf8_line_is_refused_and_the_game_goes_on() {
    let (status, out, errors) = common::gametree_piped(
        &["play", "tictactoe", "--text", "--depth", "1"],
        b"b\xff\xfe2\nb2\nquit\n",
    );
    assert!(status.success());
    assert!(errors.contains("not valid UTF-8"), "{errors}");
    assert!(
        out.contains("O plays"),
        "the move after it was not played:\n{out}"
    );
}

#[test]
fn end_of_input_at_the_prompt_ends_the_line() {
    let out = play_text(&["play", "tictactoe", "--text"], b"");
    assert!(out.ends_with("X to move> \n"), "{out:?}");
}

#[test]
fn line_mode_states_the_result_once_and_announces_extra_turns() {
    // A small endgame database: the default one (30 MB) is not what this test is about.
    let out = play_text(
        &[
            "play",
            "kalah",
            "--text",
            "--human",
            "none",
            "--depth",
            "1",
            "--endgame-stones",
            "6",
        ],
        b"",
    );
    assert_eq!(out.matches("result: ").count(), 1, "{out}");
    assert!(
        !out.contains("Game over"),
        "the result is stated twice:\n{out}"
    );
    assert!(out.contains("moves again (extra turn)"), "{out}");
    assert!(out.contains("stores: North's left, South's right"), "{out}");
}

#[test]
fn the_full_screen_program_without_a_terminal_says_so_and_writes_nothing() {
    // The test's stdout is a pipe: the program must not draw escape codes into it.
    let out = gametree(&["play", "tictactoe"]);
    assert!(!out.status.success());
    assert!(
        out.stdout.is_empty(),
        "{:?}",
        String::from_utf8_lossy(&out.stdout)
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("needs a terminal"), "{stderr}");
    assert!(stderr.contains("--text"), "{stderr}");
}

#[test]
fn a_text_mode_line_without_end_is_skipped_not_kept() {
    let mut input = vec![b'z'; 3_000_000];
    input.extend_from_slice(b"\nb2\nquit\n");
    let (status, out, errors) =
        common::gametree_piped(&["play", "tictactoe", "--text", "--depth", "1"], &input);
    assert!(status.success());
    assert!(errors.contains("3,000,000 bytes long"), "{errors}");
    assert!(errors.len() < 1000, "{} bytes", errors.len());
    assert!(
        out.contains("O plays"),
        "the move after it was not played:\n{out}"
    );
}

#[test]
fn files_that_are_not_configs_or_saves_are_refused_by_size() {
    let dir = std::env::temp_dir().join(format!("gametree-big-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let big = dir.join("big.toml");
    // Comments only, so only the size can refuse it.
    let line = format!("# {}\n", "x".repeat(1000));
    std::fs::write(&big, line.repeat(17 * 1024)).unwrap();
    let out = gametree(&[
        "--config",
        big.to_str().unwrap(),
        "perft",
        "tictactoe",
        "--depth",
        "1",
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        stderr.contains("big.toml") && stderr.contains("larger than 16 MB"),
        "{stderr}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_save_is_refused_what_a_config_would_refuse_and_names_its_file_once() {
    use gametree::engine::Game;
    use gametree::games::tictactoe::{TicTacToe, TicTacToeOptions};
    let mut session = gametree::session::Session::<TicTacToe>::new(TicTacToeOptions::default());
    let mv = session.current().parse_move("b2").unwrap();
    session.play(mv, None).unwrap();
    let players = gametree::config::Config::builtin().unwrap().players;
    let text = session.to_json(&players).unwrap();
    let dir = std::env::temp_dir().join(format!("gametree-saves-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let load = |name: &str, text: String| {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        let out = gametree(&["play", "--load", path.to_str().unwrap()]);
        assert!(!out.status.success());
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    // A brain plays only Gomoku, in a save as in a config.
    let mut value: serde_json::Value = serde_json::from_str(&text).unwrap();
    value["players"]["second"]["kind"] = "brain".into();
    value["players"]["second"]["command"] = "pbrain-x".into();
    let stderr = load("brain.json", value.to_string());
    assert!(
        stderr.contains("players.second.kind = brain: only Gomoku can have a brain player"),
        "{stderr}"
    );
    // The file is named once, before what is wrong in it.
    let mut value: serde_json::Value = serde_json::from_str(&text).unwrap();
    value["options"]["depth"] = 999.into();
    let stderr = load("depth.json", value.to_string());
    assert_eq!(stderr.matches("depth.json").count(), 1, "{stderr}");
    assert!(
        stderr.contains("invalid save: tictactoe.depth = 999"),
        "{stderr}"
    );
    // A byte-order mark in front is no reason to refuse a save: it gets as far as the
    // terminal, which the test does not have.
    let stderr = load("bom.json", format!("\u{feff}{text}"));
    assert!(stderr.contains("needs a terminal"), "{stderr}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn play_load_refuses_flags_it_would_ignore() {
    let out = gametree(&[
        "play",
        "kalah",
        "--load",
        "nonexistent.json",
        "--pits",
        "3",
        "--depth",
        "99",
        "--no-tt",
    ]);
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("drop kalah, --pits, --depth, --no-tt"),
        "{stderr}"
    );
}

#[test]
fn a_brain_that_cannot_start_is_named_briefly() {
    let program = format!("/nonexistent/{}\u{1b}[2J", "x".repeat(300));
    let out = gametree(&[
        "selfplay",
        "gomoku",
        "--brain",
        &program,
        "--max-moves",
        "2",
        "--depth",
        "1",
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    let result = text
        .lines()
        .find(|line| line.starts_with("result:"))
        .unwrap_or_else(|| panic!("no result line: {text}"));
    assert!(result.contains("cannot be started"), "{result}");
    assert!(result.contains("characters cut"), "{result}");
    assert!(result.len() < 400, "{} bytes: {result}", result.len());
    assert!(!result.contains('\u{1b}'), "{result:?}");
}
