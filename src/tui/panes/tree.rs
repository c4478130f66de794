//! The search-tree pane: what was searched (or the comparison table and its verdict), a
//! notice when the tree is incomplete, the visible rows of the tree and the explanation of
//! the selected node. Only the rows on screen are built, so huge trees draw as fast as
//! small ones.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use super::pane_block;
use crate::engine::stats::group_digits;
use crate::engine::tree::{Bound, NodeKind};
use crate::games::Playable;
use crate::session::Session;
use crate::tui::action::Pane;
use crate::tui::layout;
use crate::tui::theme::Theme;
use crate::tui::tree_browser::{
    Recorded, TreeBrowser, bound_name, bound_text, failed_side, kind_text, row_indent,
    singular_move_name, text_width, window_text, wrap,
};
use crate::tui::tree_view::Row;
use crate::tui::worker::Purpose;

/// What the search-tree pane shows.
pub struct TreePane<'a, G: Playable> {
    /// The recorded trees.
    pub trees: &'a TreeBrowser<G>,
    /// The game (the title says where the tree's root stands in it).
    pub session: &'a Session<G>,
    /// The focused pane.
    pub focus: Pane,
    /// The engine records its own searches.
    pub record_engine: bool,
    /// What the running search is for, if one runs.
    pub searching: Option<Purpose>,
    /// What the last finished search was for.
    pub last_search: Option<Purpose>,
    /// The depth `t` and `v` search to here.
    pub tree_depth: u32,
    /// The styles.
    pub theme: &'a Theme,
}

/// What the pane says before there is a tree.
fn empty_text<G: Playable>(pane: &TreePane<G>) -> Vec<String> {
    if matches!(pane.searching, Some(Purpose::Tree | Purpose::Compare)) {
        return vec!["Searching... (Esc stops; what is recorded stays)".to_string()];
    }
    let mut text = vec![
        "No recorded search yet.".to_string(),
        format!(
            "t searches the position on the board and records the tree; v compares minimax \
             and alpha-beta there. Both search to depth {} (+ and - change it).",
            pane.tree_depth
        ),
        if pane.record_engine {
            "The engine's next searches are recorded too (press R to stop that).".to_string()
        } else {
            "The engine's searches are not recorded (press R to record them).".to_string()
        },
    ];
    if pane.last_search == Some(Purpose::Move) {
        text.push(
            "The engine's last move was searched without recording: [ steps back to its \
             position, then t searches it again."
                .to_string(),
        );
    }
    text
}

/// One row of the tree: the move, its value, its window, the kind of value and what the
/// node was. Parts that do not fit whole are left off (never cut mid-word).
fn row_line<'a, G: Playable>(
    rec: &Recorded<G>,
    row: Row,
    width: u16,
    selected: Option<Style>,
    theme: &Theme,
) -> Line<'a> {
    let Some(node) = rec.tree.nodes.get(row.node as usize) else {
        return Line::raw("");
    };
    let marker = if node.children.is_empty() {
        "  "
    } else if rec.view.is_expanded(row.node) {
        "▾ "
    } else {
        "▸ "
    };
    let name = match node.mv {
        Some(m) => rec.root.format_move(m),
        None if node.kind == NodeKind::SingularTest => {
            format!(
                "singular test without {}",
                singular_move_name(rec, row.node)
            )
        }
        None => "root".to_string(),
    };
    let strong = if node.on_pv { theme.pv } else { Style::new() };
    let mut parts: Vec<(String, Style)> = Vec::new();
    if node.kind == NodeKind::Skipped {
        parts.push((name, theme.dim));
        let why = if rec.gave_up && node.parent == Some(0) {
            " not searched: minimax gave up"
        } else {
            " not searched"
        };
        parts.push((why.to_string(), theme.dim));
    } else {
        // A failed aspiration pass has no move: it is named, and says first (so that a
        // narrow pane keeps it) how it failed.
        let failed = node.kind == NodeKind::AspirationFailed;
        if failed {
            parts.push((
                format!("aspiration pass failed {}", failed_side(node.bound)),
                theme.info,
            ));
        } else {
            parts.push((name, strong));
        }
        // Each value is for the side to move at its node (negamax), in that side's colour.
        parts.push((
            format!(" {}", bound_text::<G>(node.value)),
            theme.player(node.to_move),
        ));
        parts.push((
            format!(" {}", window_text::<G>(node.alpha, node.beta)),
            theme.dim,
        ));
        if !failed {
            parts.push((
                format!(" {}", bound_name(node.bound)),
                if node.bound == Bound::Exact {
                    theme.dim
                } else {
                    theme.cut
                },
            ));
        }
        if node.skipped > 0 {
            parts.push((format!(" ✂{}", node.skipped), theme.cut));
        }
        if node.pruned > 0 {
            // Left out by late move pruning: not a cut-off, so not the cut-off's mark.
            parts.push((format!(" …{}", node.pruned), theme.cut));
        }
        if node.distracted > 0 {
            // Left out as distractions from a threat: not a cut-off either.
            parts.push((format!(" ~{}", node.distracted), theme.cut));
        }
        if node.tt_hit {
            // The depth of the search that stored the entry: a deeper one than this node's
            // is what makes a table answer worth trusting here.
            let marker = match node.stored_depth {
                Some(d) => format!(" TT d{d}"),
                None => " TT".to_string(),
            };
            parts.push((marker, theme.info));
        }
        let kind = kind_text(node.kind);
        if !kind.is_empty() && !failed && node.kind != NodeKind::SingularTest {
            parts.push((format!(" · {kind}"), theme.info));
        }
    }
    let indent = usize::from(row_indent(row.level, width));
    let mut room = usize::from(text_width(width)).saturating_sub(indent + 2);
    let mut spans = vec![
        Span::raw(" ".repeat(indent)),
        Span::styled(marker, theme.dim),
    ];
    for (i, (text, style)) in parts.into_iter().enumerate() {
        let len = text.chars().count();
        if len > room {
            // The move's name is kept even when cut (the level's indent is at most half
            // the width, so that is rare); the rest shows only whole.
            if i == 0 {
                spans.push(Span::styled(
                    text.chars().take(room).collect::<String>(),
                    style,
                ));
            }
            break;
        }
        room -= len;
        spans.push(Span::styled(text, style));
    }
    let line = Line::from(spans);
    match selected {
        Some(style) => line.style(style),
        None => line,
    }
}

