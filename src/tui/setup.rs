//! The setup screen's state: the game, who plays each side and how the engine searches, the
//! game's options, and a saved game to load. Every edit is validated at once against the
//! config rules; a refused value stays in its field with the reason and the allowed range.

use std::path::PathBuf;

use ratatui::crossterm::event::{
    Event as CtEvent, KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEventKind,
};
use ratatui::layout::{Position, Rect};

use crate::config::{Config, PlayerKind, SideConfig};
use crate::engine::Player;
use crate::engine::settings::{
    Algorithm, DEFAULT_EVALUATOR, EngineSettings, FIELDS, Field, FieldKind, FieldValue,
};
use crate::error::ConfigError;
use crate::games::{GameKind, GameOptions, Playable};
use crate::tui::tree_browser::wrap;

/// One line of the form that holds a value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Row {
    /// Which game.
    Game,
    /// Which sides a human plays (and so who moves first).
    Humans,
    /// An engine setting per side: the index of its entry in [`FIELDS`] (those with a
    /// label, in the table's order).
    Engine(usize),
    /// Gomoku only: the external Gomocup brain that plays a side (empty: the engine).
    Brain,
    /// The game option with this index in `GameOptions::entries`.
    Option(usize),
    /// The switch that shows or hides the evaluator weights (the dotted game options, such
    /// as `linear.store`): an advanced section, collapsed at first.
    Weights,
    /// A saved game to load.
    Load,
    /// The start button.
    Start,
}

impl Row {
    /// True for rows with a value per side.
    pub fn is_per_side(self) -> bool {
        matches!(self, Self::Engine(_) | Self::Brain)
    }

    /// True for rows edited by typing.
    pub fn is_text(self) -> bool {
        match self {
            Self::Engine(_) => self.field().is_some_and(|f| {
                matches!(f.kind, FieldKind::Number { .. } | FieldKind::OptionalNumber)
            }),
            Self::Option(_) | Self::Load | Self::Brain => true,
            _ => false,
        }
    }

    /// The engine setting of an engine row.
    pub fn field(self) -> Option<&'static Field> {
        match self {
            Self::Engine(i) => FIELDS.get(i),
            _ => None,
        }
    }

    /// The engine row of the setting `key` (for tests and hints).
    pub fn engine(key: &str) -> Self {
        Self::Engine(FIELDS.iter().position(|f| f.key == key).unwrap_or(0))
    }
}

/// One line of the screen, in drawing order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetupLine {
    /// A section heading.
    Heading(String),
    /// A row with values.
    Row(Row),
    /// The error of the row above.
    Error(String),
}

/// Which sides a human plays.
const HUMANS: [(bool, bool); 4] = [(true, false), (false, true), (true, true), (false, false)];

/// What the setup screen asks the runner to do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetupOutcome {
    /// Nothing; redraw.
    Stay,
    /// Start a new game with `config`.
    Start,
    /// Load the saved game at this path.
    Load(PathBuf),
    /// Go back to the game the setup screen was opened from (Esc).
    Back,
    /// Leave the program.
    Quit,
}

/// The game the setup screen was opened from (`o`), kept until the user starts or loads
/// another one: Esc returns to it, and a failed load leaves it as it was.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeptGame {
    /// It has moves that are not saved: starting, loading or quitting asks first.
    pub unsaved: bool,
}

/// Width of the label column.
pub const LABEL_W: u16 = 25;
/// Width of each side's column.
pub const COLUMN_W: u16 = 22;

/// The setup screen.
#[derive(Clone, Debug)]
pub struct SetupState {
    /// The settings being edited; what a started game uses.
    pub config: Config,
    /// The selected row (index into [`SetupState::rows`]).
    pub selected: usize,
    /// The selected side on per-side rows.
    pub column: Player,
    /// The text being typed into the selected field.
    pub editing: Option<String>,
    /// Why the last edit was refused (shown under its row).
    pub error: Option<String>,
    /// A message from outside (a failed load or start), shown under the selected row until
    /// the next key.
    pub message: Option<String>,
    /// The game the screen was opened from, if any.
    pub kept: Option<KeptGame>,
    /// A question waiting for y/n: this outcome would drop the kept game's unsaved moves.
    pub confirm: Option<SetupOutcome>,
    /// The saved game to load.
    pub load_path: String,
    /// Whether the evaluator weights are shown (the [`Row::Weights`] section is open).
    pub show_weights: bool,
    /// The whole terminal, for hit-testing.
    pub frame: Rect,
}

