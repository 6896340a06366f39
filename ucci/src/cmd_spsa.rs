//! `qili spsa`: tune search parameters (`engine::params`) by SPSA self-play.
//! Every iteration plays game pairs between the engine with θ + c·δ and with
//! θ − c·δ (`setoption name SP <name> value <v>`) through the match runner, then
//! moves θ along δ by the result (`bench::spsa`). Each iteration's θ goes to the
//! log, and the end prints the values to put into `params::DEFAULT`.

use crate::cli::fail;
use crate::cli::runner::RunnerArgs;
use bench::spsa::{self, Spsa};
use bench::{EngineConfig, MatchConfig};
use clap::Args;
use engine::params::{self, Tunable};
use engine::TimeControl;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Args)]
pub struct SpsaArgs {
    /// The engine to tune (it must accept `setoption name SP <name> value <v>`).
    #[arg(long)]
    engine: String,
    /// Parameters to tune, by name, comma-separated (default: every parameter of
    /// a mechanism that is on).
    #[arg(long, value_delimiter = ',')]
    params: Vec<String>,
    /// Iterations planned.
    #[arg(long, default_value_t = 500)]
    iterations: u32,
    /// Game pairs per iteration (played at the same time with --concurrency, from the
    /// openings in turn).
    #[arg(long, default_value_t = 1)]
    pairs: u32,
    /// Time control (`qili match --tc` syntax), or fixed --nodes.
    #[arg(long)]
    tc: Option<String>,
    #[command(flatten)]
    runner: RunnerArgs,
    /// SPSA learning rate at the end (`r_end`).
    #[arg(long, default_value_t = 0.002)]
    r_end: f64,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Append one line per iteration (k, result, θ) here, after a header that
    /// names the run's settings.
    #[arg(long)]
    log: Option<PathBuf>,
    /// Continue the run whose --log this is (the same command plus --resume): its
    /// last whole line gives the iteration and θ to go on from; a line cut by a
    /// kill is dropped; a log of other settings is refused.
    #[arg(long, requires = "log")]
    resume: bool,
}

/// The parameters to tune: those named, or every one whose mechanism is on
/// (the switch values that turn a mechanism off are left alone), less the time
/// manager's (`tm_*`) when the games are played at fixed nodes (`timed` false),
/// where they change nothing.
fn chosen(names: &[String], timed: bool) -> Result<Vec<&'static Tunable>, String> {
    if names.is_empty() {
        let off = |t: &Tunable| {
            let v = (t.get)(&params::DEFAULT);
            v == t.max && t.max == 99
        };
        let mut v: Vec<&Tunable> = params::TUNABLES.iter().filter(|t| !off(t)).collect();
        // Mechanisms switched off leave their other knobs idle too.
        let p = params::DEFAULT;
        if p.se_depth == 99 {
            v.retain(|t| !t.name.starts_with("se_"));
        }
        if !timed {
            v.retain(|t| !t.name.starts_with("tm_"));
        }
        return Ok(v);
    }
    names
        .iter()
        .map(|n| params::find(n).ok_or_else(|| format!("no search parameter '{n}'")))
        .collect()
}

fn engine_with(
    cmd: &str,
    name: &str,
    tunables: &[&Tunable],
    values: &[f64],
) -> Result<EngineConfig, String> {
    let mut e = EngineConfig::new(cmd)?;
    e.name = Some(name.to_string());
    for (t, v) in tunables.iter().zip(values) {
        e.options
            .push((format!("SP {}", t.name), format!("{}", v.round() as i64)));
    }
    Ok(e)
}

/// The log's first two lines: the settings that decide the run's course (a resume
/// must match them: the starting values come from the build's `DEFAULT`), then
/// the column names.
fn log_header(a: &SpsaArgs, tunables: &[&Tunable], start: &[f64]) -> String {
    let limit = match (&a.tc, a.runner.nodes) {
        (Some(tc), _) => format!("tc={tc}"),
        (None, Some(n)) => format!("nodes={n}"),
        (None, None) => String::new(),
    };
    let openings = a
        .runner
        .openings
        .as_deref()
        .map_or("startpos".to_string(), |p| p.display().to_string());
    let params: Vec<String> = tunables
        .iter()
        .zip(start)
        .map(|(t, v)| format!("{}:{v}", t.name))
        .collect();
    let names: Vec<&str> = tunables.iter().map(|t| t.name).collect();
    format!(
        "# qili spsa iterations={} pairs={} seed={} r_end={} {limit} openings={openings} start={}\n# k result {}\n",
        a.iterations,
        a.pairs.max(1),
        a.seed,
        a.r_end,
        params.join(","),
        names.join(" ")
    )
}

