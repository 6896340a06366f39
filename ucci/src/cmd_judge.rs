//! `qili judge` (placeholder until its issue lands).

use clap::Args;
use std::process::ExitCode;

#[derive(Args)]
pub struct JudgeArgs {}

pub fn run(_a: JudgeArgs) -> ExitCode {
    eprintln!("qili judge: not built yet");
    ExitCode::FAILURE
}
