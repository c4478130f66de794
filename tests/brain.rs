//! The Gomocup brain: transcripts (lines in, lines out) through `brain::serve` in memory,
//! and whole games through the built `gametree brain` and `pbrain-gametree` processes.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::fmt::Write as _;

use std::io::{BufRead, BufReader, Cursor, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use gametree::brain::client::{BrainError, BrainPlayer};
use gametree::brain::protocol::{Coord, Response};
use gametree::brain::{cell_of, serve};
use gametree::config::{BrainCommand, Config};
use gametree::engine::limits::{Limits, StopFlag};
use gametree::engine::{Game, Player};
use gametree::games::gomoku::{Gomoku, GomokuOptions, Rule};
use gametree::player::EnginePlayer;

/// Long enough for any answer here; only a brain that hangs reaches it.
const DEADLOCK_GUARD: Duration = Duration::from_secs(60);

/// An engine searching to `depth` (or by time alone with `None`) on one thread, without
/// random ties: the same input gives the same answers.
fn engine(depth: Option<u32>) -> (EnginePlayer<Gomoku>, GomokuOptions) {
    let config = Config::builtin().unwrap();
    let options = config.game_options::<Gomoku>().unwrap();
    let mut side = config.players.side(Player::Second).clone();
    side.engine.limits = Limits {
        depth,
        time: Some(Duration::from_secs(1)),
        target: None,
    };
    side.engine.threads = 1;
    side.engine.tt_mb = 4;
    side.engine.random_ties = false;
    side.engine.seed = Some(7);
    let player = EnginePlayer::new(&side, &options, "test", "players.second").unwrap();
    (player, options)
}

/// Every line the brain writes for `input` (run in a thread, with a deadlock guard). An
/// empty line follows the input, as a script piped in would have: the brain then answers
/// every command with a complete search before it stops at the end of the input.
fn run_with(depth: Option<u32>, input: &str) -> Vec<String> {
    serve_lines(depth, &format!("{input}\n"))
}

/// Every line the brain writes for exactly `input`.
fn serve_lines(depth: Option<u32>, input: &str) -> Vec<String> {
    let input = Cursor::new(input.as_bytes().to_vec());
    served(depth, input, "the brain did not finish")
}

/// Every line the brain searching to `depth` writes for `input`; panics with `hang` if it
/// has not returned within [`DEADLOCK_GUARD`].
fn served<R: BufRead + Send + 'static>(depth: Option<u32>, input: R, hang: &str) -> Vec<String> {
    let (player, options) = engine(depth);
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut output = Vec::new();
        let served = serve(player, &options, input, &mut output);
        let _ = tx.send((served.is_ok(), output));
    });
    let (ok, output) = rx.recv_timeout(DEADLOCK_GUARD).expect(hang);
    assert!(ok, "serve failed");
    String::from_utf8(output)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

/// Input that holds `text` and then stays open, as a manager's pipe does until the brain
/// exits: a read past the text waits until the test is over.
struct OpenInput {
    text: Cursor<Vec<u8>>,
    open: mpsc::Receiver<()>,
}

impl Read for OpenInput {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let read = self.text.read(buf)?;
        if read == 0 && !buf.is_empty() {
            // Nothing is ever sent: this returns once the test drops its sender.
            let _ = self.open.recv();
        }
        Ok(read)
    }
}

/// Every line the brain writes for `input` with its input left open after it (so that only
/// `END` can end it), `MESSAGE` lines left out; panics if the brain does not exit.
fn serve_open(depth: Option<u32>, input: &str) -> Vec<String> {
    let (keep_open, open) = mpsc::channel::<()>();
    let input = BufReader::new(OpenInput {
        text: Cursor::new(input.as_bytes().to_vec()),
        open,
    });
    let lines = served(depth, input, "the brain did not exit with its input open");
    drop(keep_open);
    lines
        .into_iter()
        .filter(|line| !line.starts_with("MESSAGE"))
        .collect()
}

/// The brain's answers to `input`, `MESSAGE` lines left out, searching to depth 2.
fn transcript(input: &str) -> Vec<String> {
    run_with(Some(2), input)
        .into_iter()
        .filter(|line| !line.starts_with("MESSAGE"))
        .collect()
}

fn is_error(line: &str, words: &str) -> bool {
    line.starts_with("ERROR ") && line.contains(words)
}

