//! The time manager's promises, on simulated clocks: never flag at any seed
//! control, spend an increment instead of banking it, learn the lag from the
//! clocks, keep (and then use) a reserve in sudden death, and survive whatever
//! numbers a GUI sends.

use super::simulate::{final_clock, phases, simulate};
use super::*;
use crate::clock::GuiLag;
use crate::clock::{Stage, TimeControl};
use crate::params::DEFAULT;

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
        let tc = ClockReading {
            time_ms: clock.max(0) as u64,
            inc_ms,
            moves_to_go: to_go,
            opp_time_ms: Some(clock.max(0) as u64),
            opp_inc_ms: Some(inc_ms),
            whole_seconds: false,
        };
        let b = allocate(&tc, &Lag::fixed(overhead), m * 2, &DEFAULT);
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
            b.soft_scaled(1.5, 20, &DEFAULT)
        }
    }
}

fn scaled_max(b: &TimeBudget) -> u64 {
    b.soft_scaled(10.0, 500, &DEFAULT)
}

/// Every seed control survives 150–200 moves of a restless search with the GUI lag
/// at the full Move Overhead, and increment controls survive even when every
/// search runs to its hard limit.
#[test]
fn an_increment_that_pays_the_lag_leaves_time_to_think() {
    // 3 s + 50 ms with 50 ms of Move Overhead: the increment pays each move's
    // lag, so the clock is spread over the horizon instead of being banked.
    let tc = ClockReading {
        time_ms: 3000,
        inc_ms: 50,
        moves_to_go: None,
        opp_time_ms: None,
        opp_inc_ms: None,
        whole_seconds: false,
    };
    let b = allocate(&tc, &Lag::fixed(50), 0, &DEFAULT);
    assert!(b.soft_ms >= 40, "{b:?}");
    // Sudden death with the same clock still banks lag for a long game.
    let sd = allocate(
        &ClockReading { inc_ms: 0, ..tc },
        &Lag::fixed(50),
        0,
        &DEFAULT,
    );
    assert!(sd.soft_ms < b.soft_ms, "{sd:?} vs {b:?}");
}

