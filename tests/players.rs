//! External brains as players: the manager side of the Gomocup protocol
//! (`brain::client`) against `gametree brain` for whole games and in a tournament, and
//! against fake brains (tiny shell scripts) that crash, hang, say `ERROR`, play an illegal
//! move or print garbage: each loses with its reason, and its process is gone.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use gametree::brain::client::{BrainError, BrainLine, BrainPlayer};
use gametree::config::{BrainCommand, Config, PlayerKind, SideConfig};
use gametree::engine::clock::ClockReading;
use gametree::engine::limits::StopFlag;
use gametree::engine::{Game, Outcome, Player};
use gametree::games::Playable;
use gametree::games::gomoku::{Gomoku, GomokuOptions};
use gametree::player::{EnginePlayer, SidePlayer};
use gametree::tournament::entrants::TournamentSpec;
use gametree::tournament::{Standings, run_games, schedule};

/// `gametree brain` searching to depth 2 on one thread: quick answers, well inside the
/// time it is given.
fn gametree_brain() -> BrainCommand {
    BrainCommand {
        command: env!("CARGO_BIN_EXE_gametree").to_string(),
        args: ["brain", "--depth", "2", "--threads", "1"]
            .map(ToString::to_string)
            .to_vec(),
    }
}

fn engine_side(depth: u32) -> SideConfig {
    let mut side = SideConfig::default();
    side.engine.set("depth", &depth.to_string()).unwrap();
    side.engine.set("time_ms", "0").unwrap();
    side.engine.set("threads", "1").unwrap();
    side.engine.set("seed", "7").unwrap();
    side
}

#[test]
fn a_whole_game_against_gametree_as_a_brain() {
    let options = GomokuOptions::default();
    let mut game = Gomoku::new_game(&options);
    let mut engine =
        EnginePlayer::<Gomoku>::new(&engine_side(2), &options, "test", "players.first").unwrap();
    let mut brain = BrainPlayer::new(gametree_brain(), Duration::from_secs(1), 64 << 20);
    let stop = StopFlag::new();
    let mut messages = Vec::new();
    let mut brain_moves = 0;
    while game.outcome().is_none() {
        let mv = if game.to_move() == Player::First {
            engine.think(&game, &stop, &mut |_| {}).best.unwrap()
        } else {
            brain_moves += 1;
            brain
                .choose(&game, &stop, &mut |line| messages.push(line))
                .unwrap_or_else(|e| panic!("move {brain_moves}: {e:?}\n{game}"))
        };
        game.try_play(mv).unwrap();
    }
    assert!(brain_moves >= 4, "{brain_moves} brain moves\n{game}");
    // Its name came from ABOUT, and its MESSAGE lines (depth, value, line) were collected.
    assert_eq!(
        brain.name(),
        format!("gametree {}", env!("CARGO_PKG_VERSION"))
    );
    assert!(
        messages
            .iter()
            .any(|m| matches!(m, BrainLine::Message(text) if text.contains("depth"))),
        "{messages:?}"
    );
}

#[test]
fn a_brain_resumes_from_any_position_after_an_undo() {
    // Moves it has not seen (an undo, a loaded game) reach it as a BOARD; it answers there.
    let options = GomokuOptions::default();
    let mut brain = BrainPlayer::new(gametree_brain(), Duration::from_secs(1), 64 << 20);
    let stop = StopFlag::new();
    let mut game = Gomoku::new_game(&options);
    game.play_line("h8").unwrap();
    let first = brain.choose(&game, &stop, &mut |_| {}).unwrap();
    game.try_play(first).unwrap();
    // Take both moves back and play elsewhere: the brain must not think `first` is there.
    let mut other = Gomoku::new_game(&options);
    other.play_line("a1 h8 b1").unwrap();
    let answer = brain.choose(&other, &stop, &mut |_| {}).unwrap();
    assert!(other.at(answer).is_none());
    other.try_play(answer).unwrap();
}

