//! Time manager: from a clock to a soft budget (don't start another iteration
//! past it) and a hard budget (stop the search at once).
//!
//! CONTRACT (kept stable for search): `TimeControl`, `TimeBudget`, `allocate`,
//! `TimeBudget::soft_scaled`.
//!
//! The controls it must survive (seed rules): sudden death (包干制, 15–60 minutes a
//! side), Fischer increment (加秒制: 10 min + 10 s, 5 min + 3 s, 3 min + 2 s),
//! staged controls sent as `movestogo` (60 minutes for 30 moves, then 10 minutes
//! per 10 moves), unequal clocks (Red 6 min, Black 4 min + 3 s), and games that
//! start with under a second on the clock.
//!
//! Two rules keep it from ever losing on time:
//! - every move is charged `overhead_ms` (pipe and GUI lag) up front, for this move
//!   and for each move of the planning horizon;
//! - the hard limit is a bounded fraction of what is left after this move's
//!   overhead, so even a search that always runs to its hard limit leaves a
//!   geometric reserve for the moves still to come.

use crate::limits::SearchControl;
use std::time::Instant;

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

/// The hard limit is at most this many times the soft limit: room for an
/// unstable iteration to finish, but never the whole clock.
const HARD_OVER_SOFT: u64 = 4;

/// Moves we plan for in sudden death: many early, fewer later, never below
/// `MIN_HORIZON` (xiangqi games between engines often go past move 100 when the
/// natural move limit is long, so the remaining clock shrinks geometrically).
const MAX_HORIZON: u64 = 50;
const MIN_HORIZON: u64 = 30;

/// Moves of Move Overhead kept in the bank beyond the horizon.
const LAG_BANK_MOVES: u64 = 60;

/// How many moves this budget plans for.
pub fn horizon(tc: &TimeControl, game_ply: u32) -> u64 {
    match tc.moves_to_go {
        Some(n) if n > 0 => u64::from(n).min(100),
        _ => {
            let moves_played = u64::from(game_ply / 2);
            MAX_HORIZON
                .saturating_sub(moves_played / 3)
                .max(MIN_HORIZON)
        }
    }
}

