//! `qili train`: fit a net to `qili datagen` records on the CPU (`nets::train`) and
//! write it in the net file format. Reproducible from `--seed` for the same data files
//! in the same order.

use crate::cli::fail;
use clap::Args;
use nets::buckets::MAX_BUCKETS;
use nets::data::{self, PackedPosition};
use nets::reference::FloatNet;
use nets::train::{self, TrainConfig};
use nets::Network;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

#[derive(Args)]
pub struct TrainArgs {
    /// Training data files (32-byte records from `qili datagen`).
    #[arg(long, num_args = 1.., required = true)]
    data: Vec<PathBuf>,
    /// Where to write the net.
    #[arg(long)]
    out: PathBuf,
    #[arg(long, default_value_t = 10)]
    epochs: usize,
    /// AdamW learning rate (falls linearly to a tenth by the last epoch).
    #[arg(long, default_value_t = 0.001)]
    lr: f32,
    /// Weight of the game result in the target (0: score only, 1: result only).
    #[arg(long, default_value_t = 0.3)]
    wdl: f32,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Start from this net's weights instead of random ones (the net's output-bucket
    /// count is kept).
    #[arg(long)]
    init: Option<PathBuf>,
    /// Material output buckets: output heads chosen by the piece count (1: one output,
    /// architecture 1; 2..=16: architecture 2). Default 1, or the --init net's count;
    /// a count that contradicts the --init net is an error (but see --replicate-head).
    #[arg(long)]
    buckets: Option<usize>,
    /// With --init of a one-output net and --buckets N: start all N heads as copies of
    /// the net's output (instead of refusing the different count).
    #[arg(long, requires_all = ["init", "buckets"])]
    replicate_head: bool,
    /// With --init of a net with fewer hidden neurons than this build's: start from
    /// it widened (its neurons kept, the new ones with output weights of zero, so the
    /// start evaluates exactly like it).
    #[arg(long, requires = "init")]
    widen: bool,
    /// Positions per AdamW step.
    #[arg(long, default_value_t = 16384)]
    batch: usize,
    /// Fraction of the positions held out to report the validation loss.
    #[arg(long, default_value_t = 0.05)]
    val: f32,
    /// Centipawns that sigmoid maps to 0.73 (score → expected result).
    #[arg(long, default_value_t = 400.0)]
    scale: f32,
    /// Reflect each training position left to right (file a <-> file i) with
    /// probability 1/2 every epoch: the rules are symmetric, so it is a free second
    /// example of every position. Validation positions are not reflected.
    #[arg(long)]
    mirror: bool,
    /// Worker threads (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
}

pub fn run(a: TrainArgs) -> ExitCode {
    if let Some(t) = a.threads {
        // Fails only if the global pool already exists, which it cannot here.
        let _ = rayon::ThreadPoolBuilder::new()
            .num_threads(t.max(1))
            .build_global();
    }
    if !(0.0..=1.0).contains(&a.wdl) || !(0.0..1.0).contains(&a.val) || a.scale <= 0.0 {
        return fail(
            "train",
            "need 0 <= --wdl <= 1, 0 <= --val < 1 and --scale > 0",
        );
    }
    if let Some(b) = a.buckets {
        if !(1..=MAX_BUCKETS).contains(&b) {
            return fail("train", format!("--buckets {b}: need 1 to {MAX_BUCKETS}"));
        }
    }
    // The net settings are checked before the (possibly large) data is read.
    let init = match &a.init {
        Some(path) if a.widen => {
            let narrow =
                nets::format::read_file(path).and_then(|bytes| nets::format::read_narrower(&bytes));
            match narrow {
                Ok(n) if a.buckets.is_some_and(|b| b != n.out_b.len()) => {
                    return fail("train", "--widen keeps the --init net's output buckets");
                }
                Ok(n) => {
                    eprintln!(
                        "widening {} from {} hidden neurons",
                        path.display(),
                        n.hidden
                    );
                    FloatNet::widened(&n, a.seed)
                }
                Err(nets::NetError::HiddenMismatch { found, .. }) => {
                    return fail(
                        "train",
                        format!(
                            "--widen: --init has {found} hidden neurons; it needs fewer than \
                             this build's {} (a multiple of 32)",
                            nets::HIDDEN
                        ),
                    );
                }
                Err(e) => return fail("train", format!("--init: {e}")),
            }
        }
        Some(path) => match Network::load(path) {
            Ok(n) if a.replicate_head && n.buckets() == 1 => {
                FloatNet::from_network(&n).replicate_head(a.buckets.unwrap_or(1))
            }
            Ok(n) if a.buckets.is_some_and(|b| b != n.buckets()) => {
                return fail(
                    "train",
                    format!(
                        "--buckets {} contradicts --init {}, which has {} output buckets \
                         (--replicate-head copies a one-output net's head)",
                        a.buckets.unwrap_or(1),
                        path.display(),
                        n.buckets()
                    ),
                );
            }
            Ok(n) => FloatNet::from_network(&n),
            Err(e) => return fail("train", format!("--init: {e}")),
        },
        None => train::init_random_bucketed(a.seed, a.buckets.unwrap_or(1)),
    };
    let mut all: Vec<PackedPosition> = Vec::new();
    for path in &a.data {
        match data::read_file(path) {
            Ok(mut v) => {
                eprintln!("{}: {} positions", path.display(), v.len());
                all.append(&mut v);
            }
            Err(e) => return fail("train", e),
        }
    }
    if all.is_empty() {
        return fail("train", "no training positions");
    }
    let cfg = TrainConfig {
        epochs: a.epochs,
        lr: a.lr,
        wdl: a.wdl,
        seed: a.seed,
        batch: a.batch.max(1),
        val_fraction: a.val,
        score_scale: a.scale,
        mirror: a.mirror,
        ..TrainConfig::default()
    };
    let (_, val) = train::split(&all, &cfg);
    println!(
        "positions {} (validation {}), output buckets {}, threads {}, initial validation loss {:.6}",
        all.len(),
        val.len(),
        init.buckets(),
        rayon::current_num_threads(),
        train::mean_loss(&init, &val, &cfg)
    );
    let t0 = Instant::now();
    let mut progress = bench::progress::Progress::new("train: epochs", cfg.epochs as u64, true);
    let net = train::train(init, &all, &cfg, &mut |r| {
        progress.suspend(|| {
            println!(
                "epoch {:3}  lr {:.6}  train loss {:.6}  validation loss {:.6}  {:.0} positions/s",
                r.epoch, r.lr, r.train_loss, r.val_loss, r.positions_per_s
            )
        });
        progress.set(
            r.epoch as u64,
            &format!("validation loss {:.6}", r.val_loss),
        );
    });
    progress.finish();
    let q = match net.quantise() {
        Ok(q) => q,
        Err(e) => return fail("train", format!("exporting the net: {e}")),
    };
    if let Err(e) = q.save(&a.out) {
        return fail("train", e);
    }
    println!(
        "wrote {} (checksum {:016x}) in {:.1} s",
        a.out.display(),
        q.checksum(),
        t0.elapsed().as_secs_f64()
    );
    ExitCode::SUCCESS
}
