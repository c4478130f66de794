//! The game screen's state machine: a [`Session`] plus view state, changed only by
//! [`App::update`], which returns [`Effect`]s (start or stop a search, save, quit) for the
//! runner to carry out. Engine coordination lives in the [`EngineDriver`]; `App` routes
//! keys, clicks and reports to it, the session and the view. No drawing, no threads, no
//! clock: time arrives as ticks.

use std::path::PathBuf;
use std::time::Duration;

use ratatui::crossterm::event::{
    Event as CtEvent, KeyEventKind, MouseButton, MouseEvent, MouseEventKind,
};
use ratatui::layout::{Position, Rect, Size};

use super::action::{Action, Dir, Pane, TreeAction};
use super::boards::{BoardView, HasBoard};
use super::driver::{Arrival, EngineDriver, Pending, format_line};
use super::event::{Event, TICK_MS};
use super::keymap::{self, KeyContext, Situation};
use super::layout::{self, Areas};
use super::panes::board::BoardPane;
use super::panes::stats::{self, EnginePane};
use super::panes::status_bar::StatusBar;
use super::panes::tree::TreePane;
use super::theme::Theme;
use super::tree_browser::{Preview, Recorded, TREE_SEARCH_LABEL, TreeBrowser};
use super::view_state::{Dialog, MESSAGE_TICKS, Message, ViewState};
use super::worker::{Job, Purpose, Report, SearchId, comparison, comparison_depth};
use crate::config::{Config, PlayerKind, PlayersConfig, UiConfig};
use crate::engine::api::{EngineSettings, SearchResult};
use crate::engine::clock::ClockReading;
use crate::engine::settings::MAX_SETTING_DEPTH;
use crate::engine::tree::SearchTree;
use crate::engine::{Game, Player};
use crate::games::GameOptions;
use crate::session::{SaveError, Session};

/// The board cursor type of game `G`.
pub type CursorOf<G> = <<G as HasBoard>::View as BoardView<G>>::Cursor;

/// What the runner must do for the app.
#[derive(Clone, Debug, PartialEq)]
pub enum Effect<G: Game> {
    /// Start a search (the runner stops any running one first).
    Search {
        /// Its id; reports carry it back.
        id: SearchId,
        /// The position to search.
        root: G,
        /// Whose engine settings to use.
        side: Player,
        /// A move, a hint, or a search to browse.
        purpose: Purpose,
        /// Whether and how to record it.
        job: Job,
        /// For an engine's own move: where its side stands on its match clock (the search
        /// plans its time from it, and loses the game if it runs out). `None` for searches
        /// off the clock (hints, trees, comparisons).
        clock: Option<ClockReading>,
    },
    /// Stop the running search; it still reports `Finished`.
    Stop,
    /// Save the game to a new file and call [`App::saved`].
    Save,
    /// Leave the program.
    Quit,
    /// Go back to the setup screen.
    Setup,
}

/// The game screen.
pub struct App<G: HasBoard> {
    /// The game and its history.
    pub session: Session<G>,
    /// Who plays each side.
    pub players: PlayersConfig,
    /// Focus, cursor, overlays, scroll.
    pub view: ViewState<CursorOf<G>, G::Move>,
    /// The board's drawing and hit-testing.
    pub board: G::View,
    /// The engine's searches: what runs, what came back, pause and pace, recording.
    pub engine: EngineDriver<G>,
    /// The styles.
    pub theme: Theme,
    /// The step list changed since the last save.
    pub dirty: bool,
    /// Where the game was last saved.
    pub saved_as: Option<PathBuf>,
    /// Search settings per side (for the engine pane).
    pub settings: [EngineSettings; 2],
    /// The recorded search trees the tree pane shows.
    pub trees: TreeBrowser<G>,
    ui: UiConfig,
    /// The cursor was last moved by undo/redo: a move played there drops the taken-back
    /// moves without asking, as an editor drops its redo list.
    takeback: bool,
    /// The tick the turn under way began at (the last move, undo or new game): a human on
    /// a match clock is charged the ticks since for its move. Browsing the history does not
    /// stop it.
    turn_started: u64,
    /// The side that lost on time (a human whose clock ran out while thinking, an engine
    /// whose search did), until a move is taken back (with its time) or a new game starts.
    pub lost_on_time: Option<Player>,
}

impl<G: HasBoard> App<G> {
    /// A game screen for `session`, with players and UI settings from `config`.
    pub fn new(config: &Config, session: Session<G>) -> Self {
        let board = G::View::default();
        let cursor = board.home(session.current());
        let settings = [Player::First, Player::Second]
            .map(|p| config.players.side(p).search_settings(&session.options));
        let mut app = Self {
            session,
            players: config.players.clone(),
            view: ViewState {
                cursor,
                ..ViewState::default()
            },
            board,
            engine: EngineDriver::new(config.tree.max_nodes),
            theme: Theme::default(),
            dirty: false,
            saved_as: None,
            settings,
            trees: TreeBrowser::default(),
            ui: config.ui.clone(),
            takeback: false,
            turn_started: 0,
            lost_on_time: None,
        };
        app.follow_log();
        app
    }

    /// The effects to run when the screen opens (the engine may move first).
    pub fn start(&mut self) -> Vec<Effect<G>> {
        let mut fx = Vec::new();
        self.maybe_engine(&mut fx);
        fx
    }

