//! The `gametree` binary: parse the command line, then hand over to the library.

use clap::Parser;

fn main() -> std::process::ExitCode {
    let cli = gametree::cli::Cli::parse();
    match gametree::cli::run(cli) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("gametree: {e:#}");
            std::process::ExitCode::FAILURE
        }
    }
}