#[test]
fn about_start_and_restart() {
    let out = transcript(
        "ABOUT\nSTART 15\nSTART 4\nSTART 21\nSTART\nRECTSTART 12,12\nRECTSTART 20,15\n\
         RESTART\nEND\nABOUT\n",
    );
    assert_eq!(out.len(), 8, "{out:#?}");
    match Response::parse(&out[0]).unwrap() {
        Response::About(pairs) => {
            let keys: Vec<&str> = pairs.iter().map(|(k, _)| k.as_str()).collect();
            assert_eq!(keys, ["name", "version", "author"]);
            assert_eq!(pairs[0].1, "gametree");
            assert_eq!(pairs[1].1, env!("CARGO_PKG_VERSION"));
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(out[1], "OK");
    assert!(
        is_error(&out[2], "board size 4 is not supported"),
        "{}",
        out[2]
    );
    assert!(is_error(&out[3], "5..=20"), "{}", out[3]);
    assert!(is_error(&out[4], "START N"), "{}", out[4]);
    assert_eq!(out[5], "OK");
    assert!(is_error(&out[6], "rectangular"), "{}", out[6]);
    // RESTART keeps the 12x12 board: the answer to ABOUT after END never comes.
    assert_eq!(out[7], "OK");
}

#[test]
fn commands_before_start_are_refused() {
    let out = transcript("BEGIN\nTURN 7,7\nBOARD\n7,7,1\nDONE\nTAKEBACK 1,1\nRESTART\n");
    assert_eq!(out.len(), 5, "{out:#?}");
    for line in &out {
        assert!(is_error(line, "START comes first"), "{line}");
    }
}

#[test]
fn begin_opens_in_the_centre_and_turn_answers_on_an_empty_point() {
    let out = transcript("START 15\nBEGIN\nTURN 8,8\n");
    assert_eq!(out[..2], ["OK", "7,7"]);
    let reply = Coord::parse(&out[2]).unwrap();
    assert!(reply != Coord { x: 7, y: 7 } && reply != Coord { x: 8, y: 8 });
    assert!(reply.x < 15 && reply.y < 15);
    // On 9x9 the centre is 4,4 (e5).
    assert_eq!(transcript("START 9\nBEGIN\n"), ["OK", "4,4"]);
}

#[test]
fn turn_refuses_points_off_the_board_and_taken_ones() {
    let out = transcript("START 15\nTURN 15,0\nTURN 7,-1\nTURN 3,3\nTURN 3,3\n");
    assert!(is_error(&out[1], "off the board"), "{}", out[1]);
    assert!(is_error(&out[2], "TURN X,Y"), "{}", out[2]);
    let reply = &out[3];
    assert!(Coord::parse(reply).is_ok(), "{reply}");
    assert!(is_error(&out[4], "already holds"), "{}", out[4]);
    assert_eq!(out.len(), 5);
}

/// Own stones (1) and the opponent's (2) far from each other, as a BOARD block.
fn board(own: &[(u32, u32)], theirs: &[(u32, u32)]) -> String {
    let mut text = String::from("BOARD\n");
    for (stones, field) in [(own, 1), (theirs, 2)] {
        for (x, y) in stones {
            writeln!(text, "{x},{y},{field}").unwrap();
        }
    }
    text.push_str("DONE\n");
    text
}

const FAR_AWAY: [(u32, u32); 5] = [(0, 0), (14, 0), (0, 14), (14, 14), (10, 13)];

#[test]
fn board_completes_its_own_five_and_blocks_the_opponents() {
    let own = [(3, 7), (4, 7), (5, 7), (6, 7)];
    let out = transcript(&format!("START 15\n{}", board(&own, &FAR_AWAY)));
    assert!(["2,7", "7,7"].contains(&out[1].as_str()), "{out:?}");
    // The opponent has four on a column with one end closed: only 9,6 stops five.
    let theirs = [(9, 2), (9, 3), (9, 4), (9, 5), (0, 0)];
    let own = [(9, 1), (1, 12), (13, 12), (1, 1)];
    let out = transcript(&format!("START 15\n{}", board(&own, &theirs)));
    assert_eq!(out[1], "9,6", "{out:?}");
}

#[test]
fn exact_five_is_played_when_the_rule_says_so() {
    // Own stones on row 7 at 2..=5 and 7: 6,7 makes six, 1,7 makes exactly five.
    let own = [(2, 7), (3, 7), (4, 7), (5, 7), (7, 7)];
    let exact = transcript(&format!(
        "START 15\nINFO rule 1\n{}",
        board(&own, &FAR_AWAY)
    ));
    assert_eq!(exact, ["OK", "1,7"]);
    let free = transcript(&format!(
        "START 15\nINFO rule 0\n{}",
        board(&own, &FAR_AWAY)
    ));
    assert!(["1,7", "6,7"].contains(&free[1].as_str()), "{free:?}");
}

#[test]
fn board_refuses_what_it_cannot_play() {
    let out = transcript(
        "START 15\nBOARD\n1,1,1\n2,2,1\n3,3,2\n1,1,2\nDONE\n\
         BOARD\n1,1,1\n2,2,1\nDONE\n\
         BOARD\n1,1,3\nDONE\n\
         BOARD\n1,1,1\n20,2,2\nDONE\n\
         BOARD\n1,1,9\nnonsense\nDONE\n",
    );
    assert_eq!(out.len(), 6, "{out:#?}");
    assert!(is_error(&out[1], "already holds"), "{}", out[1]);
    assert!(is_error(&out[2], "2 own and 0 opposing"), "{}", out[2]);
    assert!(is_error(&out[3], "continuous"), "{}", out[3]);
    assert!(is_error(&out[4], "off the board"), "{}", out[4]);
    assert!(is_error(&out[5], "1,1,9"), "{}", out[5]);
}

#[test]
fn a_finished_game_gets_no_move() {
    let five = [(2, 7), (3, 7), (4, 7), (5, 7), (6, 7)];
    let theirs = [(0, 0), (14, 0), (0, 14), (14, 14), (10, 13), (10, 11)];
    let out = transcript(&format!("START 15\n{}", board(&five, &theirs)));
    assert!(is_error(&out[1], "the game is over"), "{out:?}");
}

#[test]
fn takeback_and_play() {
    let out = transcript(
        "START 15\nBEGIN\nTAKEBACK 3,3\nTAKEBACK 7,7\nTAKEBACK 7,7\nPLAY 3,3\nPLAY 3,3\n\
         TAKEBACK 3,3\nPLAY 20,1\n",
    );
    assert_eq!(out[1], "7,7");
    assert!(is_error(&out[2], "only the last stone"), "{}", out[2]);
    assert_eq!(out[3], "OK");
    assert!(is_error(&out[4], "the board is empty"), "{}", out[4]);
    assert_eq!(out[5], "3,3");
    assert!(is_error(&out[6], "already holds"), "{}", out[6]);
    assert_eq!(out[7], "OK");
    assert!(is_error(&out[8], "off the board"), "{}", out[8]);
}

#[test]
fn info_is_silent_unless_it_asks_for_what_is_not_supported() {
    let out = transcript(
        "START 15\nINFO timeout_turn 1000\nINFO timeout_match 100000\nINFO time_left 5000\n\
         INFO max_memory 83886080\nINFO game_type 1\nINFO folder /tmp/x\nINFO evaluate 3,4\n\
         INFO strange thing\nINFO rule 1\nINFO rule 4\nINFO rule 5\nINFO rule 2\nINFO rule 8\n\
         INFO rule many\nINFO timeout_turn soon\nINFO\n",
    );
    assert_eq!(out.len(), 8, "{out:#?}");
    assert_eq!(out[0], "OK");
    for line in &out[1..3] {
        assert!(is_error(line, "renju (rule 4) is not supported"), "{line}");
        assert!(line.contains("freestyle (rule 0") && line.contains("exactly five (rule 1)"));
    }
    assert!(is_error(&out[3], "continuous game"), "{}", out[3]);
    assert!(is_error(&out[4], "rule 8 is not supported"), "{}", out[4]);
    assert!(is_error(&out[5], "INFO rule `many`"), "{}", out[5]);
    assert!(is_error(&out[6], "timeout_turn"), "{}", out[6]);
    assert!(is_error(&out[7], "INFO without a key"), "{}", out[7]);
}

#[test]
fn unknown_and_malformed_lines_never_stop_the_brain() {
    let long = "X".repeat(100_000);
    let input = format!(
        "HELLO\n{long}\nTURN\nTURN 1,2,3\nSTART -5\nRECTSTART 10\nBEGIN now\n\
         SWAP2BOARD\n1,2\n7\nDONE\n\u{0}\u{1}junk\nstart 15\nABOUT\n"
    );
    let out = transcript(&input);
    assert_eq!(out.len(), 11, "{out:#?}");
    assert!(out[0].starts_with("UNKNOWN `HELLO`"), "{}", out[0]);
    // Lines over 64 KiB are skipped unread: an error says how long it was.
    assert!(
        is_error(
            &out[1],
            "a line of 100000 bytes is longer than the 65536 bytes"
        ),
        "{}",
        out[1]
    );
    for line in &out[2..8] {
        assert!(line.starts_with("ERROR "), "{line}");
    }
    // Control characters are echoed escaped.
    assert!(
        out[8].starts_with("UNKNOWN `\\u{0}\\u{1}junk`"),
        "{}",
        out[8]
    );
    // Commands are read in any case; the brain is still there.
    assert_eq!(out[9], "OK");
    assert!(out[10].starts_with("name=\"gametree\""));
}

#[test]
fn swap2_places_an_opening_then_chooses() {
    let out = transcript("START 15\nSWAP2BOARD\nDONE\n");
    let Response::Stones(stones) = Response::parse(&out[1]).unwrap() else {
        panic!("{out:?}")
    };
    assert_eq!(stones.len(), 3);
    assert!(stones[0] != stones[1] && stones[1] != stones[2] && stones[0] != stones[2]);
    for count in [3, 5] {
        let opening = ["7,7", "8,8", "6,6", "9,7", "5,9"];
        let input = format!(
            "START 15\nSWAP2BOARD\n{}\nDONE\n",
            opening[..count].join("\n")
        );
        let out = transcript(&input);
        match Response::parse(&out[1]).unwrap() {
            Response::Swap => {}
            Response::Move(at) => {
                assert!(!opening.contains(&at.to_string().as_str()), "{at}");
            }
            other => panic!("{other:?}"),
        }
    }
    let out = transcript("START 15\nSWAP2BOARD\n7,7\n8,8\nDONE\n");
    assert!(is_error(&out[1], "expected 0, 3 or 5"), "{out:?}");
}

#[test]
fn thinking_says_depth_value_and_line() {
    let lines = run_with(Some(3), "START 15\nBEGIN\n");
    let messages: Vec<&String> = lines.iter().filter(|l| l.starts_with("MESSAGE")).collect();
    assert_eq!(messages.len(), 3, "{lines:#?}");
    for (depth, message) in (1..=3).zip(&messages) {
        let words: Vec<&str> = message.split(' ').collect();
        assert_eq!(
            words[..4],
            ["MESSAGE", "depth", &format!("{depth}-{depth}"), "ev"]
        );
        assert!(words[4].parse::<i32>().is_ok(), "{message}");
        assert_eq!(
            [words[5], words[7], words[9], words[11]],
            ["n", "n/ms", "tm", "pv"]
        );
        // The line starts with the move played, one point per move searched.
        assert_eq!(words[12], "7,7", "{message}");
        assert_eq!(words.len() - 12, depth, "{message}");
    }
    assert_eq!(lines.last().unwrap(), "7,7");
}

#[test]
fn a_forced_win_is_shown_as_mate_in_n() {
    let own = [(3, 7), (4, 7), (5, 7), (6, 7)];
    let lines = run_with(Some(3), &format!("START 15\n{}", board(&own, &FAR_AWAY)));
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("MESSAGE depth 1-1 ev +M1 ")),
        "{lines:#?}"
    );
}

