//! One search thread (`Worker`) and what all threads share (`Shared`). The search
//! itself is split by concern: `root.rs` (iterative deepening, aspiration windows,
//! the root moves: which a line searches, how each is recorded), `alphabeta.rs`
//! (principal-variation search in numbered steps, the root one of its nodes) and
//! `qsearch.rs` (quiescence); the node entry both searches share is here. Lazy SMP
//! runs several workers on one shared hash table (see `lib.rs`).

mod alphabeta;
mod qsearch;
mod root;
#[cfg(test)]
mod step_tests;
mod steps;
#[cfg(test)]
mod tests;

use crate::eval::Evaluator;
use crate::history::Histories;
use crate::params::SearchParams;
use crate::score::*;
use crate::tt::TranspositionTable;
use crate::tt::TtHit;
use crate::EngineOptions;
use crate::SearchControl;
use rules::repetition::{find_repetition, judge_repetition, natural_limit_reached};
use rules::{Color, Move, Piece, PieceKind, Position};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::time::Instant;

/// Deepest iteration.
pub const MAX_DEPTH: i32 = MAX_PLY as i32 - 20;

/// What all threads of one search share.
pub(crate) struct Shared<'a> {
    pub tt: &'a TranspositionTable,
    pub control: &'a SearchControl,
    pub options: &'a EngineOptions,
    pub abort: AtomicBool,
    /// A ponder search that has used its time: stop as soon as `ponderhit` comes.
    pub stop_on_ponderhit: AtomicBool,
    /// Node counts published by each thread every 1024 nodes.
    pub nodes: Vec<NodeCounter>,
    pub start: Instant,
    /// Stop at once past this (ms since the start, or since ponderhit).
    pub hard_ms: Option<u64>,
    pub node_limit: Option<u64>,
    /// Poll the stop conditions when `nodes & poll_mask == 0`: every 1024 nodes,
    /// more often under a small node limit so that it is kept to within a sixteenth.
    pub poll_mask: u64,
    /// `go infinite`: no time limit at all.
    pub infinite: bool,
    /// Root score noise (see `RootNoise`); `None` when off.
    pub root_noise: Option<crate::RootNoise>,
    /// Which thread searches which node near the root (empty with one thread).
    pub crumbs: Vec<Crumb>,
    /// Capture ordering by the search parameters (shared: the move pickers borrow it
    /// while the worker changes).
    pub capture_order: crate::movepick::CaptureOrder,
}

#[cfg(test)]
impl<'a> Shared<'a> {
    /// One thread's search with no limit but `stop` (tests of the search's parts).
    pub(crate) fn for_tests(
        tt: &'a TranspositionTable,
        control: &'a SearchControl,
        options: &'a EngineOptions,
    ) -> Shared<'a> {
        Shared {
            tt,
            control,
            options,
            abort: AtomicBool::new(false),
            stop_on_ponderhit: AtomicBool::new(false),
            nodes: vec![NodeCounter::default()],
            start: Instant::now(),
            hard_ms: None,
            node_limit: None,
            poll_mask: poll_mask(None),
            infinite: false,
            root_noise: None,
            crumbs: Vec::new(),
            capture_order: crate::movepick::CaptureOrder::new(&options.params),
        }
    }
}

/// A mark that a thread is searching a node (`thread` is its id + 1, 0 when free).
#[derive(Default)]
pub(crate) struct Crumb {
    pub thread: AtomicUsize,
    pub key: AtomicU64,
}

/// The crumb a node took, freed when the node returns, by whichever exit.
pub(crate) struct CrumbGuard<'a>(Option<&'a Crumb>);

impl Drop for CrumbGuard<'_> {
    fn drop(&mut self) {
        if let Some(c) = self.0 {
            c.thread.store(0, Ordering::Relaxed);
        }
    }
}

/// The poll mask for a node limit (see `Shared::poll_mask`).
pub(crate) fn poll_mask(node_limit: Option<u64>) -> u64 {
    let every = node_limit.map_or(1024, |n| (n / 16).clamp(1, 1024));
    // The largest power of two not above `every`.
    (1u64 << (63 - every.leading_zeros())) - 1
}

/// Breadcrumb slots, and the plies (from the root) that leave crumbs.
pub(crate) const CRUMBS: usize = 1024;
const CRUMB_PLIES: usize = 8;

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

    /// The breadcrumb slot of a node at `ply`, when threads share the search.
    #[inline(always)]
    pub fn crumb(&self, key: u64, ply: usize) -> Option<&Crumb> {
        if ply < CRUMB_PLIES && !self.crumbs.is_empty() {
            Some(&self.crumbs[key as usize & (CRUMBS - 1)])
        } else {
            None
        }
    }

    pub fn total_nodes(&self) -> u64 {
        self.nodes.iter().map(|n| n.0.load(Ordering::Relaxed)).sum()
    }
}

