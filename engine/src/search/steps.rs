//! The steps of the main search (`alphabeta.rs`) that decide something, each a
//! function, in the order the spine calls them: whole-node pruning (razoring,
//! reverse futility, null move), the breadcrumb, shallow-depth pruning of a move,
//! singular extension, futility, the late-move reduction and the statistics a
//! cutoff teaches.

use super::alphabeta::{MoveInfo, Node, Tried};
use super::{CrumbGuard, Frame, Worker};
use crate::eval::Evaluator;
use crate::history::piece_to;
use crate::movepick::{see_ge, OrderContext};
use crate::score::*;
use crate::tt::{Bound, TtHit};
use rules::Move;
use std::sync::atomic::Ordering;

/// What shallow-depth pruning decides for one move (step 11).
pub(super) enum Prune {
    Keep,
    Skip,
    /// Skip it and every quiet move after it.
    SkipQuiets,
}

impl<'a, E: Evaluator> Worker<'a, E> {
    /// Step 6. Razoring: hopeless at low depth, check with quiescence.
    pub(super) fn razor(&mut self, node: &mut Node, alpha: i32) -> Option<i32> {
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
    pub(super) fn reverse_futility(&self, node: &Node, beta: i32) -> Option<i32> {
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
    /// Only at cut nodes: at a node expected to fail low the pass rarely cuts and
    /// its search is wasted.
    pub(super) fn try_null_move(&mut self, node: &Node, beta: i32) -> Option<i32> {
        let ply = node.ply;
        let prev_null = ply >= 1 && self.stack[ply - 1].mv.is_null();
        if node.depth < self.p.nmp_depth
            || !node.cut
            || prev_null
            || node.static_eval
                < beta.max(beta + self.p.nmp_gate - self.p.nmp_gate_depth * node.depth)
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
        // The node is a cut node, so the pass's reply is an all-node.
        let v = -self.search::<false>(-beta, -beta + 1, node.depth - r, ply + 1, false);
        self.pos.unmake_move();
        self.eval.on_unmake();
        if self.aborted() {
            return Some(0);
        }
        // A mate found after a pass is not proved: it counts as beta.
        (v >= beta).then_some(if v >= RULE_BOUND { beta } else { v })
    }

    /// The ordering context of a node: the moves one and two plies back.
    pub(super) fn order_context(&self, ply: usize) -> OrderContext {
        let frame_ctx = |f: Frame| f.piece.map(|p| piece_to(p, f.mv));
        let back = |n: usize| (ply >= n).then(|| self.stack[ply - n]);
        OrderContext {
            prev: back(1).and_then(|f| f.piece.map(|p| (p, f.mv))),
            cont: [back(1).and_then(frame_ctx), back(2).and_then(frame_ctx)],
        }
    }

    /// Step 10. The breadcrumb near the root: take the slot when it is free; say
    /// whether another thread holds it for this node.
    pub(super) fn leave_crumb(&self, key: u64, ply: usize) -> (CrumbGuard<'a>, bool) {
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
    pub(super) fn prune_early(&mut self, node: &mut Node, mv: &MoveInfo, late: bool) -> Prune {
        let (m, lmr_depth) = (mv.m, mv.lmr_depth);
        let (p, depth) = (&self.p, node.depth);
        if mv.victim.is_some() {
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
    pub(super) fn singular(&mut self, node: &Node, m: Move, beta: i32) -> Result<i32, i32> {
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
        let v = self.search::<false>(s_beta - 1, s_beta, (depth - 1) / 2, ply, node.cut);
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
            Ok(-self.p.se_negative)
        } else {
            Ok(0)
        }
    }

    /// Step 13. Futility of a quiet move (asked before it is made): even a margin
    /// above the evaluation stays at or below alpha, and the move gives no check.
    pub(super) fn futile(&mut self, node: &Node, mv: &MoveInfo, alpha: i32) -> bool {
        let lmr_depth = mv.lmr_depth;
        lmr_depth <= self.p.futility_max_depth
            && node.static_eval + self.p.futility_base + self.p.futility_depth * lmr_depth
                <= alpha
            && alpha < RULE_BOUND
            && !self.pos.gives_check(mv.m)
            // A move that leaves the opponent without a legal move (困毙) wins.
            && (self.p.cramped_moves == 0 || self.leaves_a_move(mv.m))
    }

    /// Does the opponent have a legal move after `m`? (The board alone is made
    /// and taken back: the evaluation need not follow.)
    fn leaves_a_move(&mut self, m: Move) -> bool {
        self.pos.make_move(m);
        // Asked after `gives_check` said no: the board agrees.
        debug_assert!(!self.pos.in_check(), "{m} gives check");
        let any = self.pos.has_legal_move();
        self.pos.unmake_move();
        any
    }

    /// Step 15. The late-move reduction of a move after the first (asked with the
    /// move made): from the table by depth and move number, less for a good
    /// capture, in PV nodes, for a check and for a move with a good history (a
    /// capture's by piece, target and victim; a quiet move's main and continuation);
    /// more in cut nodes, when not improving, and where another thread searches.
    pub(super) fn reduction(
        &self,
        node: &Node,
        ctx: &OrderContext,
        mv: &MoveInfo,
        gives_check: bool,
        new_depth: i32,
    ) -> i32 {
        if node.depth < self.p.lmr_min_depth || mv.number <= 1 + node.pv as usize {
            return 0;
        }
        let mut r = mv.base_r;
        if mv.good_capture {
            r /= 2;
        }
        r += node.cut as i32 * self.p.lmr_cut + !node.improving as i32 + node.marked as i32;
        r -= node.pv as i32 + gives_check as i32;
        if let Some(v) = mv.victim {
            r -= self.hist.capture(mv.mover, mv.m, v.kind) / self.p.lmr_capture_history_div.max(1);
        } else {
            // The move is made: the side that played it is the one not to move.
            let us = self.pos.side_to_move().flip();
            r -= (self.hist.quiet(us, mv.m) + self.hist.cont(&ctx.cont, mv.mover, mv.m))
                / self.p.lmr_history_div.max(1);
        }
        r.clamp(0, new_depth - 1)
    }

    /// Step 16. The move `m` cut at this node: reward it (history, killer,
    /// counter-move), and give the moves tried before it the malus.
    pub(super) fn update_stats(
        &mut self,
        mv: &MoveInfo,
        node: &Node,
        ctx: &OrderContext,
        tried: &Tried,
    ) {
        let (m, mover) = (mv.m, mv.mover);
        let (bonus, malus) = (
            self.p.history_bonus(node.depth),
            self.p.history_malus(node.depth),
        );
        let us = self.pos.side_to_move();
        if let Some(v) = mv.victim {
            self.hist.update_capture(mover, m, v.kind, bonus);
        } else {
            self.hist.add_killer(node.ply, m);
            if let Some((pp, pm)) = ctx.prev {
                self.hist.set_counter(pp, pm, m);
            }
            self.hist.update_quiet(us, m, bonus);
            self.hist.update_cont(&ctx.cont, mover, m, bonus);
            for &q in tried.quiets() {
                self.hist.update_quiet(us, q, -malus);
                if let Some(p) = self.pos.piece_at(q.from()) {
                    self.hist.update_cont(&ctx.cont, p, q, -malus);
                }
            }
        }
        for &c in tried.captures() {
            if let (Some(p), Some(v)) = (self.pos.piece_at(c.from()), self.pos.piece_at(c.to())) {
                self.hist.update_capture(p, c, v.kind, -malus);
            }
        }
    }
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
