//! The game screen's state machine: a [`Session`] plus view state, changed only by
//! [`App::update`], which returns [`Effect`]s (start or stop a search, save, quit) for the
//! runner to carry out. No drawing, no threads, no clock: time arrives as ticks.

use std::path::PathBuf;

use ratatui::crossterm::event::{
    Event as CtEvent, KeyEventKind, MouseButton, MouseEvent, MouseEventKind,
};
use ratatui::layout::{Position, Rect, Size};

use super::action::{Action, Dir, Pane};
use super::boards::{BoardView, HasBoard};
use super::event::{Event, TICK_MS};
use super::keymap::{self, KeyContext};
use super::layout::{self, Areas};
use super::theme::Theme;
use super::tree_browser::{Preview, Recorded, TreeBrowser};
use super::view_state::{Dialog, MESSAGE_TICKS, Message, ViewState};
use super::worker::{Job, Purpose, Report, SearchId, comparison, comparison_depth};
use crate::config::{Config, PlayerKind, PlayersConfig, UiConfig};
use crate::engine::api::{EngineSettings, SearchResult};
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

/// The search the app is waiting for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pending {
    /// Its id.
    pub id: SearchId,
    /// Whose engine searches.
    pub side: Player,
    /// A move or a hint.
    pub purpose: Purpose,
    /// The tick it started at.
    pub started: u64,
    /// "Move now" was asked: it was told to stop and its answer is awaited.
    pub hurried: bool,
}

/// A finished search, kept for the engine pane.
#[derive(Clone, Debug, PartialEq)]
pub struct LastSearch<M> {
    /// Its id.
    pub id: SearchId,
    /// Whose engine it was.
    pub side: Player,
    /// A move or a hint.
    pub purpose: Purpose,
    /// What it found.
    pub result: SearchResult<M>,
    /// Plain minimax's node count to the depth the answer came from.
    pub minimax: MinimaxCount,
    /// It was told to stop ("move now", a tree search stopped) before it finished.
    pub hurried: bool,
    /// Ticks it took, as the app counted them.
    pub ticks: u64,
    /// The principal variation in notation, played out from the searched position.
    pub pv: Vec<String>,
}

/// Plain minimax's node count for a finished search, as far as it is known.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MinimaxCount {
    /// Not counted: the search was plain minimax, was stopped, or searched no move.
    NotCounted,
    /// The worker is counting.
    Counting,
    /// More than [`super::worker::MINIMAX_COUNT_BUDGET`] nodes: the count was given up.
    TooMany,
    /// This many nodes.
    Nodes(u64),
}

/// A recorded search under way: the position it started from, and the tree it sends ahead
/// of its `Finished`.
struct Recording<G: Game> {
    root: G,
    tree: Option<Box<SearchTree<G::Move>>>,
}

/// The engine as the app sees it.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineState<M> {
    /// The search running now.
    pub pending: Option<Pending>,
    /// Its latest progress report.
    pub progress: Option<SearchResult<M>>,
    /// The last finished search.
    pub last: Option<LastSearch<M>>,
}

impl<M> Default for EngineState<M> {
    fn default() -> Self {
        Self {
            pending: None,
            progress: None,
            last: None,
        }
    }
}

