//! `qili bench` (placeholder until its issue lands).

use clap::Args;
use std::process::ExitCode;

#[derive(Args)]
pub struct BenchArgs {}

pub fn run(_a: BenchArgs) -> ExitCode {
    eprintln!("qili bench: not built yet");
    ExitCode::FAILURE
}
