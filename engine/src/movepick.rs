//! Move ordering. The hash move is tried before any generation (many nodes end
//! there); then, in stages, each generated only when the one before is through:
//! the good captures (SEE >= 0) by victim value and capture history, the
//! killers and the counter-move (each tested legal), the quiet moves by history,
//! and last the losing captures. A capture's exchange is evaluated only when it
//! is about to be picked. Stages rather than one generation of every move: most
//! nodes that get past the hash move cut off on a capture or a killer and never
//! need the quiet ones.
//!
//! How the generated moves are scored (and the capture ordering of the search
//! parameters) is in `scoring`.

mod scoring;
#[cfg(test)]
mod tests;

pub use scoring::{see_ge, CaptureOrder, DEFAULT_CAPTURE_ORDER, VICTIM};

use crate::history::Histories;
use crate::tt::TranspositionTable;
use rules::movegen::MAX_MOVES;
use rules::{Move, MoveList, Piece, Position};
use std::mem::MaybeUninit;

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
}

/// Is `s` the ordering score of a capture that loses material by SEE?
#[inline(always)]
pub fn is_bad_capture_score(s: i32) -> bool {
    s < BAD_CAPTURE / 2
}
