//! `qili bench [depth]`: a fixed-depth, single-thread search of a built-in set of
//! positions from a fresh engine each time. The total node count is deterministic
//! and serves as each commit's signature; the last line is `nodes N nps X`.
//!
//! `qili bench [depth] --compare-threads T [--rounds R]` measures lazy SMP instead:
//! time to depth with one thread and with T threads, alternated R times in one run.

use crate::cli::engine::EngineArgs;
use crate::cli::fail;
use clap::Args;
use engine::bench_positions::BENCH_FENS;
use engine::{Engine, Limits, SearchControl};
use rules::Position;
use std::process::ExitCode;
use std::time::Instant;

#[derive(Args)]
#[command(mut_arg("threads", |a| a.help("Search threads (the node count is only deterministic with one)")))]
pub struct BenchArgs {
    /// Search depth for every position.
    #[arg(default_value_t = engine::bench_positions::DEFAULT_DEPTH)]
    depth: u32,
    #[command(flatten)]
    engine: EngineArgs,
    /// Time to depth: run the whole bench with 1 and with this many threads, alternately.
    #[arg(long)]
    compare_threads: Option<usize>,
    /// Rounds of the comparison (each runs both).
    #[arg(long, default_value_t = 3)]
    rounds: usize,
}

/// What one pass over the bench positions took.
struct Pass {
    nodes: u64,
    wall_ms: f64,
    /// Process CPU time (user + system), where the system tells (Linux).
    cpu_ms: Option<f64>,
}

pub fn run(a: BenchArgs) -> ExitCode {
    let eval = match a.engine.net_hash.eval() {
        Ok(e) => e,
        Err(e) => return fail("bench", e),
    };
    let positions = match positions() {
        Ok(p) => p,
        Err(e) => return fail("bench", e),
    };
    let make = |threads: usize| a.engine.net_hash.engine(threads, eval.as_ref());
    let depth = a.depth.max(1);
    if let Some(t) = a.compare_threads {
        compare(&positions, depth, t.max(2), a.rounds.max(1), make);
        return ExitCode::SUCCESS;
    }
    let pass = run_pass(&mut make(a.engine.threads), &positions, depth, true);
    let nps = if pass.wall_ms > 0.0 {
        pass.nodes as f64 * 1000.0 / pass.wall_ms
    } else {
        0.0
    };
    println!("time {:.0} ms", pass.wall_ms);
    println!("nodes {} nps {nps:.0}", pass.nodes);
    ExitCode::SUCCESS
}

fn positions() -> Result<Vec<Position>, String> {
    BENCH_FENS
        .iter()
        .enumerate()
        .map(|(i, fen)| {
            Position::from_fen(fen).map_err(|e| format!("bench position {} is invalid: {e}", i + 1))
        })
        .collect()
}

fn run_pass(engine: &mut Engine, positions: &[Position], depth: u32, verbose: bool) -> Pass {
    // A node limit never reached keeps the mate prover off: its share of a
    // search is measured in milliseconds, and would make the count depend on
    // the machine's speed and load.
    let limits = Limits {
        depth: Some(depth),
        nodes: Some(u64::MAX),
        ..Limits::default()
    };
    let control = SearchControl::new();
    let mut nodes = 0u64;
    let cpu0 = process_cpu_ms();
    let t0 = Instant::now();
    for (i, pos) in positions.iter().enumerate() {
        engine.new_game();
        let r = engine.search(pos, &limits, &control, &mut |_| {});
        nodes += r.nodes;
        if verbose {
            let best = r.best.map_or("(none)".to_string(), |m| m.iccs());
            eprintln!(
                "position {:2}/{}: bestmove {best} nodes {}",
                i + 1,
                positions.len(),
                r.nodes
            );
        }
    }
    let wall_ms = t0.elapsed().as_secs_f64() * 1000.0;
    let cpu_ms = match (cpu0, process_cpu_ms()) {
        (Some(a), Some(b)) => Some(b - a),
        _ => None,
    };
    Pass {
        nodes,
        wall_ms,
        cpu_ms,
    }
}

