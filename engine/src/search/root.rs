//! Iterative deepening over the root moves: aspiration windows, MultiPV and the
//! helper threads' depth schedule. Each search of the root is the main search's
//! (`search::<true>`); what is the root's own is here: which moves a line
//! searches, and how one root move is searched and recorded.
//!
//! Line `pv_idx` searches exactly `root_moves[pv_idx..]`: the lines before it are
//! done, and moves outside `searchmoves` or inside `banmoves` were never in the
//! list. They come in the move picker's order, the line's best move so far first
//! in the place of the hash move: the history learns at the root as anywhere, and
//! the late-move reduction, which reads the same history, then agrees with the
//! order.

use super::alphabeta::{MoveInfo, Node};
use super::{Worker, MAX_DEPTH};
use crate::eval::Evaluator;
use crate::movepick::OrderContext;
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
                    let v = self.search::<true>(alpha, beta, depth, 0, false);
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

    /// At the root, the index in `root_moves` of `m` when the current line
    /// searches it (`None`: it does not); elsewhere every move is searched.
    #[inline(always)]
    pub(super) fn line_index<const ROOT: bool>(&self, m: rules::Move) -> Option<usize> {
        if !ROOT {
            return Some(0);
        }
        let line = &self.root_moves[self.pv_idx..];
        line.iter()
            .position(|rm| rm.mv == m)
            .map(|i| i + self.pv_idx)
    }

    /// Steps 13 to 15 at the root, around `search_move`: report the move, search
    /// it, and record its score and line in `root_moves[i]` when it is the line's
    /// first move or beats alpha. Root noise (Randomness): the move is judged by
    /// its score plus `noise`, so its subtree is searched with the window moved by
    /// -noise and the bounds stay exact (decisive scores carry no noise).
    pub(super) fn search_root_move(
        &mut self,
        node: &Node,
        mv: &MoveInfo,
        ctx: &OrderContext,
        (alpha, beta): (i32, i32),
        i: usize,
    ) -> Option<i32> {
        if let Some(report) = self.currmove_sink {
            report(mv.m, self.pv_idx + mv.number, self.root_depth);
        }
        let noise = self.root_moves[i].noise;
        let window = ((alpha - noise).max(-INF), (beta - noise).min(INF));
        let mut v = self.search_move(node, mv, 0, ctx, window)?;
        if noise != 0 && !is_decisive(v) {
            v = (v + noise).clamp(-INF + 1, INF - 1);
        }
        // An unfinished search records nothing (the caller ends the node).
        if !self.aborted() && (mv.number == 1 || v > alpha) {
            self.update_pv(0, mv.m);
            let rm = &mut self.root_moves[i];
            rm.score = v;
            rm.seldepth = self.seldepth;
            rm.pv = self.pv[..self.pv_len[0]].to_vec();
        }
        Some(v)
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Shared, Worker};
    use crate::eval::{AnyEval, EvalChoice, Evaluator};
    use crate::history::Histories;
    use crate::tt::TranspositionTable;
    use crate::{EngineOptions, SearchControl};
    use rules::{Move, Position};
    use std::cell::RefCell;
    use std::collections::HashSet;
    use std::sync::{Arc, Mutex};

    /// An evaluator that records every move made at the root (when no move is
    /// made and not yet taken back): what the root searched, reported or not.
    #[derive(Clone)]
    struct RootWatch {
        inner: AnyEval,
        ply: usize,
        made: Arc<Mutex<Vec<Move>>>,
    }

    impl Evaluator for RootWatch {
        fn reset(&mut self, pos: &Position) {
            self.ply = 0;
            self.inner.reset(pos)
        }
        fn on_make(&mut self, pos: &Position, m: Move) {
            if self.ply == 0 {
                self.made.lock().unwrap().push(m);
            }
            self.ply += 1;
            self.inner.on_make(pos, m)
        }
        fn on_null(&mut self) {
            self.ply += 1;
            self.inner.on_null()
        }
        fn on_unmake(&mut self) {
            self.ply -= 1;
            self.inner.on_unmake()
        }
        fn evaluate(&mut self, pos: &Position) -> i32 {
            self.inner.evaluate(pos)
        }
    }

    /// One search of the root: its line and the moves it searched, in order.
    struct RootSearch {
        line: usize,
        moves: Vec<Move>,
    }

    /// Search `pos` to `depth` with `lines` lines over the root moves `root`.
    /// Returns, per iteration, the root searches (told apart by the move numbers
    /// the root reports, which start again at each search) and the first `lines`
    /// root moves when the iteration was complete. The moves the root made are
    /// checked to be exactly the moves it reported.
    fn searches(
        pos: &Position,
        root: &[Move],
        lines: usize,
        depth: i32,
    ) -> Vec<(Vec<RootSearch>, Vec<Move>)> {
        let options = EngineOptions::default();
        let tt = TranspositionTable::new(16);
        let control = SearchControl::new();
        let shared = Shared::for_tests(&tt, &control, &options);
        let mut hist = Histories::new();
        let made = Arc::new(Mutex::new(Vec::new()));
        let eval = RootWatch {
            inner: AnyEval::new(&EvalChoice::Hce),
            ply: 0,
            made: made.clone(),
        };
        let reports: RefCell<Vec<(i32, usize, Move)>> = RefCell::new(Vec::new());
        let sink =
            |m: Move, number: usize, depth: i32| reports.borrow_mut().push((depth, number, m));
        let mut iterations = Vec::new();
        let mut w = Worker::new(0, pos.clone(), eval, &shared, &mut hist, root, lines);
        w.currmove_sink = Some(&sink);
        w.iterate(depth, &mut |w| {
            iterations.push(w.root_moves[..lines].iter().map(|rm| rm.mv).collect());
            true
        });
        let reports = reports.into_inner();
        let reported: Vec<Move> = reports.iter().map(|r| r.2).collect();
        assert_eq!(
            *made.lock().unwrap(),
            reported,
            "root moves made unreported"
        );

        let mut out: Vec<(Vec<RootSearch>, Vec<Move>)> = iterations
            .into_iter()
            .map(|firsts| (Vec::new(), firsts))
            .collect();
        let mut last: Option<(i32, usize)> = None;
        for (d, number, m) in reports {
            let (searches, _) = &mut out[d as usize - 1];
            match last {
                Some((ld, ln)) if ld == d && number > ln => {
                    let s = searches.last_mut().unwrap();
                    assert_eq!(number, s.line + s.moves.len() + 1, "numbered in order");
                    s.moves.push(m);
                }
                _ => searches.push(RootSearch {
                    line: number - 1,
                    moves: vec![m],
                }),
            }
            last = Some((d, number));
        }
        out
    }

    /// Each search of line `k` searches only `root_moves[k..]`: moves of the
    /// root list (never one outside `searchmoves`), each once, never the first
    /// move of a finished line; and the lines' first moves are the moves each
    /// line took out of the next.
    fn check(pos: &Position, root: &[Move], lines: usize, depth: i32) {
        let all: HashSet<Move> = root.iter().copied().collect();
        let iterations = searches(pos, root, lines, depth);
        assert_eq!(iterations.len(), depth as usize);
        for (i, (searches, firsts)) in iterations.iter().enumerate() {
            let mut line_sets: Vec<HashSet<Move>> = Vec::new();
            for (k, set) in (0..lines).map(|k| (k, line_searches(searches, k))) {
                assert!(!set.is_empty(), "depth {}: line {k} not searched", i + 1);
                line_sets.push(set);
            }
            let mut taken = HashSet::new();
            let mut before = all.clone();
            for (k, set) in line_sets.iter().enumerate() {
                assert_eq!(set.len(), root.len() - k, "depth {}, line {k}", i + 1);
                assert!(set.is_subset(&before), "depth {}, line {k}", i + 1);
                taken.extend(before.difference(set).copied());
                before = set.clone();
            }
            let firsts: HashSet<Move> = firsts.iter().copied().collect();
            assert!(taken.is_subset(&firsts), "depth {}", i + 1);
            assert_eq!(firsts.difference(&taken).count(), 1);
            assert!(firsts.difference(&taken).all(|m| before.contains(m)));
        }
    }

    /// The moves of the searches of line `k` (checked: each search's moves are
    /// distinct, and the last one, which completed, searched all of them).
    fn line_searches(searches: &[RootSearch], k: usize) -> HashSet<Move> {
        let of_line: Vec<&RootSearch> = searches.iter().filter(|s| s.line == k).collect();
        let Some(last) = of_line.last() else {
            return HashSet::new();
        };
        let set: HashSet<Move> = last.moves.iter().copied().collect();
        assert_eq!(set.len(), last.moves.len(), "a move searched twice");
        for s in &of_line {
            assert!(s.moves.iter().all(|m| set.contains(m)));
        }
        set
    }

    #[test]
    fn the_root_searches_only_its_lines_moves() {
        let start = Position::startpos();
        let all: Vec<Move> = start.legal_moves().iter().copied().collect();
        check(&start, &all, 3, 6);
        // A middlegame with captures, restricted as `searchmoves` restricts it.
        let mid =
            Position::from_fen("r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/2P3P2/P3P3P/1C2C1N2/9/RNBAKAB1R b")
                .unwrap();
        let some: Vec<Move> = mid.legal_moves().iter().copied().step_by(3).collect();
        assert!(some.len() >= 8);
        check(&mid, &some, 2, 7);
        check(&mid, &some, 1, 7);
    }
}
