//! Threat-space search: a win by continuous fours (VCF) or by threes and fours (VCT) for the
//! side to move, *proven* by search: every defence that could refute a threat is tried.
//!
//! The attacker moves only with threats (a four, or in VCT also an open three, after its first
//! move only near the defender's last reply: [`VCT_THREE_REACH`]); the defender
//! answers a four at its one completion point, and an open three with every move that leaves
//! the attacker no open three (read from the incremental shape counts after playing it) and
//! with every four of the defender's own (a counter-threat the attacker must answer). Any
//! other reply leaves the three, which becomes an open four: so a line found here is a forced
//! win. Not finding one proves nothing (the search is bounded by depth, nodes and time, and
//! the attacker's moves are only threats).
//!
//! Moves are generated per line from the shape counts each line keeps: only lines where the
//! player has a three (for fours) or an open two (for open threes) are scanned, so a node
//! costs a few line look-ups rather than a scan of the board.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::ops::ControlFlow;
use std::time::Instant;

use super::eval::point_score;
use super::shape::{LineShapes, Shape};
use super::{Cell, Gomoku, MAX_CELLS};
use crate::engine::limits::StopFlag;
use crate::engine::{Game, Neglect, Player};

/// What the attacker may threaten with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ThreatKind {
    /// Fours only: victory by continuous fours.
    Vcf,
    /// Fours and open threes: victory by continuous threats.
    Vct,
}

/// How far a threat search may go.
#[derive(Clone, Debug)]
pub struct ThreatLimits {
    /// Nodes (positions visited) before giving up.
    pub nodes: u64,
    /// Attacker moves at most (the win is within twice this many plies).
    pub depth: u32,
    /// Give up at this moment.
    pub deadline: Option<Instant>,
    /// Give up once this flag is raised (the caller's stop: a user who wants the move now).
    pub stop: Option<StopFlag>,
}

/// Lanes of [`super::Line::shapes`] that make a line worth scanning.
const fn lanes(shapes: &[Shape]) -> u64 {
    let mut mask = 0;
    let mut i = 0;
    while i < shapes.len() {
        mask |= 0xFF << (8 * shapes[i] as u32);
        i += 1;
    }
    mask
}
pub(super) const HAS_FOUR: u64 = lanes(&[Shape::ClosedFour, Shape::OpenFour]);
pub(super) const HAS_THREE: u64 = lanes(&[Shape::ClosedThree, Shape::OpenThree]);
const HAS_OPEN_THREE: u64 = lanes(&[Shape::OpenThree]);
const HAS_OPEN_TWO: u64 = lanes(&[Shape::OpenTwo]);

/// In a VCT, how far (in rows or columns) from the defender's last reply the attacker may
/// make an open three, after its first move (fours may be made anywhere). Leaving out the
/// threes elsewhere keeps every win found proven (each defence is still answered) and finds
/// the usual wins far sooner: a win of 9 plies in a match game took 338,636 nodes with
/// every three and 25,044 with those within 2 (85,702 within 3), where a 300 ms move gives
/// the root's threat search about 25 ms (docs/performance.md, "Wave 9"). The price: a win
/// whose next three is made elsewhere is not found.
const VCT_THREE_REACH: usize = 2;

/// A set of cells (dedupes moves found along several lines).
#[derive(Clone, Copy)]
struct CellSet([u64; MAX_CELLS.div_ceil(64)]);

/// How far (in rows or columns) a move may be from a stone and still count as near it
/// ([`Gomoku::neglect`]): four, as in Rapfi. Three and five both scored below it against
/// Rapfi (docs/performance.md, "Wave 36").
const FAR: usize = 4;

impl CellSet {
    fn new() -> Self {
        Self([0; MAX_CELLS.div_ceil(64)])
    }

    /// Adds `cell`; true when it was not there yet.
    fn insert(&mut self, cell: Cell) -> bool {
        let (word, bit) = (usize::from(cell) / 64, usize::from(cell) % 64);
        let fresh = self.0[word] & (1 << bit) == 0;
        self.0[word] |= 1 << bit;
        fresh
    }
}

/// A point where a player's stone would make two fours, or a four and an open three
/// ([`Gomoku::combination_defences`]).
#[derive(Clone, Copy)]
struct Combination {
    cell: Cell,
    /// The shapes the stone would make, per direction (as [`Gomoku::lines_through`]).
    shapes: [Shape; 4],
    /// With a lone four, the point that blocks it.
    block: Option<Cell>,
}

/// At most this many [`Combination`]s are looked at in one position: with several, a move
/// rarely answers them all, and then the search proves the loss anyway.
const MAX_COMBINATIONS: usize = 4;

