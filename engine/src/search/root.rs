//! Iterative deepening over the root moves: aspiration windows, MultiPV, the
//! helper threads' depth schedule, and the root move loop.

use super::{Worker, MAX_DEPTH};
use crate::eval::Evaluator;
use crate::score::*;
use crate::tt::Bound;
use std::sync::atomic::Ordering;

impl<'a, E: Evaluator> Worker<'a, E> {
    /// Iterative deepening. `on_iteration` runs after each completed iteration and
    /// says whether to go on (the main thread's time and info logic lives there).
    pub fn iterate(&mut self, max_depth: i32, on_iteration: &mut dyn FnMut(&Worker<E>) -> bool) {
        const SKIP_SIZE: [i32; 20] = [1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4];
        const SKIP_PHASE: [i32; 20] = [0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7];
        let max_depth = max_depth.clamp(1, MAX_DEPTH);
        for depth in 1..=max_depth {
            if self.id > 0 && depth > 1 && depth < max_depth {
                let i = (self.id - 1) % 20;
                if ((depth + SKIP_PHASE[i]) / SKIP_SIZE[i]) % 2 == 1 {
                    continue;
                }
            }
            self.root_depth = depth;
            for rm in self.root_moves.iter_mut() {
                if rm.score > -INF {
                    rm.prev_score = rm.score;
                }
                rm.score = -INF;
            }
            let lines = self.multipv.min(self.root_moves.len());
            for pv_idx in 0..lines {
                self.pv_idx = pv_idx;
                self.seldepth = 0;
                let prev = self.root_moves[pv_idx].prev_score;
                let mut delta =
                    self.p.aspiration_delta + prev.abs() / self.p.aspiration_score_div.max(1);
                let (mut alpha, mut beta) =
                    if depth >= self.p.aspiration_depth && prev > -INF && !is_decisive(prev) {
                        ((prev - delta).max(-INF), (prev + delta).min(INF))
                    } else {
                        (-INF, INF)
                    };
                loop {
                    let v = self.root_search(alpha, beta, depth);
                    self.root_moves[pv_idx..].sort_by_key(|rm| std::cmp::Reverse(rm.score));
                    if self.aborted() {
                        break;
                    }
                    if v <= alpha {
                        beta = (alpha + beta) / 2;
                        alpha = (v - delta).max(-INF);
                    } else if v >= beta {
                        beta = (v + delta).min(INF);
                    } else {
                        break;
                    }
                    delta += delta / 2;
                    if delta > self.p.aspiration_max {
                        alpha = -INF;
                        beta = INF;
                    }
                }
                self.root_moves[..=pv_idx].sort_by_key(|rm| std::cmp::Reverse(rm.score));
                if self.aborted() {
                    break;
                }
            }
            if self.aborted() {
                break;
            }
            self.completed_depth = depth;
            if self.id == 0 {
                self.store_root(depth);
            }
            if !on_iteration(self) {
                break;
            }
        }
        self.shared.nodes[self.id]
            .0
            .store(self.nodes, Ordering::Relaxed);
    }

    /// Keep the root's best move in the table, so that UCCI `probe` of the position
    /// just searched finds it. Its score may rest on repetitions with the game, so it
    /// is stored as no bound (a move and a hint, never a cutoff).
    fn store_root(&mut self, depth: i32) {
        let rm = &self.root_moves[0];
        let eval = self.stack[0].static_eval;
        let eval = if eval == -INF { 0 } else { eval };
        self.shared.tt.store(
            self.pos.key(),
            rm.mv,
            to_tt(rm.score, 0),
            eval,
            depth,
            Bound::None,
        );
    }

    fn root_search(&mut self, mut alpha: i32, beta: i32, depth: i32) -> i32 {
        let mut best = -INF;
        self.count_node();
        self.stack[0].static_eval = if self.pos.in_check() {
            -INF
        } else {
            self.eval.evaluate(&self.pos)
        };
        for i in self.pv_idx..self.root_moves.len() {
            let m = self.root_moves[i].mv;
            let first = i == self.pv_idx;
            if let Some(report) = self.currmove_sink {
                report(m, i + 1, depth);
            }
            // Root noise (Randomness): the move is judged by its score plus `noise`,
            // so its subtree is searched with the window moved by -noise and the
            // bounds stay exact. Without noise, (lo, hi) is (alpha, beta).
            let noise = self.root_moves[i].noise;
            let (lo, hi) = ((alpha - noise).max(-INF), (beta - noise).min(INF));
            self.pv_len[1] = 1;
            self.make(m, 0);
            let check = self.pos.in_check();
            let new_depth = depth - 1 + check as i32;
            // The root's own reduction (no statistics, the first four moves in full),
            // then the same principal-variation search as every PV node's.
            let reduction = (!first).then(|| {
                if depth >= self.p.lmr_min_depth && !check && i > self.pv_idx + 3 {
                    (self.reductions.get(depth, i - self.pv_idx) - 1).max(0)
                } else {
                    0
                }
            });
            let mut v = self.pvs((lo, hi), 1, new_depth, reduction, true, false);
            if noise != 0 && !is_decisive(v) {
                v = (v + noise).clamp(-INF + 1, INF - 1);
            }
            self.unmake();
            if self.aborted() {
                return best;
            }
            if first || v > alpha {
                self.update_pv(0, m);
                let rm = &mut self.root_moves[i];
                rm.score = v;
                rm.seldepth = self.seldepth;
                rm.pv = self.pv[..self.pv_len[0]].to_vec();
            }
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    if v >= beta {
                        break;
                    }
                }
            }
        }
        best
    }
}
