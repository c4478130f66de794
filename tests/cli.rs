//! The command line end to end: every subcommand on small inputs, and refused bad input with
//! a non-zero exit and a clear message.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::process::{Command, Output};

fn gametree(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gametree"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn ok(args: &[&str]) -> String {
    let out = gametree(args);
    assert!(
        out.status.success(),
        "gametree {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("utf-8 output")
}

fn refused(args: &[&str]) -> String {
    let out = gametree(args);
    assert!(!out.status.success(), "gametree {args:?} should fail");
    String::from_utf8(out.stderr).expect("utf-8 output")
}

fn json(line: &str) -> serde_json::Value {
    serde_json::from_str(line).unwrap_or_else(|e| panic!("not JSON ({e}): {line}"))
}

#[test]
fn solve_tictactoe_is_a_draw() {
    let v = json(ok(&["solve", "tictactoe", "--json"]).trim());
    assert_eq!(v["value"], 0);
    assert!(v["nodes"].as_u64().unwrap() > 0);
    assert!(v["millis"].is_f64());
    assert!(v["best_move"].is_string());
    let text = ok(&["solve", "tictactoe", "--moves", "a1 b1 b2"]);
    assert!(text.contains("value +1 (first player wins)"), "{text}");
}

#[test]
fn solve_reproduces_reference_margins() {
    // ../shared/reference/kalah.md (standard capture) and dots.md.
    let v = json(ok(&["solve", "kalah", "--pits", "3", "--stones", "3", "--json"]).trim());
    assert_eq!(v["value"], 2);
    let v = json(
        ok(&[
            "solve",
            "kalah",
            "--pits",
            "2",
            "--stones",
            "4",
            "--empty-capture",
            "true",
            "--json",
        ])
        .trim(),
    );
    assert_eq!(v["value"], -12);
    let v = json(ok(&["solve", "dots", "--rows", "1", "--cols", "3", "--json"]).trim());
    assert_eq!(v["value"], -1);
    // ../shared/reference/kinarow.md: 4,4,3 is a first-player win.
    let v = json(ok(&["solve", "gomoku", "--size", "4", "--connect", "3", "--json"]).trim());
    assert_eq!(v["value"], 1);
    let e = refused(&["solve", "kalah", "--pits", "40"]);
    assert!(e.contains("--pits 40: pits must be 1..=12"), "{e}");
}

#[test]
fn perft_matches_the_reference_counts() {
    let v = json(ok(&["perft", "tictactoe", "--depth", "4", "--json"]).trim());
    assert_eq!(v["nodes"], 3024);
    let text = ok(&["perft", "tictactoe", "--depth", "2", "--divide"]);
    assert_eq!(
        text.lines().filter(|l| l.ends_with(" 8")).count(),
        9,
        "{text}"
    );
}

#[test]
fn selfplay_is_repeatable_with_a_seed_and_ends_in_a_draw() {
    let a = ok(&["selfplay", "tictactoe", "--seed", "7", "--json"]);
    let b = ok(&["selfplay", "tictactoe", "--seed", "7", "--json"]);
    let moves = |s: &str| -> Vec<String> {
        s.lines()
            .map(json)
            .filter_map(|v| v["move"].as_str().map(str::to_string))
            .collect()
    };
    assert_eq!(moves(&a), moves(&b));
    let last = json(a.lines().last().unwrap());
    assert_eq!(last["result"], "draw", "perfect play draws");
    let text = ok(&[
        "selfplay",
        "ttt",
        "--seed",
        "1",
        "--algorithm",
        "minimax",
        "--depth",
        "9",
    ]);
    assert!(text.contains("result: draw"), "{text}");
}

#[test]
fn tree_prints_one_line_per_node() {
    let text = ok(&[
        "tree",
        "tictactoe",
        "--moves",
        "a1 b2 c3 a3",
        "--depth",
        "2",
        "--no-ordering",
    ]);
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].starts_with("*root"), "{text}");
    assert!(lines.iter().any(|l| l.contains("cut-off")), "{text}");
    let v = json(
        ok(&[
            "tree",
            "tictactoe",
            "--moves",
            "a1 b2 c3 a3",
            "--depth",
            "2",
            "--format",
            "json",
        ])
        .trim(),
    );
    let nodes = v["nodes"].as_array().unwrap();
    assert!(nodes.len() > 5);
    assert!(nodes[0]["parent"].is_null());
    assert_eq!(nodes[1]["parent"], 0);
}

#[test]
fn play_text_mode_plays_at_the_prompt() {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_gametree"))
        .args(["play", "tictactoe", "--text", "--seed", "1"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"zz\nb2\nhint\nundo\nquit\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success());
    assert!(text.contains("cannot read move `zz`"), "{text}");
    assert!(text.contains("O plays"), "{text}");
    assert!(text.contains("hint:"), "{text}");
}

#[test]
fn bad_input_is_refused_with_a_clear_message() {
    assert!(refused(&["solve", "chess"]).contains("unknown game `chess`"));
    let e = refused(&["solve", "tictactoe", "--moves", "a1 a1"]);
    assert!(e.contains("move 2 (a1)"), "{e}");
    let e = refused(&["solve", "tictactoe", "--moves", "a1 zz"]);
    assert!(e.contains("move 2 (zz)") && e.contains("like b2"), "{e}");
    let e = refused(&["solve", "tictactoe", "--pits", "4"]);
    assert!(e.contains("--pits does not apply to tictactoe"), "{e}");
    let e = refused(&["selfplay", "tictactoe", "--algorithm", "magic"]);
    assert!(e.contains("unknown algorithm `magic`"), "{e}");
    let e = refused(&["perft", "tictactoe", "--depth", "x"]);
    assert!(e.contains("--depth"), "{e}");
    let e = refused(&["--config", "/no/such/file.toml", "solve", "tictactoe"]);
    assert!(
        e.contains("/no/such/file.toml") && e.contains("cannot be read"),
        "{e}"
    );
    let dir = std::env::temp_dir().join(format!("gametree-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.toml");
    std::fs::write(&bad, "[players.second]\ndepth = 99\n").unwrap();
    let e = refused(&["--config", bad.to_str().unwrap(), "solve", "tictactoe"]);
    assert!(
        e.contains("bad.toml: players.second.depth = 99: must be 0..=64"),
        "{e}"
    );
}
