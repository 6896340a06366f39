//! Re-scoring book candidates with a short search (`--rescore-nodes`): for each
//! position, a search of all moves finds the best move; then a search restricted to
//! that move and one restricted to each candidate move (`searchmoves`, the same node
//! count each) give the scores compared. A move more than `margin` centipawns below
//! the best move's is dropped; the others keep their score in the book. Comparing
//! restricted searches with each other (not with the search of all moves, whose tree
//! differs) means the best move itself is never dropped. Each search starts from a
//! cleared hash table, so the outcome depends on the position, the node count and
//! the build alone.

use book::build::{Builder, Candidate};
use engine::eval::EvalChoice;
use engine::{Engine, Limits, Score, SearchControl};
use rayon::prelude::*;
use rules::notation::to_chinese;
use rules::Move;
use std::sync::atomic::{AtomicUsize, Ordering};

/// A candidate move the search found too weak.
#[derive(Clone, Debug)]
pub struct Dropped {
    pub fen: String,
    pub mv: Move,
    pub chinese: String,
    pub score: i32,
    pub best: i32,
    pub best_move: Option<Move>,
}

pub struct Rescored {
    pub key: u64,
    pub mv: Move,
    pub score: i32,
    pub dropped: bool,
}

fn centipawns(s: Score) -> i32 {
    match s {
        Score::Cp(v) => v,
        Score::Mate(n) if n > 0 => 30_000 - n,
        Score::Mate(n) => -30_000 - n,
    }
}

/// The score of a search of `pos` restricted to `mv`, from a cleared hash table.
fn score_of(engine: &mut Engine, pos: &rules::Position, mv: Move, nodes: u64) -> i32 {
    engine.new_game();
    let only = Limits {
        nodes: Some(nodes),
        searchmoves: vec![mv],
        ..Limits::default()
    };
    let r = engine.search(pos, &only, &SearchControl::new(), &mut |_| {});
    centipawns(r.score)
}

fn rescore_one(
    engine: &mut Engine,
    c: &Candidate,
    nodes: u64,
    margin: i32,
) -> Vec<(Rescored, Option<Dropped>)> {
    let all = Limits {
        nodes: Some(nodes),
        ..Limits::default()
    };
    engine.new_game();
    let root = engine.search(&c.position, &all, &SearchControl::new(), &mut |_| {});
    let best = match root.best {
        Some(m) => score_of(engine, &c.position, m, nodes),
        None => centipawns(root.score),
    };
    c.moves
        .iter()
        .map(|&(mv, _)| {
            let score = if Some(mv) == root.best {
                best
            } else {
                score_of(engine, &c.position, mv, nodes)
            };
            let dropped = score < best - margin;
            let note = dropped.then(|| Dropped {
                fen: c.position.to_fen(),
                mv,
                chinese: to_chinese(&c.position, mv),
                score,
                best,
                best_move: root.best,
            });
            (
                Rescored {
                    key: c.key,
                    mv,
                    score,
                    dropped,
                },
                note,
            )
        })
        .collect()
}

/// Search every candidate; record scores in `builder`, drop the weak moves, and
/// return what was dropped (in key order).
pub fn rescore(
    builder: &mut Builder,
    candidates: &[Candidate],
    nodes: u64,
    margin: i32,
    jobs: usize,
    hash_mb: usize,
    eval: Option<&EvalChoice>,
) -> Result<Vec<Dropped>, String> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs.max(1))
        .build()
        .map_err(|e| e.to_string())?;
    let done = AtomicUsize::new(0);
    let results: Vec<Vec<(Rescored, Option<Dropped>)>> = pool.install(|| {
        candidates
            .par_iter()
            .map_init(
                || crate::cli::engine::new_engine(1, hash_mb, eval),
                |engine, c| {
                    let r = rescore_one(engine, c, nodes, margin);
                    let n = done.fetch_add(1, Ordering::Relaxed) + 1;
                    if n.is_multiple_of(20) || n == candidates.len() {
                        eprint!("\rrescore: {n}/{} positions   ", candidates.len());
                    }
                    r
                },
            )
            .collect()
    });
    eprintln!();
    let mut dropped = Vec::new();
    for (r, note) in results.into_iter().flatten() {
        builder.set_score(r.key, r.mv, r.score.clamp(-32_000, 32_000) as i16);
        if r.dropped {
            builder.drop_move(r.key, r.mv);
        }
        dropped.extend(note);
    }
    Ok(dropped)
}
