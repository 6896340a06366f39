//! The leaper tables: knight, elephant, advisor, king and pawn moves (and the
//! points a knight or a pawn attacks a point from), by point and, for the pieces
//! a leg or an eye can block, by the occupancy of the neighbours that block them.

use super::{bit, in_palace, sq};

/// Off-board neighbour: bit 127 is never set in an occupancy word.
const NOWHERE: u8 = 127;

/// Orthogonal neighbours (N, S, E, W) of each point: a knight's legs, an attacker's legs.
#[cfg(test)]
pub(super) static ORTHO: [[u8; 4]; 90] = neighbours(ORTHO_STEPS);
const ORTHO_STEPS: [(i32, i32); 4] = [(0, 1), (0, -1), (1, 0), (-1, 0)];
/// Diagonal neighbours (NE, NW, SE, SW): elephant eyes, and the legs of knights attacking a point.
#[cfg(test)]
pub(super) static DIAG: [[u8; 4]; 90] = neighbours(DIAG_STEPS);
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

/// A knight table by point and blocked-leg mask: for each of the four legs not set in
/// the mask, the two points its offsets reach (off-board offsets add nothing).
const fn by_leg_mask(offsets: [[(i32, i32); 2]; 4]) -> [[u128; 16]; 90] {
    let mut t = [[0u128; 16]; 90];
    let mut s = 0;
    while s < 90 {
        let (f, r) = ((s % 9) as i32, (s / 9) as i32);
        let mut m = 0;
        while m < 16 {
            let mut leg = 0;
            while leg < 4 {
                if (m >> leg) & 1 == 0 {
                    t[s][m] |= bit(sq(f + offsets[leg][0].0, r + offsets[leg][0].1));
                    t[s][m] |= bit(sq(f + offsets[leg][1].0, r + offsets[leg][1].1));
                }
                leg += 1;
            }
            m += 1;
        }
        s += 1;
    }
    t
}

/// Knight targets by point and blocked-leg mask (bit i: ORTHO[i] occupied).
pub(super) static KNIGHT_TO: [[u128; 16]; 90] = {
    // For each leg direction, the two targets past it.
    const JUMPS: [[(i32, i32); 2]; 4] = [
        [(1, 2), (-1, 2)],
        [(1, -2), (-1, -2)],
        [(2, 1), (2, -1)],
        [(-2, 1), (-2, -1)],
    ];
    by_leg_mask(JUMPS)
};

/// Points from which a knight attacks the given point, by blocked mask of DIAG
/// (a knight two ranks and one file away has its leg on the diagonal neighbour between).
pub(super) static KNIGHT_FROM: [[u128; 16]; 90] = {
    const FROM: [[(i32, i32); 2]; 4] = [
        [(1, 2), (2, 1)],
        [(-1, 2), (-2, 1)],
        [(1, -2), (2, -1)],
        [(-1, -2), (-2, -1)],
    ];
    by_leg_mask(FROM)
};

/// Elephant targets by point and blocked-eye mask (DIAG order); they never cross the river.
pub(super) static ELEPHANT_TO: [[u128; 16]; 90] = {
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

pub(super) static ADVISOR_TO: [u128; 90] = {
    const D: [(i32, i32); 4] = [(1, 1), (-1, 1), (1, -1), (-1, -1)];
    steps_in_palace(D)
};

pub(super) static KING_TO: [u128; 90] = {
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
pub(super) static PAWN_TO: [[u128; 90]; 2] = {
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
pub(super) static PAWN_FROM: [[u128; 90]; 2] = {
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

/// Which `ORTHO` and `DIAG` neighbours of each point are on the board.
pub(super) static ON_BOARD: [(u8, u8); 90] = {
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

/// `DIAG` as a board per point.
pub(super) static DIAG_BB: [u128; 90] = {
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
