//! `qili match` (placeholder until its issue lands).

use clap::Args;
use std::process::ExitCode;

#[derive(Args)]
pub struct MatchArgs {}

pub fn run(_a: MatchArgs) -> ExitCode {
    eprintln!("qili match: not built yet");
    ExitCode::FAILURE
}
