//! Legality asked of one move, or of how many moves a side has, without
//! generating the moves: search asks whether a hash move or a killer is legal
//! here, and whether a side has a move at all (or only a few), at most nodes.
//!
//! Out of check, a move of a piece other than the king can only expose its own
//! king when it leaves a point on the king's rank or file or a diagonal
//! neighbour of the king (a pinned piece, a cannon's screen, a knight's leg), or
//! when it lands on the king's rank or file (a cannon's new screen). Moves that
//! do neither are legal without a test; the others are tested as in `movegen`.

use crate::attacks;
use crate::bitboard::{file_major_bit, Bitboard};
use crate::position::Position;
use crate::types::{Color, Move, Piece, PieceKind, Square};

impl Position {
    /// Is `m` a legal move in this position? Safe on any input (e.g. a hash-table move).
    pub fn is_legal(&self, m: Move) -> bool {
        if m.is_null() || m.from().index() >= 90 || m.to().index() >= 90 {
            return false;
        }
        let (from, to) = (m.from(), m.to());
        let us = self.side_to_move();
        let p = match self.piece_at(from) {
            Some(p) if p.color == us => p,
            _ => return false,
        };
        if !self.reaches(p, from, to) {
            return false;
        }
        if p.kind == PieceKind::King {
            return self.move_keeps_king_safe(from, to, to);
        }
        let ksq = self.king_square(us);
        if self.checkers().is_empty() {
            return self.keeps_king_out_of_check(from, to, ksq);
        }
        self.move_keeps_king_safe(from, to, ksq)
    }

    /// Out of check, does the move of the non-king piece on `from` to `to` keep the
    /// king on `ksq` safe? Nothing attacks the king before the move, and the move
    /// changes the occupancy on two points only: the sliders' attacks (and the flying
    /// general's) change only when one of them is on the king's rank or file, and the
    /// knights' only when `from` is one of its diagonal neighbours (a leg it frees;
    /// filling one only blocks). Pawns do not depend on the occupancy.
    #[inline(always)]
    fn keeps_king_out_of_check(&self, from: Square, to: Square, ksq: Square) -> bool {
        let lines = attacks::lines(ksq);
        let on_lines = lines.has(from) || lines.has(to);
        let frees_leg = attacks::diagonal_neighbours(ksq).has(from);
        if !on_lines && !frees_leg {
            return true;
        }
        let to_bb = Bitboard::from_square(to);
        let occ = (self.occupied() ^ Bitboard::from_square(from)) | to_bb;
        // A piece taken on `to` attacks nothing any more.
        let them = self.pieces_of(self.side_to_move().flip()) & !to_bb;
        let kind = |k: PieceKind| self.pieces_of_kind(k) & them;
        let mut danger = Bitboard::EMPTY;
        if on_lines {
            let byf = (self.occ_by_file() ^ file_major_bit(from)) | file_major_bit(to);
            danger |=
                attacks::rook(ksq, occ, byf) & (kind(PieceKind::Rook) | kind(PieceKind::King));
            danger |= attacks::cannon_captures(ksq, occ, byf) & kind(PieceKind::Cannon);
        }
        if frees_leg {
            danger |= attacks::knight_attackers(ksq, occ) & kind(PieceKind::Knight);
        }
        danger.is_empty()
    }

    /// Could the piece `p` on `from` move to `to`, its own king's safety aside?
    /// (`pseudo_targets(from).has(to)`, asked of the one point.)
    #[inline(always)]
    fn reaches(&self, p: Piece, from: Square, to: Square) -> bool {
        let target = self.piece_at(to);
        if target.is_some_and(|q| q.color == p.color) {
            return false;
        }
        let occ = self.occupied();
        match p.kind {
            PieceKind::Rook => {
                attacks::lines(from).has(to) && (attacks::between(from, to) & occ).is_empty()
            }
            PieceKind::Cannon => {
                // A slide onto an empty point, or a capture over exactly one screen.
                let screens = attacks::between(from, to) & occ;
                attacks::lines(from).has(to)
                    && if target.is_some() {
                        screens.any() && !screens.several()
                    } else {
                        screens.is_empty()
                    }
            }
            PieceKind::Knight => attacks::knight(from, occ).has(to),
            PieceKind::Pawn => attacks::pawn(p.color, from).has(to),
            PieceKind::Elephant => attacks::elephant(from, occ).has(to),
            PieceKind::Advisor => attacks::advisor(from).has(to),
            PieceKind::King => attacks::king(from).has(to),
        }
    }

