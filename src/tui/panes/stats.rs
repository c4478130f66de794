//! The engine pane: algorithm and depth, nodes, speed, cut-offs, time, best move, value and
//! principal variation; live while a search runs, kept after it ends. Its text is laid out
//! item by item (an item never splits across lines) and scrolls when it is taller than the
//! pane (a long principal variation).

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::{pane_block, seconds, spinner};
use crate::engine::api::{Algorithm, EngineSettings, SearchResult};
use crate::engine::clock::clock_text;
use crate::engine::score;
use crate::engine::stats::{SearchStats, approximate_count, group_digits};
use crate::games::Playable;
use crate::tui::action::Pane;
use crate::tui::driver::{EngineDriver, MinimaxCount, format_line};
use crate::tui::layout;
use crate::tui::theme::Theme;
use crate::tui::tree_browser::{depth_text, text_width};
use crate::tui::worker::{MINIMAX_COUNT_BUDGET, Purpose, TreeSearch};

/// What the engine pane shows.
pub struct EnginePane<'a, G: Playable> {
    /// The engine's searches.
    pub engine: &'a EngineDriver<G>,
    /// Search settings per side.
    pub settings: &'a [EngineSettings; 2],
    /// The position on view (a running search's line is read from it).
    pub position: &'a G,
    /// The clock, in ticks.
    pub tick: u64,
    /// The engine, not a human, moves next here (a hint is of no use).
    pub engine_to_move: bool,
    /// Each side's match time left at the position on view, for a side on a match clock.
    pub clocks: [Option<std::time::Duration>; 2],
    /// The focused pane.
    pub focus: Pane,
    /// First line shown.
    pub scroll: usize,
    /// The styles.
    pub theme: &'a Theme,
}

/// Nodes per second, short: `1.2M`, `35k`.
fn short_rate(per_second: f64) -> String {
    if per_second >= 1e6 {
        format!("{:.1}M", per_second / 1e6)
    } else if per_second >= 1e3 {
        format!("{:.0}k", per_second / 1e3)
    } else {
        format!("{per_second:.0}")
    }
}

/// A duration in milliseconds, short: `6.9 ms`, `1.25 s`.
fn short_time(millis: f64) -> String {
    if millis >= 1000.0 {
        format!("{:.2} s", millis / 1000.0)
    } else {
        format!("{millis:.1} ms")
    }
}

/// One item of the pane: spans that stay together on one line.
type Item<'a> = Vec<Span<'a>>;

fn item<'a>(label: &str, value: String, theme: &Theme) -> Item<'a> {
    vec![
        Span::styled(format!("{label} "), theme.dim),
        Span::raw(value),
    ]
}

fn width_of(item: &Item) -> usize {
    item.iter().map(|s| s.content.chars().count()).sum()
}

/// Lays `items` out in lines of at most `width` columns, `gap` between two items on a line;
/// an item goes whole to the next line when it does not fit (one wider than a line gets a
/// line of its own and is cut there).
fn flow<'a>(items: Vec<Item<'a>>, gap: &str, width: u16) -> Vec<Line<'a>> {
    let width = usize::from(width.max(1));
    let mut lines = Vec::new();
    let mut line: Vec<Span<'a>> = Vec::new();
    let mut used = 0;
    for item in items {
        let w = width_of(&item);
        if used > 0 && used + gap.chars().count() + w > width {
            lines.push(Line::from(std::mem::take(&mut line)));
            used = 0;
        }
        if used > 0 {
            line.push(Span::raw(gap.to_string()));
            used += gap.chars().count();
        }
        used += w;
        line.extend(item);
    }
    if !line.is_empty() {
        lines.push(Line::from(line));
    }
    lines
}

