//! Per-thread move-ordering statistics: quiet history by side and from/to,
//! capture history by piece, target and victim, counter-moves, and killers.
//! Updates use the usual "gravity" form so values stay within `HISTORY_MAX`.

use crate::score::MAX_PLY;
use rules::{Color, Move, Piece, PieceKind};

pub const HISTORY_MAX: i32 = 16_384;

#[inline(always)]
fn from_to(m: Move) -> usize {
    m.from().index() * 90 + m.to().index()
}

#[inline(always)]
fn gravity(entry: &mut i16, bonus: i32) {
    let b = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
    let v = *entry as i32;
    *entry = (v + b - v * b.abs() / HISTORY_MAX) as i16;
}

/// Index of a (piece, destination) pair, the context of continuation history.
#[inline(always)]
pub fn piece_to(p: Piece, m: Move) -> usize {
    p.index() * 90 + m.to().index()
}

const PIECE_TO: usize = 14 * 90;

pub struct Histories {
    quiet: Vec<[i16; 8100]>,
    /// Continuation history: how good a quiet move (piece, to) was after the move
    /// (piece, to) one or two plies earlier, `[context * PIECE_TO + piece_to]`.
    cont: Vec<i16>,
    capture: Vec<[[i16; 7]; 90]>,
    counter: Vec<[Move; 90]>,
    pub killers: [[Move; 2]; MAX_PLY + 4],
}

impl Default for Histories {
    fn default() -> Self {
        Histories::new()
    }
}

impl Histories {
    pub fn new() -> Histories {
        Histories {
            quiet: vec![[0; 8100]; 2],
            cont: vec![0; PIECE_TO * PIECE_TO],
            capture: vec![[[0; 7]; 90]; 14],
            counter: vec![[Move::NULL; 90]; 14],
            killers: [[Move::NULL; 2]; MAX_PLY + 4],
        }
    }

    /// Forget everything, in place: reallocating would hand back fresh zero pages
    /// that then fault one by one during the next search.
    pub fn clear(&mut self) {
        self.quiet.iter_mut().for_each(|q| q.fill(0));
        self.cont.fill(0);
        self.capture.iter_mut().for_each(|c| *c = [[0; 7]; 90]);
        self.counter.iter_mut().for_each(|c| c.fill(Move::NULL));
        self.killers = [[Move::NULL; 2]; MAX_PLY + 4];
    }

    /// Between searches: keep the statistics but forget the killers of the last tree.
    pub fn new_search(&mut self) {
        self.killers = [[Move::NULL; 2]; MAX_PLY + 4];
    }

    #[inline(always)]
    pub fn quiet(&self, side: Color, m: Move) -> i32 {
        self.quiet[side.index()][from_to(m)] as i32
    }

    #[inline(always)]
    pub fn update_quiet(&mut self, side: Color, m: Move, bonus: i32) {
        gravity(&mut self.quiet[side.index()][from_to(m)], bonus);
    }

    /// Sum of the continuation histories of (mover, m) under the given contexts.
    #[inline(always)]
    pub fn cont(&self, ctx: &[Option<usize>; 2], mover: Piece, m: Move) -> i32 {
        let pt = piece_to(mover, m);
        ctx.iter()
            .flatten()
            .map(|&c| self.cont[c * PIECE_TO + pt] as i32)
            .sum()
    }

    #[inline(always)]
    pub fn update_cont(&mut self, ctx: &[Option<usize>; 2], mover: Piece, m: Move, bonus: i32) {
        let pt = piece_to(mover, m);
        for &c in ctx.iter().flatten() {
            gravity(&mut self.cont[c * PIECE_TO + pt], bonus);
        }
    }

    #[inline(always)]
    pub fn capture(&self, mover: Piece, m: Move, victim: PieceKind) -> i32 {
        self.capture[mover.index()][m.to().index()][victim.index()] as i32
    }

    #[inline(always)]
    pub fn update_capture(&mut self, mover: Piece, m: Move, victim: PieceKind, bonus: i32) {
        gravity(
            &mut self.capture[mover.index()][m.to().index()][victim.index()],
            bonus,
        );
    }

    /// The reply that last refuted `prev` (played by `prev_piece`).
    #[inline(always)]
    pub fn counter(&self, prev_piece: Piece, prev: Move) -> Move {
        self.counter[prev_piece.index()][prev.to().index()]
    }

    #[inline(always)]
    pub fn set_counter(&mut self, prev_piece: Piece, prev: Move, reply: Move) {
        self.counter[prev_piece.index()][prev.to().index()] = reply;
    }

    #[inline(always)]
    pub fn add_killer(&mut self, ply: usize, m: Move) {
        let k = &mut self.killers[ply.min(MAX_PLY + 3)];
        if k[0] != m {
            k[1] = k[0];
            k[0] = m;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clear_forgets_everything() {
        let mut h = Histories::new();
        let m = Move(5 | (14 << 7));
        let p = Piece::new(Color::Black, PieceKind::Rook);
        let ctx = [Some(piece_to(p, m)), Some(3)];
        h.update_quiet(Color::Black, m, 500);
        h.update_cont(&ctx, p, m, 700);
        h.update_capture(p, m, PieceKind::Pawn, 300);
        h.set_counter(p, m, m);
        h.add_killer(4, m);
        assert_ne!(h.cont(&ctx, p, m), 0);
        h.clear();
        assert_eq!(h.quiet(Color::Black, m), 0);
        assert_eq!(h.cont(&ctx, p, m), 0);
        assert_eq!(h.capture(p, m, PieceKind::Pawn), 0);
        assert_eq!(h.counter(p, m), Move::NULL);
        assert_eq!(h.killers[4], [Move::NULL; 2]);
    }

    #[test]
    fn gravity_stays_bounded() {
        let mut h = Histories::new();
        let m = Move(5 | (14 << 7));
        for _ in 0..1000 {
            h.update_quiet(Color::Red, m, crate::params::DEFAULT.history_bonus(20));
        }
        assert!(h.quiet(Color::Red, m) <= HISTORY_MAX);
        assert!(h.quiet(Color::Red, m) > HISTORY_MAX / 2);
        assert_eq!(h.quiet(Color::Black, m), 0);
    }
}
