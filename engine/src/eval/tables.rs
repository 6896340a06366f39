//! Material and piece-square tables of the handcrafted evaluation.
//!
//! Tables are drawn as the board looks from Red's side: the first row is rank 9
//! (Black's back rank), the last is rank 0. Black uses the point rotated by 180°.
//! Values are hand-set from general xiangqi principles (pawns gain after the river
//! and near the palace but lose on the last rank; knights want the centre and the
//! enemy's palace corners; cannons like the central file and the enemy back rank in
//! the middlegame), to be tuned later.

use rules::{Piece, PieceKind, Square};

/// Material by kind (King, Advisor, Elephant, Knight, Rook, Cannon, Pawn): middlegame, endgame.
pub const MATERIAL_MG: [i32; 7] = [0, 200, 200, 400, 900, 450, 100];
pub const MATERIAL_EG: [i32; 7] = [0, 180, 180, 440, 950, 410, 120];

/// Game phase weights by kind; the full board is `PHASE_MAX`.
pub const PHASE_WEIGHT: [i32; 7] = [0, 0, 0, 2, 4, 2, 0];
pub const PHASE_MAX: i32 = 32;

#[rustfmt::skip]
const PAWN_MG: [i32; 90] = [
     0,  0,  0,  5, 15,  5,  0,  0,  0,
    20, 30, 45, 65, 75, 65, 45, 30, 20,
    20, 30, 40, 55, 65, 55, 40, 30, 20,
    15, 25, 30, 40, 45, 40, 30, 25, 15,
    10, 15, 20, 25, 30, 25, 20, 15, 10,
     0,  0,  5,  0, 10,  0,  5,  0,  0,
     0,  0,  0,  0,  5,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
];

#[rustfmt::skip]
const PAWN_EG: [i32; 90] = [
    10, 10, 15, 20, 25, 20, 15, 10, 10,
    40, 50, 60, 75, 80, 75, 60, 50, 40,
    40, 50, 60, 70, 75, 70, 60, 50, 40,
    35, 45, 50, 55, 60, 55, 50, 45, 35,
    30, 35, 40, 45, 50, 45, 40, 35, 30,
     0,  0,  5,  0, 10,  0,  5,  0,  0,
     0,  0,  0,  0,  5,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
];

#[rustfmt::skip]
const KNIGHT: [i32; 90] = [
     0, -5,  5, 10,  0, 10,  5, -5,  0,
     5, 15, 25, 25, 15, 25, 25, 15,  5,
    10, 20, 30, 35, 30, 35, 30, 20, 10,
    10, 25, 25, 35, 30, 35, 25, 25, 10,
     5, 15, 20, 25, 25, 25, 20, 15,  5,
     0, 10, 15, 15, 20, 15, 15, 10,  0,
     0,  5, 10, 10, 10, 10, 10,  5,  0,
     0,  0,  5,  5,  5,  5,  5,  0,  0,
    -5,  0,  0,  0,-10,  0,  0,  0, -5,
   -10,-10,  0, -5,-10, -5,  0,-10,-10,
];

#[rustfmt::skip]
const ROOK: [i32; 90] = [
    10, 15, 10, 20, 20, 20, 10, 15, 10,
    10, 20, 15, 25, 30, 25, 15, 20, 10,
    10, 15, 15, 20, 20, 20, 15, 15, 10,
    10, 15, 15, 20, 20, 20, 15, 15, 10,
    10, 15, 15, 20, 20, 20, 15, 15, 10,
     5, 15, 10, 15, 15, 15, 10, 15,  5,
     0, 10,  5, 15, 10, 15,  5, 10,  0,
     0, 10,  5, 10, 10, 10,  5, 10,  0,
    -5,  5,  0, 10,  0, 10,  0,  5, -5,
   -10,  5,  0, 10,  0, 10,  0,  5,-10,
];

#[rustfmt::skip]
const CANNON_MG: [i32; 90] = [
    10, 10,  0, -5,-10, -5,  0, 10, 10,
     5,  5,  0, -5,-10, -5,  0,  5,  5,
     5,  5,  0,  0, -5,  0,  0,  5,  5,
     0,  5,  5,  5, 10,  5,  5,  5,  0,
     0,  0,  0,  0, 10,  0,  0,  0,  0,
     0,  0,  5,  0, 10,  0,  5,  0,  0,
     0,  0,  0,  0,  5,  0,  0,  0,  0,
     5,  5,  5, 10, 20, 10,  5,  5,  5,
     0,  5,  5,  5, 10,  5,  5,  5,  0,
     0,  0,  5, 10, 10, 10,  5,  0,  0,
];

