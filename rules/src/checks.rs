//! The legal moves that give check, found without looking at every move: the
//! mate prover's last move is a check or a move that takes the defender's last
//! move away, and where the second cannot happen only checks need making.
//!
//! A move checks either by the piece it moves (from its new point, with its old
//! point left empty) or by another piece of ours: one it uncovers (a rook's or
//! our king's single blocker, one of a cannon's two screens, a knight's leg)
//! or one it becomes the screen of (a point between our cannon and the enemy
//! king with nothing on it). So the candidates are: every move of a piece that
//! stands on the enemy king's rank or file or on a knight's leg towards it (a
//! diagonal neighbour; every such blocker stands on one of those points); and
//! for the other pieces, the moves onto the points
//! from which that kind attacks the king (a rook: the king's rays up to and
//! including the first piece; a cannon: the king's rank and file; a knight: the
//! points a knight's move away; a pawn: its points next to the king) or onto an
//! empty cannon line. Each candidate is then asked exactly (`gives_check`) and
//! tested for legality.

use crate::attacks;
use crate::movegen::MoveList;
use crate::{Bitboard, Move, PieceKind, Position};

impl Position {
    /// The legal moves of the side to move that give check.
    pub fn legal_checks(&self) -> MoveList {
        let us = self.side_to_move();
        let them = us.flip();
        let k = self.king_square(them);
        let occ = self.occupied();
        let byf = self.occ_by_file();
        let lines = attacks::lines(k);
        // Our pieces whose every move is a candidate.
        // (The blockers a move can uncover a check from, a rook's or our king's
        // single one, a cannon's two screens, a knight's leg, all stand there.)
        let movers = (lines | attacks::diagonal_neighbours(k)) & self.pieces_of(us);
        // Empty lines between our cannons and the king: landing there screens.
        let mut screens = Bitboard::EMPTY;
        for c in self.pieces(us, PieceKind::Cannon) & lines {
            let between = attacks::between(k, c);
            if (between & occ).is_empty() {
                screens |= between;
            }
        }
        let rook_points = attacks::rook(k, occ, byf) | screens;
        let knight_points = attacks::knight_attackers(k, Bitboard::EMPTY) | screens;
        let pawn_points = attacks::pawn_attackers(us, k) | screens;
        let own_king = self.king_square(us);
        let mut list = MoveList::new();
        for from in self.pieces_of(us) {
            let kind = self.piece_at(from).expect("a piece of ours").kind;
            let wanted = if movers.has(from) {
                Bitboard::FULL
            } else {
                match kind {
                    PieceKind::Rook => rook_points,
                    PieceKind::Cannon => lines,
                    PieceKind::Knight => knight_points,
                    PieceKind::Pawn => pawn_points,
                    PieceKind::Advisor | PieceKind::Elephant | PieceKind::King => screens,
                }
            };
            for to in self.pseudo_targets(from) & wanted {
                let ksq = if from == own_king { to } else { own_king };
                let m = Move::new(from, to);
                if self.move_keeps_king_safe(from, to, ksq) && self.gives_check(m) {
                    list.push(m);
                }
            }
        }
        list
    }
}

#[cfg(test)]
mod tests {
    /// `legal_checks` holds exactly the legal moves that give check, in random
    /// positions of random games (and there are many of them to compare).
    #[test]
    fn legal_checks_are_the_checking_legal_moves() {
        let mut checks = 0;
        crate::movegen::tests::for_random_positions(5, 1500, 160, |p| {
            let mut want: Vec<_> = p
                .legal_moves()
                .iter()
                .copied()
                .filter(|&m| {
                    let mut q = p.clone();
                    q.make_move(m);
                    q.in_check()
                })
                .collect();
            let mut got: Vec<_> = p.legal_checks().iter().copied().collect();
            want.sort_by_key(|m| (m.from().index(), m.to().index()));
            got.sort_by_key(|m| (m.from().index(), m.to().index()));
            assert_eq!(got, want, "{}", p.to_fen());
            checks += want.len();
        });
        assert!(checks > 3000, "{checks}");
    }
}