/// One thread's published node count, alone on its cache line: a thread storing its
/// count never invalidates the line another thread is writing.
#[repr(align(64))]
#[derive(Default)]
pub(crate) struct NodeCounter(pub AtomicU64);

#[derive(Clone, Debug)]
pub struct RootMove {
    pub mv: Move,
    /// Score of the current iteration (-INF until searched with a real value).
    pub score: i32,
    pub prev_score: i32,
    pub pv: Vec<Move>,
    pub seldepth: usize,
    /// Root noise offset of this move (0 without noise): `score` includes it.
    pub noise: i32,
}

impl RootMove {
    /// A score of this move without its noise offset (decisive scores carry none).
    pub fn without_noise(&self, v: i32) -> i32 {
        if v <= -INF || is_decisive(v) {
            v
        } else {
            v - self.noise
        }
    }
}

#[derive(Clone, Copy, Default)]
struct Frame {
    static_eval: i32,
    mv: Move,
    piece: Option<Piece>,
    /// The move a singular-extension search leaves out at this node.
    excluded: Move,
}

/// Late-move reductions by depth and move number, from the parameters'
/// `lmr_base + ln(depth) · ln(moves) / lmr_div` (both in hundredths).
pub(crate) struct Reductions(Vec<[u8; 64]>);

impl Reductions {
    pub fn new(p: &SearchParams) -> Reductions {
        let base = f64::from(p.lmr_base) / 100.0;
        let div = f64::from(p.lmr_div.max(1)) / 100.0;
        Reductions(
            (0..64)
                .map(|d| {
                    let mut row = [0u8; 64];
                    for (m, r) in row.iter_mut().enumerate().skip(1) {
                        if d > 0 {
                            let v = base + (d as f64).ln() * (m as f64).ln() / div;
                            *r = v.clamp(0.0, 60.0) as u8;
                        }
                    }
                    row
                })
                .collect(),
        )
    }

    #[inline(always)]
    pub fn get(&self, depth: i32, move_count: usize) -> i32 {
        self.0[depth.clamp(0, 63) as usize][move_count.min(63)] as i32
    }
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
    /// Counts the path-dependent scores met so far that a hash bound must not
    /// carry to another path: a repetition someone loses by rule, and the
    /// natural move limit. A node that saw the count rise stores no bound. A
    /// drawn repetition does not count: every line that shuffles back to a
    /// position of the path meets one, and a draw score passed on through a
    /// bound is an error of the evaluation's size, where a stored rule win or
    /// loss would be an error of a whole game.
    path_events: u64,
    pub completed_depth: i32,
    /// The main thread reports each root move here (for `info currmove`).
    pub currmove_sink: Option<&'a dyn Fn(Move, usize, i32)>,
    /// The main thread offers the mate prover its share here at each poll, with
    /// its completed depth; `true`: a mate is proved, stop.
    pub probe_sink: Option<&'a dyn Fn(i32) -> bool>,
    /// The search constants (a copy: read at every node).
    p: SearchParams,
    pub stats: crate::SearchStats,
    reductions: Reductions,
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
        let key = pos.key();
        let root_moves = root
            .iter()
            .map(|&mv| RootMove {
                mv,
                score: -INF,
                prev_score: -INF,
                pv: vec![mv],
                seldepth: 0,
                noise: shared.root_noise.map_or(0, |n| n.offset(key, mv)),
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
            probe_sink: None,
            p: shared.options.params,
            stats: crate::SearchStats::default(),
            reductions: Reductions::new(&shared.options.params),
        }
    }

    #[inline(always)]
    fn aborted(&self) -> bool {
        self.shared.abort.load(Ordering::Relaxed)
    }

    /// Called every 1024 nodes: publish the node count; the main thread also
    /// watches the stop flag, the node limit and the hard time limit.
    fn poll(&mut self) {
        self.shared.nodes[self.id]
            .0
            .store(self.nodes, Ordering::Relaxed);
        if self.id != 0 {
            return;
        }
        let sh = self.shared;
        let stop = sh.control.stopped()
            || (sh.stop_on_ponderhit.load(Ordering::Relaxed) && !sh.control.pondering())
            // A node limit ends the search only after one full iteration, so that
            // even `go nodes 1` (or the weakest level) answers with a searched move;
            // but a first iteration far over the budget is cut too (the root then
            // answers its best move so far), so that a node-limited search can
            // never run on unbounded (data generation, `go nodes`).
            || sh.node_limit.is_some_and(|n| {
                let nodes = sh.total_nodes();
                nodes >= n && (self.completed_depth >= 1 || nodes >= n.saturating_mul(8).max(100_000))
            })
            || (sh.timed() && sh.hard_ms.is_some_and(|h| sh.elapsed_ms() >= h))
            || self.probe_sink.is_some_and(|probe| probe(self.completed_depth));
        if stop {
            sh.abort.store(true, Ordering::Relaxed);
        }
    }

