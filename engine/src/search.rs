//! One search thread: iterative deepening with aspiration windows over the root
//! moves, principal-variation search with the usual pruning, and quiescence.
//! Lazy SMP runs several of these on one shared hash table (see `lib.rs`).

use crate::eval::Evaluator;
use crate::history::{piece_to, stat_bonus, Histories};
use crate::movepick::{is_bad_capture_score, see_ge, MovePicker, OrderContext, VICTIM};
use crate::score::*;
use crate::tt::{Bound, TranspositionTable};
use crate::EngineOptions;
use crate::SearchControl;
use rules::repetition::{find_repetition, judge_repetition, natural_limit_reached};
use rules::{Color, Move, Piece, PieceKind, Position};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::OnceLock;
use std::time::Instant;

/// Deepest iteration.
pub const MAX_DEPTH: i32 = MAX_PLY as i32 - 20;

/// What all threads of one search share.
pub(crate) struct Shared<'a> {
    pub tt: &'a TranspositionTable,
    pub control: &'a SearchControl,
    pub options: &'a EngineOptions,
    pub abort: AtomicBool,
    /// Node counts published by each thread every few thousand nodes.
    pub nodes: Vec<AtomicU64>,
    pub start: Instant,
    /// Stop at once past this (ms since the start, or since ponderhit).
    pub hard_ms: Option<u64>,
    pub node_limit: Option<u64>,
    /// `go infinite`: no time limit at all.
    pub infinite: bool,
}

impl Shared<'_> {
    /// Milliseconds on our clock: since ponderhit when there was one.
    pub fn elapsed_ms(&self) -> u64 {
        match self.control.ponderhit_at() {
            Some(t) => t.elapsed().as_millis() as u64,
            None => self.start.elapsed().as_millis() as u64,
        }
    }

    /// Are time limits in force now (not pondering, not infinite)?
    pub fn timed(&self) -> bool {
        !self.infinite && !self.control.pondering()
    }

    pub fn total_nodes(&self) -> u64 {
        self.nodes.iter().map(|n| n.load(Ordering::Relaxed)).sum()
    }
}

#[derive(Clone, Debug)]
pub struct RootMove {
    pub mv: Move,
    /// Score of the current iteration (-INF until searched with a real value).
    pub score: i32,
    pub prev_score: i32,
    pub pv: Vec<Move>,
    pub seldepth: usize,
}

#[derive(Clone, Copy, Default)]
struct Frame {
    static_eval: i32,
    mv: Move,
    piece: Option<Piece>,
}

/// Late-move reductions by depth and move number.
fn reduction(depth: i32, move_count: usize) -> i32 {
    static TABLE: OnceLock<Vec<[u8; 64]>> = OnceLock::new();
    let t = TABLE.get_or_init(|| {
        (0..64)
            .map(|d| {
                let mut row = [0u8; 64];
                for (m, r) in row.iter_mut().enumerate().skip(1) {
                    if d > 0 {
                        let v = 0.4 + (d as f64).ln() * (m as f64).ln() / 2.2;
                        *r = v.max(0.0) as u8;
                    }
                }
                row
            })
            .collect()
    });
    t[depth.clamp(0, 63) as usize][move_count.min(63)] as i32
}

pub(crate) struct Worker<'a, E: Evaluator> {
    pub id: usize,
    pub pos: Position,
    eval: E,
    shared: &'a Shared<'a>,
    hist: &'a mut Histories,
    pub nodes: u64,
    seldepth: usize,
    stack: Vec<Frame>,
    pv: Vec<Move>,
    pv_len: Vec<usize>,
    pub root_moves: Vec<RootMove>,
    pub multipv: usize,
    pv_idx: usize,
    root_depth: i32,
    /// Counts path-dependent scores (repetitions, move limit) met so far; a node
    /// that saw the count rise must not store its score in the hash table.
    path_events: u64,
    pub completed_depth: i32,
    /// The main thread reports each root move here (for `info currmove`).
    pub currmove_sink: Option<&'a dyn Fn(Move, usize, i32)>,
}

const PV_STRIDE: usize = MAX_PLY + 2;

