//! The arguments of the subcommands that run Qili's own search: `--net` and `--hash`
//! (`NetHashArgs`) in every one, and `--threads` beside them (`EngineArgs`) where the
//! search runs threads. A subcommand whose defaults differ sets them on its own
//! arguments with `#[command(mut_arg("hash", …))]`, so that its help shows them.

use clap::Args;
use engine::eval::EvalChoice;
use engine::{Engine, EngineOptions};

/// `--net` and `--hash`: the evaluation and the hash table of Qili's search.
#[derive(Args, Clone, Debug)]
pub struct NetHashArgs {
    /// Evaluation: a net file, `<hce>` for the handcrafted evaluation, or
    /// `<embedded>` for the compiled-in net [default: <embedded>].
    #[arg(long, value_name = "FILE")]
    pub net: Option<String>,
    /// Hash table size in MiB.
    #[arg(long, value_name = "MIB", default_value_t = 16)]
    pub hash: usize,
}

/// `--net`, `--hash` and `--threads`: a search that may run several threads.
#[derive(Args, Clone, Debug)]
pub struct EngineArgs {
    #[command(flatten)]
    pub net_hash: NetHashArgs,
    /// Search threads.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub threads: usize,
}

impl NetHashArgs {
    /// The evaluation `--net` names (none: the engine's default, the embedded net).
    pub fn eval(&self) -> Result<Option<EvalChoice>, String> {
        self.net
            .as_deref()
            .map(EvalChoice::from_name)
            .transpose()
            .map_err(|e| format!("--net: {e}"))
    }

    /// A fresh engine with `threads` search threads, `--hash`, and `eval` (from
    /// `eval`, read once for all the engines a subcommand makes).
    pub fn engine(&self, threads: usize, eval: Option<&EvalChoice>) -> Engine {
        new_engine(threads, self.hash, eval)
    }
}

/// A fresh engine with `threads` search threads (at least one), `hash_mb` MiB of hash
/// (at least one) and `eval` (none: the embedded net).
pub fn new_engine(threads: usize, hash_mb: usize, eval: Option<&EvalChoice>) -> Engine {
    let mut e = Engine::new(EngineOptions {
        threads: threads.max(1),
        hash_mb: hash_mb.max(1),
        ..EngineOptions::default()
    });
    if let Some(choice) = eval {
        e.set_eval(choice.clone());
    }
    e
}
