//! `qili fit-wdl`: fit the win/draw/loss model of `UCI_ShowWDL`
//! (`engine::wdl`) to the results of `qili datagen` self-play, and print it as
//! the `MODEL` constant to paste into `engine/src/wdl.rs`.

use crate::cli::fail;
use clap::Args;
use engine::wdl::{self, WdlModel};
use nets::data;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Args)]
pub struct FitWdlArgs {
    /// Data files (32-byte records from `qili datagen`).
    #[arg(long, num_args = 1.., required = true)]
    data: Vec<PathBuf>,
    /// Positions to fit on, every k-th record so the whole data is spread over.
    #[arg(long, default_value_t = 200_000)]
    positions: usize,
    /// Adam iterations.
    #[arg(long, default_value_t = 300)]
    iterations: usize,
}

pub fn run(a: FitWdlArgs) -> ExitCode {
    let mut records = Vec::new();
    for path in &a.data {
        match data::read_file(path) {
            Ok(r) => records.extend(r),
            Err(e) => return fail("fit-wdl", e),
        }
    }
    if records.is_empty() {
        return fail("fit-wdl", "no records");
    }
    let step = (records.len() / a.positions.max(1)).max(1);
    let samples: Vec<(i32, u32, u8)> = records
        .iter()
        .step_by(step)
        .map(|r| (i32::from(r.score()), r.piece_count(), r.outcome() as u8))
        .collect();
    let before = wdl::MODEL.loss(&samples);
    let fitted: WdlModel = wdl::fit(&samples, a.iterations);
    println!(
        "{} positions of {} records; mean negative log-likelihood {before:.5} (current MODEL) -> {:.5}",
        samples.len(),
        records.len(),
        fitted.loss(&samples)
    );
    println!(
        "pub const MODEL: WdlModel = WdlModel {{\n    a: [{:.1}, {:.1}],\n    b: [{:.1}, {:.1}],\n}};",
        fitted.a[0], fitted.a[1], fitted.b[0], fitted.b[1]
    );
    for pieces in [8, 16, 24, 32] {
        let row: Vec<String> = [0, 100, 200, 400, 800]
            .iter()
            .map(|&cp| {
                let (w, d, l) = fitted.per_mille(engine::Score::Cp(cp), pieces);
                format!("{cp} cp: {w}/{d}/{l}")
            })
            .collect();
        println!("{pieces} pieces: {}", row.join(", "));
    }
    ExitCode::SUCCESS
}
