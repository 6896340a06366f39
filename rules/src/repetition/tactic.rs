//! Chases by a forcing threat (Chinese 2020 rules, 第八章 图2 and 图3): a move that
//! does not attack a piece itself but sets up a check after which the piece is won.
//! 图2: the knight comes back so that next move it checks from 卧槽 and the rook falls;
//! 图3: after the rook move "可以下一着开始运用连续将军得车" (from the next move on,
//! continuous checks win the rook). Both are judged 捉.
//!
//! The test, precisely: the mover, moving again, has a checking move such that after
//! every legal reply it either wins the piece at once (a capture `chase::assess` calls
//! a chase) or, while checks remain (at most `TACTIC_DEPTH` checks in all), checks again
//! with the same property. The material the defender takes on the way (a knight given
//! up on the 卧槽 point) must be worth less than what the capture gains. A line that
//! mates is a kill (杀), not a piece won, and is not followed here.
//!
//! AXF counts none of this: its rules 8, 11 and 33 call threats to win material by a
//! check (要抽吃) idle, so only `RuleSet::Chinese` asks for it.

use super::chase::{self, value, ChaseReason};
use crate::attacks;
use crate::bitboard::Bitboard;
use crate::position::Position;
use crate::types::{Color, Move, PieceKind, Square};

/// Checking moves of the mover a forcing threat may use (图3's 连续将军 is two).
pub const TACTIC_DEPTH: u32 = 2;

/// What a capture by the piece on `a` of the piece on `t` gains, once the owner of `t`
/// has taken back where it can (`reason` as `assess` gave it).
fn gain(pos: &Position, a: Square, t: Square, reason: ChaseReason) -> i32 {
    let (Some(att), Some(vic)) = (pos.piece_at(a), pos.piece_at(t)) else {
        return 0;
    };
    let v = value(vic.kind) as i32;
    match reason {
        ChaseReason::Unprotected | ChaseReason::FalseRoot => v,
        // The capturer may be taken back: count it lost.
        _ => v - value(att.kind) as i32,
    }
}

/// Pieces among `want` that `by` (to move) wins by a capture at once, each gaining more
/// than `lost`; captures barred only by the checkers in `suspended` count (a threat a
/// check holds back stands, as in `chase::standing_threats_on`).
fn direct_wins(
    pos: &Position,
    by: Color,
    want: Bitboard,
    lost: i32,
    suspended: Bitboard,
) -> Bitboard {
    let mut won = Bitboard::EMPTY;
    let (occ, byf) = (pos.occupied(), pos.occ_by_file());
    for t in want & pos.pieces_of(by.flip()) {
        for a in chase::attackers_on(pos, t, by, occ, byf, Bitboard::FULL) {
            if let Some(reason) = chase::wins_by_capture(pos, by, a, t, suspended) {
                if gain(pos, a, t, reason) > lost {
                    won |= Bitboard::from_square(t);
                    break;
                }
            }
        }
    }
    won
}

/// The pieces among `want` (enemy points in `pos`) that the side to move wins by at most
/// `depth` checks and a capture, having lost `lost` on the way.
fn won_by_checks(pos: &mut Position, want: Bitboard, depth: u32, lost: i32) -> Bitboard {
    let side = pos.side_to_move();
    let mut result = Bitboard::EMPTY;
    let ksq = pos.king_square(side.flip());
    let moves = pos.legal_moves();
    for &c in moves.iter() {
        if (want & !result).is_empty() {
            break;
        }
        if !may_check(pos, c, ksq) {
            continue;
        }
        let acc = after_check(pos, c, want & !result, depth, lost, side);
        result |= acc;
    }
    result
}

/// Could the move `m` give check to the king on `ksq`? A cheap filter before playing it:
/// a rook, cannon or pawn checks along the king's rank or file, and a line opens or a
/// cannon gains or loses a screen only there; a knight checks from a knight's move away,
/// and its check is uncovered only from a point diagonal to the king (its leg).
#[inline]
pub(crate) fn may_check(pos: &Position, m: Move, ksq: Square) -> bool {
    let (f, t) = (m.from(), m.to());
    let on_lines = |s: Square| s.file() == ksq.file() || s.rank() == ksq.rank();
    let diagonal = f.file().abs_diff(ksq.file()) == 1 && f.rank().abs_diff(ksq.rank()) == 1;
    on_lines(f)
        || on_lines(t)
        || diagonal
        || (pos.piece_at(f).map(|p| p.kind) == Some(PieceKind::Knight)
            && attacks::knight_attackers(ksq, Bitboard::EMPTY).has(t))
}

