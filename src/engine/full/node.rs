//! The node search: negamax with a window, principal variation search, the transposition
//! table (probe, cut-off and store, with node-relative values) and move ordering.

use super::{POLL_INTERVAL, Searcher};
use crate::engine::ordering::{PickList, move_key};
use crate::engine::ply::{child_depth, child_key, search_child};
use crate::engine::score::{self, INFINITY, MARGIN_UNIT, WIN_THRESHOLD};
use crate::engine::tree::{Bound, NodeKind, SearchObserver};
use crate::engine::tt::Entry;
use crate::engine::{Evaluator, Game, Neglect, Scoring};

impl<G, E, O> Searcher<'_, G, E, O>
where
    G: Game,
    E: Evaluator<G>,
    O: SearchObserver<G::Move>,
{
    /// The value of `game` after `mv`, from the mover's side, for ordering: the child's
    /// outcome or static evaluation.
    fn static_key(&mut self, game: &mut G, mv: G::Move, ply: usize) -> i32 {
        child_key(game, mv, ply, self.evaluator, &mut self.stats)
    }

    /// The moves of the node at `ply` other than `searched` (a move already searched), with
    /// their ordering keys, in a [`PickList`] that hands them out best first. The static part
    /// of a key is the game's cheap hint where it has one, else the evaluation of each child;
    /// the latter is skipped one move above the horizon, where the children are evaluated as
    /// leaves anyway and sorting them first would evaluate each twice without saving a
    /// single leaf.
    fn pick_list(
        &mut self,
        game: &mut G,
        ply: usize,
        depth: u32,
        tt_move: Option<u16>,
        searched: Option<G::Move>,
    ) -> PickList<G::Move> {
        let mut moves = std::mem::take(&mut self.plies.moves[ply]);
        self.generate(game, ply, depth, &mut moves);
        if let Some(done) = searched {
            moves.retain(|&mv| mv != done);
        }
        let mut list = PickList::new(std::mem::take(&mut self.plies.keyed[ply]));
        let mut switches = self.switches;
        switches.static_eval &= G::ORDER_HINTS || depth > 1;
        let any = switches.static_eval
            || (switches.tt_move && tt_move.is_some())
            || switches.killers
            || switches.history;
        if moves.len() < 2 || !any {
            for &mv in &moves {
                list.push(0, mv);
            }
            self.plies.moves[ply] = moves;
            return list;
        }
        let killers = self.ordering.killers(ply);
        let mover = game.to_move();
        let orientation = game.table_orientation();
        let signed = self.signed_history();
        // Once the table's move has been searched it is not in the list: nothing to find.
        let tt_move = tt_move.filter(|_| searched.is_none());
        for &mv in &moves {
            let index = game.move_index(mv);
            let static_key = if !switches.static_eval {
                0
            } else if signed {
                game.order_hint(mv) + self.ordering.stat(mover, index) / G::HISTORY_PER_HINT
            } else if G::ORDER_HINTS {
                game.order_hint(mv)
            } else {
                self.static_key(game, mv, ply)
            };
            let is_tt_move = tt_move
                .is_some_and(|t| usize::from(t) == game.table_move_index_in(orientation, mv));
            let key = move_key(
                switches,
                is_tt_move,
                index,
                killers,
                static_key,
                self.ordering.history(mover, index),
            );
            list.push(key, mv);
        }
        self.plies.moves[ply] = moves;
        list
    }

    /// Whether the signed history is added to the game's ordering hints
    /// ([`crate::engine::Game::HISTORY_PER_HINT`]): only where the game asks for it and the
    /// settings order moves and keep a history.
    fn signed_history(&self) -> bool {
        G::ORDER_HINTS
            && G::HISTORY_PER_HINT != 0
            && self.switches.static_eval
            && self.switches.history
    }

    /// The moves of the node at `ply`, best-looking first (see [`Self::pick_list`]).
    pub(super) fn ordered_moves(
        &mut self,
        game: &mut G,
        ply: usize,
        depth: u32,
        tt_move: Option<u16>,
    ) -> Vec<G::Move> {
        let mut list = self.pick_list(game, ply, depth, tt_move, None);
        let mut moves = std::mem::take(&mut self.plies.moves[ply]);
        moves.clear();
        list.drain_into(&mut moves);
        self.plies.keyed[ply] = list.into_buffer();
        moves
    }

    /// The table's move, when it may be searched before the others are generated: the
    /// ordering asks for it and the game knows it legal.
    ///
    /// Under a candidate limit too: the table keeps the best of the moves searched in this
    /// position, so its move was a candidate here, unless the position was reached by
    /// another move order and the game's ranking looks at the path (Gomoku's nearness to the
    /// last move), where it is still a good move to try. A cut-off by it then saves ranking
    /// the candidates: 12 % of a Gomoku search's instructions, for trees that differ by
    /// under 0.1 % of their nodes (docs/performance.md, "Wave 15").
    fn table_move_first(&self, game: &G, tt_move: Option<u16>) -> Option<G::Move> {
        let index = tt_move?;
        if !self.switches.tt_move {
            return None;
        }
        game.table_move(
            game.table_orientation(),
            usize::from(index),
            self.settings.solve,
        )
    }

    pub(super) fn child(
        &mut self,
        game: &mut G,
        mv: G::Move,
        depth: u32,
        ply: usize,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        // A solve counts one ply per move: its shallow iterations only guess, and were
        // measured that way.
        let count_passes = self.settings.count_passes && !self.settings.solve;
        // The child's table entry is on its way while the move is played (nodes at the
        // horizon do not probe the table).
        if depth >= 2
            && let Some(table) = self.table
            && let Some(hash) = game.hash_after(mv)
        {
            table.prefetch(hash);
        }
        search_child(game, mv, alpha, beta, |game, alpha, beta, kept| {
            let below = child_depth(depth, kept, count_passes);
            let value = self.node(game, mv, below, ply + 1, alpha, beta);
            // Heights count plies of depth: the skipped turn is one more.
            if kept && count_passes && below + 2 == depth {
                self.height = self.height.map(|h| h + 1);
            }
            value
        })
    }

    /// Searches `mv` after a first move: with PVS a null window at `low` first, and the
    /// window `[low, beta]` only when the move reaches above `low`.
    pub(super) fn sibling(
        &mut self,
        game: &mut G,
        mv: G::Move,
        depth: u32,
        ply: usize,
        low: i32,
        beta: i32,
    ) -> i32 {
        if !self.settings.pvs {
            return self.child(game, mv, depth, ply, low, beta);
        }
        self.observer.label_next(NodeKind::NullWindow);
        self.next_cut = !self.is_cut_node(ply);
        let value = self.child(game, mv, depth, ply, low, low + 1);
        if value > low && value < beta && !self.stopped {
            self.observer.label_next(NodeKind::ReSearch);
            self.child(game, mv, depth, ply, low, beta)
        } else {
            value
        }
    }

    /// How many plies shallower the move at `index` (0-based, in search order) of a node
    /// `depth` moves from the horizon is tried first (late move reductions), if at all: only
    /// in a playing search that limits its candidates, which is not exact anyway, never in
    /// one that must agree with minimax. An expected cut node's late moves are reduced
    /// [`super::CUT_NODE_REDUCTION`] plies more.
    fn reduction(&self, depth: u32, index: usize, ply: usize) -> Option<u32> {
        if !self.settings.reductions
            || self.settings.candidates == 0
            || self.settings.solve
            || depth < super::REDUCE_FROM_DEPTH
            || index < super::UNREDUCED_MOVES
        {
            return None;
        }
        let more = if self.is_cut_node(ply) {
            super::CUT_NODE_REDUCTION
        } else {
            0
        };
        Some((super::reduction_plies(depth, index) + more).min(depth - 1))
    }

    /// Whether the node at `ply` is an expected cut node ([`PlyStack::cut`]); the root never
    /// is.
    fn is_cut_node(&self, ply: usize) -> bool {
        self.plies.cut.get(ply).copied().unwrap_or(false)
    }

    /// How many moves a node `depth` moves from the horizon searches before it leaves the
    /// rest out (late move pruning; `usize::MAX`: all of them). Only in a playing search that
    /// limits its candidates, only in a null-window test (a node off the principal variation,
    /// whose answer only has to say whether it beats `alpha`), and only one to three moves
    /// from the horizon, where a late move of the ranked candidates rarely changes that
    /// answer and its subtree costs as much as an early one's.
    fn late_moves_kept(&self, depth: u32, alpha: i32, beta: i32) -> usize {
        if !self.settings.pruning || !self.prunes_heuristically(alpha, beta) {
            return usize::MAX;
        }
        super::PRUNING_KEEPS
            .get(depth as usize)
            .copied()
            .unwrap_or(usize::MAX)
    }

    /// Distraction pruning ([`Neglect::is_distraction`]): a null-window test of a playing
    /// search that limits its candidates, fewer than [`super::DISTRACTION_DEPTH`] moves from
    /// the horizon, leaves out a move that ignores a threat far from the play, once a move
    /// has been searched and has not lost. Switched with late move pruning.
    fn distraction(&self, game: &G, mv: G::Move, depth: u32, (alpha, beta): (i32, i32)) -> bool {
        self.settings.pruning
            && depth < super::DISTRACTION_DEPTH
            && self.prunes_heuristically(alpha, beta)
            && game.neglect(mv).is_some_and(Neglect::is_distraction)
    }

    /// Whether a node with this window may be pruned by heuristics that can be wrong (late
    /// move pruning, reverse futility pruning): only a null-window test of a playing search
    /// that limits its candidates, never an exact one or a solve.
    fn prunes_heuristically(&self, alpha: i32, beta: i32) -> bool {
        self.settings.candidates > 0 && !self.settings.solve && beta == alpha + 1
    }

    /// Reverse futility pruning: the static value of a null-window test `depth` moves from
    /// the horizon, when it is above `beta` by the evaluator's margin for that depth
    /// ([`Evaluator::futility_margin`]) and the side to move has no threat to answer. The
    /// node then fails high with that value, unsearched: below such nodes the search rarely
    /// falls under beta, and near the horizon they are the most numerous.
    fn futility_cut(&mut self, game: &G, depth: u32, alpha: i32, beta: i32) -> Option<i32> {
        if !self.settings.futility || !self.prunes_heuristically(alpha, beta) {
            return None;
        }
        let value = score::evaluate(self.evaluator, game);
        let margin = self.evaluator.futility_margin(depth, value)?;
        if value - margin < beta || self.must_answer_threat(game) {
            return None;
        }
        Some(value)
    }

    /// Singular extensions (a playing search's node at least [`super::SINGULAR_FROM_DEPTH`]
    /// moves from the horizon): when the table's value of its move `mv` is a lower bound
    /// (or exact) from a search nearly as deep, the node is searched without that move, at
    /// half its depth, against that value less a margin ([`super::SINGULAR_MARGIN`] a move
    /// of depth). If every other move stays below it, `mv` is the only good move here and is
    /// searched one ply deeper ([`Singular::Extend`]); if another move reaches it and that
    /// is at least `beta`, two moves beat beta and the node fails high unsearched
    /// ([`Singular::Cut`], "multi-cut"). Forced lines (a win or loss in the value) are left
    /// alone: the threat searches prove those.
    fn singular(
        &mut self,
        game: &mut G,
        mv: G::Move,
        entry: &Entry,
        (depth, ply): (u32, usize),
        beta: i32,
    ) -> Singular {
        if !self.settings.singular
            || self.settings.candidates == 0
            || self.settings.solve
            || depth < super::SINGULAR_FROM_DEPTH
            || ply + depth as usize >= self.ply_limit
            || !matches!(entry.bound, Bound::Lower | Bound::Exact)
            || entry.depth + super::SINGULAR_TABLE_SLACK < depth
        {
            return Singular::No;
        }
        let value = value_from_table(entry.value, game, ply);
        if value.abs() >= WIN_THRESHOLD {
            return Singular::No;
        }
        let bar = value - super::SINGULAR_MARGIN * depth as i32;
        self.stats.singular_tests += 1;
        let outer = self.excluded.replace((ply, mv));
        self.observer.label_next(NodeKind::SingularTest);
        self.next_cut = self.is_cut_node(ply);
        let reached = self.node(game, mv, (depth - 1) / 2, ply, bar - 1, bar);
        self.excluded = outer;
        if self.stopped {
            Singular::No
        } else if reached < bar {
            Singular::Extend
        } else if bar >= beta {
            Singular::Cut(bar)
        } else {
            Singular::No
        }
    }

    /// Whether the side to move must answer a threat ([`Game::forced_replies`]): its few
    /// answers are never pruned.
    fn must_answer_threat(&mut self, game: &G) -> bool {
        let mut replies = std::mem::take(&mut self.plies.forced);
        game.forced_replies(&mut replies);
        let forced = !replies.is_empty();
        self.plies.forced = replies;
        forced
    }

    /// Searches the move at `index` (after the first) as [`Self::sibling`] does, except that
    /// a late move ([`Self::reduction`]) is first tested with a null window at a smaller
    /// depth, and searched to the full depth only when that test says it beats `low`.
    pub(super) fn late_sibling(
        &mut self,
        game: &mut G,
        mv: G::Move,
        (depth, ply, index): (u32, usize, usize),
        low: i32,
        beta: i32,
    ) -> i32 {
        let Some(less) = self.reduction(depth, index, ply) else {
            return self.sibling(game, mv, depth, ply, low, beta);
        };
        let less = (less + super::neglect_plies(game.neglect(mv))).min(depth - 1);
        self.stats.reductions += 1;
        self.observer.label_next(NodeKind::Reduced);
        self.next_cut = true;
        let value = self.child(game, mv, depth - less, ply, low, low + 1);
        if value > low && !self.stopped {
            self.stats.reduction_re_searches += 1;
            self.sibling(game, mv, depth, ply, low, beta)
        } else {
            value
        }
    }

    /// Starts loading every child's table bucket and exact value, so that the probes of the
    /// enhanced transposition cut-off and of the children's own nodes find them in the
    /// cache ([`Game::prefetch_children`]): in a Kalah solve with an endgame database those
    /// misses, one after another, were two thirds of the time (docs/performance.md,
    /// "Wave 29").
    fn prefetch_children(&mut self, game: &mut G, ply: usize, depth: u32) {
        let Some(table) = self.table else {
            return;
        };
        let mut moves = std::mem::take(&mut self.plies.moves[ply]);
        self.generate(game, ply, depth, &mut moves);
        for &mv in &moves {
            let undo = game.play(mv);
            table.prefetch(game.hash());
            game.prefetch_exact();
            game.undo(mv, undo);
        }
        self.plies.moves[ply] = moves;
    }

    /// Enhanced transposition cut-off: a child whose table entry (or endgame value) already
    /// proves the node's value at least `beta`, found before any child is searched. Returns
    /// that value, its height and the move's table index.
    fn lookahead_cut(
        &mut self,
        game: &mut G,
        depth: u32,
        ply: usize,
        beta: i32,
    ) -> Option<(i32, Option<u32>, usize)> {
        let table = self.table?;
        let mut moves = std::mem::take(&mut self.plies.moves[ply]);
        self.generate(game, ply, depth, &mut moves);
        let mover = game.to_move();
        let mut found = None;
        for &mv in &moves {
            let index = game.table_move_index(mv);
            let undo = game.play(mv);
            let same = game.to_move() == mover;
            // The child's value from its own mover's side, as a bound, with its height.
            let known = if let Some(outcome) = game.outcome() {
                Some((
                    score::terminal::<G>(outcome, game.to_move(), ply as u32 + 1),
                    Bound::Exact,
                    Some(0),
                ))
            } else if let Some(exact) = game.exact_value() {
                Some((exact * MARGIN_UNIT, Bound::Exact, Some(0)))
            } else {
                // The bound that can prove the node at least `beta`: the child's lower bound
                // when the mover moves again, else its upper bound.
                let wanted = if same { Bound::Lower } else { Bound::Upper };
                let useful = |entry: &Entry| {
                    let applies = if entry.proven {
                        entry.depth < depth
                    } else {
                        entry.depth + 1 == depth
                    };
                    applies && (entry.bound == Bound::Exact || entry.bound == wanted)
                };
                // The two entries by hand: an iterator chain here cost more than the probe.
                table.probe_bounds(game.hash()).and_then(|stored| {
                    let entry = if useful(&stored.first) {
                        stored.first
                    } else {
                        stored.second.filter(useful)?
                    };
                    Some((
                        value_from_table(entry.value, game, ply + 1),
                        entry.bound,
                        entry.proven.then_some(entry.depth),
                    ))
                })
            };
            game.undo(mv, undo);
            let Some((value, bound, height)) = known else {
                continue;
            };
            let (value, lower) = if same {
                (value, matches!(bound, Bound::Exact | Bound::Lower))
            } else {
                (-value, matches!(bound, Bound::Exact | Bound::Upper))
            };
            if lower && value >= beta {
                found = Some((value, height.map(|h| h + 1), index));
                break;
            }
        }
        self.plies.moves[ply] = moves;
        found
    }

    /// The value of a position at the horizon, for its side to move, with the kind of that
    /// value and how many forced replies a cut-off left unsearched. When the side to move
    /// must answer a threat ([`Game::forced_replies`]) and `plies` are left, a playing search
    /// asks the game's threat search for a quick forced win and, failing that, searches the
    /// forced replies (a quiescence search: no stand-pat, since any other move loses;
    /// recorded as [`NodeKind::Quiescence`] nodes). Otherwise the position is evaluated, and
    /// a playing search asks for a quick forced win only when that value is below `beta`
    /// ([`super::LEAF_WIN_BELOW_BETA`]).
    fn horizon(
        &mut self,
        game: &mut G,
        ply: usize,
        alpha: i32,
        beta: i32,
        plies: u32,
    ) -> (i32, Bound, u32) {
        self.stats.leaf_evals += 1;
        let playing = G::THREATS && self.settings.candidates > 0;
        let leaf_threats = super::LEAF_THREATS && playing;
        let leaf_win = |game: &mut G| {
            let win = game.leaf_forced_win()?;
            Some((score::WIN - (ply as i32 + win as i32), Bound::Exact, 0))
        };
        let mut replies = Vec::new();
        if plies > 0 && playing {
            game.forced_replies(&mut replies);
        }
        if replies.is_empty() {
            let value = score::evaluate(self.evaluator, game);
            if leaf_threats
                && (value < beta || !super::LEAF_WIN_BELOW_BETA)
                && let Some(won) = leaf_win(game)
            {
                return won;
            }
            return (value, Bound::Exact, 0);
        }
        if leaf_threats && let Some(won) = leaf_win(game) {
            return won;
        }
        let mut best = -INFINITY;
        let mut low = alpha;
        let mut searched = 0;
        for &mv in &replies {
            self.stats.nodes += 1;
            searched += 1;
            let value = search_child(game, mv, low, beta, |game, alpha, beta, _| {
                self.observer.label_next(NodeKind::Quiescence);
                self.observer
                    .enter(Some(mv), 0, game.to_move(), alpha, beta);
                let (value, bound, skipped) = match game.outcome() {
                    Some(outcome) => (
                        score::terminal::<G>(outcome, game.to_move(), ply as u32 + 1),
                        Bound::Exact,
                        0,
                    ),
                    None => self.horizon(game, ply + 1, alpha, beta, plies - 1),
                };
                self.observer.leave(value, bound, skipped);
                value
            });
            best = best.max(value);
            low = low.max(value);
            if low >= beta {
                break;
            }
        }
        let skipped = (replies.len() - searched) as u32;
        (best, Bound::of(best, alpha, beta), skipped)
    }

    /// Negamax with a window: the value of `game` for its side to move, `depth` moves deep.
    fn node(
        &mut self,
        game: &mut G,
        mv: G::Move,
        depth: u32,
        ply: usize,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        self.stats.nodes += 1;
        // Expected to fail high: a null-window node its parent marked so (see
        // [`super::CUT_NODE_REDUCTION`]); a node with a wider window is on the principal
        // variation.
        let cut_node = std::mem::take(&mut self.next_cut) && beta == alpha + 1;
        if let Some(cut) = self.plies.cut.get_mut(ply) {
            *cut = cut_node;
        }
        if self.stats.nodes.is_multiple_of(POLL_INTERVAL) {
            self.poll();
        }
        if self.stopped {
            self.height = None;
            return 0;
        }
        // A singular test of this node ([`Self::singular`]) searches it without its table
        // move `mv`: the same position, recorded without a move. No table entry answers it
        // (they are the node's, with that move), and it stores none.
        let excluded = self
            .excluded
            .take_if(|&mut (at, _)| at == ply)
            .map(|(_, mv)| mv);
        self.observer.enter(
            excluded.is_none().then_some(mv),
            depth,
            game.to_move(),
            alpha,
            beta,
        );
        self.plies.pv[ply].clear();
        if let Some(outcome) = game.outcome() {
            self.stats.terminals += 1;
            let value = score::terminal::<G>(outcome, game.to_move(), ply as u32);
            self.height = Some(0);
            self.observer.leave(value, Bound::Exact, 0);
            return value;
        }
        if ply as u32 > self.stats.max_ply {
            self.stats.max_ply = ply as u32;
        }
        if G::SCORING == Scoring::Margin
            && let Some(exact) = game.exact_value()
        {
            // The game knows this position's value (an endgame database): exact at any
            // depth, so proven with height 0, and nothing to search or store.
            self.stats.endgame_hits += 1;
            let value = exact * MARGIN_UNIT;
            self.height = Some(0);
            self.observer.leave(value, Bound::Exact, 0);
            return value;
        }
        if depth == 0 {
            // Nothing is stored at depth 0 (a proven entry there would be a finished game).
            let (value, bound, skipped) =
                self.horizon(game, ply, alpha, beta, super::QUIESCENCE_PLIES);
            self.height = None;
            self.observer.leave(value, bound, skipped);
            return value;
        }
        if let Some((lowest, highest)) = score::margin_range(game) {
            // Every unbanked point to one side or the other bounds the value: prune when the
            // whole range lies outside the window. Proven: it holds at any depth.
            let cut = if highest <= alpha {
                Some((highest, Bound::Upper))
            } else if lowest >= beta {
                Some((lowest, Bound::Lower))
            } else {
                None
            };
            if let Some((value, bound)) = cut {
                self.stats.bound_cutoffs += 1;
                self.height = Some(0);
                self.observer.range_cut();
                self.observer.leave(value, bound, 0);
                return value;
            }
        }
        let hash = game.hash();
        let mut tt_move = None;
        let mut tt_entry = None;
        if excluded.is_none()
            && let Some(table) = self.table
            && let Some(stored) = table.probe_bounds(hash)
        {
            self.stats.tt_hits += 1;
            tt_move = stored.best();
            tt_entry = stored.first.best.is_some().then_some(stored.first);
            // A search that limits its candidates is not exact anyway: there an entry from a
            // deeper search answers too, the better estimate (see the module docs).
            let deeper_applies = self.settings.candidates > 0;
            for entry in stored.entries() {
                let applies = if entry.proven {
                    entry.depth <= depth
                } else {
                    entry.depth == depth || (deeper_applies && entry.depth > depth)
                };
                if !applies {
                    continue;
                }
                let value = value_from_table(entry.value, game, ply);
                let cuts = match entry.bound {
                    Bound::Exact => true,
                    Bound::Lower => value >= beta,
                    Bound::Upper => value <= alpha,
                };
                if cuts {
                    self.stats.tt_cutoffs += 1;
                    self.height = entry.proven.then_some(entry.depth);
                    self.observer.tt_hit(entry.depth);
                    self.observer.leave(value, entry.bound, 0);
                    return value;
                }
            }
        }
        if self.settings.solve
            && depth > 1
            && let Some(table) = self.table
            && game.prefetch_children(table.bytes())
        {
            self.prefetch_children(game, ply, depth);
        }
        if self.settings.solve
            && depth > 1
            && game.transposition_lookahead()
            && let Some((value, height, index)) = self.lookahead_cut(game, depth, ply, beta)
        {
            // Enhanced transposition cut-off: stored as the cut-off of a search would be.
            self.stats.tt_cutoffs += 1;
            if let Some(table) = self.table {
                table.store(
                    hash,
                    Entry {
                        value: value_to_table(value, game, ply),
                        bound: Bound::Lower,
                        depth: height.unwrap_or(depth),
                        proven: height.is_some(),
                        best: Some(index as u16),
                    },
                );
            }
            self.height = height;
            self.observer.tt_hit(height.unwrap_or(depth));
            self.observer.leave(value, Bound::Lower, 0);
            return value;
        }
        if excluded.is_none()
            && let Some(value) = self.futility_cut(game, depth, alpha, beta)
        {
            // Not stored: a bound from the evaluation, not from a search to this depth.
            self.stats.futility_cuts += 1;
            self.height = None;
            self.observer.futility_cut();
            self.observer.leave(value, Bound::Lower, 0);
            return value;
        }
        let mover = game.to_move();
        let mut best = -INFINITY;
        let mut best_move = None;
        let mut low = alpha;
        // Candidate limits skip legal moves: nothing searched with them is proven.
        let mut height = (self.settings.candidates == 0).then_some(0);
        // The moves searched so far on this thread, the first of them first; the move that
        // cut off, if one did.
        let mut searched = 0;
        let mut first = None;
        let mut cut = None;
        // Late moves left out by late move pruning, and moves left out by distraction
        // pruning.
        let mut pruned = 0;
        let mut distracted = 0;
        let signed = self.signed_history();
        if signed {
            self.ordering.clear_tried(ply);
        }
        // Stage 1: the table's move, before any other move is generated.
        let early = self.table_move_first(game, tt_move);
        let mut extension = 0;
        if let (Some(mv), Some(entry)) = (early, tt_entry) {
            match self.singular(game, mv, &entry, (depth, ply), beta) {
                Singular::Extend => extension = 1,
                Singular::Cut(value) => {
                    self.stats.singular_cuts += 1;
                    self.height = None;
                    self.observer.leave(value, Bound::Lower, 0);
                    return value;
                }
                Singular::No => {}
            }
        }
        if let Some(mv) = early {
            if extension > 0 {
                self.stats.extensions += 1;
                self.observer.label_next(NodeKind::Extended);
            }
            self.next_cut = !cut_node;
            let value = self.child(game, mv, depth + extension, ply, low, beta);
            if !self.stopped {
                searched = 1;
                first = Some(mv);
                height = height.zip(self.height).map(|(h, c)| h.max(c + 1));
                best = value;
                best_move = Some(mv);
                if signed {
                    self.ordering.push_tried(ply, game.move_index(mv));
                }
                self.plies.pv.update(ply, mv);
                low = low.max(value);
                if low >= beta {
                    cut = Some(mv);
                }
            }
        }
        // Stage 2: the others, ordered as far as they are reached. With several threads,
        // they are shared among them once the first move has not cut off.
        let mut total = searched;
        if cut.is_none() && !self.stopped {
            let mut list = self.pick_list(game, ply, depth, tt_move, early.or(excluded));
            total += list.len();
            let split = excluded.is_none() && self.can_split(depth, total);
            let keep = self.late_moves_kept(depth, alpha, beta);
            while !(split && searched == 1) {
                if searched >= keep && best > -WIN_THRESHOLD && !self.must_answer_threat(game) {
                    // Late move pruning: the moves still in the list are left out.
                    pruned = list.remaining() as u32;
                    break;
                }
                let Some(mv) = list.pick() else {
                    break;
                };
                if searched > 0
                    && best > -WIN_THRESHOLD
                    && self.distraction(game, mv, depth, (alpha, beta))
                {
                    // Distraction pruning: this move is left out.
                    distracted += 1;
                    continue;
                }
                let value = if searched == 0 {
                    self.next_cut = !cut_node;
                    self.child(game, mv, depth, ply, low, beta)
                } else {
                    self.late_sibling(game, mv, (depth, ply, searched), low, beta)
                };
                if self.stopped {
                    break;
                }
                searched += 1;
                first = first.or(Some(mv));
                height = height.zip(self.height).map(|(h, c)| h.max(c + 1));
                if signed {
                    self.ordering.push_tried(ply, game.move_index(mv));
                }
                if value > best {
                    best = value;
                    best_move = Some(mv);
                    self.plies.pv.update(ply, mv);
                    low = low.max(value);
                }
                if low >= beta {
                    cut = Some(mv);
                    break;
                }
            }
            if split
                && cut.is_none()
                && !self.stopped
                && let Some(first) = first
            {
                let mut moves = std::mem::take(&mut self.plies.moves[ply]);
                moves.clear();
                moves.push(first);
                list.drain_into(&mut moves);
                let start = best.max(alpha);
                let mut results = self.split(game, depth, ply, &moves, (start, alpha, beta, false));
                results.sort_by_key(|r| r.index);
                // The first move's value is exact or a lower bound; so far nothing is only an
                // upper bound.
                let mut best_is_upper = false;
                for r in results {
                    height = height.zip(r.height).map(|(h, c)| h.max(c + 1));
                    // A move that failed low under a floor raised by another thread is at
                    // most that floor: it may equal the best value without being as good, so
                    // it never displaces a move that reached the value.
                    let is_upper = r.value <= r.floor;
                    if r.value > best || (r.value == best && best_is_upper && !is_upper) {
                        best_is_upper = is_upper;
                        best = r.value;
                        best_move = Some(moves[r.index]);
                        self.plies.pv[ply].clone_from(&r.pv);
                        low = low.max(r.value);
                    }
                    if low >= beta {
                        cut = Some(moves[r.index]);
                        searched = r.index + 1;
                        break;
                    }
                }
                self.plies.moves[ply] = moves;
            }
            self.plies.keyed[ply] = list.into_buffer();
        } else if O::RECORDS && cut.is_some() {
            // The record says how many moves a cut-off skipped: count them (only when
            // recording, since not generating them is the point).
            let mut moves = std::mem::take(&mut self.plies.moves[ply]);
            self.generate(game, ply, depth, &mut moves);
            total = moves.len().max(1);
            self.plies.moves[ply] = moves;
        }
        if pruned > 0 {
            self.stats.pruned += u64::from(pruned);
            self.observer.pruned(pruned);
        }
        if distracted > 0 {
            self.stats.pruned += u64::from(distracted);
            self.observer.distracted(distracted);
        }
        if signed
            && !self.stopped
            && best > alpha
            && let Some(mv) = best_move
        {
            // The moves shared with other threads ([`Self::split`]) are not in this thread's
            // list: only the ones it searched before the split lose.
            let index = game.move_index(mv);
            self.ordering.record_best(mover, index, ply, depth);
        }
        let mut skipped = 0;
        if let Some(mv) = cut {
            self.stats.cutoffs += 1;
            if self.switches.killers || self.switches.history {
                let index = game.move_index(mv);
                self.ordering.record_cutoff(mover, index, ply, depth);
            }
            skipped = total.saturating_sub(searched) as u32;
        }
        let bound = Bound::of(best, alpha, beta);
        if self.stopped || excluded.is_some() {
            self.height = None;
        } else {
            if let Some(table) = self.table {
                table.store(
                    hash,
                    Entry {
                        value: value_to_table(best, game, ply),
                        bound,
                        depth: height.unwrap_or(depth),
                        proven: height.is_some(),
                        best: best_move.map(|mv| game.table_move_index(mv) as u16),
                    },
                );
            }
            self.height = height;
        }
        self.observer.leave(best, bound, skipped);
        best
    }
}