/// Side names of a game (`X`, `O`...).
pub fn side_names(kind: GameKind) -> [&'static str; 2] {
    crate::with_game!(kind, G => [
        <G as Playable>::side_name(Player::First),
        <G as Playable>::side_name(Player::Second),
    ])
}

fn option_entries(config: &Config) -> Vec<(String, String)> {
    crate::with_game!(config.game, G => config
        .game_options::<G>()
        .map(|o| o.entries())
        .unwrap_or_default())
}

/// Whether a game option is an evaluator weight (`linear.store`, `tuned.pits`): those sit
/// in the collapsed "Evaluator weights" section.
fn is_weight(key: &str) -> bool {
    key.contains('.')
}

/// A game option's key in plain words: the label in the game's option docs
/// (`empty_capture` is "Empty-pit capture"), else the key itself (`linear.opponent_store`
/// is "Linear: opponent store").
pub fn option_label(kind: GameKind, key: &str) -> String {
    let docs = crate::with_game!(kind, G => <<G as Playable>::Options as GameOptions>::DOCS);
    if let Some(doc) = docs.iter().find(|d| d.key == key) {
        return doc.label.to_string();
    }
    let plain = |part: &str| part.replace('_', " ");
    let mut parts = key.split('.');
    let first = plain(parts.next().unwrap_or(""));
    let mut label: String = first
        .chars()
        .take(1)
        .flat_map(char::to_uppercase)
        .chain(first.chars().skip(1))
        .collect();
    let rest: Vec<String> = parts.map(plain).collect();
    if !rest.is_empty() {
        label.push_str(": ");
        label.push_str(&rest.join(" "));
    }
    label
}

/// What `?` (or F1) shows on the setup screen.
const SETUP_HELP: &str = "Keys: ↑↓ (or j k, Tab) choose a row · ←→ (h l) change the value, or pick \
    the side on per-side rows · Space change · type to edit numbers and the file name · Enter \
    start (on Load file: load it) · q quit · Ctrl-c quit now. Mouse: click a label to select \
    its row, click ◀ or ▶ to step the value, click a value to change it. A human side's engine \
    settings are used for hints (H) and the search tree (t); its match time is its clock.";

fn evaluators(kind: GameKind) -> Vec<&'static str> {
    crate::with_game!(kind, G => {
        let mut names = vec!["default"];
        names.extend(<G as Playable>::EVALUATORS.iter().copied());
        names
    })
}

fn default_depth(config: &Config) -> Option<u32> {
    crate::with_game!(config.game, G => config.game_options::<G>().ok().map(|o| o.default_depth()))
}

/// A refused value as the form shows it: `key = value: expected`, without the source name
/// (everything on this screen comes from it).
fn setup_error(e: &ConfigError) -> String {
    if e.value.is_empty() {
        format!("{}: {}", e.key, e.expected)
    } else {
        format!("{} = {}: {}", e.key, e.value, e.expected)
    }
}

/// Sets one option of the current game from text, validated; the config is unchanged on error
/// (which is `key = value: what is allowed`, without the game's name).
fn set_option(config: &mut Config, key: &str, value: &str) -> Result<(), String> {
    crate::with_game!(config.game, G => {
        let mut options = config.game_options::<G>().map_err(|e| setup_error(&e))?;
        options.set(key, value)?;
        options.validate("setup").map_err(|e| setup_error(&e))?;
        config.games.set::<G>(options);
        Ok(())
    })
}

/// The match clock's setting.
const MATCH_KEY: &str = "match_ms";

