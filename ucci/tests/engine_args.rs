//! `--net`, `--hash` and `--threads` mean the same in every subcommand that runs
//! Qili's search (analyze, bench, book build; datagen without `--threads`), and a
//! bad net is a `qili SUBCOMMAND: --net: …` error with a failing exit code.

mod common;
use common::cli::{assert_fails_with, qili, temp_path as temp, text};

/// Each subcommand with arguments that make it quick, by its name in errors.
fn subcommands(pgn: &str, out: &str) -> Vec<(&'static str, Vec<String>)> {
    let owned = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    vec![
        ("analyze", owned(&["analyze", "--depth", "2"])),
        ("bench", owned(&["bench", "1"])),
        (
            "book",
            owned(&[
                "book",
                "build",
                "--pgn",
                pgn,
                "--out",
                out,
                "--min-games",
                "1",
                "--plies",
                "2",
                "--rescore-nodes",
                "200",
            ]),
        ),
    ]
}

#[test]
fn engine_arguments_are_shared() {
    let (pgn, out) = (temp("g.pgn"), temp("b.qbook"));
    std::fs::write(&pgn, "1. h2e2 h9g7 1-0\n\n1. h2e2 b9c7 0-1\n").unwrap();
    for (name, args) in subcommands(&pgn, &out) {
        let run = |extra: &[&str]| {
            let mut a: Vec<&str> = args.iter().map(String::as_str).collect();
            a.extend_from_slice(extra);
            qili(&a)
        };
        let o = run(&["--net", "<hce>", "--hash", "2", "--threads", "2"]);
        assert!(o.status.success(), "qili {name}: {}", text(&o));
        let o = run(&["--net", "/nonexistent/x.nnue"]);
        assert_fails_with(&o, &format!("qili {name}: --net: "));
    }
    // `--jobs`, book build's old name of its worker count, still works.
    let (_, args) = subcommands(&pgn, &out).remove(2);
    let mut a: Vec<&str> = args.iter().map(String::as_str).collect();
    a.extend_from_slice(&["--jobs", "2"]);
    let o = qili(&a);
    assert!(o.status.success(), "{}", text(&o));
    let _ = std::fs::remove_file(pgn);
    let _ = std::fs::remove_file(out);
}

/// Datagen takes the shared `--net` and `--hash` but no `--threads` (one search
/// thread per game).
#[cfg(feature = "dev-tools")]
#[test]
fn datagen_takes_net_and_hash_but_no_threads() {
    let out = temp("d.bin");
    let args = [
        "datagen",
        "--games",
        "1",
        "--nodes",
        "50",
        "--max-plies",
        "6",
        "--out",
        &out,
    ];
    let run = |extra: &[&str]| {
        let mut a = args.to_vec();
        a.extend_from_slice(extra);
        qili(&a)
    };
    let o = run(&["--net", "<hce>", "--hash", "2"]);
    assert!(o.status.success(), "{}", text(&o));
    assert_fails_with(
        &run(&["--net", "/nonexistent/x.nnue"]),
        "qili datagen: --net: ",
    );
    let o = run(&["--threads", "2"]);
    assert!(!o.status.success(), "datagen accepted --threads");
    let _ = std::fs::remove_file(&out);
    let _ = std::fs::remove_file(format!("{out}.games"));
}
