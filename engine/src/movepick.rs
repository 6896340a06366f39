//! Move ordering. The hash move is tried before any generation (many nodes end
//! there); then every legal move is scored once and picked best-first:
//! good captures (SEE >= 0) by victim value and capture history, killers, the
//! counter-move, quiet moves by history (plus a bonus for a direct check), and last
//! the losing captures. A capture's exchange is evaluated only when it is about to
//! be picked.

use crate::history::Histories;
use crate::tt::TranspositionTable;
use rules::movegen::MAX_MOVES;
use rules::{attacks, Bitboard, GenKind, Move, MoveList, Piece, PieceKind, Position};
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
    /// Added to the score of a quiet move that gives a direct check (0: none).
    pub check_bonus: i32,
}

/// The squares from which a rook, cannon, knight or pawn of the side to move
/// would give direct check (occupancy as it is: a piece that leaves one of the
/// lines it would check along is missed, which only costs ordering).
fn check_squares(pos: &Position) -> [Bitboard; 4] {
    let us = pos.side_to_move();
    let ksq = pos.king_square(us.flip());
    let occ = pos.occupied();
    let by_file = pos.occ_by_file();
    let rook = attacks::rook(ksq, occ, by_file);
    // A cannon checks from an empty point beyond exactly one screen: with the first
    // piece on each of the king's lines lifted, the king's lines reach past it to
    // the next piece; the empty points gained are the cannon's. (Two table lookups,
    // where sliding from each screen took one a screen and a mask.)
    let screens = rook & occ;
    let mut lifted_by_file = by_file;
    for screen in screens {
        lifted_by_file ^= rules::bitboard::file_major_bit(screen);
    }
    let cannon = attacks::rook(ksq, occ ^ screens, lifted_by_file) & !rook & !occ;
    [
        rook,
        cannon,
        attacks::knight_attackers(ksq, occ),
        attacks::pawn_attackers(us, ksq),
    ]
}

/// Does a quiet move of a `kind` piece to `to` give direct check, by the squares
/// of `check_squares`? (Kings, advisors and elephants never give direct check.)
#[inline(always)]
fn is_direct_check(checks: &[Bitboard; 4], kind: PieceKind, to: rules::Square) -> bool {
    let slot = match kind {
        PieceKind::Rook => 0,
        PieceKind::Cannon => 1,
        PieceKind::Knight => 2,
        PieceKind::Pawn => 3,
        _ => return false,
    };
    checks[slot].has(to)
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Stage {
    HashMove,
    Generate,
    Pick,
}

pub struct MovePicker<'t> {
    stage: Stage,
    /// When set, the hash-table bucket of each picked move's child is prefetched as
    /// the move is handed out, so the load overlaps the pruning tests before it is made.
    tt: Option<&'t TranspositionTable>,
    tt_move: Move,
    /// The generated moves; the first `len` (after the hash move is taken out) are
    /// the ones to pick from, `scores[i]` belonging to `moves[i]`.
    moves: MoveList,
    /// Slots past `len` are never read: most nodes cut off on the hash move and never
    /// generate, so the picker does not pay for zeroing 768 bytes each time.
    scores: [MaybeUninit<i32>; MAX_MOVES],
    len: usize,
    idx: usize,
    /// Quiescence: captures only (all moves when in check).
    captures_only: bool,
}

