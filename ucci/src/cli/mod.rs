//! Command-line pieces the subcommands share: the position arguments (`position`),
//! the engine arguments (`engine`), outside engines' settings (`outside`), the match
//! runner's arguments (`runner`), and the one error style, `qili SUBCOMMAND: …` on
//! stderr with a failing exit code.

pub mod engine;
pub mod outside;
pub mod position;
pub mod runner;

use std::fmt::Display;
use std::process::ExitCode;

/// Report `e` as subcommand `cmd`'s error and fail.
pub fn fail(cmd: &str, e: impl Display) -> ExitCode {
    eprintln!("qili {cmd}: {e}");
    ExitCode::FAILURE
}

/// Print subcommand `cmd`'s warnings on stderr.
pub fn warn(cmd: &str, warnings: &[String]) {
    for w in warnings {
        eprintln!("qili {cmd}: {w}");
    }
}