/// Draws the tree pane into `area`.
pub fn draw<G: Playable>(frame: &mut Frame, pane: &TreePane<G>, area: Rect) {
    let theme = pane.theme;
    let browser = pane.trees;
    let focused = pane.focus == Pane::Tree;
    // The title's parts, the first always; the others only while they fit whole.
    let mut parts = vec!["Search tree".to_string()];
    if let Some(depth) = browser.compared_depth() {
        parts.push(format!("compared to depth {depth}"));
    }
    if let Some(r) = browser.shown() {
        parts.push(format!(
            "{} nodes",
            group_digits(r.tree.searched_count() as u64)
        ));
    }
    if let Some(root) = browser.shown().map(|r| r.root.hash()) {
        let session = pane.session;
        let before_last = session
            .cursor()
            .checked_sub(2)
            .and_then(|i| session.steps().get(i))
            .map_or(session.initial(), |s| &s.after);
        if session.cursor() > 0 && root == before_last.hash() {
            parts.push("before the last move".to_string());
        } else if root != session.current().hash() {
            parts.push("other position".to_string());
        }
    }
    if pane.record_engine {
        parts.push("rec".to_string());
    }
    let room = usize::from(area.width.saturating_sub(4));
    let mut title = String::new();
    for part in parts {
        let sep = if title.is_empty() { "" } else { " · " };
        if title.chars().count() + sep.chars().count() + part.chars().count() <= room {
            title.push_str(sep);
            title.push_str(&part);
        }
    }
    frame.render_widget(pane_block(Pane::Tree, pane.focus, &title, theme), area);
    let inner = layout::inner(area);
    if browser.trees.is_empty() && browser.compare.is_empty() {
        let lines: Vec<Line> = empty_text(pane)
            .into_iter()
            .map(|t| Line::styled(t, theme.dim))
            .collect();
        frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: true }), inner);
        return;
    }
    let parts = browser.parts(inner);
    let verdict = browser.verdict();
    let header: Vec<Line> = browser
        .header_lines(text_width(inner.width))
        .into_iter()
        .map(|(text, search)| {
            let style = if browser.compare.is_empty() {
                theme.title
            } else if let Some(i) = search {
                if i == browser.shown {
                    if focused { theme.selected } else { theme.title }
                } else {
                    Style::new()
                }
            } else if verdict.as_ref().is_some_and(|(_, ok)| *ok) {
                theme.info
            } else {
                theme.error
            };
            Line::styled(text, style)
        })
        .collect();
    frame.render_widget(Paragraph::new(header), parts.header);
    let Some(rec) = browser.shown() else {
        return;
    };
    if let Some(notice) = rec.notice() {
        let lines: Vec<Line> = wrap(&notice, text_width(parts.notice.width))
            .into_iter()
            .map(|l| Line::styled(l, theme.error))
            .collect();
        frame.render_widget(Paragraph::new(lines), parts.notice);
    }
    let height = usize::from(parts.list.height);
    let offset = rec.view.offset(height);
    let selected_style = if focused { theme.selected } else { theme.title };
    let rows: Vec<Line> = rec
        .view
        .rows()
        .iter()
        .enumerate()
        .skip(offset)
        .take(height)
        .map(|(i, &row)| {
            let selected = (i == rec.view.selected()).then_some(selected_style);
            row_line(rec, row, parts.list.width, selected, theme)
        })
        .collect();
    frame.render_widget(Paragraph::new(rows), parts.list);
    let footer: Vec<Line> = wrap(&rec.explanation(), text_width(parts.footer.width))
        .into_iter()
        .map(|t| Line::styled(t, theme.info))
        .collect();
    frame.render_widget(Paragraph::new(footer), parts.footer);
}