    /// Does the side to move have a legal move? (Without one it has lost: mate, or
    /// 困毙 when not in check.) Stops at the first legal move, trying the pieces that
    /// are least often immobile first, so that search can afford to ask.
    pub fn has_legal_move(&self) -> bool {
        self.legal_move_count_up_to(1) > 0
    }

    /// How many legal moves the side to move has, counting no further than `limit`
    /// (search asks whether a side is nearly out of moves, where one quiet move of
    /// the other side could leave it none: 困毙).
    pub fn legal_move_count_up_to(&self, limit: usize) -> usize {
        self.legal_move_count_of(self.side_to_move(), limit)
    }

    /// The moves `side` would have were it its turn (the same board), counted no
    /// further than `limit`: how cramped the side not to move is, without passing.
    pub fn legal_move_count_of(&self, us: Color, limit: usize) -> usize {
        // (A limit of 0 answers as 1 does: whether there is a move at all.)
        let limit = limit.max(1);
        let king = self.king_square(us);
        // Out of check, a move of a piece that is not pinned is legal unless it steps
        // onto an open line between an enemy cannon and the king (as in `generate`):
        // such moves are counted by population count, without a test each. The side
        // not to move is never in check in a valid position; it is tested anyway, as
        // the count must be exact wherever it is asked.
        let checkers = if us == self.side_to_move() {
            self.checkers()
        } else {
            self.attackers_to_king(us)
        };
        let in_check = checkers.any();
        if !in_check && self.free_moves_reach(us, limit) {
            return limit;
        }
        let (test, forbidden) = if in_check {
            (Bitboard::FULL, Bitboard::EMPTY)
        } else {
            self.pins_and_screens_of(us)
        };
        let evasion = self.evasion_filter(checkers, king);
        let mut n = 0;
        for kind in [
            PieceKind::Rook,
            PieceKind::Cannon,
            PieceKind::Pawn,
            PieceKind::Knight,
            PieceKind::Advisor,
            PieceKind::Elephant,
            PieceKind::King,
        ] {
            for from in self.pieces(us, kind) {
                let mut targets = self.pseudo_targets(from);
                if kind != PieceKind::King {
                    targets = evasion.targets(from, targets);
                }
                if kind != PieceKind::King && !test.has(from) {
                    n += (targets & !forbidden).count() as usize;
                } else {
                    for to in targets {
                        let ksq = if kind == PieceKind::King { to } else { king };
                        n += self.move_keeps_king_of_safe(us, from, to, ksq) as usize;
                    }
                }
                if n >= limit {
                    return limit;
                }
            }
        }
        n
    }