impl<'a, E: Evaluator> Worker<'a, E> {
    pub fn new(
        id: usize,
        pos: Position,
        mut eval: E,
        shared: &'a Shared<'a>,
        hist: &'a mut Histories,
        root: &[Move],
        multipv: usize,
    ) -> Worker<'a, E> {
        eval.reset(&pos);
        let root_moves = root
            .iter()
            .map(|&mv| RootMove {
                mv,
                score: -INF,
                prev_score: -INF,
                pv: vec![mv],
                seldepth: 0,
            })
            .collect();
        Worker {
            id,
            pos,
            eval,
            shared,
            hist,
            nodes: 0,
            seldepth: 0,
            stack: vec![Frame::default(); MAX_PLY + 8],
            pv: vec![Move::NULL; PV_STRIDE * PV_STRIDE],
            pv_len: vec![0; PV_STRIDE],
            root_moves,
            multipv: multipv.max(1),
            pv_idx: 0,
            root_depth: 0,
            path_events: 0,
            completed_depth: 0,
            currmove_sink: None,
        }
    }

    #[inline(always)]
    fn aborted(&self) -> bool {
        self.shared.abort.load(Ordering::Relaxed)
    }

    /// Called every 1024 nodes: publish the node count; the main thread also
    /// watches the stop flag, the node limit and the hard time limit.
    fn poll(&mut self) {
        self.shared.nodes[self.id].store(self.nodes, Ordering::Relaxed);
        if self.id != 0 {
            return;
        }
        let sh = self.shared;
        let stop = sh.control.stopped()
            || sh.node_limit.is_some_and(|n| sh.total_nodes() >= n)
            || (sh.timed() && sh.hard_ms.is_some_and(|h| sh.elapsed_ms() >= h));
        if stop {
            sh.abort.store(true, Ordering::Relaxed);
        }
    }

    #[inline(always)]
    fn count_node(&mut self) {
        self.nodes += 1;
        if self.nodes & 1023 == 0 {
            self.poll();
        }
    }

    #[inline(always)]
    fn make(&mut self, m: Move, ply: usize) {
        self.stack[ply].mv = m;
        self.stack[ply].piece = self.pos.piece_at(m.from());
        self.shared.tt.prefetch(self.pos.key_after(m));
        self.eval.on_make(&self.pos, m);
        self.pos.make_move(m);
    }

    #[inline(always)]
    fn unmake(&mut self) {
        self.pos.unmake_move();
        self.eval.on_unmake();
    }

    fn draw_value(&self, side: Color) -> i32 {
        match side {
            Color::Red => self.shared.options.draw_value_red,
            Color::Black => self.shared.options.draw_value_black,
        }
    }

    /// Score of a node whose position repeats an earlier one, by the rule verdict.
    /// `None` when there is no repetition (or the cycle crosses a null move, which
    /// is no real repetition).
    fn repetition_value(&mut self, ply: usize) -> Option<i32> {
        let start = find_repetition(&self.pos)?;
        if self.pos.history()[start..].iter().any(|s| s.mv.is_null()) {
            return None;
        }
        self.path_events += 1;
        let us = self.pos.side_to_move();
        let verdict = judge_repetition(&self.pos, self.shared.options.rules);
        Some(match verdict.and_then(|v| v.offender()) {
            None => self.draw_value(us),
            Some(c) if c == us => -RULE_WIN + ply as i32,
            Some(_) => RULE_WIN - ply as i32,
        })
    }

    fn update_pv(&mut self, ply: usize, m: Move) {
        let child_len = self.pv_len[ply + 1].max(ply + 1);
        let (row, child) = (ply * PV_STRIDE, (ply + 1) * PV_STRIDE);
        self.pv[row + ply] = m;
        for i in ply + 1..child_len {
            self.pv[row + i] = self.pv[child + i];
        }
        self.pv_len[ply] = child_len;
    }

    fn has_attacking_pieces(&self, c: Color) -> bool {
        (self.pos.pieces(c, PieceKind::Rook)
            | self.pos.pieces(c, PieceKind::Knight)
            | self.pos.pieces(c, PieceKind::Cannon))
        .any()
    }

    // ---------------------------------------------------------------- root

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
                let mut delta = 20 + prev.abs() / 20;
                let (mut alpha, mut beta) = if depth >= 4 && prev > -INF && !is_decisive(prev) {
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
                    if delta > 800 {
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
        self.shared.nodes[self.id].store(self.nodes, Ordering::Relaxed);
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
            self.pv_len[1] = 1;
            self.make(m, 0);
            let check = self.pos.in_check();
            let new_depth = depth - 1 + check as i32;
            let mut v;
            if first {
                v = -self.search(-beta, -alpha, new_depth, 1, false);
            } else {
                let r = if depth >= 3 && !check && i > self.pv_idx + 3 {
                    (reduction(depth, i - self.pv_idx) - 1).max(0)
                } else {
                    0
                };
                v = -self.search(-alpha - 1, -alpha, new_depth - r, 1, true);
                if v > alpha && r > 0 {
                    v = -self.search(-alpha - 1, -alpha, new_depth, 1, true);
                }
                if v > alpha && v < beta {
                    v = -self.search(-beta, -alpha, new_depth, 1, false);
                }
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

    // ---------------------------------------------------------------- main search

    fn search(
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
        let tt_hit = self.shared.tt.probe(key);
        let mut tt_move = Move::NULL;
        if let Some(h) = tt_hit {
            if !h.mv.is_null() && self.pos.is_legal(h.mv) {
                tt_move = h.mv;
            }
            if !pv_node && h.depth >= depth && h.bound != Bound::None {
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

        let static_eval = if in_check {
            -INF
        } else if let Some(h) = tt_hit {
            h.eval
        } else {
            self.eval.evaluate(&self.pos)
        };
        self.stack[ply].static_eval = static_eval;
        let improving = !in_check && ply >= 2 && static_eval > self.stack[ply - 2].static_eval;
        let us = self.pos.side_to_move();

        if !pv_node && !in_check {
            // Razoring: hopeless at low depth, check with quiescence.
            if depth <= 3 && static_eval + 250 * depth < alpha && alpha < RULE_BOUND {
                let v = self.qsearch(alpha - 1, alpha, ply);
                if v < alpha {
                    return v;
                }
            }
            // Reverse futility.
            if depth <= 7
                && static_eval - 100 * (depth - improving as i32) >= beta
                && static_eval < RULE_BOUND
                && beta > -RULE_BOUND
            {
                return static_eval;
            }
            // Null move.
            let prev_null = ply >= 1 && self.stack[ply - 1].mv.is_null();
            if depth >= 3
                && !prev_null
                && static_eval >= beta
                && beta > -RULE_BOUND
                && self.has_attacking_pieces(us)
            {
                let r = 3 + depth / 4 + ((static_eval - beta) / 200).min(2);
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
        let depth = if tt_move.is_null() && depth >= 6 && (pv_node || cut_node) {
            depth - 1
        } else {
            depth
        };

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
        let mut picker = MovePicker::new(tt_move);
        let mut best = -INF;
        let mut best_move = Move::NULL;
        let mut move_count = 0usize;
        let mut quiets_tried: [Move; 64] = [Move::NULL; 64];
        let mut n_quiets = 0;
        let mut captures_tried: [Move; 32] = [Move::NULL; 32];
        let mut n_captures = 0;
        let lmp_limit = (3 + depth * depth) as usize / if improving { 1 } else { 2 };

        while let Some(m) = picker.next(&self.pos, self.hist, ply, &ctx) {
            let victim = self.pos.piece_at(m.to());
            let mover = match self.pos.piece_at(m.from()) {
                Some(p) => p,
                None => continue,
            };
            let is_capture = victim.is_some();
            move_count += 1;
            let r = reduction(depth, move_count);
            let lmr_depth = (depth - 1 - r).max(0);
            let prunable = best > -RULE_BOUND && !in_check && move_count > 1;

            if prunable {
                if is_capture {
                    if depth <= 6 && !see_ge(&self.pos, m, -120 * depth) {
                        continue;
                    }
                } else {
                    if move_count > lmp_limit && depth <= 8 {
                        continue;
                    }
                    if lmr_depth <= 6 && !see_ge(&self.pos, m, -30 * lmr_depth * lmr_depth) {
                        continue;
                    }
                }
            }

            self.make(m, ply);
            let gives_check = self.pos.in_check();
            if prunable
                && !is_capture
                && !gives_check
                && lmr_depth <= 7
                && static_eval + 120 + 110 * lmr_depth <= alpha
                && alpha < RULE_BOUND
            {
                self.unmake();
                continue;
            }
            let extension = (gives_check && (ply as i32) < 2 * self.root_depth) as i32;
            let new_depth = depth - 1 + extension;

            let mut v;
            if move_count == 1 {
                v = -self.search(-beta, -alpha, new_depth, ply + 1, !pv_node && !cut_node);
            } else {
                let mut red = 0;
                if depth >= 3 && move_count > 1 + pv_node as usize {
                    red = r;
                    if is_capture && !is_bad_capture_score(picker.last_score()) {
                        red /= 2;
                    }
                    if pv_node {
                        red -= 1;
                    }
                    if cut_node {
                        red += 1;
                    }
                    if !improving {
                        red += 1;
                    }
                    if gives_check {
                        red -= 1;
                    }
                    if !is_capture {
                        red -=
                            (self.hist.quiet(us, m) + self.hist.cont(&ctx.cont, mover, m)) / 8000;
                    }
                    red = red.clamp(0, new_depth - 1);
                }
                v = -self.search(-alpha - 1, -alpha, new_depth - red, ply + 1, true);
                if v > alpha && red > 0 {
                    v = -self.search(-alpha - 1, -alpha, new_depth, ply + 1, !cut_node);
                }
                if pv_node && v > alpha && v < beta {
                    v = -self.search(-beta, -alpha, new_depth, ply + 1, false);
                }
            }
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

        if move_count == 0 {
            // No legal move: checkmate or stalemate, both lost in xiangqi.
            return mated_in(ply);
        }
        if best == -INF {
            // Every move was pruned; keep a fail-low bound.
            best = alpha;
        }

        let tainted = self.path_events != events_at_entry;
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
            if in_check { 0 } else { static_eval },
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
        let bonus = stat_bonus(depth);
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
                self.hist.update_quiet(us, q, -bonus);
                if let Some(p) = self.pos.piece_at(q.from()) {
                    self.hist.update_cont(&ctx.cont, p, q, -bonus);
                }
            }
        }
        for &c in captures {
            if let (Some(p), Some(v)) = (self.pos.piece_at(c.from()), self.pos.piece_at(c.to())) {
                self.hist.update_capture(p, c, v.kind, -bonus);
            }
        }
    }

    // ---------------------------------------------------------------- quiescence

    fn qsearch(&mut self, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        let pv_node = beta - alpha > 1;
        self.pv_len[ply] = ply;
        self.count_node();
        if self.aborted() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if ply >= MAX_PLY {
            return self.eval.evaluate(&self.pos);
        }
        let key = self.pos.key();
        let in_check = self.pos.in_check();
        let tt_hit = self.shared.tt.probe(key);
        let mut tt_move = Move::NULL;
        if let Some(h) = tt_hit {
            if !pv_node && h.bound != Bound::None {
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
            if !h.mv.is_null()
                && self.pos.is_legal(h.mv)
                && (in_check || self.pos.piece_at(h.mv.to()).is_some())
            {
                tt_move = h.mv;
            }
        }

        let static_eval;
        let mut best;
        if in_check {
            static_eval = -INF;
            best = -INF;
        } else {
            static_eval = match tt_hit {
                Some(h) => h.eval,
                None => self.eval.evaluate(&self.pos),
            };
            best = static_eval;
            if best >= beta {
                // Standing pat assumes a move to stand on: without one we lose (困毙).
                return if has_any_legal_move(&self.pos) {
                    best
                } else {
                    mated_in(ply)
                };
            }
            alpha = alpha.max(best);
        }

        let mut picker = MovePicker::new_qsearch(tt_move, in_check);
        let mut best_move = Move::NULL;
        let mut move_count = 0;
        while let Some(m) = picker.next(&self.pos, self.hist, ply, &OrderContext::default()) {
            move_count += 1;
            if !in_check {
                let victim = match self.pos.piece_at(m.to()) {
                    Some(v) => v,
                    None => continue,
                };
                if static_eval + VICTIM[victim.kind.index()] + 200 <= alpha
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
        if move_count == 0 && (in_check || !has_any_legal_move(&self.pos)) {
            return mated_in(ply);
        }
        let bound = if best >= beta {
            Bound::Lower
        } else {
            Bound::Upper
        };
        self.shared.tt.store(
            key,
            best_move,
            to_tt(best, ply),
            if in_check { 0 } else { static_eval },
            0,
            bound,
        );
        best
    }
}

/// Does the side to move have a legal move? Stops at the first one found, trying
/// the pieces that are least often immobile first, so that it is cheap in all but
/// the rare positions where it matters.
fn has_any_legal_move(pos: &Position) -> bool {
    let us = pos.side_to_move();
    for kind in [
        PieceKind::Rook,
        PieceKind::Cannon,
        PieceKind::Pawn,
        PieceKind::Knight,
        PieceKind::Advisor,
        PieceKind::Elephant,
        PieceKind::King,
    ] {
        for from in pos.pieces(us, kind) {
            for to in pos.pseudo_targets(from) {
                if pos.is_legal(Move::new(from, to)) {
                    return true;
                }
            }
        }
    }
    false
}
