//! Move ordering. The hash move is tried before any generation (many nodes end
//! there); then, in stages, each generated only when the one before is through:
//! the good captures (SEE >= 0) by victim value and capture history, the
//! killers and the counter-move (each tested legal), the quiet moves by history,
//! and last the losing captures. A capture's exchange is evaluated only when it
//! is about to be picked. Stages rather than one generation of every move: most
//! nodes that get past the hash move cut off on a capture or a killer and never
//! need the quiet ones.

use crate::history::Histories;
use crate::params::SearchParams;
use crate::tt::TranspositionTable;
use rules::movegen::MAX_MOVES;
use rules::{GenKind, Move, MoveList, Piece, Position};
use std::mem::MaybeUninit;

/// Victim value for MVV-LVA (King, Advisor, Elephant, Knight, Rook, Cannon, Pawn).
pub const VICTIM: [i32; 7] = [0, 200, 200, 400, 900, 450, 100];

const GOOD_CAPTURE: i32 = 1 << 28;
const KILLER_1: i32 = 1 << 27;
const KILLER_2: i32 = KILLER_1 - 1;
const COUNTER: i32 = KILLER_1 - 2;
const BAD_CAPTURE: i32 = -(1 << 28);

/// What ordering knows of the moves before this node.
#[derive(Clone, Copy, Debug, Default)]
pub struct OrderContext {
    /// The previous move and the piece that made it (for the counter-move).
    pub prev: Option<(Piece, Move)>,
    /// Continuation-history contexts of the moves one and two plies back.
    pub cont: [Option<usize>; 2],
}

/// The capture-ordering terms of the search parameters (`capture_*`) as tables by
/// piece kind: `victim[v] − attacker[a] + capture history · hist_weight / 1024`.
#[derive(Clone, Copy, Debug)]
pub struct CaptureOrder {
    victim: [i32; 7],
    attacker: [i32; 7],
    hist_weight: i32,
}

impl CaptureOrder {
    pub const fn new(p: &SearchParams) -> CaptureOrder {
        let mut victim = [0; 7];
        let mut attacker = [0; 7];
        let div = if p.capture_attacker_div > 0 {
            p.capture_attacker_div
        } else {
            1
        };
        let mut k = 0;
        while k < 7 {
            victim[k] = VICTIM[k] * p.capture_victim_mul;
            attacker[k] = VICTIM[k] / div;
            k += 1;
        }
        CaptureOrder {
            victim,
            attacker,
            hist_weight: p.capture_hist_weight,
        }
    }
}

/// The ordering of the default parameters.
pub static DEFAULT_CAPTURE_ORDER: CaptureOrder = CaptureOrder::new(&crate::params::DEFAULT);

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Stage {
    HashMove,
    GenerateCaptures,
    GoodCaptures,
    Killers,
    GenerateQuiets,
    Quiets,
    BadCaptures,
    Done,
}

pub struct MovePicker<'t> {
    stage: Stage,
    /// When set, the hash-table bucket of each picked move's child is prefetched as
    /// the move is handed out, so the load overlaps the pruning tests before it is made.
    tt: Option<&'t TranspositionTable>,
    order: &'t CaptureOrder,
    tt_move: Move,
    /// The generated moves: the captures first (`0..captures`), the quiet moves
    /// after them (`captures..len`), generated only once the captures and the
    /// killers are through (most nodes cut off before); `scores[i]` belongs to
    /// `moves[i]`.
    moves: MoveList,
    /// Slots past `len` are never read: most nodes cut off on the hash move and never
    /// generate, so the picker does not pay for zeroing 768 bytes each time.
    scores: [MaybeUninit<i32>; MAX_MOVES],
    captures: usize,
    len: usize,
    /// The next capture to pick (the losing ones stay behind it, in
    /// `idx..captures`, until the quiet moves are through) and the next quiet one.
    idx: usize,
    quiet_idx: usize,
    /// The killers and the counter-move (legal quiet moves, hash move left out),
    /// handed out between the good captures and the other quiet moves.
    killers: [Move; 3],
    killer_scores: [i32; 3],
    n_killers: usize,
    killer_idx: usize,
    /// The score of the move handed out last.
    last: i32,
    /// Quiescence: captures only (all moves when in check).
    captures_only: bool,
    /// `skip_quiets` came before the quiet moves' stages.
    quiets_skipped: bool,
}