/// Whether a stone making `shapes` makes two fours, or a four and an open three.
fn is_combination(shapes: [Shape; 4]) -> bool {
    let fours = shapes.iter().filter(|s| s.is_four()).count();
    fours >= 2 || fours == 1 && shapes.contains(&Shape::OpenThree)
}

/// The shape at position `pos` of a line's codes ([`super::shape::LineShapes::codes`]).
#[inline]
fn code_shape(codes: u64, pos: u32) -> Shape {
    Shape::ALL[(codes >> (3 * pos)) as usize & 7]
}

impl Gomoku {
    /// [`Gomoku::shapes_if_played`] of the empty `cell` for `player`, read from the codes
    /// of the four lines through it.
    fn cached_shapes_if_played(&self, cell: Cell, player: Player) -> [Shape; 4] {
        let (row, col) = self.row_col(cell);
        let p = player.index();
        let mut shapes = [Shape::None; 4];
        for (shape, (index, pos)) in shapes.iter_mut().zip(self.lines_through(row, col)) {
            *shape = code_shape(self.point_shapes(index)[p], pos);
        }
        shapes
    }

    /// The shapes of line `index` with a stone of `player`'s added at `pos`, through the
    /// per-thread line cache `play` uses: the same line contents come back across the
    /// search, and a reply searched next is played with exactly this line.
    fn line_shapes_with(&self, index: usize, pos: u32, player: Player) -> LineShapes {
        let line = &self.lines[index];
        let mut stones = line.stones;
        stones[player.index()] |= 1 << pos;
        self.table
            .both_line_shapes(stones[0], stones[1], u32::from(line.len))
    }

    /// The point at position `pos` of line `index` (the inverse of `lines_through`).
    pub(super) fn line_point(&self, index: usize, pos: u32) -> Cell {
        let n = self.size();
        let pos = pos as usize;
        let (row, col) = if index < n {
            (index, pos)
        } else if index < 2 * n {
            (pos, index - n)
        } else if index < 4 * n - 1 {
            // row - col = d - (n - 1); the position is the smaller of the two.
            let d = index - 2 * n;
            if d >= n - 1 {
                (d - (n - 1) + pos, pos)
            } else {
                (pos, n - 1 - d + pos)
            }
        } else {
            let sum = index - (4 * n - 1);
            let row = pos + sum.saturating_sub(n - 1);
            (row, sum - row)
        };
        (row * n + col) as Cell
    }

    /// Calls `visit` with the shape `player`'s stone would make on each empty point of every
    /// line where `player` has a lane of `need`, with the line's index and the point's
    /// position in it (so that the cell is worked out only for the points wanted), until
    /// `visit` breaks.
    fn scan_line_points(
        &self,
        player: Player,
        need: u64,
        mut visit: impl FnMut(Shape, usize, u32) -> ControlFlow<()>,
    ) {
        let p = player.index();
        // The board-wide counts are the sums of the lines' lanes: when they hold none of
        // `need`, no line does (the usual case for fours), and there is nothing to scan.
        let wide = super::widen(need);
        if self.totals[p] & (wide | wide << 8) == 0 {
            return;
        }
        let k = self.table.connect();
        // The lines that can hold `need`, in index order, as the scan of every line had.
        let mut todo = if need & !HAS_FOUR == 0 {
            self.four_lines[p]
        } else if need & !(HAS_FOUR | HAS_THREE) == 0 {
            self.three_lines[p]
        } else {
            u128::MAX >> (128 - (6 * self.size() - 2))
        };
        while todo != 0 {
            let index = todo.trailing_zeros() as usize;
            todo &= todo - 1;
            let line = &self.lines[index];
            if line.shapes.counts[p] & need == 0 || u32::from(line.len) < k {
                continue;
            }
            let mut empty = self.empty_in(index);
            // The shapes the line's codes hold (kept by `play`).
            let codes = line.shapes.codes[p];
            while empty != 0 {
                let pos = empty.trailing_zeros();
                empty &= empty - 1;
                if visit(code_shape(codes, pos), index, pos).is_break() {
                    return;
                }
            }
        }
    }

    /// Pushes onto `out` (once each, via `seen`) the empty points where `player`'s stone
    /// makes, along a line where `player` has a lane of `need`, a shape that `wanted` accepts.
    fn line_moves(
        &self,
        player: Player,
        need: u64,
        wanted: impl Fn(Shape) -> bool,
        seen: &mut CellSet,
        out: &mut Vec<Cell>,
    ) {
        self.scan_line_points(player, need, |shape, index, pos| {
            if wanted(shape) {
                let cell = self.line_point(index, pos);
                if seen.insert(cell) {
                    out.push(cell);
                }
            }
            ControlFlow::Continue(())
        });
    }

    /// The points where `player` would make five now.
    pub fn five_points(&self, player: Player, out: &mut Vec<Cell>) {
        out.clear();
        let mut seen = CellSet::new();
        self.line_moves(player, HAS_FOUR, |s| s == Shape::Five, &mut seen, out);
    }

