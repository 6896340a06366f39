//! The main search, principal-variation alpha-beta, as a spine of numbered steps:
//! `search` opens the node and prunes it whole, `search_moves` runs the move loop
//! (one move: `search_move`), `close_node` scores and stores the result. The steps
//! that decide something are functions in `steps.rs`.
//!
//! The root is a node of this same search (`ROOT`, a constant, so that the other
//! nodes pay nothing for it): it takes no verdict at entry, no hash cutoff and no
//! pruning, searches only the moves of its current line (`root.rs`), and keeps
//! its result in the root moves rather than in the table.

use super::steps::{hash_cutoff, Prune};
use super::{CrumbGuard, Worker};
use crate::eval::Evaluator;
use crate::movepick::{is_bad_capture_score, MovePicker, OrderContext};
use crate::score::*;
use crate::tt::{Bound, TtHit};
use rules::{Move, Piece};

/// What the steps of one node share, fixed when it opens (but the depth, which
/// internal iterative reduction may cut by one).
pub(super) struct Node {
    pub ply: usize,
    pub depth: i32,
    pub pv: bool,
    pub cut: bool,
    pub in_check: bool,
    /// The move a singular-extension search of this node leaves out (null
    /// otherwise): such a search neither takes the node's hash entry as its
    /// answer nor stores one.
    pub excluded: Move,
    pub key: u64,
    pub tt: Option<TtHit>,
    pub tt_move: Move,
    /// The evaluation as the table keeps it (`-INF` in check).
    pub static_eval: i32,
    pub improving: bool,
    /// `path_events` at entry: a score that met a rule win or loss by
    /// repetition, or the move limit, below is stored as no bound.
    pub events_at_entry: u64,
    /// Whether the opponent is nearly out of moves (asked lazily, once a node).
    pub cramped: Option<bool>,
    /// Another thread searches this node too (reduce more).
    pub marked: bool,
}

/// One move of the loop, as the steps after its generation see it.
pub(super) struct MoveInfo {
    pub m: Move,
    pub mover: Piece,
    pub victim: Option<Piece>,
    /// Its number at the node (from 1; skipped quiet moves count).
    pub number: usize,
    /// The table's reduction for the node's depth and this move number.
    pub base_r: i32,
    /// The depth the move would be searched at after that reduction.
    pub lmr_depth: i32,
    /// Shallow-depth pruning may drop it (not the first move, not in check, and
    /// a score to keep).
    pub prunable: bool,
    /// A capture that does not lose material by SEE.
    pub good_capture: bool,
}

/// What the move loop found.
struct Searched {
    best: i32,
    best_move: Move,
    moves: usize,
}

/// The moves searched at a node that did not cut: they get the history malus.
pub(super) struct Tried {
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

    pub fn quiets(&self) -> &[Move] {
        &self.quiets[..self.n_quiets]
    }

    pub fn captures(&self) -> &[Move] {
        &self.captures[..self.n_captures]
    }
}