impl<'t> MovePicker<'t> {
    /// For the main search. `tt_move` must already be known legal (or null).
    #[inline(always)]
    pub fn new(tt_move: Move) -> MovePicker<'t> {
        MovePicker {
            tt: None,
            order: &DEFAULT_CAPTURE_ORDER,
            stage: if tt_move.is_null() {
                Stage::GenerateCaptures
            } else {
                Stage::HashMove
            },
            tt_move,
            moves: MoveList::new(),
            scores: [MaybeUninit::uninit(); MAX_MOVES],
            captures: 0,
            len: 0,
            idx: 0,
            quiet_idx: 0,
            killers: [Move::NULL; 3],
            killer_scores: [0; 3],
            n_killers: 0,
            killer_idx: 0,
            last: i32::MAX,
            captures_only: false,
            quiets_skipped: false,
        }
    }

    /// For quiescence: captures (or every evasion when in check), hash move first.
    #[inline(always)]
    pub fn new_qsearch(tt_move: Move, in_check: bool) -> MovePicker<'t> {
        let mut mp = MovePicker::new(tt_move);
        mp.captures_only = !in_check;
        mp
    }

    /// Prefetch the hash-table bucket of each picked move's child.
    #[inline(always)]
    pub fn prefetching(mut self, tt: &'t TranspositionTable) -> MovePicker<'t> {
        self.tt = Some(tt);
        self
    }

    /// Order the captures by `order` (the default parameters' otherwise).
    #[inline(always)]
    pub fn ordered_by(mut self, order: &'t CaptureOrder) -> MovePicker<'t> {
        self.order = order;
        self
    }

    /// The scores of the generated moves, `0..len`.
    #[inline(always)]
    fn scores(&self) -> &[i32] {
        let init = &self.scores[..self.len];
        // SAFETY: the generation stages wrote the first `len` scores (`len` is set
        // only there, after the writes), and `MaybeUninit<i32>` has the layout of
        // `i32`.
        unsafe { &*(init as *const [MaybeUninit<i32>] as *const [i32]) }
    }

    /// The index of the first best-scored move in `from..to` (not empty) and its
    /// score, in one pass: measured faster than a max pass plus a find pass, or a
    /// vectorised max, on these short lists.
    #[inline(always)]
    fn best_in(&self, from: usize, to: usize) -> (usize, i32) {
        let rest = &self.scores()[from..to];
        let (mut best, mut max) = (0, rest[0]);
        for (i, &s) in rest.iter().enumerate().skip(1) {
            if s > max {
                max = s;
                best = i;
            }
        }
        (from + best, max)
    }

    /// Hand out the move at `at` with score `score`, swapped to `to`.
    #[inline(always)]
    fn hand_out(&mut self, pos: &Position, at: usize, to: usize, score: i32) -> Move {
        self.moves.as_mut_slice().swap(to, at);
        self.scores.swap(to, at);
        self.last = score;
        let m = self.moves.as_slice()[to];
        self.prefetch_child(pos, m);
        m
    }

    /// Start loading the hash-table bucket of the child by `m` (when prefetching).
    #[inline(always)]
    fn prefetch_child(&self, pos: &Position, m: Move) {
        if let Some(tt) = self.tt {
            tt.prefetch(pos.key_after(m));
        }
    }

    /// Hand out the best-scored move of `from..to` (not empty), moved to `from`.
    #[inline(always)]
    fn take_best(&mut self, pos: &Position, from: usize, to: usize) -> Move {
        let (best, max) = self.best_in(from, to);
        self.hand_out(pos, best, from, max)
    }

    /// The next move. The hash move is handed out here, inline (most nodes stop
    /// after it); the stages after it in `next_generated`.
    #[inline(always)]
    pub fn next(
        &mut self,
        pos: &Position,
        hist: &Histories,
        ply: usize,
        ctx: &OrderContext,
    ) -> Option<Move> {
        if self.stage == Stage::HashMove {
            self.stage = Stage::GenerateCaptures;
            self.last = i32::MAX;
            return Some(self.tt_move);
        }
        self.next_generated(pos, hist, ply, ctx)
    }

    /// `next` past the hash move.
    #[inline(never)]
    fn next_generated(
        &mut self,
        pos: &Position,
        hist: &Histories,
        ply: usize,
        ctx: &OrderContext,
    ) -> Option<Move> {
        loop {
            match self.stage {
                Stage::HashMove => {
                    self.stage = Stage::GenerateCaptures;
                    self.last = i32::MAX;
                    return Some(self.tt_move);
                }
                Stage::GenerateCaptures => {
                    self.generate_captures(pos, hist);
                    self.stage = Stage::GoodCaptures;
                }
                Stage::GoodCaptures => {
                    if self.idx >= self.captures {
                        self.stage = self.after_captures(pos, hist, ply, ctx);
                        continue;
                    }
                    let (best, max) = self.best_in(self.idx, self.captures);
                    if max < KILLER_1 {
                        // Only losing captures are left: they wait for the quiets.
                        self.stage = self.after_captures(pos, hist, ply, ctx);
                        continue;
                    }
                    // A capture's exchange is looked at only when it is about to be
                    // handed out (most nodes cut off before they reach the last
                    // captures): a losing one takes its losing score where it stands
                    // and the pick is made again. The order is the one that scoring
                    // every capture first gives, since no capture's score can rise.
                    if !self.captures_only && !see_ge(pos, self.moves.as_slice()[best], 0) {
                        self.scores[best] = MaybeUninit::new(max - GOOD_CAPTURE + BAD_CAPTURE);
                        continue;
                    }
                    let to = self.idx;
                    self.idx += 1;
                    return Some(self.hand_out(pos, best, to, max));
                }
                Stage::Killers => {
                    if self.killer_idx >= self.n_killers {
                        self.stage = Stage::GenerateQuiets;
                        continue;
                    }
                    let i = self.killer_idx;
                    self.killer_idx += 1;
                    self.last = self.killer_scores[i];
                    let m = self.killers[i];
                    self.prefetch_child(pos, m);
                    return Some(m);
                }
                Stage::GenerateQuiets => {
                    self.generate_quiets(pos, hist, ctx);
                    self.stage = Stage::Quiets;
                }
                Stage::Quiets => {
                    if self.quiet_idx >= self.len {
                        self.stage = Stage::BadCaptures;
                        continue;
                    }
                    self.quiet_idx += 1;
                    return Some(self.take_best(pos, self.quiet_idx - 1, self.len));
                }
                Stage::BadCaptures => {
                    if self.idx >= self.captures {
                        self.stage = Stage::Done;
                        return None;
                    }
                    self.idx += 1;
                    return Some(self.take_best(pos, self.idx - 1, self.captures));
                }
                Stage::Done => return None,
            }
        }
    }

    /// The stage after the good captures: quiescence is done with its captures
    /// (the losing ones come last all the same); the search goes on to the
    /// killers (found legal and quiet here) and the quiet moves.
    fn after_captures(
        &mut self,
        pos: &Position,
        hist: &Histories,
        ply: usize,
        ctx: &OrderContext,
    ) -> Stage {
        if self.captures_only || self.quiets_skipped {
            return Stage::BadCaptures;
        }
        let killers = hist.killers[ply.min(hist.killers.len() - 1)];
        let counter = ctx.prev.map_or(Move::NULL, |(p, m)| hist.counter(p, m));
        for (m, score) in [
            (killers[0], KILLER_1),
            (killers[1], KILLER_2),
            (counter, COUNTER),
        ] {
            if !m.is_null()
                && m != self.tt_move
                && !self.killers[..self.n_killers].contains(&m)
                && pos.piece_at(m.to()).is_none()
                && pos.is_legal(m)
            {
                self.killers[self.n_killers] = m;
                self.killer_scores[self.n_killers] = score;
                self.n_killers += 1;
            }
        }
        Stage::Killers
    }

    /// Drop the quiet moves not yet picked (late-move pruning would skip each of them
    /// anyway) and return how many were dropped. Captures keep their order: the good
    /// ones were picked before any quiet, the losing ones come after all of them.
    pub fn skip_quiets(&mut self, pos: &Position, hist: &Histories, ctx: &OrderContext) -> usize {
        let dropped = match self.stage {
            Stage::GoodCaptures => {
                // Still among the good captures: every quiet move goes, the
                // killers too (counted by generating them all).
                self.generate_quiets(pos, hist, ctx);
                let all = self.len - self.captures;
                self.moves.truncate(self.captures);
                self.len = self.captures;
                self.quiets_skipped = true;
                return all;
            }
            Stage::Killers | Stage::GenerateQuiets => {
                // The quiet moves are not generated yet: count them.
                let left = self.n_killers - self.killer_idx;
                self.generate_quiets(pos, hist, ctx);
                left + (self.len - self.captures)
            }
            Stage::Quiets => self.len - self.quiet_idx,
            _ => return 0,
        };
        self.quiet_idx = self.len;
        self.stage = Stage::BadCaptures;
        dropped
    }

    /// Score of the move returned last (to tell losing captures apart).
    pub fn last_score(&self) -> i32 {
        self.last
    }

    fn generate_captures(&mut self, pos: &Position, hist: &Histories) {
        pos.generate(GenKind::Captures, &mut self.moves);
        let tt_move = self.tt_move;
        let order = self.order;
        let moves = self.moves.as_mut_slice();
        let mut n = 0;
        // Compact in place: the hash move (already tried) drops out.
        for i in 0..moves.len() {
            let m = moves[i];
            if m == tt_move {
                continue;
            }
            let (Some(mover), Some(victim)) = (pos.piece_at(m.from()), pos.piece_at(m.to())) else {
                continue;
            };
            // Whether it loses material is asked when it is picked (`next`).
            let v = order.victim[victim.kind.index()] - order.attacker[mover.kind.index()]
                + hist.capture(mover, m, victim.kind) * order.hist_weight / 1024;
            moves[n] = m;
            self.scores[n] = MaybeUninit::new(GOOD_CAPTURE + v);
            n += 1;
        }
        self.moves.truncate(n);
        self.captures = n;
        self.len = n;
        self.idx = 0;
    }

    /// Generate and score the quiet moves after the captures (the hash move and the
    /// killers, already handed out, left out).
    fn generate_quiets(&mut self, pos: &Position, hist: &Histories, ctx: &OrderContext) {
        pos.generate(GenKind::Quiets, &mut self.moves);
        let us = pos.side_to_move();
        let tt_move = self.tt_move;
        // The slots past `n_killers` hold the null move, which is never generated.
        let [k0, k1, k2] = self.killers;
        let start = self.captures;
        let moves = self.moves.as_mut_slice();
        let mut n = start;
        for i in start..moves.len() {
            let m = moves[i];
            if m == tt_move || m == k0 || m == k1 || m == k2 {
                continue;
            }
            let Some(mover) = pos.piece_at(m.from()) else {
                continue;
            };
            moves[n] = m;
            self.scores[n] = MaybeUninit::new(hist.quiet(us, m) + hist.cont(&ctx.cont, mover, m));
            n += 1;
        }
        self.moves.truncate(n);
        self.len = n;
        self.quiet_idx = start;
    }
}

/// `pos.see_ge(m, threshold)` with the common shortcut: a capture never does worse
/// than winning the victim and losing the capturer.
#[inline(always)]
pub fn see_ge(pos: &Position, m: Move, threshold: i32) -> bool {
    if let (Some(mover), Some(victim)) = (pos.piece_at(m.from()), pos.piece_at(m.to())) {
        if mover.kind != rules::PieceKind::King
            && VICTIM[victim.kind.index()] - VICTIM[mover.kind.index()] >= threshold
        {
            return true;
        }
    }
    pos.see_ge(m, threshold)
}

/// Is `s` the ordering score of a capture that loses material by SEE?
#[inline(always)]
pub fn is_bad_capture_score(s: i32) -> bool {
    s < BAD_CAPTURE / 2
}

#[cfg(test)]
mod tests {
    use super::*;

    /// With the exchange of a capture evaluated only when it is picked, the moves still
    /// come best-first by their true scores (never rising), every capture is classed as
    /// losing exactly when its SEE is below zero, and each legal move comes once.
    #[test]
    fn lazy_exchange_keeps_best_first_order() {
        let hist = Histories::new();
        let ctx = OrderContext::default();
        let mut losing = 0;
        for fen in crate::bench_positions::BENCH_FENS {
            let pos = Position::from_fen(fen).expect("valid FEN");
            let mut picker = MovePicker::new(Move::NULL);
            let mut last = i32::MAX;
            let mut seen = Vec::new();
            while let Some(m) = picker.next(&pos, &hist, 0, &ctx) {
                let s = picker.last_score();
                assert!(s <= last, "{fen}: {m} scored {s} after {last}");
                last = s;
                if pos.piece_at(m.to()).is_some() {
                    let bad = is_bad_capture_score(s);
                    assert_eq!(bad, !pos.see_ge(m, 0), "{fen}: {m}");
                    losing += bad as usize;
                }
                seen.push(m);
            }
            let mut all = pos.legal_moves().as_slice().to_vec();
            all.sort_by_key(|m| m.0);
            seen.sort_by_key(|m| m.0);
            assert_eq!(seen, all, "{fen}");
        }
        assert!(losing > 5, "{losing} losing captures");
    }

    /// The killers come right after the good captures, before any other quiet
    /// move, when they are legal quiet moves here; a killer that is not (from
    /// another position at the same ply) is never handed out, and every legal
    /// move still comes exactly once.
    #[test]
    fn legal_killers_come_after_the_good_captures_and_others_never() {
        let ctx = OrderContext::default();
        let mut killers_seen = 0;
        for fen in crate::bench_positions::BENCH_FENS {
            let pos = Position::from_fen(fen).expect("valid FEN");
            let legal = pos.legal_moves();
            let quiets: Vec<Move> = legal
                .iter()
                .copied()
                .filter(|m| pos.piece_at(m.to()).is_none())
                .collect();
            let Some(&killer) = quiets.last() else {
                continue;
            };
            // A move of the side not to move: never legal here.
            let mut other = pos.clone();
            other.make_null_move();
            let Some(&alien) = other
                .legal_moves()
                .iter()
                .find(|m| pos.piece_at(m.to()).is_none())
            else {
                continue;
            };
            let mut hist = Histories::new();
            hist.killers[0] = [alien, killer];
            let mut picker = MovePicker::new(Move::NULL);
            let mut seen = Vec::new();
            let mut quiet_before_killer = false;
            while let Some(m) = picker.next(&pos, &hist, 0, &ctx) {
                assert_ne!(m, alien, "{fen}");
                if m == killer {
                    assert!(!quiet_before_killer, "{fen}");
                    assert_eq!(picker.last_score(), KILLER_2);
                    killers_seen += 1;
                } else if pos.piece_at(m.to()).is_none() {
                    quiet_before_killer = true;
                }
                seen.push(m);
            }
            let mut all = legal.as_slice().to_vec();
            all.sort_by_key(|m| m.0);
            seen.sort_by_key(|m| m.0);
            assert_eq!(seen, all, "{fen}");
        }
        assert!(killers_seen > 20, "{killers_seen}");
    }

    /// After `skip_quiets` the picker hands out exactly the captures it had not handed
    /// out yet, in the order it would have given them, and reports how many quiet moves
    /// it dropped.
    #[test]
    fn skip_quiets_leaves_the_remaining_captures_in_order() {
        let hist = Histories::new();
        let ctx = OrderContext::default();
        let mut captures_after_skip = 0;
        for fen in [
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
            // Middlegame with captures on both sides of zero SEE.
            "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/2P3P2/P3P3P/1C2C1N2/9/RNBAKAB1R b",
            "2bak4/4a4/4b4/p3R4/2n1c4/9/P3P4/4B4/3rA4/2BAK4 w",
        ] {
            let pos = Position::from_fen(fen).expect("valid FEN");
            let all = pos.legal_moves();
            for picked_first in 0..6 {
                let order = |skip: bool| {
                    let mut mp = MovePicker::new(Move::NULL);
                    let mut out = Vec::new();
                    let mut dropped = 0;
                    while let Some(m) = mp.next(&pos, &hist, 0, &ctx) {
                        out.push(m);
                        if skip && out.len() == picked_first {
                            dropped = mp.skip_quiets(&pos, &hist, &ctx);
                        }
                    }
                    (out, dropped)
                };
                let (full, _) = order(false);
                let (skipped, dropped) = order(true);
                assert_eq!(full.len(), all.len());
                if picked_first == 0 || picked_first > full.len() {
                    assert_eq!(skipped, full);
                    continue;
                }
                let is_capture = |m: &Move| pos.piece_at(m.to()).is_some();
                let expected: Vec<Move> = full[..picked_first]
                    .iter()
                    .copied()
                    .chain(full[picked_first..].iter().copied().filter(is_capture))
                    .collect();
                // Equal-scored moves may come in another order: compare as sets per
                // score class (good captures first, losing captures last).
                assert_eq!(skipped[..picked_first], expected[..picked_first], "{fen}");
                let mut rest: Vec<Move> = skipped[picked_first..].to_vec();
                let mut want: Vec<Move> = expected[picked_first..].to_vec();
                assert!(rest.iter().all(is_capture), "{fen}");
                captures_after_skip += rest.len();
                rest.sort_by_key(|m| (m.from().index(), m.to().index()));
                want.sort_by_key(|m| (m.from().index(), m.to().index()));
                assert_eq!(rest, want, "{fen}");
                let quiets_left = full[picked_first..]
                    .iter()
                    .filter(|m| !is_capture(m))
                    .count();
                assert_eq!(dropped, quiets_left, "{fen}");
            }
        }
        assert!(
            captures_after_skip > 0,
            "no case kept a capture after the skip"
        );
    }
}
