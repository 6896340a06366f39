//! The main search: principal-variation alpha-beta with hash cutoffs, razoring,
//! reverse futility, null move, singular extensions, late-move pruning and reductions, check extensions,
//! and the move-ordering statistics it updates.

use super::{Frame, Worker};
use crate::eval::Evaluator;
use crate::history::piece_to;
use crate::movepick::{is_bad_capture_score, see_ge, MovePicker, OrderContext};
use crate::score::*;
use crate::tt::Bound;
use rules::repetition::natural_limit_reached;
use rules::{Move, Piece};
use std::sync::atomic::Ordering;

impl<'a, E: Evaluator> Worker<'a, E> {
    pub(super) fn search(
        &mut self,
        mut alpha: i32,
        mut beta: i32,
        depth: i32,
        ply: usize,
        cut_node: bool,
    ) -> i32 {
        if depth <= 0 {
            return self.qsearch(alpha, beta, ply);
        }
        let pv_node = beta - alpha > 1;
        self.pv_len[ply] = ply;
        self.count_node();
        if self.aborted() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if let Some(v) = self.repetition_value(ply) {
            return v;
        }
        if natural_limit_reached(&self.pos, &self.shared.options.natural_limit) {
            self.path_events += 1;
            return self.draw_value(self.pos.side_to_move());
        }
        if self.no_attacking_material() {
            // A dead draw: a property of the position alone, so it may be stored.
            return self.draw_value(self.pos.side_to_move());
        }
        if ply >= MAX_PLY {
            return self.eval.evaluate(&self.pos);
        }
        // Mate-distance pruning.
        alpha = alpha.max(mated_in(ply));
        beta = beta.min(mate_in(ply + 1));
        if alpha >= beta {
            return alpha;
        }

        let events_at_entry = self.path_events;
        let key = self.pos.key();
        let in_check = self.pos.in_check();
        // A singular-extension search of this node without one move: it must not
        // take the node's own hash entry as its answer, nor store one.
        let excluded = self.stack[ply].excluded;
        let tt_hit = self.shared.tt.probe(key);
        let mut tt_move = Move::NULL;
        if let Some(h) = tt_hit {
            if !h.mv.is_null() && self.pos.is_legal(h.mv) {
                tt_move = h.mv;
            }
            if !pv_node && excluded.is_null() && h.depth >= depth && h.bound != Bound::None {
                let v = from_tt(h.score, ply);
                let usable = match h.bound {
                    Bound::Exact => true,
                    Bound::Lower => v >= beta,
                    Bound::Upper => v <= alpha,
                    Bound::None => false,
                };
                if usable {
                    return v;
                }
            }
        }

        let raw_eval = if in_check {
            -INF
        } else if !excluded.is_null() {
            self.stack[ply].static_eval
        } else if let Some(h) = tt_hit {
            h.eval
        } else {
            self.eval.evaluate(&self.pos)
        };
        let static_eval = raw_eval;
        self.stack[ply].static_eval = static_eval;
        let improving = !in_check && ply >= 2 && static_eval > self.stack[ply - 2].static_eval;
        let us = self.pos.side_to_move();

        // Whether the opponent is nearly out of moves (asked lazily, once a node).
        let mut cramped = None;
        if !pv_node && !in_check && excluded.is_null() {
            // Razoring: hopeless at low depth, check with quiescence.
            if depth <= self.p.razor_depth
                && static_eval + self.p.razor_margin * depth < alpha
                && alpha < RULE_BOUND
                && !self.opponent_cramped(&mut cramped)
            {
                let v = self.qsearch(alpha - 1, alpha, ply);
                if v < alpha {
                    return v;
                }
            }
            // Reverse futility.
            if depth <= self.p.rfp_depth
                && static_eval - self.p.rfp_margin * (depth - improving as i32) >= beta
                && static_eval < RULE_BOUND
                && beta > -RULE_BOUND
                // A side without a legal move (困毙) has lost, whatever it owns.
                && self.pos.has_legal_move()
            {
                return static_eval;
            }
            // Null move.
            let prev_null = ply >= 1 && self.stack[ply - 1].mv.is_null();
            if depth >= self.p.nmp_depth
                && !prev_null
                && static_eval >= beta
                && beta > -RULE_BOUND
                && self.has_attacking_pieces(us)
                && self.pos.has_legal_move()
            {
                let r = self.p.nmp_base
                    + depth / self.p.nmp_depth_div.max(1)
                    + ((static_eval - beta) / self.p.nmp_eval_div.max(1)).min(self.p.nmp_eval_max);
                self.stack[ply].mv = Move::NULL;
                self.stack[ply].piece = None;
                self.eval.on_null();
                self.pos.make_null_move();
                let v = -self.search(-beta, -beta + 1, depth - r, ply + 1, !cut_node);
                self.pos.unmake_move();
                self.eval.on_unmake();
                if self.aborted() {
                    return 0;
                }
                if v >= beta {
                    return if v >= RULE_BOUND { beta } else { v };
                }
            }
        }

        // Internal iterative reduction: without a hash move this node was not
        // searched before, so search it shallower first.
        let depth = if tt_move.is_null()
            && excluded.is_null()
            && depth >= self.p.iir_depth
            && (pv_node || cut_node)
        {
            depth - 1
        } else {
            depth
        };

        // Near the root, leave a mark that this thread searches this node; a node
        // another thread is already searching is reduced more (less duplicated work).
        let crumb = self.shared.crumb(key, ply);
        let mut owns_crumb = false;
        let mut marked = false;
        if let Some(c) = crumb {
            let holder = c.thread.load(Ordering::Relaxed);
            if holder == 0 {
                c.key.store(key, Ordering::Relaxed);
                c.thread.store(self.id + 1, Ordering::Relaxed);
                owns_crumb = true;
            } else if holder != self.id + 1 && c.key.load(Ordering::Relaxed) == key {
                marked = true;
            }
        }

        let frame_ctx = |f: Frame| f.piece.map(|p| piece_to(p, f.mv));
        let ctx = OrderContext {
            prev: if ply >= 1 {
                let f = self.stack[ply - 1];
                f.piece.map(|p| (p, f.mv))
            } else {
                None
            },
            cont: [
                if ply >= 1 {
                    frame_ctx(self.stack[ply - 1])
                } else {
                    None
                },
                if ply >= 2 {
                    frame_ctx(self.stack[ply - 2])
                } else {
                    None
                },
            ],
        };
        let shared = self.shared;
        let mut picker = MovePicker::new(tt_move)
            .prefetching(shared.tt)
            .ordered_by(&shared.capture_order);
        let mut best = -INF;
        let mut best_move = Move::NULL;
        let mut move_count = 0usize;
        let mut quiets_tried: [Move; 64] = [Move::NULL; 64];
        let mut n_quiets = 0;
        let mut captures_tried: [Move; 32] = [Move::NULL; 32];
        let mut n_captures = 0;
        let lmp_limit = (self.p.lmp_base + depth * depth) as usize / if improving { 1 } else { 2 };

        while let Some(m) = picker.next(&self.pos, self.hist, ply, &ctx) {
            if m == excluded {
                continue;
            }
            let victim = self.pos.piece_at(m.to());
            let mover = match self.pos.piece_at(m.from()) {
                Some(p) => p,
                None => continue,
            };
            let is_capture = victim.is_some();
            move_count += 1;
            let r = self.reductions.get(depth, move_count);
            let lmr_depth = (depth - 1 - r).max(0);
            let prunable = best > -RULE_BOUND && !in_check && move_count > 1;

            if prunable {
                if is_capture {
                    if depth <= self.p.see_capture_depth
                        && !see_ge(&self.pos, m, -self.p.see_capture * depth)
                    {
                        continue;
                    }
                } else {
                    if move_count > lmp_limit
                        && depth <= self.p.lmp_depth
                        && !self.opponent_cramped(&mut cramped)
                    {
                        // Every later quiet would be pruned here too: drop them from
                        // the picker, but count them, so that the losing captures that
                        // follow them keep their move numbers (same tree, less work).
                        move_count += picker.skip_quiets(&self.pos, self.hist, &ctx);
                        continue;
                    }
                    if lmr_depth <= self.p.see_quiet_depth
                        && !see_ge(&self.pos, m, -self.p.see_quiet * lmr_depth * lmr_depth)
                        && !self.opponent_cramped(&mut cramped)
                    {
                        continue;
                    }
                }
            }

            // Singular extension: when every other move fails well below the hash
            // move's score, the hash move is forced and searched deeper; when even
            // without it the node beats beta, it is cut at once (multi-cut).
            let mut singular = 0;
            if m == tt_move
                && excluded.is_null()
                && ply > 0
                && depth >= self.p.se_depth
                && (ply as i32) < 2 * self.root_depth
            {
                if let Some(h) = tt_hit.filter(|h| {
                    h.depth >= depth - self.p.se_tt_depth
                        && matches!(h.bound, Bound::Lower | Bound::Exact)
                        && !is_decisive(from_tt(h.score, ply))
                }) {
                    let tt_score = from_tt(h.score, ply);
                    let s_beta = tt_score - self.p.se_margin * depth / 100;
                    self.stack[ply].excluded = m;
                    let v = self.search(s_beta - 1, s_beta, (depth - 1) / 2, ply, cut_node);
                    self.stack[ply].excluded = Move::NULL;
                    if self.aborted() {
                        return 0;
                    }
                    if v < s_beta {
                        self.stats.singular_extensions += 1;
                        singular = 1 + (!pv_node && v < s_beta - self.p.se_double) as i32;
                    } else if s_beta >= beta {
                        self.stats.multi_cuts += 1;
                        return s_beta;
                    } else if tt_score >= beta {
                        singular = -1;
                    }
                }
            }

            self.make(m, ply);
            let gives_check = self.pos.in_check();
            if prunable
                && !is_capture
                && !gives_check
                && lmr_depth <= self.p.futility_max_depth
                && static_eval + self.p.futility_base + self.p.futility_depth * lmr_depth <= alpha
                && alpha < RULE_BOUND
                // A move that leaves the opponent without a legal move (困毙) wins.
                && (self.p.cramped_moves == 0 || self.pos.has_legal_move())
            {
                self.unmake();
                continue;
            }
            let extension = if singular != 0 {
                singular
            } else {
                (gives_check && (ply as i32) < 2 * self.root_depth) as i32
            };
            let new_depth = depth - 1 + extension;

            let mut v;
            if move_count == 1 {
                v = -self.search(-beta, -alpha, new_depth, ply + 1, !pv_node && !cut_node);
            } else {
                let mut reduction = 0;
                if depth >= 3 && move_count > 1 + pv_node as usize {
                    reduction = r;
                    if is_capture && !is_bad_capture_score(picker.last_score()) {
                        reduction /= 2;
                    }
                    if pv_node {
                        reduction -= 1;
                    }
                    if cut_node {
                        reduction += 1;
                    }
                    if !improving {
                        reduction += 1;
                    }
                    if gives_check {
                        reduction -= 1;
                    }
                    if marked {
                        reduction += 1;
                    }
                    if !is_capture {
                        reduction -= (self.hist.quiet(us, m) + self.hist.cont(&ctx.cont, mover, m))
                            / self.p.lmr_history_div.max(1);
                    }
                    reduction = reduction.clamp(0, new_depth - 1);
                }
                v = -self.search(-alpha - 1, -alpha, new_depth - reduction, ply + 1, true);
                if v > alpha && reduction > 0 {
                    v = -self.search(-alpha - 1, -alpha, new_depth, ply + 1, !cut_node);
                }
                if pv_node && v > alpha && v < beta {
                    v = -self.search(-beta, -alpha, new_depth, ply + 1, false);
                }
            }
            self.unmake();
            if self.aborted() {
                if owns_crumb {
                    if let Some(c) = crumb {
                        c.thread.store(0, Ordering::Relaxed);
                    }
                }
                return 0;
            }

            if v > best {
                best = v;
                if v > alpha {
                    best_move = m;
                    if pv_node {
                        self.update_pv(ply, m);
                    }
                    alpha = v;
                    if v >= beta {
                        self.update_stats(
                            m,
                            mover,
                            victim,
                            ply,
                            depth,
                            &ctx,
                            &quiets_tried[..n_quiets],
                            &captures_tried[..n_captures],
                        );
                        break;
                    }
                }
            }
            if m != best_move {
                if is_capture {
                    if n_captures < captures_tried.len() {
                        captures_tried[n_captures] = m;
                        n_captures += 1;
                    }
                } else if n_quiets < quiets_tried.len() {
                    quiets_tried[n_quiets] = m;
                    n_quiets += 1;
                }
            }
        }

        if owns_crumb {
            if let Some(c) = crumb {
                c.thread.store(0, Ordering::Relaxed);
            }
        }
        if move_count == 0 {
            // Only the excluded move: the singular search fails low.
            if !excluded.is_null() {
                return alpha;
            }
            // No legal move: checkmate or stalemate, both lost in xiangqi.
            return mated_in(ply);
        }
        if best == -INF {
            // Every move was pruned; keep a fail-low bound.
            best = alpha;
        }

        let tainted = self.path_events != events_at_entry;
        if !excluded.is_null() {
            return best;
        }
        let bound = if tainted {
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
            if in_check { 0 } else { raw_eval },
            depth,
            bound,
        );
        best
    }

