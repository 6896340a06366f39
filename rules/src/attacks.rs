//! Attack tables for the seven piece kinds, computed at compile time (`const fn`),
//! and the lookups built on them.
//!
//! Sliders use rank and file occupancy indices: a rank's nine bits come straight
//! out of the `u128` board; a file's ten bits come out of the file-major occupancy
//! word. The table entry is a small mask over files (or ranks) that is shifted
//! (or spread) back onto the board.

use crate::bitboard::Bitboard;
use crate::types::{Color, Square};

/// Off-board neighbour: bit 127 is never set in an occupancy word.
const NOWHERE: u8 = 127;

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

/// Rook-style scan along a line of `n` points from `pos` over occupancy `occ`.
/// Returns (rook attacks, cannon captures) as masks over the line.
const fn scan_line(n: i32, pos: i32, occ: u32) -> (u16, u16) {
    let mut rook = 0u16;
    let mut cannon = 0u16;
    let mut dir = -1;
    while dir <= 1 {
        let mut p = pos + dir;
        let mut screen = false;
        while p >= 0 && p < n {
            let occupied = (occ >> p) & 1 != 0;
            if !screen {
                rook |= 1 << p;
                if occupied {
                    screen = true;
                }
            } else if occupied {
                cannon |= 1 << p;
                break;
            }
            p += dir;
        }
        dir += 2;
    }
    (rook, cannon)
}

const fn rank_tables() -> ([[u16; 512]; 9], [[u16; 512]; 9]) {
    let mut rook = [[0u16; 512]; 9];
    let mut cannon = [[0u16; 512]; 9];
    let mut f = 0;
    while f < 9 {
        let mut o = 0;
        while o < 512 {
            let (r, c) = scan_line(9, f as i32, o as u32);
            rook[f][o] = r;
            cannon[f][o] = c;
            o += 1;
        }
        f += 1;
    }
    (rook, cannon)
}

const fn file_tables() -> ([[u16; 1024]; 10], [[u16; 1024]; 10]) {
    let mut rook = [[0u16; 1024]; 10];
    let mut cannon = [[0u16; 1024]; 10];
    let mut r = 0;
    while r < 10 {
        let mut o = 0;
        while o < 1024 {
            let (a, c) = scan_line(10, r as i32, o as u32);
            rook[r][o] = a;
            cannon[r][o] = c;
            o += 1;
        }
        r += 1;
    }
    (rook, cannon)
}

const RANK_TABLES: ([[u16; 512]; 9], [[u16; 512]; 9]) = rank_tables();
const FILE_TABLES: ([[u16; 1024]; 10], [[u16; 1024]; 10]) = file_tables();
static ROOK_RANK: [[u16; 512]; 9] = RANK_TABLES.0;
static CANNON_RANK: [[u16; 512]; 9] = RANK_TABLES.1;
static ROOK_FILE: [[u16; 1024]; 10] = FILE_TABLES.0;
static CANNON_FILE: [[u16; 1024]; 10] = FILE_TABLES.1;

/// Spreads a 10-bit rank mask onto file a of the board (bit r -> point r*9).
static FILE_SPREAD: [u128; 1024] = {
    let mut t = [0u128; 1024];
    let mut m = 0;
    while m < 1024 {
        let mut r = 0;
        while r < 10 {
            if (m >> r) & 1 != 0 {
                t[m] |= 1u128 << (r * 9);
            }
            r += 1;
        }
        m += 1;
    }
    t
};

/// Orthogonal neighbours (N, S, E, W) of each point: a knight's legs, an attacker's legs.
#[cfg(test)]
static ORTHO: [[u8; 4]; 90] = neighbours(ORTHO_STEPS);
const ORTHO_STEPS: [(i32, i32); 4] = [(0, 1), (0, -1), (1, 0), (-1, 0)];
/// Diagonal neighbours (NE, NW, SE, SW): elephant eyes, and the legs of knights attacking a point.
#[cfg(test)]
static DIAG: [[u8; 4]; 90] = neighbours(DIAG_STEPS);
const DIAG_STEPS: [(i32, i32); 4] = [(1, 1), (-1, 1), (1, -1), (-1, -1)];

