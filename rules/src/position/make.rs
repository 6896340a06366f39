//! Making and unmaking moves (and the null move), with everything kept
//! incrementally: the placement, the keys, the capture counter and the checkers.

use super::{Position, StateInfo};
use crate::attacks;
use crate::bitboard::{file_major_bit, Bitboard};
use crate::types::{Move, Piece, PieceKind, Square};
use crate::zobrist;

impl Position {
    /// Play a move. The move must be legal (from `legal_moves` or `parse_move`).
    #[inline]
    pub fn make_move(&mut self, m: Move) {
        let (from, to) = (m.from(), m.to());
        let piece = self.board[from.index()].expect("make_move: no piece on from-square");
        let captured = self.board[to.index()];
        // Whether the other side is out of check before this move: it is after a move
        // of its own (a legal one); after its pass the pass kept its checkers (the
        // repetition rules pass in check); with no history it is not known.
        let them_safe = self
            .history
            .last()
            .is_some_and(|st| !st.mv.is_null() || st.checkers.is_empty());
        self.history.push(StateInfo {
            key: self.key,
            mv: m,
            captured,
            plies_since_capture: self.plies_since_capture,
            checkers: self.checkers,
        });
        let to_bb = Bitboard::from_square(to);
        if let Some(c) = captured {
            // The point stays occupied: only the captured piece's sets change.
            self.by_color[c.color.index()] ^= to_bb;
            self.by_kind[c.kind.index()] ^= to_bb;
            self.key ^= zobrist::PIECE_SQUARE[c.index()][to.index()];
            self.material_key = self.material_key.wrapping_sub(zobrist::MATERIAL[c.index()]);
            if c.kind == PieceKind::Pawn {
                self.pawn_key ^= zobrist::PIECE_SQUARE[c.index()][to.index()];
            }
            self.plies_since_capture = 0;
        } else {
            self.occ_by_file ^= file_major_bit(to);
            self.plies_since_capture += 1;
        }
        self.occ_by_file ^= file_major_bit(from);
        self.shift_piece(piece, from, to);
        if piece.kind == PieceKind::Pawn {
            self.pawn_key ^= zobrist::PIECE_SQUARE[piece.index()][from.index()]
                ^ zobrist::PIECE_SQUARE[piece.index()][to.index()];
        }
        self.key ^= zobrist::PIECE_SQUARE[piece.index()][from.index()]
            ^ zobrist::PIECE_SQUARE[piece.index()][to.index()]
            ^ zobrist::BLACK_TO_MOVE;
        self.side = self.side.flip();
        self.checkers = if them_safe {
            self.checkers_after(piece, from, to)
        } else {
            self.attackers_to_king(self.side)
        };
        debug_assert!(self.is_consistent(), "after make_move {m}: {self:?}");
    }

    /// The checkers of the side to move, just after `piece` moved from `from` to
    /// `to`, when that side was not in check before the move. Attacks on its king
    /// depend on the occupancy of its king's rank and file and of its diagonal
    /// neighbours (knights' legs) only: when the move emptied none of those points
    /// and filled no point on the rank or file, the only possible checker is the
    /// moved piece, and only a knight or a pawn can check from off those lines (as
    /// `gives_check` reasons).
    #[inline(always)]
    fn checkers_after(&self, piece: Piece, from: Square, to: Square) -> Bitboard {
        let ksq = self.king[self.side.index()];
        let lines = attacks::lines(ksq);
        if lines.has(to) || (lines | attacks::diagonal_neighbours(ksq)).has(from) {
            return self.attackers_to_king(self.side);
        }
        let checks = match piece.kind {
            PieceKind::Knight => attacks::knight_attackers(ksq, self.occupied()).has(to),
            PieceKind::Pawn => attacks::pawn_attackers(piece.color, ksq).has(to),
            _ => false,
        };
        if checks {
            Bitboard::from_square(to)
        } else {
            Bitboard::EMPTY
        }
    }

    /// Move `piece` from `from` to `to` in the mailbox and the colour and kind
    /// bitboards; the callers see to the file-major word and the key.
    #[inline(always)]
    fn shift_piece(&mut self, piece: Piece, from: Square, to: Square) {
        self.board[from.index()] = None;
        self.board[to.index()] = Some(piece);
        let both = Bitboard::from_square(from) | Bitboard::from_square(to);
        self.by_color[piece.color.index()] ^= both;
        self.by_kind[piece.kind.index()] ^= both;
        if piece.kind == PieceKind::King {
            self.king[piece.color.index()] = to;
        }
    }

