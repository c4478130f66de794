//! The engine pane: algorithm and depth, nodes, speed, cut-offs, time, best move, value and
//! principal variation; live while a search runs, kept after it ends.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use super::{pane_block, seconds, spinner};
use crate::engine::score;
use crate::engine::search::{Algorithm, SearchResult};
use crate::engine::stats::{SearchStats, group_digits};
use crate::tui::action::Pane;
use crate::tui::app::{App, format_line};
use crate::tui::boards::HasBoard;
use crate::tui::layout;
use crate::tui::worker::{MINIMAX_COUNT_BUDGET, Purpose};

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

fn stat_lines<'a>(stats: &SearchStats, theme: &crate::tui::theme::Theme) -> Vec<Line<'a>> {
    vec![
        Line::from(vec![
            Span::styled("nodes ", theme.dim),
            Span::raw(group_digits(stats.nodes)),
            Span::styled("   speed ", theme.dim),
            Span::raw(format!("{} n/s", short_rate(stats.nodes_per_second()))),
        ]),
        Line::from(vec![
            Span::styled("cut-offs ", theme.dim),
            Span::raw(group_digits(stats.cutoffs)),
            Span::styled("   time ", theme.dim),
            Span::raw(format!("{:.1} ms", stats.millis())),
            Span::styled("   depth ", theme.dim),
            Span::raw(stats.depth.to_string()),
        ]),
    ]
}

/// Draws the engine pane into `area`.
pub fn draw<G: HasBoard>(frame: &mut Frame, app: &App<G>, area: Rect) {
    let theme = &app.theme;
    let engine = &app.engine;
    frame.render_widget(
        pane_block(Pane::Engine, app.view.focus, "Engine", theme),
        area,
    );
    let mut lines: Vec<Line> = Vec::new();
    let side = engine
        .pending
        .map(|p| (p.side, p.purpose))
        .or_else(|| engine.last.as_ref().map(|l| (l.side, l.purpose)));
    let Some((side, purpose)) = side else {
        lines.push(Line::styled("No search yet.", theme.dim));
        if app.engines_only() || !app.is_human(app.session.current().to_move()) {
            lines.push(Line::styled(
                "The engine moves when it is its turn.",
                theme.dim,
            ));
        } else {
            lines.push(Line::styled("H asks it for a hint.", theme.dim));
        }
        frame.render_widget(Paragraph::new(lines), layout::inner(area));
        return;
    };
    let settings = &app.settings[side.index()];
    let who = match purpose {
        Purpose::Move => format!("{} engine", G::side_name(side)),
        Purpose::Hint => format!("hint for {}", G::side_name(side)),
        Purpose::Tree => format!("tree search for {}", G::side_name(side)),
        Purpose::Compare => format!("comparison for {}", G::side_name(side)),
    };
    let mut head = vec![
        Span::styled(who, theme.player(side)),
        Span::raw(format!(
            " · {} · {}",
            settings.algorithm,
            crate::tui::tree_browser::depth_text(settings)
        )),
    ];
    let result: Option<(&SearchResult<G::Move>, Vec<String>)> = if let Some(p) = engine.pending {
        head.push(Span::styled(
            format!(
                "  {} {}",
                spinner(app.view.tick),
                seconds(app.view.tick - p.started)
            ),
            theme.key,
        ));
        engine
            .progress
            .as_ref()
            .map(|r| (r, format_line(app.session.current(), &r.pv)))
    } else {
        engine.last.as_ref().map(|l| {
            let state = if l.result.completed {
                "  done"
            } else {
                "  stopped early"
            };
            head.push(Span::styled(state, theme.dim));
            (&l.result, l.pv.clone())
        })
    };
    lines.push(Line::from(head));
    match result {
        None => lines.push(Line::styled("thinking...", theme.dim)),
        Some((result, pv)) => {
            lines.push(Line::from(vec![
                Span::styled("best ", theme.dim),
                Span::styled(
                    pv.first().cloned().unwrap_or_else(|| "-".to_string()),
                    theme.title,
                ),
                Span::styled("   value ", theme.dim),
                Span::raw(score::format::<G>(result.value)),
            ]));
            lines.extend(stat_lines(&result.stats, theme));
            if engine.pending.is_none()
                && let Some(last) = &engine.last
            {
                let text = match (settings.algorithm, last.minimax_nodes) {
                    (Algorithm::Minimax, _) => "plain minimax: no pruning".to_string(),
                    (_, Some(n)) if last.result.stats.nodes > 0 => format!(
                        "{} (×{:.1})",
                        group_digits(n),
                        n as f64 / last.result.stats.nodes as f64
                    ),
                    (_, Some(n)) => group_digits(n),
                    (_, None) => format!("> {}", group_digits(MINIMAX_COUNT_BUDGET)),
                };
                lines.push(Line::from(vec![
                    Span::styled("minimax would visit ", theme.dim),
                    Span::raw(text),
                ]));
            }
            lines.push(Line::from(vec![
                Span::styled("pv ", theme.dim),
                Span::raw(pv.join(" ")),
            ]));
        }
    }
    frame.render_widget(
        Paragraph::new(lines).wrap(Wrap { trim: false }),
        layout::inner(area),
    );
}
