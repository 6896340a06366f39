//! Static exchange evaluation: the material outcome of a capture sequence on one
//! point when both sides always recapture with their least valuable piece and
//! may stop when it suits them.
//!
//! Attackers are recomputed after every capture from the changed occupancy,
//! because in xiangqi removing a piece does more than reveal a slider behind it:
//! it can give a cannon its screen, take a cannon's screen away, or unblock a
//! knight's leg. Pins are ignored (as in chess SEE), except that a king never
//! captures into a point the other side still attacks.

use crate::attacks;
use crate::bitboard::{file_major_bit, Bitboard};
use crate::position::{file_of, Position};
use crate::types::{Color, Move, Piece, PieceKind, Square};
use std::convert::Infallible;
use std::ops::ControlFlow;

/// Exchange values by kind (King, Advisor, Elephant, Knight, Rook, Cannon, Pawn).
pub const SEE_VALUE: [i32; 7] = [20000, 200, 200, 400, 900, 450, 100];

/// The longest exchange played out, the first capture included.
const SEE_MAX_CAPTURES: usize = 40;

impl Position {
    /// Material balance of the exchange that `m` starts, from the mover's view.
    /// `m` must be a legal move; a quiet move is an exchange that starts with nothing taken.
    pub fn see(&self, m: Move) -> i32 {
        let mover = match self.piece_at(m.from()) {
            Some(p) => p,
            None => return 0,
        };
        // `gain[d]`: the balance of the side that took the `d`-th capture, were the
        // exchange to stop there.
        let mut gain = [0i32; SEE_MAX_CAPTURES];
        gain[0] = self
            .piece_at(m.to())
            .map_or(0, |p| SEE_VALUE[p.kind.index()]);
        let played = self.exchange(m, mover, gain[0], |d, g| {
            gain[d] = g;
            ControlFlow::<Infallible>::Continue(())
        });
        let mut d = match played {
            ControlFlow::Continue((d, _)) => d,
            ControlFlow::Break(never) => match never {},
        };
        while d > 0 {
            gain[d - 1] = -((-gain[d - 1]).max(gain[d]));
            d -= 1;
        }
        gain[0]
    }

    /// Is the exchange that `m` starts worth at least `threshold`? The same answer as
    /// `see(m) >= threshold`, usually without playing the exchange to its end.
    ///
    /// Two bounds answer many calls without the exchange: the mover's side never ends
    /// above the value it takes first (the other side may always stop there), and never
    /// below that value less its capturer (it may always stop after the recapture).
    /// Past them the exchange is played capture by capture, as `see` plays it, and
    /// stops as soon as its outcome is on one side of the threshold.
    #[inline]
    pub fn see_ge(&self, m: Move, threshold: i32) -> bool {
        let Some(mover) = self.piece_at(m.from()) else {
            return 0 >= threshold;
        };
        let taken = self
            .piece_at(m.to())
            .map_or(0, |p| SEE_VALUE[p.kind.index()]);
        if taken < threshold {
            return false;
        }
        if taken - SEE_VALUE[mover.kind.index()] >= threshold {
            return true;
        }
        self.exchange_ge(m, mover, taken, threshold)
    }

    /// `see(m) >= threshold` for a capture past the two bounds of `see_ge`.
    ///
    /// With `b[d]` the mover's balance when the exchange stops after its `d`-th
    /// recapture (`b[0]` = `taken`), the outcome is at least `threshold` exactly when
    /// `b[0] >= t && (b[1] >= t || (b[2] >= t && (b[3] >= t || …)))` up to the last
    /// capture `see` plays: at an even `d` the other side may stop (so both must hold),
    /// at an odd `d` the mover may. So the first even `d` with `b[d] < t` answers no,
    /// the first odd one with `b[d] >= t` answers yes, and otherwise the last balance
    /// decides. The captures are those of `see`, played by the same `exchange`.
    fn exchange_ge(&self, m: Move, mover: Piece, taken: i32, threshold: i32) -> bool {
        // `gain` is `see`'s `gain[d]`: the balance of the side that took last.
        let played = self.exchange(m, mover, taken, |d, gain| {
            if d % 2 == 0 {
                if gain < threshold {
                    return ControlFlow::Break(false);
                }
            } else if -gain >= threshold {
                return ControlFlow::Break(true);
            }
            ControlFlow::Continue(())
        });
        match played {
            ControlFlow::Break(answer) => answer,
            ControlFlow::Continue((d, gain)) => {
                let balance = if d % 2 == 0 { gain } else { -gain };
                balance >= threshold
            }
        }
    }

