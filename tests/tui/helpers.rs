//! Helpers shared by the TUI tests: configs and apps, key and mouse events, feeding
//! events, fake engine answers, rendering on a `TestBackend` and reading the picture back.

use std::path::Path;
use std::time::Duration;

use gametree::config::{Config, PlayerKind};
use gametree::engine::api::SearchResult;
use gametree::engine::stats::SearchStats;
use gametree::engine::tree::{Bound, SearchTree, TreeNode};
use gametree::engine::{Game, Player, score};
use gametree::games::tictactoe::TicTacToe;
use gametree::session::Session;
use gametree::tui::app::{App, Effect};
use gametree::tui::boards::{BoardView, HasBoard};
use gametree::tui::event::Event;
use gametree::tui::layout::{self, Areas};
use gametree::tui::worker::{Purpose, Report};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{
    Event as CtEvent, KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};
use ratatui::layout::{Position, Rect};

/// The built-in config with the given humans and fixed seeds.
pub fn config(first_human: bool, second_human: bool) -> Config {
    let mut config = Config::builtin().unwrap();
    let kind = |h: bool| {
        if h {
            PlayerKind::Human
        } else {
            PlayerKind::Engine
        }
    };
    config.players.first.kind = kind(first_human);
    config.players.second.kind = kind(second_human);
    config.players.first.engine.seed = Some(1);
    config.players.second.engine.seed = Some(2);
    // Depth-limited alpha-beta: these tests are about the program, and want searches that
    // are quick and the same on every run (no time limit).
    for side in [&mut config.players.first, &mut config.players.second] {
        side.engine.algorithm = gametree::engine::api::Algorithm::AlphaBeta;
        side.engine.limits.time = None;
        side.engine.threads = 1;
    }
    config
}

pub fn new_app<G: HasBoard>(config: &Config) -> App<G> {
    let options = config.game_options::<G>().unwrap();
    let mut app = App::new(config, Session::new(options));
    app.resize(80, 24);
    app
}

pub type Ev<G> = Event<Report<<G as Game>::Move>>;

pub fn key<M>(code: KeyCode) -> Event<Report<M>> {
    Event::Input(CtEvent::Key(KeyEvent::new(code, KeyModifiers::NONE)))
}

pub fn ch<M>(c: char) -> Event<Report<M>> {
    key(KeyCode::Char(c))
}

pub fn mouse<M>(kind: MouseEventKind, at: Position) -> Event<Report<M>> {
    Event::Input(CtEvent::Mouse(MouseEvent {
        kind,
        column: at.x,
        row: at.y,
        modifiers: KeyModifiers::NONE,
    }))
}

pub fn click<M>(at: Position) -> Event<Report<M>> {
    mouse(MouseEventKind::Down(MouseButton::Left), at)
}

/// Feeds events, collecting every effect.
pub fn feed<G: HasBoard>(app: &mut App<G>, events: Vec<Ev<G>>) -> Vec<Effect<G>> {
    events.into_iter().flat_map(|e| app.update(e)).collect()
}

/// The id of the last search the effects start.
pub fn search_id<G: HasBoard>(effects: &[Effect<G>], want: Purpose) -> u64 {
    effects
        .iter()
        .rev()
        .find_map(|e| match e {
            Effect::Search { id, purpose, .. } if *purpose == want => Some(*id),
            _ => None,
        })
        .unwrap_or_else(|| panic!("no {want:?} search started"))
}

/// A finished search that chose `mv`.
pub fn finished<M: Copy>(id: u64, mv: M, value: i32) -> Event<Report<M>> {
    Event::Engine(Report::Finished {
        id,
        result: SearchResult {
            best: Some(mv),
            value,
            pv: vec![mv],
            ties: vec![mv],
            stats: SearchStats {
                nodes: 42,
                depth: 3,
                ..SearchStats::default()
            },
            completed: true,
        },
    })
}

pub fn render<G: HasBoard>(app: &mut App<G>, width: u16, height: u16) -> Buffer {
    app.resize(width, height);
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    terminal.draw(|f| gametree::tui::ui::draw(f, app)).unwrap();
    terminal.backend().buffer().clone()
}

pub fn lines(buf: &Buffer) -> Vec<String> {
    (0..buf.area.height)
        .map(|y| (0..buf.area.width).map(|x| buf[(x, y)].symbol()).collect())
        .collect()
}

pub fn screen(buf: &Buffer) -> String {
    lines(buf).join("\n")
}