/// A directory of its own, removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> Self {
        static COUNT: AtomicUsize = AtomicUsize::new(0);
        let path = std::env::temp_dir().join(format!(
            "gametree-players-{}-{name}-{}",
            std::process::id(),
            COUNT.fetch_add(1, Ordering::Relaxed)
        ));
        std::fs::create_dir_all(&path).unwrap();
        Self(path)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A fake brain: answers `OK` to `START` and `ABOUT` with a name, and does `on_move` (shell
/// commands; `$line` is the command) when asked for a move.
fn fake_brain(name: &str, on_move: &str) -> (TempDir, BrainCommand) {
    let dir = TempDir::new(name);
    let path: PathBuf = dir.0.join(format!("pbrain-{name}"));
    let script = format!(
        "#!/bin/sh\n\
         while read -r line; do\n\
         echo \"$line\" >> \"$0.log\"\n\
         case \"$line\" in\n\
         START*) echo OK ;;\n\
         ABOUT*) echo 'name=\"{name}\", version=\"1\"' ;;\n\
         BEGIN*|TURN*|DONE*) {on_move} ;;\n\
         END*) exit 0 ;;\n\
         esac\n\
         done\n"
    );
    std::fs::write(&path, script).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    // Run through the shell rather than executed directly: a file just written can be
    // "busy" (ETXTBSY) for exec while another test thread's fork still holds its handle.
    let command = BrainCommand {
        command: "/bin/sh".to_string(),
        args: vec![path.display().to_string()],
    };
    (dir, command)
}

/// What a fake brain playing White after Black's h8 ends with.
fn forfeit_of(on_move: &str) -> String {
    let (_dir, command) = fake_brain("fake", on_move);
    let mut brain = BrainPlayer::new(command, Duration::from_millis(100), 0);
    let mut game = Gomoku::new_game(&GomokuOptions::default());
    game.play_line("h8").unwrap();
    let mut lines = Vec::new();
    match brain.choose(&game, &StopFlag::new(), &mut |line| lines.push(line)) {
        Err(BrainError::Forfeit(reason)) => {
            assert!(reason.starts_with("brain fake 1 "), "{reason}");
            reason
        }
        other => panic!("{on_move}: {other:?} (lines {lines:?})"),
    }
}

#[test]
fn a_brain_that_crashes_loses() {
    let reason = forfeit_of("exit 3");
    assert!(reason.contains("crashed"), "{reason}");
    assert!(reason.contains('3'), "{reason}");
}

#[test]
fn a_crashed_brain_s_last_words_on_standard_error_are_its_reason() {
    // As a usage error or a panic message would say it: the last non-blank line counts,
    // escape sequences in it are quoted harmless, and a flood before it is no matter.
    let reason = forfeit_of(
        "i=0; while [ $i -lt 2000 ]; do echo 'noise noise noise noise' >&2; i=$((i+1)); done; \
         printf 'error: unexpected argument \\033[31mbrain\\n\\n' >&2; exit 2",
    );
    assert!(reason.contains("crashed"), "{reason}");
    assert!(
        reason.contains(
            "its last words on standard error: error: unexpected argument \\u{1b}[31mbrain"
        ),
        "{reason}"
    );
    assert!(!reason.contains('\u{1b}'), "{reason}");
    // A brain that says nothing there has no last words.
    let reason = forfeit_of("exit 3");
    assert!(!reason.contains("last words"), "{reason}");
}

#[test]
fn a_brain_that_hangs_loses_after_its_time_and_a_margin() {
    let reason = forfeit_of("exec sleep 60");
    assert!(reason.contains("no answer within 1100 ms"), "{reason}");
}

#[test]
fn a_brain_on_a_match_clock_is_told_its_time_and_loses_when_it_is_out() {
    // Answers a point after 0.3 s: told the match time, and the time left before its move.
    let (dir, command) = fake_brain("clocked", "sleep 0.3; echo 7,6");
    let mut brain = BrainPlayer::new(command, Duration::from_secs(60), 0)
        .with_match_time(Duration::from_secs(5));
    let mut game = Gomoku::new_game(&GomokuOptions::default());
    game.play_line("h8").unwrap();
    let cell = brain.choose(&game, &StopFlag::new(), &mut |_| {}).unwrap();
    assert_eq!(game.format_move(cell), "h9");
    let used = brain.used();
    assert!(
        used >= Duration::from_millis(300) && used < Duration::from_secs(5),
        "{used:?}"
    );
    let log_of = |dir: &TempDir| std::fs::read_to_string(dir.0.join("pbrain-clocked.log")).unwrap();
    let log = log_of(&dir);
    let lines: Vec<&str> = log.lines().collect();
    let at = |wanted: &str| lines.iter().position(|l| *l == wanted);
    assert!(at("INFO timeout_match 5000").is_some(), "{lines:?}");
    assert!(at("INFO timeout_turn 60000").is_some(), "{lines:?}");
    let told = at("INFO time_left 5000").expect("time left before the move");
    assert!(told < at("TURN 7,7").expect("the move asked"), "{lines:?}");
    // A new game starts the clock anew.
    let fresh = Gomoku::new_game(&GomokuOptions::default());
    let mut again = fresh.clone();
    again.play_line("a1").unwrap();
    brain.choose(&again, &StopFlag::new(), &mut |_| {}).unwrap();
    let anew = brain.used();
    assert!(
        anew >= Duration::from_millis(300) && anew < used + Duration::from_millis(250),
        "{anew:?}"
    );
    assert!(
        log_of(&dir).contains("INFO time_left 5000\nBOARD"),
        "{}",
        log_of(&dir)
    );

    // One that takes longer than its match time loses on time, long before its turn limit.
    let (_dir, command) = fake_brain("slowpoke", "exec sleep 60");
    let mut brain = BrainPlayer::new(command, Duration::from_secs(60), 0)
        .with_match_time(Duration::from_millis(300));
    let started = std::time::Instant::now();
    let Err(BrainError::Forfeit(reason)) = brain.choose(&game, &StopFlag::new(), &mut |_| {})
    else {
        panic!("a brain out of time did not lose")
    };
    assert!(reason.contains("ran out of its match time"), "{reason}");
    assert!(reason.contains("of 300 ms"), "{reason}");
    assert!(
        started.elapsed() < Duration::from_secs(30),
        "waited its turn limit out"
    );
}

#[test]
fn an_engine_on_a_match_clock_plans_from_what_is_left_and_loses_when_it_is_out() {
    let options = GomokuOptions::default();
    let mut side = engine_side(0);
    side.engine.set("match_ms", "2000").unwrap();
    let mut player = SidePlayer::<Gomoku>::new(&side, &options, "test", "players.second").unwrap();
    let mut game = Gomoku::new_game(&options);
    game.play_line("h8").unwrap();
    let stop = StopFlag::new();
    // A fresh clock: a move of its own, well inside the whole match time (the plan gives it
    // at most what is left, less a margin, over seven moves).
    let fresh = ClockReading {
        ply: 1,
        used: Duration::ZERO,
    };
    let result = player
        .play(&game, fresh, &stop, &mut |_| {}, &mut |_| {})
        .unwrap();
    assert!(
        result.best.is_some() && result.stats.depth > 0,
        "{result:?}"
    );
    assert!(
        result.stats.elapsed < Duration::from_secs(2),
        "{:?}",
        result.stats.elapsed
    );
    let engine = player.engine_mut().unwrap();
    let left = engine.clock_left(ClockReading {
        used: result.stats.elapsed,
        ..fresh
    });
    assert_eq!(
        left,
        Duration::from_secs(2).checked_sub(result.stats.elapsed)
    );
    // Over its time and the grace already: it still searches a moment, and loses on time.
    let out = ClockReading {
        ply: 1,
        used: Duration::from_millis(2_300),
    };
    let Err(lost) = player.play(&game, out, &stop, &mut |_| {}, &mut |_| {}) else {
        panic!("an engine out of time did not lose")
    };
    assert!(lost.reason.contains("ran out of its match time"), "{lost}");
    assert!(lost.reason.contains("of 2000 ms"), "{lost}");
    // Without a clock the same reading means nothing.
    let mut unclocked = SidePlayer::<Gomoku>::new(&engine_side(2), &options, "test", "x").unwrap();
    assert!(
        unclocked
            .play(&game, out, &stop, &mut |_| {}, &mut |_| {})
            .is_ok()
    );
    assert_eq!(unclocked.engine_mut().unwrap().clock_left(out), None);
}

#[test]
fn a_brain_that_plays_an_illegal_move_loses() {
    // Answers the point Black just took: 7,7 is h8.
    let reason = forfeit_of("echo \"${line#TURN }\"");
    assert!(reason.contains("7,7 (h8), an illegal move"), "{reason}");
    let reason = forfeit_of("echo 15,3");
    assert!(reason.contains("15,3, off the 15x15 board"), "{reason}");
}

#[test]
fn a_brain_that_prints_garbage_or_says_error_loses() {
    let reason = forfeit_of("echo 'MESSAGE thinking'; echo 'hello there'");
    assert!(reason.contains("garbage"), "{reason}");
    assert!(reason.contains("hello there"), "{reason}");
    let reason = forfeit_of("echo 'ERROR out of ideas'");
    assert!(reason.contains("said ERROR: out of ideas"), "{reason}");
}

#[test]
fn a_program_that_cannot_start_loses() {
    let mut brain = BrainPlayer::new(
        BrainCommand {
            command: "/nonexistent/pbrain-nothing".to_string(),
            args: Vec::new(),
        },
        Duration::from_millis(100),
        0,
    );
    let game = Gomoku::new_game(&GomokuOptions::default());
    let Err(BrainError::Forfeit(reason)) = brain.choose(&game, &StopFlag::new(), &mut |_| {})
    else {
        panic!("started a program that does not exist")
    };
    assert!(reason.contains("cannot be started"), "{reason}");
}

#[test]
fn messages_come_through_and_a_stop_ends_the_wait_without_a_loss() {
    let (_dir, command) = fake_brain("slow", "echo 'MESSAGE pondering'; exec sleep 60");
    let mut brain = BrainPlayer::new(command, Duration::from_secs(60), 0);
    let game = Gomoku::new_game(&GomokuOptions::default());
    let stop = StopFlag::new();
    let mut lines = Vec::new();
    let result = brain.choose(&game, &stop, &mut |line| {
        lines.push(line);
        stop.raise();
    });
    assert_eq!(result, Err(BrainError::Stopped));
    assert_eq!(lines, [BrainLine::Message("pondering".to_string())]);
}

#[test]
fn only_five_in_a_row_gomoku_can_have_a_brain() {
    let side = SideConfig {
        kind: PlayerKind::Brain,
        brain: gametree_brain(),
        ..SideConfig::default()
    };
    let kalah = SidePlayer::<gametree::games::kalah::Kalah>::new(
        &side,
        &gametree::games::kalah::KalahOptions::default(),
        "test",
        "players.second",
    );
    let e = kalah.err().unwrap().to_string();
    assert!(e.contains("only Gomoku can have a brain player"), "{e}");
    let connect4 = GomokuOptions {
        connect: 4,
        ..GomokuOptions::default()
    };
    let e = SidePlayer::<Gomoku>::new(&side, &connect4, "test", "players.second")
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("five in a row"), "{e}");
    let e = Config::parse(
        "game = \"kalah\"\n[players.second]\nkind = \"brain\"\ncommand = \"x\"\n",
        "mine.toml",
    )
    .unwrap_err()
    .to_string();
    assert!(
        e.starts_with("mine.toml: players.second.kind = brain: only Gomoku"),
        "{e}"
    );
    let e = Config::parse("[players.second]\nkind = \"brain\"\n", "mine.toml")
        .unwrap_err()
        .to_string();
    assert!(
        e.starts_with("mine.toml: players.second.command: must name the brain's program"),
        "{e}"
    );
}