impl<'t> MovePicker<'t> {
    /// For the main search. `tt_move` must already be known legal (or null).
    #[inline(always)]
    pub fn new(tt_move: Move) -> MovePicker<'t> {
        MovePicker {
            tt: None,
            stage: if tt_move.is_null() {
                Stage::Generate
            } else {
                Stage::HashMove
            },
            tt_move,
            moves: MoveList::new(),
            scores: [MaybeUninit::uninit(); MAX_MOVES],
            len: 0,
            idx: 0,
            captures_only: false,
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

    /// The scores of the moves still to pick, `idx..len`.
    #[inline(always)]
    fn scores(&self) -> &[i32] {
        let init = &self.scores[..self.len];
        // SAFETY: `generate` wrote the first `len` scores (`len` is set only there,
        // after the writes), and `MaybeUninit<i32>` has the layout of `i32`.
        unsafe { &*(init as *const [MaybeUninit<i32>] as *const [i32]) }
    }

    /// The next move and whether it was ordered among the losing captures.
    #[inline]
    pub fn next(
        &mut self,
        pos: &Position,
        hist: &Histories,
        ply: usize,
        ctx: &OrderContext,
    ) -> Option<Move> {
        loop {
            match self.stage {
                Stage::HashMove => {
                    self.stage = Stage::Generate;
                    return Some(self.tt_move);
                }
                Stage::Generate => {
                    self.generate(pos, hist, ply, ctx);
                    self.stage = Stage::Pick;
                }
                Stage::Pick => {
                    let idx = self.idx;
                    if idx >= self.len {
                        return None;
                    }
                    // Selection of the first best-scored move among the rest (the
                    // earliest wins a tie), in one pass: measured faster than a max pass
                    // plus a find pass, or a vectorised max, on these short lists.
                    let rest = &self.scores()[idx..];
                    let (mut best, mut max) = (0, rest[0]);
                    for (i, &s) in rest.iter().enumerate().skip(1) {
                        if s > max {
                            max = s;
                            best = i;
                        }
                    }
                    let best = idx + best;
                    // Captures are scored as good ones and their exchange is looked at
                    // only when one is about to be handed out (most nodes cut off before
                    // they reach the last captures): a losing one takes its losing score
                    // where it stands and the pick is made again. The order is the one
                    // that scoring every capture first gives, since no capture's score
                    // can rise.
                    if max > KILLER_1
                        && !self.captures_only
                        && !see_ge(pos, self.moves.as_slice()[best], 0)
                    {
                        self.scores[best] = MaybeUninit::new(max - GOOD_CAPTURE + BAD_CAPTURE);
                        continue;
                    }
                    self.moves.as_mut_slice().swap(idx, best);
                    self.scores.swap(idx, best);
                    self.idx = idx + 1;
                    let m = self.moves.as_slice()[idx];
                    if let Some(tt) = self.tt {
                        tt.prefetch(pos.key_after(m));
                    }
                    return Some(m);
                }
            }
        }
    }

    /// Drop the quiet moves not yet picked (late-move pruning would skip each of them
    /// anyway) and return how many were dropped. Captures keep their order: the good
    /// ones were picked before any quiet, the losing ones come after all of them.
    pub fn skip_quiets(&mut self, pos: &Position) -> usize {
        if self.stage != Stage::Pick {
            return 0;
        }
        let mut n = self.idx;
        for i in self.idx..self.len {
            let m = self.moves.as_slice()[i];
            if pos.piece_at(m.to()).is_some() {
                self.moves.as_mut_slice()[n] = m;
                self.scores[n] = self.scores[i];
                n += 1;
            }
        }
        let dropped = self.len - n;
        self.len = n;
        dropped
    }

    /// Score of the move returned last (to tell losing captures apart).
    pub fn last_score(&self) -> i32 {
        if self.stage == Stage::Pick && self.idx > 0 {
            self.scores()[self.idx - 1]
        } else {
            i32::MAX
        }
    }

    fn generate(&mut self, pos: &Position, hist: &Histories, ply: usize, ctx: &OrderContext) {
        let kind = if self.captures_only {
            GenKind::Captures
        } else {
            GenKind::All
        };
        pos.generate(kind, &mut self.moves);
        let us = pos.side_to_move();
        let killers = hist.killers[ply.min(hist.killers.len() - 1)];
        let counter = ctx.prev.map_or(Move::NULL, |(p, m)| hist.counter(p, m));
        let captures_only = self.captures_only;
        let tt_move = self.tt_move;
        let check_bonus = if captures_only { 0 } else { ctx.check_bonus };
        let checks = if check_bonus != 0 {
            check_squares(pos)
        } else {
            [Bitboard::EMPTY; 4]
        };
        let moves = self.moves.as_mut_slice();
        let mut n = 0;
        // Compact in place: the hash move (already tried) drops out.
        for i in 0..moves.len() {
            let m = moves[i];
            if m == tt_move {
                continue;
            }
            let mover = match pos.piece_at(m.from()) {
                Some(p) => p,
                None => continue,
            };
            let s = if let Some(victim) = pos.piece_at(m.to()) {
                let v = VICTIM[victim.kind.index()] * 8 - VICTIM[mover.kind.index()] / 8
                    + hist.capture(mover, m, victim.kind) / 16;
                // Whether it loses material is asked when it is picked (`next`).
                GOOD_CAPTURE + v
            } else if m == killers[0] {
                KILLER_1
            } else if m == killers[1] {
                KILLER_2
            } else if m == counter {
                COUNTER
            } else {
                let checking = check_bonus != 0 && is_direct_check(&checks, mover.kind, m.to());
                hist.quiet(us, m) + hist.cont(&ctx.cont, mover, m) + check_bonus * checking as i32
            };
            moves[n] = m;
            self.scores[n] = MaybeUninit::new(s);
            n += 1;
        }
        self.len = n;
        self.idx = 0;
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

    /// With no history to tell quiet moves apart, every direct check is handed out
    /// before any other quiet move when the bonus is on.
    #[test]
    fn quiet_direct_checks_come_first_with_the_bonus() {
        let hist = Histories::new();
        let ctx = OrderContext {
            check_bonus: 16_000,
            ..OrderContext::default()
        };
        let mut checks_seen = 0;
        for fen in crate::bench_positions::BENCH_FENS {
            let pos = Position::from_fen(fen).expect("valid FEN");
            let checks = check_squares(&pos);
            let mut picker = MovePicker::new(Move::NULL);
            let mut quiet_non_check_seen = false;
            while let Some(m) = picker.next(&pos, &hist, 0, &ctx) {
                if pos.piece_at(m.to()).is_some() {
                    continue;
                }
                let mover = pos.piece_at(m.from()).expect("a piece moves");
                if is_direct_check(&checks, mover.kind, m.to()) {
                    assert!(!quiet_non_check_seen, "{fen}: check {m} after a quiet move");
                    checks_seen += 1;
                } else {
                    quiet_non_check_seen = true;
                }
            }
        }
        assert!(checks_seen > 10, "{checks_seen}");
    }

    /// `check_squares` names exactly the quiet moves of a rook, cannon, knight or
    /// pawn that give check by the moved piece itself, wherever the piece does not
    /// start on the enemy king's rank or file (there the occupancy it leaves
    /// behind changes the lines, and ordering accepts the error).
    #[test]
    fn check_squares_are_the_direct_checks() {
        let (mut predicted, mut agreed) = (0, 0);
        for fen in crate::bench_positions::BENCH_FENS {
            let pos = Position::from_fen(fen).expect("valid FEN");
            let checks = check_squares(&pos);
            let them = pos.side_to_move().flip();
            let ksq = pos.king_square(them);
            for &m in pos.legal_moves().as_slice() {
                let mover = pos.piece_at(m.from()).expect("a piece moves");
                let checker_kind = matches!(
                    mover.kind,
                    PieceKind::Rook | PieceKind::Cannon | PieceKind::Knight | PieceKind::Pawn
                );
                if !checker_kind
                    || pos.piece_at(m.to()).is_some()
                    || attacks::lines(ksq).has(m.from())
                {
                    continue;
                }
                let mut after = pos.clone();
                after.make_move(m);
                let direct = after.attackers_to_king(them).has(m.to());
                let said = is_direct_check(&checks, mover.kind, m.to());
                assert_eq!(said, direct, "{fen} {m}");
                predicted += said as usize;
                agreed += 1;
            }
        }
        assert!(predicted > 10 && agreed > 500, "{predicted} of {agreed}");
    }

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
                            dropped = mp.skip_quiets(&pos);
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
