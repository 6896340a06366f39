//! `qili book build` and `qili book probe` through the binary: a small PGN gives the
//! expected entries and weights, self-play builds are reproducible from their seed
//! and equal to a build from the PGN they write, re-scoring reports what it
//! searched, and bad input is an error message, not a crash.

mod common;
use common::cli::{qili, text};

use std::path::PathBuf;

const PGN: &str = r#"[Event "1"]
[Result "1-0"]
1. h2e2 h9g7 2. h0g2 1-0

[Event "2"]
[Result "0-1"]
1. h2e2 h9g7 2. b0c2 0-1

[Event "3"]
[Result "1/2-1/2"]
1. 炮八平五 马２进３ 2. 马八进七 1/2-1/2

[Event "4"]
1. C2.5 H2+3 1-0

[Event "5"]
1. g3g4 0-1
"#;

fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("qili-book-cli-{}-{name}", std::process::id()))
}

/// The probe table's rows: (move, weight, games).
fn rows(probe: &str) -> Vec<(String, u32, u32)> {
    let mut v: Vec<(String, u32, u32)> = probe
        .lines()
        .skip_while(|l| !l.starts_with("move "))
        .skip(1)
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            (
                f[0].to_string(),
                f[1].parse().unwrap(),
                f[3].parse().unwrap(),
            )
        })
        .collect();
    v.sort();
    v
}

#[test]
fn a_small_pgn_builds_the_expected_book() {
    let pgn = temp("small.pgn");
    let out = temp("small.qbook");
    std::fs::write(&pgn, PGN).unwrap();
    let o = qili(&[
        "book",
        "build",
        "--pgn",
        pgn.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--plies",
        "3",
        "--min-games",
        "1",
    ]);
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    assert!(t.contains("5 games read, 0 skipped"), "{t}");
    assert!(t.contains(": 4 entries in 3 positions from 5 games"), "{t}");
    let book = out.to_str().unwrap();

    let p = qili(&["book", "probe", "--book", book]);
    let t = text(&p);
    assert!(p.status.success(), "{t}");
    // h2e2: won, lost, won (4 half-points, 3 games); b2e2: one draw; g3g4 lost: out.
    assert_eq!(rows(&t), [("b2e2".into(), 1, 1), ("h2e2".into(), 4, 3)]);
    assert!(t.contains("80.0%") && t.contains("20.0%"), "{t}");
    assert!(t.contains("炮二平五"), "{t}");
    // A position and its mirror: the same entry, each in its own orientation.
    let a = text(&qili(&["book", "probe", "--book", book, "--moves", "h2e2"]));
    let b = text(&qili(&["book", "probe", "--book", book, "--moves", "b2e2"]));
    assert_eq!(rows(&a), [("h9g7".into(), 3, 3)]);
    assert_eq!(rows(&b), [("b9c7".into(), 3, 3)]);
    let key = |s: &str| s.lines().find(|l| l.starts_with("book key")).unwrap()[9..25].to_string();
    assert_eq!(key(&a), key(&b));
    assert!(a.contains("mirror") != b.contains("mirror"), "{a}\n{b}");
    let c = text(&qili(&[
        "book", "probe", "--book", book, "--moves", "h2e2", "h9g7",
    ]));
    assert_eq!(rows(&c), [("h0g2".into(), 3, 2)]);
    let d = text(&qili(&["book", "probe", "--book", book, "--moves", "a3a4"]));
    assert!(d.contains("no book moves"), "{d}");
    let _ = std::fs::remove_file(pgn);
    let _ = std::fs::remove_file(out);
}

