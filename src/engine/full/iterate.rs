//! Iterative deepening: from depth 1 to the depth limit, the time limit or a proven root,
//! each iteration either with aspiration windows around the last value or, for exact
//! solving, by MTD(f)'s null-window tests. The answer is the last completed iteration's.

use std::time::{Duration, Instant};

use rand::Rng;

use super::Searcher;
use super::root::{RootMove, RootPass, sort_root};
use crate::engine::result::SearchResult;
use crate::engine::score::{self, INFINITY, MARGIN_UNIT};
use crate::engine::tree::{Bound, NodeKind, SearchObserver};
use crate::engine::{Evaluator, Game, Scoring};

/// First aspiration half-width, in score units (half a stone or box in margin games).
const ASPIRATION_DELTA: i32 = MARGIN_UNIT / 2;
/// Past this half-width the window opens fully.
const ASPIRATION_MAX: i32 = 64 * MARGIN_UNIT;
/// An iteration is not started once this share of the time is spent (the next one would
/// most likely not finish: each iteration costs more than all earlier ones together). Not
/// earlier: a partial iteration still counts when it finds a better root move, and time a
/// move is given is lost when unused (0.75 rather than 0.5 won 63 - 57 in a Gomoku match;
/// 0.9 with a 40 ms brain margin scored 30 of 120 against Rapfi where 0.75 with 50 ms scored
/// 25, docs/performance.md "Wave 13").
const SOFT_TIME_SHARE: f64 = 0.9;
/// With a target time ([`crate::engine::limits::Limits::target`], a match clock): the share
/// of it after which no iteration is started while the best move holds. Rapfi's time control
/// (search/timecontrol.cpp), whose other constants these are, scales its optimum by 0.544
/// when its value does not fall and up to 1.5 when it falls fast (its "falling factor");
/// without that signal here the share sits between, so that games of 20 - 25 moves a side
/// after the opening (as against Rapfi) do not leave half the clock unused. The share grows by
/// `1 + 2 * changes` for a best move that keeps changing and falls by [`STABLE_REDUCTION`]
/// for each iteration the best move held.
const TARGET_SHARE: f64 = 0.8;
/// Each iteration the best move held reduces the target by this share of it.
const STABLE_REDUCTION: f64 = 0.0125;
/// The best-move changes counted for the target fade by this factor every iteration.
const CHANGES_FADE: f64 = 0.5;
/// With a target time and one root move (a four to block, a single defence, one legal move)
/// no iteration can change the answer: none is started once this share of the target is
/// spent (the earlier ones give the value and line to show). Only with a target: at a fixed
/// time a move the time saved is lost, and searching the one move deep warms the table for
/// the next move (tried at a fixed time and taken back, docs/performance.md "Wave 40").
const SINGLE_MOVE_SHARE: f64 = 0.05;

/// The share of the time limit past which no iteration of `depth` moves is started when a
/// target is set: the deeper, the less, since each iteration costs more than all earlier ones
/// together (Rapfi's `timeDivisor`: 1 / (1.25 + 0.02 * depth^1.4), 0.57 at depth 10, 0.39 at
/// depth 20).
fn iteration_cap(depth: u32) -> f64 {
    1.0 / (1.25 + 0.02 * f64::from(depth).powf(1.4))
}

/// When an iteration may still be started: the time a move of the match clock aims for.
#[derive(Debug, Default)]
struct TargetClock {
    /// Best-move changes between iterations, fading by [`CHANGES_FADE`] each iteration.
    changes: f64,
    /// The depth at which the best move last changed.
    changed_at: u32,
}

impl TargetClock {
    /// After an iteration of `depth` that chose a new best move or not, with `moves` root
    /// moves: the time past which the next iteration is not started, for `target` and the
    /// hard `limit`.
    fn after(
        &mut self,
        depth: u32,
        changed: bool,
        moves: usize,
        target: Duration,
        limit: Duration,
    ) -> Duration {
        self.changes *= CHANGES_FADE;
        if changed {
            if depth > 1 {
                self.changes += 1.0;
            }
            self.changed_at = depth;
        }
        if moves == 1 {
            return target.mul_f64(SINGLE_MOVE_SHARE);
        }
        let held = f64::from(depth - self.changed_at);
        let share = TARGET_SHARE * (1.0 + 2.0 * self.changes) / (1.0 + STABLE_REDUCTION * held);
        target
            .mul_f64(share)
            .min(limit.mul_f64(iteration_cap(depth)))
    }
}

