//! UCCI / UCI front-ends (placeholder until its issue lands).

use std::process::ExitCode;

pub fn run() -> ExitCode {
    eprintln!("protocol mode not built yet");
    ExitCode::FAILURE
}
