//! Move generation, make/unmake and perft from the start position.
//! Run: cargo bench -p qili-bench --bench movegen

use criterion::{criterion_group, criterion_main, Criterion};
use rules::perft::perft;
use rules::{GenKind, MoveList, Position};
use std::hint::black_box;

/// Start, an opening, a middlegame and an endgame (all from play, all legal).
const POSITIONS: [(&str, &str); 4] = [
    (
        "start",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    ),
    (
        "opening",
        "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1CN1C1N2/9/R1BAKAB1R b - - 5 3",
    ),
    (
        "middlegame",
        "2bakab2/9/2n1c1n2/p3p1p1p/2p6/6P2/P1P1P3P/2N1C1N2/4A4/2BAK1B2 w - - 0 14",
    ),
    ("endgame", "3k5/4a4/4b4/9/2P6/9/9/4B4/4A4/2R1K4 w - - 0 40"),
];

fn movegen(c: &mut Criterion) {
    let mut g = c.benchmark_group("legal_moves");
    for (name, fen) in POSITIONS {
        let pos = Position::from_fen(fen).expect("bench FEN");
        g.bench_function(name, |b| b.iter(|| black_box(&pos).legal_moves().len()));
    }
    g.finish();
    let mut g = c.benchmark_group("captures");
    for (name, fen) in POSITIONS {
        let pos = Position::from_fen(fen).expect("bench FEN");
        g.bench_function(name, |b| {
            b.iter(|| {
                let mut l = MoveList::new();
                black_box(&pos).generate(GenKind::Captures, &mut l);
                l.len()
            })
        });
    }
    g.finish();
}

fn make_unmake(c: &mut Criterion) {
    let mut g = c.benchmark_group("make_unmake_all_moves");
    for (name, fen) in POSITIONS {
        let mut pos = Position::from_fen(fen).expect("bench FEN");
        let moves = pos.legal_moves();
        g.bench_function(name, |b| {
            b.iter(|| {
                for &m in moves.as_slice() {
                    pos.make_move(m);
                    black_box(pos.key());
                    pos.unmake_move();
                }
            })
        });
    }
    g.finish();
}

fn perft_start(c: &mut Criterion) {
    let mut g = c.benchmark_group("perft_start");
    g.sample_size(10);
    for depth in [3u32, 4] {
        let mut pos = Position::startpos();
        g.bench_function(format!("depth{depth}"), |b| {
            b.iter(|| perft(&mut pos, black_box(depth), true))
        });
    }
    g.finish();
}

criterion_group!(benches, movegen, make_unmake, perft_start);
criterion_main!(benches);