/// A brain's program and arguments as one line (as typed on the setup screen).
fn brain_text(brain: &crate::config::BrainCommand) -> String {
    std::iter::once(brain.command.as_str())
        .chain(brain.args.iter().map(String::as_str))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The newest non-empty `gametree-*.json` in the current directory, to offer for loading.
pub fn newest_save() -> Option<String> {
    let entries = std::fs::read_dir(".").ok()?;
    entries
        .filter_map(Result::ok)
        .filter(|e| {
            let name = e.file_name().to_string_lossy().to_string();
            let json = std::path::Path::new(&name)
                .extension()
                .is_some_and(|x| x.eq_ignore_ascii_case("json"));
            name.starts_with("gametree-") && json
        })
        // An empty file (a save cut short by a full disk) is not a game to offer.
        .filter_map(|e| {
            let meta = e.metadata().ok().filter(|m| m.is_file() && m.len() > 0)?;
            Some((meta.modified().ok()?, e.file_name()))
        })
        .max()
        .map(|(_, name)| name.to_string_lossy().to_string())
}

impl SetupState {
    /// The setup screen prefilled from `config`.
    pub fn new(config: Config) -> Self {
        let mut state = Self {
            config,
            selected: 0,
            column: Player::First,
            editing: None,
            error: None,
            message: None,
            kept: None,
            confirm: None,
            load_path: String::new(),
            show_weights: false,
            frame: Rect::new(0, 0, 80, 24),
        };
        // The first row: the form opens at its top (Enter starts from any row but Load).
        state.selected = 0;
        state
    }

    /// Every row with a value, in order.
    pub fn rows(&self) -> Vec<Row> {
        let mut rows = vec![Row::Game, Row::Humans];
        rows.extend(
            FIELDS
                .iter()
                .enumerate()
                .filter(|(_, f)| !f.label.is_empty())
                .map(|(i, _)| Row::Engine(i)),
        );
        if self.config.game == GameKind::Gomoku {
            rows.push(Row::Brain);
        }
        let entries = option_entries(&self.config);
        rows.extend(
            (0..entries.len())
                .filter(|&i| !is_weight(&entries[i].0))
                .map(Row::Option),
        );
        if entries.iter().any(|(k, _)| is_weight(k)) {
            rows.push(Row::Weights);
            if self.show_weights {
                rows.extend(
                    (0..entries.len())
                        .filter(|&i| is_weight(&entries[i].0))
                        .map(Row::Option),
                );
            }
        }
        rows.push(Row::Load);
        rows.push(Row::Start);
        rows
    }

    /// The selected row.
    pub fn row(&self) -> Row {
        let rows = self.rows();
        rows.get(self.selected)
            .or(rows.last())
            .copied()
            .unwrap_or(Row::Start)
    }

    /// The screen's lines, in order: headings, rows and the error under its row.
    pub fn lines(&self) -> Vec<SetupLine> {
        let names = side_names(self.config.game);
        let mut lines = Vec::new();
        let rows = self.rows();
        let first_engine_row = rows.iter().copied().find(|r| r.is_per_side());
        for row in rows {
            match row {
                Row::Engine(_) if Some(row) == first_engine_row => {
                    lines.push(SetupLine::Heading(format!(
                        "{:<l$}{:<w$}{}",
                        "Engine settings",
                        format!("{} (moves first)", names[0]),
                        names[1],
                        l = usize::from(LABEL_W) - 1,
                        w = usize::from(COLUMN_W)
                    )));
                    let (first, second) = self.humans();
                    let human = match (first, second) {
                        (true, true) => Some("both sides are human: their settings are"),
                        (true, false) => Some(names[0]),
                        (false, true) => Some(names[1]),
                        (false, false) => None,
                    };
                    if let Some(who) = human {
                        let text = if first && second {
                            format!(
                                "({who} used for hints (H) and the search tree (t); match time \
                                 is each side's clock)"
                            )
                        } else {
                            format!(
                                "({who} is yours: its settings are used for hints (H) and the \
                                 search tree (t); its match time is your clock)"
                            )
                        };
                        lines.extend(
                            wrap(&text, self.text_width())
                                .into_iter()
                                .map(SetupLine::Heading),
                        );
                    }
                }
                Row::Option(0) => lines.push(SetupLine::Heading(format!(
                    "{} options",
                    self.config.game.title()
                ))),
                // The file is a choice of its own: Enter on its row loads it, and Start
                // (a new game) never does, however the row is filled in.
                Row::Load => lines.extend(
                    wrap(
                        "Or continue a saved game: Enter on the file loads it \
                         (Start begins a new game)",
                        self.text_width(),
                    )
                    .into_iter()
                    .map(SetupLine::Heading),
                ),
                _ => {}
            }
            lines.push(SetupLine::Row(row));
            if row == self.row() {
                for text in self.error.iter().chain(&self.message) {
                    lines.extend(
                        wrap(text, self.text_width())
                            .into_iter()
                            .map(SetupLine::Error),
                    );
                }
            }
        }
        lines
    }

    /// Columns for the text of a line inside the form (errors wrap to it).
    fn text_width(&self) -> u16 {
        self.form_width().saturating_sub(4).max(10)
    }

    fn form_width(&self) -> u16 {
        (LABEL_W + 2 * COLUMN_W + 4).min(self.frame.width)
    }

    /// False for a per-side setting that the side ignores: the time limits outside the
    /// full engine (a brain takes them whatever the algorithm, and a human's match clock
    /// runs while it thinks).
    pub fn applies(&self, row: Row, side: Player) -> bool {
        let player = self.config.players.side(side);
        if row == Row::Brain {
            return player.kind != PlayerKind::Human;
        }
        let key = row.field().map(|f| f.key);
        if key == Some(MATCH_KEY) && player.kind == PlayerKind::Human {
            return true;
        }
        if matches!(key, Some("time_ms" | MATCH_KEY)) && player.kind == PlayerKind::Brain {
            return true;
        }
        !(row.field().is_some_and(|f| f.full_only) && player.engine.algorithm != Algorithm::Full)
    }

    /// The label of a row.
    pub fn label(&self, row: Row) -> String {
        match row {
            Row::Game => "Game".to_string(),
            Row::Humans => "You play".to_string(),
            Row::Brain => "Brain program".to_string(),
            Row::Engine(_) => row
                .field()
                .map_or_else(String::new, |f| f.label.to_string()),
            Row::Option(i) => option_entries(&self.config)
                .get(i)
                .map_or_else(String::new, |(k, _)| option_label(self.config.game, k)),
            Row::Weights => "Evaluator weights".to_string(),
            Row::Load => "Load file".to_string(),
            Row::Start => String::new(),
        }
    }

    fn humans(&self) -> (bool, bool) {
        let players = &self.config.players;
        (
            players.first.kind == PlayerKind::Human,
            players.second.kind == PlayerKind::Human,
        )
    }

    /// The value shown for `row` (and `side` on per-side rows).
    pub fn value(&self, row: Row, side: Player) -> String {
        let names = side_names(self.config.game);
        let s = &self.config.players.side(side).engine;
        match row {
            Row::Game => format!("◀ {} ▶", self.config.game.title()),
            Row::Humans => {
                let text = match self.humans() {
                    (true, false) => format!("{} (you move first)", names[0]),
                    (false, true) => format!("{} (the engine moves first)", names[1]),
                    (true, true) => "both sides (two humans)".to_string(),
                    (false, false) => "neither (engine vs engine)".to_string(),
                };
                format!("◀ {text} ▶")
            }
            Row::Brain if !self.applies(row, side) => "- (you)".to_string(),
            Row::Brain => {
                let side = self.config.players.side(side);
                if side.kind == PlayerKind::Brain {
                    brain_text(&side.brain)
                } else {
                    "none (the engine)".to_string()
                }
            }
            Row::Engine(_) if !self.applies(row, side) => "- (full engine only)".to_string(),
            Row::Engine(_) => row
                .field()
                .map_or_else(String::new, |f| self.engine_value(f, s)),
            Row::Option(i) => option_entries(&self.config)
                .get(i)
                .map_or_else(String::new, |(_, v)| v.clone()),
            Row::Weights if self.show_weights => "shown (Space hides them)".to_string(),
            Row::Weights => "hidden (Space shows them)".to_string(),
            Row::Load => self.load_path.clone(),
            Row::Start => "[ Start a new game ]".to_string(),
        }
    }

    /// An engine setting as the form shows it: numbers with what 0 means here, switches
    /// as on/off, an unset seed as `random`.
    fn engine_value(&self, field: &Field, s: &EngineSettings) -> String {
        match ((field.get)(s), field.kind) {
            (FieldValue::Number(0), _) if field.key == "depth" => {
                match (s.timed(), default_depth(&self.config)) {
                    (true, _) => "0 (as time allows)".to_string(),
                    (false, Some(d)) => format!("0 (game's: {d})"),
                    (false, None) => "0".to_string(),
                }
            }
            (FieldValue::Number(0), FieldKind::Number { zero: Some(_), .. })
                if field.key == "time_ms" =>
            {
                "0 (no limit)".to_string()
            }
            (FieldValue::Number(t), _) if field.key == "time_ms" => format!("{t} ms"),
            (FieldValue::Number(0), _) if field.key == MATCH_KEY => "0 (no clock)".to_string(),
            (FieldValue::Number(t), _) if field.key == MATCH_KEY => {
                format!(
                    "{t} ms ({})",
                    crate::engine::clock::match_time_text(std::time::Duration::from_millis(t))
                )
            }
            (FieldValue::Switch(on), _) => if on { "on" } else { "off" }.to_string(),
            (FieldValue::Unset, _) => "random".to_string(),
            (value, _) => value.to_string(),
        }
    }

    /// The raw text a field is edited from.
    fn edit_text(&self, row: Row) -> String {
        let s = &self.config.players.side(self.column).engine;
        match row {
            Row::Engine(_) if row.is_text() => row.field().map_or_else(String::new, |f| f.text(s)),
            Row::Brain => {
                let side = self.config.players.side(self.column);
                if side.kind == PlayerKind::Brain {
                    brain_text(&side.brain)
                } else {
                    String::new()
                }
            }
            Row::Load => self.load_path.clone(),
            other => self.value(other, self.column),
        }
    }

    /// Handles one terminal event.
    pub fn update(&mut self, event: &CtEvent) -> SetupOutcome {
        match event {
            CtEvent::Key(key) if key.kind != KeyEventKind::Release => self.key(*key),
            CtEvent::Mouse(mouse) => {
                let at = Position::new(mouse.column, mouse.row);
                match mouse.kind {
                    MouseEventKind::Down(MouseButton::Left) => self.click(at),
                    MouseEventKind::ScrollUp => {
                        self.move_selection(-1);
                        SetupOutcome::Stay
                    }
                    MouseEventKind::ScrollDown => {
                        self.move_selection(1);
                        SetupOutcome::Stay
                    }
                    _ => SetupOutcome::Stay,
                }
            }
            CtEvent::Resize(w, h) => {
                self.frame = Rect::new(0, 0, *w, *h);
                SetupOutcome::Stay
            }
            _ => SetupOutcome::Stay,
        }
    }

    fn key(&mut self, key: KeyEvent) -> SetupOutcome {
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        if ctrl && matches!(key.code, KeyCode::Char('c' | 'C')) {
            return SetupOutcome::Quit;
        }
        if self.confirm.is_some() {
            return match key.code {
                KeyCode::Char('y' | 'Y') | KeyCode::Enter => {
                    self.confirm.take().unwrap_or(SetupOutcome::Stay)
                }
                KeyCode::Char('n' | 'N' | 'q') | KeyCode::Esc => {
                    self.confirm = None;
                    SetupOutcome::Stay
                }
                _ => SetupOutcome::Stay,
            };
        }
        self.message = None;
        if let Some(text) = &mut self.editing {
            match key.code {
                KeyCode::Char(c) if !ctrl => text.push(c),
                KeyCode::Backspace => {
                    text.pop();
                }
                KeyCode::Esc => {
                    self.editing = None;
                    self.error = None;
                }
                KeyCode::Enter => {
                    let committed = self.commit();
                    if committed && self.row() == Row::Load {
                        return self.load();
                    }
                }
                KeyCode::Up | KeyCode::BackTab | KeyCode::Down | KeyCode::Tab => {
                    let by = if matches!(key.code, KeyCode::Up | KeyCode::BackTab) {
                        -1
                    } else {
                        1
                    };
                    let committed = self.commit();
                    if committed {
                        self.move_selection(by);
                    }
                }
                _ => {}
            }
            return SetupOutcome::Stay;
        }
        let row = self.row();
        match key.code {
            KeyCode::F(1) => self.message = Some(SETUP_HELP.to_string()),
            KeyCode::Char('?') if !row.is_text() => self.message = Some(SETUP_HELP.to_string()),
            // On a text row every printable key types, h j k l q included.
            KeyCode::Char(' ') if row.is_text() => self.start_editing(row, None),
            KeyCode::Char(c) if row.is_text() && !ctrl => self.start_editing(row, Some(c)),
            KeyCode::Esc if self.kept.is_some() => return SetupOutcome::Back,
            KeyCode::Home | KeyCode::PageUp => self.move_selection(-(self.rows().len() as isize)),
            KeyCode::End | KeyCode::PageDown => self.move_selection(self.rows().len() as isize),
            KeyCode::Up | KeyCode::Char('k') | KeyCode::BackTab => self.move_selection(-1),
            KeyCode::Down | KeyCode::Char('j') | KeyCode::Tab => self.move_selection(1),
            KeyCode::Left | KeyCode::Char('h') => self.sideways(-1),
            KeyCode::Right | KeyCode::Char('l') => self.sideways(1),
            KeyCode::Char(' ') => {
                if row == Row::Start {
                    return self.ask(SetupOutcome::Start);
                }
                self.cycle(row, 1);
            }
            KeyCode::Enter => {
                return match row {
                    Row::Load => self.load(),
                    Row::Weights => {
                        self.cycle(row, 1);
                        SetupOutcome::Stay
                    }
                    _ => self.ask(SetupOutcome::Start),
                };
            }
            KeyCode::Backspace if row.is_text() => {
                if self.applies(row, self.column) {
                    let mut text = self.edit_text(row);
                    text.pop();
                    self.editing = Some(text);
                } else {
                    self.refuse_edit(row);
                }
            }
            KeyCode::Char('q') => return self.ask(SetupOutcome::Quit),
            _ => {}
        }
        SetupOutcome::Stay
    }

    /// Starts editing a text row: with the typed character replacing the value, or with the
    /// value itself (Space, a click).
    fn start_editing(&mut self, row: Row, typed: Option<char>) {
        if !self.applies(row, self.column) {
            self.refuse_edit(row);
            return;
        }
        self.error = None;
        self.editing = Some(typed.map_or_else(|| self.edit_text(row), String::from));
    }

    fn refuse_edit(&mut self, row: Row) {
        if row == Row::Brain {
            self.error = Some(
                "you play this side: a brain can play a side the engine would (see You play)"
                    .to_string(),
            );
            return;
        }
        if let Some(field) = row.field().filter(|f| f.full_only) {
            self.error = Some(format!(
                "{} searches to its depth: the {} setting is for the full engine only",
                self.side().engine.algorithm,
                field.label.to_lowercase()
            ));
        }
    }

    /// `outcome` at once, or after a question when it would drop the kept game's unsaved
    /// moves.
    fn ask(&mut self, outcome: SetupOutcome) -> SetupOutcome {
        if self.kept.as_ref().is_some_and(|k| k.unsaved) {
            self.confirm = Some(outcome);
            SetupOutcome::Stay
        } else {
            outcome
        }
    }

    /// The question for a pending confirmation.
    pub fn question(&self) -> Option<String> {
        let what = match self.confirm.as_ref()? {
            SetupOutcome::Start => "Start a new game anyway?".to_string(),
            SetupOutcome::Load(path) => format!("Load {} anyway?", path.display()),
            SetupOutcome::Quit => "Quit anyway?".to_string(),
            SetupOutcome::Stay | SetupOutcome::Back => return None,
        };
        Some(format!("The game in progress is not saved. {what}"))
    }

    fn load(&mut self) -> SetupOutcome {
        if self.load_path.trim().is_empty() {
            self.error = Some("type the name of a saved game file first".to_string());
            SetupOutcome::Stay
        } else {
            self.ask(SetupOutcome::Load(PathBuf::from(self.load_path.trim())))
        }
    }

    fn move_selection(&mut self, by: isize) {
        let count = self.rows().len();
        self.editing = None;
        self.error = None;
        self.message = None;
        self.selected = self.selected.saturating_add_signed(by).min(count - 1);
    }

    fn sideways(&mut self, by: isize) {
        let row = self.row();
        if row.is_per_side() {
            self.column = if by < 0 {
                Player::First
            } else {
                Player::Second
            };
        } else {
            self.cycle(row, by);
        }
    }

    /// Applies `change` to a copy of the config and keeps it if it validates.
    fn change(&mut self, change: impl FnOnce(&mut Config)) -> bool {
        let mut candidate = self.config.clone();
        change(&mut candidate);
        let source = std::mem::replace(&mut candidate.source, "setup".to_string());
        match candidate.validate() {
            Ok(()) => {
                candidate.source = source;
                self.config = candidate;
                self.error = None;
                true
            }
            Err(e) => {
                self.error = Some(setup_error(&e));
                false
            }
        }
    }

    fn cycle(&mut self, row: Row, by: isize) {
        self.error = None;
        let column = self.column;
        match row {
            Row::Game => {
                let all = GameKind::ALL;
                let i = all.iter().position(|&k| k == self.config.game).unwrap_or(0);
                let kind = all[(i as isize + by).rem_euclid(all.len() as isize) as usize];
                let names = evaluators(kind);
                self.change(|c| {
                    c.game = kind;
                    for p in [Player::First, Player::Second] {
                        let side = c.players.side_mut(p);
                        // Only Gomoku has brains: elsewhere the engine plays their sides.
                        if side.kind == PlayerKind::Brain && kind != GameKind::Gomoku {
                            side.kind = PlayerKind::Engine;
                        }
                        if !names.contains(&side.engine.evaluator.as_str()) {
                            side.engine.evaluator = DEFAULT_EVALUATOR.to_string();
                        }
                    }
                });
            }
            Row::Humans => {
                let now = self.humans();
                let i = HUMANS.iter().position(|&h| h == now).unwrap_or(0);
                let (first, second) =
                    HUMANS[(i as isize + by).rem_euclid(HUMANS.len() as isize) as usize];
                // A side the human leaves goes back to whoever played it: a brain stays one.
                let kind = |human: bool, now: PlayerKind| match (human, now) {
                    (true, _) => PlayerKind::Human,
                    (false, PlayerKind::Human) => PlayerKind::Engine,
                    (false, other) => other,
                };
                let (first_now, second_now) = (
                    self.config.players.first.kind,
                    self.config.players.second.kind,
                );
                self.change(|c| {
                    c.players.first.kind = kind(first, first_now);
                    c.players.second.kind = kind(second, second_now);
                });
            }
            Row::Engine(_) => {
                let Some(field) = row.field() else { return };
                let choices: Vec<String> = match field.kind {
                    FieldKind::Switch => vec!["on".to_string(), "off".to_string()],
                    FieldKind::Choice(names) => names.iter().map(ToString::to_string).collect(),
                    // The only named setting is the evaluator: the game's own names.
                    FieldKind::Name => evaluators(self.config.game)
                        .into_iter()
                        .map(String::from)
                        .collect(),
                    FieldKind::Number { .. } | FieldKind::OptionalNumber => return,
                };
                let now = match (field.get)(&self.side().engine) {
                    FieldValue::Switch(on) => if on { "on" } else { "off" }.to_string(),
                    other => other.to_string(),
                };
                let i = choices.iter().position(|c| *c == now).unwrap_or(0);
                let next = &choices[(i as isize + by).rem_euclid(choices.len() as isize) as usize];
                self.change(|c| {
                    // Every choice is one the setting takes.
                    let _ = c.players.side_mut(column).engine.set(field.key, next);
                });
            }
            Row::Weights => self.show_weights = !self.show_weights,
            _ => {}
        }
    }

    /// Applies the text being edited; false (and an error) when it is refused.
    fn commit(&mut self) -> bool {
        let Some(text) = self.editing.clone() else {
            return true;
        };
        let text = text.trim().to_string();
        let row = self.row();
        let column = self.column;
        let key = format!("players.{column}");
        let ok = match row {
            Row::Engine(_) => {
                let Some(field) = row.field() else {
                    return true;
                };
                let mut side = self.side().engine.clone();
                // The form shows an unset seed as `random`.
                let typed = if field.kind == FieldKind::OptionalNumber && text == "random" {
                    ""
                } else {
                    text.as_str()
                };
                match side.set(field.key, typed) {
                    Ok(()) => self.change(|c| c.players.side_mut(column).engine = side),
                    Err(e) => {
                        self.error = Some(format!("{key}.{e}"));
                        false
                    }
                }
            }
            Row::Option(i) => {
                let key = option_entries(&self.config).get(i).map(|(k, _)| k.clone());
                match key.map(|key| set_option(&mut self.config, &key, &text)) {
                    Some(Ok(())) => {
                        self.error = None;
                        true
                    }
                    Some(Err(e)) => {
                        self.error = Some(format!("{}.{e}", self.config.game.name()));
                        false
                    }
                    None => true,
                }
            }
            Row::Brain => {
                let mut words = text.split_whitespace().map(ToString::to_string);
                let program = words.next();
                let args: Vec<String> = words.collect();
                self.change(|c| {
                    let side = c.players.side_mut(column);
                    match program {
                        Some(command) => {
                            side.kind = PlayerKind::Brain;
                            side.brain = crate::config::BrainCommand { command, args };
                        }
                        None => side.kind = PlayerKind::Engine,
                    }
                })
            }
            Row::Load => {
                self.load_path = text;
                true
            }
            _ => true,
        };
        if ok {
            self.editing = None;
        }
        ok
    }

    /// The box the form is drawn in.
    pub fn form_area(&self) -> Rect {
        let frame = self.frame;
        let width = self.form_width();
        // Room below the box for the key hints (two lines when they wrap).
        let height = (self.lines().len() as u16 + 4).min(frame.height.saturating_sub(2));
        Rect::new(frame.x + (frame.width - width) / 2, frame.y, width, height)
    }

    /// How many form lines fit inside the box.
    pub fn visible_lines(&self) -> usize {
        usize::from(self.form_area().height.saturating_sub(3))
    }

    /// The first form line shown: scrolled just enough to show the selected row and its
    /// error line.
    pub fn scroll(&self) -> usize {
        let lines = self.lines();
        let selected = self.row();
        let Some(mut last) = lines.iter().position(|l| *l == SetupLine::Row(selected)) else {
            return 0;
        };
        while matches!(lines.get(last + 1), Some(SetupLine::Error(_))) {
            last += 1;
        }
        (last + 1).saturating_sub(self.visible_lines().max(1))
    }

    /// The smallest frame the form works in (it scrolls when it is taller).
    pub fn min_frame(&self) -> (u16, u16) {
        (LABEL_W + 2 * COLUMN_W + 4, 12)
    }

    /// The row and side under a screen position.
    pub fn hit(&self, at: Position) -> Option<(usize, Player)> {
        let area = self.form_area();
        let top = area.y + 2;
        if at.y < top || !area.contains(at) {
            return None;
        }
        let offset = usize::from(at.y - top);
        if offset >= self.visible_lines() {
            return None;
        }
        let line = self.lines().into_iter().nth(self.scroll() + offset)?;
        let SetupLine::Row(row) = line else {
            return None;
        };
        let index = self.rows().iter().position(|&r| r == row)?;
        let second_x = area.x + 2 + LABEL_W + COLUMN_W;
        let side = if row.is_per_side() && at.x >= second_x {
            Player::Second
        } else {
            Player::First
        };
        Some((index, side))
    }

    fn click(&mut self, at: Position) -> SetupOutcome {
        if self.confirm.is_some() {
            let (yes, no) = super::layout::dialog_buttons(super::layout::dialog(self.frame));
            if yes.contains(at) {
                return self.confirm.take().unwrap_or(SetupOutcome::Stay);
            }
            if no.contains(at) {
                self.confirm = None;
            }
            return SetupOutcome::Stay;
        }
        let Some((index, side)) = self.hit(at) else {
            return SetupOutcome::Stay;
        };
        if self.editing.is_some() && !self.commit() {
            return SetupOutcome::Stay;
        }
        self.message = None;
        self.selected = index;
        self.column = side;
        self.error = None;
        let row = self.row();
        // The value column starts after the label (inside the border).
        let area = self.form_area();
        let value_x = area.x + 1 + LABEL_W;
        if at.x < value_x {
            // A click on the label only selects its row.
            return SetupOutcome::Stay;
        }
        if row == Row::Start {
            return self.ask(SetupOutcome::Start);
        }
        if row.is_text() {
            self.start_editing(row, None);
            return SetupOutcome::Stay;
        }
        // `◀ value ▶`: the arrows step that way, the rest of the value steps forward.
        let column_x = if side == Player::Second {
            value_x + COLUMN_W
        } else {
            value_x
        };
        let offset = usize::from(at.x.saturating_sub(column_x));
        let value = self.value(row, side);
        let left_arrow = value.starts_with('◀') && offset < 2;
        self.cycle(row, if left_arrow { -1 } else { 1 });
        SetupOutcome::Stay
    }

    /// The side settings of the selected column (for tests and the help line).
    pub fn side(&self) -> &SideConfig {
        self.config.players.side(self.column)
    }
}