#[test]
fn a_config_side_can_be_a_brain() {
    let c = Config::parse(
        "game = \"gomoku\"\n[players.second]\nkind = \"brain\"\ncommand = \"pbrain-x\"\n\
         args = [\"--fast\"]\ntime_ms = 500\n",
        "mine.toml",
    )
    .unwrap();
    assert_eq!(c.players.second.kind, PlayerKind::Brain);
    assert_eq!(c.players.second.brain.command, "pbrain-x");
    assert_eq!(c.players.second.brain.args, ["--fast"]);
    // It survives a round trip through TOML (saved games keep their players).
    let text = toml::to_string(&c.players).unwrap();
    let back: gametree::config::PlayersConfig = toml::from_str(&text).unwrap();
    assert_eq!(back, c.players);
}

fn brain_tournament(entrants: &str) -> (Standings, Vec<gametree::tournament::GameRecord>) {
    let program = env!("CARGO_BIN_EXE_gametree");
    let text = format!(
        "game = \"gomoku\"\ngames = 1\njobs = 2\n[openings]\nrandom_plies = 2\n{}",
        entrants.replace("GAMETREE", program)
    );
    let spec = TournamentSpec::parse(&text, "brains.toml", None).unwrap();
    let tournament = spec.resolve::<Gomoku>(&Config::builtin().unwrap()).unwrap();
    let names: Vec<String> = tournament.entrants.iter().map(|e| e.name.clone()).collect();
    let games = schedule(names.len(), tournament.games_per_side);
    let mut standings = Standings::new(names);
    let run = run_games(&tournament, &games, 2, &StopFlag::new(), |record| {
        standings.record(record);
        true
    })
    .unwrap();
    (standings, run.records)
}