impl<'a, E: Evaluator> Worker<'a, E> {
    /// The search of one node; `ROOT` for the root (`ply` 0, a PV node), whose
    /// caller is `iterate`.
    pub(super) fn search<const ROOT: bool>(
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
        let pv_node = ROOT || beta - alpha > 1;

        // Step 2. Node entry, shared with quiescence: the node count and the stop,
        // the rule verdicts (repetition, natural move limit, no attacking material)
        // and the ply limit. The root only counts itself: its moves are searched
        // whatever its position repeats (the verdicts judge the lines below it).
        if ROOT {
            self.pv_len[0] = 0;
            self.count_node();
        } else if let Some(v) = self.enter_node(ply, true) {
            return v;
        }

        // Step 3. Mate-distance pruning (no bound to tighten at the root).
        if !ROOT {
            alpha = alpha.max(mated_in(ply));
            beta = beta.min(mate_in(ply + 1));
            if alpha >= beta {
                return alpha;
            }
        }

        // Steps 4 and 5. Hash probe (and cutoff), static evaluation.
        let mut node = match self.open_node::<ROOT>((alpha, beta), depth, ply, pv_node, cut_node) {
            Ok(node) => node,
            Err(v) => return v,
        };

        // Steps 6 to 8. Pruning of the whole node, outside PV nodes, check and
        // singular searches: razoring, reverse futility, null move.
        if !pv_node && !node.in_check && node.excluded.is_null() {
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
        if node.tt_move.is_null()
            && node.excluded.is_null()
            && depth >= self.p.iir_depth
            && (pv_node || cut_node)
        {
            node.depth -= 1;
        }

        // Step 10. Near the root, leave a mark that this thread searches this node
        // (freed when the node returns, by whichever exit). Not at the root itself,
        // which every thread searches.
        let (_crumb, marked) = if ROOT {
            (CrumbGuard(None), false)
        } else {
            self.leave_crumb(node.key, ply)
        };
        node.marked = marked;

        // Steps 11 to 16, for each move; the root's result is in its root moves
        // (`iterate` stores the best one when the iteration is complete).
        match self.search_moves::<ROOT>(&mut node, alpha, beta) {
            Ok(searched) if ROOT => searched.best,
            Ok(searched) => self.close_node(&node, searched, alpha, beta),
            Err(v) => v,
        }
    }

    /// Steps 4 and 5. The hash probe: the hash move, and the entry's score where
    /// it is deep enough and its bound settles the node (`Err`). The static
    /// evaluation: the table's when it has one; in a singular search, the node's
    /// own. The root reads nothing from the table: its first move is its line's
    /// best so far, and it evaluates its position itself.
    fn open_node<const ROOT: bool>(
        &mut self,
        (alpha, beta): (i32, i32),
        depth: i32,
        ply: usize,
        pv_node: bool,
        cut_node: bool,
    ) -> Result<Node, i32> {
        let key = self.pos.key();
        let excluded = self.stack[ply].excluded;
        let (tt, tt_move) = if ROOT {
            (None, self.root_moves[self.pv_idx].mv)
        } else {
            let tt = self.shared.tt.probe(key);
            (tt, self.legal_hash_move(tt, false))
        };
        if let Some(h) = tt {
            if !pv_node && excluded.is_null() && h.depth >= depth {
                if let Some(v) = hash_cutoff(&h, alpha, beta, ply) {
                    return Err(v);
                }
            }
        }

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
        Ok(Node {
            ply,
            depth,
            pv: pv_node,
            cut: cut_node,
            in_check,
            excluded,
            key,
            tt,
            tt_move,
            static_eval,
            improving,
            events_at_entry: self.path_events,
            cramped: None,
            marked: false,
        })
    }

    /// Steps 11 to 16: the move loop. `Err` is the node's score when it ends
    /// early (a multi-cut, or the stop). At the root, the moves outside the
    /// current line are passed over uncounted, none is pruned, and each is
    /// searched by `search_root_move`.
    fn search_moves<const ROOT: bool>(
        &mut self,
        node: &mut Node,
        mut alpha: i32,
        beta: i32,
    ) -> Result<Searched, i32> {
        let ctx = self.order_context(node.ply);
        let shared = self.shared;
        let mut picker = MovePicker::new(node.tt_move)
            .prefetching(shared.tt)
            .ordered_by(&shared.capture_order);
        let mut s = Searched {
            best: -INF,
            best_move: Move::NULL,
            moves: 0,
        };
        let mut tried = Tried::new();
        let depth = node.depth;
        let lmp_limit =
            (self.p.lmp_base + depth * depth) as usize / if node.improving { 1 } else { 2 };

        while let Some(m) = picker.next(&self.pos, self.hist, node.ply, &ctx) {
            if m == node.excluded {
                continue;
            }
            let Some(root_index) = self.line_index::<ROOT>(m) else {
                continue;
            };
            let victim = self.pos.piece_at(m.to());
            let Some(mover) = self.pos.piece_at(m.from()) else {
                continue;
            };
            s.moves += 1;
            let base_r = self.reductions.get(depth, s.moves);
            let mv = MoveInfo {
                m,
                mover,
                victim,
                number: s.moves,
                base_r,
                lmr_depth: (depth - 1 - base_r).max(0),
                prunable: !ROOT && s.best > -RULE_BOUND && !node.in_check && s.moves > 1,
                good_capture: victim.is_some() && !is_bad_capture_score(picker.last_score()),
            };

            // Step 11. Shallow-depth pruning before the move is made: SEE of
            // captures and of quiet moves, late-move pruning.
            if mv.prunable {
                match self.prune_early(node, &mv, s.moves > lmp_limit) {
                    Prune::Keep => {}
                    Prune::Skip => continue,
                    Prune::SkipQuiets => {
                        // Every later quiet would be pruned here too: drop them from
                        // the picker, but count them, so that the losing captures that
                        // follow them keep their move numbers (same tree, less work).
                        s.moves += picker.skip_quiets(&self.pos, self.hist, &ctx);
                        continue;
                    }
                }
            }

            // Step 12. Singular extension and multi-cut.
            let singular = if m == node.tt_move {
                self.singular(node, m, beta)?
            } else {
                0
            };

            // Steps 13 to 15.
            let v = if ROOT {
                self.search_root_move(node, &mv, &ctx, (alpha, beta), root_index)
            } else {
                self.search_move(node, &mv, singular, &ctx, (alpha, beta))
            };
            let Some(v) = v else {
                continue;
            };
            if self.aborted() {
                return Err(0);
            }

            // Step 16. A new best move; a cutoff teaches the move-ordering
            // statistics.
            if v > s.best {
                s.best = v;
                if v > alpha {
                    s.best_move = m;
                    if node.pv {
                        self.update_pv(node.ply, m);
                    }
                    alpha = v;
                    if v >= beta {
                        self.update_stats(&mv, node, &ctx, &tried);
                        break;
                    }
                }
            }
            if m != s.best_move {
                tried.push(m, victim.is_some());
            }
        }
        Ok(s)
    }

    /// Steps 13 to 15 for one move: make it, prune it by futility (`None`), extend
    /// it, search it (reduced when late), unmake it.
    #[inline(always)]
    pub(super) fn search_move(
        &mut self,
        node: &Node,
        mv: &MoveInfo,
        singular: i32,
        ctx: &OrderContext,
        (alpha, beta): (i32, i32),
    ) -> Option<i32> {
        let ply = node.ply;
        // Step 13. Futility pruning of quiet moves, decided before the move is made
        // (a move made only to be taken back would pay for the evaluation's
        // update); then make it.
        if mv.prunable && mv.victim.is_none() && self.futile(node, mv, alpha) {
            return None;
        }
        self.make_prefetched(mv.m, ply);
        let gives_check = self.pos.in_check();

        // Step 14. Extensions: singular, or check (within twice the root depth).
        let extension = if singular != 0 {
            singular
        } else {
            (gives_check && (ply as i32) < 2 * self.root_depth) as i32
        };
        let new_depth = node.depth - 1 + extension;

        // Step 15. Search the move: the first with the full window, the others
        // reduced with a null window and searched again as they beat alpha.
        let reduction =
            (mv.number > 1).then(|| self.reduction(node, ctx, mv, gives_check, new_depth));
        let v = self.pvs(
            (alpha, beta),
            ply + 1,
            new_depth,
            reduction,
            node.pv,
            node.cut,
        );
        self.unmake();
        Some(v)
    }

    /// Steps 17 and 18: the node's score, and its hash entry.
    fn close_node(&mut self, node: &Node, s: Searched, alpha: i32, beta: i32) -> i32 {
        // Step 17. No move searched: mate or stalemate (both lost in xiangqi), or a
        // singular search that had only the excluded move.
        if s.moves == 0 {
            return if node.excluded.is_null() {
                mated_in(node.ply)
            } else {
                alpha
            };
        }
        // Every move pruned: keep a fail-low bound.
        let best = if s.best == -INF { alpha } else { s.best };
        if !node.excluded.is_null() {
            return best;
        }

        // Step 18. Store the result, as no bound when it met a path-dependent score.
        let bound = if self.path_events != node.events_at_entry {
            Bound::None
        } else if best >= beta {
            Bound::Lower
        } else if node.pv && !s.best_move.is_null() {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.shared.tt.store(
            node.key,
            s.best_move,
            to_tt(best, node.ply),
            if node.in_check { 0 } else { node.static_eval },
            node.depth,
            bound,
        );
        best
    }

    /// Principal-variation search of one child (`ply` is the child's): with
    /// `reduction` `None` (the first move) the full window; else a null window at
    /// the reduced depth, again at full depth when it beats alpha after a
    /// reduction, and with the full window when it lands inside it in a PV node.
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
            return -self.search::<false>(-beta, -alpha, new_depth, ply, !pv_node && !cut_node);
        };
        let mut v = -self.search::<false>(-alpha - 1, -alpha, new_depth - reduction, ply, true);
        if v > alpha && reduction > 0 {
            v = -self.search::<false>(-alpha - 1, -alpha, new_depth, ply, !cut_node);
        }
        if pv_node && v > alpha && v < beta {
            v = -self.search::<false>(-beta, -alpha, new_depth, ply, false);
        }
        v
    }
}
