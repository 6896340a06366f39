//! `--fen`, `--moves` and `--strict` mean the same in every subcommand that takes a
//! position: one table of move spellings (every notation the rules crate reads, as
//! words or one string, with move numbers and commas) run through each subcommand
//! of the built binary must reach the position the ICCS moves reach, and bad input
//! must be a `qili SUBCOMMAND: …` error with a failing exit code.

mod common;
use common::cli::{qili, text};

use rules::notation::{to_chinese, to_wxf};
use rules::{Position, START_FEN};

/// A subcommand that takes a position: its name as errors give it, the arguments
/// before the position's, and what of its output depends on the position alone.
struct Sub {
    name: &'static str,
    args: &'static [&'static str],
    key: fn(&str) -> String,
}

fn line_after(out: &str, prefix: &str) -> String {
    out.lines()
        .find_map(|l| l.split_once(prefix).map(|(_, rest)| rest.to_string()))
        .unwrap_or_else(|| panic!("no '{prefix}' in:\n{out}"))
}

const SUBS: [Sub; 5] = [
    Sub {
        name: "analyze",
        args: &["analyze", "--depth", "1"],
        key: |o| line_after(o, "to move; FEN "),
    },
    Sub {
        name: "mate",
        args: &["mate", "--max", "1", "--nodes", "1000"],
        key: |o| line_after(o, "position "),
    },
    Sub {
        name: "book",
        args: &["book", "probe"],
        key: |o| line_after(o, "position "),
    },
    // Perft prints no position: its leaf counts two plies on stand for it.
    Sub {
        name: "perft",
        args: &["perft", "2"],
        key: |o| {
            line_after(o, "nodes ")
                .split(' ')
                .next()
                .unwrap()
                .to_string()
        },
    },
    // The rule query prints a line for each legal move of the position.
    Sub {
        name: "judge",
        args: &["judge", "--lang", "en", "--query"],
        key: |o| o.to_string(),
    },
];

/// The moves played from `fen`, each in ICCS, WXF and Chinese.
fn spellings(fen: &str, iccs: &[&str]) -> [Vec<String>; 3] {
    let mut pos = Position::from_fen(fen).unwrap();
    let (mut wxf, mut chinese) = (Vec::new(), Vec::new());
    for t in iccs {
        let m = pos.parse_move(t).unwrap();
        wxf.push(to_wxf(&pos, m));
        chinese.push(to_chinese(&pos, m));
        pos.make_move(m);
    }
    let iccs = iccs.iter().map(|s| s.to_string()).collect();
    [iccs, wxf, chinese]
}

/// Every way of writing the moves that must reach the same position.
fn move_lists(fen: &str, iccs: &[&str]) -> Vec<Vec<String>> {
    let [i, w, c] = spellings(fen, iccs);
    let numbered = |v: &[String]| -> String {
        v.chunks(2)
            .enumerate()
            .map(|(n, pair)| format!("{}. {}", n + 1, pair.join(" ")))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let mixed: Vec<String> = (0..i.len())
        .map(|k| [&i, &w, &c][k % 3][k].clone())
        .collect();
    vec![
        i.clone(),
        w.clone(),
        c.clone(),
        vec![i.join(" ")],
        vec![w.join(" ")],
        vec![c.join(" ")],
        vec![numbered(&c)],
        vec![numbered(&w)],
        vec![i.join(",")],
        mixed,
    ]
}

fn args(sub: &Sub, fen: Option<&str>, moves: &[String], extra: &[&str]) -> Vec<String> {
    let mut a: Vec<String> = sub.args.iter().map(|s| s.to_string()).collect();
    if let Some(f) = fen {
        a.extend(["--fen".to_string(), f.to_string()]);
    }
    if !moves.is_empty() {
        a.push("--moves".into());
        a.extend(moves.iter().cloned());
    }
    a.extend(extra.iter().map(|s| s.to_string()));
    a
}

fn key_of(sub: &Sub, a: &[String]) -> String {
    let o = qili(a);
    assert!(o.status.success(), "qili {a:?}:\n{}", text(&o));
    (sub.key)(&String::from_utf8_lossy(&o.stdout))
}

#[test]
fn every_notation_reaches_the_same_position_in_every_subcommand() {
    // From the start, and from a middle game given by FEN (two rooks and two
    // cannons, so that WXF and Chinese name pieces by file).
    let games: [(Option<&str>, &[&str]); 2] = [
        (None, &["h2e2", "h9g7", "h0g2", "i9h9"]),
        (
            Some("2bakab2/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1CN3NC1/9/R1BAKAB1R w - - 0 1"),
            &["a0a1", "c6c5", "a1d1", "b7b3"],
        ),
    ];
    for sub in &SUBS {
        for (fen, iccs) in games {
            let start = key_of(sub, &args(sub, fen, &[], &[]));
            let lists = move_lists(fen.unwrap_or(START_FEN), iccs);
            let want = key_of(sub, &args(sub, fen, &lists[0], &[]));
            assert_ne!(want, start, "{}: the moves changed nothing", sub.name);
            for moves in &lists[1..] {
                let got = key_of(sub, &args(sub, fen, moves, &[]));
                assert_eq!(got, want, "qili {} --moves {moves:?}", sub.name);
            }
        }
    }
}

#[test]
fn bad_positions_are_errors_in_every_subcommand() {
    // Three black advisors: a composed study, refused under --strict.
    let study = "3ak4/3a1a3/9/9/9/9/9/9/4A4/R3K4 w - - 0 1";
    let bad_move = ["h2e2".to_string(), "zz".to_string()];
    let illegal = ["h2h8".to_string()];
    for sub in &SUBS {
        let cases: [(Vec<String>, &str); 4] = [
            (args(sub, Some("not a fen"), &[], &[]), "bad FEN"),
            (args(sub, Some(study), &[], &["--strict"]), "--strict"),
            (args(sub, None, &bad_move, &[]), "move 2: 'zz'"),
            (args(sub, None, &illegal, &[]), "move 1: 'h2h8'"),
        ];
        for (a, what) in cases {
            let o = qili(&a);
            let t = text(&o);
            assert!(!o.status.success(), "qili {a:?} succeeded:\n{t}");
            let prefix = format!("qili {}: ", sub.name);
            let line = t.lines().find(|l| l.starts_with(&prefix));
            assert!(
                line.is_some_and(|l| l.contains(what)),
                "qili {a:?}: no '{prefix}…{what}…' in:\n{t}"
            );
        }
    }
}
