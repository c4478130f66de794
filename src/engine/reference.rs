//! The reference searches over any [`Game`]: plain minimax, which visits every node to the
//! full depth, and alpha-beta in negamax form (fail-soft), with optional move ordering, exact
//! root ties and statistics. Both search to a fixed depth; the tests measure the full engine
//! against them.

use std::time::Instant;

use rand::Rng;

use super::limits::StopFlag;
use super::ply::{PlyStack, child_depth, child_key, search_child};
use super::result::{Reporter, SearchResult};
use super::score::{self, INFINITY};
use super::settings::EngineSettings;
use super::stats::SearchStats;
use super::tree::{Bound, SearchObserver};
use super::{Evaluator, Game};

/// Searches `game` to `settings.limits` depth with plain minimax, or with alpha-beta for any
/// algorithm that prunes, reporting every node to `observer`. `rng`, `stop` and `progress`
/// are as for [`super::api::search`].
pub fn search<G, E, O>(
    game: &G,
    evaluator: &E,
    settings: &EngineSettings,
    rng: &mut impl Rng,
    observer: &mut O,
    stop: &StopFlag,
    progress: &mut dyn FnMut(&SearchResult<G::Move>),
) -> SearchResult<G::Move>
where
    G: Game,
    E: Evaluator<G>,
    O: SearchObserver<G::Move>,
{
    let started = Instant::now();
    let mut searcher = Searcher {
        evaluator,
        settings,
        observer,
        stop,
        reporter: Reporter::new(progress, started),
        stats: SearchStats::default(),
        stopped: false,
        plies: PlyStack::default(),
    };
    // Buffers for every ply, made once: the nodes never check.
    searcher
        .plies
        .ensure(settings.limits.max_depth().max(1) as usize + 2);
    let mut position = game.clone();
    evaluator.prepare(&mut position);
    let mut result = searcher.root(&mut position, rng);
    let searched = result.completed || result.stats.depth > 0;
    result.stats = searcher.stats;
    result.stats.depth = if searched {
        settings.limits.max_depth().max(1)
    } else {
        0
    };
    result.stats.iteration_nodes = result.stats.nodes;
    result.stats.elapsed = started.elapsed();
    searcher.reporter.answer(result.clone());
    result
}

/// One reference search's state: what it reads, its counters and its per-ply buffers.
struct Searcher<'a, G: Game, E, O> {
    evaluator: &'a E,
    settings: &'a EngineSettings,
    observer: &'a mut O,
    stop: &'a StopFlag,
    reporter: Reporter<'a, G::Move>,
    stats: SearchStats,
    stopped: bool,
    /// Move lists keyed by the static evaluation of their child, and the PV table.
    plies: PlyStack<G::Move, i32>,
}

/// How often (in nodes) the stop flag is read.
const STOP_CHECK_INTERVAL: u64 = 1024;

