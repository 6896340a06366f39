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

/// Bonus for a move that caused (or failed to cause) a cut at `depth`.
#[inline(always)]
pub fn stat_bonus(depth: i32) -> i32 {
    (depth * depth * 16 + depth * 32).min(2_000)
}

/// Index of a (piece, destination) pair, the context of continuation history.
#[inline(always)]
pub fn piece_to(p: Piece, m: Move) -> usize {
    p.index() * 90 + m.to().index()
}

const PIECE_TO: usize = 14 * 90;

/// Entries of each correction table (a power of two).
const CORR_PAWN: usize = 16_384;
const CORR_MATERIAL: usize = 4_096;
/// Correction entries are centipawns × `CORR_GRAIN`, within ±`CORR_LIMIT`.
pub const CORR_GRAIN: i32 = 8;
const CORR_LIMIT: i32 = 1_000 * CORR_GRAIN;

pub struct Histories {
    quiet: Vec<[i16; 8100]>,
    /// Continuation history: how good a quiet move (piece, to) was after the move
    /// (piece, to) one or two plies earlier, `[context * PIECE_TO + piece_to]`.
    cont: Vec<i16>,
    capture: Vec<[[i16; 7]; 90]>,
    counter: Vec<[Move; 90]>,
    pub killers: [[Move; 2]; MAX_PLY + 4],
    /// Correction history: how far searches found the static evaluation off, by
    /// pawn structure and by material (and side to move), as a running average.
    corr_pawn: Vec<[i16; 2]>,
    corr_material: Vec<[i16; 2]>,
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
            corr_pawn: vec![[0; 2]; CORR_PAWN],
            corr_material: vec![[0; 2]; CORR_MATERIAL],
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
        self.corr_pawn.fill([0; 2]);
        self.corr_material.fill([0; 2]);
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

    /// The correction entries (in centipawns × `CORR_GRAIN`) of a position with
    /// these pawn and material keys, `side` to move.
    #[inline(always)]
    pub fn correction(&self, side: Color, pawn_key: u64, material_key: u64) -> (i32, i32) {
        (
            self.corr_pawn[pawn_key as usize & (CORR_PAWN - 1)][side.index()] as i32,
            self.corr_material[material_key as usize & (CORR_MATERIAL - 1)][side.index()] as i32,
        )
    }

    /// A search at `depth` found the position worth `diff` centipawns more than
    /// its static evaluation: move both entries toward it, the more the deeper.
    pub fn update_correction(
        &mut self,
        side: Color,
        pawn_key: u64,
        material_key: u64,
        diff: i32,
        depth: i32,
    ) {
        let target = (diff * CORR_GRAIN).clamp(-CORR_LIMIT, CORR_LIMIT);
        let weight = (depth + 1).clamp(1, 16);
        let blend = |e: &mut i16| {
            // A step of (target − e)·weight/256, rounded away from zero so that an
            // entry reaches its target instead of stalling short of it.
            let delta = (target - *e as i32) * weight;
            let step = delta / 256 + delta.signum();
            *e = (*e as i32 + step).clamp(-CORR_LIMIT, CORR_LIMIT) as i16;
        };
        blend(&mut self.corr_pawn[pawn_key as usize & (CORR_PAWN - 1)][side.index()]);
        blend(&mut self.corr_material[material_key as usize & (CORR_MATERIAL - 1)][side.index()]);
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
    fn corrections_move_toward_what_searches_find_and_stay_bounded() {
        let mut h = Histories::new();
        assert_eq!(h.correction(Color::Red, 77, 99), (0, 0));
        for _ in 0..200 {
            h.update_correction(Color::Red, 77, 99, 120, 10);
        }
        let (p, m) = h.correction(Color::Red, 77, 99);
        assert!((p - 120 * CORR_GRAIN).abs() <= CORR_GRAIN, "{p}");
        assert_eq!(p, m);
        assert_eq!(h.correction(Color::Black, 77, 99), (0, 0), "per side");
        for _ in 0..500 {
            h.update_correction(Color::Black, 1, 2, -100_000, 20);
        }
        assert_eq!(h.correction(Color::Black, 1, 2).0, -CORR_LIMIT);
        h.clear();
        assert_eq!(h.correction(Color::Red, 77, 99), (0, 0));
    }

    #[test]
    fn gravity_stays_bounded() {
        let mut h = Histories::new();
        let m = Move(5 | (14 << 7));
        for _ in 0..1000 {
            h.update_quiet(Color::Red, m, stat_bonus(20));
        }
        assert!(h.quiet(Color::Red, m) <= HISTORY_MAX);
        assert!(h.quiet(Color::Red, m) > HISTORY_MAX / 2);
        assert_eq!(h.quiet(Color::Black, m), 0);
    }
}
