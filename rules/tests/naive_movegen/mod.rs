//! A move generator written straight from the rules, square by square on a
//! mailbox, with none of the library's tables or shortcuts: the reference that the
//! bitboard generator is compared with in `movegen_cases.rs`.

use rules::{Color, Move, Piece, PieceKind, Position, Square};
use std::collections::HashSet;

/// The points a piece may ever stand on, from the rules (not from the library).
pub fn may_stand(p: Piece, sq: Square) -> bool {
    let (f, r) = (sq.file() as i32, sq.relative_rank(p.color) as i32);
    match p.kind {
        PieceKind::King => (3..=5).contains(&f) && r <= 2,
        PieceKind::Advisor => {
            matches!((f, r), (3, 0) | (5, 0) | (4, 1) | (3, 2) | (5, 2))
        }
        PieceKind::Elephant => matches!(
            (f, r),
            (2, 0) | (6, 0) | (0, 2) | (4, 2) | (8, 2) | (2, 4) | (6, 4)
        ),
        PieceKind::Pawn => r >= 5 || ((r == 3 || r == 4) && f % 2 == 0),
        _ => true,
    }
}

pub type Board = [Option<Piece>; 90];

pub fn at(b: &Board, f: i32, r: i32) -> Option<Option<Piece>> {
    if (0..9).contains(&f) && (0..10).contains(&r) {
        Some(b[(r * 9 + f) as usize])
    } else {
        None
    }
}

/// Points the piece on `sq` could move to by its own rules (own king's safety
/// ignored), own pieces excluded.
pub fn naive_targets(b: &Board, sq: usize) -> Vec<usize> {
    let Some(p) = b[sq] else {
        return Vec::new();
    };
    let (f, r) = ((sq % 9) as i32, (sq / 9) as i32);
    let fwd = if p.color == Color::Red { 1 } else { -1 };
    let mut out = Vec::new();
    let add = |tf: i32, tr: i32, out: &mut Vec<usize>| {
        if let Some(t) = at(b, tf, tr) {
            if t.is_none_or(|q| q.color != p.color) {
                out.push((tr * 9 + tf) as usize);
            }
        }
    };
    let in_palace = |tf: i32, tr: i32| {
        let rr = if p.color == Color::Red { tr } else { 9 - tr };
        (3..=5).contains(&tf) && (0..=2).contains(&rr)
    };
    let own_side = |tr: i32| {
        let rr = if p.color == Color::Red { tr } else { 9 - tr };
        (0..=4).contains(&rr)
    };
    const ORTHO: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
    match p.kind {
        PieceKind::King => {
            for (df, dr) in ORTHO {
                if in_palace(f + df, r + dr) {
                    add(f + df, r + dr, &mut out);
                }
            }
        }
        PieceKind::Advisor => {
            for (df, dr) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
                if in_palace(f + df, r + dr) {
                    add(f + df, r + dr, &mut out);
                }
            }
        }
        PieceKind::Elephant => {
            for (df, dr) in [(2, 2), (2, -2), (-2, 2), (-2, -2)] {
                let eye = at(b, f + df / 2, r + dr / 2);
                if eye == Some(None) && own_side(r + dr) {
                    add(f + df, r + dr, &mut out);
                }
            }
        }
        PieceKind::Knight => {
            let jumps: [(i32, i32); 8] = [
                (1, 2),
                (-1, 2),
                (1, -2),
                (-1, -2),
                (2, 1),
                (2, -1),
                (-2, 1),
                (-2, -1),
            ];
            for (df, dr) in jumps {
                let leg = if dr.abs() == 2 {
                    at(b, f, r + dr / 2)
                } else {
                    at(b, f + df / 2, r)
                };
                if leg == Some(None) {
                    add(f + df, r + dr, &mut out);
                }
            }
        }
        PieceKind::Rook | PieceKind::Cannon => {
            for (df, dr) in ORTHO {
                let (mut tf, mut tr) = (f + df, r + dr);
                let mut screened = false;
                while let Some(t) = at(b, tf, tr) {
                    match (t, p.kind, screened) {
                        (None, _, false) => add(tf, tr, &mut out),
                        (None, _, true) => {}
                        (Some(_), PieceKind::Rook, _) => {
                            add(tf, tr, &mut out);
                            break;
                        }
                        (Some(_), _, false) => screened = true,
                        (Some(_), _, true) => {
                            add(tf, tr, &mut out);
                            break;
                        }
                    }
                    tf += df;
                    tr += dr;
                }
            }
        }
        PieceKind::Pawn => {
            add(f, r + fwd, &mut out);
            if !own_side(r) {
                add(f + 1, r, &mut out);
                add(f - 1, r, &mut out);
            }
        }
    }
    out
}

/// Is the king of `c` attacked (by any enemy piece's rule moves) or facing the
/// other king on an open file?
pub fn naive_king_unsafe(b: &Board, c: Color) -> bool {
    let king = Piece::new(c, PieceKind::King);
    let Some(k) = b.iter().position(|q| *q == Some(king)) else {
        return true;
    };
    let enemy_king = Piece::new(c.flip(), PieceKind::King);
    if let Some(e) = b.iter().position(|q| *q == Some(enemy_king)) {
        if e % 9 == k % 9 {
            let (lo, hi) = (k.min(e), k.max(e));
            if (lo + 9..hi).step_by(9).all(|s| b[s].is_none()) {
                return true;
            }
        }
    }
    (0..90).any(|s| b[s].is_some_and(|q| q.color != c) && naive_targets(b, s).contains(&k))
}

pub fn naive_legal(p: &Position) -> HashSet<Move> {
    let mut b: Board = [None; 90];
    for (i, cell) in b.iter_mut().enumerate() {
        *cell = p.piece_at(Square(i as u8));
    }
    naive_legal_board(&b, p.side_to_move())
        .into_iter()
        .map(|(from, to)| Move::new(Square(from as u8), Square(to as u8)))
        .collect()
}

/// Legal moves of `us` by the rules alone: each rule move, kept when afterwards
/// no enemy rule move reaches the king and the kings do not face each other.
pub fn naive_legal_board(b: &Board, us: Color) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for from in 0..90 {
        if b[from].is_none_or(|q| q.color != us) {
            continue;
        }
        for to in naive_targets(b, from) {
            let mut after = *b;
            after[to] = after[from].take();
            if !naive_king_unsafe(&after, us) {
                out.push((from, to));
            }
        }
    }
    out
}

pub fn naive_perft(b: &Board, us: Color, depth: u32) -> u64 {
    let moves = naive_legal_board(b, us);
    if depth <= 1 {
        return moves.len() as u64;
    }
    moves
        .into_iter()
        .map(|(from, to)| {
            let mut after = *b;
            after[to] = after[from].take();
            naive_perft(&after, us.flip(), depth - 1)
        })
        .sum()
}
