//! Time manager: from a clock to a soft budget (don't start another iteration
//! past it) and a hard budget (stop the search at once).
//!
//! CONTRACT (kept stable for search): `TimeControl`, `TimeBudget`, `allocate`,
//! `TimeBudget::soft_scaled`.

/// The clock as the GUI reports it for the side to move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TimeControl {
    /// Our remaining time in milliseconds.
    pub time_ms: u64,
    /// Our increment per move in milliseconds.
    pub inc_ms: u64,
    /// Moves to the next time control, if the control is staged.
    pub moves_to_go: Option<u32>,
    /// The opponent's remaining time and increment, when known.
    pub opp_time_ms: Option<u64>,
    pub opp_inc_ms: Option<u64>,
}

/// How long this move may take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeBudget {
    /// Do not start a new iteration after this many ms (before stability scaling).
    pub soft_ms: u64,
    /// Stop the search after this many ms, whatever it is doing.
    pub hard_ms: u64,
}

/// Budget for one move. `overhead_ms` is the Move Overhead option (GUI and pipe lag);
/// `game_ply` the plies played so far.
pub fn allocate(tc: &TimeControl, overhead_ms: u64, game_ply: u32) -> TimeBudget {
    let _ = game_ply;
    let left = tc.time_ms.saturating_sub(overhead_ms);
    let mtg = tc.moves_to_go.map(|m| m.clamp(1, 50) as u64).unwrap_or(30);
    let soft = left / mtg + tc.inc_ms * 3 / 4;
    let hard = (soft * 4).min(left * 3 / 4);
    let soft = soft.min(hard);
    TimeBudget {
        soft_ms: soft.max(1),
        hard_ms: hard.max(1),
    }
}

impl TimeBudget {
    /// Soft limit scaled by how unstable the best move has been (`instability` >= 0,
    /// about the number of best-move changes in recent iterations) and how much the
    /// score fell (`score_drop_cp` > 0 when worse than the last iteration).
    pub fn soft_scaled(&self, instability: f64, score_drop_cp: i32) -> u64 {
        let f = (1.0 + instability * 0.5) * (1.0 + (score_drop_cp.clamp(0, 100) as f64) / 100.0);
        ((self.soft_ms as f64 * f.min(3.0)) as u64).min(self.hard_ms)
    }
}
