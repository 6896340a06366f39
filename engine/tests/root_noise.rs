//! Root score noise (the protocol's Randomness option): off, the search is exactly
//! the plain search; on, it is reproducible from its seed, different seeds give
//! different moves, and the moves it picks stay close to the best.

use engine::{Engine, EngineOptions, Limits, RootNoise, Score, SearchControl, SearchResult};
use rules::{Move, Position};
use std::collections::HashSet;

fn search(pos: &Position, depth: u32, noise: Option<RootNoise>) -> SearchResult {
    // A fresh engine per search: nothing carried over in the hash table or histories.
    let mut e = Engine::new(EngineOptions {
        threads: 1,
        hash_mb: 16,
        ..EngineOptions::default()
    });
    let limits = Limits {
        depth: Some(depth),
        root_noise: noise,
        ..Limits::default()
    };
    e.search(pos, &limits, &SearchControl::new(), &mut |_| {})
}

fn cp(s: Score) -> i32 {
    match s {
        Score::Cp(v) => v,
        Score::Mate(n) => panic!("unexpected mate score {n}"),
    }
}

#[test]
fn offsets_lie_within_the_amplitude_and_zero_means_none() {
    let key = Position::startpos().key();
    let moves = Position::startpos().legal_moves();
    let n = RootNoise {
        amplitude: 20,
        seed: 9,
    };
    let offsets: Vec<i32> = moves.iter().map(|&m| n.offset(key, m)).collect();
    assert!(
        offsets.iter().all(|o| (-20..=20).contains(o)),
        "{offsets:?}"
    );
    assert!(offsets.iter().any(|&o| o < 0) && offsets.iter().any(|&o| o > 0));
    let zero = RootNoise {
        amplitude: 0,
        seed: 9,
    };
    assert!(moves.iter().all(|&m| zero.offset(key, m) == 0));
    // Another position or seed, other offsets.
    let other = RootNoise { seed: 10, ..n };
    assert_ne!(
        offsets,
        moves
            .iter()
            .map(|&m| other.offset(key, m))
            .collect::<Vec<_>>()
    );
}

#[test]
fn without_noise_the_search_is_deterministic_and_zero_amplitude_changes_nothing() {
    let pos = Position::startpos();
    let a = search(&pos, 7, None);
    let b = search(&pos, 7, None);
    let z = search(
        &pos,
        7,
        Some(RootNoise {
            amplitude: 0,
            seed: 123,
        }),
    );
    for r in [&b, &z] {
        assert_eq!(r.best, a.best);
        assert_eq!(r.nodes, a.nodes);
        assert_eq!(r.score, a.score);
    }
}

#[test]
fn noise_is_reproducible_from_its_seed_and_varies_with_it() {
    let pos = Position::startpos();
    let plain = search(&pos, 6, None);
    let noise = |seed| {
        Some(RootNoise {
            amplitude: 30,
            seed,
        })
    };
    let a = search(&pos, 6, noise(1));
    let b = search(&pos, 6, noise(1));
    assert_eq!((a.best, a.nodes, a.score), (b.best, b.nodes, b.score));
    let mut firsts: HashSet<Move> = HashSet::new();
    for seed in 0..12 {
        let r = search(&pos, 6, noise(seed));
        let m = r.best.unwrap();
        assert!(pos.is_legal(m));
        firsts.insert(m);
        // The pick is judged by score + offset, so it is within twice the amplitude
        // of the best (plus what a differently ordered search of the same depth
        // may see differently).
        assert!(
            cp(r.score) >= cp(plain.score) - 2 * 30 - 40,
            "seed {seed}: {} scored {:?}, plain {:?}",
            m,
            r.score,
            plain.score
        );
    }
    assert!(firsts.len() >= 2, "{firsts:?}");
}
