//! The slider tables: rook attacks and cannon captures along a rank or a file by
//! the line's occupancy index, the spread of a file mask onto the board, and the
//! rank and file geometry (the lines through a point, the points between two).

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
pub(super) static ROOK_RANK: [[u16; 512]; 9] = RANK_TABLES.0;
pub(super) static CANNON_RANK: [[u16; 512]; 9] = RANK_TABLES.1;
pub(super) static ROOK_FILE: [[u16; 1024]; 10] = FILE_TABLES.0;
pub(super) static CANNON_FILE: [[u16; 1024]; 10] = FILE_TABLES.1;

/// Spreads a 10-bit rank mask onto file a of the board (bit r -> point r*9).
pub(super) static FILE_SPREAD: [u128; 1024] = {
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

/// Rank and file through each point (the point itself excluded).
pub(super) static LINES: [u128; 90] = {
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

pub(super) static BETWEEN: [[u128; 90]; 90] = {
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
