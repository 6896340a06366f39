//! The `qili` binary: UCCI/UCI/xboard on stdin/stdout, and the command-line tools.
//!
//! With no arguments it speaks UCCI, UCI or CECP (xboard) on stdin/stdout (picked by
//! the first command); its subcommands call into the other crates. Each subcommand lives in
//! its own `cmd_*.rs` with its clap arguments; the pieces they share (position and
//! engine arguments, the error style) are in `cli/`.
//!
//! The developer tools (self-play data, training, tuning, self-play books) are
//! compiled in only with the `dev-tools` feature, so the binary a GUI runs links no
//! training code; `cargo build --release --features qili/dev-tools` builds them.

#![forbid(unsafe_code)]

mod cli;
mod cmd_analyze;
mod cmd_bench;
mod cmd_book;
#[cfg(feature = "dev-tools")]
mod cmd_data;
#[cfg(feature = "dev-tools")]
mod cmd_datagen;
#[cfg(feature = "dev-tools")]
mod cmd_fitwdl;
mod cmd_judge;
mod cmd_match;
mod cmd_mate;
mod cmd_perft;
#[cfg(feature = "dev-tools")]
mod cmd_spsa;
mod cmd_suite;
mod cmd_timeplan;
#[cfg(feature = "dev-tools")]
mod cmd_train;
#[cfg(feature = "dev-tools")]
mod cmd_tune;
mod judge;

use qili::protocol;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "qili",
    version,
    about = "Qili (棋例) xiangqi engine. Without a subcommand: UCCI/UCI on stdin/stdout."
)]
#[cfg_attr(
    not(feature = "dev-tools"),
    command(
        after_help = "The developer tools (datagen, data, train, tune-hce, spsa, fit-wdl, \
        book build --selfplay) are in the build with `cargo build --release --features \
        qili/dev-tools`."
    )
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// Protocol mode: start with this evaluation (as the `EvalFile` option): a net file,
    /// `<hce>` for the handcrafted evaluation, `<embedded>` for the compiled-in net (default).
    #[arg(long, value_name = "FILE")]
    net: Option<String>,
}

#[derive(Subcommand)]
enum Command {
    /// Count move paths to a depth (move-generator check and speed test).
    Perft(cmd_perft::PerftArgs),
    /// Decide the repetition a move sequence forms, under the AXF or Chinese rules.
    Judge(cmd_judge::JudgeArgs),
    /// Fixed-depth search of a built-in position set; prints the node-count signature.
    Bench(cmd_bench::BenchArgs),
    /// Search a position and print each iteration with its PV.
    Analyze(cmd_analyze::AnalyzeArgs),
    /// Play a match between engines, adjudicated by the rules crate.
    Match(cmd_match::MatchArgs),
    /// Opening books: build one from PGN (or self-play), probe a position.
    Book(cmd_book::BookArgs),
    /// Self-play games at a fixed node count, writing labelled positions for NNUE training.
    #[cfg(feature = "dev-tools")]
    Datagen(cmd_datagen::DatagenArgs),
    /// Check `qili datagen` shards (records, games, checksums, duplicates) and merge them.
    #[cfg(feature = "dev-tools")]
    Data(cmd_data::DataArgs),
    /// Train a net on `qili datagen` data (CPU, all cores) and write the net file.
    #[cfg(feature = "dev-tools")]
    Train(cmd_train::TrainArgs),
    /// Fit the win/draw/loss model of UCI_ShowWDL to `qili datagen` results.
    #[cfg(feature = "dev-tools")]
    FitWdl(cmd_fitwdl::FitWdlArgs),
    /// Tune search parameters by SPSA self-play (qili match games between θ ± c·δ).
    #[cfg(feature = "dev-tools")]
    Spsa(cmd_spsa::SpsaArgs),
    /// Prove a forced mate in N (or that there is none) and print its main line.
    Mate(cmd_mate::MateArgs),
    /// Run an engine over the mate suite at fixed times and count the mates it finds.
    Suite(cmd_suite::SuiteArgs),
    /// Show what the time manager plans over a whole game for a time control.
    Timeplan(cmd_timeplan::TimePlanArgs),
    /// Tune the handcrafted evaluation on `qili datagen` data (Texel-style) and write
    /// its parameters as Rust source.
    #[cfg(feature = "dev-tools")]
    TuneHce(cmd_tune::TuneArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Perft(a)) => cmd_perft::run(a),
        Some(Command::Judge(a)) => cmd_judge::run(a),
        Some(Command::Bench(a)) => cmd_bench::run(a),
        Some(Command::Analyze(a)) => cmd_analyze::run(a),
        Some(Command::Match(a)) => cmd_match::run(a),
        Some(Command::Book(a)) => cmd_book::run(a),
        #[cfg(feature = "dev-tools")]
        Some(Command::Datagen(a)) => cmd_datagen::run(a),
        #[cfg(feature = "dev-tools")]
        Some(Command::Data(a)) => cmd_data::run(a),
        #[cfg(feature = "dev-tools")]
        Some(Command::Train(a)) => cmd_train::run(a),
        #[cfg(feature = "dev-tools")]
        Some(Command::TuneHce(a)) => cmd_tune::run(a),
        Some(Command::Timeplan(a)) => cmd_timeplan::run(a),
        #[cfg(feature = "dev-tools")]
        Some(Command::FitWdl(a)) => cmd_fitwdl::run(a),
        #[cfg(feature = "dev-tools")]
        Some(Command::Spsa(a)) => cmd_spsa::run(a),
        Some(Command::Mate(a)) => cmd_mate::run(a),
        Some(Command::Suite(a)) => cmd_suite::run(a),
        None => protocol::run_with_net(cli.net.as_deref()),
    }
}