    /// The user came back from the setup screen (Esc): the game goes on where it was.
    pub fn back_from_setup(&mut self) {
        self.set_info("Back to the game");
    }

    /// True when a human plays `player`.
    pub fn is_human(&self, player: Player) -> bool {
        self.players.side(player).kind == PlayerKind::Human
    }

    /// True when the engine plays both sides.
    pub fn engines_only(&self) -> bool {
        !self.is_human(Player::First) && !self.is_human(Player::Second)
    }

    /// True while something moves on screen without input (spinner, engine pace, a
    /// human's clock).
    pub fn is_animating(&self) -> bool {
        self.engine.is_animating() || self.human_thinking().is_some()
    }

    /// True when the position on screen is where play goes on: the end of the moves, or
    /// where an undo left the game (not a position of the history being browsed).
    fn is_live(&self) -> bool {
        self.session.at_end() || self.takeback
    }

    /// Where play goes on: the position on screen when it is live, else (browsing the
    /// history) the end of the moves; with the number of moves that led to it.
    fn live(&self) -> (usize, &G) {
        if self.is_live() {
            return (self.session.cursor(), self.session.current());
        }
        let steps = self.session.steps();
        let end = steps.last().map_or(self.session.initial(), |s| &s.after);
        (steps.len(), end)
    }

    /// The human to move where play goes on, when a match clock runs for it, and how long
    /// it has been thinking there.
    pub fn human_thinking(&self) -> Option<(Player, Duration)> {
        let (_, game) = self.live();
        let side = game.to_move();
        if game.outcome().is_some() || self.lost_on_time.is_some() || !self.is_human(side) {
            return None;
        }
        self.players.side(side).clock()?;
        let ticks = self.view.tick.saturating_sub(self.turn_started);
        Some((side, Duration::from_millis(ticks.saturating_mul(TICK_MS))))
    }

    /// The time left on each side's match clock where play goes on (`None`: no clock), a
    /// human's thinking so far taken off; `None` for both while the history is browsed.
    pub fn clocks_left(&self) -> [Option<Duration>; 2] {
        let thinking = self.human_thinking();
        let live = self.is_live();
        [Player::First, Player::Second].map(|side| {
            let limit = self.players.side(side).clock().filter(|_| live)?;
            let reading = self.session.clock_reading(side);
            let running = thinking.filter(|&(s, _)| s == side).map(|(_, t)| t);
            Some(reading.after(running.unwrap_or_default()).left(limit))
        })
    }

    /// A new turn on the clock (a move, an undo, a new game): a loss on time is over.
    fn restart_turn(&mut self) {
        self.turn_started = self.view.tick;
        self.lost_on_time = None;
    }

    /// On a tick: the human to move whose clock has run out loses on time.
    fn check_human_clock(&mut self) {
        let Some((side, thinking)) = self.human_thinking() else {
            return;
        };
        let Some(limit) = self.players.side(side).clock() else {
            return;
        };
        let (plies, _) = self.live();
        let reading = self.session.clock_reading_at(side, plies);
        if !reading.after(thinking).run_out(limit) {
            return;
        }
        self.lost_on_time = Some(side);
        self.set_error(format!(
            "{} loses on time: its {} ran out. u takes moves back, with their time",
            G::side_name(side),
            crate::engine::clock::match_time_text(limit)
        ));
    }

    /// The board's smallest size for the position shown.
    pub fn board_min(&self) -> Size {
        self.board.min_size(self.session.current())
    }

    /// The layout of the last known frame.
    pub fn areas(&self) -> Areas {
        layout::areas(self.view.frame, self.board_min(), self.view.focus)
    }

    /// The position the board shows instead of the live one: the selected node of the
    /// search tree, while the tree pane has the focus.
    pub fn preview(&self) -> Option<Preview<G>> {
        if self.view.focus != Pane::Tree {
            return None;
        }
        let shown = self.trees.shown()?;
        let id = shown.view.selected_node()?;
        Some(shown.preview(id))
    }

