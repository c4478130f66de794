//! Runs the full-screen program until the command line calls it: `cargo run --example tui`
//! opens the setup screen, `... -- GAME` a new game, `... -- --load FILE` a saved one, and
//! `... -- GAME engines` a game of the engine against itself.

use gametree::config::{Config, PlayerKind};
use gametree::tui::{Start, run};

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut config = Config::builtin()?;
    let start = match args.first().map(String::as_str) {
        None => Start::Setup,
        Some("--load") => Start::Load(args.get(1).cloned().unwrap_or_default().into()),
        Some(game) => Start::Play(game.parse().map_err(anyhow::Error::msg)?),
    };
    if args.get(1).map(String::as_str) == Some("engines") {
        config.players.first.kind = PlayerKind::Engine;
        config.players.second.kind = PlayerKind::Engine;
    }
    run(config, start)
}