    /// Every empty point of a line where `player` has an open three.
    fn open_three_lines(&self, player: Player, seen: &mut CellSet, out: &mut Vec<Cell>) {
        self.line_moves(player, HAS_OPEN_THREE, |_| true, seen, out);
    }

    /// True when `player` has an open three somewhere (a cluster whose strongest shape is
    /// an open three: it becomes an open four in one move).
    fn has_open_three(&self, player: Player) -> bool {
        self.pattern_counts(player).get(Shape::OpenThree) > 0
    }

    /// The attacker's threats, most promising first: points making a four, then (VCT) those
    /// making an open three: anywhere at the search's root (`at_root`), else within
    /// [`VCT_THREE_REACH`] of the last move.
    fn threats(&self, kind: ThreatKind, at_root: bool, out: &mut Vec<Cell>) {
        out.clear();
        let me = self.to_move();
        let mut seen = CellSet::new();
        self.line_moves(me, HAS_THREE, Shape::is_four, &mut seen, out);
        if kind == ThreatKind::Vct {
            let fours = out.len();
            self.line_moves(me, HAS_OPEN_TWO, |s| s == Shape::OpenThree, &mut seen, out);
            if !at_root && let Some(last) = self.last_move() {
                // Past its first move the attacker makes its threes near the defender's last
                // reply only (fours anywhere; the list is sorted below).
                let (row, col) = self.row_col(last);
                let mut index = 0;
                out.retain(|&cell| {
                    let (r, c) = self.row_col(cell);
                    index += 1;
                    index <= fours || r.abs_diff(row).max(c.abs_diff(col)) <= VCT_THREE_REACH
                });
            }
        }
        let mut keyed: Vec<(i32, Cell)> = out
            .iter()
            .map(|&c| {
                let attack = point_score(self.cached_shapes_if_played(c, me));
                let defence = point_score(self.cached_shapes_if_played(c, me.other()));
                (-(2 * attack + defence), c)
            })
            .collect();
        keyed.sort_unstable();
        out.clear();
        out.extend(keyed.into_iter().map(|(_, c)| c));
    }
}

/// Hashes a position's key to itself. The keys of a [`Search`]'s maps are Zobrist hashes,
/// already uniform over 64 bits. Hashing them again with the default `SipHash` took 4 % of
/// the root threat searches' samples (docs/performance.md, "Wave 49").
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    /// Not used by a map of `u64` keys; any bytes still hash well enough.
    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(byte)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }

    fn write_u64(&mut self, key: u64) {
        self.0 = key;
    }
}

/// A map from a position's hash.
type PositionMap<V> = HashMap<u64, V, BuildHasherDefault<KeyHasher>>;

/// One threat search: the limits, the counters and what it has proven.
struct Search {
    kind: ThreatKind,
    limits: ThreatLimits,
    nodes: u64,
    out_of_budget: bool,
    /// Attacker positions proven won, with the winning move.
    wins: PositionMap<Cell>,
    /// Attacker positions not won within this many attacker moves.
    fails: PositionMap<u32>,
    /// Move lists no node is using, kept for the next: a list made and grown at every node
    /// cost more than the node's own work in allocations.
    spare: Vec<Vec<Cell>>,
    /// Stones on the board at the search's root (the attacker's first move is not limited
    /// to the neighbourhood of the last move).
    root_stones: usize,
}

impl Search {
    fn new(kind: ThreatKind, limits: ThreatLimits, root_stones: usize) -> Self {
        Self {
            kind,
            limits,
            nodes: 0,
            out_of_budget: false,
            wins: PositionMap::default(),
            fails: PositionMap::default(),
            spare: Vec::new(),
            root_stones,
        }
    }

    /// An empty move list, reused when one is spare.
    fn list(&mut self) -> Vec<Cell> {
        self.spare.pop().unwrap_or_default()
    }

    /// Gives back a list from [`Self::list`].
    fn give_back(&mut self, mut list: Vec<Cell>) {
        list.clear();
        self.spare.push(list);
    }

    /// Counts a node; false once the nodes or the time are spent, or the caller asks it to
    /// stop. The clock and the flag are read at a search's first node and every 1024 after:
    /// the root defence runs dozens of searches of a few hundred nodes each, which reading
    /// the clock only every 1024th node let run on past the deadline (109 ms in a 30 ms
    /// move).
    fn spend(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes > self.limits.nodes
            || (self.nodes % 1024 == 1
                && (self.limits.deadline.is_some_and(|d| Instant::now() >= d)
                    || self.limits.stop.as_ref().is_some_and(StopFlag::is_raised)))
        {
            self.out_of_budget = true;
        }
        !self.out_of_budget
    }

