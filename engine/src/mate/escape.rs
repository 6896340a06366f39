//! Which attacker moves cannot leave the defender without a move, decided without
//! making them: the mate-in-one test of the prover makes only the others.
//!
//! A move `m` of the attacker (not in check) leaves the defender, whose king is
//! on `k`, without a legal move only if it takes away every move the defender
//! has now (were it its turn). Whether the defender's king stands attacked
//! after a non-king defender move depends only on the points of the *king zone*:
//! `k`'s rank and file (rooks, cannons and their screens, the kings facing) and
//! the points within two steps of `k` (knights and their legs, pawns). So when
//! neither `m`'s from- nor its to-point lies in the zone, every non-king
//! defender move stays exactly as legal as it is now, unless `m` changes the
//! move itself: captures its piece (`m.to` on its from-point), blocks it (`m.to`
//! on a point it passes, its knight leg or elephant eye, or its target), or
//! removes a cannon's screen or target (`m.from` on those points). A defender
//! move none of whose points `m` touches survives `m`: the defender still has
//! a move, and `m` does not mate. (Every check has a point in the zone, so all
//! checks are still made.)
//!
//! A second rule covers the moves inside the zone that do not give check. A
//! defender move `d` whose from-point is neither on `k`'s rank or file nor one
//! of its diagonal neighbours (a knight's leg towards `k`), and whose to-point
//! is not on `k`'s rank or file, can never expose its king: it opens no line
//! and no knight's leg towards `k` and becomes no cannon's screen. After a move
//! `m` that leaves the king unattacked, such a `d` is legal exactly when it
//! still can be made, which only `m` touching its points can prevent. So a
//! non-checking `m` that leaves one such *safe* defender move untouched does
//! not mate; with three safe moves of pairwise disjoint points no move does
//! (a move touches two points), and only checks are made.

use rules::{attacks, Bitboard, Move, PieceKind, Position, Square};

/// What the mate-in-one test needs to rule moves out: the king zone and up to
/// two defender moves' points (two with no point in common, when there are),
/// and up to three safe defender moves' points (pairwise disjoint).
pub(super) struct Escapes {
    zone: Bitboard,
    witnesses: [Bitboard; 2],
    count: usize,
    safe: [Bitboard; SAFE_MAX],
    safe_count: usize,
}

/// Safe witnesses kept at most: a move touches two points, so three pairwise
/// disjoint ones always leave one.
const SAFE_MAX: usize = 3;

/// The points a defender move `d` depends on: its from- and to-points, the points
/// it passes (a rook's or cannon's path, a cannon's screen), a knight's leg, an
/// elephant's eye.
fn touched(pos: &Position, d: Move) -> Bitboard {
    let (from, to) = (d.from(), d.to());
    let mut t =
        Bitboard::from_square(from) | Bitboard::from_square(to) | attacks::between(from, to);
    match pos.piece_at(from).map(|p| p.kind) {
        Some(PieceKind::Knight) => t |= Bitboard::from_square(attacks::knight_leg(from, to)),
        Some(PieceKind::Elephant) => t |= Bitboard::from_square(attacks::elephant_eye(from, to)),
        _ => {}
    }
    t
}

/// `k`'s rank and file and the points within two steps of it.
fn king_zone(k: Square) -> Bitboard {
    let mut z = attacks::lines(k) | Bitboard::from_square(k);
    for df in -2..=2 {
        for dr in -2..=2 {
            if let Some(s) = Square::try_new(k.file() as i32 + df, k.rank() as i32 + dr) {
                z |= Bitboard::from_square(s);
            }
        }
    }
    z
}

impl Escapes {
    /// The defender's present moves, for `pos` with the attacker to move. `None`
    /// when the attacker is in check (no pass to look from) or the defender has
    /// no move but king moves (nothing to rule out with).
    pub(super) fn of(pos: &mut Position) -> Option<Escapes> {
        if pos.in_check() {
            return None;
        }
        let k = pos.king_square(pos.side_to_move().flip());
        let lines = attacks::lines(k);
        // From-points of defender moves that can never expose the king.
        let quiet_from = !(lines | attacks::diagonal_neighbours(k) | Bitboard::from_square(k));
        pos.make_null_move();
        let moves = pos.legal_moves();
        let mut e = Escapes {
            zone: king_zone(k),
            witnesses: [Bitboard::EMPTY; 2],
            count: 0,
            safe: [Bitboard::EMPTY; SAFE_MAX],
            safe_count: 0,
        };
        for &d in moves.as_slice() {
            if d.from() == k {
                continue;
            }
            let t = touched(pos, d);
            if e.count == 0 {
                e.witnesses[0] = t;
                e.count = 1;
            } else if e.count == 1 && (t & e.witnesses[0]).is_empty() {
                e.witnesses[1] = t;
                e.count = 2;
            }
            if e.safe_count < SAFE_MAX
                && quiet_from.has(d.from())
                && !lines.has(d.to())
                && e.safe[..e.safe_count].iter().all(|s| (*s & t).is_empty())
            {
                e.safe[e.safe_count] = t;
                e.safe_count += 1;
            }
            if e.count == 2 && e.safe_count == SAFE_MAX {
                break;
            }
        }
        pos.unmake_move();
        (e.count > 0).then_some(e)
    }

    /// Whether no move but a check can leave the defender without a move
    /// (three safe defender moves with no point in common).
    pub(super) fn only_checks_mate(&self) -> bool {
        self.safe_count == SAFE_MAX
    }

    /// Whether `m` certainly leaves the defender a move (so it cannot mate);
    /// `checks` tells whether `m` gives check, asked only when the answer
    /// depends on it.
    #[inline]
    pub(super) fn survive(&self, m: Move, checks: impl FnOnce() -> bool) -> bool {
        let (from, to) = (m.from(), m.to());
        let untouched = |w: &Bitboard| !w.has(from) && !w.has(to);
        if !self.zone.has(from)
            && !self.zone.has(to)
            && self.witnesses[..self.count].iter().any(untouched)
        {
            return true;
        }
        self.safe[..self.safe_count].iter().any(untouched) && !checks()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every move `survive` passes over leaves the defender a legal move, on the
    /// mate suite's positions and on random playouts from the start; and it does
    /// pass over many (else the prover gains nothing).
    #[test]
    fn a_move_ruled_out_never_mates() {
        let suite = include_str!("../../tests/data/mates.tsv");
        let mut positions: Vec<Position> = suite
            .lines()
            .skip(1)
            .filter_map(|l| Position::from_fen(l.split('\t').nth(1)?).ok())
            .collect();
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..60 {
            let mut pos = Position::startpos();
            for _ in 0..120 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                pos.make_move(moves.as_slice()[(seed >> 33) as usize % moves.len()]);
                positions.push(pos.clone());
            }
        }
        let (mut ruled_out, mut made) = (0, 0);
        for mut pos in positions {
            let Some(e) = Escapes::of(&mut pos) else {
                continue;
            };
            for &m in pos.legal_moves().as_slice() {
                if e.survive(m, || pos.gives_check(m)) {
                    ruled_out += 1;
                    pos.make_move(m);
                    assert!(pos.has_legal_move(), "{} {m}", pos.to_fen());
                    pos.unmake_move();
                } else {
                    made += 1;
                }
            }
        }
        assert!(ruled_out > made, "ruled out {ruled_out}, made {made}");
    }
}
