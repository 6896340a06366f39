//! The handcrafted evaluation: material and piece-square tables blended by game
//! phase (kept incrementally), plus terms computed at each call: mobility, king
//! and palace safety, cannon pressure on the king's file, linked pawns across the
//! river, and a scale-down when the side ahead has nothing left to attack with.

use super::tables::{phase_of, psq, PHASE_MAX};
use super::Evaluator;
use crate::score::EVAL_LIMIT;
use rules::attacks;
use rules::{Bitboard, Color, Move, PieceKind, Position, Square};

/// Incremental part of the evaluation, from Red's view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Acc {
    mg: i32,
    eg: i32,
    phase: i32,
}

#[derive(Clone, Debug)]
pub struct Hce {
    stack: Vec<Acc>,
}

impl Default for Hce {
    fn default() -> Self {
        Hce::new()
    }
}

const TEMPO: i32 = 10;
/// Knight mobility bonus by number of reachable points (a trapped knight is a liability).
const KNIGHT_MOB: [i32; 9] = [-60, -33, -12, 0, 9, 15, 20, 22, 24];
const ROOK_MOB: i32 = 5;
const CANNON_MOB: i32 = 2;
const HOLLOW_CANNON: i32 = 70;
const CANNON_ON_KING_FILE: i32 = 15;
const LINKED_PAWNS: i32 = 15;

impl Hce {
    pub fn new() -> Hce {
        Hce {
            stack: Vec::with_capacity(256),
        }
    }

    fn compute(pos: &Position) -> Acc {
        let mut a = Acc::default();
        for s in pos.occupied() {
            if let Some(p) = pos.piece_at(s) {
                let (mg, eg) = psq(p, s);
                a.mg += mg;
                a.eg += eg;
                a.phase += phase_of(p.kind);
            }
        }
        a
    }

    #[inline]
    fn top(&self) -> Acc {
        self.stack.last().copied().unwrap_or_default()
    }

    /// Terms that are not incremental, from `us`'s view: (middlegame, endgame).
    /// `side_terms_body` compiled with the POPCNT instruction when the CPU has it: the
    /// build targets baseline x86-64, where a 128-bit `count_ones` is a long bit-twiddling
    /// sequence, and this function counts mobility for every piece.
    #[inline]
    fn side_terms(pos: &Position, us: Color) -> (i32, i32) {
        #[cfg(target_arch = "x86_64")]
        {
            if std::is_x86_feature_detected!("popcnt") {
                // SAFETY: the CPU supports POPCNT (checked just above).
                return unsafe { Hce::side_terms_popcnt(pos, us) };
            }
        }
        Hce::side_terms_body(pos, us)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt")]
    unsafe fn side_terms_popcnt(pos: &Position, us: Color) -> (i32, i32) {
        Hce::side_terms_body(pos, us)
    }

    #[inline(always)]
    fn side_terms_body(pos: &Position, us: Color) -> (i32, i32) {
        let them = us.flip();
        let occ = pos.occupied();
        let byf = pos.occ_by_file();
        let own = pos.pieces_of(us);
        let (mut mg, mut eg) = (0, 0);

        for s in pos.pieces(us, PieceKind::Knight) {
            let n = (attacks::knight(s, occ) & !own).count() as usize;
            let v = KNIGHT_MOB[n.min(8)];
            mg += v;
            eg += v;
        }
        for s in pos.pieces(us, PieceKind::Rook) {
            let n = (attacks::rook(s, occ, byf) & !own).count() as i32;
            mg += ROOK_MOB * n;
            eg += ROOK_MOB * n;
        }
        for s in pos.pieces(us, PieceKind::Cannon) {
            let n = attacks::slides(s, occ, byf).count() as i32;
            mg += CANNON_MOB * n;
        }

        // Cannons on the enemy king's file: with no screen (空头炮) the king and its
        // advisors are nailed down; with one screen it is a standing threat.
        let eksq = pos.king_square(them);
        for s in pos.pieces(us, PieceKind::Cannon) {
            if s.file() == eksq.file() {
                match (attacks::between(s, eksq) & occ).count() {
                    0 => mg += HOLLOW_CANNON,
                    1 => mg += CANNON_ON_KING_FILE,
                    _ => {}
                }
            }
        }

        // Palace safety: missing advisors and elephants hurt in proportion to what
        // the enemy can bring to bear.
        let crossed_them = crossed_pawns(pos, them);
        let attack_units = 3 * pos.pieces(them, PieceKind::Rook).count() as i32
            + 2 * pos.pieces(them, PieceKind::Knight).count() as i32
            + 2 * pos.pieces(them, PieceKind::Cannon).count() as i32
            + crossed_them.count() as i32;
        let advisors = pos.pieces(us, PieceKind::Advisor).count() as i32;
        let elephants = pos.pieces(us, PieceKind::Elephant).count() as i32;
        mg -= attack_units * ((2 - advisors).max(0) * 6 + (2 - elephants).max(0) * 4);
        eg -= attack_units * ((2 - advisors).max(0) * 3 + (2 - elephants).max(0) * 2);

        // Pawns across the river that stand side by side protect each other.
        let crossed = crossed_pawns(pos, us);
        for s in crossed {
            if s.file() < 8 && crossed.has(Square(s.0 + 1)) {
                mg += LINKED_PAWNS;
                eg += LINKED_PAWNS;
            }
        }
        (mg, eg)
    }
}

fn crossed_pawns(pos: &Position, c: Color) -> Bitboard {
    let mut b = Bitboard::EMPTY;
    for s in pos.pieces(c, PieceKind::Pawn) {
        if s.relative_rank(c) >= 5 {
            b |= Bitboard::from_square(s);
        }
    }
    b
}

/// Can `c` still hope to mate? Not with only defenders and pawns that have not crossed.
fn has_attackers(pos: &Position, c: Color) -> bool {
    (pos.pieces(c, PieceKind::Rook)
        | pos.pieces(c, PieceKind::Knight)
        | pos.pieces(c, PieceKind::Cannon))
    .any()
        || crossed_pawns(pos, c).any()
}

impl Evaluator for Hce {
    fn reset(&mut self, pos: &Position) {
        self.stack.clear();
        self.stack.push(Hce::compute(pos));
    }