#[test]
fn end_and_the_end_of_input_stop_a_long_search() {
    // Two minutes a move with no depth limit: only END or the input's end stops it within
    // the deadlock guard. END is not answered; the input's end gets the move so far.
    let out = serve_lines(None, "START 15\nINFO timeout_turn 120000\nBEGIN\nEND\n");
    assert_eq!(out.first().map(String::as_str), Some("OK"), "{out:?}");
    assert!(!out.iter().any(|l| Coord::parse(l).is_ok()), "{out:?}");
    let out = serve_lines(None, "START 15\nINFO timeout_turn 120000\nBEGIN\n");
    assert_eq!(out.first().map(String::as_str), Some("OK"), "{out:?}");
    assert_eq!(out.last().map(String::as_str), Some("7,7"), "{out:?}");
}

/// A brain process with its answers (MESSAGE lines dropped) on a channel.
struct BrainProcess {
    child: Child,
    stdin: ChildStdin,
    answers: mpsc::Receiver<String>,
}

impl BrainProcess {
    fn spawn(program: &str, args: &[&str]) -> Self {
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, answers) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if !line.starts_with("MESSAGE") && tx.send(line).is_err() {
                    break;
                }
            }
        });
        Self {
            child,
            stdin,
            answers,
        }
    }

    fn send(&mut self, line: &str) {
        // The protocol's managers end lines with CR LF.
        write!(self.stdin, "{line}\r\n").unwrap();
        self.stdin.flush().unwrap();
    }

    fn answer(&self) -> String {
        self.answers
            .recv_timeout(DEADLOCK_GUARD)
            .expect("the brain did not answer")
    }

    fn finish(mut self) {
        self.send("END");
        let status = self.child.wait().unwrap();
        assert!(status.success(), "{status}");
    }
}