/// The run's log, and the sum of the results it already holds: a new log gets the
/// header; `--resume` reads where the run stopped, trims a cut last line and moves
/// `spsa` to that iteration.
fn open_log(
    a: &SpsaArgs,
    header: &str,
    spsa: &mut Spsa,
) -> Result<(Option<std::fs::File>, f64), String> {
    let mut total = 0.0;
    let log = match (&a.log, a.resume) {
        (Some(path), true) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| format!("--resume: {}: {e}", path.display()))?;
            let state = spsa::read_log(&text, header, spsa.theta.len())
                .map_err(|e| format!("--resume: {}: {e}", path.display()))?;
            if state.k > 0 {
                spsa.fast_forward(state.k, &state.theta)?;
            }
            total = state.total;
            let f = std::fs::OpenOptions::new()
                .write(true)
                .open(path)
                .map_err(|e| format!("{}: {e}", path.display()))?;
            f.set_len(state.whole_len as u64)
                .map_err(|e| format!("{}: {e}", path.display()))?;
            eprintln!(
                "spsa: resuming after iteration {} of {}",
                state.k, a.iterations
            );
            Some(bench::open_append(path)?)
        }
        (Some(path), false) => {
            if std::fs::metadata(path).is_ok_and(|m| m.len() > 0) {
                return Err(format!(
                    "{} already holds a run: --resume to continue it, or another --log",
                    path.display()
                ));
            }
            let mut f = bench::open_append(path)?;
            f.write_all(header.as_bytes())
                .map_err(|e| format!("{}: {e}", path.display()))?;
            Some(f)
        }
        (None, _) => None,
    };
    Ok((log, total))
}

pub fn run(a: SpsaArgs) -> ExitCode {
    match tune(&a) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => fail("spsa", e),
    }
}

fn tune(a: &SpsaArgs) -> Result<(), String> {
    let tunables = chosen(&a.params, a.tc.is_some())?;
    if tunables.is_empty() {
        return Err("no parameters to tune".into());
    }
    let tc =
        a.tc.as_deref()
            .map(|t| t.parse::<TimeControl>().map_err(|e| e.to_string()))
            .transpose()?;
    if tc.is_none() && a.runner.nodes.is_none() {
        return Err("give --tc or --nodes".into());
    }
    let openings = a.runner.openings()?;
    let mut spsa = Spsa::new(
        tunables
            .iter()
            .map(|t| f64::from((t.get)(&params::DEFAULT)))
            .collect(),
        tunables.iter().map(|t| f64::from(t.min)).collect(),
        tunables.iter().map(|t| f64::from(t.max)).collect(),
        tunables.iter().map(|t| t.step).collect(),
        a.r_end,
        a.iterations,
        a.seed,
    );
    let names: Vec<&str> = tunables.iter().map(|t| t.name).collect();
    let header = log_header(a, &tunables, &spsa.theta);
    let (mut log, mut total) = open_log(a, &header, &mut spsa)?;
    let pairs = a.pairs.max(1);
    let mut next_opening = spsa.k as usize * pairs as usize;
    for k in spsa.k + 1..=a.iterations {
        let p = spsa.perturb();
        let plus = engine_with(&a.engine, "plus", &tunables, &p.plus)?;
        let minus = engine_with(&a.engine, "minus", &tunables, &p.minus)?;
        let mut cfg = MatchConfig::new([plus, minus]);
        cfg.games = 2 * pairs;
        cfg.concurrency = a.runner.concurrency.max(1);
        cfg.openings = (0..pairs as usize)
            .map(|i| openings[(next_opening + i) % openings.len()].clone())
            .collect();
        next_opening += pairs as usize;
        cfg.game.tc = [tc.clone(), tc.clone()];
        cfg.game.fixed.nodes = a.runner.nodes;
        cfg.progress = false;
        cfg.game_lines = false;
        let summary = bench::run_match(&cfg, &mut std::io::sink())?;
        if let Some(f) = &summary.fatal {
            return Err(format!("iteration {k}: {f}"));
        }
        let t = &summary.tally;
        let result = f64::from(t.wins) - f64::from(t.losses);
        total += result;
        spsa.update(&p, result);
        let theta: Vec<String> = spsa.theta.iter().map(|v| format!("{v:.2}")).collect();
        if let Some(f) = log.as_mut() {
            let _ = f.write_all(spsa::log_line(k, result, &spsa.theta).as_bytes());
        }
        if k % 10 == 0 || k == a.iterations {
            eprintln!(
                "spsa: {k}/{} iterations, plus−minus {total:+}, θ = {}",
                a.iterations,
                names
                    .iter()
                    .zip(&theta)
                    .map(|(n, v)| format!("{n} {v}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            );
        }
    }
    println!("tuned values (round into engine/src/params.rs DEFAULT):");
    for (t, v) in tunables.iter().zip(&spsa.theta) {
        println!(
            "    {}: {},  // was {}",
            t.name,
            v.round() as i64,
            (t.get)(&params::DEFAULT)
        );
    }
    Ok(())
}
