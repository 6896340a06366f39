//! The main search, principal-variation alpha-beta, in numbered steps: `search` is
//! the spine, and each step that decides something is a function of its own below
//! it, in the order the spine calls them.

use super::{CrumbGuard, Frame, Worker};
use crate::eval::Evaluator;
use crate::history::piece_to;
use crate::movepick::{is_bad_capture_score, see_ge, MovePicker, OrderContext};
use crate::score::*;
use crate::tt::{Bound, TtHit};
use rules::{Move, Piece};
use std::sync::atomic::Ordering;

/// What the steps of one node share, fixed at its entry (but the depth, which
/// internal iterative reduction may cut by one).
struct Node {
    ply: usize,
    depth: i32,
    pv: bool,
    cut: bool,
    /// The move a singular-extension search of this node leaves out (null
    /// otherwise): such a search neither takes the node's hash entry as its
    /// answer nor stores one.
    excluded: Move,
    tt: Option<TtHit>,
    /// The evaluation as the table keeps it (`-INF` in check).
    static_eval: i32,
    improving: bool,
    /// `path_events` at entry: a score that met a repetition or the move limit
    /// below is stored as no bound.
    events_at_entry: u64,
    /// Whether the opponent is nearly out of moves (asked lazily, once a node).
    cramped: Option<bool>,
    /// Another thread searches this node too (reduce more).
    marked: bool,
}

/// What shallow-depth pruning decides for one move (step 11).
enum Prune {
    Keep,
    Skip,
    /// Skip it and every quiet move after it.
    SkipQuiets,
}

/// The moves searched at a node that did not cut: they get the history malus.
struct Tried {
    quiets: [Move; 64],
    n_quiets: usize,
    captures: [Move; 32],
    n_captures: usize,
}

impl Tried {
    fn new() -> Tried {
        Tried {
            quiets: [Move::NULL; 64],
            n_quiets: 0,
            captures: [Move::NULL; 32],
            n_captures: 0,
        }
    }

    fn push(&mut self, m: Move, capture: bool) {
        if capture {
            if self.n_captures < self.captures.len() {
                self.captures[self.n_captures] = m;
                self.n_captures += 1;
            }
        } else if self.n_quiets < self.quiets.len() {
            self.quiets[self.n_quiets] = m;
            self.n_quiets += 1;
        }
    }
}

