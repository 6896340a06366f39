//! Static exchange evaluation: the material outcome of a capture sequence on one
//! point when both sides always recapture with their least valuable piece and
//! may stop when it suits them.
//!
//! Attackers are recomputed after every capture from the changed occupancy,
//! because in xiangqi removing a piece does more than reveal a slider behind it:
//! it can give a cannon its screen, take a cannon's screen away, or unblock a
//! knight's leg. Pins are ignored (as in chess SEE), except that a king never
//! captures into a point the other side still attacks.

use crate::bitboard::{file_major_bit, Bitboard};
use crate::position::Position;
use crate::types::{Move, PieceKind};

/// Exchange values by kind (King, Advisor, Elephant, Knight, Rook, Cannon, Pawn).
pub const SEE_VALUE: [i32; 7] = [20000, 200, 200, 400, 900, 450, 100];

/// Order in which a side spends its attackers: cheapest first.
const CHEAPEST_FIRST: [PieceKind; 7] = [
    PieceKind::Pawn,
    PieceKind::Advisor,
    PieceKind::Elephant,
    PieceKind::Knight,
    PieceKind::Cannon,
    PieceKind::Rook,
    PieceKind::King,
];

impl Position {
    /// Material balance of the exchange that `m` starts, from the mover's view.
    /// `m` must be a legal move; a quiet move is an exchange that starts with nothing taken.
    pub fn see(&self, m: Move) -> i32 {
        let (from, to) = (m.from(), m.to());
        let mover = match self.piece_at(from) {
            Some(p) => p,
            None => return 0,
        };
        let mut gain = [0i32; 40];
        gain[0] = self.piece_at(to).map_or(0, |p| SEE_VALUE[p.kind.index()]);
        let mut on_target = SEE_VALUE[mover.kind.index()];
        let mut occ = self.occupied() ^ Bitboard::from_square(from);
        let mut byf = self.occ_by_file() ^ file_major_bit(from);
        let mut gone = Bitboard::from_square(from);
        let mut side = mover.color.flip();
        let mut d = 0;
        loop {
            let attackers = self.attackers_with(to, side, occ, byf, !gone);
            if attackers.is_empty() {
                break;
            }
            let (sq, kind) = match CHEAPEST_FIRST.iter().find_map(|&k| {
                (attackers & self.pieces_of_kind(k))
                    .into_iter()
                    .next()
                    .map(|s| (s, k))
            }) {
                Some(x) => x,
                None => break,
            };
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
            gain[d] = on_target - gain[d - 1];
            if (-gain[d - 1]).max(gain[d]) < 0 || d + 1 >= gain.len() {
                break;
            }
            on_target = SEE_VALUE[kind.index()];
            occ ^= Bitboard::from_square(sq);
            byf ^= file_major_bit(sq);
            gone |= Bitboard::from_square(sq);
            side = side.flip();
        }
        while d > 0 {
            gain[d - 1] = -((-gain[d - 1]).max(gain[d]));
            d -= 1;
        }
        gain[0]
    }

    /// Is the exchange that `m` starts worth at least `threshold`?
    pub fn see_ge(&self, m: Move, threshold: i32) -> bool {
        self.see(m) >= threshold
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