#[test]
fn gametree_as_a_brain_against_gametree_as_a_brain_in_a_tournament() {
    let (standings, records) = brain_tournament(
        "[[entrant]]\nname = \"a\"\nbrain = \"GAMETREE brain --threads 1\"\nargs = [\"--depth\", \"2\"]\n\
         time_ms = 1000\n\
         [[entrant]]\nname = \"b\"\nbrain = \"GAMETREE\"\nargs = [\"brain\", \"--depth\", \"1\", \"--threads\", \"1\"]\n\
         time_ms = 1000\n",
    );
    assert_eq!(records.len(), 2);
    for record in &records {
        assert_eq!(record.forfeit, None, "{record:?}");
        assert!(record.moves.len() > 9, "{record:?}");
    }
    assert_eq!(standings.games(), 2);
    assert_eq!(standings.total(0).games() + standings.total(1).games(), 4);
}

#[test]
fn a_failing_brain_loses_its_games_and_the_tournament_goes_on() {
    let (dir, crash) = fake_brain("crash", "exit 1");
    let (standings, records) = brain_tournament(&format!(
        "[[entrant]]\nname = \"engine\"\ndepth = 1\ntime_ms = 0\nthreads = 1\n\
         [[entrant]]\nname = \"crash\"\nbrain = \"{} {}\"\n",
        crash.command,
        crash.args.join(" ")
    ));
    drop(dir);
    assert_eq!(records.len(), 2);
    for record in &records {
        let reason = record.forfeit.as_deref().unwrap_or_default();
        assert!(reason.contains("brain crash 1 crashed"), "{record:?}");
        let crash_side = if record.first == 1 {
            Player::First
        } else {
            Player::Second
        };
        assert_eq!(
            record.outcome,
            Outcome::Win {
                winner: crash_side.other(),
                margin: 1
            }
        );
    }
    assert_eq!(standings.total(0).wins, 2);
    assert_eq!(standings.total(1).losses, 2);
}

