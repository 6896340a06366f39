//! Attack queries on a position: the attackers of a point, the checkers, the
//! danger to a king under a changed occupancy, and the pieces that block attacks
//! on a king (pins and discovered checks).

use super::Position;
use crate::attacks;
use crate::bitboard::Bitboard;
use crate::types::{Color, PieceKind, Square};

impl Position {
    /// Pieces of colour `by` that attack `s` under occupancy `occ`/`occ_by_file`,
    /// restricted to the attacker set `alive` (so a caller can remove captured pieces).
    /// Kings count as attackers of adjacent palace points, and of the other king
    /// along an open file (the flying-general rule).
    #[inline(always)]
    pub fn attackers_with(
        &self,
        s: Square,
        by: Color,
        occ: Bitboard,
        occ_by_file: u128,
        alive: Bitboard,
    ) -> Bitboard {
        let them = self.by_color[by.index()] & alive;
        let k = &self.by_kind;
        let mut a = attacks::knight_attackers(s, occ) & k[PieceKind::Knight.index()];
        a |= attacks::pawn_attackers(by, s) & k[PieceKind::Pawn.index()];
        let rook_rays = attacks::rook(s, occ, occ_by_file);
        a |= rook_rays & k[PieceKind::Rook.index()];
        let kings = k[PieceKind::King.index()];
        // The flying general: a king "attacks" the other king along an open file only.
        if s == self.king[by.flip().index()] {
            a |= rook_rays & kings & file_of(s);
        }
        a |= attacks::king(s) & kings;
        a |= attacks::cannon_captures(s, occ, occ_by_file) & k[PieceKind::Cannon.index()];
        a |= attacks::advisor(s) & k[PieceKind::Advisor.index()];
        a |= attacks::elephant(s, occ) & k[PieceKind::Elephant.index()];
        a & them
    }

    /// All pieces of colour `by` attacking `s` in the current position.
    pub fn attackers(&self, s: Square, by: Color) -> Bitboard {
        self.attackers_with(s, by, self.occupied(), self.occ_by_file, Bitboard::FULL)
    }

    /// Enemy pieces giving check to the king of `c` (including a facing king).
    #[inline(always)]
    pub fn attackers_to_king(&self, c: Color) -> Bitboard {
        let ksq = self.king[c.index()];
        self.king_danger(
            ksq,
            c.flip(),
            self.occupied(),
            self.occ_by_file,
            Bitboard::FULL,
        )
    }

    /// Checkers of the side to move.
    #[inline(always)]
    pub fn checkers(&self) -> Bitboard {
        self.checkers
    }

    #[inline(always)]
    pub fn in_check(&self) -> bool {
        self.checkers().any()
    }

    /// Would a king on `ksq` be attacked by colour `by`, given an occupancy and the set
    /// of enemy pieces still on the board? Only the kinds that can reach a palace
    /// (rook, cannon, knight, pawn, and the enemy king along the file) are looked at.
    #[inline(always)]
    pub(crate) fn king_danger(
        &self,
        ksq: Square,
        by: Color,
        occ: Bitboard,
        occ_by_file: u128,
        alive: Bitboard,
    ) -> Bitboard {
        let them = self.by_color[by.index()] & alive;
        let k = &self.by_kind;
        let mut a = attacks::knight_attackers(ksq, occ) & k[PieceKind::Knight.index()];
        a |= attacks::pawn_attackers(by, ksq) & k[PieceKind::Pawn.index()];
        // Kings are never on the same rank, so a rook ray meeting the enemy king is the open file.
        a |= attacks::rook(ksq, occ, occ_by_file)
            & (k[PieceKind::Rook.index()] | k[PieceKind::King.index()]);
        a |= attacks::cannon_captures(ksq, occ, occ_by_file) & k[PieceKind::Cannon.index()];
        a & them
    }

    /// Pieces (of either colour) whose removal from the board would expose the king of
    /// `c` to a rook, cannon, knight or the enemy king: the single piece between a rook
    /// and the king, both pieces between a cannon and the king, a piece on the leg of a
    /// knight that eyes the king. Used for pins and discovered checks.
    pub fn king_blockers(&self, c: Color) -> Bitboard {
        let ksq = self.king[c.index()];
        let them = c.flip();
        let occ = self.occupied();
        let mut blockers = Bitboard::EMPTY;
        let line_attackers = (self.pieces(them, PieceKind::Rook)
            | self.pieces(them, PieceKind::King))
            & attacks::lines(ksq);
        for a in line_attackers {
            let b = attacks::between(ksq, a) & occ;
            if b.count() == 1 {
                blockers |= b;
            }
        }
        for a in self.pieces(them, PieceKind::Cannon) & attacks::lines(ksq) {
            let b = attacks::between(ksq, a) & occ;
            if b.count() == 2 {
                blockers |= b;
            }
        }
        // A knight whose leg is occupied: the leg piece is a blocker.
        for n in
            self.pieces(them, PieceKind::Knight) & attacks::knight_attackers(ksq, Bitboard::EMPTY)
        {
            let leg = attacks::knight_leg(n, ksq);
            if occ.has(leg) {
                blockers |= Bitboard::from_square(leg);
            }
        }
        blockers
    }
}

#[inline(always)]
pub(crate) fn file_of(s: Square) -> Bitboard {
    const FILE_A: u128 = {
        let mut m = 0u128;
        let mut r = 0;
        while r < 10 {
            m |= 1u128 << (r * 9);
            r += 1;
        }
        m
    };
    Bitboard(FILE_A << s.file())
}