    #[inline(always)]
    fn count_node(&mut self) {
        self.nodes += 1;
        if self.nodes & self.shared.poll_mask == 0 {
            self.poll();
        }
    }

    #[inline(always)]
    fn make(&mut self, m: Move, ply: usize) {
        self.shared.tt.prefetch(self.pos.key_after(m));
        self.make_prefetched(m, ply);
    }

    /// `make` for a move whose child's hash bucket is already on its way (the
    /// main search's picker prefetches it as it hands the move out).
    #[inline(always)]
    fn make_prefetched(&mut self, m: Move, ply: usize) {
        self.stack[ply].mv = m;
        self.stack[ply].piece = self.pos.piece_at(m.from());
        self.eval.on_make(&self.pos, m);
        self.pos.make_move(m);
    }

    #[inline(always)]
    fn unmake(&mut self) {
        self.pos.unmake_move();
        self.eval.on_unmake();
    }

    /// Neither side has a piece that can attack (rook, knight, cannon or pawn): only
    /// kings, advisors and elephants are left, and the game is a dead draw whatever
    /// the evaluation says.
    #[inline]
    pub(super) fn no_attacking_material(&self) -> bool {
        let p = &self.pos;
        (p.pieces_of_kind(PieceKind::Rook)
            | p.pieces_of_kind(PieceKind::Knight)
            | p.pieces_of_kind(PieceKind::Cannon)
            | p.pieces_of_kind(PieceKind::Pawn))
        .is_empty()
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
        let us = self.pos.side_to_move();
        let verdict = judge_repetition(&self.pos, self.shared.options.rules);
        Some(match verdict.and_then(|v| v.offender()) {
            None => self.draw_value(us),
            // A loss by rule ranks like being mated at this ply: when every move
            // loses, the search prefers the loss that comes latest, and does not
            // complete a forbidden cycle at once rather than make the opponent
            // prove a mate (GUIs see it as mate in N, N counting to the rule loss).
            Some(c) => {
                self.path_events += 1;
                if c == us {
                    mated_in(ply)
                } else {
                    mate_in(ply)
                }
            }
        })
    }

    /// Step 2 of both searches (node entry): count the node and watch the stop;
    /// then the verdicts that end a line whatever its moves: a repetition, the
    /// natural move limit (`move_limit`: the main search only), no attacking
    /// material; and the ply limit.
    #[inline(always)]
    fn enter_node(&mut self, ply: usize, move_limit: bool) -> Option<i32> {
        self.pv_len[ply] = ply;
        self.count_node();
        if self.aborted() {
            return Some(0);
        }
        self.seldepth = self.seldepth.max(ply);
        if let Some(v) = self.repetition_value(ply) {
            return Some(v);
        }
        if move_limit && natural_limit_reached(&self.pos, &self.shared.options.natural_limit) {
            self.path_events += 1;
            return Some(self.draw_value(self.pos.side_to_move()));
        }
        if self.no_attacking_material() {
            // A dead draw: a property of the position alone, so it may be stored.
            return Some(self.draw_value(self.pos.side_to_move()));
        }
        if ply >= MAX_PLY {
            return Some(self.eval.evaluate(&self.pos));
        }
        None
    }

    /// The hash entry's move when it is legal here (and a capture, with
    /// `captures_only`).
    #[inline(always)]
    fn legal_hash_move(&self, hit: Option<TtHit>, captures_only: bool) -> Move {
        match hit {
            Some(h)
                if !h.mv.is_null()
                    && self.pos.is_legal(h.mv)
                    && (!captures_only || self.pos.piece_at(h.mv.to()).is_some()) =>
            {
                h.mv
            }
            _ => Move::NULL,
        }
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

    /// Has the side not to move at most `cramped_moves` legal moves (were the side
    /// to move to pass)? Then one quiet move may leave it none (困毙, a win), and the
    /// pruning that drops quiet moves unseen must not run. Asked lazily: `cache`
    /// holds the answer for the node.
    pub(crate) fn opponent_cramped(&mut self, cache: &mut Option<bool>) -> bool {
        if let Some(c) = *cache {
            return c;
        }
        let limit = self.p.cramped_moves.max(0) as usize;
        let them = self.pos.side_to_move().flip();
        let c = limit > 0 && self.pos.legal_move_count_of(them, limit + 1) <= limit;
        *cache = Some(c);
        c
    }

    fn has_attacking_pieces(&self, c: Color) -> bool {
        (self.pos.pieces(c, PieceKind::Rook)
            | self.pos.pieces(c, PieceKind::Knight)
            | self.pos.pieces(c, PieceKind::Cannon))
        .any()
    }
}
