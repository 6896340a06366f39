//! `qili perft`: leaf counts, optionally divided by root move and spread over threads.

use crate::cli::position::PositionArgs;
use crate::cli::{fail, warn};
use clap::Args;
use rules::perft::{divide_parallel, perft};
use std::process::ExitCode;
use std::time::Instant;

#[derive(Args)]
pub struct PerftArgs {
    /// Depth in plies.
    depth: u32,
    #[command(flatten)]
    position: PositionArgs,
    /// Print the leaf count below each root move.
    #[arg(long)]
    divide: bool,
    /// Worker threads (root moves are shared among them).
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Play every leaf move instead of counting the last ply from the move list.
    #[arg(long)]
    no_bulk: bool,
}

pub fn run(a: PerftArgs) -> ExitCode {
    let mut pos = match a.position.position() {
        Ok((pos, warnings)) => {
            warn("perft", &warnings);
            pos
        }
        Err(e) => return fail("perft", e),
    };
    let bulk = !a.no_bulk;
    let t0 = Instant::now();
    let nodes = if a.divide || a.threads > 1 {
        let d = divide_parallel(&pos, a.depth, bulk, a.threads.max(1));
        if a.divide {
            for (m, n) in &d {
                println!("{m}: {n}");
            }
        }
        if a.depth == 0 {
            1
        } else {
            d.iter().map(|x| x.1).sum()
        }
    } else {
        perft(&mut pos, a.depth, bulk)
    };
    let secs = t0.elapsed().as_secs_f64();
    let nps = if secs > 0.0 { nodes as f64 / secs } else { 0.0 };
    println!("nodes {nodes} time {:.0} ms nps {:.0}", secs * 1000.0, nps);
    ExitCode::SUCCESS
}
