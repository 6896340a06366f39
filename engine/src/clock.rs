//! Time controls and clocks, one definition for the whole workspace: the control
//! a match is played at (`TimeControl`, parsed from the strings `qili match --tc`
//! and `qili timeplan --tc` take), one side's clock kept under it (`Clock`: the
//! match runner's, and the time manager's simulated games), and what a `go`
//! reports of a clock to the search (`ClockReading`, the time manager's input);
//! and the lag a GUI or an operator adds to every move (`GuiLag`), simulated by
//! both.
//!
//! A time control is a list of stages, each `[MOVES/]TIME[+INC]` or `TIME/MOVES[+INC]`:
//! `1800+0` (sudden death), `600+10` (Fischer increment), `60m/30 then 10m/10`
//! (60 minutes for 30 moves, then 10 minutes for every 10 moves). The last stage
//! repeats if it has a move count. Times are seconds unless they carry a unit
//! (`ms`, `s`, `m`, `h`); in `A/B` the part with a time unit is the time, and with no
//! unit on either the first number is the move count (`40/300` = 40 moves in 300 s).
//! Unequal clocks are one control per side.

use std::fmt;
use std::str::FromStr;

/// One stage: `moves` moves (or the rest of the game) in `base_ms`, plus `inc_ms` per move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stage {
    pub moves: Option<u32>,
    pub base_ms: u64,
    pub inc_ms: u64,
}

/// A control as a tournament writes it: its stages in order; the last one repeats
/// if it has a move count.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TimeControl {
    pub stages: Vec<Stage>,
}

impl TimeControl {
    /// One stage: sudden death (`inc_ms` 0) or Fischer increment.
    pub fn simple(start_ms: u64, inc_ms: u64) -> TimeControl {
        TimeControl {
            stages: vec![Stage {
                moves: None,
                base_ms: start_ms,
                inc_ms,
            }],
        }
    }

    /// The time on the clock at the start.
    pub fn start_ms(&self) -> u64 {
        self.stages.first().map_or(0, |s| s.base_ms)
    }
}

/// The clock as the GUI reports it for the side to move at a `go`: all the search
/// learns of the control (a UCI or UCCI GUI sends readings, never the control).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ClockReading {
    /// Our remaining time in milliseconds.
    pub time_ms: u64,
    /// Our increment per move in milliseconds.
    pub inc_ms: u64,
    /// Moves to the next time control, if the control is staged.
    pub moves_to_go: Option<u32>,
    /// The opponent's remaining time and increment, when known.
    pub opp_time_ms: Option<u64>,
    pub opp_inc_ms: Option<u64>,
    /// The GUI sends whole seconds (UCCI without `usemillisec`): too coarse to
    /// measure the lag from.
    pub whole_seconds: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TcError(pub String);

impl fmt::Display for TcError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "bad time control '{}' (expected e.g. 1800+0, 600+10, 40/300, 60m/30 then 10m/10)",
            self.0
        )
    }
}

impl std::error::Error for TcError {}

/// A duration with an optional unit; `None` if not a number. The bool says a unit was given.
fn parse_time(s: &str) -> Option<(u64, bool)> {
    let s = s.trim();
    let (num, mult, unit) = if let Some(n) = s.strip_suffix("ms") {
        (n, 1.0, true)
    } else if let Some(n) = s.strip_suffix('s') {
        (n, 1000.0, true)
    } else if let Some(n) = s.strip_suffix("min") {
        (n, 60_000.0, true)
    } else if let Some(n) = s.strip_suffix('m') {
        (n, 60_000.0, true)
    } else if let Some(n) = s.strip_suffix('h') {
        (n, 3_600_000.0, true)
    } else {
        (s, 1000.0, false)
    };
    let v: f64 = num.trim().parse().ok()?;
    if !v.is_finite() || !(0.0..=1e9).contains(&v) {
        return None;
    }
    Some(((v * mult).round() as u64, unit))
}

fn parse_moves(s: &str) -> Option<u32> {
    s.trim().parse::<u32>().ok().filter(|&n| n > 0)
}

fn parse_stage(text: &str) -> Option<Stage> {
    let (main, inc) = match text.split_once('+') {
        Some((m, i)) => (m, parse_time(i)?.0),
        None => (text, 0),
    };
    let (moves, base_ms) = match main.split_once('/') {
        None => (None, parse_time(main)?.0),
        Some((a, b)) => {
            let a_unit = parse_time(a).map(|t| t.1).unwrap_or(false);
            if a_unit {
                (Some(parse_moves(b)?), parse_time(a)?.0)
            } else {
                (Some(parse_moves(a)?), parse_time(b)?.0)
            }
        }
    };
    Some(Stage {
        moves,
        base_ms,
        inc_ms: inc,
    })
}

