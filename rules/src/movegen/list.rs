//! The move list: a fixed-capacity list on the stack, made at every search node.

use crate::bitboard::Bitboard;
use crate::types::{Move, Square};
use std::mem::MaybeUninit;

/// Enough for any playable position: a side has at most 16 pieces
/// (`fen::MAX_PIECES_PER_SIDE`), a rook or cannon at most 17 moves (8 along its
/// rank, 9 along its file), every other piece at most 8, the king 4, so
/// 15 · 17 + 4 = 259 bounds even a composed study of fifteen rooks. Game positions
/// stay well under 150. A test fills a list to this bound.
pub const MAX_MOVES: usize = 15 * 17 + 4;

/// A fixed-capacity list of moves, on the stack. The slots past `len` are left
/// uninitialised: a list is made at every search node and most are never filled,
/// so zeroing its 384 bytes each time is measurable.
#[derive(Clone)]
pub struct MoveList {
    moves: [MaybeUninit<Move>; MAX_MOVES],
    len: usize,
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

#[allow(unsafe_code)]
impl MoveList {
    #[inline(always)]
    pub fn new() -> MoveList {
        MoveList {
            moves: [MaybeUninit::uninit(); MAX_MOVES],
            len: 0,
        }
    }
    #[inline(always)]
    pub fn push(&mut self, m: Move) {
        if self.len < MAX_MOVES {
            self.moves[self.len] = MaybeUninit::new(m);
            self.len += 1;
        }
    }
    /// Append the moves from `from` to each point of `targets`, lowest point first
    /// (as `push` one at a time would), each half of the board a 64-bit word.
    #[inline(always)]
    pub fn push_moves(&mut self, from: Square, targets: Bitboard) {
        if self.len + 128 > MAX_MOVES {
            for to in targets {
                self.push(Move::new(from, to));
            }
            return;
        }
        let mut len = self.len;
        for (half, base) in [(targets.0 as u64, 0u16), ((targets.0 >> 64) as u64, 64)] {
            let mut bits = half;
            while bits != 0 {
                let to = base + bits.trailing_zeros() as u16;
                // SAFETY: `len` starts at most `MAX_MOVES - 128` and grows by one per
                // point of a 128-bit board, so it stays below `MAX_MOVES`.
                unsafe {
                    self.moves
                        .get_unchecked_mut(len)
                        .write(Move(from.0 as u16 | to << 7));
                }
                len += 1;
                bits &= bits - 1;
            }
        }
        self.len = len;
    }

    /// Keep the first `len` moves (all when there are fewer).
    #[inline(always)]
    pub fn truncate(&mut self, len: usize) {
        self.len = self.len.min(len);
    }
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len
    }
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    #[inline(always)]
    pub fn as_slice(&self) -> &[Move] {
        let init = &self.moves[..self.len];
        // SAFETY: the first `len` slots were written by `push` (`len` grows only there
        // and `truncate` only lowers it),
        // and `MaybeUninit<Move>` has the layout of `Move`.
        unsafe { &*(init as *const [MaybeUninit<Move>] as *const [Move]) }
    }
    #[inline(always)]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        let init = &mut self.moves[..self.len];
        // SAFETY: as in `as_slice`.
        unsafe { &mut *(init as *mut [MaybeUninit<Move>] as *mut [Move]) }
    }
    pub fn contains(&self, m: Move) -> bool {
        self.as_slice().contains(&m)
    }
    pub fn iter(&self) -> std::slice::Iter<'_, Move> {
        self.as_slice().iter()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}
