//! The engine worker and the runner: cancelling a search that would never end, minimax
//! counts, and the runner answering keys while the engine thinks.

use std::sync::mpsc;

use endless::{Endless, EndlessOptions};
use gametree::config::Config;
use gametree::engine::{Game, Player};
use gametree::games::tictactoe::TicTacToe;
use gametree::session::Session;
use gametree::tui::action::Pane;
use gametree::tui::app::App;
use gametree::tui::event::Event;
use gametree::tui::worker::{Report, Worker};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::KeyCode;

use crate::helpers::{DEADLOCK_GUARD, ch, config, key, screen};

mod endless {
    //! A game that never ends, with 8 moves everywhere: a search on it runs until stopped.

    use gametree::engine::{Evaluator, Game, Outcome, Player, Scoring};
    use gametree::error::{ConfigError, ParseMoveError};
    use gametree::games::{GameKind, GameOptions, Playable};
    use gametree::tui::action::Dir;
    use gametree::tui::boards::{BoardCtx, BoardView, HasBoard};
    use ratatui::buffer::Buffer;
    use ratatui::layout::{Position, Rect, Size};
    use serde::{Deserialize, Serialize};

    #[derive(Clone, Debug, PartialEq, Eq)]
    pub struct Endless {
        pub moves: u64,
        pub to_move: Player,
    }

    impl std::fmt::Display for Endless {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            write!(f, "{} moves", self.moves)
        }
    }

    impl Game for Endless {
        type Move = u8;
        type Undo = ();
        const SCORING: Scoring = Scoring::WinLoss;
        fn to_move(&self) -> Player {
            self.to_move
        }
        fn legal_moves(&self, out: &mut Vec<u8>) {
            out.clear();
            out.extend(0..8);
        }
        fn play(&mut self, _mv: u8) {
            self.moves += 1;
            self.to_move = self.to_move.other();
        }
        fn undo(&mut self, _mv: u8, (): ()) {
            self.moves -= 1;
            self.to_move = self.to_move.other();
        }
        fn outcome(&self) -> Option<Outcome> {
            None
        }
        fn hash(&self) -> u64 {
            self.moves
        }
        fn hash_from_scratch(&self) -> u64 {
            self.moves
        }
        fn move_index(&self, mv: u8) -> usize {
            usize::from(mv)
        }
        fn move_space(&self) -> usize {
            8
        }
        fn format_move(&self, mv: u8) -> String {
            mv.to_string()
        }
        fn parse_move(&self, text: &str) -> Result<u8, ParseMoveError> {
            text.parse()
                .ok()
                .filter(|&m| m < 8)
                .ok_or_else(|| ParseMoveError::new(text, "0..8"))
        }
    }

    #[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
    pub struct EndlessOptions;

    impl GameOptions for EndlessOptions {
        fn validate(&self, _source: &str) -> Result<(), ConfigError> {
            Ok(())
        }
        fn default_depth(&self) -> u32 {
            40
        }
    }

    #[derive(Clone, Copy, Debug)]
    pub struct Zero;

    impl Evaluator<Endless> for Zero {
        fn name(&self) -> &'static str {
            "zero"
        }
        fn evaluate(&self, _game: &Endless) -> i32 {
            0
        }
    }

    impl Playable for Endless {
        const KIND: GameKind = GameKind::TicTacToe;
        type Options = EndlessOptions;
        type Eval = Zero;
        const EVALUATORS: &'static [&'static str] = &["zero"];
        fn new_game(_options: &EndlessOptions) -> Self {
            Self {
                moves: 0,
                to_move: Player::First,
            }
        }
        fn evaluator(_options: &EndlessOptions, _name: &str) -> Option<Zero> {
            Some(Zero)
        }
    }

    #[derive(Default)]
    pub struct EndlessView;

    impl BoardView<Endless> for EndlessView {
        type Cursor = u8;
        fn min_size(&self, _game: &Endless) -> Size {
            Size::new(8, 1)
        }
        fn draw(&self, _g: &Endless, _c: &BoardCtx<'_, Endless, u8>, area: Rect, buf: &mut Buffer) {
            buf.set_string(area.x, area.y, "01234567", ratatui::style::Style::new());
        }
        fn home(&self, _game: &Endless) -> u8 {
            0
        }
        fn step(&self, _game: &Endless, cursor: u8, dir: Dir) -> u8 {
            match dir {
                Dir::Left => cursor.saturating_sub(1),
                Dir::Right => (cursor + 1).min(7),
                _ => cursor,
            }
        }
        fn move_at(&self, _game: &Endless, cursor: u8) -> Option<u8> {
            Some(cursor)
        }
        fn cursor_of(&self, _game: &Endless, mv: u8) -> u8 {
            mv
        }
        fn hit(&self, _game: &Endless, area: Rect, at: Position) -> Option<u8> {
            (at.y == area.y && at.x >= area.x && at.x < area.x + 8).then(|| (at.x - area.x) as u8)
        }
    }

    impl HasBoard for Endless {
        type View = EndlessView;
    }
}

