//! Whole games on a simulated clock: what the time manager plans move by move for
//! a control, a lag and a model of how long searches run. The tests use it to
//! hold the manager to its promises (no flag, no starving, no hoarding), and
//! `qili timeplan` prints its tables (docs/ARCHITECTURE.md, *Time*).
//!
//! The search model: a search stops at its soft limit scaled by the stability of
//! its best move, which follows a fixed, varied pattern (mostly stable, sometimes
//! changing, with a falling score now and then), and every `hard_every`-th search
//! runs to its hard limit.

use super::{allocate, LagTracker, TimeBudget};
use crate::clock::{Clock, GuiLag, TimeControl};
use crate::params::SearchParams;

/// One simulated move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SimMove {
    /// Our clock when `go` was sent.
    pub clock_ms: i64,
    pub budget: TimeBudget,
    /// Thinking time the model spent.
    pub spent_ms: u64,
    /// Lag charged on top.
    pub lag_ms: u64,
}

/// The stability pattern of the search model: (instability, score drop) per move.
const PATTERN: [(f64, i32); 10] = [
    (0.0, 0),
    (0.0, -10),
    (1.0, 20),
    (0.0, 5),
    (0.5, 0),
    (2.0, 60),
    (0.0, 0),
    (0.0, 10),
    (1.0, -20),
    (0.0, 0),
];

/// Play `moves` of our moves at `control` (the opponent's time is not simulated) with the
/// Move Overhead floor `overhead_ms` and the time manager's parameters `p`
/// (`tm_*`); stops early if the clock runs out (the last move then has a
/// negative clock after it).
pub fn simulate(
    control: &TimeControl,
    lag: GuiLag,
    overhead_ms: u64,
    moves: u32,
    hard_every: u32,
    p: &SearchParams,
) -> Vec<SimMove> {
    if control.stages.is_empty() {
        return Vec::new();
    }
    // The clock the match runner keeps, charged with the simulated time.
    let mut clock = Clock::new(control);
    let mut tracker = LagTracker::new();
    let mut out = Vec::new();
    for m in 0..moves {
        let ply = 2 * m;
        let tc = clock.reading();
        tracker.before_search(&tc, ply);
        let budget = allocate(&tc, &tracker.lag(overhead_ms), ply, p);
        let (instability, drop) = PATTERN[m as usize % PATTERN.len()];
        let spent = if hard_every > 0 && (m + 1) % hard_every == 0 {
            budget.hard_ms
        } else {
            budget.soft_scaled(instability, drop, p)
        };
        tracker.after_search(&tc, ply, spent);
        let lag_ms = lag.at(ply as usize);
        out.push(SimMove {
            clock_ms: clock.remaining_ms() as i64,
            budget,
            spent_ms: spent,
            lag_ms,
        });
        // No margin: a clock below zero has flagged.
        if !clock.charge(spent + lag_ms, 0) {
            break;
        }
    }
    out
}

/// The clock after the last simulated move (negative: flagged).
pub fn final_clock(control: &TimeControl, game: &[SimMove]) -> i64 {
    game.last().map_or(control.start_ms() as i64, |m| {
        m.clock_ms - (m.spent_ms + m.lag_ms) as i64
    })
}

/// Time spent per move by phase of the game (moves `from..to`, 1-based): mean
/// soft budget, mean thinking, mean lag and the share of the control's total
/// time that the phase used.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PhaseRow {
    pub from: u32,
    pub to: u32,
    pub mean_soft_ms: f64,
    pub mean_spent_ms: f64,
    pub max_spent_ms: u64,
    pub mean_lag_ms: f64,
    pub lowest_clock_ms: i64,
}

/// Summarise a simulated game by phases (`bounds`: the first move of each
/// phase after the first, e.g. `[21, 61]` for opening, middlegame, endgame).
pub fn phases(game: &[SimMove], bounds: &[u32]) -> Vec<PhaseRow> {
    let mut edges = vec![1u32];
    edges.extend_from_slice(bounds);
    edges.push(game.len() as u32 + 1);
    edges
        .windows(2)
        .filter(|w| w[0] < w[1] && (w[0] as usize) <= game.len())
        .map(|w| {
            let part = &game[w[0] as usize - 1..(w[1] as usize - 1).min(game.len())];
            let n = part.len().max(1) as f64;
            PhaseRow {
                from: w[0],
                to: w[1] - 1,
                mean_soft_ms: part.iter().map(|m| m.budget.soft_ms as f64).sum::<f64>() / n,
                mean_spent_ms: part.iter().map(|m| m.spent_ms as f64).sum::<f64>() / n,
                max_spent_ms: part.iter().map(|m| m.spent_ms).max().unwrap_or(0),
                mean_lag_ms: part.iter().map(|m| m.lag_ms as f64).sum::<f64>() / n,
                lowest_clock_ms: part.iter().map(|m| m.clock_ms).min().unwrap_or(0),
            }
        })
        .collect()
}
