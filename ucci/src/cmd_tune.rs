//! `qili tune-hce`: Texel-style tuning of the handcrafted evaluation on `qili datagen`
//! records (`engine::eval::tune`), writing the parameters as a drop-in replacement
//! for `engine/src/eval/hce_values.rs`. Reproducible from `--seed` for the same data
//! files in the same order.

use crate::cli::fail;
use clap::Args;
use engine::eval::tune::{self, Objective, TraceSet, TuneConfig};
use engine::eval::{HceParams, HCE_PARAMS};
use nets::data::{self, PackedPosition};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

#[derive(Args)]
pub struct TuneArgs {
    /// Data files (32-byte records from `qili datagen`).
    #[arg(long, num_args = 1.., required = true)]
    data: Vec<PathBuf>,
    /// Where to write the tuned parameters (Rust source, the form of `hce_values.rs`).
    #[arg(long)]
    out: PathBuf,
    /// Positions to use, drawn at random from all files (0: all).
    #[arg(long, default_value_t = 1_500_000)]
    positions: usize,
    /// Fraction held out to report the validation loss.
    #[arg(long, default_value_t = 0.05)]
    val: f64,
    /// Weight of the game result in the target (0: search score only, 1: result only).
    #[arg(long, default_value_t = 0.3)]
    wdl: f64,
    #[arg(long, default_value_t = 20)]
    epochs: usize,
    /// Adam step in centipawns (falls linearly to a tenth by the last epoch).
    #[arg(long, default_value_t = 2.0)]
    lr: f64,
    /// Positions per Adam step.
    #[arg(long, default_value_t = 16384)]
    batch: usize,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Sigmoid scale per centipawn; fitted to the game results when absent.
    #[arg(long)]
    k: Option<f64>,
    /// Start from this parameter file instead of the compiled-in values.
    #[arg(long)]
    init: Option<PathBuf>,
    /// Weight of the penalty Σ (θ − θ_start)² added to the loss (keeps rarely seen
    /// table entries near their start; e.g. 1e-10).
    #[arg(long, default_value_t = 0.0)]
    l2: f64,
    /// Let placement tables differ between mirrored files.
    #[arg(long)]
    no_symmetry: bool,
    /// Worker threads (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
}

pub fn run(a: TuneArgs) -> ExitCode {
    match tune_hce(&a) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => fail("tune-hce", e),
    }
}

fn tune_hce(a: &TuneArgs) -> Result<(), String> {
    if !(0.0..=1.0).contains(&a.wdl) || !(0.0..1.0).contains(&a.val) {
        return Err("need 0 <= --wdl <= 1 and 0 <= --val < 1".into());
    }
    if a.k.is_some_and(|k| !(k > 0.0 && k.is_finite())) {
        return Err("--k must be a positive number".into());
    }
    let threads = a.threads.unwrap_or_else(tune::default_threads).max(1);
    let init = match &a.init {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| format!("--init {}: {e}", path.display()))?;
            HceParams::from_rust_source(&text)
                .map_err(|e| format!("--init {}: {e}", path.display()))?
        }
        None => HCE_PARAMS.clone(),
    };

    let mut recs: Vec<PackedPosition> = Vec::new();
    for path in &a.data {
        let mut v = data::read_file(path).map_err(|e| e.to_string())?;
        eprintln!("{}: {} positions", path.display(), v.len());
        recs.append(&mut v);
    }
    rules::rng::Rng::from_state(a.seed).shuffle_rem(&mut recs);
    if a.positions > 0 {
        recs.truncate(a.positions);
    }
    if recs.is_empty() {
        return Err("no positions".into());
    }

    let t0 = Instant::now();
    let (mut train, skipped) = TraceSet::from_records(&init, &recs, threads);
    drop(recs);
    let secs = t0.elapsed().as_secs_f64();
    println!(
        "traced {} positions ({skipped} skipped) in {secs:.1} s, {:.0} positions/s, threads {threads}",
        train.len(),
        train.len() as f64 / secs.max(1e-9)
    );
    let n_val = (train.len() as f64 * a.val) as usize;
    let val = train.split_off(train.len() - n_val);
    if train.is_empty() {
        return Err("no training positions left after the validation split".into());
    }

    let k = match a.k {
        Some(k) => k,
        None => {
            let t = Instant::now();
            let k = tune::fit_k(&train, &init, threads);
            println!(
                "fitted K = {k:.6} (1/K = {:.1} cp) to the results in {:.1} s",
                1.0 / k,
                t.elapsed().as_secs_f64()
            );
            k
        }
    };
    // Without a validation split the losses are reported on the training set.
    let (report_set, set_name) = if val.is_empty() {
        (&train, "training")
    } else {
        (&val, "validation")
    };
    let obj = Objective { k, wdl: a.wdl };
    let results_only = Objective { k, wdl: 1.0 };
    let losses = |p: &HceParams| {
        (
            tune::loss_int(report_set, p, obj, threads),
            tune::loss_int(report_set, p, results_only, threads),
        )
    };
    let before = losses(&init);
    println!(
        "training {}, validation {}; {set_name} loss before: {:.6} (wdl {}), {:.6} (results only)",
        train.len(),
        val.len(),
        before.0,
        a.wdl,
        before.1
    );

    let cfg = TuneConfig {
        epochs: a.epochs,
        lr: a.lr,
        batch: a.batch.max(1),
        threads,
        seed: a.seed,
        symmetric: !a.no_symmetry,
        l2: a.l2.max(0.0),
    };
    let t1 = Instant::now();
    let mut progress = bench::progress::Progress::new("tune-hce: epochs", a.epochs as u64, true);
    let tuned = tune::tune(&train, &init, obj, &cfg, &mut |r| {
        progress.suspend(|| {
            println!(
                "epoch {:3}  lr {:.3}  train loss {:.6}  {:.0} positions/s",
                r.epoch, r.lr, r.train_loss, r.positions_per_s
            )
        });
        progress.set(r.epoch as u64, &format!("train loss {:.6}", r.train_loss));
    });
    progress.finish();
    let tune_secs = t1.elapsed().as_secs_f64();
    let after = losses(&tuned);
    println!(
        "{set_name} loss after: {:.6} (wdl {}), {:.6} (results only); tuning {tune_secs:.1} s, {:.0} positions/s",
        after.0,
        a.wdl,
        after.1,
        (train.len() * a.epochs) as f64 / tune_secs.max(1e-9)
    );

    let files: Vec<String> = a.data.iter().map(|p| p.display().to_string()).collect();
    let note = format!(
        "Tuned by `qili tune-hce` on {} positions of {} (seed {}), K {k:.6}, wdl {},\n\
         {} epochs, lr {}, batch {}, l2 {:e}. {set_name} loss {:.6} -> {:.6} (results only {:.6} -> {:.6}).",
        train.len() + val.len(),
        files.join(" "),
        a.seed,
        a.wdl,
        a.epochs,
        a.lr,
        cfg.batch,
        cfg.l2,
        before.0,
        after.0,
        before.1,
        after.1
    );
    std::fs::write(&a.out, tuned.to_rust_source(&note))
        .map_err(|e| format!("{}: {e}", a.out.display()))?;
    println!("wrote {}", a.out.display());
    Ok(())
}
