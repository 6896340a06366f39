//! `qili data check|merge`: what shards of `qili datagen` data hold (records, games,
//! checksums, a cut record, an unfinished game, duplicated games) and their merge into
//! one file; the logic is `nets::shard_merge`.

use crate::cli::fail;
use clap::{Args, Subcommand};
use nets::shard_merge::{self, Scan};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Args)]
pub struct DataArgs {
    #[command(subcommand)]
    command: DataCommand,
}

#[derive(Subcommand)]
enum DataCommand {
    /// Report each shard and the merge they would make (nothing is written).
    Check {
        /// Shards (with their `.games` sidecars where they have one), in merge order.
        #[arg(required = true)]
        shards: Vec<PathBuf>,
    },
    /// Write the shards' finished, distinct games into one file (and its sidecar).
    Merge {
        /// The merged file (written to `<out>.tmp`, renamed into place when whole).
        #[arg(long)]
        out: PathBuf,
        #[arg(required = true)]
        shards: Vec<PathBuf>,
    },
}

pub fn run(a: DataArgs) -> ExitCode {
    let (scan, what) = match &a.command {
        DataCommand::Check { shards } => (shard_merge::scan(shards, |_, _| Ok(())), "check"),
        DataCommand::Merge { out, shards } => (shard_merge::merge(shards, out), "merge"),
    };
    match scan {
        Ok(s) => {
            report(&s);
            if let DataCommand::Merge { out, .. } = &a.command {
                println!(
                    "wrote {}: {} records, fnv {:016x}",
                    out.display(),
                    s.records,
                    s.fnv
                );
            }
            ExitCode::SUCCESS
        }
        Err(e) => fail(&format!("data {what}"), e),
    }
}

fn report(s: &Scan) {
    for i in &s.shards {
        let games = match (&i.games, &i.params) {
            (Some(g), Some(p)) => format!("{g} games ({p})"),
            _ => "no sidecar (games unknown)".to_string(),
        };
        println!(
            "{}: {} records, {games}; keeps {} records, fnv {:016x}",
            i.path.display(),
            i.records,
            i.kept_records,
            i.fnv
        );
        if i.cut_bytes > 0 {
            println!("  cut record: {} bytes at the end, left out", i.cut_bytes);
        }
        if i.unfinished_records > 0 {
            println!(
                "  unfinished game: {} records after the last finished game, left out",
                i.unfinished_records
            );
        }
        if i.duplicate_games > 0 {
            println!(
                "  duplicates: {} games ({} records) already in an earlier game, left out",
                i.duplicate_games, i.duplicate_records
            );
        }
    }
    const SHOWN: usize = 20;
    for d in s.duplicates.iter().take(SHOWN) {
        let at = |(n, seed, index): (usize, u64, u64)| {
            let path = s.shards[n].path.display();
            if d.game {
                format!("{path} seed {seed} game {index}")
            } else {
                format!("{path} record {index}")
            }
        };
        let what = if d.game { "game" } else { "run of records" };
        println!(
            "warning: duplicate {what} ({} records): {} repeats {}",
            d.records,
            at(d.again),
            at(d.first)
        );
    }
    if s.duplicates.len() > SHOWN {
        println!(
            "warning: … and {} more duplicates",
            s.duplicates.len() - SHOWN
        );
    }
    if !s.all_sidecars && !s.duplicates.is_empty() {
        println!("  (repeated runs in shards without sidecars are reported, not removed)");
    }
    println!(
        "merge: {} shards, {} records, fnv {:016x}, {} duplicates",
        s.shards.len(),
        s.records,
        s.fnv,
        s.duplicates.len()
    );
}