impl<G, E, O> Searcher<'_, G, E, O>
where
    G: Game,
    E: Evaluator<G>,
    O: SearchObserver<G::Move>,
{
    /// Iterative deepening from depth 1 to the depth limit, the time limit or a proven root.
    pub(super) fn iterate(
        &mut self,
        game: &mut G,
        rng: &mut impl Rng,
        started: Instant,
    ) -> SearchResult<G::Move> {
        self.ordering.new_search();
        // Buffers for every ply the deepest iteration can reach, made once: no node checks.
        self.plies
            .ensure(2 * self.settings.limits.max_depth().max(1) as usize + 2);
        if let Some(outcome) = game.outcome() {
            self.stats.nodes += 1;
            self.stats.terminals += 1;
            self.observer.begin_iteration(0);
            self.observer
                .enter(None, 0, game.to_move(), -INFINITY, INFINITY);
            let value = score::terminal::<G>(outcome, game.to_move(), 0);
            self.observer.leave(value, Bound::Exact, 0);
            return SearchResult::game_over(value, self.stats);
        }
        let mut root = self.initial_root_moves(game);
        let max_depth = self.settings.limits.max_depth().max(1);
        let mut answer: Option<SearchResult<G::Move>> = None;
        let mut previous = 0;
        let mut target_clock = TargetClock::default();
        // A solve first searches a few shallow iterations, for MTD(f)'s first guess and the
        // table's best moves (they cost a fraction of the proof and save it whole passes),
        // then goes straight to the end.
        let depths: Vec<u32> = if self.settings.solve {
            (1..G::SOLVE_GUESS_DEPTH.min(max_depth))
                .chain(std::iter::once(max_depth))
                .collect()
        } else {
            (1..=max_depth).collect()
        };
        for depth in depths {
            let nodes_before = self.stats.nodes;
            self.ply_limit = 2 * depth as usize;
            let pass = if self.settings.solve && depth == max_depth {
                self.converge(game, depth, previous, &mut root)
            } else {
                self.aspirate(game, depth, previous, &mut root)
            };
            match pass {
                RootPass::Done {
                    value,
                    ties,
                    height,
                } => {
                    let mut ties = ties;
                    ties.sort_by_key(|&i| root[i].order);
                    let pick = if ties.len() > 1 {
                        ties[rng.random_range(0..ties.len())]
                    } else {
                        ties.first().copied().unwrap_or(0)
                    };
                    let tied: Vec<G::Move> = ties.iter().map(|&i| root[i].mv).collect();
                    let mut pv = root[pick].pv.clone();
                    self.extend_pv(game, &mut pv, depth as usize);
                    let mut stats = self.stats;
                    stats.depth = depth;
                    stats.iteration_nodes = self.stats.nodes - nodes_before;
                    stats.elapsed = started.elapsed();
                    let result = SearchResult {
                        best: Some(root[pick].mv),
                        value,
                        pv,
                        ties: tied,
                        stats,
                        completed: true,
                    };
                    // The chosen move leads the next iteration; the rest by this one's values.
                    let changed = answer.as_ref().is_none_or(|a| a.best != result.best);
                    let chosen = root.remove(pick);
                    root.insert(0, chosen);
                    sort_root(&mut root);
                    previous = value;
                    if let Some(reporter) = &mut self.reporter {
                        reporter.answer(result.clone());
                    }
                    answer = Some(result);
                    if height.is_some() {
                        // Proven: deeper iterations would return the same value.
                        break;
                    }
                    if score::is_decisive(value)
                        && (score::WIN - value.abs()) as u32 <= depth
                        && G::SCORING == Scoring::WinLoss
                    {
                        // A forced win or loss found within this depth stays one at every
                        // greater depth of the same tree (also with a candidate limit,
                        // which the proof above does not count as proven).
                        break;
                    }
                    if let Some(limit) = self.time_limit() {
                        let soft = match self.settings.limits.target {
                            Some(target) if !self.settings.solve => {
                                target_clock.after(depth, changed, root.len(), target, limit)
                            }
                            _ => limit.mul_f64(SOFT_TIME_SHARE),
                        };
                        if started.elapsed() > soft {
                            break;
                        }
                    }
                }
                RootPass::Stopped { best } => {
                    // A partial iteration counts only with a fully searched better move.
                    if let Some((i, value)) = best {
                        let improves = answer.as_ref().is_none_or(|a| {
                            a.best != Some(root[i].mv) && i > 0 && value > root[0].value
                        });
                        if improves {
                            let mut pv = root[i].pv.clone();
                            self.extend_pv(game, &mut pv, depth as usize);
                            let mut stats = self.stats;
                            stats.depth = depth - 1;
                            answer = Some(SearchResult {
                                best: Some(root[i].mv),
                                value,
                                pv,
                                ties: vec![root[i].mv],
                                stats,
                                completed: false,
                            });
                        }
                    }
                    break;
                }
                RootPass::FailLow(_) | RootPass::FailHigh(_) => break,
            }
        }
        // Stopped before any root move was searched: any legal move beats none.
        let mut result =
            answer.unwrap_or_else(|| SearchResult::fallback(root.first().map(|r| r.mv), false));
        let (depth, iteration_nodes) = (result.stats.depth, result.stats.iteration_nodes);
        result.stats = self.stats;
        result.stats.depth = depth;
        result.stats.iteration_nodes = iteration_nodes;
        if self.stopped && self.control.stop.is_raised() {
            result.completed = false;
        }
        result
    }

    /// One iteration with aspiration windows: a narrow window around the previous value,
    /// widened on the side that failed, until the value falls inside.
    fn aspirate(
        &mut self,
        game: &mut G,
        depth: u32,
        previous: i32,
        root: &mut [RootMove<G::Move>],
    ) -> RootPass {
        let (mut low, mut high) = (-INFINITY, INFINITY);
        let mut delta = ASPIRATION_DELTA;
        if self.settings.aspiration && depth > 1 && !score::is_decisive(previous) {
            low = previous - delta;
            high = previous + delta;
        }
        let mut kind = if low > -INFINITY || high < INFINITY {
            NodeKind::Aspiration
        } else {
            NodeKind::Search
        };
        loop {
            self.observer.label_next(kind);
            kind = NodeKind::AspirationRetry;
            let pass = self.root_pass(game, depth, low, high, root);
            delta = delta.saturating_mul(4);
            let open = delta > ASPIRATION_MAX;
            match pass {
                RootPass::FailLow(_) => {
                    low = if open { -INFINITY } else { previous - delta };
                }
                RootPass::FailHigh(_) => {
                    high = if open { INFINITY } else { previous + delta };
                    // The move that failed high goes first in the next pass.
                    sort_root(root);
                }
                other => return other,
            }
        }
    }

    /// One iteration by null-window tests (MTD(f), Plaat et al. 1996): each pass asks "is
    /// the value at least `beta`?" and moves a bound to the fail-soft answer, until the
    /// bounds meet; a last pass with a window around the value then finds the exact ties.
    fn converge(
        &mut self,
        game: &mut G,
        depth: u32,
        guess: i32,
        root: &mut [RootMove<G::Move>],
    ) -> RootPass {
        let (mut lower, mut upper) = score::margin_range(game).unwrap_or((-INFINITY, INFINITY));
        let mut guess = guess.clamp(lower, upper);
        while lower < upper {
            self.stats.solve_bounds = Some((lower, upper));
            let beta = if guess == lower { guess + 1 } else { guess };
            self.observer.label_next(NodeKind::NullTest);
            match self.root_pass(game, depth, beta - 1, beta, root) {
                RootPass::FailLow(value) => {
                    upper = value;
                    guess = value;
                }
                RootPass::FailHigh(value) => {
                    lower = value;
                    guess = value;
                    sort_root(root);
                }
                other => return other,
            }
        }
        self.stats.solve_bounds = Some((lower, upper));
        self.root_pass(game, depth, lower - 1, lower + 1, root)
    }

    fn time_limit(&self) -> Option<Duration> {
        self.settings.limits.time
    }

    /// Lengthens a principal variation cut short by table hits, following the table's best
    /// moves while they are legal, up to `limit` moves.
    fn extend_pv(&self, game: &G, pv: &mut Vec<G::Move>, limit: usize) {
        let Some(table) = self.table else {
            return;
        };
        let mut position = game.clone();
        for &mv in pv.iter() {
            position.play(mv);
        }
        let mut moves = Vec::new();
        while pv.len() < limit {
            let Some(index) = table.probe(position.hash()).and_then(|e| e.best) else {
                break;
            };
            position.legal_moves(&mut moves);
            let Some(&mv) = moves
                .iter()
                .find(|&&m| position.table_move_index(m) == usize::from(index))
            else {
                break;
            };
            position.play(mv);
            pv.push(mv);
        }
    }
}
