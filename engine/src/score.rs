//! Internal score scale and its bands.
//!
//! Scores are centipawns from the side to move's view, in `i32`, always within
//! `i16` so that the hash table can pack them. From the top down:
//! - `MATE - ply`: a real mate (checkmate or stalemate, both lose in xiangqi);
//! - `RULE_WIN - ply`: the opponent must break a forbidden perpetual (长将/长捉…)
//!   and loses if it cannot. Mate-like, but below every real mate so the two never mix;
//! - `EVAL_LIMIT`: every static evaluation is clamped inside this.

use crate::limits::Score;

pub const INF: i32 = 32_500;
pub const MATE: i32 = 32_000;
pub const MAX_PLY: usize = 120;
/// Real mates lie in `[MATE_BOUND, MATE]` (and their negatives).
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32 - 8;
/// Wins by a forbidden perpetual of the opponent lie in `[RULE_BOUND, RULE_WIN]`.
pub const RULE_WIN: i32 = 30_000;
pub const RULE_BOUND: i32 = RULE_WIN - MAX_PLY as i32 - 8;
/// Static evaluations never leave `[-EVAL_LIMIT, EVAL_LIMIT]`.
pub const EVAL_LIMIT: i32 = 20_000;

#[inline(always)]
pub fn mated_in(ply: usize) -> i32 {
    -MATE + ply as i32
}

#[inline(always)]
pub fn mate_in(ply: usize) -> i32 {
    MATE - ply as i32
}

/// A score of the mate or rule-win bands (depends on the distance from the root).
#[inline(always)]
pub fn is_decisive(v: i32) -> bool {
    v.abs() >= RULE_BOUND
}

#[inline(always)]
pub fn is_mate(v: i32) -> bool {
    v.abs() >= MATE_BOUND
}

/// Root-relative to node-relative for storing (mate distances count from the node).
#[inline(always)]
pub fn to_tt(v: i32, ply: usize) -> i32 {
    if v >= RULE_BOUND {
        v + ply as i32
    } else if v <= -RULE_BOUND {
        v - ply as i32
    } else {
        v
    }
}

#[inline(always)]
pub fn from_tt(v: i32, ply: usize) -> i32 {
    if v >= RULE_BOUND {
        v - ply as i32
    } else if v <= -RULE_BOUND {
        v + ply as i32
    } else {
        v
    }
}

/// The reported form: mate in N full moves, or centipawns (rule wins are reported
/// as large centipawn scores so that a GUI never mistakes them for a mate).
pub fn to_report(v: i32) -> Score {
    if v >= MATE_BOUND {
        Score::Mate((MATE - v + 1) / 2)
    } else if v <= -MATE_BOUND {
        Score::Mate(-((MATE + v) / 2))
    } else {
        Score::Cp(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_reporting() {
        assert_eq!(to_report(mate_in(1)), Score::Mate(1));
        assert_eq!(to_report(mate_in(3)), Score::Mate(2));
        assert_eq!(to_report(mated_in(0)), Score::Mate(0));
        assert_eq!(to_report(mated_in(2)), Score::Mate(-1));
        assert_eq!(to_report(RULE_WIN - 3), Score::Cp(RULE_WIN - 3));
        assert!(!is_mate(RULE_WIN) && is_decisive(RULE_WIN - 5));
    }

    #[test]
    fn tt_round_trip() {
        for v in [
            mate_in(5),
            mated_in(7),
            RULE_WIN - 9,
            -RULE_WIN + 4,
            123,
            -77,
        ] {
            assert_eq!(from_tt(to_tt(v, 6), 6), v);
        }
    }
}
