//! Tournament output: the standings table, the pairing matrix, the one-line-per-game file
//! and the JSON document. Text in, text out: no terminal handling here.

use std::fmt::Write as _;

use serde_json::{Value, json};

use super::elo::{EloEstimate, format_elo, format_margin};
use super::{GameRecord, Standings};
use crate::engine::Player;

/// The standings table: rank, name, games, wins, draws, losses, points, score and the Elo
/// difference to the first entrant (from their games against each other) with its 95%
/// error margin.
pub fn standings_table(standings: &Standings) -> String {
    let width = standings
        .names
        .iter()
        .map(|n| n.chars().count())
        .max()
        .unwrap_or(0)
        .max(7);
    let reference = standings.names.first().map_or("", String::as_str);
    let mut out = String::new();
    let _ = writeln!(
        out,
        " #  {:<width$}  games   wins  draws losses   points   score   Elo vs {reference} (95%)",
        "entrant"
    );
    for (rank, &a) in standings.ranking().iter().enumerate() {
        let t = standings.total(a);
        let score = t
            .score()
            .map_or_else(|| "-".to_string(), |s| format!("{:.1}%", s * 100.0));
        let elo = if a == 0 {
            "reference".to_string()
        } else {
            standings.elo_vs_first(a).map_or_else(
                || "-".to_string(),
                |e| format!("{} {}", format_elo(e.elo), format_margin(e.margin)),
            )
        };
        let _ = writeln!(
            out,
            "{:>2}  {:<width$}  {:>5}  {:>5}  {:>5}  {:>5}  {:>7}  {:>6}   {elo}",
            rank + 1,
            standings.names[a],
            t.games(),
            t.wins,
            t.draws,
            t.losses,
            format_points(t.points()),
            score,
        );
    }
    out
}

/// The pairing matrix: each row entrant's points against each column entrant, out of the
/// games they played.
pub fn pairing_matrix(standings: &Standings) -> String {
    let names = &standings.names;
    let cells: Vec<Vec<String>> = (0..names.len())
        .map(|a| {
            (0..names.len())
                .map(|b| {
                    if a == b {
                        "-".to_string()
                    } else {
                        let t = &standings.matrix[a][b];
                        format!("{}/{}", format_points(t.points()), t.games())
                    }
                })
                .collect()
        })
        .collect();
    let first = names
        .iter()
        .map(|n| n.chars().count())
        .max()
        .unwrap_or(0)
        .max(7);
    let column = names
        .iter()
        .map(|n| n.chars().count())
        .chain(cells.iter().flatten().map(String::len))
        .max()
        .unwrap_or(1);
    let mut out = String::new();
    let _ = write!(out, "{:<first$}", "");
    for name in names {
        let _ = write!(out, "  {name:>column$}");
    }
    out.push('\n');
    for (a, row) in cells.iter().enumerate() {
        let _ = write!(out, "{:<first$}", names[a]);
        for cell in row {
            let _ = write!(out, "  {cell:>column$}");
        }
        out.push('\n');
    }
    out
}

/// Points as people write them: `7`, `7.5`.
pub fn format_points(points: f64) -> String {
    if points.fract() == 0.0 {
        format!("{points:.0}")
    } else {
        format!("{points:.1}")
    }
}

