//! The opening book and randomness through both protocols, against the real binary:
//! a book move when the book has one (with its `info` line, no search), a search
//! when it has none or the search is analysis, banned book moves skipped, a bad
//! book file refused with the old book kept, the embedded book, and deterministic
//! play with randomness off.

mod common;
use common::*;
use std::collections::HashSet;
use std::path::PathBuf;

/// Start: h2e2 (weight 4, 3 games) and b0c2 (3); after h2e2: h9g7 (2). Two plies deep.
fn small_book(tag: &str) -> PathBuf {
    let text = "1. h2e2 h9g7 1-0\n\n1. h2e2 h9g7 1/2-1/2\n\n1. h2e2 h9g7 1/2-1/2\n\n\
                1. b0c2 1-0\n\n1. b0c2 1/2-1/2\n";
    let r = book::records::read_pgn(text);
    let mut b = book::build::Builder::new();
    for g in &r.games {
        b.add_game(g, 2);
    }
    let o = book::build::BuildOptions {
        max_plies: 2,
        min_games: 1,
        min_score: 0.0,
    };
    let (book, _) = b.finish(&o).unwrap();
    let path = std::env::temp_dir().join(format!(
        "qili-protocol-book-{}-{tag}.qbook",
        std::process::id()
    ));
    book.save(&path).unwrap();
    path
}

/// `go`, and the answer with the lines before it.
fn go(q: &mut Qili, position: &str, go: &str) -> (String, Vec<String>) {
    q.send(position);
    q.send(go);
    q.answer(SLOW)
}

fn searched(info: &[String]) -> bool {
    info.iter().any(|l| l.starts_with("info depth"))
}

/// `setoption` in the dialect's form.
fn set(q: &mut Qili, dialect: &str, uci: &str, ucci: &str, value: &str) {
    if dialect == "uci" {
        q.send(&format!("setoption name {uci} value {value}"));
    } else {
        q.send(&format!("setoption {ucci} {value}"));
    }
}

fn book_move_then_search(dialect: &str) {
    let path = small_book(dialect);
    let note = if dialect == "uci" {
        "info string book move "
    } else {
        "info message book move "
    };
    let mut q = Qili::handshake(dialect);
    set(
        &mut q,
        dialect,
        "BookFile",
        "bookfiles",
        path.to_str().unwrap(),
    );
    set(&mut q, dialect, "OwnBook", "usebook", "true");
    set(&mut q, dialect, "Best Book Move", "bestbookmove", "true");
    q.ready();
    let clock = if dialect == "uci" {
        "go wtime 60000 btime 60000 winc 100 binc 100"
    } else {
        "go time 60000 increment 100"
    };
    // In the book: answered at once, no search.
    let (best, info) = go(&mut q, "position startpos", clock);
    assert_eq!(best, "bestmove h2e2", "{info:?}");
    assert!(
        info.iter()
            .any(|l| l.starts_with(&format!("{note}h2e2 (炮二平五) weight 4 of 7"))),
        "{info:?}"
    );
    assert!(!searched(&info), "{info:?}");
    let (best, info) = go(&mut q, "position startpos moves h2e2", "go depth 6");
    assert_eq!(best, "bestmove h9g7", "{info:?}");
    // Out of the book (its lines are two plies long): a search.
    let (best, info) = go(&mut q, "position startpos moves h2e2 h9g7", "go depth 3");
    assert!(searched(&info), "{info:?}");
    assert!(!info.iter().any(|l| l.starts_with(note)), "{info:?}");
    assert!(legal_after(
        None,
        &["h2e2", "h9g7"],
        &best_of(&best).unwrap()
    ));
    // Analysis is never answered from the book.
    q.send("position startpos");
    q.send("go infinite");
    q.wait_for("a search", SLOW, |l| l.starts_with("info depth"));
    q.send("stop");
    let (best, _) = q.answer(SLOW);
    assert!(best_of(&best).is_some());
    // Weighted choice: only book moves, both of them over 24 tries (a miss has
    // probability (4/7)^24 + (3/7)^24, about 1.5e-6).
    set(&mut q, dialect, "Best Book Move", "bestbookmove", "false");
    let mut seen = HashSet::new();
    for _ in 0..24 {
        let (best, info) = go(&mut q, "position startpos", "go depth 5");
        assert!(!searched(&info), "{info:?}");
        seen.insert(best_of(&best).unwrap());
    }
    let want: HashSet<String> = ["h2e2".to_string(), "b0c2".to_string()].into();
    assert_eq!(seen, want);
    // The book off: a search.
    set(&mut q, dialect, "OwnBook", "usebook", "false");
    let (_, info) = go(&mut q, "position startpos", "go depth 3");
    assert!(searched(&info), "{info:?}");
    let _ = std::fs::remove_file(path);
}

#[test]
fn uci_plays_from_the_book_then_searches() {
    book_move_then_search("uci");
}

#[test]
fn ucci_plays_from_the_book_then_searches() {
    book_move_then_search("ucci");
}

