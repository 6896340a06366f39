//! Time manager: from a clock to a soft budget (don't start another iteration
//! past it) and a hard budget (stop the search at once).
//!
//! CONTRACT (kept stable for search): `ClockReading` (in `crate::clock`),
//! `TimeBudget`, `allocate`, `TimeBudget::soft_scaled`, `Lag`, `LagTracker`.
//!
//! The controls it must serve (seed rules): sudden death (包干制, 15–60 minutes a
//! side), Fischer increment (加秒制: 10 min + 10 s, 5 min + 3 s, 3 min + 2 s),
//! staged controls sent as `movestogo` (60 minutes for 30 moves, then 10 minutes
//! per 10 moves), unequal clocks (Red 6 min, Black 4 min + 3 s), games that
//! start with under a second on the clock, and championship games where an
//! operator relays every move by hand (seconds of lag a move, varying).
//!
//! How a move's time is planned:
//! - The *lag* (what the clock loses beyond our own thinking: pipes, the GUI, an
//!   operator) is measured from the clocks the GUI sends (`lag.rs`), with the
//!   `Move Overhead` option as a floor the user can raise.
//! - The *pool* of a move is the clock plus every increment still to come within
//!   the planning horizon, less the expected lag of every move in it (and, where
//!   the increment does not pay the lag, that of some moves after it); the soft
//!   budget is an even share of it. So an increment is spent, not banked, and a
//!   clock never grows over a game while there is increment to spend.
//! - The *hard* limit is a bounded fraction of what is left after the worst lag
//!   seen, so even a search that always runs to its hard limit leaves a geometric
//!   reserve for the moves still to come.
//!
//! All arithmetic on numbers from the GUI saturates: a clock of `u64::MAX` plans
//! sensibly instead of overflowing.

mod lag;
pub mod simulate;
#[cfg(test)]
mod tests;

pub use lag::{Lag, LagTracker};

use crate::clock::ClockReading;
use crate::limits::SearchControl;
use crate::params::SearchParams;
use std::time::Instant;

/// How long this move may take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeBudget {
    /// Do not start a new iteration after this many ms (before stability scaling).
    pub soft_ms: u64,
    /// Stop the search after this many ms, whatever it is doing.
    pub hard_ms: u64,
}

/// Moves beyond the horizon whose lag, where the increment does not pay it, is
/// kept in the bank: in sudden death every move of the game costs its lag, and a
/// game can run far past the horizon. Fewer as the game goes on, so that the
/// bank is spent rather than hoarded in a game that ends.
const LAG_BANK_MAX: u64 = 60;
const LAG_BANK_MIN: u64 = 60;

/// On a busy machine a search can be descheduled for a moment, however small the
/// lag measured so far: this much for each move of the horizon is kept aside, so
/// a clock at 3 s + 50 ms levels out near half a second rather than a tenth.
const HICCUP_MS: u64 = 10;

/// ... but never more than this share of what the horizon holds. A quarter was
/// too much for fast clocks: at 0.75 s + 12.5 ms it set 340 of the 750 ms aside,
/// and against ElephantEye at that clock Qili used under half of its time. A
/// tenth keeps the same reserve from about 3 s + 50 ms up.
const HICCUP_SHARE: u64 = 10;

/// How many moves this budget plans for.
pub fn horizon(tc: &ClockReading, game_ply: u32, p: &SearchParams) -> u64 {
    match tc.moves_to_go {
        Some(n) if n > 0 => u64::from(n).min(100),
        _ => {
            let moves_played = u64::from(game_ply / 2);
            let max = p.tm_max_horizon.max(1) as u64;
            let min = (p.tm_min_horizon.max(1) as u64).min(max);
            max.saturating_sub(moves_played / 3).max(min)
        }
    }
}