fn stat_items<'a>(stats: &SearchStats, theme: &Theme) -> Vec<Item<'a>> {
    let depth = if stats.depth == 0 {
        "-".to_string()
    } else {
        stats.depth.to_string()
    };
    let mut items = vec![
        item("nodes", group_digits(stats.nodes), theme),
        item(
            "speed",
            format!("{} n/s", short_rate(stats.nodes_per_second())),
            theme,
        ),
        item("cut-offs", group_digits(stats.cutoffs), theme),
        item("time", short_time(stats.millis()), theme),
        item("depth", depth, theme),
    ];
    if stats.endgame_hits > 0 {
        items.push(item("database", group_digits(stats.endgame_hits), theme));
    }
    if stats.reductions > 0 {
        items.push(item(
            "reduced",
            format!(
                "{} ({} re-searched)",
                group_digits(stats.reductions),
                group_digits(stats.reduction_re_searches)
            ),
            theme,
        ));
    }
    if stats.pruned > 0 {
        items.push(item("pruned", group_digits(stats.pruned), theme));
    }
    if stats.futility_cuts > 0 {
        items.push(item("futility", group_digits(stats.futility_cuts), theme));
    }
    if stats.singular_tests > 0 {
        items.push(item(
            "singular",
            format!(
                "{} tests ({} extended, {} cut)",
                group_digits(stats.singular_tests),
                group_digits(stats.extensions),
                group_digits(stats.singular_cuts)
            ),
            theme,
        ));
    }
    items
}

/// What plain minimax would have cost, against the nodes of this search to the same depth
/// (for the full engine its last iteration alone, not the sum of every iteration).
fn minimax_items<'a>(
    algorithm: Algorithm,
    count: MinimaxCount,
    stats: &SearchStats,
    theme: &Theme,
) -> Vec<Item<'a>> {
    if algorithm == Algorithm::Minimax {
        return vec![vec![Span::styled(
            "plain minimax: no pruning, every node visited",
            theme.dim,
        )]];
    }
    let depth = stats.depth;
    // One item per word, so the sentence wraps at spaces (flowed with a one-space gap).
    let sentence = |text: String| -> Vec<Item<'a>> {
        text.split(' ')
            .map(|word| vec![Span::styled(word.to_string(), theme.dim)])
            .collect()
    };
    match count {
        MinimaxCount::NotCounted => Vec::new(),
        MinimaxCount::Counting => vec![item(
            &format!("minimax to depth {depth}:"),
            "counting...".to_string(),
            theme,
        )],
        MinimaxCount::TooMany(None) => sentence(format!(
            "minimax to the same depth ({depth}) would need over {} nodes",
            group_digits(MINIMAX_COUNT_BUDGET)
        )),
        MinimaxCount::TooMany(Some(estimate)) => sentence(format!(
            "minimax to the same depth ({depth}) would need over {} nodes: about {}, growing \
             {:.1}× a ply as its first {} plies do",
            group_digits(MINIMAX_COUNT_BUDGET),
            approximate_count(estimate.nodes_to(depth)),
            estimate.growth(),
            estimate.depth,
        )),
        MinimaxCount::Nodes(n) => {
            let ours = if stats.iteration_nodes > 0 {
                stats.iteration_nodes
            } else {
                stats.nodes
            };
            let minimax = group_digits(n);
            if algorithm == Algorithm::Full {
                // Its last iteration reuses the table the iterations before it filled: a
                // ratio against it would mean nothing.
                return sentence(format!(
                    "minimax to depth {depth} would need {minimax} nodes; the full engine's \
                     depth-{depth} iteration took {}, fed by the table of the ones before",
                    group_digits(ours)
                ));
            }
            let ratio = if ours > 0 {
                let times = n as f64 / ours as f64;
                if times >= 10.0 {
                    format!(" ({times:.0}× more)")
                } else {
                    format!(" ({times:.1}× as many)")
                }
            } else {
                String::new()
            };
            sentence(format!(
                "{algorithm} {} nodes; minimax to the same depth ({depth}) would need \
                 {minimax}{ratio}",
                group_digits(ours)
            ))
        }
    }
}