/// Alternate 1-thread and `threads`-thread passes; print each round and the medians.
/// Wall time is the real time to depth, but only on a machine with `threads` idle
/// cores. CPU time gives an estimate that holds on a busy machine too: if each
/// thread had a core of its own, the `threads`-thread pass would take its CPU time
/// divided by `threads`.
fn compare(
    positions: &[Position],
    depth: u32,
    threads: usize,
    rounds: usize,
    make: impl Fn(usize) -> Engine,
) {
    let mut rows: Vec<(Pass, Pass)> = Vec::new();
    for round in 1..=rounds {
        let one = run_pass(&mut make(1), positions, depth, false);
        let many = run_pass(&mut make(threads), positions, depth, false);
        println!(
            "round {round}: 1 thread {:.0} ms {} nodes, {threads} threads {:.0} ms {} nodes, load {}",
            one.wall_ms,
            one.nodes,
            many.wall_ms,
            many.nodes,
            load_average().unwrap_or_else(|| "?".into())
        );
        rows.push((one, many));
    }
    let wall =
        median(rows.iter().map(|(o, m)| o.wall_ms / m.wall_ms.max(1e-3))).unwrap_or(f64::NAN);
    let overhead = median(
        rows.iter()
            .map(|(o, m)| m.nodes as f64 / o.nodes.max(1) as f64),
    )
    .unwrap_or(f64::NAN);
    let cpu = median(rows.iter().filter_map(|(o, m)| {
        let (a, b) = (o.cpu_ms?, m.cpu_ms?);
        (b > 0.0).then(|| a / (b / threads as f64))
    }));
    println!(
        "time to depth {depth}, {threads} threads vs 1 (median of {rounds}): wall speedup {wall:.2}x, \
         cpu-time speedup {}, node overhead {overhead:.2}x",
        cpu.map_or("?".to_string(), |c| format!("{c:.2}x"))
    );
}

fn median(values: impl Iterator<Item = f64>) -> Option<f64> {
    let mut v: Vec<f64> = values.filter(|x| x.is_finite()).collect();
    if v.is_empty() {
        return None;
    }
    v.sort_by(|a, b| a.total_cmp(b));
    Some(v[v.len() / 2])
}

/// User + system CPU time of this process in ms (Linux `/proc`, 100 ticks a second).
fn process_cpu_ms() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the command name (which may hold blanks) start at the state.
    let rest = &stat[stat.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    let utime: f64 = f.get(11)?.parse().ok()?;
    let stime: f64 = f.get(12)?.parse().ok()?;
    Some((utime + stime) * 10.0)
}

fn load_average() -> Option<String> {
    let s = std::fs::read_to_string("/proc/loadavg").ok()?;
    s.split_whitespace().next().map(str::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::EngineOptions;

    #[test]
    fn median_of_rounds() {
        assert_eq!(median([3.0, 1.0, 2.0].into_iter()), Some(2.0));
        assert_eq!(median([f64::NAN, 4.0].into_iter()), Some(4.0));
        assert_eq!(median(std::iter::empty()), None);
    }

    #[test]
    fn passes_count_nodes_and_cpu_time() {
        let positions = positions().unwrap();
        let few = &positions[..3];
        let engine = |threads| {
            Engine::new(EngineOptions {
                threads,
                hash_mb: 4,
                ..EngineOptions::default()
            })
        };
        let a = run_pass(&mut engine(1), few, 5, false);
        let b = run_pass(&mut engine(1), few, 5, false);
        assert!(
            a.nodes > 0 && a.nodes == b.nodes,
            "one thread is deterministic"
        );
        let two = run_pass(&mut engine(2), few, 5, false);
        assert!(two.nodes > 0);
        if cfg!(target_os = "linux") {
            assert!(a.cpu_ms.is_some_and(|ms| ms >= 0.0));
        }
    }
}
