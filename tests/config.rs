//! Config files end to end: every fixture in `tests/data/config/invalid/` is refused with the
//! exact message on its first line (`# expect: FILE: key = value: what is allowed`), and the
//! fixtures in `tests/data/config/valid/` load with what they say.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};
use std::time::Duration;

use gametree::config::Config;
use gametree::games::kalah::Kalah;

fn fixtures(kind: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/config")
        .join(kind);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    files.sort();
    files
}

#[test]
fn every_invalid_fixture_is_refused_with_its_message() {
    let files = fixtures("invalid");
    assert!(files.len() >= 20, "only {} fixtures", files.len());
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        let expected = text
            .lines()
            .next()
            .and_then(|l| l.strip_prefix("# expect: "))
            .unwrap_or_else(|| panic!("{} has no `# expect:` line", path.display()));
        let expected = expected.replace("FILE", &path.display().to_string());
        let message = Config::load(&path).map_or_else(|e| e.to_string(), |_| "accepted".into());
        assert_eq!(message, expected, "{}", path.display());
    }
}

#[test]
fn valid_fixtures_load_with_what_they_say() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/config/valid");
    let empty = Config::load(&dir.join("empty.toml")).unwrap();
    let builtin = Config::builtin().unwrap();
    assert_eq!(empty.players, builtin.players);
    assert_eq!(empty.game, builtin.game);

    let partial = Config::load(&dir.join("partial.toml")).unwrap();
    assert_eq!(partial.game, gametree::games::GameKind::Kalah);
    assert_eq!(partial.players.second.engine.limits.depth, Some(3));
    assert_eq!(partial.players.second.engine.evaluator, "linear");
    assert_eq!(partial.players.first, builtin.players.first);
    let kalah = partial.game_options::<Kalah>().unwrap();
    assert_eq!(kalah.pits, 4);
    assert!(kalah.empty_capture);
    assert_eq!(kalah.stones, 4, "a key left out keeps its default");
    assert_eq!(kalah.linear.pits, [0.5, 0.25]);
    assert!((kalah.linear.store - 1.0).abs() < f64::EPSILON);
    let clock = Config::load(&dir.join("match-clock.toml")).unwrap();
    let engine = &clock.players.second.engine;
    assert_eq!(engine.match_time, Some(Duration::from_secs(60)));
    assert_eq!(engine.limits.time, Some(Duration::from_secs(5)));
    assert!(engine.timed(), "a match clock times the full engine");
    for path in fixtures("valid") {
        Config::load(&path).unwrap_or_else(|e| panic!("{e}"));
    }
}