    #[allow(clippy::too_many_arguments)]
    fn update_stats(
        &mut self,
        m: Move,
        mover: Piece,
        victim: Option<Piece>,
        ply: usize,
        depth: i32,
        ctx: &OrderContext,
        quiets: &[Move],
        captures: &[Move],
    ) {
        let (bonus, malus) = (self.p.history_bonus(depth), self.p.history_malus(depth));
        let us = self.pos.side_to_move();
        if let Some(v) = victim {
            self.hist.update_capture(mover, m, v.kind, bonus);
        } else {
            self.hist.add_killer(ply, m);
            if let Some((pp, pm)) = ctx.prev {
                self.hist.set_counter(pp, pm, m);
            }
            self.hist.update_quiet(us, m, bonus);
            self.hist.update_cont(&ctx.cont, mover, m, bonus);
            for &q in quiets {
                self.hist.update_quiet(us, q, -malus);
                if let Some(p) = self.pos.piece_at(q.from()) {
                    self.hist.update_cont(&ctx.cont, p, q, -malus);
                }
            }
        }
        for &c in captures {
            if let (Some(p), Some(v)) = (self.pos.piece_at(c.from()), self.pos.piece_at(c.to())) {
                self.hist.update_capture(p, c, v.kind, -malus);
            }
        }
    }
}
