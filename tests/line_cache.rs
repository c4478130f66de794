//! Gomoku's per-thread line cache outlives its thread: a thread that ends puts it on a
//! spare list, and the next thread takes it up instead of making its own. A test binary of
//! its own, with one test: the list is process-wide, and other tests' threads would take
//! and give back caches meanwhile.

use std::thread;

use gametree::engine::Game;
use gametree::games::gomoku::Gomoku;
use gametree::games::gomoku::shape::spare_line_caches;

/// Plays a stone on a fresh board, which reads the four lines through it from this
/// thread's cache; then answers how many caches are spare.
fn play_a_stone() -> usize {
    let mut game = Gomoku::default();
    let centre = game.cell(7, 7);
    assert!(centre.is_some(), "15x15 has a centre");
    if let Some(cell) = centre {
        game.play(cell);
    }
    spare_line_caches()
}

#[test]
fn a_thread_gives_its_line_cache_to_the_next() {
    assert_eq!(spare_line_caches(), 0, "no thread has ended yet");
    let first = thread::spawn(play_a_stone).join();
    assert_eq!(first.ok(), Some(0), "the first thread made its own cache");
    assert_eq!(
        spare_line_caches(),
        1,
        "its cache was given back at its end"
    );
    let second = thread::spawn(play_a_stone).join();
    assert_eq!(
        second.ok(),
        Some(0),
        "the second thread took the spare cache"
    );
    assert_eq!(
        spare_line_caches(),
        1,
        "and gave it back: still one cache in all"
    );
    let together: Vec<_> = (0..3).map(|_| thread::spawn(play_a_stone)).collect();
    let all_joined = together.into_iter().all(|t| t.join().is_ok());
    assert!(all_joined);
    let spare = spare_line_caches();
    assert!(
        (1..=3).contains(&spare),
        "three threads at once hold at most three caches, and give them all back: {spare}"
    );
}