/// Each entrant's average time a move over `records` (the openings' moves not counted),
/// as `name 412 ms (1234 moves)`, in entrant order; entrants without moves left out.
pub fn thinking_line(records: &[GameRecord], names: &[String]) -> String {
    let mut moves = vec![0u64; names.len()];
    let mut ms = vec![0u64; names.len()];
    for record in records {
        for (player, entrant) in [
            (Player::First, record.first),
            (Player::Second, record.second),
        ] {
            if let (Some(m), Some(t)) = (moves.get_mut(entrant), ms.get_mut(entrant)) {
                *m += u64::from(record.thinking.moves[player.index()]);
                *t += record.thinking.ms[player.index()];
            }
        }
    }
    names
        .iter()
        .zip(moves.iter().zip(&ms))
        .filter(|(_, (m, _))| **m > 0)
        .map(|(name, (m, t))| format!("{name} {} ms ({m} moves)", t / m))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The header line of the games file.
pub const GAMES_HEADER: &str =
    "# game\tfirst\tsecond\tresult\tmargin\topening_plies\tmoves (opening first)";

/// One line of the games file: game number (from 1), the entrant moving first, the one
/// moving second, the result (`1-0`, `0-1`, `1/2-1/2`), the first player's margin, how many
/// moves were the opening, then every move, separated by tabs (moves by spaces); a game
/// lost by forfeit (an external brain that failed) ends with a tab and `forfeit: why`.
pub fn game_line(record: &GameRecord, names: &[String]) -> String {
    let line = format!(
        "{}\t{}\t{}\t{}\t{:+}\t{}\t{}",
        record.index + 1,
        names[record.first],
        names[record.second],
        record.result_text(),
        record.outcome.value_for(Player::First),
        record.opening_plies,
        record.moves.join(" ")
    );
    match &record.forfeit {
        Some(reason) => format!("{line}\tforfeit: {}", reason.replace(['\t', '\n'], " ")),
        None => line,
    }
}

fn elo_json(estimate: Option<EloEstimate>) -> Value {
    match estimate {
        Some(e) => json!({
            "elo": finite_or_null(e.elo),
            "margin": finite_or_null(e.margin),
            "low": finite_or_null(e.low),
            "high": finite_or_null(e.high),
        }),
        None => Value::Null,
    }
}

/// JSON has no infinities: a clean sweep's Elo is written as `null` (see `score`).
fn finite_or_null(x: f64) -> Value {
    if x.is_finite() { json!(x) } else { Value::Null }
}

/// The whole result as one JSON document: settings, standings (in ranking order, each with
/// its Elo difference to the first entrant), the pairing matrix and, if asked, every game.
pub fn json_report(standings: &Standings, header: &Value, records: Option<&[GameRecord]>) -> Value {
    let rows: Vec<Value> = standings
        .ranking()
        .into_iter()
        .map(|a| {
            let t = standings.total(a);
            json!({
                "name": standings.names[a],
                "games": t.games(),
                "wins": t.wins,
                "draws": t.draws,
                "losses": t.losses,
                "points": t.points(),
                "score": t.score(),
                "elo_vs_first": elo_json(standings.elo_vs_first(a)),
            })
        })
        .collect();
    let matrix: Vec<Vec<Value>> = standings
        .matrix
        .iter()
        .map(|row| {
            row.iter()
                .map(|t| json!({"wins": t.wins, "draws": t.draws, "losses": t.losses, "points": t.points()}))
                .collect()
        })
        .collect();
    let mut doc = json!({
        "tournament": header.clone(),
        "entrants": standings.names,
        "standings": rows,
        "matrix": matrix,
    });
    if let Some(records) = records {
        doc["games"] = records
            .iter()
            .map(|r| {
                let mut game = json!({
                    "game": r.index + 1,
                    "first": standings.names[r.first],
                    "second": standings.names[r.second],
                    "result": r.result_text(),
                    "margin": r.outcome.value_for(Player::First),
                    "opening_plies": r.opening_plies,
                    "moves": r.moves,
                    "thinking_moves": r.thinking.moves,
                    "thinking_ms": r.thinking.ms,
                });
                if let Some(reason) = &r.forfeit {
                    game["forfeit"] = json!(reason);
                }
                game
            })
            .collect();
    }
    doc
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Outcome;
    use crate::tournament::elo::Tally;

    #[test]
    fn the_time_a_move_is_each_entrant_s_over_both_colours() {
        let game = |first: usize, second: usize, moves: [u32; 2], ms: [u64; 2]| GameRecord {
            index: 0,
            first,
            second,
            opening: 0,
            opening_plies: 0,
            moves: Vec::new(),
            outcome: Outcome::Draw,
            forfeit: None,
            thinking: crate::tournament::Thinking { moves, ms },
        };
        let names = ["a".to_string(), "b".to_string(), "idle".to_string()];
        // a: 10 moves in 1000 ms as first, 30 in 5000 as second: 6000 / 40 = 150 ms.
        let records = [
            game(0, 1, [10, 10], [1000, 200]),
            game(1, 0, [30, 30], [600, 5000]),
        ];
        assert_eq!(
            thinking_line(&records, &names),
            "a 150 ms (40 moves), b 20 ms (40 moves)"
        );
        assert_eq!(thinking_line(&[], &names), "");
    }

    fn standings() -> Standings {
        let mut s = Standings::new(vec!["alpha".into(), "b".into()]);
        s.matrix[0][1] = Tally::new(3, 2, 5);
        s.matrix[1][0] = Tally::new(5, 2, 3);
        s
    }

    #[test]
    fn table_ranks_by_points_and_measures_against_the_first() {
        let table = standings_table(&standings());
        let lines: Vec<&str> = table.lines().collect();
        assert!(lines[0].contains("Elo vs alpha"), "{table}");
        assert!(
            lines[1].contains(" b ") && lines[1].contains("60.0%"),
            "{table}"
        );
        assert!(lines[1].contains("+70 ±"), "{table}");
        assert!(
            lines[2].contains("alpha") && lines[2].contains("reference"),
            "{table}"
        );
    }

    #[test]
    fn matrix_shows_points_out_of_games() {
        let m = pairing_matrix(&standings());
        assert!(m.lines().nth(1).unwrap().contains("4/10"), "{m}");
        assert!(m.lines().nth(2).unwrap().contains("6/10"), "{m}");
        assert_eq!(format_points(3.5), "3.5");
    }

    #[test]
    fn game_lines_are_tab_separated() {
        let record = GameRecord {
            index: 0,
            first: 1,
            second: 0,
            opening: 0,
            opening_plies: 2,
            moves: vec!["a1".into(), "b2".into(), "c3".into()],
            outcome: Outcome::Win {
                winner: Player::Second,
                margin: 1,
            },
            forfeit: None,
            thinking: crate::tournament::Thinking::default(),
        };
        let names = vec!["alpha".to_string(), "b".to_string()];
        assert_eq!(
            game_line(&record, &names),
            "1\tb\talpha\t0-1\t-1\t2\ta1 b2 c3"
        );
    }
}