#[test]
#[cfg(feature = "dev-tools")]
fn selfplay_builds_are_reproducible_and_match_their_pgn() {
    let (a, b, c, games) = (
        temp("sp-a.qbook"),
        temp("sp-b.qbook"),
        temp("sp-c.qbook"),
        temp("sp.pgn"),
    );
    let common = [
        "book",
        "build",
        "--selfplay",
        "--games",
        "6",
        "--nodes",
        "400",
        "--seed",
        "3",
        "--noise",
        "40",
        "--max-game-plies",
        "60",
        "--plies",
        "8",
        "--min-games",
        "1",
    ];
    let run = |out: &PathBuf, extra: &[&str]| {
        let mut args: Vec<&str> = common.to_vec();
        args.extend_from_slice(&["--out", out.to_str().unwrap()]);
        args.extend_from_slice(extra);
        let o = qili(&args);
        assert!(o.status.success(), "{}", text(&o));
        text(&o)
    };
    let t = run(&a, &["--pgn-out", games.to_str().unwrap()]);
    assert!(t.contains("selfplay: 6 games"), "{t}");
    run(&b, &["--jobs", "2"]);
    let (ba, bb) = (std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
    assert!(ba.len() > 64, "an empty book");
    assert_eq!(ba, bb, "same seed, same book (whatever the number of jobs)");
    // The written games build the same book.
    let o = qili(&[
        "book",
        "build",
        "--pgn",
        games.to_str().unwrap(),
        "--out",
        c.to_str().unwrap(),
        "--plies",
        "8",
        "--min-games",
        "1",
    ]);
    assert!(o.status.success(), "{}", text(&o));
    assert_eq!(std::fs::read(&c).unwrap(), ba);
    // The noise gave different games.
    let pgn = std::fs::read_to_string(&games).unwrap();
    let parsed = rules::pgn::parse_games(&pgn).unwrap();
    assert_eq!(parsed.len(), 6);
    let firsts: std::collections::HashSet<_> =
        parsed.iter().map(|g| g.moves[..4].to_vec()).collect();
    assert!(firsts.len() >= 2, "all six games opened alike");
    // Re-scoring searches the book's moves and keeps or drops each.
    let t = run(&c, &["--rescore-nodes", "2000", "--rescore-margin", "30"]);
    assert!(t.contains("rescore: "), "{t}");
    let dropped = t.lines().filter(|l| l.starts_with("dropped ")).count();
    assert!(t.contains(&format!("{dropped} by the search")), "{t}");
    for f in [a, b, c, games] {
        let _ = std::fs::remove_file(f);
    }
}

#[test]
fn bad_input_is_an_error_message() {
    let garbage = temp("garbage.qbook");
    std::fs::write(
        &garbage,
        b"not a book at all, but long enough to hold a header of sixty-four bytes",
    )
    .unwrap();
    let o = qili(&["book", "probe", "--book", garbage.to_str().unwrap()]);
    assert!(!o.status.success());
    assert!(text(&o).contains("bad magic"), "{}", text(&o));
    let o = qili(&["book", "probe", "--book", "/nonexistent/x.qbook"]);
    assert!(!o.status.success());
    let o = qili(&["book", "build", "--out", garbage.to_str().unwrap()]);
    assert!(!o.status.success());
    assert!(text(&o).contains("--selfplay"), "{}", text(&o));
    // A PGN with one unreadable game: that game is skipped with its reason.
    let pgn = temp("bad.pgn");
    std::fs::write(&pgn, "1. h2e2 h9g7 1-0\n\n[Event \"x\"]\n1. 炮二平九九 *\n").unwrap();
    let o = qili(&[
        "book",
        "build",
        "--pgn",
        pgn.to_str().unwrap(),
        "--out",
        garbage.to_str().unwrap(),
        "--min-games",
        "1",
    ]);
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    assert!(t.contains("skipped game 2"), "{t}");
    assert!(t.contains("1 games read, 1 skipped"), "{t}");
    // The embedded book loads and knows the start position.
    let o = qili(&["book", "probe"]);
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    assert!(!rows(&t).is_empty(), "{t}");
    let _ = std::fs::remove_file(garbage);
    let _ = std::fs::remove_file(pgn);
}
