//! `--nodes`, `--concurrency` and `--openings`: how the match runner (`bench::run_match`)
//! plays the games of the subcommands that run it, `qili match` and `qili spsa`.

use bench::Opening;
use clap::Args;
use std::path::PathBuf;

#[derive(Args)]
pub struct RunnerArgs {
    /// Search every move for this many nodes instead of by clock.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Games played at the same time (each has its own two engine processes).
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// Opening file: one FEN (optionally `moves …`) or one ICCS move list per line.
    #[arg(long)]
    pub openings: Option<PathBuf>,
}

impl RunnerArgs {
    /// The openings of `--openings`, or the start position alone.
    pub fn openings(&self) -> Result<Vec<Opening>, String> {
        match &self.openings {
            Some(p) => bench::load_openings(p),
            None => Ok(vec![Opening::startpos()]),
        }
    }
}