#[test]
fn two_brain_processes_play_a_whole_game() {
    let brains = [
        env!("CARGO_BIN_EXE_gametree"),
        env!("CARGO_BIN_EXE_pbrain-gametree"),
    ];
    let args: [&[&str]; 2] = [&["brain", "--threads", "1"], &["--threads", "1"]];
    let mut players: Vec<BrainProcess> = brains
        .iter()
        .zip(args)
        .map(|(program, args)| BrainProcess::spawn(program, args))
        .collect();
    for brain in &mut players {
        brain.send("START 15");
        brain.send("INFO timeout_turn 60");
        brain.send("INFO rule 0");
    }
    for brain in &players {
        assert_eq!(brain.answer(), "OK");
    }
    let mut game = Gomoku::new(15, 5, Rule::Freestyle);
    players[0].send("BEGIN");
    let mut mover = 0;
    while game.outcome().is_none() {
        let answer = players[mover].answer();
        let at = Coord::parse(&answer).unwrap_or_else(|e| panic!("{answer}: {e}"));
        let cell = cell_of(&game, at).unwrap();
        game.try_play(cell).unwrap();
        if game.outcome().is_some() {
            break;
        }
        mover = 1 - mover;
        players[mover].send(&format!("TURN {at}"));
    }
    assert!(game.stones_played() >= 9, "{game}");
    for brain in players {
        brain.finish();
    }
}

