//! Running `qili` once as a command-line program, shared by the subcommand tests.

use std::ffi::OsStr;
use std::process::{Command, Output};

/// Run the binary with `args` to its end.
pub fn qili<S: AsRef<OsStr>>(args: &[S]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_qili"))
        .args(args)
        .output()
        .expect("run qili")
}

/// What it printed, standard output then standard error.
pub fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}
