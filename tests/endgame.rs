//! Kalah's endgame databases: every value against a plain search to the end, solves with a
//! database against solves without one on the reference values, and the cache file.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use gametree::engine::api::{Algorithm, EngineSettings};
use gametree::engine::limits::{Limits, StopFlag};
use gametree::engine::score;
use gametree::engine::tree::NoopObserver;
use gametree::engine::{Game, Player};
use gametree::games::kalah::endgame::{self, Origin};
use gametree::games::kalah::{Kalah, StoreEval};
use rand::SeedableRng;

/// Plain negamax to the end of the game: the final margin for the side to move.
fn plain(game: &mut Kalah) -> i32 {
    if let Some(outcome) = game.outcome() {
        return outcome.value_for(game.to_move());
    }
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    let mover = game.to_move();
    let mut best = i32::MIN;
    for mv in moves {
        let undo = game.play(mv);
        let value = if game.to_move() == mover {
            plain(game)
        } else {
            -plain(game)
        };
        game.undo(mv, undo);
        best = best.max(value);
    }
    best
}

/// Every way to put at most `stones` stones into `slots` pits.
fn boards(slots: usize, stones: u16) -> Vec<Vec<u16>> {
    fn fill(i: usize, left: u16, board: &mut Vec<u16>, out: &mut Vec<Vec<u16>>) {
        if i == board.len() {
            out.push(board.clone());
            return;
        }
        for s in 0..=left {
            board[i] = s;
            fill(i + 1, left - s, board, out);
        }
    }
    let mut out = Vec::new();
    let mut board = vec![0; slots];
    fill(0, stones, &mut board, &mut out);
    out
}

#[test]
fn every_value_matches_a_plain_search_to_the_end() {
    const STONES: u32 = 6;
    for pits in [1, 2, 4, 6] {
        for empty_capture in [false, true] {
            let db = endgame::build_uncached(pits, empty_capture, STONES, 2).unwrap();
            let all = boards(2 * pits, STONES as u16);
            assert_eq!(all.len(), db.len(), "{pits} pits");
            for board in &all {
                let own = &board[..pits];
                let theirs = &board[pits..];
                let bytes: Vec<u8> = board.iter().map(|&s| s as u8).collect();
                let stored = db.value(&bytes).unwrap();
                // Seen from either side: North to move reads its own row first as well.
                for mover in [Player::First, Player::Second] {
                    let (south, north) = match mover {
                        Player::First => (own, theirs),
                        Player::Second => (theirs, own),
                    };
                    // Stores that differ: the value is what is still to be won.
                    let mut game =
                        Kalah::from_position(south, north, [3, 1], mover, empty_capture).unwrap();
                    if game.outcome().is_some() {
                        let own_sum: i32 = own.iter().map(|&s| i32::from(s)).sum();
                        let their_sum: i32 = theirs.iter().map(|&s| i32::from(s)).sum();
                        assert_eq!(stored, own_sum - their_sum, "{board:?}");
                        continue;
                    }
                    let banked = 2 * mover.sign();
                    assert_eq!(
                        plain(&mut game) - banked,
                        stored,
                        "{pits} pits, empty capture {empty_capture}, {board:?}, {mover} to move"
                    );
                    let probed = game.with_endgame(STONES);
                    assert_eq!(probed, game);
                }
            }
        }
    }
}

fn solve(game: &Kalah) -> (i32, u64) {
    solve_on(game, 1)
}

fn solve_on(game: &Kalah, threads: usize) -> (i32, u64) {
    let settings = EngineSettings {
        limits: Limits::default(),
        solve: true,
        random_ties: false,
        threads,
        tt_mb: 4,
        ..EngineSettings::to_depth(Algorithm::Full, 0)
    };
    let mut rng = rand::rngs::SmallRng::seed_from_u64(0);
    let result = gametree::engine::full::search(
        game,
        &StoreEval,
        &settings,
        &mut rng,
        &mut NoopObserver,
        &StopFlag::new(),
        &mut |_| {},
        None,
    );
    assert!(result.completed);
    (
        score::game_value::<Kalah>(result.value) * game.to_move().sign(),
        result.stats.endgame_hits,
    )
}

