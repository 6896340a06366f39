//! Material and piece-square tables of the handcrafted evaluation.
//!
//! Tables are drawn as the board looks from Red's side: the first row is rank 9
//! (Black's back rank), the last is rank 0. Black uses the point rotated by 180°.
//! The numbers come from `HCE_PARAMS` (`hce_values.rs`); these tables fold
//! material and placement into one lookup per piece, built at compile time.

use rules::{Piece, PieceKind, Square};

use super::hce_values::HCE_PARAMS;
use super::params::HceParams;

/// The drawn-table entry (first row rank 9, last rank 0) of a point seen from Red.
#[inline(always)]
pub const fn drawn_index(red_sq: usize) -> usize {
    let rank = red_sq / 9;
    let file = red_sq % 9;
    (9 - rank) * 9 + file
}

/// `[piece index][square]`: material plus placement, positive for Red, negative for Black.
const fn build(p: &HceParams, eg: bool) -> [[i32; 90]; 14] {
    let mut t = [[0i32; 90]; 14];
    let mut pc = 0;
    while pc < 14 {
        let kind = pc % 7;
        let red = pc < 7;
        let (mat, tab) = if eg {
            (p.material_eg[kind], &p.pst_eg[kind])
        } else {
            (p.material_mg[kind], &p.pst_mg[kind])
        };
        let mut s = 0;
        while s < 90 {
            let rs = if red { s } else { 89 - s };
            let v = mat + tab[drawn_index(rs)];
            t[pc][s] = if red { v } else { -v };
            s += 1;
        }
        pc += 1;
    }
    t
}

pub static PSQ_MG: [[i32; 90]; 14] = build(&HCE_PARAMS, false);
pub static PSQ_EG: [[i32; 90]; 14] = build(&HCE_PARAMS, true);

#[inline(always)]
pub fn psq(p: Piece, s: Square) -> (i32, i32) {
    (PSQ_MG[p.index()][s.index()], PSQ_EG[p.index()][s.index()])
}

/// Material plus placement of `p` on `s` under any parameters, from Red's view (slow
/// path for the tuner and tests; the engine uses `psq`).
pub fn psq_with(params: &HceParams, p: Piece, s: Square) -> (i32, i32) {
    let k = p.kind.index();
    let red = p.color == rules::Color::Red;
    let d = drawn_index(if red { s.index() } else { 89 - s.index() });
    let mg = params.material_mg[k] + params.pst_mg[k][d];
    let eg = params.material_eg[k] + params.pst_eg[k][d];
    if red {
        (mg, eg)
    } else {
        (-mg, -eg)
    }
}

#[inline(always)]
pub fn phase_of(kind: PieceKind) -> i32 {
    HCE_PARAMS.phase_weight[kind.index()]
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

    #[test]
    fn compiled_tables_match_the_parameter_path() {
        for pc in 0..14 {
            for s in 0..90u8 {
                let p = Piece::from_index(pc);
                assert_eq!(psq(p, Square(s)), psq_with(&HCE_PARAMS, p, Square(s)));
            }
        }
    }
}
