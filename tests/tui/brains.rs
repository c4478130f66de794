//! External brains in the TUI: the setup screen's Brain program row, the engine pane with a
//! brain's name and MESSAGE lines, a forfeit, and the worker playing a real brain's move.

use std::sync::mpsc;

use gametree::brain::client::{BrainLine, BrainPlayer};
use gametree::config::{BrainCommand, PlayerKind};
use gametree::engine::{Game, Player};
use gametree::games::Playable;
use gametree::games::gomoku::{Gomoku, GomokuOptions};
use gametree::tui::event::Event;
use gametree::tui::setup::{Row, SetupState};
use gametree::tui::worker::{Purpose, Report, Worker};
use ratatui::crossterm::event::{Event as CtEvent, KeyCode, KeyEvent, KeyModifiers};
use ratatui::layout::Rect;

use crate::helpers::{
    DEADLOCK_GUARD, config, engine_text, feed, key, new_app, render, screen, search_id,
};

fn brain_config() -> gametree::config::Config {
    let mut config = config(true, false);
    config.game = gametree::games::GameKind::Gomoku;
    let second = &mut config.players.second;
    second.kind = PlayerKind::Brain;
    second.brain = BrainCommand {
        command: "pbrain-x".to_string(),
        args: Vec::new(),
    };
    config
}

#[test]
fn the_engine_pane_shows_a_brains_messages_and_its_forfeit() {
    let mut app = new_app::<Gomoku>(&brain_config());
    app.engine.brain_names = [None, Some("pbrain-x".to_string())];
    let fx = feed(&mut app, vec![key(KeyCode::Enter)]);
    let id = search_id(&fx, Purpose::Move);
    let said = |text: &str| {
        Event::Engine(Report::BrainSaid {
            id,
            side: Player::Second,
            name: "x 1.0".to_string(),
            line: Some(BrainLine::Message(text.to_string())),
        })
    };
    feed(&mut app, vec![said("depth 3 ev +5"), said("depth 4 ev -2")]);
    let pane = engine_text(&mut app);
    assert!(pane.contains("White brain x 1.0"), "{pane}");
    // Newest first.
    let newest = pane.find("depth 4 ev -2").unwrap();
    let older = pane.find("depth 3 ev +5").unwrap();
    assert!(newest < older, "{pane}");
    let whole = screen(&render(&mut app, 80, 24));
    assert!(whole.contains("White to move (brain)"), "{whole}");
    feed(
        &mut app,
        vec![Event::Engine(Report::Forfeit {
            id,
            reason: "brain x 1.0 crashed: closed its output".to_string(),
        })],
    );
    let whole = screen(&render(&mut app, 80, 24));
    assert!(whole.contains("White loses by forfeit"), "{whole}");
    let pane = engine_text(&mut app);
    assert!(pane.contains("lost by forfeit"), "{pane}");
    assert!(pane.contains("crashed"), "{pane}");
    assert!(app.engine.paused);
}

#[test]
fn the_worker_plays_a_brains_move() {
    let options = GomokuOptions::default();
    let config = brain_config();
    let engines = gametree::tui::engines::<Gomoku>(&config, &options).unwrap();
    let brain = BrainPlayer::new(
        BrainCommand {
            command: env!("CARGO_BIN_EXE_gametree").to_string(),
            args: ["brain", "--depth", "2", "--threads", "1"]
                .map(ToString::to_string)
                .to_vec(),
        },
        std::time::Duration::from_secs(1),
        0,
    );
    let (tx, rx) = mpsc::channel();
    let mut worker = Worker::spawn_with_brains(engines, [None, Some(brain)], move |report| {
        let _ = tx.send(report);
    })
    .unwrap();
    let mut game = Gomoku::new_game(&options);
    game.play_line("h8").unwrap();
    worker.start(7, game.clone(), Player::Second);
    let mut messages = 0;
    loop {
        match rx.recv_timeout(DEADLOCK_GUARD).unwrap() {
            Report::BrainSaid { id: 7, line, .. } => messages += usize::from(line.is_some()),
            Report::Finished { id: 7, result } => {
                let mv = result.best.unwrap();
                game.try_play(mv).unwrap();
                break;
            }
            other => panic!("{other:?}"),
        }
    }
    assert!(messages > 0);
}

#[test]
fn the_setup_screen_has_a_brain_row_for_gomoku_only() {
    let mut state = SetupState::new(config(true, false));
    state.frame = Rect::new(0, 0, 80, 24);
    assert!(!state.rows().contains(&Row::Brain));
    state.config.game = gametree::games::GameKind::Gomoku;
    let index = state.rows().iter().position(|&r| r == Row::Brain).unwrap();
    state.selected = index;
    state.column = Player::Second;
    assert_eq!(state.value(Row::Brain, Player::Second), "none (the engine)");
    assert_eq!(state.value(Row::Brain, Player::First), "- (you)");
    let press = |state: &mut SetupState, code: KeyCode| {
        state.update(&CtEvent::Key(KeyEvent::new(code, KeyModifiers::NONE)));
    };
    for c in "./pbrain-x --fast".chars() {
        press(&mut state, KeyCode::Char(c));
    }
    press(&mut state, KeyCode::Enter);
    let second = &state.config.players.second;
    assert_eq!(second.kind, PlayerKind::Brain, "{:?}", state.error);
    assert_eq!(second.brain.command, "./pbrain-x");
    assert_eq!(second.brain.args, ["--fast"]);
    assert_eq!(state.value(Row::Brain, Player::Second), "./pbrain-x --fast");
    // Emptied: the engine plays the side again.
    press(&mut state, KeyCode::Char(' '));
    for _ in 0.."./pbrain-x --fast".len() {
        press(&mut state, KeyCode::Backspace);
    }
    press(&mut state, KeyCode::Enter);
    assert_eq!(state.config.players.second.kind, PlayerKind::Engine);
}