#[test]
fn info_is_heard_while_thinking_and_answered_after_the_move() {
    // The search takes about a second by the clock; the INFOs right behind BEGIN are read
    // while it runs, but a manager reads the first line after BEGIN as the move: their
    // errors come after it.
    let out = run_with(
        None,
        "START 15\nINFO thread_num 1\nINFO timeout_turn 1000\nBEGIN\nINFO rule 4\n\
         INFO timeout_turn soon\nABOUT\n",
    );
    let out: Vec<&String> = out.iter().filter(|l| !l.starts_with("MESSAGE")).collect();
    assert_eq!(out.len(), 5, "{out:#?}");
    assert_eq!(out[0], "OK");
    assert_eq!(out[1], "7,7", "{out:?}");
    assert!(is_error(out[2], "renju"), "{out:?}");
    assert!(is_error(out[3], "INFO timeout_turn `soon`"), "{out:?}");
    // Other commands wait for the move, as the protocol is synchronous.
    assert!(out[4].starts_with("name="), "{out:?}");
}

#[test]
fn end_inside_a_block_ends_the_brain() {
    // The input stays open: only END can end the brain, and it must wherever it comes.
    assert_eq!(serve_open(Some(2), "START 15\nBOARD\n7,7,1\nEND\n"), ["OK"]);
    assert_eq!(
        serve_open(Some(2), "START 15\nSWAP2BOARD\n7,7\nend\n"),
        ["OK"]
    );
}

#[test]
fn a_command_inside_a_block_drops_it_with_one_error() {
    // A manager that lost count of its lines: the command is answered as a command.
    let out = transcript("START 15\nBOARD\n7,7,1\nTURN 8,8\nABOUT\n");
    assert_eq!(out.len(), 4, "{out:#?}");
    assert!(
        is_error(&out[1], "BOARD without DONE: `TURN 8,8` came first"),
        "{out:?}"
    );
    // The block's stone was not played: TURN 8,8 is the first stone, answered by a move.
    let reply = Coord::parse(&out[2]).unwrap();
    assert_ne!(reply, Coord { x: 8, y: 8 });
    assert!(out[3].starts_with("name="), "{out:?}");
    let out = transcript("START 15\nSWAP2BOARD\n7,7\nBOARD\n7,7,2\nDONE\n");
    assert_eq!(out.len(), 3, "{out:#?}");
    assert!(is_error(&out[1], "SWAP2BOARD without DONE"), "{out:?}");
    assert!(Coord::parse(&out[2]).is_ok(), "{out:?}");
}

