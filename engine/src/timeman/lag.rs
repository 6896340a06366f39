//! Measuring the lag instead of asking for it.
//!
//! Between two of our moves the GUI's clock for us falls by our thinking time
//! plus whatever else the move cost: the pipes, the GUI's own work, or in a
//! championship the operator who carries the move between boards by hand. The
//! engine knows its own thinking time, so the clocks it is sent tell it the
//! rest: `lag = clock before − thinking + increment − clock now`. A GUI that adds
//! the increment before the move (rare) only makes the measured lag smaller by
//! the increment, which the `Move Overhead` floor then covers.
//!
//! Per game the tracker keeps the recent observations; the *expected* lag (their
//! mean) is what every move of the planning horizon is charged, and the *worst*
//! lag (a high quantile, plus a little) is what the hard limit keeps in hand for
//! this move. The user's `Move Overhead` is a floor under both.

use crate::clock::ClockReading;
use std::collections::VecDeque;

/// What a move costs beyond our own thinking, in milliseconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Lag {
    /// Charged for every move of the planning horizon.
    pub expected_ms: u64,
    /// Kept in hand by the hard limit of this move.
    pub worst_ms: u64,
}

impl Lag {
    /// A lag known in advance (tests, and the first move of a game).
    pub fn fixed(ms: u64) -> Lag {
        Lag {
            expected_ms: ms,
            worst_ms: ms,
        }
    }
}

/// Before the first observation of a game: what a local GUI costs at most on a
/// busy machine.
pub const FIRST_MOVE_LAG_MS: u64 = 10;
/// Observations kept (the most recent ones).
const KEPT: usize = 32;
/// Added to the worst lag for the jitter of one measurement (timer granularity).
const JITTER_MS: u64 = 2;
/// A single observation is believed up to this (a GUI that paused for a minute
/// is not a lag to plan every move with).
const MAX_OBSERVED_MS: u64 = 60_000;

/// One of our moves that counted on the clock.
#[derive(Clone, Copy, Debug)]
struct Played {
    game_ply: u32,
    clock: ClockReading,
    thought_ms: u64,
}

/// The lag of one game, learnt from its clocks.
#[derive(Clone, Debug, Default)]
pub struct LagTracker {
    last: Option<Played>,
    observed: VecDeque<u64>,
}

impl LagTracker {
    pub fn new() -> LagTracker {
        LagTracker::default()
    }

    /// Forget the game (a new game, or a clock that does not follow on).
    pub fn clear(&mut self) {
        self.last = None;
        self.observed.clear();
    }

    /// A search is about to start at `game_ply` with `clock`: if our previous
    /// move was two plies ago in the same game, learn its lag.
    pub fn before_search(&mut self, clock: &ClockReading, game_ply: u32) {
        let Some(prev) = self.last.take() else {
            return;
        };
        if game_ply != prev.game_ply.saturating_add(2) || clock.whole_seconds {
            return;
        }
        // A staged control that just added time cannot be read (the new stage's
        // time is mixed in).
        if prev.clock.moves_to_go.is_some_and(|n| n <= 1) {
            return;
        }
        let expected = prev
            .clock
            .time_ms
            .saturating_sub(prev.thought_ms)
            .saturating_add(prev.clock.inc_ms);
        let lag = expected.saturating_sub(clock.time_ms).min(MAX_OBSERVED_MS);
        if self.observed.len() == KEPT {
            self.observed.pop_front();
        }
        self.observed.push_back(lag);
    }

    /// A search that counted on the clock ended after `thought_ms` (from `go`, or
    /// from `ponderhit`, to the answer).
    pub fn after_search(&mut self, clock: &ClockReading, game_ply: u32, thought_ms: u64) {
        self.last = Some(Played {
            game_ply,
            clock: *clock,
            thought_ms,
        });
    }

    /// A search whose answer did not count (stopped while pondering, infinite):
    /// the next clock cannot be read against it.
    pub fn forget_last(&mut self) {
        self.last = None;
    }