/// The game screen.
// Four independent switches (paused, dirty, takeback, step once); an enum would not fit.
#[allow(clippy::struct_excessive_bools)]
pub struct App<G: HasBoard> {
    /// The game and its history.
    pub session: Session<G>,
    /// Who plays each side.
    pub players: PlayersConfig,
    /// Focus, cursor, overlays, scroll.
    pub view: ViewState<CursorOf<G>, G::Move>,
    /// The board's drawing and hit-testing.
    pub board: G::View,
    /// The engine's searches.
    pub engine: EngineState<G::Move>,
    /// The styles.
    pub theme: Theme,
    /// The engine's suggestion for the human, with its value.
    pub hint: Option<(G::Move, i32)>,
    /// Engine moves are held (Space / p); also set after an engine failure.
    pub paused: bool,
    /// The step list changed since the last save.
    pub dirty: bool,
    /// Where the game was last saved.
    pub saved_as: Option<PathBuf>,
    /// Search settings per side (for the engine pane).
    pub settings: [EngineSettings; 2],
    /// The recorded search trees the tree pane shows.
    pub trees: TreeBrowser<G>,
    /// Nodes a recorded tree keeps (`[tree] max_nodes`).
    pub max_nodes: usize,
    /// The engine records its own searches (moves and hints) for the tree pane. Off until
    /// the tree pane is first used, so normal play runs with the no-op observer; `R`
    /// toggles it.
    pub record_engine: bool,
    tree_used: bool,
    recording: Option<Recording<G>>,
    /// An engine move that arrived while a dialog was open, played when it closes.
    held: Option<(Player, G::Move, Option<i32>)>,
    ui: UiConfig,
    /// The cursor was last moved by undo/redo: a move played there drops the taken-back
    /// moves without asking, as an editor drops its redo list.
    takeback: bool,
    step_once: bool,
    pace_left_ms: u64,
    next_id: SearchId,
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
            engine: EngineState::default(),
            theme: Theme::default(),
            hint: None,
            paused: false,
            dirty: false,
            saved_as: None,
            settings,
            trees: TreeBrowser::default(),
            max_nodes: config.tree.max_nodes,
            record_engine: false,
            tree_used: false,
            recording: None,
            held: None,
            ui: config.ui.clone(),
            takeback: false,
            step_once: false,
            pace_left_ms: 0,
            next_id: 1,
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