    /// True when the side to move (the attacker) wins by threats within `depth` moves.
    fn attack(&mut self, game: &mut Gomoku, depth: u32) -> bool {
        if !self.spend() {
            return false;
        }
        let hash = game.hash();
        if self.wins.contains_key(&hash) {
            return true;
        }
        if self.fails.get(&hash).is_some_and(|&d| d >= depth) {
            return false;
        }
        let me = game.to_move();
        let mut points = self.list();
        game.five_points(me, &mut points);
        if let Some(&five) = points.first() {
            self.give_back(points);
            self.wins.insert(hash, five);
            return true;
        }
        if depth == 0 {
            self.give_back(points);
            return false;
        }
        game.five_points(me.other(), &mut points);
        let won = match points.len() {
            0 => {
                let mut moves = self.list();
                let at_root = game.stones_played() == self.root_stones;
                game.threats(self.kind, at_root, &mut moves);
                let won = moves.iter().copied().find(|&mv| {
                    let undo = game.play(mv);
                    let won = self.defend(game, depth - 1);
                    game.undo(mv, undo);
                    won
                });
                self.give_back(moves);
                won
            }
            // The defender threatens five: block it, and the block must itself threaten.
            1 => {
                let block = points[0];
                let undo = game.play(block);
                let won = self.defend(game, depth - 1);
                game.undo(block, undo);
                won.then_some(block)
            }
            _ => None,
        };
        self.give_back(points);
        if let Some(mv) = won {
            self.wins.insert(hash, mv);
            true
        } else {
            if !self.out_of_budget {
                self.fails.insert(hash, depth);
            }
            false
        }
    }

    /// True when the attacker (who just moved) wins against every defence.
    fn defend(&mut self, game: &mut Gomoku, depth: u32) -> bool {
        let mut replies = self.list();
        let won = if !defences(game, self.kind, &mut replies) {
            false
        } else if replies.is_empty() {
            // An open four or two fours: the attacker makes five next.
            true
        } else {
            replies.iter().all(|&reply| {
                let undo = game.play(reply);
                let won = self.attack(game, depth);
                game.undo(reply, undo);
                won
            })
        };
        self.give_back(replies);
        won
    }

    /// The line of a proven win from `game` (attacker to move): the attacker's moves from
    /// the table and the defender's first defence, up to and including the five.
    fn line(&self, game: &Gomoku) -> Vec<Cell> {
        let mut position = game.lean_copy();
        let mut line = Vec::new();
        let mut replies = Vec::new();
        while line.len() < MAX_CELLS {
            let mut fives = Vec::new();
            position.five_points(position.to_move(), &mut fives);
            let Some(mv) = fives
                .first()
                .or_else(|| self.wins.get(&position.hash()))
                .copied()
            else {
                break;
            };
            position.play(mv);
            line.push(mv);
            if position.winner().is_some() {
                break;
            }
            if !defences(&position, self.kind, &mut replies) {
                break;
            }
            let reply = replies
                .iter()
                .copied()
                .find(|&r| {
                    let mut next = position.clone();
                    next.play(r);
                    self.wins.contains_key(&next.hash())
                })
                .or_else(|| {
                    // An open four: any reply loses; show the one that blocks an end.
                    let mut fives = Vec::new();
                    position.five_points(position.to_move().other(), &mut fives);
                    fives.first().copied()
                });
            let Some(reply) = reply else {
                break;
            };
            position.play(reply);
            line.push(reply);
        }
        line
    }
}

