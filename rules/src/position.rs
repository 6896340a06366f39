//! A validated position: piece placement (mailbox and bitboards), side to move,
//! Zobrist key, capture counter, and the stack of earlier states that unmake and
//! the repetition rules read.
//!
//! This file holds the type, its accessors and the consistency check of its
//! incremental parts; building one from a setup is in `setup`, the attack
//! queries in `attackers`, and making and unmaking moves in `make`.

mod attackers;
mod make;
mod setup;

pub(crate) use attackers::file_of;

use crate::bitboard::{file_major_bit, Bitboard};
use crate::types::{Color, Move, Piece, PieceKind, Square};
use crate::zobrist;
use std::fmt;

/// What make-move saves so that unmake can restore it, and what the repetition
/// rules read back: the key of the position *before* the move, the move, and
/// what it captured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StateInfo {
    pub key: u64,
    pub mv: Move,
    pub captured: Option<Piece>,
    pub plies_since_capture: u32,
    /// The checkers of the position before the move (restored by unmake).
    pub checkers: Bitboard,
}

/// How much a setup must satisfy to become a `Position`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Validity {
    /// What move generation, search and evaluation can work on: one king a side in
    /// its palace, advisors in their own palace, elephants on their own side of the
    /// river, other pieces anywhere, at most 16 pieces a side, the kings not facing
    /// each other, the side not to move not in check. Composed studies (排局, 江湖
    /// 残局) are playable: a pawn on its own back rank, a third rook, an elephant
    /// off its seven points.
    Playable,
    /// Also what a game from the start position can reach: no more pieces of a kind
    /// than the set holds, and advisors, elephants and pawns only on the points
    /// their moves can reach.
    GameReachable,
}

#[derive(Clone)]
pub struct Position {
    board: [Option<Piece>; 90],
    by_color: [Bitboard; 2],
    by_kind: [Bitboard; 7],
    /// All pieces, file-major (`file * 10 + rank`), for file-slider lookups.
    occ_by_file: u128,
    king: [Square; 2],
    side: Color,
    key: u64,
    /// The pawns' part of the key (both colours), for pawn-structure tables.
    pawn_key: u64,
    /// Wrapping sum of `zobrist::MATERIAL` over every piece: the material on the
    /// board, whatever its placement.
    material_key: u64,
    /// Enemy pieces giving check to the side to move, kept up to date by make/unmake:
    /// search asks for it several times per node (at entry, after making a move to
    /// see whether it checks, and in move generation).
    checkers: Bitboard,
    plies_since_capture: u32,
    /// Full-move number of the starting setup, for FEN output.
    start_fullmove: u32,
    start_side: Color,
    history: Vec<StateInfo>,
}

impl Position {
    // ---- accessors ----

    #[inline(always)]
    pub fn side_to_move(&self) -> Color {
        self.side
    }
    #[inline(always)]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// Key of the pawns alone (both colours, placement only).
    #[inline(always)]
    pub fn pawn_key(&self) -> u64 {
        self.pawn_key
    }

    /// Key of the material alone (how many of each piece, not where).
    #[inline(always)]
    pub fn material_key(&self) -> u64 {
        self.material_key
    }
    #[inline(always)]
    pub fn piece_at(&self, s: Square) -> Option<Piece> {
        self.board[s.index()]
    }
    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        Bitboard(self.by_color[0].0 | self.by_color[1].0)
    }
    #[inline(always)]
    pub fn occ_by_file(&self) -> u128 {
        self.occ_by_file
    }
    #[inline(always)]
    pub fn pieces_of(&self, c: Color) -> Bitboard {
        self.by_color[c.index()]
    }
    #[inline(always)]
    pub fn pieces_of_kind(&self, k: PieceKind) -> Bitboard {
        self.by_kind[k.index()]
    }
    #[inline(always)]
    pub fn pieces(&self, c: Color, k: PieceKind) -> Bitboard {
        self.by_color[c.index()] & self.by_kind[k.index()]
    }
    #[inline(always)]
    pub fn king_square(&self, c: Color) -> Square {
        self.king[c.index()]
    }
    /// Plies since the last capture (or since the setup).
    #[inline(always)]
    pub fn plies_since_capture(&self) -> u32 {
        self.plies_since_capture
    }
    /// The states before each move played since the setup, oldest first.
    #[inline(always)]
    pub fn history(&self) -> &[StateInfo] {
        &self.history
    }
    /// Plies played since the setup.
    #[inline(always)]
    pub fn game_ply(&self) -> usize {
        self.history.len()
    }
    pub fn last_move(&self) -> Option<Move> {
        self.history.last().map(|s| s.mv)
    }

    /// Everything kept incrementally agrees with the mailbox: the colour and kind
    /// bitboards, the file-major occupancy word, the king squares, the keys and the
    /// checkers. Checked after every make and unmake in builds with debug
    /// assertions (the `ci` profile runs the tests so), as Stockfish's `pos_is_ok`.
    pub fn is_consistent(&self) -> bool {
        let mut by_color = [Bitboard::EMPTY; 2];
        let mut by_kind = [Bitboard::EMPTY; 7];
        let mut by_file = 0u128;
        let mut pawn_key = 0u64;
        let mut material_key = 0u64;
        for (i, p) in self.board.iter().enumerate() {
            if let Some(p) = p {
                let s = Square(i as u8);
                by_color[p.color.index()] |= Bitboard::from_square(s);
                by_kind[p.kind.index()] |= Bitboard::from_square(s);
                by_file |= file_major_bit(s);
                material_key = material_key.wrapping_add(zobrist::MATERIAL[p.index()]);
                if p.kind == PieceKind::Pawn {
                    pawn_key ^= zobrist::PIECE_SQUARE[p.index()][i];
                }
                if p.kind == PieceKind::King && self.king[p.color.index()] != s {
                    return false;
                }
            }
        }
        by_color == self.by_color
            && by_kind == self.by_kind
            && by_file == self.occ_by_file
            && pawn_key == self.pawn_key
            && material_key == self.material_key
            && self.key == self.compute_key()
            && self.checkers == self.attackers_to_king(self.side)
    }

    /// Key computed from scratch (for tests of the incremental key).
    pub fn compute_key(&self) -> u64 {
        let mut k = if self.side == Color::Black {
            zobrist::BLACK_TO_MOVE
        } else {
            0
        };
        for (i, p) in self.board.iter().enumerate() {
            if let Some(p) = p {
                k ^= zobrist::PIECE_SQUARE[p.index()][i];
            }
        }
        k
    }
}

impl fmt::Display for Position {
    /// A text diagram: Black at the top, ranks 9..0 on the left, files a..i below.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in (0..10u8).rev() {
            write!(f, "{rank} ")?;
            for file in 0..9u8 {
                let c = match self.board[Square::new(file, rank).index()] {
                    Some(p) => p.fen_char(),
                    None => '.',
                };
                write!(f, " {c}")?;
            }
            writeln!(f)?;
        }
        writeln!(f, "   a b c d e f g h i")?;
        write!(f, "{} to move; FEN {}", self.side, self.to_fen())
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({})", self.to_fen())
    }
}

impl PartialEq for Position {
    /// Same placement and side to move (history is not compared).
    fn eq(&self, o: &Position) -> bool {
        self.board == o.board && self.side == o.side
    }
}