/// Play the move `c` of `side`; if it checks, the pieces of `want` that `side` wins
/// whatever the reply (as in `won_by_checks`). `pos` is restored.
fn after_check(
    pos: &mut Position,
    c: Move,
    want: Bitboard,
    depth: u32,
    lost: i32,
    side: Color,
) -> Bitboard {
    pos.make_move(c);
    if !pos.in_check() {
        pos.unmake_move();
        return Bitboard::EMPTY;
    }
    // A piece taken by the check itself is not one won by the threat.
    let mut acc = want & !Bitboard::from_square(c.to());
    let replies = pos.legal_moves();
    if replies.is_empty() {
        // Mate: a kill, judged as such elsewhere.
        acc = Bitboard::EMPTY;
    }
    for &r in replies.iter() {
        if acc.is_empty() {
            break;
        }
        let taken = pos
            .piece_at(r.to())
            .map_or(0, |p| value(p.kind) as i32 * (p.color == side) as i32);
        // The wanted pieces as they stand after the reply (the reply may move one).
        let (from, to) = (
            Bitboard::from_square(r.from()),
            Bitboard::from_square(r.to()),
        );
        let moved = acc.has(r.from());
        let want_after = if moved { (acc & !from) | to } else { acc & !to };
        pos.make_move(r);
        let mut w = direct_wins(pos, side, want_after, lost + taken, Bitboard::EMPTY);
        if depth > 1 && (want_after & !w).any() {
            w |= won_by_checks(pos, want_after & !w, depth - 1, lost + taken);
        }
        pos.unmake_move();
        // Back to the points before the reply.
        let mut back = w & !to;
        if moved && w.has(r.to()) {
            back |= from;
        }
        acc &= back;
    }
    pos.unmake_move();
    acc
}

/// A piece the mover wins by force, and the piece that gives the first check.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ForcedWin {
    pub victim: Square,
    pub checker: Square,
}

/// Up to this many pieces won by force after one move.
pub const MAX_FORCED: usize = 8;

/// The pieces of the opponent that the side to move wins by at most `TACTIC_DEPTH`
/// checks and a capture (not kings; pawns only across the river, as `assess` decides),
/// restricted to `want`, each with the first checking piece.
pub(crate) fn forced_wins(pos: &mut Position, want: Bitboard) -> ([ForcedWin; MAX_FORCED], usize) {
    let side = pos.side_to_move();
    let mut out = [ForcedWin {
        victim: Square(0),
        checker: Square(0),
    }; MAX_FORCED];
    let mut n = 0;
    let want = want & pos.pieces_of(side.flip()) & !pos.pieces_of_kind(PieceKind::King);
    if want.is_empty() {
        return (out, 0);
    }
    let mut found = Bitboard::EMPTY;
    let ksq = pos.king_square(side.flip());
    let moves = pos.legal_moves();
    for &c in moves.iter() {
        let left = want & !found;
        if left.is_empty() || n == MAX_FORCED {
            break;
        }
        if !may_check(pos, c, ksq) {
            continue;
        }
        let won = after_check(pos, c, left, TACTIC_DEPTH, 0, side);
        for v in won {
            if n < MAX_FORCED {
                out[n] = ForcedWin {
                    victim: v,
                    checker: c.from(),
                };
                n += 1;
            }
        }
        found |= won;
    }
    (out, n)
}

/// Pieces of the opponent that the side to move already threatens to win, directly or by
/// force, among `want`: what a forcing threat must not have been before the move.
pub(crate) fn threatened(pos: &mut Position, want: Bitboard) -> Bitboard {
    let side = pos.side_to_move();
    // Before the move: a capture held back only by a check to answer stands already.
    let direct = direct_wins(pos, side, want, 0, chase::suspending_checkers(pos, side));
    let rest = want & !direct;
    if rest.is_empty() {
        return direct;
    }
    direct | won_by_checks(pos, rest, TACTIC_DEPTH, 0)
}

/// New forcing threats of the move `m` (legal in `pos`, not a check): pieces the mover
/// wins by force after it (moving again) that it did not already threaten to win before
/// it, and that no capture after it wins directly (those are plain chases). `pos` is
/// restored.
pub(crate) fn new_forced_wins(pos: &mut Position, m: Move) -> ([ForcedWin; MAX_FORCED], usize) {
    let side = pos.side_to_move();
    pos.make_move(m);
    pos.make_null_move();
    let enemy = pos.pieces_of(side.flip()) & !pos.pieces_of_kind(PieceKind::King);
    // Usually nothing is found: ask which finds are won directly only then.
    let (mut wins, mut n) = forced_wins(pos, enemy);
    let mut found = Bitboard::EMPTY;
    for w in &wins[..n] {
        found |= Bitboard::from_square(w.victim);
    }
    let direct = if n > 0 {
        direct_wins(pos, side, found, 0, Bitboard::EMPTY)
    } else {
        Bitboard::EMPTY
    };
    pos.unmake_move();
    pos.unmake_move();
    if n == 0 {
        return (wins, 0);
    }
    let before = threatened(pos, found & !direct) | direct;
    let mut k = 0;
    for i in 0..n {
        if !before.has(wins[i].victim) {
            wins[k] = wins[i];
            k += 1;
        }
    }
    n = k;
    (wins, n)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `may_check` must let every checking move through: random games from the start,
    /// every legal move of every position.
    #[test]
    fn may_check_misses_no_check() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut checks = 0;
        for _ in 0..40 {
            let mut pos = Position::startpos();
            for _ in 0..120 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let ksq = pos.king_square(pos.side_to_move().flip());
                for &m in moves.iter() {
                    pos.make_move(m);
                    let check = pos.in_check();
                    pos.unmake_move();
                    if check {
                        checks += 1;
                        assert!(may_check(&pos, m, ksq), "{} {m}", pos.to_fen());
                    }
                }
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                pos.make_move(moves.as_slice()[(seed % moves.len() as u64) as usize]);
            }
        }
        assert!(checks > 500, "only {checks} checking moves seen");
    }
}