const fn neighbours(d: [(i32, i32); 4]) -> [[u8; 4]; 90] {
    let mut t = [[NOWHERE; 4]; 90];
    let mut s = 0;
    while s < 90 {
        let (f, r) = ((s % 9) as i32, (s / 9) as i32);
        let mut i = 0;
        while i < 4 {
            let n = sq(f + d[i].0, r + d[i].1);
            if n >= 0 {
                t[s][i] = n as u8;
            }
            i += 1;
        }
        s += 1;
    }
    t
}

/// Knight targets by point and blocked-leg mask (bit i: ORTHO[i] occupied).
static KNIGHT_TO: [[u128; 16]; 90] = {
    // For each leg direction, the two targets past it.
    const JUMPS: [[(i32, i32); 2]; 4] = [
        [(1, 2), (-1, 2)],
        [(1, -2), (-1, -2)],
        [(2, 1), (2, -1)],
        [(-2, 1), (-2, -1)],
    ];
    let mut t = [[0u128; 16]; 90];
    let mut s = 0;
    while s < 90 {
        let (f, r) = ((s % 9) as i32, (s / 9) as i32);
        let mut m = 0;
        while m < 16 {
            let mut leg = 0;
            while leg < 4 {
                if (m >> leg) & 1 == 0 {
                    t[s][m] |= bit(sq(f + JUMPS[leg][0].0, r + JUMPS[leg][0].1));
                    t[s][m] |= bit(sq(f + JUMPS[leg][1].0, r + JUMPS[leg][1].1));
                }
                leg += 1;
            }
            m += 1;
        }
        s += 1;
    }
    t
};

/// Points from which a knight attacks the given point, by blocked mask of DIAG
/// (a knight two ranks and one file away has its leg on the diagonal neighbour between).
static KNIGHT_FROM: [[u128; 16]; 90] = {
    const FROM: [[(i32, i32); 2]; 4] = [
        [(1, 2), (2, 1)],
        [(-1, 2), (-2, 1)],
        [(1, -2), (2, -1)],
        [(-1, -2), (-2, -1)],
    ];
    let mut t = [[0u128; 16]; 90];
    let mut s = 0;
    while s < 90 {
        let (f, r) = ((s % 9) as i32, (s / 9) as i32);
        let mut m = 0;
        while m < 16 {
            let mut d = 0;
            while d < 4 {
                if (m >> d) & 1 == 0 {
                    t[s][m] |= bit(sq(f + FROM[d][0].0, r + FROM[d][0].1));
                    t[s][m] |= bit(sq(f + FROM[d][1].0, r + FROM[d][1].1));
                }
                d += 1;
            }
            m += 1;
        }
        s += 1;
    }
    t
};

/// Elephant targets by point and blocked-eye mask (DIAG order); they never cross the river.
static ELEPHANT_TO: [[u128; 16]; 90] = {
    const D: [(i32, i32); 4] = [(2, 2), (-2, 2), (2, -2), (-2, -2)];
    let mut t = [[0u128; 16]; 90];
    let mut s = 0;
    while s < 90 {
        let (f, r) = ((s % 9) as i32, (s / 9) as i32);
        let red_half = r <= 4;
        let mut m = 0;
        while m < 16 {
            let mut d = 0;
            while d < 4 {
                let (nf, nr) = (f + D[d].0, r + D[d].1);
                let same_half = if red_half { nr <= 4 } else { nr >= 5 };
                if (m >> d) & 1 == 0 && same_half {
                    t[s][m] |= bit(sq(nf, nr));
                }
                d += 1;
            }
            m += 1;
        }
        s += 1;
    }
    t
};

static ADVISOR_TO: [u128; 90] = {
    const D: [(i32, i32); 4] = [(1, 1), (-1, 1), (1, -1), (-1, -1)];
    steps_in_palace(D)
};

static KING_TO: [u128; 90] = {
    const D: [(i32, i32); 4] = [(0, 1), (0, -1), (1, 0), (-1, 0)];
    steps_in_palace(D)
};