    /// The exchange that `m` (by `mover`, taking `taken`) starts, played capture by
    /// capture for `see` and `exchange_ge`: each side in turn takes back on the target
    /// with its cheapest piece (the king only when the other side could not take it
    /// back), until a side has no piece to take with, both of the last two balances
    /// are on the losing side for the side that took last, or `SEE_MAX_CAPTURES`
    /// captures are played. After the `d`-th recapture, `visit(d, gain)` gets the
    /// balance of the side that took it, were the exchange to stop there; a `Break`
    /// from it ends the exchange with that answer. Played to its end, the exchange
    /// gives the number of recaptures and the last balance.
    #[inline(always)]
    fn exchange<R>(
        &self,
        m: Move,
        mover: Piece,
        taken: i32,
        mut visit: impl FnMut(usize, i32) -> ControlFlow<R>,
    ) -> ControlFlow<R, (usize, i32)> {
        let (from, to) = (m.from(), m.to());
        // The balance of the side that took last.
        let mut gain = taken;
        let mut on_target = SEE_VALUE[mover.kind.index()];
        let mut occ = self.occupied() ^ Bitboard::from_square(from);
        let mut byf = self.occ_by_file() ^ file_major_bit(from);
        let mut gone = Bitboard::from_square(from);
        let mut side = mover.color.flip();
        // Only pieces that could ever take on `to` are looked at.
        let near = self.near(to);
        let mut d = 0;
        while let Some((sq, kind)) = self.cheapest_attacker(to, side, occ, byf, near & !gone) {
            if kind == PieceKind::King {
                // The king may only take last: not if the other side could take back.
                let occ2 = occ ^ Bitboard::from_square(sq);
                let byf2 = byf ^ file_major_bit(sq);
                if self
                    .attackers_with(to, side.flip(), occ2, byf2, !gone)
                    .any()
                {
                    break;
                }
            }
            d += 1;
            let next = on_target - gain;
            visit(d, next)?;
            let ends = (-gain).max(next) < 0 || d + 1 >= SEE_MAX_CAPTURES;
            gain = next;
            if ends {
                break;
            }
            on_target = SEE_VALUE[kind.index()];
            occ ^= Bitboard::from_square(sq);
            byf ^= file_major_bit(sq);
            gone |= Bitboard::from_square(sq);
            side = side.flip();
        }
        ControlFlow::Continue((d, gain))
    }

    /// The pieces of either side that could ever take on `to`, whatever the
    /// occupancy: the attacks of every kind from `to` on an empty board, which
    /// blocked legs, eyes and rays only ever narrow.
    #[inline(always)]
    fn near(&self, to: Square) -> Bitboard {
        let k = |kind: PieceKind| self.pieces_of_kind(kind);
        let pawns = (attacks::pawn_attackers(Color::Red, to)
            & self.pieces(Color::Red, PieceKind::Pawn))
            | (attacks::pawn_attackers(Color::Black, to)
                & self.pieces(Color::Black, PieceKind::Pawn));
        pawns
            | (attacks::advisor(to) & k(PieceKind::Advisor))
            | (attacks::elephant(to, Bitboard::EMPTY) & k(PieceKind::Elephant))
            | (attacks::knight_attackers(to, Bitboard::EMPTY) & k(PieceKind::Knight))
            | (attacks::king(to) & k(PieceKind::King))
            | (attacks::lines(to)
                & (k(PieceKind::Rook) | k(PieceKind::Cannon) | k(PieceKind::King)))
    }

