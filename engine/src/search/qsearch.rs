//! Quiescence: captures (all evasions when in check) until the position is quiet,
//! and the loss of a side left without a legal move.

use super::steps::hash_cutoff;
use super::Worker;
use crate::eval::Evaluator;
use crate::movepick::{see_ge, MovePicker, OrderContext, VICTIM};
use crate::score::*;
use crate::tt::Bound;
use rules::{Move, PieceKind};

impl<'a, E: Evaluator> Worker<'a, E> {
    pub(super) fn qsearch(&mut self, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        let pv_node = beta - alpha > 1;
        // Node entry as in the main search, without the natural move limit.
        // Evasions are quiet moves, so lines of checks answered by checks can
        // cycle here too: without the repetition verdict such a line only ends at
        // the ply limit, and the subtree of mutual checks below one position can
        // grow past any node budget before the first iteration ends.
        if let Some(v) = self.enter_node(ply, false) {
            return v;
        }
        let events_at_entry = self.path_events;
        let key = self.pos.key();
        let in_check = self.pos.in_check();
        let tt_hit = self.shared.tt.probe(key);
        // Any entry is deep enough here.
        if let Some(h) = tt_hit.filter(|_| !pv_node) {
            if let Some(v) = hash_cutoff(&h, alpha, beta, ply) {
                return v;
            }
        }
        let tt_move = self.legal_hash_move(tt_hit, !in_check);

        let (raw_eval, static_eval);
        let mut best;
        if in_check {
            raw_eval = 0;
            static_eval = -INF;
            best = -INF;
        } else {
            raw_eval = match tt_hit {
                Some(h) => h.eval,
                None => self.eval.evaluate(&self.pos),
            };
            static_eval = raw_eval;
            best = static_eval;
            if best >= beta {
                // Standing pat assumes a move to stand on: without one we lose (困毙).
                return if self.pos.has_legal_move() {
                    best
                } else {
                    mated_in(ply)
                };
            }
            alpha = alpha.max(best);
        }

        let mut picker =
            MovePicker::new_qsearch(tt_move, in_check).ordered_by(&self.shared.capture_order);
        let mut best_move = Move::NULL;
        let mut move_count = 0;
        while let Some(m) = picker.next(&self.pos, self.hist, ply, &OrderContext::default()) {
            move_count += 1;
            if !in_check {
                let victim = match self.pos.piece_at(m.to()) {
                    Some(v) => v,
                    None => continue,
                };
                if static_eval + VICTIM[victim.kind.index()] + self.p.qs_delta <= alpha
                    && victim.kind != PieceKind::King
                {
                    continue;
                }
                if !see_ge(&self.pos, m, 0) {
                    continue;
                }
            }
            self.make(m, ply);
            let v = -self.qsearch(-beta, -alpha, ply + 1);
            self.unmake();
            if self.aborted() {
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
                        break;
                    }
                }
            }
        }
        // No capture was generated (any would prove a legal move): when in check or
        // when no quiet move exists either, the side to move has lost.
        if move_count == 0 && (in_check || !self.pos.has_legal_move()) {
            return mated_in(ply);
        }
        // A score that met a rule verdict below depends on the path: keep no bound.
        let bound = if self.path_events != events_at_entry {
            Bound::None
        } else if best >= beta {
            Bound::Lower
        } else {
            Bound::Upper
        };
        self.shared
            .tt
            .store(key, best_move, to_tt(best, ply), raw_eval, 0, bound);
        best
    }
}