    /// Take back the last move (or null move).
    #[inline]
    pub fn unmake_move(&mut self) {
        let st = match self.history.pop() {
            Some(s) => s,
            None => return,
        };
        self.side = self.side.flip();
        if !st.mv.is_null() {
            let (from, to) = (st.mv.from(), st.mv.to());
            let piece = self.board[to.index()].expect("unmake_move: no piece on to-square");
            // The key comes back from the state; the placement and the pawn and
            // material keys are undone.
            self.shift_piece(piece, to, from);
            self.occ_by_file ^= file_major_bit(from);
            if piece.kind == PieceKind::Pawn {
                self.pawn_key ^= zobrist::PIECE_SQUARE[piece.index()][from.index()]
                    ^ zobrist::PIECE_SQUARE[piece.index()][to.index()];
            }
            match st.captured {
                Some(c) => {
                    let to_bb = Bitboard::from_square(to);
                    self.board[to.index()] = Some(c);
                    self.by_color[c.color.index()] ^= to_bb;
                    self.by_kind[c.kind.index()] ^= to_bb;
                    self.material_key =
                        self.material_key.wrapping_add(zobrist::MATERIAL[c.index()]);
                    if c.kind == PieceKind::Pawn {
                        self.pawn_key ^= zobrist::PIECE_SQUARE[c.index()][to.index()];
                    }
                }
                None => self.occ_by_file ^= file_major_bit(to),
            }
        }
        self.key = st.key;
        self.plies_since_capture = st.plies_since_capture;
        self.checkers = st.checkers;
        debug_assert!(self.is_consistent(), "after unmake_move: {self:?}");
    }

    /// Pass the move (for null-move pruning). Not legal when in check.
    pub fn make_null_move(&mut self) {
        self.history.push(StateInfo {
            key: self.key,
            mv: Move::NULL,
            captured: None,
            plies_since_capture: self.plies_since_capture,
            checkers: self.checkers,
        });
        self.plies_since_capture += 1;
        self.side = self.side.flip();
        self.key ^= zobrist::BLACK_TO_MOVE;
        self.checkers = self.attackers_to_king(self.side);
    }

    /// Forget the move history (keeping the position), e.g. after a capture in a game
    /// record so that the stack does not grow without bound.
    pub fn clear_history(&mut self) {
        self.start_fullmove = self.fullmove();
        self.start_side = self.side;
        self.history.clear();
    }

    /// Key after playing `m`, without playing it (for hash prefetch).
    #[inline]
    pub fn key_after(&self, m: Move) -> u64 {
        let (from, to) = (m.from(), m.to());
        let mut k = self.key ^ zobrist::BLACK_TO_MOVE;
        if let Some(p) = self.board[from.index()] {
            k ^= zobrist::PIECE_SQUARE[p.index()][from.index()]
                ^ zobrist::PIECE_SQUARE[p.index()][to.index()];
        }
        if let Some(c) = self.board[to.index()] {
            k ^= zobrist::PIECE_SQUARE[c.index()][to.index()];
        }
        k
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every incrementally kept part agrees with the mailbox.
    fn assert_consistent(p: &Position) {
        assert_eq!(p.key(), p.compute_key(), "{p:?}");
        let rebuilt = Position::from_fen(&p.to_fen()).expect("valid");
        assert_eq!(p.by_color, rebuilt.by_color, "{p:?}");
        assert_eq!(p.by_kind, rebuilt.by_kind, "{p:?}");
        assert_eq!(p.occ_by_file, rebuilt.occ_by_file, "{p:?}");
        assert_eq!(p.king, rebuilt.king, "{p:?}");
    }

    #[test]
    fn kept_checkers_equal_computed_ones_through_make_unmake_and_null() {
        let mut x = 99u64;
        let mut rand = move || {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (x >> 33) as usize
        };
        let mut checks = 0;
        for _ in 0..40 {
            let mut p = Position::startpos();
            let mut made = 0;
            for _ in 0..300 {
                let moves = p.legal_moves();
                let r = rand() % 10;
                if made > 0 && (r < 3 || moves.is_empty()) {
                    p.unmake_move();
                    made -= 1;
                } else if r == 3 && !p.in_check() {
                    p.make_null_move();
                    made += 1;
                } else if !moves.is_empty() {
                    p.make_move(moves.as_slice()[rand() % moves.len()]);
                    made += 1;
                }
                assert_eq!(p.checkers(), p.attackers_to_king(p.side_to_move()), "{p:?}");
                assert_consistent(&p);
                checks += p.in_check() as u32;
            }
        }
        assert!(checks > 20, "{checks} positions in check");
    }
}
