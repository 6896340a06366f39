//! The handcrafted evaluation: material and piece-square tables blended by game
//! phase (kept incrementally), plus terms computed at each call: mobility, king
//! and palace safety, cannon pressure on the king's file, linked pawns across the
//! river, and a scale-down when the side ahead has nothing left to attack with.

use super::hce_values::HCE_PARAMS;
use super::params::HceParams;
use super::tables::{phase_of, psq, psq_with};
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
        Hce::side_terms_body(&HCE_PARAMS, pos, us)
    }

    /// `HCE_PARAMS` is passed as a constant so that every number is an immediate.
    ///
    /// # Safety
    /// The CPU must support POPCNT (the caller detects it at run time).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt")]
    unsafe fn side_terms_popcnt(pos: &Position, us: Color) -> (i32, i32) {
        Hce::side_terms_body(&HCE_PARAMS, pos, us)
    }

    #[inline(always)]
    fn side_terms_body(p: &HceParams, pos: &Position, us: Color) -> (i32, i32) {
        let them = us.flip();
        let occ = pos.occupied();
        let byf = pos.occ_by_file();
        let own = pos.pieces_of(us);
        let (mut mg, mut eg) = (0, 0);

        for s in pos.pieces(us, PieceKind::Knight) {
            let n = (attacks::knight(s, occ) & !own).count() as usize;
            mg += p.knight_mob_mg[n.min(8)];
            eg += p.knight_mob_eg[n.min(8)];
        }
        for s in pos.pieces(us, PieceKind::Rook) {
            let n = (attacks::rook(s, occ, byf) & !own).count() as i32;
            mg += p.rook_mob_mg * n;
            eg += p.rook_mob_eg * n;
        }
        for s in pos.pieces(us, PieceKind::Cannon) {
            let n = attacks::slides(s, occ, byf).count() as i32;
            mg += p.cannon_mob_mg * n;
            eg += p.cannon_mob_eg * n;
        }

        // Cannons on the enemy king's file: with no screen (空头炮) the king and its
        // advisors are nailed down; with one screen it is a standing threat.
        let eksq = pos.king_square(them);
        for s in pos.pieces(us, PieceKind::Cannon) {
            if s.file() == eksq.file() {
                match (attacks::between(s, eksq) & occ).count() {
                    0 => {
                        mg += p.hollow_cannon_mg;
                        eg += p.hollow_cannon_eg;
                    }
                    1 => {
                        mg += p.cannon_on_king_file_mg;
                        eg += p.cannon_on_king_file_eg;
                    }
                    _ => {}
                }
            }
        }

        // Palace safety: missing advisors and elephants hurt in proportion to what
        // the enemy can bring to bear.
        let attack_units = attack_units(p, pos, them);
        let missing_advisors = (2 - pos.pieces(us, PieceKind::Advisor).count() as i32).max(0);
        let missing_elephants = (2 - pos.pieces(us, PieceKind::Elephant).count() as i32).max(0);
        mg -= attack_units
            * (missing_advisors * p.missing_advisor_mg + missing_elephants * p.missing_elephant_mg);
        eg -= attack_units
            * (missing_advisors * p.missing_advisor_eg + missing_elephants * p.missing_elephant_eg);

        // Pawns across the river that stand side by side protect each other.
        let crossed = crossed_pawns(pos, us);
        for s in crossed {
            if s.file() < 8 && crossed.has(Square(s.0 + 1)) {
                mg += p.linked_pawns_mg;
                eg += p.linked_pawns_eg;
            }
        }
        (mg, eg)
    }

    /// Blend the incremental part `a` with both sides' other terms, scale down a
    /// side ahead that cannot attack, and turn to the side to move's view.
    #[inline(always)]
    fn finish(p: &HceParams, pos: &Position, a: Acc, red: (i32, i32), black: (i32, i32)) -> i32 {
        let mg = a.mg + red.0 - black.0;
        let eg = a.eg + red.1 - black.1;
        let ph = a.phase.clamp(0, p.phase_max);
        let mut v = (mg * ph + eg * (p.phase_max - ph)) / p.phase_max;
        // The side ahead with nothing to attack with cannot win.
        if v > 0 && !has_attackers(pos, Color::Red) || v < 0 && !has_attackers(pos, Color::Black) {
            v /= p.no_attacker_divisor;
        }
        let v = if pos.side_to_move() == Color::Red {
            v
        } else {
            -v
        };
        (v + p.tempo).clamp(-EVAL_LIMIT, EVAL_LIMIT)
    }
}

/// The evaluation of `pos` under any parameters, from scratch (the tuner's reference;
/// with `HCE_PARAMS` it equals `Hce::evaluate`).
pub fn evaluate_with(p: &HceParams, pos: &Position) -> i32 {
    let mut a = Acc::default();
    for s in pos.occupied() {
        if let Some(pc) = pos.piece_at(s) {
            let (mg, eg) = psq_with(p, pc, s);
            a.mg += mg;
            a.eg += eg;
            a.phase += p.phase_weight[pc.kind.index()];
        }
    }
    let red = Hce::side_terms_body(p, pos, Color::Red);
    let black = Hce::side_terms_body(p, pos, Color::Black);
    Hce::finish(p, pos, a, red, black)
}

