//! The natural move limit (自然限着): so many moves without a capture is a draw.
//!
//! The rule books differ in how checks count. AXF (seed 000, 6.18.3): when a claim is
//! checked, at most 10 of the claimant's checks count; the Chinese fast-play rules
//! (seed 001, 29.1.1): 50 moves, of which checks count only 8. Computer xiangqi
//! (Pikafish) counts each side's first 10 checks and drops the evasion of every
//! further check as well. A mate on the last move still wins: the caller asks
//! whether the side to move has a legal move before it calls the game drawn.

use super::NaturalLimit;
use crate::position::Position;

/// How checks count toward the natural limit.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum CheckCounting {
    /// Every ply counts (cheap; what search uses by default).
    #[default]
    All,
    /// Each side's checks count only up to this many; a check beyond that, and the
    /// reply to it, do not count.
    AtMost(u32),
}

/// Plies that count toward the limit since the last capture, under `counting`.
/// With `AtMost`, replays the moves since the last capture (needs them in `history()`;
/// plies before the recorded history count in full).
pub fn counted_plies(pos: &Position, counting: CheckCounting) -> u32 {
    let plies = pos.plies_since_capture();
    let n = match counting {
        CheckCounting::All => return plies,
        CheckCounting::AtMost(n) => n,
    };
    let h = pos.history();
    let recorded = (plies as usize).min(h.len());
    let unrecorded = plies - recorded as u32;
    let mut p = super::position_before(pos, recorded);
    let mut checks = [0u32; 2];
    let mut counted = unrecorded;
    let mut skip_reply = false;
    for st in &h[h.len() - recorded..] {
        let side = p.side_to_move();
        p.make_move(st.mv);
        if skip_reply {
            // The evasion of an uncounted check does not count either.
            skip_reply = false;
            if !p.in_check() {
                continue;
            }
        }
        if p.in_check() {
            checks[side.index()] += 1;
            if checks[side.index()] > n {
                skip_reply = true;
                continue;
            }
        }
        counted += 1;
    }
    counted
}

pub(super) fn reached(pos: &Position, limit: &NaturalLimit) -> bool {
    let need = limit.moves.saturating_mul(2);
    // Cheap exit: fewer plies than the limit can never reach it.
    if pos.plies_since_capture() < need {
        return false;
    }
    counted_plies(pos, limit.checks) >= need
}
