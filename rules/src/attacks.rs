//! Attack tables for the seven piece kinds, computed at compile time (`const fn`),
//! and the lookups built on them.
//!
//! Sliders use rank and file occupancy indices: a rank's nine bits come straight
//! out of the `u128` board; a file's ten bits come out of the file-major occupancy
//! word. The table entry is a small mask over files (or ranks) that is shifted
//! (or spread) back onto the board.
//!
//! The tables are built in `sliders` (rank and file lookups, lines between
//! points) and `leapers` (knights, elephants, advisors, kings, pawns); the points
//! each piece may stand on are in `points`. The lookups are here.

mod leapers;
mod points;
mod sliders;

pub use points::{LEGAL_POINTS, PLAYABLE_POINTS};

use crate::bitboard::Bitboard;
use crate::types::{Color, Square};
use leapers::{
    ADVISOR_TO, DIAG_BB, ELEPHANT_TO, KING_TO, KNIGHT_FROM, KNIGHT_TO, ON_BOARD, PAWN_FROM, PAWN_TO,
};
use sliders::{BETWEEN, CANNON_FILE, CANNON_RANK, FILE_SPREAD, LINES, ROOK_FILE, ROOK_RANK};

// Board geometry for the table builders in the submodules.

const fn sq(file: i32, rank: i32) -> i32 {
    if file >= 0 && file < 9 && rank >= 0 && rank < 10 {
        rank * 9 + file
    } else {
        -1
    }
}

const fn bit(s: i32) -> u128 {
    if s < 0 {
        0
    } else {
        1u128 << s
    }
}

const fn in_palace(file: i32, rank: i32) -> bool {
    file >= 3 && file <= 5 && (rank <= 2 || rank >= 7) && rank >= 0 && rank <= 9
}

/// Points strictly between two points on one line; empty when not aligned.
#[inline(always)]
pub fn between(a: Square, b: Square) -> Bitboard {
    Bitboard(BETWEEN[a.index()][b.index()])
}

/// The leg point of a knight jumping from `from` to `to` (which must be a knight's jump apart).
#[inline(always)]
pub fn knight_leg(from: Square, to: Square) -> Square {
    let df = to.file() as i32 - from.file() as i32;
    let dr = to.rank() as i32 - from.rank() as i32;
    let (lf, lr) = if dr.abs() == 2 {
        (0, dr / 2)
    } else {
        (df / 2, 0)
    };
    Square((from.0 as i32 + lr * 9 + lf) as u8)
}

/// The eye point of an elephant move (midpoint).
#[inline(always)]
pub fn elephant_eye(from: Square, to: Square) -> Square {
    Square::new((from.file() + to.file()) / 2, (from.rank() + to.rank()) / 2)
}

/// Which of the four neighbours `n` of a point are occupied, as table index bits.
/// The reference for `ortho_mask` and `diag_mask`.
#[cfg(test)]
fn mask4(occ: u128, n: &[u8; 4]) -> usize {
    (((occ >> n[0]) & 1)
        | ((occ >> n[1]) & 1) << 1
        | ((occ >> n[2]) & 1) << 2
        | ((occ >> n[3]) & 1) << 3) as usize
}

/// The occupancy from 10 points below `s` up, so that its eight neighbours are
/// bits 0..=20 of one word: one 128-bit shift instead of one per neighbour.
#[inline(always)]
fn window(occ: u128, s: Square) -> u32 {
    ((occ << 10) >> s.0) as u32
}

/// `mask4` over `ORTHO` (N, S, E, W: bits 19, 1, 11, 9 of the window), with the
/// neighbours off the board (which the window reads from the next rank) left out.
#[inline(always)]
fn ortho_mask(occ: u128, s: Square) -> usize {
    let w = window(occ, s);
    let m = ((w >> 19) & 1) | (w & 2) | ((w >> 9) & 4) | ((w >> 6) & 8);
    m as usize & ON_BOARD[s.index()].0 as usize
}

/// `mask4` over `DIAG` (NE, NW, SE, SW: bits 20, 18, 2, 0 of the window).
#[inline(always)]
fn diag_mask(occ: u128, s: Square) -> usize {
    let w = window(occ, s);
    let m = ((w >> 20) & 1) | ((w >> 17) & 2) | (w & 4) | ((w << 3) & 8);
    m as usize & ON_BOARD[s.index()].1 as usize
}

