//! Building books from game records: the entries and weights of a small PGN,
//! positions and their mirrors sharing entries, every entry probed back, choices.

use book::build::{BuildOptions, Builder};
use book::records::{read_pgn, Game};
use book::{book_line, mirror_move, Book, BookKey, BookMove, Pick, RNG_STREAM};
use rules::pgn::GameResult;
use rules::rng::Rng;
use rules::{Move, Position};
use std::collections::HashSet;

/// Five games; the third is the mirror image of the first (b-file for h-file).
const PGN: &str = r#"[Event "1"]
[Result "1-0"]
1. h2e2 h9g7 2. h0g2 1-0

[Event "2"]
[Result "0-1"]
1. h2e2 h9g7 2. b0c2 0-1

[Event "3"]
[Result "1/2-1/2"]
1. b2e2 b9c7 2. b0c2 1/2-1/2

[Event "4"]
1. C2.5 H2+3 1-0

[Event "5"]
1. 兵三进一 0-1
"#;

fn pos(moves: &str) -> Position {
    let mut p = Position::startpos();
    for t in moves.split_whitespace() {
        let m = p.parse_move(t).unwrap();
        p.make_move(m);
    }
    p
}

fn summary(b: &[BookMove]) -> Vec<(String, u16, u16)> {
    let mut v: Vec<_> = b.iter().map(|m| (m.mv.iccs(), m.weight, m.count)).collect();
    v.sort();
    v
}

fn build(text: &str, o: &BuildOptions) -> Book {
    let r = read_pgn(text);
    assert!(r.skipped.is_empty(), "{:?}", r.skipped);
    let mut b = Builder::new();
    for g in &r.games {
        b.add_game(g, o.max_plies);
    }
    b.finish(o).unwrap().0
}

#[test]
fn a_small_pgn_gives_the_expected_entries_and_weights() {
    let all = BuildOptions {
        max_plies: 3,
        min_games: 1,
        min_score: 0.0,
    };
    let book = build(PGN, &all);
    // Start: h2e2 in games 1, 2, 4 (won, lost, won: 4 half-points); b2e2 once (a
    // draw: 1); g3g4 once, lost: no points, so not in the book.
    assert_eq!(
        summary(&book.probe(&pos(""))),
        vec![("b2e2".into(), 1, 1), ("h2e2".into(), 4, 3)]
    );
    // After h2e2 Black's h9g7 was played in games 1 and 2 (lost, won) and, mirrored,
    // in game 3 (b9c7 after b2e2, a draw): 3 games, 3 half-points. b9c7 after h2e2
    // (game 4, lost) scored nothing.
    assert_eq!(
        summary(&book.probe(&pos("h2e2"))),
        vec![("h9g7".into(), 3, 3)]
    );
    assert_eq!(
        summary(&book.probe(&pos("b2e2"))),
        vec![("b9c7".into(), 3, 3)]
    );
    // Third ply: h0g2 (won) and its mirror b0c2 in game 3 (drawn); game 2's b0c2 lost.
    assert_eq!(
        summary(&book.probe(&pos("h2e2 h9g7"))),
        vec![("h0g2".into(), 3, 2)]
    );
    // Ply limit: nothing after the third ply.
    assert!(book.probe(&pos("h2e2 h9g7 h0g2")).is_empty());
    assert_eq!(book.len(), 4);
    assert_eq!(book.positions(), 3);

    // Minimum count 2 drops the moves played once.
    let common = BuildOptions {
        min_games: 2,
        ..all
    };
    let book = build(PGN, &common);
    assert_eq!(summary(&book.probe(&pos(""))), vec![("h2e2".into(), 4, 3)]);
    assert_eq!(book.len(), 3);
    // Minimum score: h9g7 earned 3 of 6 half-points, h2e2 4 of 6.
    let strict = BuildOptions {
        min_score: 0.6,
        ..common
    };
    let book = build(PGN, &strict);
    assert_eq!(summary(&book.probe(&pos(""))), vec![("h2e2".into(), 4, 3)]);
    assert!(book.probe(&pos("h2e2")).is_empty());
}

#[test]
fn mirror_positions_share_entries() {
    let book = build(
        PGN,
        &BuildOptions {
            max_plies: 3,
            min_games: 1,
            min_score: 0.0,
        },
    );
    for (a, b) in [("h2e2", "b2e2"), ("h2e2 h9g7", "b2e2 b9c7")] {
        let (pa, pb) = (pos(a), pos(b));
        assert_ne!(pa.key(), pb.key());
        let (ka, kb) = (BookKey::of(&pa), BookKey::of(&pb));
        assert_eq!(ka.key, kb.key);
        assert_eq!(book.lookup(ka.key), book.lookup(kb.key));
        assert!(!book.lookup(ka.key).is_empty());
        let mirrored: Vec<BookMove> = book
            .probe(&pa)
            .into_iter()
            .map(|m| BookMove {
                mv: mirror_move(m.mv),
                ..m
            })
            .collect();
        assert_eq!(summary(&mirrored), summary(&book.probe(&pb)));
    }
}