    /// What the board pane draws.
    pub fn board_pane(&self) -> BoardPane<'_, G> {
        let game = self.session.current();
        let human_to_move = game.outcome().is_none() && self.is_human(game.to_move());
        BoardPane {
            session: &self.session,
            view: &self.board,
            preview: self.preview(),
            focus: self.view.focus,
            cursor: human_to_move.then_some(self.view.cursor),
            hint: self.engine.hint.map(|(mv, _)| mv),
            theme: &self.theme,
        }
    }

    /// What the engine pane draws.
    pub fn engine_pane(&self) -> EnginePane<'_, G> {
        EnginePane {
            engine: &self.engine,
            settings: &self.settings,
            position: self.session.current(),
            tick: self.view.tick,
            engine_to_move: self.engines_only() || !self.is_human(self.session.current().to_move()),
            clocks: self.clocks_left(),
            focus: self.view.focus,
            scroll: self.view.engine_scroll,
            theme: &self.theme,
        }
    }

    /// What the search-tree pane draws.
    pub fn tree_pane(&self) -> TreePane<'_, G> {
        TreePane {
            trees: &self.trees,
            session: &self.session,
            focus: self.view.focus,
            record_engine: self.engine.record_engine,
            searching: self.engine.searching(),
            last_search: self.engine.last.as_ref().map(|l| l.purpose),
            tree_depth: self.tree_depth(self.session.current().to_move()),
            theme: &self.theme,
        }
    }

    /// What the status bar draws.
    pub fn status_bar(&self) -> StatusBar<'_, G> {
        StatusBar {
            session: &self.session,
            humans: [self.is_human(Player::First), self.is_human(Player::Second)],
            brains: self.engine.brain_names.each_ref().map(Option::is_some),
            pending: self.engine.pending,
            paused: self.engine.paused,
            tick: self.view.tick,
            clocks: self.clocks_left(),
            lost_on_time: self.lost_on_time.filter(|_| self.is_live()),
            message: self.view.message.as_ref(),
            situation: self.situation(),
            theme: &self.theme,
        }
    }

    /// What decides the status bar's key hints.
    pub fn situation(&self) -> Situation {
        let game = self.session.current();
        Situation {
            keys: self.key_context(),
            searching: self.engine.searching(),
            paused: self.engine.paused,
            game_over: game.outcome().is_some() || self.lost_on_time.is_some(),
            human_to_move: self.is_human(game.to_move()),
            at_end: self.session.at_end(),
            after_start: self.session.cursor() > 0,
            tree_shown: self.trees.shown().is_some(),
            several_trees: self.trees.trees.len() > 1,
        }
    }

    /// Rows of the tree list in the current layout.
    fn tree_list_height(&self) -> usize {
        match self.areas() {
            Areas::Panes(a) => self.trees.list_height(layout::inner(a.tree)),
            Areas::TooSmall { .. } => 1,
        }
    }

    /// True when quitting would lose moves: unsaved changes to an unfinished game.
    pub fn is_unsaved_game_in_progress(&self) -> bool {
        self.dirty
            && self
                .session
                .steps()
                .last()
                .is_some_and(|s| s.after.outcome().is_none())
    }

    /// The key context for the keymap.
    pub fn key_context(&self) -> KeyContext {
        KeyContext {
            focus: self.view.focus,
            help: self.view.help,
            dialog: self.view.dialog.is_some(),
            engines_only: self.engines_only(),
        }
    }

    /// Records the terminal size.
    pub fn resize(&mut self, width: u16, height: u16) {
        self.view.frame = Rect::new(0, 0, width, height);
        self.follow_log();
        self.scroll_engine(0);
    }

    /// Handles one event.
    pub fn update(&mut self, event: Event<Report<G::Move>>) -> Vec<Effect<G>> {
        let mut fx = Vec::new();
        match event {
            Event::Input(CtEvent::Key(key)) if key.kind != KeyEventKind::Release => {
                if let Some(action) = keymap::action(key, self.key_context()) {
                    // A message answers the action before; the next one replaces it.
                    self.view.message = None;
                    self.perform(action, &mut fx);
                }
            }
            Event::Input(CtEvent::Mouse(mouse)) => self.mouse(mouse, &mut fx),
            Event::Input(CtEvent::Resize(w, h)) => self.resize(w, h),
            Event::Input(_) => {}
            Event::Tick => self.tick(&mut fx),
            Event::Engine(report) => self.report(report, &mut fx),
            Event::InputFailed(reason) => {
                self.set_error(format!("cannot read the terminal: {reason}"));
                self.cancel(&mut fx);
                fx.push(Effect::Quit);
            }
        }
        if self.view.focus == Pane::Tree {
            self.engine.tree_pane_used();
        }
        fx
    }

    /// Carries out one action (keys and clicks both end here).
    pub fn perform(&mut self, action: Action, fx: &mut Vec<Effect<G>>) {
        match action {
            Action::Quit => {
                if self.ui.confirm_quit && self.is_unsaved_game_in_progress() {
                    self.view.dialog = Some(Dialog::Quit);
                } else {
                    self.cancel(fx);
                    fx.push(Effect::Quit);
                }
            }
            Action::ForceQuit => {
                self.cancel(fx);
                fx.push(Effect::Quit);
            }
            Action::ToggleHelp => {
                self.view.help = !self.view.help;
                self.view.help_scroll = 0;
            }
            Action::Close => self.view.help = false,
            Action::FocusNext => self.view.focus = self.view.focus.next(),
            Action::FocusPrev => self.view.focus = self.view.focus.prev(),
            Action::Cursor(dir) => {
                self.view.cursor = self
                    .board
                    .step(self.session.current(), self.view.cursor, dir);
            }
            Action::Play => self.play_cursor(fx),
            Action::Undo => self.undo(fx),
            Action::Redo => self.redo(fx),
            Action::StepBack => self.browse(self.session.cursor().saturating_sub(1), fx),
            Action::StepForward => self.browse(self.session.cursor() + 1, fx),
            Action::First => self.browse(0, fx),
            Action::Last => self.browse(self.session.steps().len(), fx),
            Action::Scroll(rows) => self.scroll(rows),
            Action::EngineScroll(lines) => self.scroll_engine(lines),
            Action::MoveNow => self.move_now(fx),
            Action::Pause => self.pause(fx),
            Action::StepOnce => self.step_once(fx),
            Action::Hint => self.ask_hint(fx),
            Action::NewGame => {
                if self.is_unsaved_game_in_progress() {
                    self.view.dialog = Some(Dialog::NewGame);
                } else {
                    self.new_game(fx);
                }
            }
            Action::Save => fx.push(Effect::Save),
            // The game is kept behind the setup screen (Esc there comes back), so nothing
            // is lost yet: the setup screen asks before it starts or loads another one.
            Action::Setup => {
                self.cancel(fx);
                fx.push(Effect::Setup);
            }
            Action::Yes => match self.view.dialog.take() {
                Some(Dialog::Quit) => {
                    self.cancel(fx);
                    fx.push(Effect::Quit);
                }
                Some(Dialog::NewGame) => self.new_game(fx),
                Some(Dialog::Branch { mv, .. }) => self.commit_human(mv, fx),
                None => {}
            },
            Action::No => {
                self.view.dialog = None;
                self.play_held(fx);
                self.maybe_engine(fx);
            }
            Action::HelpScroll(lines) => {
                let visible = usize::from(layout::help(self.view.frame).height.saturating_sub(2));
                let max = keymap::help().len().saturating_sub(visible);
                let scroll = self.view.help_scroll as i64 + i64::from(lines);
                self.view.help_scroll = scroll.clamp(0, max as i64) as usize;
            }
            Action::Tree(tree) => self.tree_action(tree, fx),
            Action::RecordTree => self.request_tree(Purpose::Tree, fx),
            Action::Compare => self.request_tree(Purpose::Compare, fx),
        }
    }

    fn tree_action(&mut self, action: TreeAction, fx: &mut Vec<Effect<G>>) {
        match action {
            TreeAction::Leave => {
                if matches!(
                    self.engine.searching(),
                    Some(Purpose::Tree | Purpose::Compare)
                ) {
                    self.move_now(fx);
                    self.set_info("Stopping the search: what it recorded stays to browse");
                } else {
                    self.view.focus = Pane::Board;
                }
            }
            TreeAction::ToggleRecording => {
                let recording = self.engine.toggle_recording();
                self.set_info(if recording {
                    "The engine's searches are recorded for the tree pane"
                } else {
                    "The engine's searches are not recorded (t still records one)"
                });
            }
            TreeAction::ToggleEngine => {
                let full = self.engine.toggle_tree_engine();
                self.set_info(if full {
                    "t and v now search with the full engine (E: back to plain alpha-beta)"
                } else {
                    "t and v now search with plain alpha-beta (E: the full engine)"
                });
            }
            TreeAction::Deeper => self.change_tree_depth(true, fx),
            TreeAction::Shallower => self.change_tree_depth(false, fx),
            TreeAction::Show(index) => {
                if !self.trees.show(index) {
                    self.set_error(format!("No search {} to browse (yet)", index + 1));
                }
            }
            _ => {
                let height = self.tree_list_height();
                self.trees.navigate(action, height);
            }
        }
    }

    /// `t` and `v`: search the position on the board to browse the tree(s).
    fn request_tree(&mut self, purpose: Purpose, fx: &mut Vec<Effect<G>>) {
        let game = self.session.current();
        let side = game.to_move();
        if game.outcome().is_some() {
            self.set_error("The game is over here: there is nothing to search");
            return;
        }
        match self.engine.searching() {
            Some(Purpose::Move) => {
                self.set_error(if self.engines_only() {
                    "The engine is thinking: pause with Space first"
                } else {
                    "The engine is thinking: wait for its move (m makes it move now)"
                });
                return;
            }
            Some(Purpose::Hint) => {
                self.set_error("The engine is finding a hint: wait for it first");
                return;
            }
            Some(Purpose::Tree | Purpose::Compare) => self.cancel(fx),
            None => {}
        }
        // Only a search that starts moves the focus: a refused one leaves it where it was.
        self.view.focus = Pane::Tree;
        let depth = self.tree_depth(side);
        if purpose == Purpose::Compare {
            let settings = &self.settings[side.index()];
            let full_engine = self.engine.tree_full_engine;
            self.trees
                .start_comparison(comparison(settings, depth, full_engine));
            self.set_info(format!(
                "Comparing the searches of this position to depth {depth} (Esc stops)"
            ));
        } else if self.engine.tree_full_engine && self.engine.tree_depth.is_none() {
            self.set_info("Searching this position to record its tree (Esc stops)");
        } else {
            self.set_info(format!(
                "Searching this position to depth {depth} to record its tree (Esc stops)"
            ));
        }
        self.launch(side, purpose, fx);
    }

    /// The depth `t` and `v` search to for `side`: the one set in the tree pane, else the
    /// side's own ([`comparison_depth`]).
    fn tree_depth(&self, side: Player) -> u32 {
        self.engine.tree_depth.unwrap_or_else(|| {
            comparison_depth(
                &self.settings[side.index()],
                self.session.options.default_depth(),
            )
        })
    }

    /// `+`/`-` in the tree pane: `t` and `v` search one ply deeper or shallower from now on,
    /// and the search on show, if it was one of theirs, runs again at the new depth.
    fn change_tree_depth(&mut self, deeper: bool, fx: &mut Vec<Effect<G>>) {
        let side = self.session.current().to_move();
        let now = self.tree_depth(side);
        let depth = if deeper {
            (now + 1).min(MAX_SETTING_DEPTH)
        } else {
            now.saturating_sub(1).max(1)
        };
        self.engine.tree_depth = Some(depth);
        let again = if self.trees.compare.is_empty() {
            self.trees
                .shown()
                .filter(|r| r.label == TREE_SEARCH_LABEL)
                .map(|_| Purpose::Tree)
        } else {
            Some(Purpose::Compare)
        };
        match again {
            Some(purpose) if depth != now => self.request_tree(purpose, fx),
            _ => self.set_info(format!(
                "t and v search to depth {depth} (+ deeper, - shallower)"
            )),
        }
    }

    /// Tells the app how saving went.
    pub fn saved(&mut self, result: Result<PathBuf, SaveError>) {
        match result {
            Ok(path) => {
                self.dirty = false;
                self.set_info(format!("Saved to {}", path.display()));
                self.saved_as = Some(path);
            }
            Err(e) => self.set_error(format!("Not saved: {e}")),
        }
    }

    fn set_info(&mut self, text: impl Into<String>) {
        self.view.message = Some(Message {
            text: text.into(),
            is_error: false,
            since: self.view.tick,
        });
    }

    fn set_error(&mut self, text: impl Into<String>) {
        self.view.message = Some(Message {
            text: text.into(),
            is_error: true,
            since: self.view.tick,
        });
    }

    fn side_label(&self, player: Player) -> String {
        let who = if self.is_human(player) {
            "you"
        } else if self.engine.brain_names[player.index()].is_some() {
            "brain"
        } else {
            "engine"
        };
        format!("{} ({who})", G::side_name(player))
    }

    fn play_cursor(&mut self, fx: &mut Vec<Effect<G>>) {
        let game = self.session.current();
        if game.outcome().is_some() || self.lost_on_time.is_some() {
            self.set_error("The game is over: n starts a new one, u takes back moves");
            return;
        }
        if !self.is_human(game.to_move()) {
            let side = self.side_label(game.to_move());
            self.set_error(format!("It is not your move: {side} is to move"));
            return;
        }
        match self.board.move_at(game, self.view.cursor) {
            Some(mv) => self.play_human(mv, fx),
            None => self.set_error("No legal move there"),
        }
    }

    /// A human's move, asking first when it would drop later moves.
    pub fn play_human(&mut self, mv: G::Move, fx: &mut Vec<Effect<G>>) {
        let dropped = self.session.steps().len() - self.session.cursor();
        if dropped > 0 && !self.takeback {
            self.view.dialog = Some(Dialog::Branch { mv, dropped });
        } else {
            self.commit_human(mv, fx);
        }
    }

    fn commit_human(&mut self, mv: G::Move, fx: &mut Vec<Effect<G>>) {
        if self.lost_on_time.is_some() {
            self.set_error("The game is over: n starts a new one, u takes back moves");
            return;
        }
        // On a match clock the move is charged the time since its turn began (a move played
        // into the history being browsed branches off it and is charged nothing).
        let spent = self
            .human_thinking()
            .filter(|_| self.is_live())
            .map(|(_, thinking)| thinking);
        self.cancel(fx);
        self.engine.take_held();
        let played = match spent {
            Some(spent) => self.session.play_timed(mv, None, spent),
            None => self.session.play(mv, None),
        };
        match played {
            Ok(()) => {
                self.view.message = None;
                self.after_move();
                self.maybe_engine(fx);
            }
            Err(e) => self.set_error(e.to_string()),
        }
    }

    fn after_move(&mut self) {
        self.restart_turn();
        self.dirty = true;
        self.takeback = false;
        self.engine.hint = None;
        self.follow_log();
        self.fix_cursor();
    }

    /// Moves the cursor off a place where no move is legal any more (a filled cell, an
    /// emptied pit) to the nearest one that is.
    fn fix_cursor(&mut self) {
        let game = self.session.current();
        let cursor = self.view.cursor;
        if game.outcome().is_some() || self.board.move_at(game, cursor).is_some() {
            return;
        }
        self.view.cursor = [Dir::Right, Dir::Left, Dir::Down, Dir::Up]
            .into_iter()
            .map(|dir| self.board.step(game, cursor, dir))
            .find(|&c| c != cursor)
            .unwrap_or_else(|| self.board.home(game));
    }

    fn undo(&mut self, fx: &mut Vec<Effect<G>>) {
        let humans = [self.is_human(Player::First), self.is_human(Player::Second)];
        let played = self
            .session
            .steps()
            .get(..self.session.cursor())
            .unwrap_or_default();
        // Against the engine, undo takes back the human's turn; the engine's moves before
        // the human's first one are not the human's to take back (undoing them would only
        // make the engine choose its opening again).
        if !self.engines_only() && !played.iter().any(|s| humans[s.mover.index()]) {
            self.set_error("Nothing to undo");
            return;
        }
        self.cancel(fx);
        self.engine.hint = None;
        self.engine.take_held();
        let undone = if self.engines_only() {
            self.engine.paused = true;
            usize::from(self.session.undo())
        } else {
            self.session.undo_turn(|p| humans[p.index()])
        };
        if undone == 0 {
            self.set_error("Nothing to undo");
        } else {
            self.view.message = None;
            self.takeback = true;
            self.restart_turn();
        }
        self.follow_log();
        self.fix_cursor();
        self.maybe_engine(fx);
    }

    fn redo(&mut self, fx: &mut Vec<Effect<G>>) {
        self.cancel(fx);
        self.engine.hint = None;
        let redone = if self.engines_only() {
            usize::from(self.session.redo())
        } else {
            let humans = [self.is_human(Player::First), self.is_human(Player::Second)];
            self.session.redo_turn(|p| humans[p.index()])
        };
        if redone == 0 {
            self.set_error("Nothing to redo");
        } else {
            self.view.message = None;
        }
        self.follow_log();
        self.fix_cursor();
        self.maybe_engine(fx);
    }

    /// Shows the position after `to` moves, keeping every move.
    pub fn browse(&mut self, to: usize, fx: &mut Vec<Effect<G>>) {
        let to = to.min(self.session.steps().len());
        if to == self.session.cursor() {
            return;
        }
        self.cancel(fx);
        self.engine.hint = None;
        self.session.goto(to);
        self.takeback = false;
        if self.session.at_end() {
            self.view.message = None;
        } else if self.engines_only() {
            self.engine.paused = true;
        }
        self.follow_log();
        self.fix_cursor();
        self.maybe_engine(fx);
    }

    fn scroll(&mut self, rows: i32) {
        let visible = self.log_rows();
        let total = self.session.steps().len() + 1;
        let max = total.saturating_sub(visible);
        let offset = self.view.log_offset as i64 + i64::from(rows);
        self.view.log_offset = offset.clamp(0, max as i64) as usize;
    }

    /// Scrolls the engine pane by `lines`, within its text (a long principal variation).
    fn scroll_engine(&mut self, lines: i32) {
        let Areas::Panes(areas) = self.areas() else {
            return;
        };
        let inner = layout::inner(areas.engine);
        let total = stats::line_count(&self.engine_pane(), inner.width);
        let max = total.saturating_sub(usize::from(inner.height));
        let offset = self.view.engine_scroll as i64 + i64::from(lines);
        self.view.engine_scroll = offset.clamp(0, max as i64) as usize;
    }

    fn move_now(&mut self, fx: &mut Vec<Effect<G>>) {
        if self.engine.pending.is_none() {
            self.engine.hint = None;
            self.view.message = None;
        } else if self.engine.hurry() {
            fx.push(Effect::Stop);
        }
    }

    fn pause(&mut self, fx: &mut Vec<Effect<G>>) {
        if self.engine.paused {
            self.engine.paused = false;
            self.set_info("Resumed");
            self.maybe_engine(fx);
        } else {
            self.engine.paused = true;
            if self.engine.searching() == Some(Purpose::Move) {
                self.cancel(fx);
            }
            self.set_info(if self.view.focus == Pane::Tree {
                "Paused: Space resumes, . plays one move"
            } else {
                "Paused: Space or p resumes, . plays one move"
            });
        }
    }

    fn step_once(&mut self, fx: &mut Vec<Effect<G>>) {
        if !self.engine.paused {
            self.set_error(". plays one engine move while paused (Space or p pauses)");
            return;
        }
        if self.engine.pending.is_some() {
            return;
        }
        self.engine.set_step_once(true);
        self.maybe_engine(fx);
        if self.engine.pending.is_none() {
            self.engine.set_step_once(false);
            self.set_error("No engine move to play here");
        }
    }

    fn ask_hint(&mut self, fx: &mut Vec<Effect<G>>) {
        let game = self.session.current();
        if game.outcome().is_some() || self.lost_on_time.is_some() {
            self.set_error("The game is over");
            return;
        }
        let side = game.to_move();
        if !self.is_human(side) {
            self.set_error("Hints are for the human side");
            return;
        }
        if self.engine.pending.is_some() {
            return;
        }
        self.set_info("Thinking about a hint...");
        self.launch(side, Purpose::Hint, fx);
    }

    fn new_game(&mut self, fx: &mut Vec<Effect<G>>) {
        self.cancel(fx);
        self.session.restart();
        self.dirty = false;
        self.takeback = false;
        self.engine.new_game();
        self.trees = TreeBrowser::default();
        self.view.cursor = self.board.home(self.session.current());
        self.view.log_offset = 0;
        self.restart_turn();
        self.set_info("New game");
        self.maybe_engine(fx);
    }

    /// Stops the running search, if any, and forgets it (its answer will be ignored).
    fn cancel(&mut self, fx: &mut Vec<Effect<G>>) {
        if self.engine.cancel() {
            self.trees.running = false;
            fx.push(Effect::Stop);
        }
    }

    /// Starts the engine if it is to move here and nothing holds it.
    fn maybe_engine(&mut self, fx: &mut Vec<Effect<G>>) {
        if self.engine.pending.is_some() || self.view.dialog.is_some() {
            return;
        }
        let game = self.session.current();
        if game.outcome().is_some() || self.lost_on_time.is_some() {
            self.engine.set_step_once(false);
            return;
        }
        let side = game.to_move();
        if self.is_human(side) || !(self.session.at_end() || self.takeback) {
            return;
        }
        if !self.engine.may_move() {
            return;
        }
        self.launch(side, Purpose::Move, fx);
    }

    fn launch(&mut self, side: Player, purpose: Purpose, fx: &mut Vec<Effect<G>>) {
        let root = self.session.current().clone();
        let tree_depth = match purpose {
            Purpose::Compare => self
                .trees
                .compare
                .first()
                .map_or(1, |(_, s)| s.limits.max_depth()),
            _ => self.tree_depth(side),
        };
        let (id, job) = self
            .engine
            .launch(side, purpose, &root, self.view.tick, tree_depth);
        self.view.engine_scroll = 0;
        let clock = (purpose == Purpose::Move).then(|| self.session.clock_reading(side));
        fx.push(Effect::Search {
            id,
            root,
            side,
            purpose,
            job,
            clock,
        });
    }

    fn tick(&mut self, fx: &mut Vec<Effect<G>>) {
        self.view.tick += 1;
        self.check_human_clock();
        if self
            .view
            .message
            .as_ref()
            .is_some_and(|m| self.view.tick >= m.since + MESSAGE_TICKS)
        {
            self.view.message = None;
        }
        // The pace waits while a question is open: nothing moves behind a dialog.
        if self.view.dialog.is_none() && self.engine.tick_pace() {
            self.maybe_engine(fx);
        }
    }

    fn report(&mut self, report: Report<G::Move>, fx: &mut Vec<Effect<G>>) {
        match self.engine.receive(report) {
            Arrival::Absorbed => {}
            Arrival::Compared {
                root,
                index,
                result,
                tree,
                gave_up,
                estimate,
            } => {
                if let Some((name, settings)) = self.trees.compare.get(index).cloned() {
                    let recorded = Recorded::new(name, root, settings, result, *tree, gave_up)
                        .with_estimate(estimate);
                    self.trees.add_compared(recorded);
                }
            }
            Arrival::Finished {
                search,
                result,
                recorded,
            } => self.finished(search, result, recorded, fx),
            Arrival::Failed(reason) => {
                self.trees.running = false;
                self.set_error(format!("The engine failed: {reason} (p retries)"));
            }
            Arrival::Forfeit { side, reason } => {
                self.trees.running = false;
                let again = if self.players.side(side).kind == PlayerKind::Brain {
                    "p lets the brain try again"
                } else {
                    // The engine forfeits only on time: the game is over until a move is
                    // taken back, and then the engine plays on without a `p`.
                    self.lost_on_time = Some(side);
                    self.engine.paused = false;
                    "u takes moves back, with their time"
                };
                self.set_error(format!(
                    "{} loses by forfeit: {reason}. n starts a new game ({again})",
                    G::side_name(side)
                ));
            }
        }
    }

    /// The search the app waited for ended: keep what it found, then act on its purpose.
    fn finished(
        &mut self,
        search: Pending,
        result: SearchResult<G::Move>,
        recorded: Option<(G, Box<SearchTree<G::Move>>)>,
        fx: &mut Vec<Effect<G>>,
    ) {
        if search.purpose == Purpose::Compare {
            self.comparison_finished(fx);
            return;
        }
        let base = &self.settings[search.side.index()];
        let asked = search.how.settings(base);
        let settings = asked.as_ref().unwrap_or(base);
        if let Some((root, tree)) = recorded {
            let label = match search.purpose {
                Purpose::Move => "engine move",
                Purpose::Hint => "hint",
                Purpose::Tree | Purpose::Compare => TREE_SEARCH_LABEL,
            };
            let shown = Recorded::new(label, root, settings.clone(), result.clone(), *tree, false);
            self.trees.set_single(shown);
        }
        let prunes = settings.algorithm.prunes();
        let pv = format_line(self.session.current(), &result.pv);
        let (best, raw_value, spent) = (result.best, result.value, result.stats.elapsed);
        // Stopped before any root move was searched: the move is only the first legal one,
        // and its value means nothing.
        let value = (result.stats.depth > 0).then_some(result.value);
        self.engine
            .remember(search, result, prunes, pv, self.view.tick);
        self.view.engine_scroll = 0;
        match (search.purpose, best) {
            (Purpose::Tree, _) => self.tree_recorded(fx),
            (Purpose::Move, Some(best)) if self.view.dialog.is_some() => {
                self.engine.hold(search.side, best, value, spent);
            }
            (Purpose::Move, Some(best)) => self.engine_move(search.side, best, value, spent, fx),
            (Purpose::Hint, Some(best)) => self.show_hint(best, raw_value, value),
            (Purpose::Move | Purpose::Hint, None) | (Purpose::Compare, _) => {}
        }
    }

    /// A comparison ended: say whether its searches agree.
    fn comparison_finished(&mut self, fx: &mut Vec<Effect<G>>) {
        self.trees.running = false;
        let gave_up = self.trees.trees.iter().any(|r| r.gave_up);
        match self.trees.verdict() {
            Some((_, true)) if gave_up => {
                self.set_info("Compared: minimax gave up, nothing to compare");
            }
            Some((_, true)) => self.set_info("Compared: the searches agree"),
            Some((_, false)) => self.set_error("Compared: no agreement, see the tree pane"),
            None => self.set_info("Comparison stopped"),
        }
        self.maybe_engine(fx);
    }

    /// A `t` search ended: its tree is on show.
    fn tree_recorded(&mut self, fx: &mut Vec<Effect<G>>) {
        if let Some(shown) = self.trees.shown() {
            let text = format!(
                "Recorded {} nodes: p opens the principal variation",
                crate::engine::stats::group_digits(shown.tree.searched_count() as u64)
            );
            self.set_info(text);
        }
        self.maybe_engine(fx);
    }

    /// Puts the cursor on the hinted move and says it, with its `value` when the search
    /// got far enough to have one.
    fn show_hint(&mut self, best: G::Move, raw_value: i32, value: Option<i32>) {
        let game = self.session.current();
        self.view.cursor = self.board.cursor_of(game, best);
        let text = format!(
            "Hint: {} ({})",
            game.format_move(best),
            value.map_or_else(
                || "stopped before any move was searched: no value".to_string(),
                crate::engine::score::format::<G>
            )
        );
        self.engine.hint = Some((best, raw_value));
        self.set_info(text);
    }

    /// Plays an engine move held back while a dialog was open.
    fn play_held(&mut self, fx: &mut Vec<Effect<G>>) {
        if let Some((side, mv, value, spent)) = self.engine.take_held()
            && self.session.at_end()
        {
            self.engine_move(side, mv, value, spent, fx);
        }
    }

    fn engine_move(
        &mut self,
        side: Player,
        mv: G::Move,
        value: Option<i32>,
        spent: Duration,
        fx: &mut Vec<Effect<G>>,
    ) {
        if self.session.current().to_move() != side {
            return;
        }
        match self.session.play_timed(mv, value, spent) {
            Ok(()) => {
                self.after_move();
                let pace = self.engines_only().then_some(self.ui.engine_pace_ms);
                self.engine.moved(pace);
                self.maybe_engine(fx);
            }
            Err(e) => {
                self.engine.paused = true;
                self.set_error(format!("The engine chose an illegal move: {e}"));
            }
        }
    }

    fn mouse(&mut self, mouse: MouseEvent, fx: &mut Vec<Effect<G>>) {
        let at = Position::new(mouse.column, mouse.row);
        let click = matches!(mouse.kind, MouseEventKind::Down(MouseButton::Left));
        if self.view.dialog.is_some() {
            if click {
                let (yes, no) = layout::dialog_buttons(layout::dialog(self.view.frame));
                if yes.contains(at) {
                    self.perform(Action::Yes, fx);
                } else if no.contains(at) {
                    self.perform(Action::No, fx);
                }
            }
            return;
        }
        if self.view.help {
            if click {
                self.view.help = false;
            }
            return;
        }
        let Areas::Panes(areas) = self.areas() else {
            return;
        };
        let pane = areas.pane_at(at);
        match mouse.kind {
            MouseEventKind::Down(MouseButton::Left) => {
                let Some(pane) = pane else {
                    return;
                };
                self.view.message = None;
                let was_focused = self.view.focus == pane;
                self.view.focus = pane;
                match pane {
                    Pane::Board => {
                        let game = self.session.current();
                        if let Some(cursor) = self.board.hit(game, layout::inner(areas.board), at) {
                            self.view.cursor = cursor;
                            if game.outcome().is_none() && self.is_human(game.to_move()) {
                                self.play_cursor(fx);
                            }
                        }
                    }
                    Pane::Moves => {
                        let inner = layout::inner(areas.moves);
                        if inner.contains(at) {
                            let row = self.view.log_offset + usize::from(at.y - inner.y);
                            if row <= self.session.steps().len() {
                                self.browse(row, fx);
                            }
                        }
                    }
                    Pane::Tree => {
                        // Hit-tested on the layout the user clicked on (the pane grows
                        // once it has the focus).
                        let inner = layout::inner(areas.tree);
                        let height = self.tree_list_height();
                        self.trees.click(inner, at, was_focused, height);
                    }
                    Pane::Engine => {}
                }
            }
            MouseEventKind::Moved if pane == Some(Pane::Board) => {
                let game = self.session.current();
                if let Some(cursor) = self.board.hit(game, layout::inner(areas.board), at) {
                    self.view.cursor = cursor;
                }
            }
            MouseEventKind::ScrollUp if pane == Some(Pane::Moves) => self.scroll(-3),
            MouseEventKind::ScrollDown if pane == Some(Pane::Moves) => self.scroll(3),
            MouseEventKind::ScrollUp if pane == Some(Pane::Engine) => self.scroll_engine(-3),
            MouseEventKind::ScrollDown if pane == Some(Pane::Engine) => self.scroll_engine(3),
            MouseEventKind::ScrollUp if pane == Some(Pane::Tree) => {
                let height = self.trees.list_height(layout::inner(areas.tree));
                self.trees.scroll(-3, height);
            }
            MouseEventKind::ScrollDown if pane == Some(Pane::Tree) => {
                let height = self.trees.list_height(layout::inner(areas.tree));
                self.trees.scroll(3, height);
            }
            _ => {}
        }
    }

    fn log_rows(&self) -> usize {
        match self.areas() {
            Areas::Panes(a) => usize::from(layout::inner(a.moves).height).max(1),
            Areas::TooSmall { .. } => 1,
        }
    }

    /// Scrolls the move log so the current position's row is visible.
    fn follow_log(&mut self) {
        let rows = self.log_rows();
        let row = self.session.cursor();
        if row < self.view.log_offset {
            self.view.log_offset = row;
        } else if row >= self.view.log_offset + rows {
            self.view.log_offset = row + 1 - rows;
        }
        // Never past the last full page (a taller frame shows more rows): every wheel notch
        // then moves what is seen.
        let total = self.session.steps().len() + 1;
        self.view.log_offset = self.view.log_offset.min(total.saturating_sub(rows));
    }
}
