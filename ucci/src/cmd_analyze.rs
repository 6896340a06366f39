//! `qili analyze`: search one position and print every iteration with its
//! principal variation in ICCS coordinates and in Chinese notation.

use clap::Args;
use engine::{Engine, EngineOptions, Limits, Score, SearchControl, SearchInfo};
use rules::notation::to_chinese;
use rules::{Move, Position, START_FEN};
use std::process::ExitCode;

#[derive(Args)]
pub struct AnalyzeArgs {
    /// Position to analyse (default: the initial position).
    #[arg(long, default_value = START_FEN)]
    fen: String,
    /// Moves played from that position, in ICCS coordinates (h2e2 h9g7 …).
    #[arg(long, num_args = 1.., value_name = "MOVE")]
    moves: Vec<String>,
    /// Search to this depth.
    #[arg(long, conflicts_with = "movetime")]
    depth: Option<u32>,
    /// Search for this many milliseconds.
    #[arg(long)]
    movetime: Option<u64>,
    /// Search threads.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Hash table size in MiB.
    #[arg(long, default_value_t = 64)]
    hash: usize,
    /// Number of principal variations.
    #[arg(long, default_value_t = 1)]
    multipv: usize,
}

fn score_text(s: Score) -> String {
    match s {
        Score::Cp(v) => format!("cp {v}"),
        Score::Mate(n) => format!("mate {n}"),
    }
}

/// The PV in Chinese notation, played out on a copy of the position.
fn chinese_pv(pos: &Position, pv: &[Move]) -> String {
    let mut p = pos.clone();
    let mut out = Vec::with_capacity(pv.len());
    for &m in pv {
        if !p.is_legal(m) {
            break;
        }
        out.push(to_chinese(&p, m));
        p.make_move(m);
    }
    out.join(" ")
}

pub fn run(a: AnalyzeArgs) -> ExitCode {
    let mut pos = match Position::from_fen(&a.fen) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: bad FEN: {e}");
            return ExitCode::FAILURE;
        }
    };
    for text in &a.moves {
        match pos.parse_move(text) {
            Ok(m) => pos.make_move(m),
            Err(e) => {
                eprintln!("error: move '{text}': {e}");
                return ExitCode::FAILURE;
            }
        }
    }
    let mut engine = Engine::new(EngineOptions {
        threads: a.threads.max(1),
        hash_mb: a.hash.max(1),
        ..EngineOptions::default()
    });
    let limits = Limits {
        depth: if a.depth.is_none() && a.movetime.is_none() {
            Some(12)
        } else {
            a.depth
        },
        movetime_ms: a.movetime,
        multipv: a.multipv.max(1),
        ..Limits::default()
    };
    println!("{pos}");
    let control = SearchControl::new();
    let root = pos.clone();
    let mut on_info = |i: &SearchInfo| {
        if i.currmove.is_some() {
            return; // root-move progress: only the iterations are printed here
        }
        let iccs: Vec<String> = i.pv.iter().map(|m| m.iccs()).collect();
        let line = if a.multipv > 1 {
            format!(" multipv {}", i.multipv)
        } else {
            String::new()
        };
        println!(
            "depth {} seldepth {}{line} score {} time {} nodes {} nps {} pv {}",
            i.depth,
            i.seldepth,
            score_text(i.score),
            i.time_ms,
            i.nodes,
            i.nps,
            iccs.join(" ")
        );
        println!("    {}", chinese_pv(&root, &i.pv));
    };
    let r = engine.search(&pos, &limits, &control, &mut on_info);
    match r.best {
        Some(m) => {
            println!(
                "bestmove {m} ({}) score {} depth {} nodes {}",
                to_chinese(&pos, m),
                score_text(r.score),
                r.depth,
                r.nodes
            );
            ExitCode::SUCCESS
        }
        None => {
            println!("nobestmove (no legal move)");
            ExitCode::SUCCESS
        }
    }
}