/// The pane's text for an inside `width` columns wide, every line of it (the pane shows
/// those that fit, from [`crate::tui::view_state::ViewState::engine_scroll`]).
pub fn lines<G: Playable>(pane: &EnginePane<G>, width: u16) -> Vec<Line<'static>> {
    let theme = pane.theme;
    let engine = pane.engine;
    let mut lines: Vec<Line> = endgame_lines(pane);
    let side = engine
        .pending
        .map(|p| (p.side, p.purpose, p.how))
        .or_else(|| {
            engine
                .forfeit
                .as_ref()
                .map(|(side, _)| (*side, Purpose::Move, TreeSearch::Own))
        })
        .or_else(|| engine.last.as_ref().map(|l| (l.side, l.purpose, l.how)));
    let Some((side, purpose, how)) = side else {
        lines.push(Line::styled("No search yet.", theme.dim));
        let text = if pane.engine_to_move {
            "The engine moves when it is its turn."
        } else {
            "H asks it for a hint."
        };
        lines.push(Line::styled(text, theme.dim));
        return lines;
    };
    if purpose == Purpose::Move
        && let Some(name) = &engine.brain_names[side.index()]
    {
        brain_lines(pane, side, name, width, &mut lines);
        return lines;
    }
    // A `t` search says what it ran (by default the lesson's plain alpha-beta to the tree
    // pane's depth), not the side's own settings.
    let own = &pane.settings[side.index()];
    let ran = how.settings(own);
    let settings = ran.as_ref().unwrap_or(own);
    let who = match purpose {
        Purpose::Move => format!("{} engine", G::side_name(side)),
        Purpose::Hint => format!("hint for {}", G::side_name(side)),
        Purpose::Tree => format!("tree search for {}", G::side_name(side)),
        Purpose::Compare => format!("comparison for {}", G::side_name(side)),
    };
    let mut head: Vec<Item> = vec![
        vec![Span::styled(who, theme.player(side))],
        vec![Span::raw(format!("· {}", settings.algorithm))],
        vec![Span::raw(format!("· {}", depth_text(settings)))],
    ];
    if purpose == Purpose::Move
        && let Some(left) = pane.clocks[side.index()]
    {
        // The clock runs down while the side thinks.
        let thinking = engine.pending.map_or(0, |p| {
            (pane.tick - p.started).saturating_mul(crate::tui::event::TICK_MS)
        });
        let left = left.saturating_sub(std::time::Duration::from_millis(thinking));
        head.push(vec![Span::raw(format!("· clock {}", clock_text(left)))]);
        // Both sides on a clock (engine against engine): the other's too.
        let other = side.other();
        if let Some(left) = pane.clocks[other.index()] {
            head.push(vec![Span::styled(
                format!("({} {})", G::side_name(other), clock_text(left)),
                theme.dim,
            )]);
        }
    }
    let result: Option<(&SearchResult<G::Move>, Vec<String>)> = if let Some(p) = engine.pending {
        head.push(vec![Span::styled(
            format!("{} {}", spinner(pane.tick), seconds(pane.tick - p.started)),
            theme.key,
        )]);
        engine
            .progress
            .as_ref()
            .map(|r| (r, format_line(pane.position, &r.pv)))
    } else {
        engine.last.as_ref().map(|l| {
            let state = if l.hurried { "stopped early" } else { "done" };
            head.push(vec![Span::styled(state, theme.dim)]);
            (&l.result, l.pv.clone())
        })
    };
    lines.extend(flow(head, " ", width));
    let Some((result, pv)) = result else {
        lines.push(Line::styled("thinking...", theme.dim));
        return lines;
    };
    // Depth 0: no root move was searched yet (or ever, when stopped at once).
    let answered = result.stats.depth > 0 && result.best.is_some();
    let best = if answered {
        pv.first().cloned().unwrap_or_else(|| "-".to_string())
    } else {
        "-".to_string()
    };
    let value = match (answered, engine.pending.is_some()) {
        (true, _) => Span::raw(score::format::<G>(result.value)),
        (false, true) => Span::styled("not yet", theme.dim),
        (false, false) => Span::styled("none: stopped before any move was searched", theme.dim),
    };
    let best_label = if engine.pending.is_some() {
        "best so far"
    } else {
        "best"
    };
    lines.extend(flow(
        vec![
            vec![
                Span::styled(format!("{best_label} "), theme.dim),
                Span::styled(best, theme.title),
            ],
            vec![Span::styled("value ", theme.dim), value],
        ],
        "   ",
        width,
    ));
    lines.extend(flow(stat_items(&result.stats, theme), "   ", width));
    if engine.pending.is_none()
        && let Some(last) = &engine.last
    {
        let items = minimax_items(settings.algorithm, last.minimax, &last.result.stats, theme);
        lines.extend(flow(items, " ", width));
    }
    if answered && !pv.is_empty() {
        let mut items = vec![vec![Span::styled("pv", theme.dim)]];
        items.extend(pv.into_iter().map(|m| vec![Span::raw(m)]));
        lines.extend(flow(items, " ", width));
    }
    lines
}