#[test]
fn end_behind_queued_commands_stops_the_brain_at_once() {
    // In one write, as the audit sent it: BEGIN's search would take a second and TURN's
    // another, but END, read while BEGIN is searched, stops it and leaves TURN unsearched.
    let out = serve_open(
        None,
        "START 15\nINFO thread_num 1\nINFO timeout_turn 120000\nBEGIN\nTURN 0,0\nEND\n",
    );
    assert_eq!(out, ["OK"]);
    // Two minutes a move: only END stops it within the deadlock guard. Lines before it that
    // need no search are still answered, in order.
    let out = serve_open(
        None,
        "START 15\nINFO timeout_turn 120000\nBEGIN\nTURN 0,0\nABOUT\nTAKEBACK 0,0\nEND\nABOUT\n",
    );
    assert_eq!(out.len(), 3, "{out:#?}");
    assert_eq!(out[0], "OK");
    assert!(out[1].starts_with("name="), "{out:?}");
    assert_eq!(out[2], "OK", "{out:?}");
}

/// `PLAY` lines for Black's four on the top row (0,0 .. 3,0) and White's scattered stones:
/// Black to move, with a five at 4,0.
const BLACK_FOUR: &str = "PLAY 0,0\nPLAY 10,10\nPLAY 1,0\nPLAY 10,12\nPLAY 2,0\n\
                          PLAY 12,10\nPLAY 3,0\nPLAY 12,12\n";

#[test]
fn a_turn_refused_leaves_the_board_as_it_was() {
    // The stone given makes a five: no move to answer, and the stone is not kept.
    let out = transcript(&format!("START 15\n{BLACK_FOUR}TURN 4,0\nTAKEBACK 4,0\n"));
    assert_eq!(out.len(), 11, "{out:#?}");
    assert!(
        is_error(
            &out[9],
            "TURN 4,0: the game is over: Black has five in a row"
        ),
        "{}",
        out[9]
    );
    assert!(
        is_error(
            &out[10],
            "only the last stone can be taken back, and that is 12,12"
        ),
        "{}",
        out[10]
    );
    // The position is as it was: Black to move, and 4,0 free to play.
    let out = transcript(&format!("START 15\n{BLACK_FOUR}TURN 4,0\nPLAY 4,0\n"));
    assert_eq!(out.len(), 11, "{out:#?}");
    assert_eq!(out[10], "4,0", "{out:#?}");

    // The stone given fills the board: on 5x5, Black's 13 and White's 12 stones make no
    // line of five (a checkerboard with the centre and 0,1 changed over).
    let black: Vec<(u32, u32)> = (0..5)
        .flat_map(|y| (0..5).map(move |x| (x, y)))
        .filter(|&(x, y)| ((x + y) % 2 == 0) != ((x, y) == (2, 2) || (x, y) == (0, 1)))
        .collect();
    let white: Vec<(u32, u32)> = (0..5)
        .flat_map(|y| (0..5).map(move |x| (x, y)))
        .filter(|stone| !black.contains(stone))
        .collect();
    assert_eq!((black.len(), white.len()), (13, 12));
    let mut input = String::from("START 5\n");
    for (b, w) in black.iter().zip(&white) {
        writeln!(input, "PLAY {},{}\nPLAY {},{}", b.0, b.1, w.0, w.1).unwrap();
    }
    let last = black[12];
    writeln!(
        input,
        "TURN {},{}\nTAKEBACK {},{}",
        last.0, last.1, last.0, last.1
    )
    .unwrap();
    let out = transcript(&input);
    assert_eq!(out.len(), 27, "{out:#?}");
    assert!(
        out[1..25].iter().all(|l| Coord::parse(l).is_ok()),
        "{out:#?}"
    );
    assert!(
        is_error(
            &out[25],
            &format!(
                "TURN {},{}: the game is over: the board is full",
                last.0, last.1
            )
        ),
        "{}",
        out[25]
    );
    assert!(is_error(&out[26], "only the last stone"), "{}", out[26]);
}

#[test]
fn control_characters_are_never_echoed_raw() {
    let out = transcript("START 15\u{0}\nTURN 1\r,x\nHI\u{1b}[2J\u{7}\nINFO rule 1\u{0}\n");
    assert_eq!(out.len(), 4, "{out:#?}");
    for line in &out {
        assert!(!line.chars().any(char::is_control), "{line:?}");
    }
    assert!(is_error(&out[0], "`START 15\\u{0}`"), "{}", out[0]);
    assert!(is_error(&out[1], "`TURN 1\\r,x`"), "{}", out[1]);
    assert!(
        out[2].starts_with("UNKNOWN `HI\\u{1b}[2J\\u{7}`"),
        "{}",
        out[2]
    );
    assert!(is_error(&out[3], "INFO rule `1\\u{0}`"), "{}", out[3]);
}