#[test]
fn solves_with_a_database_equal_the_reference_values_and_solves_without() {
    const STONES: u32 = 8;
    // tests/data/reference/kalah.md: (pits, stones, standard capture, empty capture).
    let reference = [
        (1, 1, 0, 0),
        (1, 2, -2, -2),
        (1, 3, 6, 6),
        (1, 4, -2, -2),
        (1, 5, 2, 2),
        (1, 6, 0, 0),
        (2, 1, 2, 2),
        (2, 2, -2, -2),
        (2, 3, -2, -2),
        (2, 4, -10, -12),
        (2, 5, 6, 6),
        (2, 6, 8, 8),
        (3, 1, 0, 0),
        (3, 2, 4, 4),
        (3, 3, 2, 2),
        (3, 4, 2, 2),
        (4, 1, 2, 2),
        (4, 2, 6, 6),
        (4, 3, 6, 8),
    ];
    let stop = StopFlag::new();
    let mut total_hits = 0;
    for (pits, stones, standard, empty) in reference {
        for (empty_capture, expected) in [(false, standard), (true, empty)] {
            endgame::prepare(None, pits, empty_capture, STONES, &mut |_, _| {}, &stop).unwrap();
            let game = Kalah::new(pits, stones).with_empty_capture(empty_capture);
            let (without, no_hits) = solve(&game);
            let (with, hits) = solve(&game.with_endgame(STONES));
            // Two threads split nodes, also inside splits (see engine/full/split.rs), and
            // search in another order: the same value.
            let (shared, _) = solve_on(&game.with_endgame(STONES), 2);
            let (shared_without, _) = solve_on(&game, 2);
            let case = format!("Kalah({pits},{stones}), empty capture {empty_capture}");
            assert_eq!(no_hits, 0, "{case}");
            assert_eq!(without, expected, "{case} without the database");
            assert_eq!(with, expected, "{case} with the database");
            assert_eq!(shared, expected, "{case} with the database, two threads");
            assert_eq!(shared_without, expected, "{case} without it, two threads");
            // Tiny boards end before any non-final position is reached.
            assert!(
                hits > 0 || pits < 3,
                "{case}: the database was never probed"
            );
            total_hits += hits;
        }
    }
    assert!(total_hits > 0);
}

