//! `qili analyze`: search one position and print every iteration with its
//! principal variation in ICCS coordinates and in Chinese notation.
//!
//! Scores are from the point of view of the side to move in the analysed position
//! (the header line says which side that is), in centipawns or `mate N` moves.

use crate::cli::engine::EngineArgs;
use crate::cli::position::PositionArgs;
use crate::cli::{fail, warn};
use clap::Args;
use engine::{Engine, Limits, Score, SearchControl, SearchInfo};
use rules::notation::to_chinese;
use rules::{Color, Move, Position};
use std::io::Write;
use std::process::ExitCode;

/// Without `--depth`, `--movetime` or `--nodes`, search to this depth.
const DEFAULT_DEPTH: u32 = 12;

#[derive(Args)]
#[command(mut_arg("hash", |a| a.default_value("64")))]
pub struct AnalyzeArgs {
    #[command(flatten)]
    position: PositionArgs,
    #[command(flatten)]
    engine: EngineArgs,
    /// Search to this depth [default: 12 when no other limit is given].
    #[arg(long)]
    depth: Option<u32>,
    /// Search for this many milliseconds.
    #[arg(long)]
    movetime: Option<u64>,
    /// Search this many nodes.
    #[arg(long)]
    nodes: Option<u64>,
    /// Number of principal variations.
    #[arg(long, default_value_t = 1)]
    multipv: usize,
    /// Show the board in Chinese glyphs (file numbers 一–九 for Red, １–９ for
    /// Black) instead of the plain letter diagram.
    #[arg(long)]
    show: bool,
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
    let (pos, warnings) = match a.position.position() {
        Ok(x) => x,
        Err(e) => return fail("analyze", e),
    };
    warn("analyze", &warnings);
    let eval = match a.engine.net_hash.eval() {
        Ok(e) => e,
        Err(e) => return fail("analyze", e),
    };
    let mut engine = a.engine.net_hash.engine(a.engine.threads, eval.as_ref());
    match analyse(&a, &pos, &mut engine) {
        Ok(()) => ExitCode::SUCCESS,
        // A closed pipe (`| head`) is the reader's choice, not an error.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => fail("analyze", e),
    }
}

fn analyse(a: &AnalyzeArgs, pos: &Position, engine: &mut Engine) -> std::io::Result<()> {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let no_limit = a.depth.is_none() && a.movetime.is_none() && a.nodes.is_none();
    let limits = Limits {
        depth: if no_limit {
            Some(DEFAULT_DEPTH)
        } else {
            a.depth
        },
        movetime_ms: a.movetime,
        nodes: a.nodes,
        multipv: a.multipv.max(1),
        ..Limits::default()
    };
    if a.show {
        write!(out, "{}", rules::diagram::chinese_board(pos))?;
    } else {
        writeln!(out, "{pos}")?;
    }
    let side = match pos.side_to_move() {
        Color::Red => "Red (红方)",
        Color::Black => "Black (黑方)",
    };
    writeln!(out, "scores are for {side}, the side to move")?;
    let control = SearchControl::new();
    let mut failed: Option<std::io::Error> = None;
    let mut last: Option<SearchInfo> = None;
    let mut on_info = |i: &SearchInfo| {
        if i.currmove.is_some() || failed.is_some() {
            return; // root-move progress: only the iterations are printed here
        }
        let iccs: Vec<String> = i.pv.iter().map(|m| m.iccs()).collect();
        let line = if a.multipv > 1 {
            format!(" multipv {}", i.multipv)
        } else {
            String::new()
        };
        let text = format!(
            "depth {} seldepth {}{line} score {} time {} nodes {} nps {} pv {}\n    {}",
            i.depth,
            i.seldepth,
            score_text(i.score),
            i.time_ms,
            i.nodes,
            i.nps,
            iccs.join(" "),
            chinese_pv(pos, &i.pv)
        );
        if let Err(e) = writeln!(out, "{text}") {
            // Stop the search: nobody reads on.
            control.stop();
            failed = Some(e);
        }
        if i.multipv == 1 {
            last = Some(i.clone());
        }
    };
    let r = engine.search(pos, &limits, &control, &mut on_info);
    if let Some(e) = failed {
        return Err(e);
    }
    warn("analyze", &r.errors);
    match (r.best, last) {
        (Some(m), Some(info)) => writeln!(
            out,
            "bestmove {m} ({}) score {} depth {} nodes {}",
            to_chinese(pos, m),
            score_text(info.score),
            info.depth,
            r.nodes
        ),
        (Some(m), None) => writeln!(out, "bestmove {m} ({})", to_chinese(pos, m)),
        (None, _) if pos.has_legal_move() => writeln!(out, "nobestmove (every move excluded)"),
        (None, _) => writeln!(
            out,
            "nobestmove: {side} has no legal move and has lost (score mate 0)"
        ),
    }
}