impl FromStr for TimeControl {
    type Err = TcError;
    fn from_str(s: &str) -> Result<TimeControl, TcError> {
        let err = || TcError(s.chars().take(60).collect());
        let normalized = s.replace(" then ", ",").replace(';', ",");
        let mut stages = Vec::new();
        for part in normalized.split(',') {
            let part = part.trim();
            if part.is_empty() {
                return Err(err());
            }
            stages.push(parse_stage(part).ok_or_else(err)?);
        }
        // Only the last stage may be without a move count.
        if stages.is_empty()
            || stages[..stages.len() - 1]
                .iter()
                .any(|st| st.moves.is_none())
        {
            return Err(err());
        }
        if stages.iter().all(|st| st.base_ms == 0 && st.inc_ms == 0) {
            return Err(err());
        }
        Ok(TimeControl { stages })
    }
}

impl fmt::Display for TimeControl {
    /// The PGN `TimeControl` form: `40/7200:3600`, `1800+10` (seconds).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let secs = |ms: u64| {
            if ms.is_multiple_of(1000) {
                format!("{}", ms / 1000)
            } else {
                format!("{}", ms as f64 / 1000.0)
            }
        };
        for (i, st) in self.stages.iter().enumerate() {
            if i > 0 {
                f.write_str(":")?;
            }
            if let Some(m) = st.moves {
                write!(f, "{m}/")?;
            }
            f.write_str(&secs(st.base_ms))?;
            if st.inc_ms > 0 {
                write!(f, "+{}", secs(st.inc_ms))?;
            }
        }
        Ok(())
    }
}

/// One side's clock under a control: kept from wall time by the match runner, and
/// from simulated thinking by `timeman::simulate`.
#[derive(Clone, Debug)]
pub struct Clock {
    tc: TimeControl,
    stage: usize,
    moves_in_stage: u32,
    remaining_ms: i64,
}

impl Clock {
    pub fn new(tc: &TimeControl) -> Clock {
        Clock {
            tc: tc.clone(),
            stage: 0,
            moves_in_stage: 0,
            remaining_ms: tc.stages[0].base_ms as i64,
        }
    }

    fn current(&self) -> &Stage {
        &self.tc.stages[self.stage]
    }

    /// Time left, in ms (never negative in what is reported to engines).
    pub fn remaining_ms(&self) -> u64 {
        self.remaining_ms.max(0) as u64
    }

    pub fn increment_ms(&self) -> u64 {
        self.current().inc_ms
    }

    /// Moves left to the next time control, for staged controls.
    pub fn moves_to_go(&self) -> Option<u32> {
        self.current().moves.map(|m| m - self.moves_in_stage)
    }

    /// What a GUI would send of this clock at a `go` (the opponent's unknown).
    pub fn reading(&self) -> ClockReading {
        ClockReading {
            time_ms: self.remaining_ms(),
            inc_ms: self.increment_ms(),
            moves_to_go: self.moves_to_go(),
            ..ClockReading::default()
        }
    }

    /// Charge a move that took `elapsed_ms`. Returns false if the flag fell
    /// (more than `margin_ms` beyond the time left); the clock then shows 0.
    pub fn charge(&mut self, elapsed_ms: u64, margin_ms: u64) -> bool {
        self.remaining_ms -= elapsed_ms as i64;
        if self.remaining_ms < -(margin_ms as i64) {
            self.remaining_ms = 0;
            return false;
        }
        self.remaining_ms = self.remaining_ms.max(0) + self.current().inc_ms as i64;
        self.moves_in_stage += 1;
        if Some(self.moves_in_stage) == self.current().moves {
            if self.stage + 1 < self.tc.stages.len() {
                self.stage += 1;
            }
            self.moves_in_stage = 0;
            self.remaining_ms += self.current().base_ms as i64;
        }
        true
    }
}

/// A simulated GUI (or operator) lag: every move's clock is charged this on top of
/// the time the engine took, uniform in `lo_ms..=hi_ms`, drawn from `seed` and
/// the ply so that a game replays the same. The match runner charges it
/// (`qili match --lag`), and the time manager's simulated games
/// (`timeman::simulate`, `qili timeplan --lag`) draw the same lags.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GuiLag {
    pub lo_ms: u64,
    pub hi_ms: u64,
    pub seed: u64,
}

impl GuiLag {
    /// The same lag on every move.
    pub const fn fixed(ms: u64) -> GuiLag {
        GuiLag {
            lo_ms: ms,
            hi_ms: ms,
            seed: 0,
        }
    }

    /// The lag of the move at `ply`.
    pub fn at(&self, ply: usize) -> u64 {
        if self.hi_ms <= self.lo_ms {
            return self.lo_ms;
        }
        let z = rules::rng::mix(
            self.seed
                .wrapping_add((ply as u64 + 1).wrapping_mul(rules::rng::GOLDEN)),
        );
        self.lo_ms + z % (self.hi_ms - self.lo_ms + 1)
    }
}

