//! Building a position from a setup (FEN), at either level of `Validity`, and
//! turning one back into a setup.

use super::{Position, Validity};
use crate::attacks;
use crate::bitboard::{file_major_bit, Bitboard};
use crate::fen::{FenError, Setup, MAX_PIECES_PER_SIDE, START_FEN};
use crate::types::{Color, Piece, PieceKind, Square};
use crate::zobrist;

impl Position {
    pub fn startpos() -> Position {
        Position::from_fen(START_FEN).expect("start FEN is valid")
    }

    /// A playable position from FEN text (see `Validity::Playable`).
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        Position::from_setup(&Setup::parse(fen)?)
    }

    /// A position from FEN text that a game from the start can reach
    /// (`Validity::GameReachable`).
    pub fn from_fen_strict(fen: &str) -> Result<Position, FenError> {
        Position::from_setup_checked(&Setup::parse(fen)?, Validity::GameReachable)
    }

    /// Build a playable position (composed studies included); `Setup::unreachable`
    /// says what, if anything, no game could reach.
    pub fn from_setup(setup: &Setup) -> Result<Position, FenError> {
        Position::from_setup_checked(setup, Validity::Playable)
    }

    /// Check a setup at the given level and build the position.
    pub fn from_setup_checked(setup: &Setup, validity: Validity) -> Result<Position, FenError> {
        if validity == Validity::GameReachable {
            if let Some(e) = setup.unreachable().into_iter().next() {
                return Err(e);
            }
        }
        let mut counts = [0u32; 14];
        let mut per_side = [0u32; 2];
        for (i, p) in setup.board.iter().enumerate() {
            if let Some(p) = p {
                counts[p.index()] += 1;
                per_side[p.color.index()] += 1;
                if p.kind == PieceKind::King && counts[p.index()] > 1 {
                    return Err(FenError::TooManyPieces {
                        piece: *p,
                        count: setup.board.iter().filter(|q| **q == Some(*p)).count() as u32,
                    });
                }
                if (attacks::PLAYABLE_POINTS[p.index()] >> i) & 1 == 0 {
                    return Err(FenError::PieceOffItsPoints {
                        piece: *p,
                        square: Square(i as u8),
                    });
                }
            }
        }
        for c in Color::BOTH {
            if per_side[c.index()] > MAX_PIECES_PER_SIDE {
                return Err(FenError::TooManyPiecesOfColor {
                    color: c,
                    count: per_side[c.index()],
                });
            }
        }
        for c in Color::BOTH {
            if counts[Piece::new(c, PieceKind::King).index()] == 0 {
                return Err(FenError::MissingKing(c));
            }
        }
        let mut pos = Position {
            board: [None; 90],
            by_color: [Bitboard::EMPTY; 2],
            by_kind: [Bitboard::EMPTY; 7],
            occ_by_file: 0,
            king: [Square(0); 2],
            side: setup.side,
            key: 0,
            pawn_key: 0,
            material_key: 0,
            checkers: Bitboard::EMPTY,
            plies_since_capture: setup.plies_since_capture,
            start_fullmove: setup.fullmove,
            start_side: setup.side,
            history: Vec::with_capacity(256),
        };
        for (i, p) in setup.board.iter().enumerate() {
            if let Some(p) = p {
                pos.put(*p, Square(i as u8));
            }
        }
        if setup.side == Color::Black {
            pos.key ^= zobrist::BLACK_TO_MOVE;
        }
        let (rk, bk) = (pos.king[0], pos.king[1]);
        if rk.file() == bk.file() && (attacks::between(rk, bk) & pos.occupied()).is_empty() {
            return Err(FenError::KingsFacing);
        }
        if pos.attackers_to_king(setup.side.flip()).any() {
            return Err(FenError::SideNotToMoveInCheck);
        }
        pos.checkers = pos.attackers_to_king(setup.side);
        Ok(pos)
    }

    pub fn to_setup(&self) -> Setup {
        Setup {
            board: self.board,
            side: self.side,
            plies_since_capture: self.plies_since_capture,
            fullmove: self.fullmove(),
        }
    }

    pub fn to_fen(&self) -> String {
        self.to_setup().to_fen()
    }

    /// The full-move number, counted from the setup's.
    pub fn fullmove(&self) -> u32 {
        let plies = self.history.len() as u32
            + if self.start_side == Color::Black {
                1
            } else {
                0
            };
        self.start_fullmove + plies / 2
    }

    #[inline(always)]
    fn put(&mut self, p: Piece, s: Square) {
        self.board[s.index()] = Some(p);
        let b = Bitboard::from_square(s);
        self.by_color[p.color.index()] |= b;
        self.by_kind[p.kind.index()] |= b;
        self.occ_by_file |= file_major_bit(s);
        self.key ^= zobrist::PIECE_SQUARE[p.index()][s.index()];
        self.material_key = self.material_key.wrapping_add(zobrist::MATERIAL[p.index()]);
        if p.kind == PieceKind::Pawn {
            self.pawn_key ^= zobrist::PIECE_SQUARE[p.index()][s.index()];
        }
        if p.kind == PieceKind::King {
            self.king[p.color.index()] = s;
        }
    }
}