/// The pane for a side an external brain plays: its name, its state, its move and time,
/// then the last lines it printed (`MESSAGE`: depth, value, line, as strong brains say).
fn brain_lines<G: Playable>(
    pane: &EnginePane<G>,
    side: crate::engine::Player,
    name: &str,
    width: u16,
    lines: &mut Vec<Line<'static>>,
) {
    let theme = pane.theme;
    let engine = pane.engine;
    let mut head: Vec<Item> = vec![vec![Span::styled(
        format!("{} brain {name}", G::side_name(side)),
        theme.player(side),
    )]];
    if let Some(p) = engine.pending {
        head.push(vec![Span::styled(
            format!("{} {}", spinner(pane.tick), seconds(pane.tick - p.started)),
            theme.key,
        )]);
    } else if engine.forfeit.is_some() {
        head.push(vec![Span::styled("lost by forfeit", theme.error)]);
    } else if let Some(last) = &engine.last {
        let mv = last.result.best.map_or_else(
            || "-".to_string(),
            |m| crate::engine::Game::format_move(pane.position, m),
        );
        head.push(vec![Span::styled(format!("played {mv}"), theme.dim)]);
        head.push(vec![Span::styled(
            format!("in {}", short_time(last.result.stats.millis())),
            theme.dim,
        )]);
    }
    lines.extend(flow(head, " ", width));
    if let Some((_, reason)) = &engine.forfeit {
        lines.extend(flow(
            reason
                .split(' ')
                .map(|w| vec![Span::styled(w.to_string(), theme.error)])
                .collect(),
            " ",
            width,
        ));
    }
    let said = &engine.brain_lines[side.index()];
    if said.is_empty() {
        lines.push(Line::styled("(no MESSAGE lines yet)", theme.dim));
    }
    for text in said.iter().rev().take(12) {
        let words: Vec<Item> = text
            .split(' ')
            .map(|w| vec![Span::raw(w.to_string())])
            .collect();
        lines.extend(flow(words, " ", width));
    }
}

/// What the endgame database says: that it is still being built (the engine searches
/// without it until then), or the exact value of the position on view when it knows it.
fn endgame_lines<G: Playable>(pane: &EnginePane<G>) -> Vec<Line<'static>> {
    let mut lines = Vec::new();
    if G::KIND == crate::games::GameKind::Kalah
        && let Some((done, total)) = crate::games::kalah::endgame::build_progress()
    {
        lines.push(Line::styled(
            format!(
                "building the endgame database: {}%",
                done * 100 / total.max(1)
            ),
            pane.theme.dim,
        ));
    }
    if let Some(value) = pane.position.exact_value() {
        let mover = pane.position.to_move();
        let verdict = match value.signum() {
            1 => format!("win by {value} for {}", G::side_name(mover)),
            -1 => format!("win by {} for {}", -value, G::side_name(mover.other())),
            _ => "draw".to_string(),
        };
        lines.push(Line::from(vec![
            Span::styled("endgame database: ", pane.theme.dim),
            Span::styled(verdict, pane.theme.title),
        ]));
    }
    lines
}

/// How many lines the pane's text takes at this inside width (for scrolling).
pub fn line_count<G: Playable>(pane: &EnginePane<G>, width: u16) -> usize {
    lines(pane, text_width(width)).len()
}

/// Draws the engine pane into `area`.
pub fn draw<G: Playable>(frame: &mut Frame, pane: &EnginePane<G>, area: Rect) {
    let theme = pane.theme;
    let inner = layout::inner(area);
    // One column stays free before the border, so no word ever touches it.
    let all = lines(pane, text_width(inner.width));
    let rows = usize::from(inner.height);
    let offset = pane.scroll.min(all.len().saturating_sub(rows));
    let mut block = pane_block(Pane::Engine, pane.focus, "Engine", theme);
    let mut marks = Vec::new();
    if offset > 0 {
        marks.push("↑");
    }
    if offset + rows < all.len() {
        marks.push("↓ more");
    }
    if !marks.is_empty() {
        block = block.title_bottom(
            Line::styled(format!(" {} ", marks.join(" ")), theme.key).right_aligned(),
        );
    }
    frame.render_widget(block, area);
    let shown: Vec<Line> = all.into_iter().skip(offset).take(rows).collect();
    frame.render_widget(Paragraph::new(shown), inner);
}