/// File occupancy index of `s` from the file-major word.
#[inline(always)]
fn file_bits(occ_by_file: u128, s: Square) -> usize {
    ((occ_by_file >> (s.file() as u32 * 10)) & 0x3ff) as usize
}

/// Rook attacks (including the first piece in each direction).
#[inline(always)]
pub fn rook(s: Square, occ: Bitboard, occ_by_file: u128) -> Bitboard {
    line_lookup(&ROOK_RANK, &ROOK_FILE, s, occ, occ_by_file)
}

/// Cannon captures: the first piece beyond a screen in each direction.
#[inline(always)]
pub fn cannon_captures(s: Square, occ: Bitboard, occ_by_file: u128) -> Bitboard {
    line_lookup(&CANNON_RANK, &CANNON_FILE, s, occ, occ_by_file)
}

/// A slider's points from its rank table and its file table. The masks are cut
/// to their table's width and the file shift to below 64, which the compiler
/// cannot see: that drops a bounds check and half of a 128-bit shift.
#[inline(always)]
fn line_lookup(
    by_rank: &[[u16; 512]; 9],
    by_file: &[[u16; 1024]; 10],
    s: Square,
    occ: Bitboard,
    occ_by_file: u128,
) -> Bitboard {
    let (f, r) = (s.file() as usize, s.rank() as u32);
    let rank = (by_rank[f][occ.rank_bits(r as u8)] as u128) << (r * 9);
    let spread = FILE_SPREAD[by_file[r as usize][file_bits(occ_by_file, s)] as usize & 0x3ff];
    Bitboard(rank | spread << (f & 15))
}

/// Empty points a cannon (or rook) can slide to.
#[inline(always)]
pub fn slides(s: Square, occ: Bitboard, occ_by_file: u128) -> Bitboard {
    rook(s, occ, occ_by_file) & !occ
}

#[inline(always)]
pub fn knight(s: Square, occ: Bitboard) -> Bitboard {
    Bitboard(KNIGHT_TO[s.index()][ortho_mask(occ.0, s)])
}

/// Points holding a knight (of either colour) that would attack `s`.
#[inline(always)]
pub fn knight_attackers(s: Square, occ: Bitboard) -> Bitboard {
    Bitboard(KNIGHT_FROM[s.index()][diag_mask(occ.0, s)])
}

#[inline(always)]
pub fn elephant(s: Square, occ: Bitboard) -> Bitboard {
    Bitboard(ELEPHANT_TO[s.index()][diag_mask(occ.0, s)])
}

#[inline(always)]
pub fn advisor(s: Square) -> Bitboard {
    Bitboard(ADVISOR_TO[s.index()])
}

#[inline(always)]
pub fn king(s: Square) -> Bitboard {
    Bitboard(KING_TO[s.index()])
}

#[inline(always)]
pub fn pawn(c: Color, s: Square) -> Bitboard {
    Bitboard(PAWN_TO[c.index()][s.index()])
}

/// Points from which a pawn of colour `c` attacks `s`.
#[inline(always)]
pub fn pawn_attackers(c: Color, s: Square) -> Bitboard {
    Bitboard(PAWN_FROM[c.index()][s.index()])
}

#[inline(always)]
pub fn lines(s: Square) -> Bitboard {
    Bitboard(LINES[s.index()])
}

/// Diagonal neighbours of a point (the legs of knights that could attack it).
#[inline(always)]
pub fn diagonal_neighbours(s: Square) -> Bitboard {
    Bitboard(DIAG_BB[s.index()])
}

#[cfg(test)]
mod tests {

    /// The neighbour masks read from one window equal the four reads of `mask4`,
    /// on every point, for random occupancies and the full and empty boards.
    #[test]
    fn window_masks_equal_four_reads() {
        let mut x = 7u64;
        let mut rand = move || {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            x
        };
        let mut boards = vec![0, crate::bitboard::BOARD_MASK];
        for _ in 0..2000 {
            let b = ((rand() as u128) << 64 | rand() as u128) & crate::bitboard::BOARD_MASK;
            boards.push(b);
            boards.push(b & ((rand() as u128) << 64 | rand() as u128));
        }
        for occ in boards {
            for s in 0..90u8 {
                let sq = Square(s);
                assert_eq!(ortho_mask(occ, sq), mask4(occ, &ORTHO[s as usize]), "{s}");
                assert_eq!(diag_mask(occ, sq), mask4(occ, &DIAG[s as usize]), "{s}");
            }
        }
    }
    use super::leapers::{DIAG, ORTHO};
    use super::*;

