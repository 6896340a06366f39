//! Helpers shared by the rules integration tests. Each test binary compiles this
//! module and uses only part of it, hence the allowance.
#![allow(dead_code)]

use rules::repetition::Verdict;
use rules::rng::Rng;
use rules::{Color, Move};

/// Red or Black, evenly, from the workspace generator (remainder form, as the
/// random positions of these tests were seeded).
pub fn color(rng: &mut Rng) -> Color {
    if rng.below_rem(2) == 0 {
        Color::Red
    } else {
        Color::Black
    }
}

/// A verdict column of the case tables (`draw`, `red_must_change`,
/// `black_must_change`); anything else (`?`) is no official verdict.
pub fn verdict(s: &str) -> Option<Verdict> {
    match s {
        "draw" => Some(Verdict::Draw),
        "red_must_change" => Some(Verdict::RedLoses),
        "black_must_change" => Some(Verdict::BlackLoses),
        _ => None,
    }
}

/// One row of a case table (`tests/data/repetition_*.tsv`): id, FEN at the cycle
/// start, the cycle in ICCS, and the row's other columns as written.
pub struct CaseRow {
    pub id: String,
    pub fen: String,
    pub moves: Vec<Move>,
    /// Every column, the first three included, so that indices match the table.
    pub columns: Vec<String>,
}

/// The rows of a case table (the header line and blank lines skipped).
pub fn case_rows(table: &str) -> Vec<CaseRow> {
    table
        .lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let columns: Vec<String> = l.split('\t').map(str::to_string).collect();
            CaseRow {
                id: columns[0].clone(),
                fen: columns[1].clone(),
                moves: columns[2]
                    .split_whitespace()
                    .map(|m| Move::parse_iccs(m).expect("ICCS move"))
                    .collect(),
                columns,
            }
        })
        .collect()
}

/// The FENs of the perft table (`tests/data/perft.tsv`), for tests that want a
/// varied set of positions.
pub fn perft_fens() -> Vec<String> {
    include_str!("../data/perft.tsv")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("fen"))
        .filter_map(|l| l.split('\t').next())
        .filter(|f| !f.is_empty())
        .map(str::to_string)
        .collect()
}
