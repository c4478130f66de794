//! Defects found by trying the program as a new user and as an attacker would: the command
//! line's own consistency, files that cannot be written, and input that must be refused
//! without ending the session.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::process::{Command, Output};

use clap::CommandFactory;

fn gametree(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gametree"))
        .args(args)
        .output()
        .expect("the binary runs")
}

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
    assert_eq!(args.game_flags.candidates, Some("7".to_string()));
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