/// Budget for one move. `overhead_ms` is the Move Overhead option (GUI and pipe lag);
/// `game_ply` the plies played so far.
pub fn allocate(tc: &TimeControl, overhead_ms: u64, game_ply: u32) -> TimeBudget {
    let h = horizon(tc, game_ply);
    // What this move can use at all without the flag falling when the answer arrives.
    let safe = tc.time_ms.saturating_sub(overhead_ms);
    let inc = tc.inc_ms;

    // Time for the whole horizon: the clock plus the increments still to come,
    // less the lag of every move in it and, for `LAG_BANK_MOVES` more, the part of
    // the lag that the increment does not pay back (in sudden death the last
    // moves are paid in lag alone; with an increment at least the lag, nothing
    // needs banking, and banking it anyway starved fast increment games:
    // 3 s + 50 ms left ~7 ms a move). Spread evenly.
    let unpaid_lag = overhead_ms.saturating_sub(inc);
    let lag_reserve = overhead_ms
        .saturating_mul(h)
        .saturating_add(unpaid_lag.saturating_mul(LAG_BANK_MOVES));
    let pool = (tc.time_ms + inc.saturating_mul(h - 1)).saturating_sub(lag_reserve);
    // When the clock cannot even pay that lag, keep moving at a trickle
    // rather than at zero.
    let mut soft = (pool / h).max(safe / (8 * h));

    // Unequal clocks: with a clear lead we may think a little longer, when
    // behind a little less (the opponent's clock is only a hint).
    if let Some(opp) = tc.opp_time_ms {
        let opp_total = opp + tc.opp_inc_ms.unwrap_or(0) * 10;
        let ours_total = tc.time_ms + inc * 10;
        if ours_total > opp_total.saturating_mul(3) / 2 {
            soft = soft * 11 / 10;
        } else if ours_total.saturating_mul(3) / 2 < opp_total {
            soft = soft * 9 / 10;
        }
    }

    // The most one move may take, leaving a reserve for the rest of the horizon.
    let cap = match tc.moves_to_go {
        // Staged control: n moves until the next time arrives. n = 1 may use
        // three quarters; n = 30 about a tenth.
        Some(n) if n > 0 => {
            let n = u64::from(n).min(100);
            (safe.saturating_mul(3) / (n + 3) + inc * 3 / 4).min(safe * 3 / 4)
        }
        // Sudden death and increment: a quarter of what is left (half when the
        // increment refills the clock quickly).
        _ => (safe / 4 + inc * 3 / 4).min(safe / 2),
    };
    let hard = soft.saturating_mul(HARD_OVER_SOFT).min(cap).max(1);
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
            soft_ms: (self.soft_ms + self.soft_ms / 4).min(self.hard_ms),
            ..self
        }
    }

    /// Soft limit scaled by how unstable the best move has been (`instability` >= 0,
    /// about the number of best-move changes in recent iterations) and how much the
    /// score fell (`score_drop_cp` > 0 when worse than the last iteration).
    ///
    /// A best move that has not changed lets the search stop at about 60 % of the
    /// soft limit; a move that keeps changing or a falling score buys up to three
    /// times the soft limit. Never past the hard limit.
    pub fn soft_scaled(&self, instability: f64, score_drop_cp: i32) -> u64 {
        let instability = if instability.is_finite() {
            instability.clamp(0.0, 4.0)
        } else {
            0.0
        };
        let stability_factor = 0.6 + 0.45 * instability;
        let trend_factor = 1.0 + f64::from(score_drop_cp.clamp(-50, 150)) / 200.0;
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

#[cfg(test)]
mod tests {
    use super::*;

    const MIN: u64 = 60_000;
    const SEC: u64 = 1_000;

    /// One side's clock through a whole game, every move taking `spend(budget)`
    /// of thinking plus `lag` of transport. Staged controls add `stage_time`
    /// every `stage_moves` moves. Returns the lowest clock seen (ms, may be < 0).
    #[allow(clippy::too_many_arguments)]
    fn play_out(
        start_ms: u64,
        inc_ms: u64,
        first_stage: Option<(u32, u64)>,
        next_stage: Option<(u32, u64)>,
        moves: u32,
        overhead: u64,
        lag: u64,
        spend: impl Fn(&TimeBudget) -> u64,
    ) -> i64 {
        let mut clock = start_ms as i64;
        let mut lowest = clock;
        let mut to_go = first_stage.map(|s| s.0);
        for m in 0..moves {
            let tc = TimeControl {
                time_ms: clock.max(0) as u64,
                inc_ms,
                moves_to_go: to_go,
                opp_time_ms: Some(clock.max(0) as u64),
                opp_inc_ms: Some(inc_ms),
            };
            let b = allocate(&tc, overhead, m * 2);
            assert!(b.soft_ms >= 1 && b.soft_ms <= b.hard_ms, "{b:?} for {tc:?}");
            clock -= (spend(&b) + lag) as i64;
            lowest = lowest.min(clock);
            clock += inc_ms as i64;
            if let Some(n) = to_go {
                if n <= 1 {
                    let (moves, add) = next_stage.or(first_stage).unwrap();
                    clock += add as i64;
                    to_go = Some(moves);
                } else {
                    to_go = Some(n - 1);
                }
            }
        }
        lowest
    }

    fn worst(b: &TimeBudget) -> u64 {
        b.hard_ms
    }

    /// A hard game for the clock: the best move keeps changing and the score keeps
    /// falling (1.5 changes, 20 cp a move), and every tenth search is only stopped
    /// by the hard limit.
    fn restless() -> impl Fn(&TimeBudget) -> u64 {
        let n = std::cell::Cell::new(0u32);
        move |b: &TimeBudget| {
            n.set(n.get() + 1);
            if n.get().is_multiple_of(10) {
                b.hard_ms
            } else {
                b.soft_scaled(1.5, 20)
            }
        }
    }

    fn scaled_max(b: &TimeBudget) -> u64 {
        b.soft_scaled(10.0, 500)
    }

    /// Every seed control survives 150–200 moves of a restless search with the GUI lag
    /// at the full Move Overhead, and increment controls survive even when every
    /// search runs to its hard limit.
    #[test]
    fn an_increment_that_pays_the_lag_leaves_time_to_think() {
        // 3 s + 50 ms with 50 ms of Move Overhead: the increment pays each move's
        // lag, so the clock is spread over the horizon instead of being banked.
        let tc = TimeControl {
            time_ms: 3000,
            inc_ms: 50,
            moves_to_go: None,
            opp_time_ms: None,
            opp_inc_ms: None,
        };
        let b = allocate(&tc, 50, 0);
        assert!(b.soft_ms >= 40, "{b:?}");
        // Sudden death with the same clock still banks lag for a long game.
        let sd = allocate(&TimeControl { inc_ms: 0, ..tc }, 50, 0);
        assert!(sd.soft_ms < b.soft_ms, "{sd:?} vs {b:?}");
    }

    #[test]
    fn pondering_lengthens_the_soft_limit_only() {
        for (time_ms, inc_ms) in [(600_000, 0), (300_000, 3000), (2000, 0), (50, 0)] {
            let tc = TimeControl {
                time_ms,
                inc_ms,
                moves_to_go: None,
                opp_time_ms: None,
                opp_inc_ms: None,
            };
            let b = allocate(&tc, 30, 20);
            let p = b.with_ponder();
            assert_eq!(p.hard_ms, b.hard_ms);
            assert!(
                p.soft_ms >= b.soft_ms && p.soft_ms <= p.hard_ms,
                "{b:?} {p:?}"
            );
            if b.soft_ms >= 8 && b.soft_ms * 5 / 4 <= b.hard_ms {
                assert!(p.soft_ms > b.soft_ms, "{b:?} {p:?}");
            }
        }
    }

    #[test]
    fn never_flags_at_hard_limit_for_seed_controls() {
        let controls: [(&str, u64, u64); 8] = [
            ("15 min", 15 * MIN, 0),
            ("30 min", 30 * MIN, 0),
            ("45 min", 45 * MIN, 0),
            ("50 min", 50 * MIN, 0),
            ("10 min + 10 s", 10 * MIN, 10 * SEC),
            ("5 min + 3 s", 5 * MIN, 3 * SEC),
            ("3 min + 2 s", 3 * MIN, 2 * SEC),
            ("Black 4 min + 3 s", 4 * MIN, 3 * SEC),
        ];
        for (name, t, inc) in controls {
            // A 200 ms lag on each of 200 moves is 40 s of pure transport; sudden
            // death cannot bank that much without starving the game, so the
            // slowest pipe is played over 150 moves.
            for (overhead, moves) in [(10, 200), (50, 200), (200, 150)] {
                let low = play_out(t, inc, None, None, moves, overhead, overhead, restless());
                assert!(low > 0, "{name} overhead {overhead}: clock fell to {low}");
                if inc > 0 {
                    let low = play_out(t, inc, None, None, 200, overhead, overhead, worst);
                    assert!(low > 0, "{name} overhead {overhead} at hard: {low}");
                }
            }
        }
        // Red 6 min with 3 s increment (the unequal-clock playoff).
        let low = play_out(6 * MIN, 3 * SEC, None, None, 200, 50, 50, worst);
        assert!(low > 0);
    }

    /// Seed 000: 60 minutes for 30 moves, then 10 minutes per 10 moves; the
    /// reserve must carry each stage to the next even at the hard limit.
    #[test]
    fn staged_control_reaches_every_time_control() {
        for overhead in [10, 50, 200] {
            let low = play_out(
                60 * MIN,
                0,
                Some((30, 60 * MIN)),
                Some((10, 10 * MIN)),
                150,
                overhead,
                overhead,
                worst,
            );
            assert!(low > 0, "overhead {overhead}: {low}");
        }
        // 45 minutes for 30 moves (seed 000, 4.8.2).
        let low = play_out(
            45 * MIN,
            0,
            Some((30, 45 * MIN)),
            Some((10, 10 * MIN)),
            150,
            50,
            50,
            worst,
        );
        assert!(low > 0);
    }

    /// With a normal search (stopping near the soft limit; in the increment game at
    /// its most generous scaling) a game keeps a healthy clock: it does not burn
    /// the time early.
    #[test]
    fn soft_limit_keeps_a_reserve_late_in_the_game() {
        let typical = |b: &TimeBudget| b.soft_scaled(1.0, 10);
        let low = play_out(15 * MIN, 0, None, None, 120, 50, 20, typical);
        assert!(
            low > 15 * SEC as i64,
            "15 min sudden death down to {low} ms by move 120"
        );
        let low = play_out(3 * MIN, 2 * SEC, None, None, 150, 50, 20, scaled_max);
        assert!(low > 2 * SEC as i64, "3+2 down to {low}");
    }

    /// Games that start with under a second: a real engine cannot answer in zero
    /// time, so model a 1 ms search floor plus 1 ms lag, with budgets as computed.
    #[test]
    fn sub_second_clocks_survive() {
        // Increment games survive indefinitely.
        for (t, inc) in [(500, 50), (800, 20), (300, 100), (100, 30)] {
            let low = play_out(t, inc, None, None, 300, 10, 1, |b| scaled_max(b).max(1));
            assert!(low > 0, "{t}+{inc}: {low}");
        }
        // Sudden death with 800 ms: a 100-move game still fits (typical soft use).
        let low = play_out(800, 0, None, None, 100, 10, 1, |b| b.soft_scaled(0.0, 0));
        assert!(low > 0, "800 ms sudden death: {low}");
    }

    #[test]
    fn budgets_never_exceed_the_clock() {
        for time in [0, 1, 5, 10, 49, 50, 51, 100, 999, 1_000, 60_000, 3_600_000] {
            for inc in [0, 10, 2_000, 10_000] {
                for mtg in [
                    None,
                    Some(0),
                    Some(1),
                    Some(2),
                    Some(10),
                    Some(30),
                    Some(500),
                ] {
                    for overhead in [0, 30, 1_000] {
                        let tc = TimeControl {
                            time_ms: time,
                            inc_ms: inc,
                            moves_to_go: mtg,
                            opp_time_ms: None,
                            opp_inc_ms: None,
                        };
                        let b = allocate(&tc, overhead, 40);
                        let safe = time.saturating_sub(overhead);
                        assert!(b.hard_ms <= safe.max(1), "{tc:?} ov {overhead}: {b:?}");
                        assert!(1 <= b.soft_ms && b.soft_ms <= b.hard_ms);
                        // Even at its hard limit a move leaves a quarter of what is
                        // safe; in sudden death without increment, three quarters.
                        if safe > 4 {
                            assert!(b.hard_ms <= safe * 3 / 4, "{tc:?}: {b:?}");
                            if inc == 0 && mtg.unwrap_or(0) == 0 {
                                assert!(b.hard_ms <= safe / 4, "{tc:?}: {b:?}");
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn typical_budgets_are_sensible() {
        let sd = TimeControl {
            time_ms: 30 * MIN,
            ..Default::default()
        };
        let b = allocate(&sd, 50, 0);
        // About 1/50 of the clock at the start: 36 s.
        assert!((30 * SEC..=40 * SEC).contains(&b.soft_ms), "{b:?}");
        assert!(b.hard_ms >= 3 * b.soft_ms, "{b:?}");
        let inc = TimeControl {
            time_ms: 3 * MIN,
            inc_ms: 2 * SEC,
            ..Default::default()
        };
        let b = allocate(&inc, 50, 20);
        // Clock/horizon plus nearly the whole increment.
        assert!((4 * SEC..=7 * SEC).contains(&b.soft_ms), "{b:?}");
        let staged = TimeControl {
            time_ms: 10 * MIN,
            moves_to_go: Some(10),
            ..Default::default()
        };
        let b = allocate(&staged, 50, 60);
        assert!((55 * SEC..=60 * SEC).contains(&b.soft_ms), "{b:?}");
        // A lead on the opponent's clock buys a little time, a deficit costs some.
        let base = TimeControl {
            time_ms: 6 * MIN,
            inc_ms: 3 * SEC,
            ..Default::default()
        };
        let ahead = TimeControl {
            opp_time_ms: Some(2 * MIN),
            opp_inc_ms: Some(3 * SEC),
            ..base
        };
        let behind = TimeControl {
            opp_time_ms: Some(12 * MIN),
            opp_inc_ms: Some(3 * SEC),
            ..base
        };
        let (b0, ba, bb) = (
            allocate(&base, 50, 10),
            allocate(&ahead, 50, 10),
            allocate(&behind, 50, 10),
        );
        assert!(ba.soft_ms > b0.soft_ms && bb.soft_ms < b0.soft_ms);
        // Later in a sudden-death game the horizon shrinks, so a move gets a larger share.
        let late = allocate(
            &TimeControl {
                time_ms: 10 * MIN,
                ..Default::default()
            },
            50,
            120,
        );
        let early = allocate(
            &TimeControl {
                time_ms: 10 * MIN,
                ..Default::default()
            },
            50,
            0,
        );
        assert!(late.soft_ms > early.soft_ms);
    }

    #[test]
    fn soft_scaling_follows_stability_and_trend() {
        let b = TimeBudget {
            soft_ms: 1_000,
            hard_ms: 5_000,
        };
        let stable = b.soft_scaled(0.0, 0);
        let unstable = b.soft_scaled(2.0, 0);
        let falling = b.soft_scaled(0.0, 80);
        let rising = b.soft_scaled(0.0, -80);
        assert!(stable < 1_000 && unstable > 1_000);
        assert!(falling > stable && rising < stable);
        assert_eq!(b.soft_scaled(100.0, 10_000), 3_000);
        assert_eq!(b.soft_scaled(f64::NAN, 0), stable);
        let tight = TimeBudget {
            soft_ms: 1_000,
            hard_ms: 1_200,
        };
        assert_eq!(tight.soft_scaled(4.0, 150), 1_200);
    }

    #[test]
    fn ponder_clock_starts_at_ponderhit() {
        let control = SearchControl::new();
        control.reset(true);
        let start = Instant::now() - std::time::Duration::from_millis(500);
        assert_eq!(counted_elapsed_ms(start, &control), None);
        control.ponderhit();
        assert!(counted_elapsed_ms(start, &control).unwrap() < 400);
        control.reset(false);
        assert!(counted_elapsed_ms(start, &control).unwrap() >= 500);
    }
}