impl<'a, E: Evaluator> Worker<'a, E> {
    pub(super) fn search(
        &mut self,
        mut alpha: i32,
        mut beta: i32,
        depth: i32,
        ply: usize,
        cut_node: bool,
    ) -> i32 {
        // Step 1. At the horizon, quiescence.
        if depth <= 0 {
            return self.qsearch(alpha, beta, ply);
        }
        let pv_node = beta - alpha > 1;

        // Step 2. Node entry, shared with quiescence: the node count and the stop,
        // the rule verdicts (repetition, natural move limit, no attacking material)
        // and the ply limit.
        if let Some(v) = self.enter_node(ply, true) {
            return v;
        }

        // Step 3. Mate-distance pruning.
        alpha = alpha.max(mated_in(ply));
        beta = beta.min(mate_in(ply + 1));
        if alpha >= beta {
            return alpha;
        }

        // Step 4. Hash probe: the hash move, and the entry's score where it is deep
        // enough and its bound settles the node.
        let key = self.pos.key();
        let excluded = self.stack[ply].excluded;
        let tt = self.shared.tt.probe(key);
        let tt_move = self.legal_hash_move(tt, false);
        if let Some(h) = tt {
            if !pv_node && excluded.is_null() && h.depth >= depth {
                if let Some(v) = hash_cutoff(&h, alpha, beta, ply) {
                    return v;
                }
            }
        }

        // Step 5. Static evaluation: the table's when it has one; in a singular
        // search, the node's own.
        let in_check = self.pos.in_check();
        let static_eval = if in_check {
            -INF
        } else if !excluded.is_null() {
            self.stack[ply].static_eval
        } else if let Some(h) = tt {
            h.eval
        } else {
            self.eval.evaluate(&self.pos)
        };
        self.stack[ply].static_eval = static_eval;
        let improving = !in_check && ply >= 2 && static_eval > self.stack[ply - 2].static_eval;
        let mut node = Node {
            ply,
            depth,
            pv: pv_node,
            cut: cut_node,
            excluded,
            tt,
            static_eval,
            improving,
            events_at_entry: self.path_events,
            cramped: None,
            marked: false,
        };

        // Steps 6 to 8. Pruning of the whole node, outside PV nodes, check and
        // singular searches: razoring, reverse futility, null move.
        if !pv_node && !in_check && excluded.is_null() {
            if let Some(v) = self.razor(&mut node, alpha) {
                return v;
            }
            if let Some(v) = self.reverse_futility(&node, beta) {
                return v;
            }
            if let Some(v) = self.try_null_move(&node, beta) {
                return v;
            }
        }

        // Step 9. Internal iterative reduction: without a hash move this node was
        // not searched before, so search it shallower first.
        if tt_move.is_null()
            && excluded.is_null()
            && depth >= self.p.iir_depth
            && (pv_node || cut_node)
        {
            node.depth -= 1;
        }

        // Step 10. Near the root, leave a mark that this thread searches this node
        // (released when the node returns, however it returns).
        let (_crumb, marked) = self.leave_crumb(key, ply);
        node.marked = marked;

        // Steps 11 to 16, for each move.
        let ctx = self.order_context(ply);
        let shared = self.shared;
        let mut picker = MovePicker::new(tt_move)
            .prefetching(shared.tt)
            .ordered_by(&shared.capture_order);
        let mut best = -INF;
        let mut best_move = Move::NULL;
        let mut move_count = 0usize;
        let mut tried = Tried::new();
        let depth = node.depth;
        let lmp_limit = (self.p.lmp_base + depth * depth) as usize / if improving { 1 } else { 2 };

        while let Some(m) = picker.next(&self.pos, self.hist, ply, &ctx) {
            if m == excluded {
                continue;
            }
            let victim = self.pos.piece_at(m.to());
            let Some(mover) = self.pos.piece_at(m.from()) else {
                continue;
            };
            let is_capture = victim.is_some();
            move_count += 1;
            let r = self.reductions.get(depth, move_count);
            let lmr_depth = (depth - 1 - r).max(0);
            let prunable = best > -RULE_BOUND && !in_check && move_count > 1;

            // Step 11. Shallow-depth pruning before the move is made: SEE of
            // captures and of quiet moves, late-move pruning.
            if prunable {
                match self.prune_early(&mut node, m, is_capture, lmr_depth, move_count > lmp_limit)
                {
                    Prune::Keep => {}
                    Prune::Skip => continue,
                    Prune::SkipQuiets => {
                        // Every later quiet would be pruned here too: drop them from
                        // the picker, but count them, so that the losing captures that
                        // follow them keep their move numbers (same tree, less work).
                        move_count += picker.skip_quiets(&self.pos, self.hist, &ctx);
                        continue;
                    }
                }
            }

            // Step 12. Singular extension and multi-cut.
            let mut singular = 0;
            if m == tt_move {
                match self.singular(&node, m, beta) {
                    Ok(e) => singular = e,
                    Err(v) => return v,
                }
            }

            // Step 13. Make the move; futility pruning of quiet moves.
            self.make(m, ply);
            let gives_check = self.pos.in_check();
            if prunable && !is_capture && !gives_check && self.futile(&node, lmr_depth, alpha) {
                self.unmake();
                continue;
            }

            // Step 14. Extensions: singular, or check (within twice the root depth).
            let extension = if singular != 0 {
                singular
            } else {
                (gives_check && (ply as i32) < 2 * self.root_depth) as i32
            };
            let new_depth = depth - 1 + extension;

            // Step 15. Search the move: the first with the full window, the others
            // reduced with a null window and searched again as they beat alpha.
            let reduction = if move_count == 1 {
                None
            } else {
                let late = LateMove {
                    number: move_count,
                    base: r,
                    good_capture: is_capture && !is_bad_capture_score(picker.last_score()),
                    quiet: (!is_capture).then_some((mover, m)),
                    gives_check,
                };
                Some(self.reduction(&node, &ctx, &late, new_depth))
            };
            let v = self.pvs(
                (alpha, beta),
                ply + 1,
                new_depth,
                reduction,
                pv_node,
                cut_node,
            );
            self.unmake();
            if self.aborted() {
                return 0;
            }

            // Step 16. A new best move; a cutoff teaches the move-ordering
            // statistics.
            if v > best {
                best = v;
                if v > alpha {
                    best_move = m;
                    if pv_node {
                        self.update_pv(ply, m);
                    }
                    alpha = v;
                    if v >= beta {
                        self.update_stats(m, mover, victim, &node, &ctx, &tried);
                        break;
                    }
                }
            }
            if m != best_move {
                tried.push(m, is_capture);
            }
        }

        // Step 17. No move searched: mate or stalemate (both lost in xiangqi), or a
        // singular search that had only the excluded move.
        if move_count == 0 {
            return if excluded.is_null() {
                mated_in(ply)
            } else {
                alpha
            };
        }
        if best == -INF {
            // Every move was pruned; keep a fail-low bound.
            best = alpha;
        }
        if !excluded.is_null() {
            return best;
        }

        // Step 18. Store the result, as no bound when it met a path-dependent score.
        let bound = if self.path_events != node.events_at_entry {
            Bound::None
        } else if best >= beta {
            Bound::Lower
        } else if pv_node && !best_move.is_null() {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.shared.tt.store(
            key,
            best_move,
            to_tt(best, ply),
            if in_check { 0 } else { static_eval },
            depth,
            bound,
        );
        best
    }

    /// Principal-variation search of one child (`ply` is the child's): with
    /// `reduction` `None` (the first move) the full window; else a null window at
    /// the reduced depth, again at full depth when it beats alpha after a
    /// reduction, and with the full window when it lands inside it in a PV node.
    /// The root searches its moves with this too.
    pub(super) fn pvs(
        &mut self,
        (alpha, beta): (i32, i32),
        ply: usize,
        new_depth: i32,
        reduction: Option<i32>,
        pv_node: bool,
        cut_node: bool,
    ) -> i32 {
        let Some(reduction) = reduction else {
            return -self.search(-beta, -alpha, new_depth, ply, !pv_node && !cut_node);
        };
        let mut v = -self.search(-alpha - 1, -alpha, new_depth - reduction, ply, true);
        if v > alpha && reduction > 0 {
            v = -self.search(-alpha - 1, -alpha, new_depth, ply, !cut_node);
        }
        if pv_node && v > alpha && v < beta {
            v = -self.search(-beta, -alpha, new_depth, ply, false);
        }
        v
    }

    /// Step 6. Razoring: hopeless at low depth, check with quiescence.
    fn razor(&mut self, node: &mut Node, alpha: i32) -> Option<i32> {
        if node.depth <= self.p.razor_depth
            && node.static_eval + self.p.razor_margin * node.depth < alpha
            && alpha < RULE_BOUND
            && !self.opponent_cramped(&mut node.cramped)
        {
            let v = self.qsearch(alpha - 1, alpha, node.ply);
            if v < alpha {
                return Some(v);
            }
        }
        None
    }

    /// Step 7. Reverse futility: an evaluation this far above beta stands.
    fn reverse_futility(&self, node: &Node, beta: i32) -> Option<i32> {
        let margin = self.p.rfp_margin * (node.depth - node.improving as i32);
        (node.depth <= self.p.rfp_depth
            && node.static_eval - margin >= beta
            && node.static_eval < RULE_BOUND
            && beta > -RULE_BOUND
            // A side without a legal move (困毙) has lost, whatever it owns.
            && self.pos.has_legal_move())
        .then_some(node.static_eval)
    }

    /// Step 8. Null move: when passing still beats beta in a reduced search, so
    /// does some move (not with only palace pieces and pawns, where zugzwang is real).
    fn try_null_move(&mut self, node: &Node, beta: i32) -> Option<i32> {
        let ply = node.ply;
        let prev_null = ply >= 1 && self.stack[ply - 1].mv.is_null();
        if node.depth < self.p.nmp_depth
            || prev_null
            || node.static_eval < beta
            || beta <= -RULE_BOUND
            || !self.has_attacking_pieces(self.pos.side_to_move())
            || !self.pos.has_legal_move()
        {
            return None;
        }
        let r = self.p.nmp_base
            + node.depth / self.p.nmp_depth_div.max(1)
            + ((node.static_eval - beta) / self.p.nmp_eval_div.max(1)).min(self.p.nmp_eval_max);
        self.stack[ply].mv = Move::NULL;
        self.stack[ply].piece = None;
        self.eval.on_null();
        self.pos.make_null_move();
        let v = -self.search(-beta, -beta + 1, node.depth - r, ply + 1, !node.cut);
        self.pos.unmake_move();
        self.eval.on_unmake();
        if self.aborted() {
            return Some(0);
        }
        // A mate found after a pass is not proved: it counts as beta.
        (v >= beta).then_some(if v >= RULE_BOUND { beta } else { v })
    }

    /// The ordering context of a node: the moves one and two plies back.
    fn order_context(&self, ply: usize) -> OrderContext {
        let frame_ctx = |f: Frame| f.piece.map(|p| piece_to(p, f.mv));
        let back = |n: usize| (ply >= n).then(|| self.stack[ply - n]);
        OrderContext {
            prev: back(1).and_then(|f| f.piece.map(|p| (p, f.mv))),
            cont: [back(1).and_then(frame_ctx), back(2).and_then(frame_ctx)],
        }
    }

    /// Step 10. The breadcrumb near the root: take the slot when it is free; say
    /// whether another thread holds it for this node.
    fn leave_crumb(&self, key: u64, ply: usize) -> (CrumbGuard<'a>, bool) {
        let shared = self.shared;
        let Some(c) = shared.crumb(key, ply) else {
            return (CrumbGuard(None), false);
        };
        let holder = c.thread.load(Ordering::Relaxed);
        if holder == 0 {
            c.key.store(key, Ordering::Relaxed);
            c.thread.store(self.id + 1, Ordering::Relaxed);
            return (CrumbGuard(Some(c)), false);
        }
        let marked = holder != self.id + 1 && c.key.load(Ordering::Relaxed) == key;
        (CrumbGuard(None), marked)
    }

    /// Step 11. Shallow-depth pruning of a move (not the first, not in check, with
    /// a score to keep): captures that lose too much by SEE; quiet moves past the
    /// late-move count, or losing too much by SEE, unless the opponent is nearly
    /// out of moves.
    fn prune_early(
        &mut self,
        node: &mut Node,
        m: Move,
        is_capture: bool,
        lmr_depth: i32,
        late: bool,
    ) -> Prune {
        let (p, depth) = (&self.p, node.depth);
        if is_capture {
            if depth <= p.see_capture_depth && !see_ge(&self.pos, m, -p.see_capture * depth) {
                return Prune::Skip;
            }
            return Prune::Keep;
        }
        if late && depth <= p.lmp_depth && !self.opponent_cramped(&mut node.cramped) {
            return Prune::SkipQuiets;
        }
        let p = &self.p;
        if lmr_depth <= p.see_quiet_depth
            && !see_ge(&self.pos, m, -p.see_quiet * lmr_depth * lmr_depth)
            && !self.opponent_cramped(&mut node.cramped)
        {
            return Prune::Skip;
        }
        Prune::Keep
    }

    /// Step 12. Singular extension: when every other move fails well below the
    /// hash move's score, the hash move is forced and searched deeper (`Ok(1)`, or
    /// `Ok(2)` far below); when even without it the node beats beta, it is cut at
    /// once (multi-cut, `Err`); when the hash score beats beta anyway, `Ok(-1)`.
    fn singular(&mut self, node: &Node, m: Move, beta: i32) -> Result<i32, i32> {
        let (ply, depth) = (node.ply, node.depth);
        if !node.excluded.is_null()
            || ply == 0
            || depth < self.p.se_depth
            || ply as i32 >= 2 * self.root_depth
        {
            return Ok(0);
        }
        let Some(h) = node.tt.filter(|h| {
            h.depth >= depth - self.p.se_tt_depth
                && matches!(h.bound, Bound::Lower | Bound::Exact)
                && !is_decisive(from_tt(h.score, ply))
        }) else {
            return Ok(0);
        };
        let tt_score = from_tt(h.score, ply);
        let s_beta = tt_score - self.p.se_margin * depth / 100;
        self.stack[ply].excluded = m;
        let v = self.search(s_beta - 1, s_beta, (depth - 1) / 2, ply, node.cut);
        self.stack[ply].excluded = Move::NULL;
        if self.aborted() {
            return Err(0);
        }
        if v < s_beta {
            self.stats.singular_extensions += 1;
            Ok(1 + (!node.pv && v < s_beta - self.p.se_double) as i32)
        } else if s_beta >= beta {
            self.stats.multi_cuts += 1;
            Err(s_beta)
        } else if tt_score >= beta {
            Ok(-1)
        } else {
            Ok(0)
        }
    }

    /// Step 13. Futility (asked after the move, which is quiet and gives no check):
    /// even a margin above the evaluation stays at or below alpha.
    fn futile(&self, node: &Node, lmr_depth: i32, alpha: i32) -> bool {
        lmr_depth <= self.p.futility_max_depth
            && node.static_eval + self.p.futility_base + self.p.futility_depth * lmr_depth
                <= alpha
            && alpha < RULE_BOUND
            // A move that leaves the opponent without a legal move (困毙) wins.
            && (self.p.cramped_moves == 0 || self.pos.has_legal_move())
    }

    /// Step 15. The late-move reduction of a move after the first (asked with the
    /// move made): from the table by depth and move number, less for a good
    /// capture, in PV nodes, for a check and for a quiet move with a good history;
    /// more in cut nodes, when not improving, and where another thread searches.
    fn reduction(&self, node: &Node, ctx: &OrderContext, late: &LateMove, new_depth: i32) -> i32 {
        if node.depth < self.p.lmr_min_depth || late.number <= 1 + node.pv as usize {
            return 0;
        }
        let mut r = late.base;
        if late.good_capture {
            r /= 2;
        }
        r += node.cut as i32 + !node.improving as i32 + node.marked as i32;
        r -= node.pv as i32 + late.gives_check as i32;
        if let Some((mover, m)) = late.quiet {
            // The move is made: the side that played it is the one not to move.
            let us = self.pos.side_to_move().flip();
            r -= (self.hist.quiet(us, m) + self.hist.cont(&ctx.cont, mover, m))
                / self.p.lmr_history_div.max(1);
        }
        r.clamp(0, new_depth - 1)
    }

    /// Step 16. The move `m` cut at this node: reward it (history, killer,
    /// counter-move), and give the moves tried before it the malus.
    fn update_stats(
        &mut self,
        m: Move,
        mover: Piece,
        victim: Option<Piece>,
        node: &Node,
        ctx: &OrderContext,
        tried: &Tried,
    ) {
        let (bonus, malus) = (
            self.p.history_bonus(node.depth),
            self.p.history_malus(node.depth),
        );
        let us = self.pos.side_to_move();
        if let Some(v) = victim {
            self.hist.update_capture(mover, m, v.kind, bonus);
        } else {
            self.hist.add_killer(node.ply, m);
            if let Some((pp, pm)) = ctx.prev {
                self.hist.set_counter(pp, pm, m);
            }
            self.hist.update_quiet(us, m, bonus);
            self.hist.update_cont(&ctx.cont, mover, m, bonus);
            for &q in &tried.quiets[..tried.n_quiets] {
                self.hist.update_quiet(us, q, -malus);
                if let Some(p) = self.pos.piece_at(q.from()) {
                    self.hist.update_cont(&ctx.cont, p, q, -malus);
                }
            }
        }
        for &c in &tried.captures[..tried.n_captures] {
            if let (Some(p), Some(v)) = (self.pos.piece_at(c.from()), self.pos.piece_at(c.to())) {
                self.hist.update_capture(p, c, v.kind, -malus);
            }
        }
    }
}

/// A move after the first, as the reduction sees it.
struct LateMove {
    number: usize,
    /// The table's reduction for the node's depth and this move number.
    base: i32,
    good_capture: bool,
    /// The mover and the move, when quiet (its history counts).
    quiet: Option<(Piece, Move)>,
    gives_check: bool,
}

/// Step 4 of both searches: the score of a hash entry whose bound settles the node
/// (its depth is the caller's to judge).
#[inline]
pub(super) fn hash_cutoff(h: &TtHit, alpha: i32, beta: i32, ply: usize) -> Option<i32> {
    let v = from_tt(h.score, ply);
    let usable = match h.bound {
        Bound::Exact => true,
        Bound::Lower => v >= beta,
        Bound::Upper => v <= alpha,
        Bound::None => false,
    };
    usable.then_some(v)
}
