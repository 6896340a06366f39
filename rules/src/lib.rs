//! Qili's rules crate: the xiangqi board, bitboard move generation, FEN, move
//! notation and the Asian repetition rules (棋例). No dependencies, no search.

pub mod attacks;
pub mod bitboard;
pub mod fen;
pub mod movegen;
pub mod notation;
pub mod perft;
pub mod pgn;
pub mod position;
pub mod records;
pub mod repetition;
pub mod see;
pub mod types;
mod zobrist;

pub use bitboard::Bitboard;
pub use fen::{FenError, Setup, START_FEN};
pub use movegen::{GenKind, MoveError, MoveList};
pub use position::{Position, StateInfo};
pub use types::{Color, Move, Piece, PieceKind, Square};