#[rustfmt::skip]
const CANNON_EG: [i32; 90] = [
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  5,  0,  0,  0,  0,
     0,  0,  0,  0,  5,  0,  0,  0,  0,
     0,  0,  0,  0,  5,  0,  0,  0,  0,
     0,  0,  0,  0,  5,  0,  0,  0,  0,
     0,  0,  0,  0,  5,  0,  0,  0,  0,
     0,  0,  0,  5, 10,  5,  0,  0,  0,
     0,  0,  0,  5, 10,  5,  0,  0,  0,
     0,  0,  0,  5,  5,  5,  0,  0,  0,
];

#[rustfmt::skip]
const ADVISOR: [i32; 90] = [
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0, -5,  0, -5,  0,  0,  0,
     0,  0,  0,  0, 10,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
];

#[rustfmt::skip]
const ELEPHANT: [i32; 90] = [
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0, -5,  0,  0,  0, -5,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
    -5,  0,  0,  0, 10,  0,  0,  0, -5,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
];

#[rustfmt::skip]
const KING_MG: [i32; 90] = [
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,-40,-35,-40,  0,  0,  0,
     0,  0,  0,-20,-15,-20,  0,  0,  0,
     0,  0,  0, -5,  5, -5,  0,  0,  0,
];

#[rustfmt::skip]
const KING_EG: [i32; 90] = [
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,-15,-10,-15,  0,  0,  0,
     0,  0,  0, -5,  5, -5,  0,  0,  0,
     0,  0,  0,  0, 10,  0,  0,  0,  0,
];

const fn drawn_index(red_sq: usize) -> usize {
    let rank = red_sq / 9;
    let file = red_sq % 9;
    (9 - rank) * 9 + file
}

const fn table_for(kind: usize, eg: bool) -> &'static [i32; 90] {
    match kind {
        0 => {
            if eg {
                &KING_EG
            } else {
                &KING_MG
            }
        }
        1 => &ADVISOR,
        2 => &ELEPHANT,
        3 => &KNIGHT,
        4 => &ROOK,
        5 => {
            if eg {
                &CANNON_EG
            } else {
                &CANNON_MG
            }
        }
        _ => {
            if eg {
                &PAWN_EG
            } else {
                &PAWN_MG
            }
        }
    }
}

/// `[piece index][square]`: material plus placement, positive for Red, negative for Black.
const fn build(eg: bool) -> [[i32; 90]; 14] {
    let mut t = [[0i32; 90]; 14];
    let mut p = 0;
    while p < 14 {
        let kind = p % 7;
        let red = p < 7;
        let tab = table_for(kind, eg);
        let mat = if eg {
            MATERIAL_EG[kind]
        } else {
            MATERIAL_MG[kind]
        };
        let mut s = 0;
        while s < 90 {
            let rs = if red { s } else { 89 - s };
            let v = mat + tab[drawn_index(rs)];
            t[p][s] = if red { v } else { -v };
            s += 1;
        }
        p += 1;
    }
    t
}

pub static PSQ_MG: [[i32; 90]; 14] = build(false);
pub static PSQ_EG: [[i32; 90]; 14] = build(true);

#[inline(always)]
pub fn psq(p: Piece, s: Square) -> (i32, i32) {
    (PSQ_MG[p.index()][s.index()], PSQ_EG[p.index()][s.index()])
}

#[inline(always)]
pub fn phase_of(kind: PieceKind) -> i32 {
    PHASE_WEIGHT[kind.index()]
}

#[cfg(test)]
mod tests {
    use super::*;
    use rules::Color;

    #[test]
    fn tables_are_mirror_images() {
        for k in PieceKind::ALL {
            for s in 0..90u8 {
                let r = psq(Piece::new(Color::Red, k), Square(s));
                let b = psq(Piece::new(Color::Black, k), Square(89 - s));
                assert_eq!(r.0, -b.0);
                assert_eq!(r.1, -b.1);
            }
        }
        // A pawn across the river is worth more than one at home.
        let p = Piece::new(Color::Red, PieceKind::Pawn);
        assert!(psq(p, Square::new(4, 6)).0 > psq(p, Square::new(4, 3)).0);
    }
}
