//! Engine → GUI lines: formatting per dialect, and the sink they go to (stdout in
//! the binary, a buffer in tests). Every line is written whole and flushed.

use super::coords::Coords;
use super::Dialect;
use engine::{Score, SearchInfo};
use rules::Move;
use std::io::Write;
use std::sync::{Arc, Mutex};

/// UCCI has no mate form: ElephantEye-style scores count down from this.
pub const UCCI_MATE: i32 = 10_000;

/// A line sink shared by the session and the search thread.
#[derive(Clone)]
pub struct Out {
    sink: Arc<Mutex<Box<dyn Write + Send>>>,
}

impl Out {
    pub fn stdout() -> Out {
        Out::new(Box::new(std::io::stdout()))
    }

    pub fn new(w: Box<dyn Write + Send>) -> Out {
        Out {
            sink: Arc::new(Mutex::new(w)),
        }
    }

    /// Write one line. A closed stdout is not worth a panic: the GUI is gone and
    /// the reader will see EOF.
    pub fn line(&self, text: &str) {
        let mut w = self.sink.lock().unwrap_or_else(|e| e.into_inner());
        let _ = writeln!(w, "{text}");
        let _ = w.flush();
    }
}

fn score_text(dialect: Dialect, score: Score) -> String {
    match (dialect, score) {
        (Dialect::Uci, Score::Cp(v)) => format!("cp {v}"),
        (Dialect::Uci, Score::Mate(n)) => format!("mate {n}"),
        (Dialect::Ucci, Score::Cp(v)) => v.clamp(-(UCCI_MATE - 1000), UCCI_MATE - 1000).to_string(),
        // Mate in n moves is 2n-1 plies for the winner, 2n for the loser.
        (Dialect::Ucci, Score::Mate(n)) if n > 0 => (UCCI_MATE - (2 * n - 1)).to_string(),
        (Dialect::Ucci, Score::Mate(n)) => (-(UCCI_MATE + 2 * n)).to_string(),
    }
}

/// What an `info` line shows besides the iteration's own numbers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct InfoStyle {
    /// `multipv k` (MultiPV > 1).
    pub multipv: bool,
    /// UCI `wdl W D L` after the score (`UCI_ShowWDL`; UCCI has no such field).
    pub wdl: bool,
    /// How `pv` and `currmove` moves are written.
    pub coords: Coords,
}

/// One `info` line for a finished (or aspiration-failed) iteration.
pub fn info_line(dialect: Dialect, i: &SearchInfo, style: InfoStyle) -> String {
    if let Some((m, number)) = i.currmove {
        let m = style.coords.format(m);
        return match dialect {
            // UCCI 3.0 knows only `currmove <mv>`.
            Dialect::Ucci => format!("info currmove {m}"),
            Dialect::Uci => format!(
                "info depth {} currmove {m} currmovenumber {number}",
                i.depth
            ),
        };
    }
    let mut s = format!("info depth {} seldepth {}", i.depth, i.seldepth);
    if style.multipv {
        s += &format!(" multipv {}", i.multipv);
    }
    s += &format!(" score {}", score_text(dialect, i.score));
    if style.wdl && dialect == Dialect::Uci {
        s += &format!(" {}", wdl_text(i.wdl));
    }
    match i.lower_bound {
        Some(true) => s += " lowerbound",
        Some(false) => s += " upperbound",
        None => {}
    }
    s += &format!(
        " time {} nodes {} nps {} hashfull {}",
        i.time_ms, i.nodes, i.nps, i.hashfull
    );
    if !i.pv.is_empty() {
        s += " pv ";
        s += &style.coords.format_all(&i.pv);
    }
    s
}

/// The report for a side to move that has no legal move (mated, or 困毙): it has
/// lost, which GUIs read as mate in 0.
pub fn mated_info_line(dialect: Dialect) -> String {
    format!("info depth 0 score {}", score_text(dialect, Score::Mate(0)))
}

/// The UCI `wdl W D L` field: the expected result in per mille.
pub fn wdl_text(wdl: (u32, u32, u32)) -> String {
    format!("wdl {} {} {}", wdl.0, wdl.1, wdl.2)
}

/// The UCCI flags that may follow `bestmove`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flag {
    None,
    Draw,
    Resign,
}

/// `bestmove …` (or `nobestmove` / `bestmove (none)` when there is no move).
pub fn bestmove_line(
    dialect: Dialect,
    coords: Coords,
    best: Option<Move>,
    ponder: Option<Move>,
    flag: Flag,
) -> String {
    let Some(best) = best else {
        return match dialect {
            Dialect::Ucci => "nobestmove".to_string(),
            Dialect::Uci => "bestmove (none)".to_string(),
        };
    };
    let mut s = format!("bestmove {}", coords.format(best));
    if let Some(p) = ponder {
        s += &format!(" ponder {}", coords.format(p));
    }
    if dialect == Dialect::Ucci {
        match flag {
            Flag::Draw => s += " draw",
            Flag::Resign => s += " resign",
            Flag::None => {}
        }
    }
    s
}

/// A line the GUI shows to the user: errors and notes.
pub fn message_line(dialect: Dialect, text: &str) -> String {
    match dialect {
        Dialect::Uci => format!("info string {text}"),
        // UCCI's field for text meant for the user is `message`.
        Dialect::Ucci => format!("info message {text}"),
    }
}