    /// Out of check: do the moves of `us` that need no test reach `limit`? Those are
    /// the moves of pieces off the king's lines and its diagonal neighbours (never
    /// pinned) onto points off its lines (never a cannon's new screen); the king's
    /// own moves are not counted. Most positions have enough such moves that the
    /// exact count is never needed.
    fn free_moves_reach(&self, us: Color, limit: usize) -> bool {
        let ksq = self.king_square(us);
        let lines = attacks::lines(ksq);
        let free = self.pieces_of(us) & !(lines | attacks::diagonal_neighbours(ksq));
        let open = !(self.pieces_of(us) | lines);
        let their = self.pieces_of(us.flip());
        let (occ, byf) = (self.occupied(), self.occ_by_file());
        // Counted a point at a time up to the limit: a population count costs more
        // (the build targets CPUs without the instruction) and search asks for 1 or 4.
        let mut n = 0;
        let mut reach = |b: Bitboard| {
            let mut b = (b & open).0;
            while b != 0 {
                n += 1;
                if n >= limit {
                    return true;
                }
                b &= b - 1;
            }
            false
        };
        // Cheapest lookups first: most calls end at the first piece tried.
        for from in free & self.pieces_of_kind(PieceKind::Pawn) {
            if reach(attacks::pawn(us, from)) {
                return true;
            }
        }
        for from in free & self.pieces_of_kind(PieceKind::Rook) {
            if reach(attacks::rook(from, occ, byf)) {
                return true;
            }
        }
        for from in free & self.pieces_of_kind(PieceKind::Cannon) {
            // Slides and captures are apart (empty and enemy points): the captures
            // are looked up only when the slides fall short.
            if reach(attacks::slides(from, occ, byf))
                || reach(attacks::cannon_captures(from, occ, byf) & their)
            {
                return true;
            }
        }
        for from in free & self.pieces_of_kind(PieceKind::Knight) {
            if reach(attacks::knight(from, occ)) {
                return true;
            }
        }
        for from in free & self.pieces_of_kind(PieceKind::Elephant) {
            if reach(attacks::elephant(from, occ)) {
                return true;
            }
        }
        for from in free & self.pieces_of_kind(PieceKind::Advisor) {
            if reach(attacks::advisor(from)) {
                return true;
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use crate::movegen::tests::{for_random_positions, lcg};
    use crate::{Move, Position, Square};

    /// `reaches`, asked of one point, agrees with `pseudo_targets` on every pair of
    /// points, and `is_legal` (with its untested moves) with the generated moves.
    #[test]
    fn reaches_and_is_legal_agree_with_generation() {
        let mut legal = 0;
        for_random_positions(3, 400, 160, |p| {
            let moves = p.legal_moves();
            for from in (0..90).map(Square) {
                let targets = p.pseudo_targets(from);
                for to in (0..90).map(Square) {
                    if let Some(piece) = p.piece_at(from) {
                        assert_eq!(
                            p.reaches(piece, from, to),
                            targets.has(to),
                            "{}",
                            p.to_fen()
                        );
                    }
                    let m = Move::new(from, to);
                    assert_eq!(p.is_legal(m), moves.contains(m), "{} {m}", p.to_fen());
                    legal += moves.contains(m) as usize;
                }
            }
        });
        assert!(legal > 10_000, "{legal}");
    }

    /// `legal_move_count_of` (which counts the moves of pieces that are not pinned
    /// without testing each) equals the number of legal moves generated, capped at
    /// the limit, for both sides of random positions, in check or not; the side not
    /// to move is counted on the same board with the other side to move.
    #[test]
    fn legal_move_count_equals_generation_for_both_sides() {
        let mut rand = lcg(11);
        let mut compared = 0;
        for _ in 0..1500 {
            let mut p = Position::startpos();
            for _ in 0..rand() % 160 {
                let moves = p.legal_moves();
                if moves.is_empty() {
                    break;
                }
                p.make_move(moves.as_slice()[rand() % moves.len()]);
            }
            let us = p.side_to_move();
            let fen = p.to_fen();
            let mut fields: Vec<&str> = fen.split(' ').collect();
            fields[1] = if fields[1] == "w" { "b" } else { "w" };
            let flipped = Position::from_fen(&fields.join(" ")).ok();
            for (side, board) in [(us, Some(p.clone())), (us.flip(), flipped)] {
                let Some(board) = board else { continue };
                let total = board.legal_moves().len();
                for limit in [0, 1, 2, 3, 4, 5, 8, 300] {
                    assert_eq!(
                        p.legal_move_count_of(side, limit),
                        total.min(limit.max(1)),
                        "{fen} side {side:?} limit {limit}"
                    );
                    compared += 1;
                }
            }
        }
        assert!(compared > 15_000, "{compared}");
    }
}