impl FromStr for GuiLag {
    type Err = String;
    /// `30` (a fixed 30 ms) or `2000-8000` (uniform between the two).
    fn from_str(s: &str) -> Result<GuiLag, String> {
        let num = |t: &str| {
            t.trim()
                .parse::<u64>()
                .map_err(|_| format!("lag '{t}' is not a whole number of ms"))
        };
        let (lo, hi) = match s.split_once('-') {
            Some((a, b)) => (num(a)?, num(b)?),
            None => (num(s)?, num(s)?),
        };
        if hi < lo {
            return Err(format!("lag range {lo}-{hi} runs backwards"));
        }
        Ok(GuiLag {
            lo_ms: lo,
            hi_ms: hi,
            seed: 0,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tc(s: &str) -> TimeControl {
        s.parse().unwrap()
    }

    #[test]
    fn parses_the_forms() {
        assert_eq!(
            tc("1800+0").stages,
            vec![Stage {
                moves: None,
                base_ms: 1_800_000,
                inc_ms: 0
            }]
        );
        assert_eq!(tc("600+10").stages[0].inc_ms, 10_000);
        assert_eq!(tc("10+0.1").stages[0].inc_ms, 100);
        assert_eq!(tc("500ms+20ms").stages[0].base_ms, 500);
        let staged = tc("60m/30 then 10m/10");
        assert_eq!(
            staged.stages,
            vec![
                Stage {
                    moves: Some(30),
                    base_ms: 3_600_000,
                    inc_ms: 0
                },
                Stage {
                    moves: Some(10),
                    base_ms: 600_000,
                    inc_ms: 0
                }
            ]
        );
        assert_eq!(tc("40/300").stages[0].moves, Some(40));
        assert_eq!(tc("40/300").stages[0].base_ms, 300_000);
        assert_eq!(tc("40/120, 15m").stages[1].moves, None);
        assert_eq!(staged.to_string(), "30/3600:10/600");
        assert_eq!(tc("1+0.05").to_string(), "1+0.05");
        for bad in [
            "",
            "x",
            "0+0",
            "10m then 5m/10",
            "/",
            "40/",
            "-5+1",
            "1e99",
            "5+",
            "a/b",
        ] {
            assert!(bad.parse::<TimeControl>().is_err(), "{bad}");
        }
    }

    #[test]
    fn clock_increment_and_flag() {
        let mut c = Clock::new(&tc("10+1"));
        assert!(c.charge(4000, 0));
        assert_eq!(c.remaining_ms(), 7000);
        assert!(c.charge(7000, 0));
        assert_eq!(c.remaining_ms(), 1000);
        assert!(c.charge(1050, 100), "within the margin");
        assert!(!c.charge(2000, 100));
        assert_eq!(c.remaining_ms(), 0);
    }

    #[test]
    fn clock_stages_add_time_and_repeat() {
        let mut c = Clock::new(&tc("2/10 then 1/5"));
        assert_eq!(c.moves_to_go(), Some(2));
        assert!(c.charge(3000, 0));
        assert_eq!(c.moves_to_go(), Some(1));
        assert!(c.charge(3000, 0));
        // 4 s left over + 5 s of stage 2.
        assert_eq!(c.remaining_ms(), 9000);
        assert_eq!(c.moves_to_go(), Some(1));
        assert!(c.charge(1000, 0));
        assert_eq!(c.remaining_ms(), 13000, "last stage repeats");
    }

    #[test]
    fn fast_and_unequal_controls() {
        let fast = tc("3+0.05");
        assert_eq!(fast, TimeControl::simple(3000, 50));
        assert_eq!(fast.start_ms(), 3000);
        assert_eq!(fast.to_string(), "3+0.05");
        // Unequal clocks, one control a side: Red 6 min, Black 4 min + 3 s.
        assert_eq!(tc("6m"), TimeControl::simple(360_000, 0));
        assert_eq!(tc("4m+3s"), TimeControl::simple(240_000, 3000));
        assert_eq!(tc("4m+3s").to_string(), "240+3");
    }

    #[test]
    fn readings_follow_the_clock() {
        let mut c = Clock::new(&tc("3+0.05"));
        assert!(c.charge(1000, 0));
        assert_eq!(
            c.reading(),
            ClockReading {
                time_ms: 2050,
                inc_ms: 50,
                moves_to_go: None,
                ..ClockReading::default()
            }
        );
        let mut c = Clock::new(&tc("2/10 then 1/5"));
        assert_eq!(c.reading().moves_to_go, Some(2));
        assert!(c.charge(3000, 0));
        assert!(c.charge(3000, 0));
        let r = c.reading();
        assert_eq!((r.time_ms, r.moves_to_go), (9000, Some(1)));
        assert!(!c.charge(10_000, 0));
        assert_eq!(c.reading().time_ms, 0, "a fallen flag reads 0");
    }
}
