//! `qili suite`: run any UCCI or UCI engine over the mate suite
//! (`engine/tests/data/mates.tsv`) at a few fixed times a position and count
//! the positions where it reports the mate of the recorded length: the figures
//! of docs/MATES.md, for Qili and outside engines alike.

use crate::cli::fail;
use crate::cli::outside::engine_settings;
use bench::{Engine, Protocol};
use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

#[derive(Args)]
pub struct SuiteArgs {
    /// The engine command line.
    #[arg(long)]
    engine: String,
    /// Engine settings as `qili match --e1` takes them (`name=`, `proto=`, `option.X=Y`).
    #[arg(long = "e")]
    settings: Vec<String>,
    /// The suite (tab-separated: id, FEN, mate length in moves, mechanism, split, …).
    #[arg(long, default_value = "engine/tests/data/mates.tsv")]
    file: PathBuf,
    /// Milliseconds a position, one run each (comma-separated).
    #[arg(long, value_delimiter = ',', default_value = "100,300,1000")]
    movetime: Vec<u64>,
    /// Only this split (`tune` or `held`); all by default.
    #[arg(long)]
    split: Option<String>,
    /// List the positions not solved (by id and mechanism).
    #[arg(long)]
    failures: bool,
}

/// One suite position.
pub struct SuiteEntry {
    pub id: String,
    pub fen: String,
    pub mate: u32,
    pub mechanism: String,
    pub split: String,
}

/// Read the suite file (comment lines start with `#`; the first line names the
/// columns).
pub fn read_suite(text: &str) -> Result<Vec<SuiteEntry>, String> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if line.starts_with('#') || line.starts_with("id\t") || line.trim().is_empty() {
            continue;
        }
        let f: Vec<&str> = line.split('\t').collect();
        if f.len() < 5 {
            return Err(format!("line {}: expected at least 5 columns", n + 1));
        }
        out.push(SuiteEntry {
            id: f[0].to_string(),
            fen: f[1].to_string(),
            mate: f[2]
                .parse()
                .map_err(|_| format!("line {}: bad mate length '{}'", n + 1, f[2]))?,
            mechanism: f[3].to_string(),
            split: f[4].to_string(),
        });
    }
    Ok(out)
}

/// The mate length (in moves, positive for the side to move) a reported score
/// stands for, by protocol: UCI `mate n` arrives as 30000 − n, UCCI as 10000 −
/// plies.
fn mate_moves(protocol: Protocol, score: i32) -> Option<i32> {
    match protocol {
        Protocol::Uci if score >= 29_000 => Some(30_000 - score),
        Protocol::Ucci if (9_000..10_000).contains(&score) => Some((10_000 - score + 1) / 2),
        _ => None,
    }
}

pub fn run(a: SuiteArgs) -> ExitCode {
    match suite(&a) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => fail("suite", e),
    }
}

fn suite(a: &SuiteArgs) -> Result<(), String> {
    let text =
        std::fs::read_to_string(&a.file).map_err(|e| format!("{}: {e}", a.file.display()))?;
    let entries: Vec<SuiteEntry> = read_suite(&text)?
        .into_iter()
        .filter(|e| a.split.as_deref().is_none_or(|s| e.split == s))
        .collect();
    let cfg = engine_settings(&a.engine, &a.settings, &[])?;
    let mut engine = Engine::start(&cfg).map_err(|e| e.to_string())?;
    let name = engine.display_name();
    println!(
        "{name}: {} positions of {}",
        entries.len(),
        a.file.display()
    );
    for &ms in &a.movetime {
        let mut solved = 0;
        let mut by_length = [(0u32, 0u32); 9];
        let mut missed = Vec::new();
        let t0 = Instant::now();
        for e in &entries {
            engine.new_game().map_err(|e| e.to_string())?;
            let go = match engine.protocol {
                Protocol::Uci => format!("go movetime {ms}"),
                // UCCI has no movetime: the whole clock for one move.
                Protocol::Ucci => format!("go time {ms} movestogo 1"),
            };
            let setup = vec![format!("position fen {}", e.fen)];
            // A generous deadline: engines that overrun a little still count.
            let deadline = Instant::now() + Duration::from_millis(ms * 3 + 2000);
            let ok = match engine.think(&setup, &go, deadline) {
                Ok((reply, _)) => reply
                    .score
                    .and_then(|s| mate_moves(engine.protocol, s))
                    .is_some_and(|n| n > 0 && n as u32 <= e.mate),
                Err(_) => {
                    engine.stop_and_settle(Duration::from_millis(500));
                    false
                }
            };
            let slot = &mut by_length[(e.mate as usize).min(8)];
            slot.1 += 1;
            if ok {
                solved += 1;
                slot.0 += 1;
            } else {
                missed.push(format!("{} (mate {}, {})", e.id, e.mate, e.mechanism));
            }
        }
        let lengths: Vec<String> = by_length
            .iter()
            .enumerate()
            .filter(|(_, (_, n))| *n > 0)
            .map(|(k, (s, n))| format!("mate {k}: {s}/{n}"))
            .collect();
        println!(
            "{ms} ms: solved {solved} of {} ({}) in {:.0} s",
            entries.len(),
            lengths.join(", "),
            t0.elapsed().as_secs_f64()
        );
        if a.failures && !missed.is_empty() {
            println!("  not solved: {}", missed.join(", "));
        }
    }
    engine.quit();
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_read_as_mate_lengths_per_protocol() {
        assert_eq!(mate_moves(Protocol::Uci, 30_000 - 3), Some(3));
        assert_eq!(mate_moves(Protocol::Uci, 350), None);
        assert_eq!(mate_moves(Protocol::Ucci, 9_997), Some(2), "3 plies");
        assert_eq!(mate_moves(Protocol::Ucci, 9_999), Some(1));
        assert_eq!(mate_moves(Protocol::Ucci, -9_998), None);
        let s = read_suite(
            "id\tfen\tmate\tmechanism\tsplit\n# c\nm1\t4k4/9/9/9/9/9/9/9/9/4K4 w\t2\trook\ttune\n",
        )
        .unwrap();
        assert_eq!((s.len(), s[0].mate, s[0].split.as_str()), (1, 2, "tune"));
        assert!(read_suite("m1\tx\n").is_err());
    }
}
