//! Xiangqi rules: the board, move generation, FEN, move notation and the 棋例 repetition rules.
//!
//! Bitboard move generation, FEN, ICCS/WXF/Chinese notation and the Asian
//! repetition rules (棋例). No dependencies, no search. Also the workspace's one
//! seeded generator (`rng`), file checksum (`checksum`) and little-endian readers of
//! file fields (`bytes`), here because every crate depends on this one.

// The one exception is `MoveList`, whose uninitialised slots are what make a
// move list free to create at every search node (see `movegen/list.rs`).
#![deny(unsafe_code)]

pub mod attacks;
pub mod bitboard;
pub mod bytes;
mod checks;
pub mod checksum;
pub mod diagram;
pub mod fen;
pub mod movegen;
mod movegen_legal;
pub mod notation;
pub mod perft;
pub mod pgn;
pub mod position;
pub mod records;
pub mod repetition;
pub mod rng;
pub mod see;
pub mod types;
mod zobrist;

pub use bitboard::Bitboard;
pub use fen::{FenError, Setup, START_FEN};
pub use movegen::{GenKind, MoveError, MoveList};
pub use position::{Position, StateInfo};
pub use types::{Color, Move, Piece, PieceKind, Square};
