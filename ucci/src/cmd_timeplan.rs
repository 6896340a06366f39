//! `qili timeplan`: what the time manager does with a control over a whole game,
//! on a simulated clock (`engine::timeman::simulate`): time per move by phase of
//! the game, the lowest clock, and whether the game would be lost on time.

use clap::Args;
use engine::timeman::simulate::{final_clock, phases, simulate};
use engine::{GuiLag, TimeControl};
use std::process::ExitCode;

#[derive(Args)]
pub struct TimePlanArgs {
    /// The control, as `qili match --tc` reads it: `1800+0`, `900+10`,
    /// `90m/40 then 30m`, `60m/30 then 10m/10`.
    #[arg(long)]
    tc: TimeControl,
    /// Lag on every move beyond thinking: `5` (ms) or a range `2000-8000`.
    #[arg(long, default_value = "2")]
    lag: GuiLag,
    /// Moves (of one side) to play.
    #[arg(long, default_value_t = 120)]
    moves: u32,
    /// The Move Overhead option (a floor under the measured lag).
    #[arg(long, default_value_t = 2)]
    overhead: u64,
    /// Every Nth search runs to its hard limit (0: none).
    #[arg(long = "hard-every", default_value_t = 10)]
    hard_every: u32,
    /// A time-manager parameter other than its default, `NAME=VALUE` (the
    /// `tm_*` search parameters, as `setoption name SP NAME` sets them), to
    /// check a tuned set for time forfeits; repeatable.
    #[arg(long = "sp", value_parser = parse_sp)]
    sp: Vec<(String, i32)>,
}

fn parse_sp(s: &str) -> Result<(String, i32), String> {
    let (name, value) = s
        .split_once('=')
        .ok_or_else(|| format!("'{s}': expected NAME=VALUE"))?;
    let value = value
        .trim()
        .parse()
        .map_err(|_| format!("'{value}': not an integer"))?;
    engine::params::find(name).ok_or_else(|| format!("no search parameter '{name}'"))?;
    Ok((name.trim().to_string(), value))
}

pub fn run(a: TimePlanArgs) -> ExitCode {
    let mut params = engine::params::DEFAULT;
    for (name, value) in &a.sp {
        if let Err(e) = params.set(name, *value) {
            eprintln!("timeplan: {e}");
            return ExitCode::FAILURE;
        }
    }
    let game = simulate(
        &a.tc,
        a.lag,
        a.overhead,
        a.moves.max(1),
        a.hard_every,
        &params,
    );
    println!(
        "control {}, lag {}, Move Overhead {} ms, {} moves simulated",
        a.tc,
        if a.lag.hi_ms > a.lag.lo_ms {
            format!("{}-{} ms", a.lag.lo_ms, a.lag.hi_ms)
        } else {
            format!("{} ms", a.lag.lo_ms)
        },
        a.overhead,
        a.moves
    );
    println!("| moves | mean soft budget | mean thinking | longest | mean lag | lowest clock |");
    println!("|---|---|---|---|---|---|");
    for r in phases(&game, &[21, 61, 101]) {
        println!(
            "| {}–{} | {} | {} | {} | {} | {} |",
            r.from,
            r.to,
            ms(r.mean_soft_ms),
            ms(r.mean_spent_ms),
            ms(r.max_spent_ms as f64),
            ms(r.mean_lag_ms),
            ms(r.lowest_clock_ms as f64)
        );
    }
    let end = final_clock(&a.tc, &game);
    if game.len() < a.moves as usize || end < 0 {
        println!("lost on time at move {}", game.len());
        return ExitCode::FAILURE;
    }
    println!("clock after move {}: {}", game.len(), ms(end as f64));
    ExitCode::SUCCESS
}

/// Milliseconds as a person reads them.
fn ms(v: f64) -> String {
    if v.abs() >= 60_000.0 {
        format!("{:.1} min", v / 60_000.0)
    } else if v.abs() >= 1000.0 {
        format!("{:.2} s", v / 1000.0)
    } else {
        format!("{v:.0} ms")
    }
}
