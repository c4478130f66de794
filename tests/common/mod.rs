//! Helpers shared by the integration tests: random positions, games built from options, an
//! evaluator made of noise, the extra-turn check, fixed-depth searches and the check that
//! alpha-beta agrees with plain minimax.

#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

use gametree::engine::api::{Algorithm, EngineSettings, SearchResult, search};
use gametree::engine::limits::StopFlag;
use gametree::engine::score::{self, MARGIN_UNIT};
use gametree::engine::tree::NoopObserver;
use gametree::engine::{Evaluator, Game, Scoring};
use gametree::games::Playable;
use gametree::games::dots::{Dots, DotsOptions};
use gametree::games::kalah::{Kalah, KalahOptions};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// A deterministic evaluator with many ties: independent of evaluation quality, it makes
/// agreement failures show up as wrong values rather than hide behind distinct scores. For
/// margin games it is the banked margin plus noise that depends on the hashed position only,
/// as the full engine's table requires of an evaluator (what is still to be won may not
/// depend on points already banked).
pub struct NoiseEval;

impl<G: Game> Evaluator<G> for NoiseEval {
    fn name(&self) -> &'static str {
        "noise"
    }
    fn evaluate(&self, game: &G) -> i32 {
        let noise = (game.hash() % 7) as i32 * 10 - 30;
        match G::SCORING {
            Scoring::WinLoss => noise,
            Scoring::Margin => game.banked() * game.to_move().sign() * MARGIN_UNIT + noise,
        }
    }
}

/// Plays `plies` random moves from `game` (stopping at the end), returning the position.
pub fn random_position<G: Game>(mut game: G, plies: usize, seed: u64) -> G {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut moves = Vec::new();
    for _ in 0..plies {
        game.legal_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        game.play(moves[rng.random_range(0..moves.len())]);
    }
    game
}

/// Kalah with `pits` pits of `stones` stones and the given capture rule.
pub fn kalah(pits: u32, stones: u32, empty_capture: bool) -> Kalah {
    Kalah::new_game(&KalahOptions {
        pits,
        stones,
        empty_capture,
        ..KalahOptions::default()
    })
}

/// Dots and Boxes with `rows` x `cols` boxes.
pub fn dots(rows: u32, cols: u32) -> Dots {
    Dots::new_game(&DotsOptions {
        rows,
        cols,
        ..DotsOptions::default()
    })
}

/// Does some line of at most `depth` moves from `game` let a player move twice in a row?
pub fn extra_turn_within<G: Game>(game: &mut G, depth: u32) -> bool {
    if depth == 0 || game.outcome().is_some() {
        return false;
    }
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    moves.into_iter().any(|mv| {
        let mover = game.to_move();
        let undo = game.play(mv);
        let found = game.to_move() == mover || extra_turn_within(game, depth - 1);
        game.undo(mv, undo);
        found
    })
}

/// Settings for a fixed-depth search by `algorithm`, first tie unless `random_ties`.
pub fn fixed_depth(
    algorithm: Algorithm,
    depth: u32,
    ordering: bool,
    random_ties: bool,
) -> EngineSettings {
    EngineSettings {
        ordering,
        random_ties,
        ..EngineSettings::to_depth(algorithm, depth)
    }
}

/// Searches `game` with `settings` to the end: no tree, no stop, no progress reports, ties
/// drawn from a fixed seed.
pub fn search_with<G: Game, E: Evaluator<G>>(
    game: &G,
    eval: &E,
    settings: &EngineSettings,
) -> SearchResult<G::Move> {
    search(
        game,
        eval,
        settings,
        &mut SmallRng::seed_from_u64(7),
        &mut NoopObserver,
        &StopFlag::new(),
        &mut |_| {},
    )
}

fn search_at<G: Game, E: Evaluator<G>>(
    game: &G,
    eval: &E,
    algorithm: Algorithm,
    depth: u32,
    ordering: bool,
    random_ties: bool,
) -> SearchResult<G::Move> {
    search_with(
        game,
        eval,
        &fixed_depth(algorithm, depth, ordering, random_ties),
    )
}