    /// The piece of `side` that takes first on `to` (occupancy `occ`/`byf`, only pieces
    /// in `alive`): the first kind with an attacker in the order pawn, advisor, elephant, knight,
    /// cannon, rook, king (cheapest first), the lowest point
    /// within it. This is `attackers_with` looked at kind by kind, cheapest first, so
    /// that the costlier slider lookups run only when no cheaper piece attacks, and
    /// a kind's lookup only when `alive` holds a piece of that kind.
    #[inline(always)]
    fn cheapest_attacker(
        &self,
        to: Square,
        side: Color,
        occ: Bitboard,
        byf: u128,
        alive: Bitboard,
    ) -> Option<(Square, PieceKind)> {
        let ours = self.pieces_of(side) & alive;
        if ours.is_empty() {
            return None;
        }
        let of = |k: PieceKind| self.pieces_of_kind(k) & ours;
        let found = |b: Bitboard, k: PieceKind| b.any().then(|| (b.lsb(), k));
        let pawns = attacks::pawn_attackers(side, to) & of(PieceKind::Pawn);
        if pawns.any() {
            return found(pawns, PieceKind::Pawn);
        }
        let advisors = attacks::advisor(to) & of(PieceKind::Advisor);
        if advisors.any() {
            return found(advisors, PieceKind::Advisor);
        }
        let elephants = of(PieceKind::Elephant);
        if elephants.any() {
            let b = attacks::elephant(to, occ) & elephants;
            if b.any() {
                return found(b, PieceKind::Elephant);
            }
        }
        let knights = of(PieceKind::Knight);
        if knights.any() {
            let b = attacks::knight_attackers(to, occ) & knights;
            if b.any() {
                return found(b, PieceKind::Knight);
            }
        }
        let cannons = of(PieceKind::Cannon);
        if cannons.any() {
            let b = attacks::cannon_captures(to, occ, byf) & cannons;
            if b.any() {
                return found(b, PieceKind::Cannon);
            }
        }
        let (rooks, kings) = (of(PieceKind::Rook), of(PieceKind::King));
        if (rooks | kings).is_empty() {
            return None;
        }
        let rays = attacks::rook(to, occ, byf);
        if (rays & rooks).any() {
            return found(rays & rooks, PieceKind::Rook);
        }
        let mut b = attacks::king(to) & kings;
        // The flying general, as in `attackers_with`.
        if to == self.king_square(side.flip()) {
            b |= rays & kings & file_of(to);
        }
        found(b, PieceKind::King)
    }
}

#[cfg(test)]
mod tests {
    use crate::{Move, Position};

    fn see(fen: &str, mv: &str) -> i32 {
        let p = Position::from_fen(fen).unwrap();
        let m = Move::parse_iccs(mv).unwrap();
        assert!(p.is_legal(m), "{mv} illegal in {fen}");
        p.see(m)
    }

    /// Positions from random games, with every legal move of each.
    fn random_positions(seed: u64, n: usize) -> Vec<Position> {
        let mut x = seed;
        let mut rand = move || {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (x >> 33) as usize
        };
        let mut out = Vec::new();
        while out.len() < n {
            let mut p = Position::startpos();
            for _ in 0..rand() % 120 {
                let moves = p.legal_moves();
                if moves.is_empty() {
                    break;
                }
                p.make_move(moves.as_slice()[rand() % moves.len()]);
            }
            out.push(p);
        }
        out
    }