const fn steps_in_palace(d: [(i32, i32); 4]) -> [u128; 90] {
    let mut t = [0u128; 90];
    let mut s = 0;
    while s < 90 {
        let (f, r) = ((s % 9) as i32, (s / 9) as i32);
        if in_palace(f, r) {
            let mut i = 0;
            while i < 4 {
                let (nf, nr) = (f + d[i].0, r + d[i].1);
                // Stay in the same palace.
                if in_palace(nf, nr) && ((nr <= 2) == (r <= 2)) {
                    t[s] |= bit(sq(nf, nr));
                }
                i += 1;
            }
        }
        s += 1;
    }
    t
}

/// Pawn moves by colour and point.
static PAWN_TO: [[u128; 90]; 2] = {
    let mut t = [[0u128; 90]; 2];
    let mut s = 0;
    while s < 90 {
        let (f, r) = ((s % 9) as i32, (s / 9) as i32);
        // Red pawns move up the ranks, and sideways once across the river (rank >= 5).
        t[0][s] = bit(sq(f, r + 1));
        if r >= 5 {
            t[0][s] |= bit(sq(f + 1, r)) | bit(sq(f - 1, r));
        }
        t[1][s] = bit(sq(f, r - 1));
        if r <= 4 {
            t[1][s] |= bit(sq(f + 1, r)) | bit(sq(f - 1, r));
        }
        s += 1;
    }
    t
};

/// Points from which a pawn of the given colour attacks the point.
static PAWN_FROM: [[u128; 90]; 2] = {
    let mut t = [[0u128; 90]; 2];
    let mut s = 0;
    while s < 90 {
        let mut from = 0;
        while from < 90 {
            if (PAWN_TO[0][from] >> s) & 1 != 0 {
                t[0][s] |= 1u128 << from;
            }
            if (PAWN_TO[1][from] >> s) & 1 != 0 {
                t[1][s] |= 1u128 << from;
            }
            from += 1;
        }
        s += 1;
    }
    t
};

/// Rank and file through each point (the point itself excluded).
static LINES: [u128; 90] = {
    let mut t = [0u128; 90];
    let mut s = 0;
    while s < 90 {
        let mut o = 0;
        while o < 90 {
            if o != s && (o % 9 == s % 9 || o / 9 == s / 9) {
                t[s] |= 1u128 << o;
            }
            o += 1;
        }
        s += 1;
    }
    t
};

static BETWEEN: [[u128; 90]; 90] = {
    let mut t = [[0u128; 90]; 90];
    let mut a = 0;
    while a < 90 {
        let mut b = 0;
        while b < 90 {
            let (fa, ra, fb, rb) = (a % 9, a / 9, b % 9, b / 9);
            if fa == fb && ra != rb {
                let (lo, hi) = if ra < rb { (ra, rb) } else { (rb, ra) };
                let mut r = lo + 1;
                while r < hi {
                    t[a][b] |= 1u128 << (r * 9 + fa);
                    r += 1;
                }
            } else if ra == rb && fa != fb {
                let (lo, hi) = if fa < fb { (fa, fb) } else { (fb, fa) };
                let mut f = lo + 1;
                while f < hi {
                    t[a][b] |= 1u128 << (ra * 9 + f);
                    f += 1;
                }
            }
            b += 1;
        }
        a += 1;
    }
    t
};

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

/// Which `ORTHO` and `DIAG` neighbours of each point are on the board.
static ON_BOARD: [(u8, u8); 90] = {
    let ortho = neighbours(ORTHO_STEPS);
    let diag = neighbours(DIAG_STEPS);
    let mut t = [(0u8, 0u8); 90];
    let mut s = 0;
    while s < 90 {
        let mut i = 0;
        while i < 4 {
            if ortho[s][i] != NOWHERE {
                t[s].0 |= 1 << i;
            }
            if diag[s][i] != NOWHERE {
                t[s].1 |= 1 << i;
            }
            i += 1;
        }
        s += 1;
    }
    t
};

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