/// The defender's (side to move's) replies that must each be refuted, after the attacker's
/// threat. False when the defender is not forced at all (no four and, in VCT, no open three
/// of the attacker's) or wins first (a five of the defender's own): the threat fails. An
/// empty list means no defence exists.
fn defences(game: &Gomoku, kind: ThreatKind, out: &mut Vec<Cell>) -> bool {
    out.clear();
    if game.winner().is_some() {
        return true;
    }
    let defender = game.to_move();
    let attacker = defender.other();
    let mut points = Vec::new();
    game.five_points(defender, &mut points);
    if !points.is_empty() {
        return false;
    }
    game.five_points(attacker, &mut points);
    match points.len() {
        0 => {}
        1 => {
            out.push(points[0]);
            return true;
        }
        _ => return true,
    }
    if kind == ThreatKind::Vcf || !game.has_open_three(attacker) {
        return false;
    }
    let mut seen = CellSet::new();
    // Room for an open three's line and a few fours: grown push by push, the list was
    // reallocated three or four times at every node.
    let mut candidates = Vec::with_capacity(32);
    game.open_three_lines(attacker, &mut seen, &mut candidates);
    game.line_moves(
        defender,
        HAS_THREE,
        Shape::is_four,
        &mut seen,
        &mut candidates,
    );
    // Read per line rather than by playing each point: a stone changes only its own four
    // lines, so it answers every open three when each line holding one passes through it
    // and is left without one.
    let a = attacker.index();
    let mut three_lines = [0usize; 8];
    let mut threes = 0;
    let mut todo = game.three_lines[a];
    while todo != 0 {
        let index = todo.trailing_zeros() as usize;
        todo &= todo - 1;
        if game.lines[index].shapes.counts[a] & HAS_OPEN_THREE != 0 {
            if threes == three_lines.len() {
                // More open threes than one stone's four lines can hold: none answers all.
                threes = usize::MAX;
                break;
            }
            three_lines[threes] = index;
            threes += 1;
        }
    }
    for &cell in &candidates {
        let (row, col) = game.row_col(cell);
        let through = game.lines_through(row, col);
        let counters = game
            .cached_shapes_if_played(cell, defender)
            .iter()
            .any(|s| s.is_four());
        let answers = threes <= through.len()
            && three_lines[..threes].iter().all(|&index| {
                through.iter().any(|&(l, pos)| {
                    if l != index {
                        return false;
                    }
                    let shapes = game.line_shapes_with(l, pos, defender);
                    shapes.counts[a] & HAS_OPEN_THREE == 0
                })
            });
        if counters || answers {
            out.push(cell);
        }
    }
    if out.is_empty() {
        // No single move answers every open three (two of them on lines that do not cross,
        // say): a point off those lines changes nothing, so every reply leaves a three to
        // become an open four. Searching the replies on its lines proves that and gives the
        // line its moves.
        *out = candidates;
    }
    true
}

impl Gomoku {
    /// The side to move's answers to the opponent's open three (see [`defences`]): the
    /// points after which the opponent has no open three left, and the mover's own fours.
    /// False when the mover is not forced to answer one.
    pub(super) fn open_three_defences(&self, out: &mut Vec<Cell>) -> bool {
        defences(self, ThreatKind::Vct, out)
    }

    /// The side to move's answers to the opponent's combination points (see
    /// [`Combination`]: a point where the opponent's stone would make two fours, or a four
    /// and an open three, so that it wins in three moves): the points after which none of
    /// them is left (the combination point itself, a point of one of its lines that spoils
    /// the four or the three), the points after which the block of a lone four would make
    /// a four of the mover's own (so the block gains the tempo back), and the mover's own
    /// fours. Every other move loses to the combination (Rapfi's move picker searches the
    /// same set, its `DEFEND_B4F3` stage). False when the opponent has no such point, or
    /// only ones whose four the mover's block would answer with a four already.
    pub(super) fn combination_defences(&self, out: &mut Vec<Cell>) -> bool {
        out.clear();
        let me = self.to_move();
        let them = me.other();
        let counts = self.pattern_counts(them);
        // A combination needs a three to make its four and a two or a second three.
        let threes = counts.get(Shape::ClosedThree) + counts.get(Shape::OpenThree);
        if threes == 0 || threes + counts.get(Shape::OpenTwo) < 2 {
            return false;
        }
        let mut found = [None; MAX_COMBINATIONS];
        let mut count = 0;
        let mut seen = CellSet::new();
        self.scan_line_points(them, HAS_THREE, |shape, index, pos| {
            if shape.is_four() {
                let cell = self.line_point(index, pos);
                if seen.insert(cell)
                    && let Some(combination) = self.combination_at(cell, them)
                {
                    found[count] = Some(combination);
                    count += 1;
                    if count == MAX_COMBINATIONS {
                        return ControlFlow::Break(());
                    }
                }
            }
            ControlFlow::Continue(())
        });
        let combinations = || found[..count].iter().flatten();
        let Some(first) = combinations().next() else {
            return false;
        };
        // The points that can answer: those of the combinations' lines and of their blocks'
        // lines, within a five's reach, and the mover's fours.
        let mut candidates = Vec::with_capacity(64);
        let mut seen = CellSet::new();
        for combination in combinations() {
            self.near_points(combination.cell, &mut seen, &mut candidates);
            if let Some(block) = combination.block {
                self.near_points(block, &mut seen, &mut candidates);
            }
        }
        let mut fours = Vec::new();
        self.line_moves(
            me,
            HAS_THREE,
            Shape::is_four,
            &mut CellSet::new(),
            &mut fours,
        );
        for &cell in &candidates {
            if combinations().all(|k| self.answers(cell, me, k)) {
                out.push(cell);
            }
        }
        if out.is_empty() {
            // No single point answers them all: every move loses, and the answers to one
            // of them give the search the line to prove it.
            out.extend(candidates.iter().filter(|&&c| self.answers(c, me, first)));
        }
        for cell in fours {
            if !out.contains(&cell) {
                out.push(cell);
            }
        }
        true
    }