fn endless_engines(config: &Config) -> [gametree::player::EnginePlayer<Endless>; 2] {
    gametree::tui::engines::<Endless>(config, &EndlessOptions).unwrap()
}

#[test]
fn a_search_that_would_never_end_is_cancelled_and_answers_with_its_id() {
    let (tx, rx) = mpsc::channel();
    let mut worker = Worker::spawn(endless_engines(&config(false, false)), move |r| {
        let _ = tx.send(r);
    })
    .unwrap();
    let root = Endless {
        moves: 0,
        to_move: Player::First,
    };
    worker.start(1, root.clone(), Player::First);
    // Starting another search stops the first: both answer, in order, with their own ids.
    worker.start(2, root, Player::Second);
    worker.stop();
    let mut finished = Vec::new();
    while finished.len() < 2 {
        match rx.recv_timeout(DEADLOCK_GUARD).expect("the worker answers") {
            Report::Finished { id, result } => {
                assert!(!result.completed, "search {id} was stopped");
                assert!(result.best.is_some(), "a stopped search still names a move");
                finished.push(id);
            }
            Report::Progress { .. } => {}
            other => panic!("unexpected {other:?}"),
        }
    }
    assert_eq!(finished, [1, 2]);
    drop(worker); // joins the thread: it must not hang
}

#[test]
fn the_worker_plays_tictactoe_and_counts_minimax_nodes_like_minimax() {
    let config = config(false, false);
    let options = config.game_options::<TicTacToe>().unwrap();
    let engines = gametree::tui::engines::<TicTacToe>(&config, &options).unwrap();
    let (tx, rx) = mpsc::channel();
    let mut worker = Worker::spawn(engines, move |r| {
        let _ = tx.send(r);
    })
    .unwrap();
    let mut root = TicTacToe::new();
    root.play_line("b2 a1").unwrap();
    worker.start(7, root.clone(), Player::First);
    let mut best = None;
    let mut minimax = None;
    while minimax.is_none() {
        match rx.recv_timeout(DEADLOCK_GUARD).expect("the worker answers") {
            Report::Finished { id: 7, result } => best = result.best,
            Report::MinimaxNodes { id: 7, nodes, .. } => minimax = Some(nodes),
            Report::Progress { .. } => {}
            other => panic!("unexpected {other:?}"),
        }
    }
    assert!(best.is_some());
    // The count equals the nodes plain minimax really visits at the same depth.
    let mut side = config.players.first.clone();
    side.engine.algorithm = gametree::engine::api::Algorithm::Minimax;
    let mut plain =
        gametree::player::EnginePlayer::<TicTacToe>::new(&side, &options, "t", "first").unwrap();
    let result = plain.think(
        &root,
        &gametree::engine::limits::StopFlag::new(),
        &mut |_| {},
    );
    assert_eq!(minimax, Some(Some(result.stats.nodes)));
}

#[test]
fn the_runner_answers_keys_while_a_search_never_ends() {
    // The engine (A) moves first and thinks forever; the human presses keys meanwhile.
    let config = config(false, true);
    let (tx, rx) = mpsc::channel();
    let sink = tx.clone();
    let mut worker = Worker::spawn(endless_engines(&config), move |r| {
        let _ = sink.send(Event::Engine(r));
    })
    .unwrap();
    for event in [
        ch('?'),
        key(KeyCode::Esc),
        key(KeyCode::Tab),
        ch('u'),
        key(KeyCode::Tab),
        ch('q'),
    ] {
        tx.send(event).unwrap();
    }
    let (done_tx, done_rx) = mpsc::channel();
    let runner = std::thread::spawn(move || {
        let mut app = App::new(&config, Session::<Endless>::new(EndlessOptions));
        app.resize(80, 24);
        let mut terminal = Terminal::new(TestBackend::new(80, 24)).unwrap();
        let exit = gametree::tui::runner::run_game(&mut terminal, &rx, &mut app, &mut worker);
        let text = screen(terminal.backend().buffer());
        drop(worker);
        let _ = done_tx.send(());
        (exit.unwrap(), app.view.focus, app.engine.pending, text)
    });
    done_rx
        .recv_timeout(DEADLOCK_GUARD)
        .expect("the runner handled every key while the engine thought");
    let (exit, focus, pending, text) = runner.join().unwrap();
    assert_eq!(exit, gametree::tui::runner::GameExit::Quit);
    assert_eq!(focus, Pane::Engine, "both Tabs were handled");
    assert_eq!(pending, None, "quitting cancelled the search");
    assert!(text.contains("thinking"), "{text}");
}