/// `DIAG` as a board per point.
static DIAG_BB: [u128; 90] = {
    let diag = neighbours(DIAG_STEPS);
    let mut t = [0u128; 90];
    let mut s = 0;
    while s < 90 {
        let mut i = 0;
        while i < 4 {
            t[s] |= (1u128 << diag[s][i]) & crate::bitboard::BOARD_MASK;
            i += 1;
        }
        s += 1;
    }
    t
};

/// Points that a piece could legally stand on, by piece index (colour*7+kind).
pub static LEGAL_POINTS: [u128; 14] = {
    let mut t = [0u128; 14];
    let mut c = 0;
    while c < 2 {
        let mut s = 0usize;
        while s < 90 {
            let (f, r) = ((s % 9) as i32, (s / 9) as i32);
            // Rank seen from this colour's own back rank.
            let rr = if c == 0 { r } else { 9 - r };
            let b = 1u128 << s;
            if in_palace(f, rr) && rr <= 2 {
                t[c * 7] |= b;
            }
            if rr <= 2 && in_palace(f, rr) && ((f == 4) == (rr == 1)) {
                t[c * 7 + 1] |= b;
            }
            if (rr == 0 || rr == 4) && (f == 2 || f == 6) || rr == 2 && (f == 0 || f == 4 || f == 8)
            {
                t[c * 7 + 2] |= b;
            }
            t[c * 7 + 3] |= b;
            t[c * 7 + 4] |= b;
            t[c * 7 + 5] |= b;
            if rr >= 5 || (rr == 3 || rr == 4) && f % 2 == 0 {
                t[c * 7 + 6] |= b;
            }
            s += 1;
        }
        c += 1;
    }
    t
};

/// Points a piece may stand on in a *playable* position, by piece index: kings and
/// advisors anywhere in their own palace, elephants anywhere on their own side of
/// the river, every other piece anywhere. Composed studies (排局) put advisors,
/// elephants and pawns on points no game reaches; move generation and evaluation
/// work on all of these (the tables above are computed for every point).
pub static PLAYABLE_POINTS: [u128; 14] = {
    let mut t = [0u128; 14];
    let mut c = 0;
    while c < 2 {
        let mut s = 0usize;
        while s < 90 {
            let (f, r) = ((s % 9) as i32, (s / 9) as i32);
            let rr = if c == 0 { r } else { 9 - r };
            let b = 1u128 << s;
            if in_palace(f, rr) && rr <= 2 {
                t[c * 7] |= b;
                t[c * 7 + 1] |= b;
            }
            if rr <= 4 {
                t[c * 7 + 2] |= b;
            }
            t[c * 7 + 3] |= b;
            t[c * 7 + 4] |= b;
            t[c * 7 + 5] |= b;
            t[c * 7 + 6] |= b;
            s += 1;
        }
        c += 1;
    }
    t
};

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

    #[test]
    fn legal_points() {
        assert_eq!(Bitboard(PLAYABLE_POINTS[0]).count(), 9);
        assert_eq!(Bitboard(PLAYABLE_POINTS[1]).count(), 9);
        assert_eq!(Bitboard(PLAYABLE_POINTS[9]).count(), 45); // black elephant
        assert_eq!(Bitboard(PLAYABLE_POINTS[13]).count(), 90);
        for i in 0..14 {
            assert_eq!(LEGAL_POINTS[i] & !PLAYABLE_POINTS[i], 0, "piece {i}");
        }
        assert_eq!(Bitboard(LEGAL_POINTS[2]).count(), 7); // red elephant
        assert_eq!(Bitboard(LEGAL_POINTS[1]).count(), 5); // red advisor
        assert_eq!(Bitboard(LEGAL_POINTS[0]).count(), 9);
        assert_eq!(Bitboard(LEGAL_POINTS[6]).count(), 45 + 10);
        assert!(Bitboard(LEGAL_POINTS[9]).has(s("c9")));
        assert!(Bitboard(LEGAL_POINTS[13]).has(s("a6")));
        assert!(!Bitboard(LEGAL_POINTS[13]).has(s("b6")));
    }
}