#[test]
fn ucci_banned_book_moves_and_searchmoves() {
    let path = small_book("ban");
    let mut q = Qili::handshake("ucci");
    q.send(&format!("setoption bookfiles {}", path.display()));
    q.send("setoption usebook true");
    q.send("setoption bestbookmove true");
    q.send("position startpos");
    q.send("banmoves h2e2");
    q.send("go depth 4");
    assert_eq!(q.answer(SLOW).0, "bestmove b0c2");
    q.send("banmoves h2e2 b0c2");
    q.send("go depth 2");
    let (best, info) = q.answer(SLOW);
    assert!(searched(&info), "{info:?}");
    let m = best_of(&best).unwrap();
    assert!(m != "h2e2" && m != "b0c2", "{m}");
    // UCI searchmoves: a search of that move, not the book.
    let mut u = Qili::handshake("uci");
    u.send(&format!("setoption name BookFile value {}", path.display()));
    u.send("setoption name OwnBook value true");
    let (best, info) = go(&mut u, "position startpos", "go depth 3 searchmoves c3c4");
    assert_eq!(best_of(&best).as_deref(), Some("c3c4"));
    assert!(searched(&info), "{info:?}");
    let _ = std::fs::remove_file(path);
}

#[test]
fn a_bad_book_file_is_refused_and_the_old_book_kept() {
    let good = small_book("good");
    let dir = std::env::temp_dir();
    let id = std::process::id();
    let bytes = std::fs::read(&good).unwrap();
    let garbage = dir.join(format!("qili-protocol-book-{id}-garbage.qbook"));
    std::fs::write(
        &garbage,
        b"QILIBOO? this is not a book, and it is long enough for a header: 64 bytes and more",
    )
    .unwrap();
    let truncated = dir.join(format!("qili-protocol-book-{id}-truncated.qbook"));
    std::fs::write(&truncated, &bytes[..bytes.len() - 3]).unwrap();
    let mut corrupt = bytes.clone();
    let last = corrupt.len() - 5;
    corrupt[last] ^= 0x10;
    let corrupted = dir.join(format!("qili-protocol-book-{id}-checksum.qbook"));
    std::fs::write(&corrupted, &corrupt).unwrap();

    let mut q = Qili::handshake("uci");
    q.send(&format!("setoption name BookFile value {}", good.display()));
    q.send("setoption name OwnBook value true");
    q.send("setoption name Best Book Move value true");
    for (file, why) in [
        (&garbage, "bad magic"),
        (&truncated, "truncated"),
        (&corrupted, "checksum"),
        (&dir.join("no-such-qili-book.qbook"), "no-such-qili-book"),
    ] {
        q.send(&format!("setoption name BookFile value {}", file.display()));
        let l = q.expect_prefix("info string error: BookFile");
        assert!(l.contains(why) && l.contains("book unchanged"), "{l}");
    }
    // Still the good book.
    let (best, info) = go(&mut q, "position startpos", "go depth 4");
    assert_eq!(best, "bestmove h2e2", "{info:?}");
    for f in [good, garbage, truncated, corrupted] {
        let _ = std::fs::remove_file(f);
    }
}

#[test]
fn the_embedded_book_is_the_default_book_file() {
    let embedded = book::Book::embedded().expect("the embedded book loads");
    let start = Position::startpos();
    let moves: Vec<String> = embedded.probe(&start).iter().map(|b| b.mv.iccs()).collect();
    assert!(!moves.is_empty());
    let mut q = Qili::handshake("ucci");
    q.send("setoption usebook true");
    let (best, info) = go(&mut q, "position startpos", "go depth 8");
    assert!(
        moves.contains(&best_of(&best).unwrap()),
        "{best} not in {moves:?}"
    );
    assert!(
        info.iter()
            .any(|l| l.starts_with("info message book move ")),
        "{info:?}"
    );
}

/// Info lines without the fields that depend on the clock.
fn timeless(info: &[String]) -> Vec<String> {
    info.iter()
        .map(|l| {
            let mut out = Vec::new();
            let mut w = l.split_whitespace();
            while let Some(t) = w.next() {
                if t == "time" || t == "nps" {
                    w.next();
                } else {
                    out.push(t);
                }
            }
            out.join(" ")
        })
        .collect()
}

fn fixed_depth_game(dialect: &str, randomness: Option<&str>) -> Vec<(String, Vec<String>)> {
    let mut q = Qili::handshake(dialect);
    if let Some(r) = randomness {
        set(&mut q, dialect, "Randomness", "randomness", r);
        q.ready();
    }
    let mut moves: Vec<String> = Vec::new();
    let mut out = Vec::new();
    for _ in 0..4 {
        let (best, info) = go(
            &mut q,
            &format!("position startpos moves {}", moves.join(" ")),
            "go depth 6",
        );
        moves.push(best_of(&best).unwrap());
        out.push((best, timeless(&info)));
    }
    out
}

#[test]
fn randomness_off_gives_deterministic_play_in_both_dialects() {
    for dialect in ["uci", "ucci"] {
        let a = fixed_depth_game(dialect, None);
        let b = fixed_depth_game(dialect, None);
        assert_eq!(a, b, "{dialect}");
        let c = fixed_depth_game(dialect, Some("none"));
        assert_eq!(a, c, "{dialect}: none is off");
    }
    // On, it still plays legal moves (the variety itself is tested in the engine).
    let noisy = fixed_depth_game("uci", Some("large"));
    let mut pos = Position::startpos();
    for (best, _) in &noisy {
        let m = pos.parse_move(&best_of(best).unwrap()).expect("legal");
        pos.make_move(m);
    }
}
