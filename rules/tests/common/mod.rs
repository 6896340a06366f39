//! Helpers shared by the rules integration tests. Each test binary compiles this
//! module and uses only part of it, hence the allowance.
#![allow(dead_code)]

use rules::repetition::Verdict;
use rules::{Color, Move};

/// SplitMix64, seeded: the same "random" positions and strings every run.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform-enough index below `n` (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// Red or Black, evenly.
    pub fn color(&mut self) -> Color {
        if self.below(2) == 0 {
            Color::Red
        } else {
            Color::Black
        }
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