#[test]
fn a_damaged_or_foreign_cache_file_is_rebuilt_never_trusted() {
    let dir = std::env::temp_dir().join(format!("gametree-endgame-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let stop = StopFlag::new();
    // Three pits, five stones: built and saved by the first call.
    let path = endgame::cache_file(&dir, 3, true, 5);
    let (db, origin) = endgame::prepare(Some(&dir), 3, true, 5, &mut |_, _| {}, &stop).unwrap();
    assert!(
        matches!(&origin, Origin::Built { saved: Ok(p), rejected: None, .. } if *p == path),
        "{origin:?}"
    );
    let good = std::fs::read(&path).unwrap();
    assert_eq!(good.len(), 40 + db.len());
    // Another process reads it back (the table is in memory here already, so ask the
    // program): it loads the file.
    let run = |extra: &[&str]| {
        let mut args = vec![
            "solve",
            "kalah",
            "--pits",
            "3",
            "--stones",
            "1",
            "--empty-capture",
            "true",
            "--endgame-stones",
            "5",
        ];
        args.extend_from_slice(extra);
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_gametree"))
            .env("GAMETREE_CACHE_DIR", &dir)
            .args(&args)
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        String::from_utf8(out.stdout).unwrap()
    };
    let text = run(&[]);
    assert!(text.contains("loaded from"), "{text}");
    assert!(text.contains("value +0"), "{text}");
    // One value byte changed: the checksum no longer matches, the table is rebuilt and the
    // file rewritten as it was.
    let mut damaged = good.clone();
    let last = damaged.len() - 1;
    damaged[last] ^= 0x01;
    std::fs::write(&path, &damaged).unwrap();
    let text = run(&[]);
    assert!(text.contains("checksum mismatch"), "{text}");
    assert!(text.contains("built in"), "{text}");
    assert_eq!(std::fs::read(&path).unwrap(), good);
    // Cut short, or made for another board: rebuilt as well.
    std::fs::write(&path, &good[..good.len() / 2]).unwrap();
    let text = run(&[]);
    assert!(text.contains("value bytes"), "{text}");
    assert_eq!(std::fs::read(&path).unwrap(), good);
    let foreign = endgame::cache_file(&dir, 3, false, 5);
    endgame::prepare(Some(&dir), 3, false, 5, &mut |_, _| {}, &stop).unwrap();
    std::fs::copy(&foreign, &path).unwrap();
    let text = run(&[]);
    assert!(text.contains("made for pits 3, empty capture 0"), "{text}");
    assert_eq!(std::fs::read(&path).unwrap(), good);
    // No temporary files are left behind.
    let names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names.len(), 2, "{names:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn large_boards_get_a_table_for_fewer_stones_not_a_giant_one() {
    use gametree::games::kalah::ENDGAME_MAX_BYTES;
    use gametree::games::kalah::KalahOptions;
    for pits in 1..=12 {
        let options = KalahOptions {
            pits,
            ..KalahOptions::default()
        };
        let stones = options.endgame_stones_for_board();
        assert!(stones <= options.endgame_stones, "{pits} pits");
        assert!(
            endgame::positions(pits as usize, stones) <= ENDGAME_MAX_BYTES,
            "{pits} pits: {stones} stones"
        );
        // The most that fit: one more stone would pass the limit (or was not asked for).
        assert!(
            stones == options.endgame_stones
                || endgame::positions(pits as usize, stones + 1) > ENDGAME_MAX_BYTES,
            "{pits} pits: {stones} stones"
        );
    }
    let six = KalahOptions::default();
    assert_eq!(six.endgame_stones_for_board(), six.endgame_stones);
}

/// A number of stones chosen on purpose may cost more than the default may (a 22-stone table
/// for 6 pits is 548 MB), up to [`ENDGAME_CHOSEN_MAX_BYTES`]; the default's limit is unchanged.
#[test]
fn a_chosen_number_of_stones_may_build_a_larger_table_than_the_default() {
    use gametree::games::kalah::{ENDGAME_CHOSEN_MAX_BYTES, ENDGAME_MAX_BYTES, KalahOptions};
    let chosen = |pits, endgame_stones| {
        KalahOptions {
            pits,
            endgame_stones,
            ..KalahOptions::default()
        }
        .endgame_stones_for_board()
    };
    assert!(endgame::positions(6, 22) > ENDGAME_MAX_BYTES);
    assert_eq!(chosen(6, 22), 22);
    // 6 pits: 23 stones fit in the chosen limit, 24 do not.
    assert_eq!(chosen(6, 30), 23);
    assert!(endgame::positions(6, 24) > ENDGAME_CHOSEN_MAX_BYTES);
    // 8 pits: the default gets 14 stones, 18 chosen get as many as fit the larger limit.
    assert_eq!(chosen(8, KalahOptions::default().endgame_stones), 14);
    let eight = chosen(8, 18);
    assert!(eight > 14 && eight < 18, "{eight}");
    assert!(endgame::positions(8, eight) <= ENDGAME_CHOSEN_MAX_BYTES);
    assert!(endgame::positions(8, eight + 1) > ENDGAME_CHOSEN_MAX_BYTES);
}

/// The TUI's comparison of algorithms searches `without_exact_values()`: to a fixed depth,
/// the full engine then sees the tree plain minimax sees and finds its value, while with the
/// database it may see past the depth (Kalah(4,3) at depth 8 is +6 with the database and +4
/// for minimax).
#[test]
fn without_exact_values_a_fixed_depth_search_sees_what_minimax_sees() {
    const STONES: u32 = 16;
    let stop = StopFlag::new();
    endgame::prepare(None, 4, true, STONES, &mut |_, _| {}, &stop).unwrap();
    let game = Kalah::new(4, 3)
        .with_empty_capture(true)
        .with_endgame(STONES);
    let plain = game.without_exact_values();
    assert_eq!(plain.exact_value(), None);
    assert_eq!(plain.hash(), game.hash());
    let to_depth = |game: &Kalah, algorithm: Algorithm, depth: u32| {
        let settings = EngineSettings {
            random_ties: false,
            threads: 1,
            tt_mb: 4,
            ..EngineSettings::to_depth(algorithm, depth)
        };
        let mut rng = rand::rngs::SmallRng::seed_from_u64(0);
        gametree::engine::api::search(
            game,
            &StoreEval,
            &settings,
            &mut rng,
            &mut NoopObserver,
            &StopFlag::new(),
            &mut |_| {},
        )
    };
    let mut differed = false;
    for depth in [4, 6, 8] {
        let minimax = to_depth(&plain, Algorithm::Minimax, depth);
        let full = to_depth(&plain, Algorithm::Full, depth);
        assert_eq!(full.value, minimax.value, "depth {depth}");
        assert_eq!(full.stats.endgame_hits, 0, "depth {depth}");
        let with_db = to_depth(&game, Algorithm::Full, depth);
        differed |= with_db.value != minimax.value;
    }
    // The case the comparison guards against happens on this board.
    assert!(differed);
}