pub fn error_line(dialect: Dialect, text: &str) -> String {
    message_line(dialect, &format!("error: {text}"))
}

/// `pophash` for UCCI `probe`: the stored move and a score we report as both
/// bounds at the stored depth.
pub fn pophash_line(entry: Option<(Move, Score, u32)>) -> String {
    match entry {
        None => "pophash".to_string(),
        Some((m, score, depth)) => {
            let v = score_text(Dialect::Ucci, score);
            let mut s = String::from("pophash");
            if !m.is_null() {
                s += &format!(" bestmove {}", m.iccs());
            }
            s += &format!(" lowerbound {v} depth {depth} upperbound {v} depth {depth}");
            s
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(s: &str) -> Move {
        Move::parse_iccs(s).unwrap()
    }

    #[test]
    fn scores_per_dialect() {
        assert_eq!(score_text(Dialect::Uci, Score::Cp(-35)), "cp -35");
        assert_eq!(score_text(Dialect::Uci, Score::Mate(-2)), "mate -2");
        assert_eq!(score_text(Dialect::Ucci, Score::Cp(12)), "12");
        assert_eq!(score_text(Dialect::Ucci, Score::Mate(1)), "9999");
        assert_eq!(score_text(Dialect::Ucci, Score::Mate(-1)), "-9998");
    }

    #[test]
    fn currmove_lines() {
        let i = SearchInfo {
            depth: 12,
            seldepth: 0,
            multipv: 1,
            score: Score::Cp(0),
            lower_bound: None,
            time_ms: 3500,
            nodes: 1000,
            nps: 285,
            hashfull: 0,
            pv: Vec::new(),
            currmove: Some((mv("b0c2"), 3)),
            wdl: (0, 1000, 0),
        };
        assert_eq!(
            info_line(Dialect::Uci, &i, InfoStyle::default()),
            "info depth 12 currmove b0c2 currmovenumber 3"
        );
        assert_eq!(
            info_line(Dialect::Ucci, &i, InfoStyle::default()),
            "info currmove b0c2"
        );
    }

    #[test]
    fn info_and_bestmove_lines() {
        let i = SearchInfo {
            depth: 7,
            seldepth: 11,
            multipv: 2,
            score: Score::Cp(15),
            lower_bound: Some(true),
            time_ms: 120,
            nodes: 5000,
            nps: 41666,
            hashfull: 3,
            pv: vec![mv("h2e2"), mv("h9g7")],
            currmove: None,
            wdl: (120, 850, 30),
        };
        assert_eq!(
            info_line(
                Dialect::Uci,
                &i,
                InfoStyle {
                    multipv: true,
                    ..InfoStyle::default()
                }
            ),
            "info depth 7 seldepth 11 multipv 2 score cp 15 lowerbound time 120 nodes 5000 nps 41666 hashfull 3 pv h2e2 h9g7"
        );
        assert_eq!(
            info_line(Dialect::Ucci, &i, InfoStyle::default()),
            "info depth 7 seldepth 11 score 15 lowerbound time 120 nodes 5000 nps 41666 hashfull 3 pv h2e2 h9g7"
        );
        let wdl = InfoStyle {
            wdl: true,
            ..InfoStyle::default()
        };
        let fairy = InfoStyle {
            coords: Coords::OneBased,
            ..InfoStyle::default()
        };
        assert!(info_line(Dialect::Uci, &i, fairy).ends_with(" pv h3e3 h10g8"));
        assert_eq!(
            bestmove_line(
                Dialect::Uci,
                Coords::OneBased,
                Some(mv("b9c7")),
                Some(mv("h0g2")),
                Flag::None
            ),
            "bestmove b10c8 ponder h1g3"
        );
        assert_eq!(
            info_line(Dialect::Uci, &i, wdl),
            "info depth 7 seldepth 11 score cp 15 wdl 120 850 30 lowerbound time 120 nodes 5000 nps 41666 hashfull 3 pv h2e2 h9g7"
        );
        assert!(!info_line(Dialect::Ucci, &i, wdl).contains("wdl"));
        assert_eq!(mated_info_line(Dialect::Uci), "info depth 0 score mate 0");
        assert_eq!(mated_info_line(Dialect::Ucci), "info depth 0 score -10000");
        let (b, p) = (Some(mv("h2e2")), Some(mv("h9g7")));
        assert_eq!(
            bestmove_line(Dialect::Ucci, Coords::Iccs, b, p, Flag::Draw),
            "bestmove h2e2 ponder h9g7 draw"
        );
        assert_eq!(
            bestmove_line(Dialect::Uci, Coords::Iccs, b, None, Flag::Resign),
            "bestmove h2e2"
        );
        assert_eq!(
            bestmove_line(Dialect::Ucci, Coords::Iccs, None, None, Flag::None),
            "nobestmove"
        );
        assert_eq!(
            bestmove_line(Dialect::Uci, Coords::Iccs, None, None, Flag::None),
            "bestmove (none)"
        );
        assert_eq!(error_line(Dialect::Uci, "x"), "info string error: x");
        assert_eq!(pophash_line(None), "pophash");
        assert_eq!(
            pophash_line(Some((mv("b0c2"), Score::Cp(-4), 9))),
            "pophash bestmove b0c2 lowerbound -4 depth 9 upperbound -4 depth 9"
        );
    }
}
