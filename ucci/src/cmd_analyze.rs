//! `qili analyze`: search one position and print every iteration with its
//! principal variation in ICCS coordinates and in Chinese notation.
//!
//! Scores are from the point of view of the side to move in the analysed position
//! (the header line says which side that is), in centipawns or `mate N` moves.

use clap::Args;
use engine::{Engine, EngineOptions, Limits, Score, SearchControl, SearchInfo};
use rules::notation::to_chinese;
use rules::{Color, Move, Position, Setup, START_FEN};
use std::io::Write;
use std::process::ExitCode;

/// Without `--depth`, `--movetime` or `--nodes`, search to this depth.
const DEFAULT_DEPTH: u32 = 12;

#[derive(Args)]
pub struct AnalyzeArgs {
    /// Position to analyse (default: the initial position). Composed studies are
    /// accepted, with a warning on stderr when no game reaches them.
    #[arg(long, default_value = START_FEN)]
    fen: String,
    /// Moves played from that position, in ICCS, WXF or Chinese notation: separate
    /// words (`--moves h2e2 h9g7`) or one quoted string (`--moves "h2e2 h9g7"`).
    #[arg(long, num_args = 1.., value_name = "MOVE")]
    moves: Vec<String>,
    /// Search to this depth [default: 12 when no other limit is given].
    #[arg(long)]
    depth: Option<u32>,
    /// Search for this many milliseconds.
    #[arg(long)]
    movetime: Option<u64>,
    /// Search this many nodes.
    #[arg(long)]
    nodes: Option<u64>,
    /// Search threads.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Hash table size in MiB.
    #[arg(long, default_value_t = 64)]
    hash: usize,
    /// Number of principal variations.
    #[arg(long, default_value_t = 1)]
    multipv: usize,
    /// Show the board in Chinese glyphs (file numbers 一–九 for Red, １–９ for
    /// Black) instead of the plain letter diagram.
    #[arg(long)]
    show: bool,
    /// Refuse a position that no game from the start reaches.
    #[arg(long)]
    strict: bool,
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

/// The words of a `--moves` list: each value may hold several moves separated by
/// blanks or commas.
pub fn move_words(values: &[String]) -> Vec<String> {
    values
        .iter()
        .flat_map(|v| v.split(|c: char| c.is_whitespace() || c == ','))
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect()
}

/// The position to analyse, and the warnings to print about it.
fn setup(a: &AnalyzeArgs) -> Result<(Position, Vec<String>), String> {
    let setup = Setup::parse(&a.fen).map_err(|e| format!("bad FEN: {e}"))?;
    let unreachable = setup.unreachable();
    if a.strict {
        if let Some(e) = unreachable.first() {
            return Err(format!("bad FEN (--strict): {e}"));
        }
    }
    let mut pos = Position::from_setup(&setup).map_err(|e| format!("bad FEN: {e}"))?;
    let warnings = if unreachable.is_empty() {
        Vec::new()
    } else {
        let list: Vec<String> = unreachable.iter().map(|r| r.to_string()).collect();
        vec![format!(
            "warning: no game reaches this position (a composed study?): {}",
            list.join("; ")
        )]
    };
    for (i, text) in move_words(&a.moves).iter().enumerate() {
        let m = rules::notation::parse_any(&pos, text)
            .map_err(|e| format!("move {} '{text}': {e}", i + 1))?;
        pos.make_move(m);
    }
    Ok((pos, warnings))
}

pub fn run(a: AnalyzeArgs) -> ExitCode {
    let (pos, warnings) = match setup(&a) {
        Ok(x) => x,
        Err(e) => {
            eprintln!("qili analyze: {e}");
            return ExitCode::FAILURE;
        }
    };
    for w in &warnings {
        eprintln!("qili analyze: {w}");
    }
    match analyse(&a, &pos) {
        Ok(()) => ExitCode::SUCCESS,
        // A closed pipe (`| head`) is the reader's choice, not an error.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("qili analyze: {e}");
            ExitCode::FAILURE
        }
    }
}

fn analyse(a: &AnalyzeArgs, pos: &Position) -> std::io::Result<()> {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut engine = Engine::new(EngineOptions {
        threads: a.threads.max(1),
        hash_mb: a.hash.max(1),
        ..EngineOptions::default()
    });
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
    for e in &r.errors {
        eprintln!("qili analyze: {e}");
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_may_be_words_or_one_string() {
        let words = move_words(&["h2e2".into(), "h9g7".into()]);
        let one = move_words(&["h2e2 h9g7".into()]);
        let commas = move_words(&["h2e2,h9g7".into()]);
        assert_eq!(words, vec!["h2e2", "h9g7"]);
        assert_eq!(one, words);
        assert_eq!(commas, words);
        assert!(move_words(&["  ".into()]).is_empty());
    }
}