/// The plain-minimax value of playing `mv` in `game`, searched `depth - 1` moves below it,
/// from the point of view of `game`'s side to move.
fn move_value<G: Game, E: Evaluator<G>>(game: &G, eval: &E, mv: G::Move, depth: u32) -> i32 {
    let mut child = game.clone();
    child.play(mv);
    let value = match child.outcome() {
        Some(outcome) => score::terminal::<G>(outcome, child.to_move(), 1),
        None if depth == 1 => score::evaluate(eval, &child),
        None => {
            let r = search_at(&child, eval, Algorithm::Minimax, depth - 1, false, false);
            // Child scores count plies from the child; shift decisive scores by one ply.
            if score::is_decisive(r.value) {
                r.value - r.value.signum()
            } else {
                r.value
            }
        }
    };
    // The sign flips only when the turn passes: after an extra turn the mover is the same.
    if child.to_move() == game.to_move() {
        value
    } else {
        -value
    }
}

/// Alpha-beta, with and without ordering, agrees with plain minimax at `depth`: the same
/// root value, a move among minimax's best whose own minimax value is that value, no more
/// nodes, and with random ties exactly minimax's best root moves (equal means equal exact
/// values, not bounds), one of which it picks.
pub fn check_agreement<G: Game, E: Evaluator<G>>(game: &G, eval: &E, depth: u32) {
    if game.outcome().is_some() {
        return;
    }
    let reference = search_at(game, eval, Algorithm::Minimax, depth, false, false);
    let sorted = |moves: &[G::Move]| {
        let mut v: Vec<usize> = moves.iter().map(|&m| game.move_index(m)).collect();
        v.sort_unstable();
        v
    };
    for ordering in [false, true] {
        let ab = search_at(game, eval, Algorithm::AlphaBeta, depth, ordering, false);
        assert_eq!(
            ab.value, reference.value,
            "depth {depth} ordering {ordering}\n{game}"
        );
        let best = ab.best.expect("a move");
        assert!(
            reference.ties.contains(&best),
            "{best:?} not among {:?}, depth {depth} ordering {ordering}\n{game}",
            reference.ties
        );
        assert_eq!(
            move_value(game, eval, best, depth),
            reference.value,
            "move {best:?} depth {depth}\n{game}"
        );
        assert!(
            ab.stats.nodes <= reference.stats.nodes,
            "alpha-beta visited more nodes than minimax, depth {depth} ordering {ordering}\n{game}"
        );
        let tied = search_at(game, eval, Algorithm::AlphaBeta, depth, ordering, true);
        assert_eq!(
            tied.value, reference.value,
            "random ties, depth {depth}\n{game}"
        );
        assert_eq!(
            sorted(&tied.ties),
            sorted(&reference.ties),
            "tied root moves, depth {depth} ordering {ordering}\n{game}"
        );
        assert!(tied.ties.contains(&tied.best.expect("a move")));
    }
}

/// Where the programs the tests run keep their cache (endgame databases).
pub fn test_cache_dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("cache")
}

/// Runs the program with `args` (its cache in [`test_cache_dir`], not the user's).
pub fn gametree(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_gametree"))
        .env("GAMETREE_CACHE_DIR", test_cache_dir())
        .args(args)
        .output()
        .expect("the binary runs")
}

/// Runs the built `gametree` with `args` and `input` on its standard input; its standard
/// output, once it has ended successfully.
pub fn gametree_with_input(args: &[&str], input: &[u8]) -> String {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_gametree"))
        .env("GAMETREE_CACHE_DIR", test_cache_dir())
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// Runs the built `gametree` with `args` and `input` on its standard input: its exit
/// status, standard output and standard error.
pub fn gametree_piped(args: &[&str], input: &[u8]) -> (std::process::ExitStatus, String, String) {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_gametree"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // A program that ends early (quiet mode refusing a line) may not read all of it.
    let _ = child.stdin.take().unwrap().write_all(input);
    let out = child.wait_with_output().unwrap();
    (
        out.status,
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}