/// What a singular test ([`Searcher::singular`]) decided for a node.
enum Singular {
    /// No test, or the table's move is not singular.
    No,
    /// The table's move is singular: search it one ply deeper.
    Extend,
    /// Another move too reaches beta: the node fails high with this value.
    Cut(i32),
}

/// A value as the table keeps it: relative to the node (see the docs of [`super`]).
#[inline]
fn value_to_table<G: Game>(value: i32, game: &G, ply: usize) -> i32 {
    match G::SCORING {
        Scoring::Margin => value - game.banked() * game.to_move().sign() * MARGIN_UNIT,
        Scoring::WinLoss => {
            if value > WIN_THRESHOLD {
                value + ply as i32
            } else if value < -WIN_THRESHOLD {
                value - ply as i32
            } else {
                value
            }
        }
    }
}

/// The inverse of [`value_to_table`] at the node where the entry is used.
#[inline]
fn value_from_table<G: Game>(stored: i32, game: &G, ply: usize) -> i32 {
    match G::SCORING {
        Scoring::Margin => stored + game.banked() * game.to_move().sign() * MARGIN_UNIT,
        Scoring::WinLoss => {
            if stored > WIN_THRESHOLD {
                stored - ply as i32
            } else if stored < -WIN_THRESHOLD {
                stored + ply as i32
            } else {
                stored
            }
        }
    }
}