    #[inline]
    fn on_make(&mut self, pos: &Position, m: Move) {
        let mut a = self.top();
        if let Some(p) = pos.piece_at(m.from()) {
            let (mg0, eg0) = psq(p, m.from());
            let (mg1, eg1) = psq(p, m.to());
            a.mg += mg1 - mg0;
            a.eg += eg1 - eg0;
        }
        if let Some(c) = pos.piece_at(m.to()) {
            let (mg, eg) = psq(c, m.to());
            a.mg -= mg;
            a.eg -= eg;
            a.phase -= phase_of(c.kind);
        }
        self.stack.push(a);
    }

    #[inline]
    fn on_null(&mut self) {
        let a = self.top();
        self.stack.push(a);
    }

    #[inline]
    fn on_unmake(&mut self) {
        if self.stack.len() > 1 {
            self.stack.pop();
        }
    }

    fn evaluate(&mut self, pos: &Position) -> i32 {
        let a = if self.stack.is_empty() {
            Hce::compute(pos)
        } else {
            self.top()
        };
        let (rmg, reg) = Hce::side_terms(pos, Color::Red);
        let (bmg, beg) = Hce::side_terms(pos, Color::Black);
        let mg = a.mg + rmg - bmg;
        let eg = a.eg + reg - beg;
        let ph = a.phase.clamp(0, PHASE_MAX);
        let mut v = (mg * ph + eg * (PHASE_MAX - ph)) / PHASE_MAX;
        // The side ahead with nothing to attack with cannot win.
        if v > 0 && !has_attackers(pos, Color::Red) || v < 0 && !has_attackers(pos, Color::Black) {
            v /= 8;
        }
        let v = if pos.side_to_move() == Color::Red {
            v
        } else {
            -v
        };
        (v + TEMPO).clamp(-EVAL_LIMIT, EVAL_LIMIT)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eval_fen(fen: &str) -> i32 {
        let pos = Position::from_fen(fen).unwrap();
        let mut e = Hce::new();
        e.reset(&pos);
        e.evaluate(&pos)
    }

    #[test]
    fn start_position_is_balanced_and_symmetric() {
        let v = eval_fen(rules::START_FEN);
        assert_eq!(v, TEMPO);
        let b = eval_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1");
        assert_eq!(b, TEMPO);
    }

    #[test]
    fn incremental_matches_scratch() {
        let mut pos = Position::startpos();
        let mut e = Hce::new();
        e.reset(&pos);
        // Play a few plies, including captures, and compare with a fresh evaluator.
        for text in ["h2e2", "h9g7", "e2e6", "c6c5", "g3g4"] {
            let m = pos.parse_move(text).unwrap();
            e.on_make(&pos, m);
            pos.make_move(m);
            let mut fresh = Hce::new();
            fresh.reset(&pos);
            assert_eq!(e.evaluate(&pos), fresh.evaluate(&pos), "after {text}");
        }
        for _ in 0..5 {
            pos.unmake_move();
            e.on_unmake();
        }
        assert_eq!(e.evaluate(&pos), TEMPO);
    }

    #[test]
    fn material_counts() {
        // Red without a rook is worse.
        let v = eval_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN1 w - - 0 1");
        assert!(v < -600, "{v}");
    }
}
