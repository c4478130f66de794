//! Training data for the candidate ranking of Gomoku (src/games/gomoku/policy.rs): reads
//! positions with a teacher's move and writes, for each position whose ranking is not
//! forced, every empty point within two of a stone with the shapes a stone there would make.
//! `tools/rank-fit/README.md` says how the weights are fitted from it.
//!
//! stdin: one position a line, `moves<TAB>teacher's move[<TAB>anything]` (15x15 freestyle,
//! moves in gametree notation: `h8 i9 ...`). stdout: `found plies | att,def,loc,cur ...`
//! where `found` is 1 when the teacher's move is among the points, which then come first;
//! `att` and `def` are the sorted shapes (strongest first, as octal digits read as a number)
//! of the mover's and of the opponent's stone at the point, `loc` the nearness bonus and
//! `cur` today's ranking value of the point.
//!
//! `cargo run --release --example gomoku_rank_data < positions.tsv > points.txt`

use std::io::{BufRead, Write};

use gametree::engine::{Game, Player};
use gametree::games::gomoku::policy::point_rank;
use gametree::games::gomoku::shape::Shape;
use gametree::games::gomoku::{Cell, Gomoku, Rule};

/// The shapes strongest first, as octal digits read as one number.
fn sorted_class(shapes: [Shape; 4]) -> u32 {
    let mut s = shapes.map(|x| x as u32);
    s.sort_unstable_by(|a, b| b.cmp(a));
    s.iter().fold(0, |k, &x| k * 8 + x)
}

/// The position after `moves`, unless a move does not parse or the game is over.
fn position(moves: &[&str]) -> Option<Gomoku> {
    let mut game = Gomoku::new(15, 5, Rule::Freestyle);
    for m in moves {
        let mv = game.parse_move(m).ok()?;
        game.play(mv);
    }
    game.outcome().is_none().then_some(game)
}

/// True when the candidates of `game` are forced (a five to make or block, an open three to
/// answer), so its ranking decides nothing.
fn forced(game: &Gomoku, me: Player) -> bool {
    let mine = game.pattern_counts(me);
    let theirs = game.pattern_counts(me.other());
    mine.fours() > 0 || theirs.fours() > 0 || theirs.get(Shape::OpenThree) > 0
}

/// `game`'s points within two of a stone as `att,def,loc,cur`, the one at `best` first.
fn points(game: &Gomoku, best: Cell) -> (bool, Vec<String>) {
    let me = game.to_move();
    let n = game.size() as isize;
    let taken = |r: isize, c: isize| {
        (0..n).contains(&r) && (0..n).contains(&c) && game.stone(r as usize, c as usize).is_some()
    };
    let last = game.last_move().map(|cell| game.row_col(cell));
    let (mut found, mut out) = (false, Vec::new());
    for row in 0..game.size() {
        for col in 0..game.size() {
            let Some(cell) = game.cell(row, col) else {
                continue;
            };
            if game.stone(row, col).is_some() {
                continue;
            }
            let (r, c) = (row as isize, col as isize);
            let ring = |d: isize| {
                (-d..=d)
                    .flat_map(|dr| (-d..=d).map(move |dc| (dr, dc)))
                    .filter(|&(dr, dc)| taken(r + dr, c + dc))
                    .count()
            };
            if ring(2) == 0 {
                continue;
            }
            let near_last =
                last.map_or(0, |(lr, lc)| match lr.abs_diff(row).max(lc.abs_diff(col)) {
                    0 | 1 => 4,
                    2 => 2,
                    _ => 0,
                });
            let locality = 2 * ring(1) + near_last;
            let attack = game.shapes_if_played(cell, me);
            let defence = game.shapes_if_played(cell, me.other());
            let entry = format!(
                "{},{},{locality},{}",
                sorted_class(attack),
                sorted_class(defence),
                u64::from(point_rank(attack, defence)) * 32 + locality as u64
            );
            if cell == best {
                found = true;
                out.insert(0, entry);
            } else {
                out.push(entry);
            }
        }
    }
    (found, out)
}

fn main() -> std::io::Result<()> {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for line in std::io::stdin().lock().lines() {
        let line = line?;
        let mut cols = line.split('\t');
        let (Some(moves), Some(best)) = (cols.next(), cols.next()) else {
            continue;
        };
        let moves: Vec<&str> = moves.split_whitespace().collect();
        let Some(game) = position(&moves) else {
            continue;
        };
        let Ok(best) = game.parse_move(best.trim()) else {
            continue;
        };
        if forced(&game, game.to_move()) {
            continue;
        }
        let (found, points) = points(&game, best);
        writeln!(
            out,
            "{} {} | {}",
            u8::from(found),
            moves.len(),
            points.join(" ")
        )?;
    }
    Ok(())
}