    fn s(t: &str) -> Square {
        Square::parse_iccs(t).unwrap()
    }

    fn names(b: Bitboard) -> Vec<String> {
        let mut v: Vec<String> = b.map(|q| q.iccs()).collect();
        v.sort();
        v
    }

    #[test]
    fn knight_legs_block() {
        let empty = Bitboard::EMPTY;
        assert_eq!(knight(s("b0"), empty).count(), 3);
        // A piece on b1 blocks the jumps to a2 and c2.
        let leg = Bitboard::from_square(s("b1"));
        assert_eq!(names(knight(s("b0"), leg)), vec!["d1"]);
        assert_eq!(knight(s("e4"), empty).count(), 8);
    }

    #[test]
    fn knight_attackers_mirror_knight_moves() {
        // For every pair and every single blocker, "a attacks b" agrees both ways.
        for blocker in 0..90u8 {
            let occ = Bitboard::from_square(Square(blocker));
            for a in 0..90u8 {
                if a == blocker {
                    continue;
                }
                let fwd = knight(Square(a), occ);
                for b in 0..90u8 {
                    let rev = knight_attackers(Square(b), occ).has(Square(a));
                    assert_eq!(fwd.has(Square(b)), rev, "{a} {b} {blocker}");
                }
            }
        }
    }

    #[test]
    fn elephant_stays_home_and_eyes_block() {
        assert_eq!(names(elephant(s("c4"), Bitboard::EMPTY)), vec!["a2", "e2"]);
        let eye = Bitboard::from_square(s("d3"));
        assert_eq!(names(elephant(s("c4"), eye)), vec!["a2"]);
        assert_eq!(names(elephant(s("g5"), Bitboard::EMPTY)), vec!["e7", "i7"]);
    }

    #[test]
    fn palace_pieces() {
        assert_eq!(names(advisor(s("e1"))), vec!["d0", "d2", "f0", "f2"]);
        assert_eq!(names(advisor(s("d9"))), vec!["e8"]);
        assert_eq!(names(king(s("e0"))), vec!["d0", "e1", "f0"]);
        assert_eq!(names(king(s("f9"))), vec!["e9", "f8"]);
    }

    #[test]
    fn pawns_cross_the_river() {
        assert_eq!(names(pawn(Color::Red, s("e3"))), vec!["e4"]);
        assert_eq!(names(pawn(Color::Red, s("e5"))), vec!["d5", "e6", "f5"]);
        assert_eq!(names(pawn(Color::Red, s("a9"))), vec!["b9"]);
        assert_eq!(names(pawn(Color::Black, s("e6"))), vec!["e5"]);
        assert_eq!(names(pawn(Color::Black, s("e4"))), vec!["d4", "e3", "f4"]);
        assert_eq!(
            names(pawn_attackers(Color::Red, s("e6"))),
            vec!["d6", "e5", "f6"]
        );
        assert_eq!(
            names(pawn_attackers(Color::Red, s("e5"))),
            vec!["d5", "e4", "f5"]
        );
        assert_eq!(names(pawn_attackers(Color::Red, s("e4"))), vec!["e3"]);
    }

    #[test]
    fn sliders_and_screens() {
        let pieces = ["e0", "e3", "e6", "e9", "b5", "c5"];
        let mut occ = Bitboard::EMPTY;
        let mut byf = 0u128;
        for p in pieces {
            occ |= Bitboard::from_square(s(p));
            byf |= crate::bitboard::file_major_bit(s(p));
        }
        let e5 = s("e5");
        assert_eq!(
            names(rook(e5, occ, byf)),
            vec!["c5", "d5", "e3", "e4", "e6", "f5", "g5", "h5", "i5"]
        );
        assert_eq!(names(cannon_captures(e5, occ, byf)), vec!["b5", "e0", "e9"]);
        assert_eq!(names(cannon_captures(s("e3"), occ, byf)), vec!["e9"]);
    }
}