#[test]
fn a_line_too_long_costs_no_memory_and_is_refused() {
    // 8 MiB without a line break, never held whole: one error, and the brain goes on.
    let flood = std::io::repeat(b'7').take(8 << 20);
    let input = Cursor::new(b"START 15\n".to_vec())
        .chain(flood)
        .chain(Cursor::new(b"\nBOARD\n7,7,1\n".to_vec()))
        .chain(std::io::repeat(b',').take(100_000))
        .chain(Cursor::new(b"\nDONE\nABOUT\n".to_vec()));
    let (player, options) = engine(Some(2));
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut output = Vec::new();
        let _ = serve(player, &options, BufReader::new(input), &mut output);
        let _ = tx.send(output);
    });
    let output = String::from_utf8(rx.recv_timeout(DEADLOCK_GUARD).unwrap()).unwrap();
    let out: Vec<&str> = output.lines().collect();
    assert_eq!(out.len(), 4, "{out:#?}");
    assert_eq!(out[0], "OK");
    assert!(
        is_error(
            out[1],
            "a line of 8388608 bytes is longer than the 65536 bytes a line may have"
        ),
        "{}",
        out[1]
    );
    // Inside a block it spoils the block.
    assert!(
        is_error(out[2], "BOARD: a line of 100000 bytes"),
        "{}",
        out[2]
    );
    assert!(out[3].starts_with("name="), "{}", out[3]);
}

#[test]
fn a_brain_that_floods_its_output_loses_with_the_reason() {
    // A megabyte without a line break, then silence: the line is refused as it passes the
    // limit (`cat /dev/zero`, which never ends, loses the same way), not waited for.
    let program = BrainCommand {
        command: "/bin/sh".to_string(),
        args: vec![
            "-c".to_string(),
            "head -c 1000000 /dev/zero; exec sleep 60".to_string(),
        ],
    };
    let mut brain = BrainPlayer::new(program, Duration::from_millis(100), 0);
    let game = Gomoku::new(15, 5, Rule::Freestyle);
    match brain.choose(&game, &StopFlag::new(), &mut |_| {}) {
        Err(BrainError::Forfeit(reason)) => {
            assert!(
                reason.contains("sent a line longer than 65536 bytes"),
                "{reason}"
            );
            assert!(reason.contains("waiting for OK to START"), "{reason}");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn start_20_plays_gomocups_freestyle_board_to_its_far_edges() {
    // Four of its own down the last column (x = 19), from the bottom edge (y = 19): the
    // brain completes five on the edge, at 19,15.
    let own = [(19, 19), (19, 18), (19, 17), (19, 16)];
    let theirs = [(0, 0), (10, 0), (0, 10), (5, 5)];
    let out = transcript(&format!("START 20\n{}", board(&own, &theirs)));
    assert_eq!(out[0], "OK", "{out:?}");
    assert_eq!(out[1], "19,15", "{out:?}");
    // The opponent's four along the last row (y = 19), closed at x = 19 by its own stone:
    // only 14,19 stops five.
    let theirs = [(15, 19), (16, 19), (17, 19), (18, 19), (0, 0)];
    let own = [(19, 19), (2, 2), (8, 2), (2, 8)];
    let out = transcript(&format!("START 20\n{}", board(&own, &theirs)));
    assert_eq!(out[1], "14,19", "{out:?}");
    // X and Y up to 19 are points of the board; 20 is not.
    let out = transcript("START 20\nTURN 19,0\nTURN 20,0\n");
    assert_eq!(out[0], "OK");
    let Response::Move(Coord { x, y }) = Response::parse(&out[1]).unwrap() else {
        panic!("not a move: {out:?}");
    };
    assert!(x < 20 && y < 20, "{out:?}");
    assert!(is_error(&out[2], "off the board"), "{out:?}");
}

/// The `MESSAGE` lines of an answer without their speed and time (`n/ms`, `tm`), and the
/// move: what a repeatable search repeats.
fn searched(lines: &[String]) -> Vec<String> {
    lines
        .iter()
        .map(|line| {
            let words: Vec<&str> = line.split(' ').collect();
            match words.iter().position(|&w| w == "n/ms") {
                Some(at) if words.len() > at + 4 => {
                    [&words[..at], &words[at + 4..]].concat().join(" ")
                }
                _ => line.clone(),
            }
        })
        .collect()
}

#[test]
fn restart_answers_as_a_freshly_started_brain() {
    // Random ties on, so the tie-breaking's sequence counts too, and a table the first
    // game fills: after RESTART the same position must be searched as by a new brain (it
    // used to be answered from the kept table, at depth 6 in a few dozen nodes).
    let (mut player, options) = engine(Some(6));
    player.settings.random_ties = true;
    // h8 i7 g9 h9 i8 g8 g7 j6, the brain (Black) to move.
    let position = board(
        &[(7, 7), (6, 6), (8, 7), (6, 8)],
        &[(8, 8), (7, 6), (6, 7), (9, 9)],
    );
    let input = format!(
        "START 15\nINFO timeout_turn 600000\n{position}RESTART\n{position}START 15\n{position}\n"
    );
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut output = Vec::new();
        let _ = serve(
            player,
            &options,
            Cursor::new(input.into_bytes()),
            &mut output,
        );
        let _ = tx.send(output);
    });
    let output = String::from_utf8(rx.recv_timeout(DEADLOCK_GUARD).unwrap()).unwrap();
    let lines: Vec<String> = output.lines().map(str::to_string).collect();
    // START, then an answer (MESSAGE lines and a move) per BOARD, RESTART's OK between.
    let games: Vec<&[String]> = lines
        .split(|line| line == "OK")
        .filter(|part| !part.is_empty())
        .collect();
    assert_eq!(games.len(), 3, "{lines:#?}");
    let first = searched(games[0]);
    assert_eq!(
        first.iter().filter(|l| l.starts_with("MESSAGE")).count(),
        6,
        "{lines:#?}"
    );
    assert_eq!(searched(games[1]), first, "after RESTART");
    assert_eq!(searched(games[2]), first, "after START");
}

/// Input that says `START`, a short turn and `BEGIN`, then `ABOUT` for ever, counting the
/// bytes it has given.
struct Flood {
    head: Cursor<Vec<u8>>,
    given: std::sync::Arc<std::sync::atomic::AtomicUsize>,
}

impl Read for Flood {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let mut read = self.head.read(buf)?;
        if read == 0 {
            for (i, byte) in buf.iter_mut().enumerate() {
                *byte = b"ABOUT\n"[i % 6];
            }
            read = buf.len() - buf.len() % 6;
        }
        self.given
            .fetch_add(read, std::sync::atomic::Ordering::SeqCst);
        Ok(read)
    }
}

