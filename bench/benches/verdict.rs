//! 棋例 verdict cost: `judge_repetition` on the position that closes a cycle, as search
//! calls it at an in-tree repetition. 4- and 8-ply cycles, sparse rule-book diagrams and
//! the full opening set-up, under AXF (no mate search) and the Chinese rules (mate
//! threats by checks, up to `KILL_DEPTH` checking moves).
//! Run: cargo bench -p qili-bench --bench verdict

use criterion::{criterion_group, criterion_main, Criterion};
use rules::repetition::{judge_repetition, RuleSet};
use rules::{Move, Position};
use std::hint::black_box;

/// (name, FEN at the cycle start, cycle in ICCS).
const CYCLES: [(&str, &str, &str); 5] = [
    (
        "D01_check_4ply",
        "c2a1k3/2c1a2R1/b6P1/8p/9/9/9/9/4K4/9 w - - 0 1",
        "h8h9 f9f8 h9h8 f8f9",
    ),
    (
        "D33_chase_4ply",
        "4kab2/4a4/4b4/3rC2R1/9/9/4n4/4B4/4A4/4KAB1c w - - 0 1",
        "h6i6 i0h0 i6h6 h0i0",
    ),
    (
        "D39_chase_8ply",
        "2baka3/C4rN2/4b1n2/1Rp5p/6p2/2P6/4c1P1c/4B3C/4A4/4KAB2 w - - 0 1",
        "b6b8 f9e8 b8b5 e8f9 b5b8 f9e8 b8b6 e8f9",
    ),
    (
        "opening_4ply",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        "h0g2 h9g7 g2h0 g7h9",
    ),
    (
        "opening_8ply",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        "h0g2 h9g7 b0c2 b9c7 g2h0 g7h9 c2b0 c7b9",
    ),
];

fn closed(fen: &str, cycle: &str) -> Position {
    let mut pos = Position::from_fen(fen).expect("bench FEN");
    for m in cycle.split_whitespace() {
        let mv: Move = pos.parse_move(m).expect("bench move");
        pos.make_move(mv);
    }
    pos
}

fn verdict(c: &mut Criterion) {
    for (rules, group) in [
        (RuleSet::Axf, "verdict_axf"),
        (RuleSet::Chinese, "verdict_cn"),
    ] {
        let mut g = c.benchmark_group(group);
        for (name, fen, cycle) in CYCLES {
            let pos = closed(fen, cycle);
            assert!(judge_repetition(&pos, rules).is_some(), "{name} repeats");
            g.bench_function(name, |b| {
                b.iter(|| judge_repetition(black_box(&pos), rules))
            });
        }
        g.finish();
    }
}

criterion_group!(benches, verdict);
criterion_main!(benches);
