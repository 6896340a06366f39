//! Repetition rules (棋例).
//!
//! CONTRACT used by search (keep these names and meanings): `RuleSet`, `Verdict`,
//! `NaturalLimit`, `find_repetition`, `judge_repetition`, `natural_limit_reached`.
//! The first version below treats every repetition as a draw; the 棋例 issue
//! replaces the body of `judge_repetition` with the AXF / Chinese verdicts.

use crate::position::Position;
use crate::types::Color;

/// Which rule book decides repetitions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum RuleSet {
    /// Asian Xiangqi Federation 棋例 (the default).
    #[default]
    Axf,
    /// Chinese Xiangqi Association rules, 2020 (中国象棋竞赛规则).
    Chinese,
}

/// Outcome of a repeated cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Verdict {
    Draw,
    /// Red made a forbidden perpetual: Red must change, and loses if it doesn't.
    RedLoses,
    BlackLoses,
}

impl Verdict {
    /// The side that must change, if any.
    pub fn offender(self) -> Option<Color> {
        match self {
            Verdict::Draw => None,
            Verdict::RedLoses => Some(Color::Red),
            Verdict::BlackLoses => Some(Color::Black),
        }
    }
}

/// The natural move limit (自然限着).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NaturalLimit {
    /// Full moves (each side one ply) without a capture that make a draw.
    pub moves: u32,
}

impl Default for NaturalLimit {
    fn default() -> Self {
        NaturalLimit { moves: 60 }
    }
}

/// If the current position (same placement and side to move) occurred earlier
/// since the last capture, the ply index in `pos.history()` where the most recent
/// earlier occurrence stood; the cycle is `history()[start..]`.
pub fn find_repetition(pos: &Position) -> Option<usize> {
    let h = pos.history();
    let n = h.len();
    let reach = (pos.plies_since_capture() as usize).min(n);
    let mut d = 4;
    while d <= reach {
        if h[n - d].key == pos.key() {
            return Some(n - d);
        }
        d += 2;
    }
    None
}

/// Verdict of the repetition that the last move completed, if it completed one.
pub fn judge_repetition(pos: &Position, rules: RuleSet) -> Option<Verdict> {
    let _ = rules;
    find_repetition(pos).map(|_| Verdict::Draw)
}

/// Has the natural move limit been reached (a draw unless the side to move is mated)?
pub fn natural_limit_reached(pos: &Position, limit: &NaturalLimit) -> bool {
    pos.plies_since_capture() >= limit.moves * 2
}