    /// The lag to plan with, never below `floor_ms` (the Move Overhead option).
    pub fn lag(&self, floor_ms: u64) -> Lag {
        if self.observed.is_empty() {
            return Lag::fixed(floor_ms.max(FIRST_MOVE_LAG_MS));
        }
        let n = self.observed.len() as u64;
        let mean = self.observed.iter().sum::<u64>().div_ceil(n);
        let mut sorted: Vec<u64> = self.observed.iter().copied().collect();
        sorted.sort_unstable();
        // The 90th percentile (the largest with fewer than ten observations).
        let q90 = sorted[(sorted.len() * 9 / 10).min(sorted.len() - 1)];
        Lag {
            expected_ms: mean.max(floor_ms),
            worst_ms: q90.saturating_add(JITTER_MS).max(mean).max(floor_ms),
        }
    }

    /// Observations so far (for reports and tests).
    pub fn observations(&self) -> usize {
        self.observed.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tc(time_ms: u64, inc_ms: u64) -> ClockReading {
        ClockReading {
            time_ms,
            inc_ms,
            ..ClockReading::default()
        }
    }

    #[test]
    fn the_lag_is_read_from_consecutive_clocks() {
        let mut t = LagTracker::new();
        assert_eq!(t.lag(0), Lag::fixed(FIRST_MOVE_LAG_MS));
        assert_eq!(t.lag(50), Lag::fixed(50));
        // 10 s + 100 ms: we think 400 ms, the GUI loses 30 ms more each move.
        let mut clock = 10_000u64;
        for ply in (0..40).step_by(2) {
            t.before_search(&tc(clock, 100), ply);
            t.after_search(&tc(clock, 100), ply, 400);
            clock = clock - 400 - 30 + 100;
        }
        assert_eq!(t.observations(), 19);
        let lag = t.lag(0);
        assert_eq!(lag.expected_ms, 30);
        assert_eq!(lag.worst_ms, 30 + JITTER_MS);
        // The floor still rules when the measured lag is below it.
        assert_eq!(t.lag(100), Lag::fixed(100));
    }

    #[test]
    fn a_varying_operator_delay_gives_its_mean_and_a_high_quantile() {
        let mut t = LagTracker::new();
        let mut clock = 1_800_000u64;
        for (i, delay) in [
            2000u64, 8000, 3000, 5000, 7000, 2500, 6000, 4000, 3500, 7500,
        ]
        .iter()
        .cycle()
        .take(30)
        .enumerate()
        {
            let ply = 2 * i as u32;
            t.before_search(&tc(clock, 0), ply);
            t.after_search(&tc(clock, 0), ply, 10_000);
            clock -= 10_000 + delay;
        }
        let lag = t.lag(0);
        assert!((4500..=5000).contains(&lag.expected_ms), "{lag:?}");
        assert!(lag.worst_ms >= 7500, "{lag:?}");
    }

    #[test]
    fn clocks_that_do_not_follow_on_teach_nothing() {
        let mut t = LagTracker::new();
        t.after_search(&tc(5000, 0), 10, 100);
        // Not two plies later (a new game, a takeback).
        t.before_search(&tc(4000, 0), 20);
        assert_eq!(t.observations(), 0);
        // Whole seconds.
        t.after_search(&tc(5000, 0), 10, 100);
        t.before_search(
            &ClockReading {
                whole_seconds: true,
                ..tc(4000, 0)
            },
            12,
        );
        assert_eq!(t.observations(), 0);
        // A staged control that refilled the clock.
        t.after_search(
            &ClockReading {
                moves_to_go: Some(1),
                ..tc(5000, 0)
            },
            10,
            100,
        );
        t.before_search(&tc(600_000, 0), 12);
        assert_eq!(t.observations(), 0);
        // A stopped ponder search.
        t.after_search(&tc(5000, 0), 10, 100);
        t.forget_last();
        t.before_search(&tc(4800, 0), 12);
        assert_eq!(t.observations(), 0);
        // A clock that gained (GUI rounding) is no negative lag; a huge one is capped.
        t.after_search(&tc(5000, 0), 10, 100);
        t.before_search(&tc(5500, 0), 12);
        t.after_search(&tc(u64::MAX, u64::MAX), 12, 100);
        t.before_search(&tc(0, 0), 14);
        let lag = t.lag(0);
        assert_eq!(t.observations(), 2);
        assert!(lag.expected_ms <= MAX_OBSERVED_MS / 2 + 1, "{lag:?}");
    }
}