/// Budget for one move. `lag` is what every move costs beyond thinking (measured,
/// or the Move Overhead floor); `game_ply` the plies played so far; `p` holds the
/// ratios and horizon (`tm_*`).
pub fn allocate(tc: &ClockReading, lag: &Lag, game_ply: u32, p: &SearchParams) -> TimeBudget {
    let h = horizon(tc, game_ply, p);
    let inc = tc.inc_ms;
    // What this move can use at all without the flag falling when the answer
    // arrives, even with the worst lag seen.
    let safe = tc.time_ms.saturating_sub(lag.worst_ms);
    // Time for the whole horizon: the clock plus the increments still to come,
    // less the expected lag of every move in it. Spread evenly.
    // The unpaid part of the lag of the moves after the horizon is banked.
    let unpaid = lag.expected_ms.saturating_sub(inc);
    let bank_moves = LAG_BANK_MAX
        .saturating_sub(u64::from(game_ply / 8))
        .max(LAG_BANK_MIN);
    let horizon_total = tc.time_ms.saturating_add(inc.saturating_mul(h - 1));
    let hiccups = HICCUP_MS
        .saturating_mul(h)
        .min(horizon_total / HICCUP_SHARE);
    let pool = horizon_total
        .saturating_sub(lag.expected_ms.saturating_mul(h))
        .saturating_sub(unpaid.saturating_mul(bank_moves))
        .saturating_sub(hiccups);
    // When the clock cannot even pay that lag, keep moving at a trickle rather
    // than at zero.
    let mut soft = (pool / h).max(safe / (16 * h));

    // Unequal clocks: with a clear lead we may think a little longer, when behind
    // a little less (the opponent's clock is only a hint).
    if let Some(opp) = tc.opp_time_ms {
        let opp_total = opp.saturating_add(tc.opp_inc_ms.unwrap_or(0).saturating_mul(10));
        let ours_total = tc.time_ms.saturating_add(inc.saturating_mul(10));
        if ours_total / 3 > opp_total / 2 {
            soft = (soft / 10).saturating_mul(11);
        } else if ours_total / 2 < opp_total / 3 {
            soft = (soft / 10).saturating_mul(9);
        }
    }

    // The most one move may take, leaving a reserve for the rest of the horizon.
    // It is reckoned from what lies above the hiccup reserve, and of the increment
    // only what the worst lag leaves: a clock at or below its reserve then gets
    // moves shorter than the increment pays for, and climbs back.
    let above = safe.saturating_sub(hiccups);
    let inc_net = inc.saturating_sub(lag.worst_ms);
    let cap = match tc.moves_to_go {
        // Staged control: n moves until the next time arrives. n = 1 may use
        // three quarters; n = 30 about a tenth.
        Some(n) if n > 0 => {
            let n = u64::from(n).min(100);
            (above / (n + 3))
                .saturating_mul(3)
                .saturating_add(inc_net / 4 * 3)
                .min(safe / 4 * 3)
        }
        // Sudden death and increment: a quarter of what is left (half when the
        // increment refills the clock quickly).
        _ => (above / 4).saturating_add(inc_net / 4 * 3).min(safe / 2),
    };
    let hard = soft
        .saturating_mul(p.tm_hard_ratio.max(1) as u64)
        .min(cap)
        .max(1);
    TimeBudget {
        soft_ms: soft.min(hard).max(1),
        hard_ms: hard,
    }
}

impl TimeBudget {
    /// With pondering on, part of the thinking for our next move happens on the
    /// opponent's time (a ponder hit), so the soft limit may be a quarter longer.
    /// The hard limit, which keeps the flag up, does not move.
    pub fn with_ponder(self) -> TimeBudget {
        TimeBudget {
            soft_ms: self
                .soft_ms
                .saturating_add(self.soft_ms / 4)
                .min(self.hard_ms),
            ..self
        }
    }

    /// Soft limit scaled by how unstable the best move has been (`instability` >= 0,
    /// about the number of best-move changes in recent iterations) and how much the
    /// score fell (`score_drop_cp` > 0 when worse than the last iteration).
    ///
    /// With the default `tm_*` parameters, a best move that has not changed lets
    /// the search stop at about 60 % of the soft limit; a move that keeps changing
    /// or a falling score buys up to three times the soft limit. Never past the
    /// hard limit.
    pub fn soft_scaled(&self, instability: f64, score_drop_cp: i32, p: &SearchParams) -> u64 {
        let instability = if instability.is_finite() {
            instability.clamp(0.0, 4.0)
        } else {
            0.0
        };
        let stability_factor =
            (f64::from(p.tm_stable) + f64::from(p.tm_instability) * instability) / 100.0;
        let trend_factor =
            1.0 + f64::from(score_drop_cp.clamp(-50, 150)) / f64::from(p.tm_drop_div.max(1));
        let f = (stability_factor * trend_factor).clamp(0.4, 3.0);
        ((self.soft_ms as f64 * f) as u64).clamp(1, self.hard_ms.max(1))
    }
}

/// Milliseconds that count against the budget of a search started at `start`:
/// a ponder search's clock starts at `ponderhit`, and while it is still pondering
/// nothing counts (`None`).
pub fn counted_elapsed_ms(start: Instant, control: &SearchControl) -> Option<u64> {
    if control.pondering() {
        return None;
    }
    let from = control.ponderhit_at().unwrap_or(start);
    Some(from.elapsed().as_millis() as u64)
}