#[test]
fn pondering_lengthens_the_soft_limit_only() {
    for (time_ms, inc_ms) in [(600_000, 0), (300_000, 3000), (2000, 0), (50, 0)] {
        let tc = ClockReading {
            time_ms,
            inc_ms,
            moves_to_go: None,
            opp_time_ms: None,
            opp_inc_ms: None,
            whole_seconds: false,
        };
        let b = allocate(&tc, &Lag::fixed(30), 20, &DEFAULT);
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
    let typical = |b: &TimeBudget| b.soft_scaled(1.0, 10, &DEFAULT);
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
    let low = play_out(800, 0, None, None, 100, 10, 1, |b| {
        b.soft_scaled(0.0, 0, &DEFAULT)
    });
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
                    let tc = ClockReading {
                        time_ms: time,
                        inc_ms: inc,
                        moves_to_go: mtg,
                        opp_time_ms: None,
                        opp_inc_ms: None,
                        whole_seconds: false,
                    };
                    let b = allocate(&tc, &Lag::fixed(overhead), 40, &DEFAULT);
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
    let sd = ClockReading {
        time_ms: 30 * MIN,
        ..Default::default()
    };
    let b = allocate(&sd, &Lag::fixed(50), 0, &DEFAULT);
    // About 1/50 of the clock at the start: 36 s.
    assert!((30 * SEC..=40 * SEC).contains(&b.soft_ms), "{b:?}");
    assert!(b.hard_ms >= 3 * b.soft_ms, "{b:?}");
    let inc = ClockReading {
        time_ms: 3 * MIN,
        inc_ms: 2 * SEC,
        ..Default::default()
    };
    let b = allocate(&inc, &Lag::fixed(50), 20, &DEFAULT);
    // Clock/horizon plus nearly the whole increment.
    assert!((4 * SEC..=7 * SEC).contains(&b.soft_ms), "{b:?}");
    let staged = ClockReading {
        time_ms: 10 * MIN,
        moves_to_go: Some(10),
        ..Default::default()
    };
    let b = allocate(&staged, &Lag::fixed(50), 60, &DEFAULT);
    assert!((55 * SEC..=60 * SEC).contains(&b.soft_ms), "{b:?}");
    // A lead on the opponent's clock buys a little time, a deficit costs some.
    let base = ClockReading {
        time_ms: 6 * MIN,
        inc_ms: 3 * SEC,
        ..Default::default()
    };
    let ahead = ClockReading {
        opp_time_ms: Some(2 * MIN),
        opp_inc_ms: Some(3 * SEC),
        ..base
    };
    let behind = ClockReading {
        opp_time_ms: Some(12 * MIN),
        opp_inc_ms: Some(3 * SEC),
        ..base
    };
    let (b0, ba, bb) = (
        allocate(&base, &Lag::fixed(50), 10, &DEFAULT),
        allocate(&ahead, &Lag::fixed(50), 10, &DEFAULT),
        allocate(&behind, &Lag::fixed(50), 10, &DEFAULT),
    );
    assert!(ba.soft_ms > b0.soft_ms && bb.soft_ms < b0.soft_ms);
    // Later in a sudden-death game the horizon shrinks, so a move gets a larger share.
    let late = allocate(
        &ClockReading {
            time_ms: 10 * MIN,
            ..Default::default()
        },
        &Lag::fixed(50),
        120,
        &DEFAULT,
    );
    let early = allocate(
        &ClockReading {
            time_ms: 10 * MIN,
            ..Default::default()
        },
        &Lag::fixed(50),
        0,
        &DEFAULT,
    );
    assert!(late.soft_ms > early.soft_ms);
}

#[test]
fn soft_scaling_follows_stability_and_trend() {
    let b = TimeBudget {
        soft_ms: 1_000,
        hard_ms: 5_000,
    };
    let stable = b.soft_scaled(0.0, 0, &DEFAULT);
    let unstable = b.soft_scaled(2.0, 0, &DEFAULT);
    let falling = b.soft_scaled(0.0, 80, &DEFAULT);
    let rising = b.soft_scaled(0.0, -80, &DEFAULT);
    assert!(stable < 1_000 && unstable > 1_000);
    assert!(falling > stable && rising < stable);
    assert_eq!(b.soft_scaled(100.0, 10_000, &DEFAULT), 3_000);
    assert_eq!(b.soft_scaled(f64::NAN, 0, &DEFAULT), stable);
    let tight = TimeBudget {
        soft_ms: 1_000,
        hard_ms: 1_200,
    };
    assert_eq!(tight.soft_scaled(4.0, 150, &DEFAULT), 1_200);
}

/// The ratios and horizon are search parameters: each one moves the budget the
/// way its name says.
#[test]
fn the_time_parameters_shape_the_budget() {
    let tc = ClockReading {
        time_ms: 10 * MIN,
        ..Default::default()
    };
    let lag = Lag::fixed(50);
    let with = |name: &str, v: i32| {
        let mut p = DEFAULT;
        p.set(name, v).unwrap();
        p
    };
    let base = allocate(&tc, &lag, 0, &DEFAULT);
    assert_eq!(base.hard_ms, 4 * base.soft_ms, "tm_hard_ratio 4");
    let two = allocate(&tc, &lag, 0, &with("tm_hard_ratio", 2));
    assert_eq!((two.soft_ms, two.hard_ms), (base.soft_ms, 2 * base.soft_ms));
    // A shorter horizon spends more a move; the minimum holds late in the game.
    let short = allocate(&tc, &lag, 0, &with("tm_max_horizon", 40));
    assert!(short.soft_ms > base.soft_ms);
    let late = |p| allocate(&tc, &lag, 300, p).soft_ms;
    assert!(late(&with("tm_min_horizon", 20)) > late(&DEFAULT));
    assert_eq!(
        horizon(&tc, 300, &with("tm_min_horizon", 60)),
        50,
        "min ≤ max"
    );
    // Scaling: the stable share, the price of a change, the weight of a drop.
    let b = TimeBudget {
        soft_ms: 1_000,
        hard_ms: 5_000,
    };
    assert_eq!(b.soft_scaled(0.0, 0, &DEFAULT), 600);
    assert_eq!(b.soft_scaled(0.0, 0, &with("tm_stable", 80)), 800);
    assert_eq!(b.soft_scaled(1.0, 0, &with("tm_instability", 90)), 1_500);
    assert_eq!(b.soft_scaled(0.0, 100, &with("tm_drop_div", 100)), 1_200);
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

fn control(start_ms: u64, inc_ms: u64) -> TimeControl {
    TimeControl::simple(start_ms, inc_ms)
}

/// Fast increment games with the lag measured from the clocks: the increment is
/// spent (the clock never grows over the game), and no move's budget is starved
/// below half of an even share of the clock plus the increment.
#[test]
fn increment_is_spent_and_the_clock_never_grows() {
    for (start, inc) in [(500, 10), (1000, 20), (3000, 50), (750, 12)] {
        let ctl = control(start, inc);
        let game = simulate(&ctl, GuiLag::fixed(2), 0, 150, 10, &DEFAULT);
        assert_eq!(game.len(), 150);
        let highest = game.iter().map(|m| m.clock_ms).max().unwrap();
        // (The first move, before any lag is measured, may bank a few ms.)
        assert!(
            highest <= (start + inc) as i64,
            "{start}+{inc}: clock grew to {highest}"
        );
        assert!(final_clock(&ctl, &game) > 0);
        // What is left is the hiccup reserve (a tenth of the horizon's time at
        // most), not a hoard: with a quarter, 0.75 s + 12 ms ended at 193 ms.
        assert!(
            final_clock(&ctl, &game) < start as i64 / 5,
            "{start}+{inc} hoards"
        );
        for (i, m) in game.iter().enumerate().skip(1) {
            let h = horizon(&ClockReading::default(), 2 * i as u32, &DEFAULT);
            let share = m.clock_ms as u64 / h + inc;
            assert!(
                m.budget.soft_ms * 2 >= share,
                "{start}+{inc} move {i}: {:?} with {} ms on the clock",
                m.budget,
                m.clock_ms
            );
        }
    }
}

/// A GUI that loses a fixed lag on every move: the manager learns it, never
/// flags, and still uses its time (the clock ends low, not hoarded).
#[test]
fn a_measured_lag_is_paid_and_the_time_is_used() {
    for lag in [0, 5, 30, 100] {
        for ctl in [control(10_000, 100), control(60_000, 0)] {
            let game = simulate(&ctl, GuiLag::fixed(lag), 0, 150, 10, &DEFAULT);
            let end = final_clock(&ctl, &game);
            assert_eq!(game.len(), 150, "{ctl:?} lag {lag}: flagged");
            assert!(end > 0, "{ctl:?} lag {lag}: {end}");
            assert!(
                end < ctl.start_ms() as i64 / 8,
                "{ctl:?} lag {lag}: {end} ms left is hoarded"
            );
            // After the first move the plan charges the measured lag.
            let lags: Vec<u64> = game.iter().map(|m| m.lag_ms).collect();
            assert!(lags.iter().all(|&l| l == lag));
        }
    }
}

/// Seed 002: operators relay the moves between boards by hand, seconds a move.
/// Thirty minutes sudden death with 2–8 s of lag a move: no flag in 150 moves,
/// and by move 100 most of the clock has been used for thinking and lag.
#[test]
fn an_operator_relaying_moves_by_hand() {
    let ctl = control(30 * MIN, 0);
    for seed in 1..=5 {
        let lag = GuiLag {
            lo_ms: 2 * SEC,
            hi_ms: 8 * SEC,
            seed,
        };
        let game = simulate(&ctl, lag, 0, 150, 10, &DEFAULT);
        assert_eq!(game.len(), 150, "seed {seed}: flagged");
        assert!(final_clock(&ctl, &game) > 0);
        let at_100 = game[100].clock_ms;
        assert!(
            at_100 < (30 * MIN) as i64 / 4,
            "seed {seed}: {at_100} ms hoarded"
        );
        let thought: u64 = game[..100].iter().map(|m| m.spent_ms).sum();
        assert!(thought > 12 * MIN, "seed {seed}: thought only {thought} ms");
    }
}

/// Whatever numbers a GUI sends, the arithmetic saturates and the budget stays
/// within the clock.
#[test]
fn gui_numbers_never_overflow() {
    let huge = [0, 1, 1000, u64::MAX / 2, u64::MAX];
    for time in huge {
        for inc in huge {
            for opp in [None, Some(0), Some(u64::MAX)] {
                for mtg in [None, Some(1), Some(u32::MAX)] {
                    for lag in [Lag::fixed(0), Lag::fixed(u64::MAX)] {
                        let tc = ClockReading {
                            time_ms: time,
                            inc_ms: inc,
                            moves_to_go: mtg,
                            opp_time_ms: opp,
                            opp_inc_ms: opp,
                            whole_seconds: false,
                        };
                        for ply in [0, u32::MAX] {
                            let b = allocate(&tc, &lag, ply, &DEFAULT);
                            assert!(1 <= b.soft_ms && b.soft_ms <= b.hard_ms);
                            assert!(b.hard_ms <= time.max(1), "{tc:?} {lag:?}: {b:?}");
                            let p = b.with_ponder();
                            assert!(p.soft_ms <= p.hard_ms);
                            let _ = b.soft_scaled(f64::INFINITY, i32::MIN, &DEFAULT);
                            let _ = b.soft_scaled(-1.0, i32::MAX, &DEFAULT);
                        }
                    }
                }
            }
        }
    }
}

/// The long controls of the seed rules: no move over its hard limit, no flag, and
/// in sudden death a reserve kept for the last moves.
#[test]
fn long_controls_keep_every_move_within_its_limits() {
    let staged = TimeControl {
        stages: vec![
            Stage {
                moves: Some(40),
                base_ms: 90 * MIN,
                inc_ms: 0,
            },
            Stage {
                moves: None,
                base_ms: 30 * MIN,
                inc_ms: 0,
            },
        ],
    };
    for ctl in [control(30 * MIN, 0), control(15 * MIN, 10 * SEC), staged] {
        let game = simulate(&ctl, GuiLag::fixed(50), 0, 150, 10, &DEFAULT);
        assert_eq!(game.len(), 150, "{ctl:?}");
        for m in &game {
            assert!(m.spent_ms <= m.budget.hard_ms);
            assert!(
                (m.spent_ms + m.lag_ms) as i64 <= m.clock_ms,
                "{ctl:?}: {m:?}"
            );
        }
        let rows = phases(&game, &[21, 61, 101]);
        assert_eq!(rows.len(), 4);
        // A reserve is kept for the last moves: the clock at move 100 still
        // pays for fifty more moves at the lag.
        assert!(rows[3].lowest_clock_ms > 50 * 50, "{ctl:?}: {rows:?}");
    }
    // In the staged control the second stage's 30 minutes arrive at move 41 and
    // are spent as sudden death.
    let game = simulate(&staged_control(), GuiLag::fixed(50), 0, 120, 0, &DEFAULT);
    assert!(game[40].clock_ms > game[39].clock_ms);
}

fn staged_control() -> TimeControl {
    TimeControl {
        stages: vec![
            Stage {
                moves: Some(40),
                base_ms: 90 * MIN,
                inc_ms: 0,
            },
            Stage {
                moves: None,
                base_ms: 30 * MIN,
                inc_ms: 0,
            },
        ],
    }
}