    #[test]
    fn cheapest_attacker_is_the_cheapest_of_attackers_with() {
        use crate::bitboard::Bitboard;
        use crate::{Color, PieceKind, Square};
        const ORDER: [PieceKind; 7] = [
            PieceKind::Pawn,
            PieceKind::Advisor,
            PieceKind::Elephant,
            PieceKind::Knight,
            PieceKind::Cannon,
            PieceKind::Rook,
            PieceKind::King,
        ];
        let mut checked = 0;
        for p in random_positions(7, 150) {
            for sq in 0..90u8 {
                let to = Square(sq);
                for side in Color::BOTH {
                    // Also with one piece taken off (as the exchange does).
                    for gone in [Bitboard::EMPTY, Bitboard::from_square(Square(sq / 2))] {
                        let occ = p.occupied() & !gone;
                        let byf = (0..90u8)
                            .map(Square)
                            .filter(|&s| occ.has(s))
                            .fold(0u128, |b, s| b | crate::bitboard::file_major_bit(s));
                        let all = p.attackers_with(to, side, occ, byf, !gone);
                        let expected = ORDER.iter().find_map(|&k| {
                            let b = all & p.pieces_of_kind(k);
                            b.any().then(|| (b.lsb(), k))
                        });
                        assert_eq!(
                            p.cheapest_attacker(to, side, occ, byf, !gone),
                            expected,
                            "{} {to} {side:?}",
                            p.to_fen()
                        );
                        // `near` leaves out no attacker.
                        assert_eq!(all & !p.near(to), Bitboard::EMPTY, "{} {to}", p.to_fen());
                        assert_eq!(
                            p.cheapest_attacker(to, side, occ, byf, p.near(to) & !gone),
                            expected,
                            "{} {to} {side:?}",
                            p.to_fen()
                        );
                        checked += expected.is_some() as u32;
                    }
                }
            }
        }
        assert!(checked > 1000);
    }

    #[test]
    fn see_ge_agrees_with_see_at_every_threshold() {
        let mut ge = 0;
        for p in random_positions(11, 600) {
            for &m in p.legal_moves().iter() {
                let v = p.see(m);
                let fixed = [-1200, -900, -450, -120, -30, 0, 1, 100, 250, 450, 900];
                for t in fixed.into_iter().chain([v - 1, v, v + 1]) {
                    assert_eq!(p.see_ge(m, t), v >= t, "{} {m} {t}: see {v}", p.to_fen());
                    ge += (v >= t) as u32;
                }
            }
        }
        assert!(ge > 1000);
    }

    #[test]
    fn undefended_piece_is_won() {
        // Red rook takes an unprotected black knight.
        assert_eq!(see("4k4/9/9/9/4n4/9/9/9/4R4/3K5 w", "e1e5"), 400);
    }

    #[test]
    fn defended_by_pawn_loses_the_rook() {
        // Black knight on e5 protected by a pawn on e6: RxN, PxR.
        assert_eq!(see("4k4/9/9/4p4/4n4/9/9/9/4R4/3K5 w", "e1e5"), 400 - 900);
    }

    #[test]
    fn cannon_behind_a_screen_defends() {
        // Black pawn e5 is guarded by the rook on e7 and by the cannon on e9 (screen: the rook).
        // Red pawn takes; black recaptures with the cheaper cannon; Red has nothing left.
        assert_eq!(see("3kc4/9/4r4/9/4p4/4P4/9/9/9/5K3 w", "e4e5"), 0);
    }

    #[test]
    fn cannon_loses_its_screen() {
        // Red cannon e1 takes e5 over the red pawn on e3; the black rook on e9 takes back.
        assert_eq!(see("3kr4/9/9/9/4p4/9/4P4/9/4C4/5K3 w", "e1e5"), 100 - 450);
    }

    #[test]
    fn knight_leg_blocks_a_defender() {
        // The black knight g7 would defend f5, but its leg g6 is blocked by a black pawn.
        assert_eq!(see("3k5/9/6n2/6p2/5c3/9/9/9/5R3/4K4 w", "f1f5"), 450);
        // Without the blocking pawn the knight takes back.
        assert_eq!(see("3k5/9/6n2/9/5c3/9/9/9/5R3/4K4 w", "f1f5"), 450 - 900);
    }

    #[test]
    fn king_does_not_recapture_into_attack() {
        // Red rook takes the advisor next to the black king; the second rook guards d9.
        assert_eq!(see("3ak4/9/9/9/9/9/9/3R5/3R5/5K3 w", "d2d9"), 200);
        // Without the guard the king takes the rook.
        assert_eq!(see("3ak4/9/9/9/9/9/9/9/3R5/5K3 w", "d1d9"), 200 - 900);
    }
}
