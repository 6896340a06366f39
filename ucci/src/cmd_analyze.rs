//! `qili analyze` (placeholder until its issue lands).

use clap::Args;
use std::process::ExitCode;

#[derive(Args)]
pub struct AnalyzeArgs {}

pub fn run(_a: AnalyzeArgs) -> ExitCode {
    eprintln!("qili analyze: not built yet");
    ExitCode::FAILURE
}