    /// The [`Combination`] `player` would make at the empty `cell`, unless its lone four's
    /// block would make a four of the other side's (a combination that does not win).
    fn combination_at(&self, cell: Cell, player: Player) -> Option<Combination> {
        let shapes = self.cached_shapes_if_played(cell, player);
        if !is_combination(shapes) {
            return None;
        }
        let mut combination = Combination {
            cell,
            shapes,
            block: None,
        };
        let mut fours = (0..4).filter(|&d| shapes[d].is_four());
        if let (Some(d), None) = (fours.next(), fours.next()) {
            // A four and an open three: find the four's block.
            let (row, col) = self.row_col(cell);
            let (index, pos) = self.lines_through(row, col)[d];
            let after = self.line_shapes_with(index, pos, player);
            let mut empty = self.empty_in(index) & !(1 << pos);
            while empty != 0 {
                let at = empty.trailing_zeros();
                empty &= empty - 1;
                if code_shape(after.codes[player.index()], at) == Shape::Five {
                    let block = self.line_point(index, at);
                    let (r, c) = self.row_col(block);
                    let other = player.other().index();
                    let counters =
                        self.lines_through(r, c)
                            .iter()
                            .enumerate()
                            .any(|(e, &(l, p))| {
                                e != d && code_shape(self.point_shapes(l)[other], p).is_four()
                            });
                    if counters {
                        return None;
                    }
                    combination.block = Some(block);
                    break;
                }
            }
        }
        Some(combination)
    }

    /// Pushes onto `out` (once each, via `seen`) the empty points within four of `cell`
    /// along its four lines.
    fn near_points(&self, cell: Cell, seen: &mut CellSet, out: &mut Vec<Cell>) {
        let (row, col) = self.row_col(cell);
        for (index, pos) in self.lines_through(row, col) {
            let reach = (0x1FFu32 << pos) >> 4;
            let mut empty = self.empty_in(index) & reach;
            while empty != 0 {
                let at = empty.trailing_zeros();
                empty &= empty - 1;
                let point = self.line_point(index, at);
                if seen.insert(point) {
                    out.push(point);
                }
            }
        }
    }

    /// Whether `me`'s stone at the empty `cell` answers `combination`: takes its point,
    /// leaves it no combination, or makes its four's block a four of `me`'s.
    fn answers(&self, cell: Cell, me: Player, combination: &Combination) -> bool {
        if cell == combination.cell {
            return true;
        }
        let them = me.other().index();
        let (row, col) = self.row_col(cell);
        let through = self.lines_through(row, col);
        let with_stone = |index: usize, pos: u32| self.line_shapes_with(index, pos, me).codes;
        let (r, c) = self.row_col(combination.cell);
        for (d, (index, at)) in self.lines_through(r, c).into_iter().enumerate() {
            if let Some(&(_, pos)) = through.iter().find(|&&(l, _)| l == index) {
                let mut shapes = combination.shapes;
                shapes[d] = code_shape(with_stone(index, pos)[them], at);
                if !is_combination(shapes) {
                    return true;
                }
            }
        }
        let Some(block) = combination.block else {
            return false;
        };
        let (r, c) = self.row_col(block);
        self.lines_through(r, c).into_iter().any(|(index, at)| {
            through.iter().any(|&(l, pos)| {
                l == index && code_shape(with_stone(index, pos)[me.index()], at).is_four()
            })
        })
    }

    /// See [`crate::engine::Game::forced_replies`]: a block of the opponent's four (one is
    /// enough: against two fours every block loses to the other). None when the side to
    /// move has a four of its own (it makes five) or faces none. An open three is not
    /// answered here: searching every defence cost more than a ply at 300 ms a move and lost
    /// 45 - 75, and only the 2-3 points on its line still lost 24.5 - 35.5
    /// (docs/performance.md, "Wave 5").
    pub(super) fn forced_replies(&self, out: &mut Vec<Cell>) {
        out.clear();
        if self.winner().is_some() {
            return;
        }
        let me = self.to_move();
        // The shape counts first: they are kept up to date, so the usual case scans nothing.
        if self.pattern_counts(me).fours() > 0 || self.pattern_counts(me.other()).fours() == 0 {
            return;
        }
        if let (_, Some(block)) = self.five_point(me.other()) {
            out.push(block);
        }
    }

