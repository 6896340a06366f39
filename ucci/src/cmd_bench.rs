//! `qili bench [depth]`: a fixed-depth, single-thread search of a built-in set of
//! positions from a fresh engine each time. The total node count is deterministic
//! and serves as each commit's signature; the last line is `nodes N nps X`.

use clap::Args;
use engine::bench_positions::BENCH_FENS;
use engine::{Engine, EngineOptions, Limits, SearchControl};
use rules::Position;
use std::process::ExitCode;
use std::time::Instant;

#[derive(Args)]
pub struct BenchArgs {
    /// Search depth for every position.
    #[arg(default_value_t = engine::bench_positions::DEFAULT_DEPTH)]
    depth: u32,
    /// Hash table size in MiB.
    #[arg(long, default_value_t = 16)]
    hash: usize,
    /// Search threads (the node count is only deterministic with one).
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Evaluation: a net file, `<hce>` (handcrafted) or `<embedded>` (the compiled-in net, the default).
    #[arg(long)]
    net: Option<std::path::PathBuf>,
}

pub fn run(a: BenchArgs) -> ExitCode {
    let mut engine = Engine::new(EngineOptions {
        threads: a.threads.max(1),
        hash_mb: a.hash.max(1),
        ..EngineOptions::default()
    });
    if let Some(path) = &a.net {
        match engine::eval::EvalChoice::from_name(&path.to_string_lossy()) {
            Ok(choice) => engine.set_eval(choice),
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::FAILURE;
            }
        }
    }
    let limits = Limits {
        depth: Some(a.depth.max(1)),
        ..Limits::default()
    };
    let control = SearchControl::new();
    let mut total = 0u64;
    let t0 = Instant::now();
    for (i, fen) in BENCH_FENS.iter().enumerate() {
        let pos = match Position::from_fen(fen) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("error: bench position {} is invalid: {e}", i + 1);
                return ExitCode::FAILURE;
            }
        };
        engine.new_game();
        let r = engine.search(&pos, &limits, &control, &mut |_| {});
        total += r.nodes;
        let best = r.best.map_or("(none)".to_string(), |m| m.iccs());
        eprintln!(
            "position {:2}/{}: bestmove {best} nodes {}",
            i + 1,
            BENCH_FENS.len(),
            r.nodes
        );
    }
    let secs = t0.elapsed().as_secs_f64();
    let nps = if secs > 0.0 { total as f64 / secs } else { 0.0 };
    println!("time {:.0} ms", secs * 1000.0);
    println!("nodes {total} nps {nps:.0}");
    ExitCode::SUCCESS
}