#[test]
fn tournament_entrants_refuse_brains_for_other_games() {
    let text = "game = \"kalah\"\n[[entrant]]\nname = \"a\"\n\
                [[entrant]]\nname = \"b\"\nbrain = \"pbrain-x\"\n";
    let spec = TournamentSpec::parse(text, "t.toml", None).unwrap();
    let e = spec
        .resolve::<gametree::games::kalah::Kalah>(&Config::builtin().unwrap())
        .unwrap_err()
        .to_string();
    assert!(e.contains("only Gomoku can have a brain player"), "{e}");
    let e = TournamentSpec::parse(
        "game = \"gomoku\"\n[[entrant]]\nname = \"a\"\nargs = [\"x\"]\n",
        "t.toml",
        None,
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("belongs to a brain entrant"), "{e}");
}

#[test]
fn selfplay_against_a_brain_from_the_command_line() {
    let brain = format!(
        "{} brain --depth 1 --threads 1",
        env!("CARGO_BIN_EXE_gametree")
    );
    let out = common::gametree(&[
        "selfplay",
        "gomoku",
        "--brain",
        &brain,
        "--depth",
        "1",
        "--time-ms",
        "1000",
        "--threads",
        "1",
        "--max-moves",
        "6",
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("second: brain gametree"), "{text}");
    assert!(text.contains("  2. White  "), "{text}");
    assert!(text.contains("brain gametree"), "{text}");
    let out = common::gametree(&["selfplay", "kalah", "--brain", &brain]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(err.contains("only Gomoku can have a brain player"), "{err}");
}