impl<G, E, O> Searcher<'_, G, E, O>
where
    G: Game,
    E: Evaluator<G>,
    O: SearchObserver<G::Move>,
{
    /// Fills the move buffer of `ply`, `depth` moves from the horizon, ordered best-first
    /// when ordering is on.
    fn generate(&mut self, game: &mut G, ply: usize, depth: u32, ordered: bool) -> Vec<G::Move> {
        let mut moves = std::mem::take(&mut self.plies.moves[ply]);
        if self.settings.candidates > 0 {
            game.candidate_moves(&mut moves, self.settings.candidates_at(ply, depth));
        } else {
            game.legal_moves(&mut moves);
        }
        if ordered && moves.len() > 1 {
            let mut keyed = std::mem::take(&mut self.plies.keyed[ply]);
            keyed.clear();
            for &mv in &moves {
                let key = child_key(game, mv, ply, self.evaluator, &mut self.stats);
                keyed.push((key, mv));
            }
            // Stable: equal keys keep move-generation order, so searches stay reproducible.
            keyed.sort_by_key(|&(key, _)| std::cmp::Reverse(key));
            moves.clear();
            moves.extend(keyed.iter().map(|&(_, mv)| mv));
            self.plies.keyed[ply] = keyed;
        }
        moves
    }

    #[inline]
    fn poll_stop(&mut self) {
        if self.stats.nodes.is_multiple_of(STOP_CHECK_INTERVAL) {
            if self.stop.is_raised() {
                self.stopped = true;
            }
            self.reporter.tick(&self.stats);
        }
    }

    /// Searches the child reached by `mv` with the window `[alpha, beta]` seen from the
    /// mover. Returns the child's value from the mover's side.
    fn child(
        &mut self,
        game: &mut G,
        mv: G::Move,
        depth: u32,
        ply: usize,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        let count_passes = self.settings.count_passes;
        search_child(game, mv, alpha, beta, |game, alpha, beta, kept| {
            let below = child_depth(depth, kept, count_passes);
            self.node(game, Some(mv), below, ply + 1, alpha, beta)
        })
    }

    fn root(&mut self, game: &mut G, rng: &mut impl Rng) -> SearchResult<G::Move> {
        let depth = self.settings.limits.max_depth().max(1);
        let prune = self.settings.algorithm.prunes();
        self.stats.nodes += 1;
        self.observer
            .enter(None, depth, game.to_move(), -INFINITY, INFINITY);
        self.plies.pv[0].clear();
        if let Some(outcome) = game.outcome() {
            self.stats.terminals += 1;
            let value = score::terminal::<G>(outcome, game.to_move(), 0);
            self.observer.leave(value, Bound::Exact, 0);
            return SearchResult::game_over(value, SearchStats::default());
        }
        let moves = self.generate(game, 0, depth, prune && self.settings.ordering);
        let mut best = -INFINITY;
        // Each tied move with its own principal variation.
        let mut ties: Vec<(G::Move, Vec<G::Move>)> = Vec::new();
        for &mv in &moves {
            // Alpha one below the best so far keeps a sibling of equal value exact (it
            // returns inside the window) while anything worse fails low: the exact-tie rule.
            let alpha = if !prune || best == -INFINITY {
                -INFINITY
            } else if self.settings.random_ties {
                best - 1
            } else {
                best
            };
            let value = self.child(game, mv, depth, 0, alpha, INFINITY);
            if self.stopped {
                break;
            }
            if value > best {
                best = value;
                self.plies.pv.update(0, mv);
                ties.clear();
                ties.push((mv, self.plies.pv[0].clone()));
                // The best root move so far, for a caller watching the search.
                let mut stats = self.stats;
                stats.depth = depth;
                self.reporter.answer(SearchResult {
                    best: Some(mv),
                    value,
                    pv: self.plies.pv[0].clone(),
                    ties: vec![mv],
                    stats,
                    completed: false,
                });
            } else if value == best && (!prune || self.settings.random_ties) {
                self.plies.pv.update(0, mv);
                ties.push((mv, self.plies.pv[0].clone()));
            }
        }
        self.plies.moves[0] = moves;
        let completed = !self.stopped;
        if ties.is_empty() {
            // Stopped before the first root move finished: any legal move beats none. Its
            // depth stays 0: the value means nothing.
            let first = self.plies.moves[0].first().copied();
            self.observer.leave(0, Bound::Exact, 0);
            return SearchResult::fallback(first, completed);
        }
        let pick = if self.settings.random_ties && ties.len() > 1 {
            rng.random_range(0..ties.len())
        } else {
            0
        };
        self.observer.leave(best, Bound::Exact, 0);
        let (best_move, pv) = ties[pick].clone();
        SearchResult {
            best: Some(best_move),
            value: best,
            pv,
            ties: ties.into_iter().map(|(mv, _)| mv).collect(),
            // A nonzero depth: at least one root move was searched, so the value holds.
            stats: SearchStats {
                depth,
                ..SearchStats::default()
            },
            completed,
        }
    }

    /// Negamax node: the value of `game` for its side to move, `depth` moves deep.
    /// Plain minimax when pruning is off (the window is then ignored).
    fn node(
        &mut self,
        game: &mut G,
        mv: Option<G::Move>,
        depth: u32,
        ply: usize,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        self.stats.nodes += 1;
        self.poll_stop();
        if self.stopped {
            return 0;
        }
        let prune = self.settings.algorithm.prunes();
        let (alpha, beta) = if prune {
            (alpha, beta)
        } else {
            (-INFINITY, INFINITY)
        };
        self.observer.enter(mv, depth, game.to_move(), alpha, beta);
        self.plies.pv[ply].clear();
        if let Some(outcome) = game.outcome() {
            self.stats.terminals += 1;
            let value = score::terminal::<G>(outcome, game.to_move(), ply as u32);
            self.observer.leave(value, Bound::Exact, 0);
            return value;
        }
        if depth == 0 {
            self.stats.leaf_evals += 1;
            let value = score::evaluate(self.evaluator, game);
            self.observer.leave(value, Bound::Exact, 0);
            return value;
        }
        let moves = self.generate(game, ply, depth, prune && self.settings.ordering);
        let mut best = -INFINITY;
        let mut window_low = alpha;
        let mut skipped = 0;
        for (i, &child_move) in moves.iter().enumerate() {
            let value = self.child(game, child_move, depth, ply, window_low, beta);
            if self.stopped {
                break;
            }
            if value > best {
                best = value;
                self.plies.pv.update(ply, child_move);
                if value > window_low {
                    window_low = value;
                }
            }
            if prune && window_low >= beta {
                self.stats.cutoffs += 1;
                skipped = (moves.len() - i - 1) as u32;
                break;
            }
        }
        self.plies.moves[ply] = moves;
        let bound = if prune {
            Bound::of(best, alpha, beta)
        } else {
            Bound::Exact
        };
        self.observer.leave(best, bound, skipped);
        best
    }
}