    /// See [`Game::neglect`]: `None` unless the opponent has an open three or a four and
    /// would make no four at `mv` (so `mv` neither blocks the threat nor takes one of its
    /// points); then whether `mv` is more than [`FAR`] points (in rows or columns) from the
    /// opponent's last stone and from the mover's own. Rapfi's "distract" and "useless
    /// defend" moves (its search.cpp, steps 12 and 15).
    pub(super) fn neglect(&self, mv: Cell) -> Option<Neglect> {
        let them = self.pattern_counts(self.to_move().other());
        if them.get(Shape::OpenThree) == 0 && them.fours() == 0 {
            return None;
        }
        let (row, col) = self.row_col(mv);
        let (_, theirs) = super::eval::point_keys(self, self.to_move().index(), row, col);
        if (0..4).any(|d| (theirs >> (3 * d)) & 7 >= Shape::ClosedFour as usize) {
            return None;
        }
        let far = |other: Option<Cell>| {
            other.is_some_and(|other| {
                let (r, c) = self.row_col(other);
                row.abs_diff(r).max(col.abs_diff(c)) > FAR
            })
        };
        Some(Neglect {
            far_from_theirs: far(self.last_move()),
            far_from_own: far(self.previous),
        })
    }

    /// A forced win for the side to move by `kind` threats within `limits`: the line from
    /// the first move to the five (the defender's replies being the first defences found),
    /// and the nodes spent.
    pub fn threat_win(&self, kind: ThreatKind, limits: ThreatLimits) -> (Option<Vec<Cell>>, u64) {
        if self.winner().is_some() || self.stones_played() == 0 {
            return (None, 0);
        }
        let deepest = limits.depth;
        let mut search = Search::new(kind, limits, self.stones_played());
        let mut position = self.lean_copy();
        // Iterative deepening: the shortest win is found first, and shallow failures are
        // remembered for the deeper passes.
        for depth in 1..=deepest {
            if search.attack(&mut position, depth) {
                let line = search.line(self);
                return ((!line.is_empty()).then_some(line), search.nodes);
            }
            if search.out_of_budget {
                break;
            }
        }
        (None, search.nodes)
    }
}

impl Gomoku {
    /// How many points make five for `player` (counting stops at two), and the first.
    pub(super) fn five_point(&self, player: Player) -> (u32, Option<Cell>) {
        let (mut count, mut first) = (0, None);
        self.scan_line_points(player, HAS_FOUR, |shape, index, pos| {
            if shape == Shape::Five {
                let cell = self.line_point(index, pos);
                if first.is_none() {
                    first = Some(cell);
                    count = 1;
                } else if first != Some(cell) {
                    count = 2;
                    return ControlFlow::Break(());
                }
            }
            ControlFlow::Continue(())
        });
        (count, first)
    }

    /// A lean VCF over full moves: no tables, no ordering, at most `depth` fours and
    /// `budget` nodes; the plies until the side to move has made five. The leaves of a
    /// playing search used it until [`Gomoku::leaf_vcf`] answered the same over the lines'
    /// stone bits alone; kept as that one's reference in its tests.
    /// It skips a transposition as that one does (see [`super::fours::Searched`]).
    #[cfg(test)]
    pub(super) fn quick_vcf(&mut self, depth: u32, budget: &mut u32) -> Option<u32> {
        self.quick_vcf_below(depth, budget, &mut super::fours::Searched::new())
    }

    #[cfg(test)]
    fn quick_vcf_below(
        &mut self,
        depth: u32,
        budget: &mut u32,
        searched: &mut super::fours::Searched,
    ) -> Option<u32> {
        if *budget == 0 {
            return None;
        }
        *budget -= 1;
        let me = self.to_move();
        if self.five_point(me).0 > 0 {
            return Some(1);
        }
        if depth == 0 {
            return None;
        }
        let moves = match self.five_point(me.other()) {
            (0, _) => {
                let mut moves = Vec::with_capacity(16);
                self.line_moves(
                    me,
                    HAS_THREE,
                    Shape::is_four,
                    &mut CellSet::new(),
                    &mut moves,
                );
                moves
            }
            (1, Some(block)) => vec![block],
            _ => return None,
        };
        for mv in moves {
            let undo = self.play(mv);
            let found = match self.five_point(me) {
                (_, _) if self.five_point(me.other()).0 > 0 => None,
                (0, _) => None,
                (1, Some(reply)) => {
                    let reply_undo = self.play(reply);
                    let found = if searched.first_visit(self.hash()) {
                        self.quick_vcf_below(depth - 1, budget, searched)
                            .map(|plies| plies + 2)
                    } else {
                        None
                    };
                    self.undo(reply, reply_undo);
                    found
                }
                _ => Some(3),
            };
            self.undo(mv, undo);
            if found.is_some() {
                return found;
            }
        }
        None
    }
}

impl Gomoku {
    /// The same position with the other side to move (a pass), as a [`Gomoku::lean_copy`]
    /// for the threat searches: what the opponent threatens.
    fn passed(&self) -> Self {
        let mut game = self.lean_copy();
        game.to_move = game.to_move.other();
        game.hash ^= super::KEYS[super::SIDE_KEY];
        game
    }

