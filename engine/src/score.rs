//! Internal score scale and its bands.
//!
//! Scores are centipawns from the side to move's view, in `i32`, always within
//! `i16` so that the hash table can pack them. From the top down:
//! - `MATE - ply`: a win at `ply`: checkmate or stalemate (困毙), both lose in
//!   xiangqi, or a forbidden perpetual (长将/长捉…) the opponent completes there and
//!   loses by rule. A loss by rule ranks exactly like being mated at that ply, so
//!   when every move loses the search picks the loss that comes latest; GUIs are
//!   told `mate -N` for it, N counting to the rule loss;
//! - `RULE_BOUND`: every score beyond it is decisive (search does not prune or
//!   store such scores as if they were evaluations);
//! - `EVAL_LIMIT`: every static evaluation is clamped inside this.

use crate::limits::Score;

pub const INF: i32 = 32_500;
pub const MATE: i32 = 32_000;
pub const MAX_PLY: usize = 120;
/// Real mates lie in `[MATE_BOUND, MATE]` (and their negatives).
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32 - 8;
/// Scores beyond this are decisive (mates, rule results); evaluations stay far
/// below it.
pub const RULE_BOUND: i32 = 30_000 - MAX_PLY as i32 - 8;
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
        // Mated at an even ply (the opponent's move); a loss by rule can come at
        // an odd one (our own move completes the cycle): mate −1 after one move.
        Score::Mate(-((MATE + v + 1) / 2))
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
        assert_eq!(
            to_report(mated_in(1)),
            Score::Mate(-1),
            "a rule loss by our move"
        );
        assert_eq!(to_report(mated_in(4)), Score::Mate(-2));
        assert!(is_decisive(mated_in(5)) && !is_decisive(EVAL_LIMIT));
        assert!(!is_mate(RULE_BOUND) && is_decisive(RULE_BOUND));
    }

    #[test]
    fn tt_round_trip() {
        for v in [
            mate_in(5),
            mated_in(7),
            RULE_BOUND + 9,
            -RULE_BOUND - 4,
            123,
            -77,
        ] {
            assert_eq!(from_tt(to_tt(v, 6), 6), v);
        }
    }
}
