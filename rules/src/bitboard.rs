//! 90-point bitboards in a `u128`, bit `rank * 9 + file`.
//!
//! Why `u128` and not two `u64` halves or a 10x16 layout: the compiler lowers
//! `u128` logic to two 64-bit instructions, so every set operation stays
//! branch-free, while a rank's nine bits are one shift-and-mask away. File
//! occupancy, which `u128` cannot extract cheaply, is kept in a second,
//! file-major occupancy word (`Position::occ_by_file`), the idea of
//! ElephantEye's bit-files. The measurement that chose it is in docs/ARCHITECTURE.md.

use crate::types::Square;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(pub u128);

/// All 90 points.
pub const BOARD_MASK: u128 = (1u128 << 90) - 1;

impl Bitboard {
    pub const EMPTY: Bitboard = Bitboard(0);
    pub const FULL: Bitboard = Bitboard(BOARD_MASK);

    /// Read from a table: a variable 128-bit shift takes several instructions.
    #[inline(always)]
    pub fn from_square(sq: Square) -> Bitboard {
        Bitboard(SQUARE_BIT[sq.index() & 127])
    }

    /// Read from the 64-bit word that holds the point (a 128-bit shift costs more).
    #[inline(always)]
    pub const fn has(self, sq: Square) -> bool {
        let word = if sq.0 < 64 {
            self.0 as u64
        } else {
            (self.0 >> 64) as u64
        };
        (word >> (sq.0 & 63)) & 1 != 0
    }

    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    #[inline(always)]
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    #[inline(always)]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// More than one point set.
    #[inline(always)]
    pub const fn several(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// Exactly one point set.
    #[inline(always)]
    pub const fn exactly_one(self) -> bool {
        self.0 != 0 && !self.several()
    }

    /// The lowest point; the board must not be empty.
    #[inline(always)]
    pub const fn lsb(self) -> Square {
        Square(self.0.trailing_zeros() as u8)
    }

    #[inline(always)]
    pub fn pop_lsb(&mut self) -> Square {
        let s = self.lsb();
        self.0 &= self.0 - 1;
        s
    }

    /// The nine points of one rank, as the low bits.
    #[inline(always)]
    pub const fn rank_bits(self, rank: u8) -> usize {
        ((self.0 >> (rank as u32 * 9)) & 0x1ff) as usize
    }
}

impl Iterator for Bitboard {
    type Item = Square;
    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        // A word at a time: the low word's bit is found and cleared without
        // touching the high word (cheaper than 128-bit count and borrow).
        let lo = self.0 as u64;
        if lo != 0 {
            self.0 = (self.0 >> 64 << 64) | (lo & (lo - 1)) as u128;
            return Some(Square(lo.trailing_zeros() as u8));
        }
        let hi = (self.0 >> 64) as u64;
        if hi != 0 {
            self.0 = ((hi & (hi - 1)) as u128) << 64;
            return Some(Square(64 + hi.trailing_zeros() as u8));
        }
        None
    }
}

macro_rules! bitop {
    ($tr:ident, $f:ident, $tra:ident, $fa:ident, $op:tt) => {
        impl $tr for Bitboard {
            type Output = Bitboard;
            #[inline(always)]
            fn $f(self, o: Bitboard) -> Bitboard {
                Bitboard(self.0 $op o.0)
            }
        }
        impl $tra for Bitboard {
            #[inline(always)]
            fn $fa(&mut self, o: Bitboard) {
                self.0 = self.0 $op o.0;
            }
        }
    };
}
bitop!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bitop!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bitop!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn not(self) -> Bitboard {
        Bitboard(!self.0 & BOARD_MASK)
    }
}

impl std::fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for rank in (0..10).rev() {
            for file in 0..9 {
                let c = if self.has(Square::new(file, rank)) {
                    'x'
                } else {
                    '.'
                };
                write!(f, "{c}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

/// File-major index of a point: `file * 10 + rank`, for the file-occupancy word.
#[inline(always)]
pub fn file_major_bit(sq: Square) -> u128 {
    FILE_MAJOR_BIT[sq.index() & 127]
}

/// `1 << s` for every bit of the word (points past 89 included, as the shift gives).
static SQUARE_BIT: [u128; 128] = {
    let mut t = [0u128; 128];
    let mut s = 0;
    while s < 128 {
        t[s] = 1u128 << s;
        s += 1;
    }
    t
};

/// `file_major_bit` by point, computed as the shift computes it.
static FILE_MAJOR_BIT: [u128; 128] = {
    let mut t = [0u128; 128];
    let mut s = 0;
    while s < 128 {
        let sq = Square(s as u8);
        t[s] = 1u128 << (sq.file() as u32 * 10 + sq.rank() as u32);
        s += 1;
    }
    t
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iterate_and_count() {
        let b = Bitboard::from_square(Square(0))
            | Bitboard::from_square(Square(45))
            | Bitboard::from_square(Square(89));
        assert_eq!(b.count(), 3);
        assert!(b.several());
        assert_eq!(
            b.collect::<Vec<_>>(),
            vec![Square(0), Square(45), Square(89)]
        );
        assert_eq!((!Bitboard::EMPTY).count(), 90);
    }
}