/// Where `text` starts on screen (first occurrence, row by row).
pub fn find(buf: &Buffer, text: &str) -> Option<Position> {
    lines(buf).iter().enumerate().find_map(|(y, line)| {
        let byte = line.find(text)?;
        let x = line[..byte].chars().count();
        Some(Position::new(x as u16, y as u16))
    })
}

pub fn board_inner<G: HasBoard>(app: &App<G>) -> Rect {
    let Areas::Panes(areas) = app.areas() else {
        panic!("the frame is too small");
    };
    layout::inner(areas.board)
}

/// A screen position the board maps to `target`: the centre of its hit region.
pub fn spot<G: HasBoard>(app: &App<G>, target: <G::View as BoardView<G>>::Cursor) -> Position {
    let area = board_inner(app);
    let game = app.session.current();
    let hits: Vec<Position> = area
        .positions()
        .filter(|&p| app.board.hit(game, area, p) == Some(target))
        .collect();
    assert!(!hits.is_empty(), "{target:?} is not on screen");
    hits[hits.len() / 2]
}

pub fn notations<G: HasBoard>(app: &App<G>) -> Vec<String> {
    app.session
        .steps()
        .iter()
        .map(|s| s.notation.clone())
        .collect()
}

pub fn play_line<G: HasBoard>(app: &mut App<G>, line: &str) {
    for text in line.split_whitespace() {
        let mv = app.session.current().parse_move(text).unwrap();
        app.session.play(mv, None).unwrap();
    }
}

pub fn ttt(text: &str) -> u8 {
    TicTacToe::new().parse_move(text).unwrap()
}

/// A one-node tree and a result choosing `best` with `value`.
pub fn fake(
    best: u8,
    value: i32,
    nodes: u64,
    ties: Vec<u8>,
) -> (SearchResult<u8>, Box<SearchTree<u8>>) {
    let result = SearchResult {
        best: Some(best),
        value,
        pv: vec![best],
        ties,
        stats: SearchStats {
            nodes,
            ..SearchStats::default()
        },
        completed: true,
    };
    let tree = SearchTree {
        nodes: vec![TreeNode {
            parent: None,
            mv: None,
            depth: 2,
            to_move: Player::First,
            alpha: -score::INFINITY,
            beta: score::INFINITY,
            value,
            bound: Bound::Exact,
            skipped: 0,
            pruned: 0,
            distracted: 0,
            on_pv: true,
            tt_hit: false,
            stored_depth: None,
            kind: gametree::engine::tree::NodeKind::Search,
            children: Vec::new(),
        }],
        truncated: false,
        unrecorded: 0,
        ..SearchTree::default()
    };
    (result, Box::new(tree))
}

pub fn search_result<M: Clone>(
    best: Option<M>,
    value: i32,
    pv: Vec<M>,
    stats: SearchStats,
) -> SearchResult<M> {
    SearchResult {
        ties: best.clone().into_iter().collect(),
        best,
        value,
        pv,
        stats,
        completed: true,
    }
}

/// The engine pane's text at 80x24.
pub fn engine_text<G: HasBoard>(app: &mut App<G>) -> String {
    let buf = render(app, 80, 24);
    let Areas::Panes(a) = app.areas() else {
        panic!("fits")
    };
    (a.engine.y..a.engine.bottom())
        .map(|y| {
            (a.engine.x..a.engine.right())
                .map(|x| buf[(x, y)].symbol())
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

pub const DEADLOCK_GUARD: Duration = Duration::from_secs(60);

/// The screen's text with the spaces at the ends of lines dropped, one `\n` after each line.
fn snapshot_text(buf: &Buffer) -> String {
    let mut text = lines(buf)
        .iter()
        .map(|line| line.trim_end())
        .collect::<Vec<_>>()
        .join("\n");
    text.push('\n');
    text
}

/// Compares the screen's text with `tests/tui/snapshots/<name>.txt`; with
/// `GAMETREE_UPDATE_SNAPSHOTS=1` in the environment it writes the file instead. Colours are
/// not in the text: the render tests check the styles of the cells that matter.
pub fn assert_snapshot(name: &str, buf: &Buffer) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/tui/snapshots")
        .join(format!("{name}.txt"));
    let text = snapshot_text(buf);
    if std::env::var_os("GAMETREE_UPDATE_SNAPSHOTS").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, text).unwrap();
        return;
    }
    let want = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (GAMETREE_UPDATE_SNAPSHOTS=1 writes it)",
            path.display()
        )
    });
    assert!(
        text == want,
        "the screen differs from {} (GAMETREE_UPDATE_SNAPSHOTS=1 rewrites it after a \
         deliberate change):\n{text}",
        path.display()
    );
}
