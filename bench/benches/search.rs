//! Evaluation and fixed-depth search of the engine on the `qili bench` positions.
//! Run: cargo bench -p qili-bench --bench search

use criterion::{criterion_group, criterion_main, Criterion};
use engine::bench_positions::BENCH_FENS;
use engine::eval::{Evaluator, Hce};
use engine::{Engine, EngineOptions, Limits, SearchControl};
use rules::Position;
use std::hint::black_box;

fn positions() -> Vec<Position> {
    BENCH_FENS
        .iter()
        .filter_map(|f| Position::from_fen(f).ok())
        .collect()
}

fn evaluation(c: &mut Criterion) {
    let all = positions();
    let mut hce = Hce::new();
    c.bench_function("hce_evaluate_all_bench_positions", |b| {
        b.iter(|| {
            let mut sum = 0i64;
            for p in &all {
                hce.reset(p);
                sum += hce.evaluate(black_box(p)) as i64;
            }
            sum
        })
    });
}

fn search(c: &mut Criterion) {
    let all = positions();
    let mut g = c.benchmark_group("search_fixed_depth");
    g.sample_size(10);
    for depth in [6u32, 8] {
        g.bench_function(format!("depth{depth}_first8"), |b| {
            let mut e = Engine::new(EngineOptions {
                hash_mb: 16,
                ..EngineOptions::default()
            });
            let limits = Limits {
                depth: Some(depth),
                ..Limits::default()
            };
            b.iter(|| {
                let mut nodes = 0;
                for p in all.iter().take(8) {
                    e.new_game();
                    let r = e.search(p, &limits, &SearchControl::new(), &mut |_| {});
                    nodes += r.nodes;
                }
                nodes
            })
        });
    }
    g.finish();
}

criterion_group!(benches, evaluation, search);
criterion_main!(benches);
