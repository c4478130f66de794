//! `pbrain-gametree`: `gametree brain` under the name Gomocup managers look for (a brain's
//! executable starts with `pbrain-`). The Gomocup protocol on stdin and stdout.

use std::path::PathBuf;

use clap::Parser;

/// Plays Gomoku as a Gomocup brain: the protocol on stdin and stdout.
#[derive(Debug, Parser)]
#[command(name = "pbrain-gametree", version)]
struct BrainCommandLine {
    /// Read settings from this file instead of the built-in defaults (see config.toml).
    #[arg(long, value_name = "PATH")]
    config: Option<PathBuf>,
    #[command(flatten)]
    brain: gametree::brain::BrainArgs,
}

fn main() -> std::process::ExitCode {
    let command_line = BrainCommandLine::parse();
    let ran = gametree::cli::load_config(command_line.config.as_ref())
        .and_then(|config| gametree::brain::run(&config, &command_line.brain));
    match ran {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("pbrain-gametree: {e:#}");
            std::process::ExitCode::FAILURE
        }
    }
}