    /// True while something moves on screen without input (spinner, engine pace).
    pub fn is_animating(&self) -> bool {
        self.engine.pending.is_some() || self.pace_left_ms > 0
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
        if self.view.focus == Pane::Tree && !self.tree_used {
            self.tree_used = true;
            self.record_engine = true;
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
                let max = keymap::HELP.len().saturating_sub(visible);
                let scroll = self.view.help_scroll as i64 + i64::from(lines);
                self.view.help_scroll = scroll.clamp(0, max as i64) as usize;
            }
            Action::Tree(tree) => self.tree_action(tree, fx),
            Action::RecordTree => self.request_tree(Purpose::Tree, fx),
            Action::Compare => self.request_tree(Purpose::Compare, fx),
        }
    }

    fn tree_action(&mut self, action: super::action::TreeAction, fx: &mut Vec<Effect<G>>) {
        use super::action::TreeAction;
        match action {
            TreeAction::Leave => {
                if self
                    .engine
                    .pending
                    .is_some_and(|p| matches!(p.purpose, Purpose::Tree | Purpose::Compare))
                {
                    self.move_now(fx);
                    self.set_info("Stopping the search: what it recorded stays to browse");
                } else {
                    self.view.focus = Pane::Board;
                }
            }
            TreeAction::ToggleRecording => {
                self.tree_used = true;
                self.record_engine = !self.record_engine;
                self.set_info(if self.record_engine {
                    "The engine's searches are recorded for the tree pane"
                } else {
                    "The engine's searches are not recorded (t still records one)"
                });
            }
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
        self.view.focus = Pane::Tree;
        let game = self.session.current();
        let side = game.to_move();
        if game.outcome().is_some() {
            self.set_error("The game is over here: there is nothing to search");
            return;
        }
        match self.engine.pending.map(|p| p.purpose) {
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
        if purpose == Purpose::Compare {
            let settings = &self.settings[side.index()];
            let depth = comparison_depth(settings, self.session.options.default_depth());
            self.trees.start_comparison(comparison(settings, depth));
            self.set_info("Comparing the searches of this position (Esc stops)");
        } else {
            self.set_info("Searching this position to record its tree (Esc stops)");
        }
        self.launch(side, purpose, fx);
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
        } else {
            "engine"
        };
        format!("{} ({who})", G::side_name(player))
    }

    fn play_cursor(&mut self, fx: &mut Vec<Effect<G>>) {
        let game = self.session.current();
        if game.outcome().is_some() {
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
        self.cancel(fx);
        self.held = None;
        match self.session.play(mv, None) {
            Ok(()) => {
                self.view.message = None;
                self.after_move();
                self.maybe_engine(fx);
            }
            Err(e) => self.set_error(e.to_string()),
        }
    }

    fn after_move(&mut self) {
        self.dirty = true;
        self.takeback = false;
        self.hint = None;
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
        self.hint = None;
        self.held = None;
        let undone = if self.engines_only() {
            self.paused = true;
            usize::from(self.session.undo())
        } else {
            self.session.undo_turn(|p| humans[p.index()])
        };
        if undone == 0 {
            self.set_error("Nothing to undo");
        } else {
            self.view.message = None;
            self.takeback = true;
        }
        self.follow_log();
        self.fix_cursor();
        self.maybe_engine(fx);
    }

    fn redo(&mut self, fx: &mut Vec<Effect<G>>) {
        self.cancel(fx);
        self.hint = None;
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
        self.hint = None;
        self.session.goto(to);
        self.takeback = false;
        if self.session.at_end() {
            self.view.message = None;
        } else if self.engines_only() {
            self.paused = true;
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
        let total = super::panes::stats::line_count(self, inner.width);
        let max = total.saturating_sub(usize::from(inner.height));
        let offset = self.view.engine_scroll as i64 + i64::from(lines);
        self.view.engine_scroll = offset.clamp(0, max as i64) as usize;
    }

    fn move_now(&mut self, fx: &mut Vec<Effect<G>>) {
        match &mut self.engine.pending {
            Some(pending) if !pending.hurried => {
                pending.hurried = true;
                fx.push(Effect::Stop);
            }
            Some(_) => {}
            None => {
                self.hint = None;
                self.view.message = None;
            }
        }
    }

    fn pause(&mut self, fx: &mut Vec<Effect<G>>) {
        if self.paused {
            self.paused = false;
            self.set_info("Resumed");
            self.maybe_engine(fx);
        } else {
            self.paused = true;
            if self
                .engine
                .pending
                .is_some_and(|p| p.purpose == Purpose::Move)
            {
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
        if !self.paused {
            self.set_error(". plays one engine move while paused (Space or p pauses)");
            return;
        }
        if self.engine.pending.is_some() {
            return;
        }
        self.step_once = true;
        self.maybe_engine(fx);
        if self.engine.pending.is_none() {
            self.step_once = false;
            self.set_error("No engine move to play here");
        }
    }

    fn ask_hint(&mut self, fx: &mut Vec<Effect<G>>) {
        let game = self.session.current();
        if game.outcome().is_some() {
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
        self.hint = None;
        self.takeback = false;
        self.paused = false;
        self.step_once = false;
        self.pace_left_ms = 0;
        self.held = None;
        self.engine.last = None;
        self.trees = TreeBrowser::default();
        self.view.cursor = self.board.home(self.session.current());
        self.view.log_offset = 0;
        self.set_info("New game");
        self.maybe_engine(fx);
    }

    /// Stops the running search, if any, and forgets it (its answer will be ignored).
    fn cancel(&mut self, fx: &mut Vec<Effect<G>>) {
        if self.engine.pending.take().is_some() {
            self.engine.progress = None;
            self.recording = None;
            self.trees.running = false;
            self.step_once = false;
            fx.push(Effect::Stop);
        }
    }

    /// Starts the engine if it is to move here and nothing holds it.
    fn maybe_engine(&mut self, fx: &mut Vec<Effect<G>>) {
        if self.engine.pending.is_some() || self.view.dialog.is_some() {
            return;
        }
        let game = self.session.current();
        if game.outcome().is_some() {
            self.step_once = false;
            return;
        }
        let side = game.to_move();
        if self.is_human(side) || !(self.session.at_end() || self.takeback) {
            return;
        }
        if !self.step_once && (self.paused || self.pace_left_ms > 0) {
            return;
        }
        self.launch(side, Purpose::Move, fx);
    }

    fn launch(&mut self, side: Player, purpose: Purpose, fx: &mut Vec<Effect<G>>) {
        let id = self.next_id;
        self.next_id += 1;
        self.engine.pending = Some(Pending {
            id,
            side,
            purpose,
            started: self.view.tick,
            hurried: false,
        });
        self.engine.progress = None;
        self.view.engine_scroll = 0;
        let root = self.session.current().clone();
        // Normal play records nothing; the engine's own searches are recorded only once
        // the tree pane is in use.
        let job = match purpose {
            Purpose::Move | Purpose::Hint if !self.record_engine => Job::Think,
            Purpose::Compare => Job::Compare {
                max_nodes: self.max_nodes,
                depth: self
                    .trees
                    .compare
                    .first()
                    .map_or(1, |(_, s)| s.limits.max_depth()),
            },
            _ => Job::Record {
                max_nodes: self.max_nodes,
            },
        };
        self.recording = (job != Job::Think).then(|| Recording {
            root: root.clone(),
            tree: None,
        });
        fx.push(Effect::Search {
            id,
            root,
            side,
            purpose,
            job,
        });
    }

    fn tick(&mut self, fx: &mut Vec<Effect<G>>) {
        self.view.tick += 1;
        if self
            .view
            .message
            .as_ref()
            .is_some_and(|m| self.view.tick >= m.since + MESSAGE_TICKS)
        {
            self.view.message = None;
        }
        // The pace waits while a question is open: nothing moves behind a dialog.
        if self.pace_left_ms > 0 && self.view.dialog.is_none() {
            self.pace_left_ms = self.pace_left_ms.saturating_sub(TICK_MS);
            if self.pace_left_ms == 0 {
                self.maybe_engine(fx);
            }
        }
    }

    fn report(&mut self, report: Report<G::Move>, fx: &mut Vec<Effect<G>>) {
        let waiting = self.engine.pending.map(|p| p.id);
        match report {
            Report::Progress { id, result } if Some(id) == waiting => {
                self.engine.progress = Some(result);
            }
            Report::Recorded { id, tree } if Some(id) == waiting => {
                if let Some(recording) = &mut self.recording {
                    recording.tree = Some(tree);
                }
            }
            Report::Compared {
                id,
                index,
                result,
                tree,
                gave_up,
            } if Some(id) == waiting => {
                let root = self.recording.as_ref().map(|r| r.root.clone());
                if let (Some(root), Some((name, settings))) =
                    (root, self.trees.compare.get(index).cloned())
                {
                    self.trees
                        .add_compared(Recorded::new(name, root, settings, result, *tree, gave_up));
                }
            }
            Report::Finished { id, result } if Some(id) == waiting => {
                let Some(pending) = self.engine.pending.take() else {
                    return;
                };
                self.engine.progress = None;
                let recording = self.recording.take();
                if pending.purpose == Purpose::Compare {
                    self.trees.running = false;
                    match self.trees.verdict() {
                        Some((_, true)) => self.set_info("Compared: the searches agree"),
                        Some((_, false)) => {
                            self.set_error("Compared: no agreement, see the tree pane");
                        }
                        None => self.set_info("Comparison stopped"),
                    }
                    self.maybe_engine(fx);
                    return;
                }
                if let Some(Recording {
                    root,
                    tree: Some(tree),
                }) = recording
                {
                    let label = match pending.purpose {
                        Purpose::Move => "engine move",
                        Purpose::Hint => "hint",
                        Purpose::Tree | Purpose::Compare => "search",
                    };
                    let settings = self.settings[pending.side.index()].clone();
                    self.trees.set_single(Recorded::new(
                        label,
                        root,
                        settings,
                        result.clone(),
                        *tree,
                        false,
                    ));
                }
                let pv = format_line(self.session.current(), &result.pv);
                // The worker counts plain minimax after a pruning search that was not
                // stopped and searched at least one move.
                let counted = self.settings[pending.side.index()].algorithm.prunes()
                    && !pending.hurried
                    && result.stats.depth > 0;
                self.engine.last = Some(LastSearch {
                    id,
                    side: pending.side,
                    purpose: pending.purpose,
                    result: result.clone(),
                    minimax: if counted {
                        MinimaxCount::Counting
                    } else {
                        MinimaxCount::NotCounted
                    },
                    hurried: pending.hurried,
                    ticks: self.view.tick - pending.started,
                    pv,
                });
                self.view.engine_scroll = 0;
                // Stopped before any root move was searched: the move is only the first
                // legal one, and its value means nothing.
                let value = (result.stats.depth > 0).then_some(result.value);
                if pending.purpose == Purpose::Tree {
                    if let Some(shown) = self.trees.shown() {
                        let text = format!(
                            "Recorded {} nodes: p opens the principal variation",
                            crate::engine::stats::group_digits(shown.tree.nodes.len() as u64)
                        );
                        self.set_info(text);
                    }
                    self.maybe_engine(fx);
                    return;
                }
                let Some(best) = result.best else {
                    return;
                };
                match pending.purpose {
                    Purpose::Move if self.view.dialog.is_some() => {
                        self.held = Some((pending.side, best, value));
                    }
                    Purpose::Move => self.engine_move(pending.side, best, value, fx),
                    Purpose::Hint => {
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
                        self.hint = Some((best, result.value));
                        self.set_info(text);
                    }
                    Purpose::Tree | Purpose::Compare => {}
                }
            }
            Report::MinimaxNodes { id, nodes } => {
                if let Some(last) = self.engine.last.as_mut().filter(|l| l.id == id) {
                    last.minimax = nodes.map_or(MinimaxCount::TooMany, MinimaxCount::Nodes);
                }
            }
            Report::Failed { id, reason } if Some(id) == waiting => {
                self.engine.pending = None;
                self.engine.progress = None;
                self.recording = None;
                self.trees.running = false;
                self.paused = true;
                self.set_error(format!("The engine failed: {reason} (p retries)"));
            }
            // A report of a search the app stopped waiting for.
            Report::Progress { .. }
            | Report::Finished { .. }
            | Report::Failed { .. }
            | Report::Recorded { .. }
            | Report::Compared { .. } => {}
        }
    }

    /// Plays an engine move held back while a dialog was open.
    fn play_held(&mut self, fx: &mut Vec<Effect<G>>) {
        if let Some((side, mv, value)) = self.held.take()
            && self.session.at_end()
        {
            self.engine_move(side, mv, value, fx);
        }
    }

    fn engine_move(
        &mut self,
        side: Player,
        mv: G::Move,
        value: Option<i32>,
        fx: &mut Vec<Effect<G>>,
    ) {
        if self.session.current().to_move() != side {
            return;
        }
        match self.session.play(mv, value) {
            Ok(()) => {
                self.after_move();
                if self.engines_only() {
                    self.pace_left_ms = self.ui.engine_pace_ms;
                }
                self.step_once = false;
                self.maybe_engine(fx);
            }
            Err(e) => {
                self.paused = true;
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

/// Moves in notation, each formatted in the position it is played in (stops at the first
/// move that does not fit, which a stale line could hold).
pub fn format_line<G: Game>(root: &G, moves: &[G::Move]) -> Vec<String> {
    let mut position = root.clone();
    let mut out = Vec::with_capacity(moves.len());
    for &mv in moves {
        out.push(position.format_move(mv));
        if position.try_play(mv).is_err() {
            break;
        }
    }
    out
}