/// Random games (legal moves from a seeded generator) with assorted results.
fn random_games(n: usize, plies: usize, seed: u64) -> Vec<Game> {
    let mut rng = Rng::with_stream(seed, RNG_STREAM);
    (0..n)
        .map(|i| {
            let mut p = Position::startpos();
            let mut moves = Vec::new();
            for _ in 0..plies {
                let legal = p.legal_moves();
                if legal.is_empty() {
                    break;
                }
                // Few choices near the start, so that positions and mirrors recur.
                let span = if moves.len() < 4 { 3 } else { legal.len() };
                let m = legal.as_slice()[(rng.next_u64() % span as u64) as usize];
                p.make_move(m);
                moves.push(m);
            }
            let result = [GameResult::RedWins, GameResult::BlackWins, GameResult::Draw][i % 3];
            Game::new(Position::startpos(), moves, result).unwrap()
        })
        .collect()
}

#[test]
fn every_entry_probes_back_from_its_positions() {
    let games = random_games(60, 10, 5);
    let o = BuildOptions {
        max_plies: 10,
        min_games: 1,
        min_score: 0.0,
    };
    let mut builder = Builder::new();
    for g in &games {
        builder.add_game(g, o.max_plies);
    }
    let (book, report) = builder.finish(&o).unwrap();
    assert!(book.len() > 100, "{}", book.len());
    assert_eq!(report.entries, book.len());
    // Replay every game: each position's probe agrees with its lookup, and the union
    // of the entries probed is the whole book.
    let mut reached: HashSet<(u64, u16)> = HashSet::new();
    for g in &games {
        let mut p = g.start.clone();
        for &m in g.moves.iter().take(o.max_plies) {
            let k = BookKey::of(&p);
            let probed = book.probe(&p);
            let looked: Vec<Move> = book
                .lookup(k.key)
                .iter()
                .map(|e| k.to_played(e.mv))
                .collect();
            assert_eq!(probed.iter().map(|b| b.mv).collect::<Vec<_>>(), looked);
            for e in book.lookup(k.key) {
                reached.insert((e.key, e.mv.0));
            }
            p.make_move(m);
        }
    }
    let all: HashSet<(u64, u16)> = book.entries().iter().map(|e| (e.key, e.mv.0)).collect();
    assert_eq!(reached, all);
    // Every entry is found by a lookup of its key, also after a round trip.
    let again = Book::from_bytes(&book.to_bytes()).unwrap();
    assert_eq!(again, book);
    for e in book.entries() {
        assert!(again.lookup(e.key).contains(e));
    }
}

#[test]
fn choices_follow_the_weights_and_best_is_the_heaviest() {
    let book = build(
        PGN,
        &BuildOptions {
            max_plies: 3,
            min_games: 1,
            min_score: 0.0,
        },
    );
    let start = Position::startpos();
    let best = book.choose(&start, Pick::Best, &[], 0).unwrap();
    assert_eq!(best.mv.iccs(), "h2e2");
    // Weights 1 (b2e2) and 4 (h2e2): random numbers 0 mod 5 pick b2e2, the rest h2e2.
    let picks: Vec<String> = (0..5)
        .map(|r| {
            book.choose(&start, Pick::Weighted, &[], r)
                .unwrap()
                .mv
                .iccs()
        })
        .collect();
    assert_eq!(picks, ["b2e2", "h2e2", "h2e2", "h2e2", "h2e2"]);
    let mut rng = Rng::with_stream(3, RNG_STREAM);
    let n = 4000;
    let h = (0..n)
        .filter(|_| {
            book.choose(&start, Pick::Weighted, &[], rng.next_u64())
                .unwrap()
                .mv
                .iccs()
                == "h2e2"
        })
        .count();
    assert!((3000..3400).contains(&h), "{h} of {n}");
    // A banned move is never chosen; with all banned there is no book move.
    let h2e2 = Move::parse_iccs("h2e2").unwrap();
    let b2e2 = Move::parse_iccs("b2e2").unwrap();
    assert_eq!(
        book.choose(&start, Pick::Best, &[h2e2], 0).unwrap().mv,
        b2e2
    );
    assert!(book
        .choose(&start, Pick::Weighted, &[h2e2, b2e2], 9)
        .is_none());
    // A line follows the book until it runs out.
    let line = book_line(
        &book,
        &start,
        10,
        Pick::Best,
        &mut Rng::with_stream(1, RNG_STREAM),
    );
    let text: Vec<String> = line.iter().map(|m| m.iccs()).collect();
    assert_eq!(text, ["h2e2", "h9g7", "h0g2"]);
    let short = book_line(
        &book,
        &start,
        2,
        Pick::Best,
        &mut Rng::with_stream(1, RNG_STREAM),
    );
    assert_eq!(short.len(), 2);
    // A position outside the book has no move.
    assert!(book.choose(&pos("c3c4"), Pick::Best, &[], 0).is_none());
}
