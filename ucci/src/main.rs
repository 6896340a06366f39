//! The `qili` binary: with no arguments it speaks UCCI or UCI on stdin/stdout;
//! its subcommands call into the other crates.

mod cmd_perft;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

#[derive(Parser)]
#[command(name = "qili", version, about = "Qili (棋例) xiangqi engine")]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Count move paths to a depth (move-generator check and speed test).
    Perft(cmd_perft::PerftArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Perft(a)) => cmd_perft::run(a),
        None => {
            eprintln!("protocol mode not built yet");
            ExitCode::FAILURE
        }
    }
}
