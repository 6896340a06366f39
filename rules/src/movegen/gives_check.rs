//! Whether a legal move gives check, read from the board without making it.

use crate::attacks;
use crate::bitboard::{file_major_bit, Bitboard};
use crate::position::Position;
use crate::types::{Move, PieceKind};

impl Position {
    /// Does the legal move `m` give check? Read from the board as it would be,
    /// without making the move: the enemy king is attacked by the piece on its new
    /// point, or by another piece of ours through the occupancy the move leaves
    /// (a line it opened, a knight's leg it left, a screen it became or stopped
    /// being for a cannon).
    pub fn gives_check(&self, m: Move) -> bool {
        let (from, to) = (m.from(), m.to());
        let Some(p) = self.piece_at(from) else {
            return false;
        };
        let us = p.color;
        let ksq = self.king_square(us.flip());
        // Only a move from or to the king's rank or file, or from a diagonal
        // neighbour of the king (a knight's leg), can open or screen a line
        // onto it; off those points only a knight or a pawn can check, by
        // itself (most moves are answered here, cheaply).
        let lines = attacks::lines(ksq);
        if !lines.has(to) && !(lines | attacks::diagonal_neighbours(ksq)).has(from) {
            return match p.kind {
                PieceKind::Knight => {
                    let occ =
                        (self.occupied() ^ Bitboard::from_square(from)) | Bitboard::from_square(to);
                    attacks::knight(to, occ).has(ksq)
                }
                PieceKind::Pawn => attacks::pawn(us, to).has(ksq),
                _ => false,
            };
        }
        let from_bb = Bitboard::from_square(from);
        let occ = (self.occupied() ^ from_bb) | Bitboard::from_square(to);
        let byf = (self.occ_by_file() ^ file_major_bit(from)) | file_major_bit(to);
        let direct = match p.kind {
            PieceKind::Rook => attacks::rook(to, occ, byf).has(ksq),
            PieceKind::Cannon => attacks::cannon_captures(to, occ, byf).has(ksq),
            PieceKind::Knight => attacks::knight(to, occ).has(ksq),
            PieceKind::Pawn => attacks::pawn(us, to).has(ksq),
            // A king or a palace piece attacks no enemy king (kings facing each
            // other is no legal move to have made).
            PieceKind::King | PieceKind::Advisor | PieceKind::Elephant => false,
        };
        // The moved piece is not on `from` any more: `alive` leaves it out there.
        direct || self.king_danger(ksq, us, occ, byf, !from_bb).any()
    }
}

#[cfg(test)]
mod tests {
    use crate::movegen::tests::lcg;
    use crate::Position;

    /// `gives_check`, read from the board without making the move, agrees with
    /// making each legal move and asking whether the other side is in check, in
    /// random positions (direct, discovered and cannon-screen checks alike).
    #[test]
    fn gives_check_equals_making_the_move_in_random_positions() {
        let mut rand = lcg(11);
        let (mut checks, mut quiet) = (0, 0);
        for _ in 0..2000 {
            let mut p = Position::startpos();
            for _ in 0..rand() % 160 {
                let moves = p.legal_moves();
                if moves.is_empty() {
                    break;
                }
                for &m in moves.as_slice() {
                    let mut q = p.clone();
                    q.make_move(m);
                    let made = q.in_check();
                    assert_eq!(p.gives_check(m), made, "{} {m}", p.to_fen());
                    if made {
                        checks += 1;
                    } else {
                        quiet += 1;
                    }
                }
                p.make_move(moves.as_slice()[rand() % moves.len()]);
            }
        }
        assert!(
            checks > 5000 && quiet > checks,
            "{checks} checks, {quiet} not"
        );
    }
}
