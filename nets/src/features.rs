//! Feature indexing of the piece-square inputs.
//!
//! Seen from `perspective`, a piece is "own" (kinds 0..7) or "theirs" (7..14), and its
//! point is the real one for Red and the point rotated 180° (`89 - sq`) for Black, so
//! that both perspectives see their own side at the bottom of the board.

use rules::{Color, Piece, Position, Square};

/// Index of `piece` on `sq` among the 1260 inputs of `perspective`.
#[inline(always)]
pub fn index(perspective: Color, piece: Piece, sq: Square) -> usize {
    let theirs = (piece.color != perspective) as usize;
    let rel_sq = match perspective {
        Color::Red => sq.index(),
        Color::Black => 89 - sq.index(),
    };
    (theirs * 7 + piece.kind.index()) * 90 + rel_sq
}

/// Active features of both perspectives (Red's, Black's), in square order.
pub fn active(pos: &Position) -> [Vec<usize>; 2] {
    let mut out = [Vec::with_capacity(32), Vec::with_capacity(32)];
    for s in pos.occupied() {
        if let Some(p) = pos.piece_at(s) {
            out[0].push(index(Color::Red, p, s));
            out[1].push(index(Color::Black, p, s));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use rules::PieceKind;

    #[test]
    fn mirror_symmetry() {
        // A red rook on a0 seen by Red equals a black rook on i9 seen by Black.
        let r = index(
            Color::Red,
            Piece::new(Color::Red, PieceKind::Rook),
            Square(0),
        );
        let b = index(
            Color::Black,
            Piece::new(Color::Black, PieceKind::Rook),
            Square(89),
        );
        assert_eq!(r, b);
        assert_eq!(r, 4 * 90);
        let theirs = index(
            Color::Black,
            Piece::new(Color::Red, PieceKind::Pawn),
            Square(0),
        );
        assert_eq!(theirs, (7 + 6) * 90 + 89);
        assert!(theirs < crate::INPUTS);
    }

    #[test]
    fn start_position_has_32_distinct_features() {
        let pos = Position::startpos();
        let [r, b] = active(&pos);
        assert_eq!(r.len(), 32);
        let mut rs = r.clone();
        rs.sort();
        let mut bs = b.clone();
        bs.sort();
        // The start position is symmetric: both perspectives see the same inputs.
        assert_eq!(rs, bs);
        rs.dedup();
        assert_eq!(rs.len(), 32);
    }
}