    /// The opponent's forced win by fours, then by threes and fours, within `nodes`.
    fn threatened(
        &self,
        nodes: u64,
        deadline: Option<Instant>,
        stop: &StopFlag,
    ) -> (Option<Vec<Cell>>, u64) {
        let opponent = self.passed();
        let vcf = ThreatLimits {
            nodes: nodes / 2,
            depth: 20,
            deadline,
            stop: Some(stop.clone()),
        };
        let (line, spent) = opponent.threat_win(ThreatKind::Vcf, vcf);
        if line.is_some() {
            return (line, spent);
        }
        let vct = ThreatLimits {
            nodes: nodes.saturating_sub(spent),
            depth: 6,
            deadline,
            stop: Some(stop.clone()),
        };
        let (line, more) = opponent.threat_win(ThreatKind::Vct, vct);
        (line, spent + more)
    }

    /// See [`crate::engine::Game::threat_defences`]: the candidates, and every point of the
    /// opponent's winning line, after which the opponent has no forced win any more.
    pub(super) fn defences_against_threats(
        &self,
        candidates: usize,
        nodes: u64,
        deadline: Option<Instant>,
        stop: &StopFlag,
    ) -> Option<Vec<Cell>> {
        if self.winner().is_some() || self.stones_played() < 3 {
            return None;
        }
        // The side to move has a four: it is not defending.
        if self.five_point(self.to_move()).0 > 0 {
            return None;
        }
        let (line, spent) = self.threatened(nodes / 4, deadline, stop);
        let line = line?;
        let mut moves = Vec::new();
        self.candidate_moves(&mut moves, candidates.max(1) * 2);
        let mut seen = CellSet::new();
        moves.retain(|&m| seen.insert(m));
        for &m in &line {
            if self.at(m).is_none() && seen.insert(m) {
                moves.push(m);
            }
        }
        let each = nodes.saturating_sub(spent) / moves.len().max(1) as u64;
        let mut position = self.lean_copy();
        let defences: Vec<Cell> = moves
            .into_iter()
            .filter(|&m| {
                let undo = position.play(m);
                let safe = position.winner().is_some() || {
                    // The opponent to move now: does it still win by force?
                    let opponent = &position;
                    let vcf = ThreatLimits {
                        nodes: each / 2,
                        depth: 20,
                        deadline,
                        stop: Some(stop.clone()),
                    };
                    let vct = ThreatLimits {
                        nodes: each / 2,
                        depth: 6,
                        deadline,
                        stop: Some(stop.clone()),
                    };
                    // Only a win found rules a move out: a search its budget cut short
                    // proves nothing either way, and counting it as "not safe" left good
                    // counter-attacks out (-104 Elo, docs/performance.md).
                    opponent.threat_win(ThreatKind::Vcf, vcf).0.is_none()
                        && opponent.threat_win(ThreatKind::Vct, vct).0.is_none()
                };
                position.undo(m, undo);
                safe
            })
            .collect();
        (!defences.is_empty()).then_some(defences)
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::super::tests::{Walk, uncached};
    use super::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        /// The threat code reads the cached point shapes where they are up to date: after any
        /// sequence of moves, take-backs and cache fills, its answers (five points, threats,
        /// open-three defences, shapes a stone would make) equal those worked out with
        /// nothing cached.
        #[test]
        fn threat_moves_agree_with_an_empty_cache(
            size in 5usize..=16,
            connect in 4usize..=6,
            standard in any::<bool>(),
            steps in proptest::collection::vec((any::<u16>(), 0u8..5), 1..80),
        ) {
            let mut walk = Walk::new(size, connect, standard);
            let mut moves = Vec::new();
            for (choice, action) in steps {
                if let Some(limit) = walk.step(choice, action) {
                    walk.game.candidate_moves(&mut moves, limit);
                }
                let g = &walk.game;
                let fresh = uncached(g);
                let (mut a, mut b) = (Vec::new(), Vec::new());
                for player in [Player::First, Player::Second] {
                    g.five_points(player, &mut a);
                    fresh.five_points(player, &mut b);
                    prop_assert_eq!(&a, &b);
                }
                for kind in [ThreatKind::Vcf, ThreatKind::Vct] {
                    g.threats(kind, false, &mut a);
                    uncached(g).threats(kind, false, &mut b);
                    prop_assert_eq!(&a, &b);
                }
                let forced = g.open_three_defences(&mut a);
                prop_assert_eq!(forced, uncached(g).open_three_defences(&mut b));
                prop_assert_eq!(&a, &b);
                for cell in 0..(size * size) as Cell {
                    if g.at(cell).is_none() {
                        for player in [Player::First, Player::Second] {
                            prop_assert_eq!(
                                uncached(g).cached_shapes_if_played(cell, player),
                                g.shapes_if_played(cell, player)
                            );
                            prop_assert_eq!(
                                g.cached_shapes_if_played(cell, player),
                                g.shapes_if_played(cell, player)
                            );
                        }
                    }
                }
            }
        }
    }
}