/// The handcrafted evaluation of one position term by term (the `eval` report).
/// Every pair is (middlegame, endgame) in centipawns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HceTerms {
    /// Material and piece-square tables, Red's minus Black's.
    pub psq: (i32, i32),
    /// Red's own other terms: mobility, cannons on the enemy king's file, palace
    /// safety, linked pawns.
    pub red: (i32, i32),
    /// The same for Black (subtracted from Red's).
    pub black: (i32, i32),
    /// The game phase that blends middlegame and endgame, `0..=phase_max`.
    pub phase: i32,
    pub phase_max: i32,
    /// The blend from Red's view, before any scale-down.
    pub blended: i32,
    /// Whether the side ahead had nothing left to attack with (the blend divided).
    pub scaled_down: bool,
    /// The side to move's bonus.
    pub tempo: i32,
    /// The evaluation from the side to move's view, exactly `Hce::evaluate`'s.
    pub total: i32,
}

/// `pos` under the handcrafted evaluation, term by term (computed from scratch:
/// for reports, not for search).
pub fn hce_terms(pos: &Position) -> HceTerms {
    let p = &HCE_PARAMS;
    let a = Hce::compute(pos);
    let red = Hce::side_terms_body(p, pos, Color::Red);
    let black = Hce::side_terms_body(p, pos, Color::Black);
    let (mg, eg) = (a.mg + red.0 - black.0, a.eg + red.1 - black.1);
    let phase = a.phase.clamp(0, p.phase_max);
    let blended = (mg * phase + eg * (p.phase_max - phase)) / p.phase_max;
    HceTerms {
        psq: (a.mg, a.eg),
        red,
        black,
        phase,
        phase_max: p.phase_max,
        blended,
        scaled_down: blended > 0 && !has_attackers(pos, Color::Red)
            || blended < 0 && !has_attackers(pos, Color::Black),
        tempo: p.tempo,
        total: Hce::finish(p, pos, a, red, black),
    }
}

/// Attack units `c` brings against the enemy palace.
#[inline(always)]
pub(crate) fn attack_units(p: &HceParams, pos: &Position, c: Color) -> i32 {
    p.attack_weight[0] * pos.pieces(c, PieceKind::Rook).count() as i32
        + p.attack_weight[1] * pos.pieces(c, PieceKind::Knight).count() as i32
        + p.attack_weight[2] * pos.pieces(c, PieceKind::Cannon).count() as i32
        + p.attack_weight[3] * crossed_pawns(pos, c).count() as i32
}

pub(crate) fn crossed_pawns(pos: &Position, c: Color) -> Bitboard {
    let mut b = Bitboard::EMPTY;
    for s in pos.pieces(c, PieceKind::Pawn) {
        if s.relative_rank(c) >= 5 {
            b |= Bitboard::from_square(s);
        }
    }
    b
}

/// Can `c` still hope to mate? Not with only defenders and pawns that have not crossed.
pub(crate) fn has_attackers(pos: &Position, c: Color) -> bool {
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
        let red = Hce::side_terms(pos, Color::Red);
        let black = Hce::side_terms(pos, Color::Black);
        Hce::finish(&HCE_PARAMS, pos, a, red, black)
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
    fn terms_add_up_to_the_evaluation() {
        for fen in [
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1",
            "3aka3/9/4b4/9/9/9/9/4B4/4P4/3AKA3 w - - 0 50",
            "3k5/9/9/9/9/9/9/9/9/4K1R2 b - - 0 1",
        ] {
            let pos = Position::from_fen(fen).unwrap();
            let t = hce_terms(&pos);
            assert_eq!(t.total, eval_fen(fen), "{fen}");
            let v = if t.scaled_down {
                t.blended / HCE_PARAMS.no_attacker_divisor
            } else {
                t.blended
            };
            let v = if pos.side_to_move() == Color::Red {
                v
            } else {
                -v
            };
            assert_eq!(
                t.total,
                (v + t.tempo).clamp(-EVAL_LIMIT, EVAL_LIMIT),
                "{fen}"
            );
        }
    }

    #[test]
    fn start_position_is_balanced_and_symmetric() {
        let v = eval_fen(rules::START_FEN);
        assert_eq!(v, HCE_PARAMS.tempo);
        let b = eval_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1");
        assert_eq!(b, HCE_PARAMS.tempo);
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
        assert_eq!(e.evaluate(&pos), HCE_PARAMS.tempo);
    }

    #[test]
    fn material_counts() {
        // Red without a rook is worse.
        let v = eval_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN1 w - - 0 1");
        assert!(v < -600, "{v}");
    }
}