/// Output that notes how much input had been read when the move came, and fails once a few
/// answers after it are out (which ends the brain).
struct FloodWatch {
    text: Vec<u8>,
    given: std::sync::Arc<std::sync::atomic::AtomicUsize>,
    read_at_move: Option<usize>,
    report: mpsc::Sender<(usize, String)>,
}

impl Write for FloodWatch {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.text.extend_from_slice(buf);
        // Whole lines only: a line may come in pieces.
        let whole = self
            .text
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |at| at + 1);
        let text = String::from_utf8_lossy(&self.text[..whole]).into_owned();
        let answers: Vec<&str> = text
            .lines()
            .filter(|line| !line.starts_with("MESSAGE"))
            .collect();
        if self.read_at_move.is_none() && answers.len() >= 2 {
            let read = self.given.load(std::sync::atomic::Ordering::SeqCst);
            self.read_at_move = Some(read);
            let _ = self.report.send((read, answers[1].to_string()));
        }
        if answers.len() > 5 {
            return Err(std::io::Error::other("enough"));
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[test]
fn a_flood_while_thinking_is_not_read_ahead_without_bound() {
    // 300 ms of reading `ABOUT` lines while the brain thinks: read ahead and queued without
    // a bound that was tens of megabytes (11 GB over a 5 s turn); now the reader stops once
    // the waiting lines hold 4 MiB of the backlog (about 60,000 lines, 365 KB of input).
    let (player, options) = engine(None);
    let given = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let input = BufReader::new(Flood {
        head: Cursor::new(b"START 15\nINFO timeout_turn 300\nBEGIN\n".to_vec()),
        given: std::sync::Arc::clone(&given),
    });
    let (report, reported) = mpsc::channel();
    let output = FloodWatch {
        text: Vec::new(),
        given,
        read_at_move: None,
        report,
    };
    std::thread::spawn(move || {
        let _ = serve(player, &options, input, output);
    });
    let (read, answer) = reported.recv_timeout(DEADLOCK_GUARD).unwrap();
    assert_eq!(answer, "7,7", "the move comes first");
    assert!(read < 1_000_000, "{read} bytes read ahead while thinking");
}
