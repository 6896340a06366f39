//! `--nodes`, `--concurrency` and `--openings` mean the same in the subcommands that
//! run the match runner (`match`; `spsa` in the developer build): the openings are
//! read by one loader, whose errors name the file, and a run at fixed nodes plays.

mod common;
use common::cli::{assert_fails_with, qili, temp_path as temp, text};

/// Each subcommand with arguments that make it quick, by its name in errors.
fn subcommands() -> Vec<(&'static str, Vec<&'static str>)> {
    let qili = env!("CARGO_BIN_EXE_qili");
    let mut v = vec![(
        "match",
        vec!["match", "--engine", qili, "--engine", qili, "--games", "2"],
    )];
    if cfg!(feature = "dev-tools") {
        v.push((
            "spsa",
            vec![
                "spsa",
                "--engine",
                qili,
                "--iterations",
                "1",
                "--params",
                "lmr_base",
            ],
        ));
    }
    v
}

#[test]
fn runner_arguments_are_shared() {
    let openings = temp("openings.txt");
    std::fs::write(&openings, "h2e2 h9g7\nb2e2\n").unwrap();
    for (name, args) in subcommands() {
        let run = |extra: &[&str]| {
            let mut a = args.clone();
            a.extend_from_slice(extra);
            qili(&a)
        };
        let quick = [
            "--nodes",
            "200",
            "--concurrency",
            "2",
            "--openings",
            &openings,
        ];
        let o = run(&quick);
        assert!(o.status.success(), "qili {name}: {}", text(&o));
        let o = run(&["--nodes", "200", "--openings", "/nonexistent/o.txt"]);
        assert_fails_with(&o, &format!("qili {name}: /nonexistent/o.txt: "));
    }
    let _ = std::fs::remove_file(openings);
}

/// `spsa --log` adds to the file, as `match --pgn` does (one opener, `bench::open_append`).
#[cfg(feature = "dev-tools")]
#[test]
fn spsa_log_is_appended() {
    let log = temp("spsa.log");
    let _ = std::fs::remove_file(&log);
    let qili_bin = env!("CARGO_BIN_EXE_qili");
    for _ in 0..2 {
        let o = qili(&[
            "spsa",
            "--engine",
            qili_bin,
            "--iterations",
            "1",
            "--params",
            "lmr_base",
            "--nodes",
            "200",
            "--log",
            &log,
        ]);
        assert!(o.status.success(), "{}", text(&o));
    }
    let written = std::fs::read_to_string(&log).unwrap();
    assert_eq!(
        written.matches("# qili spsa: k result lmr_base").count(),
        2,
        "{written}"
    );
    assert_eq!(written.lines().count(), 4, "{written}");
    let _ = std::fs::remove_file(log);
}
