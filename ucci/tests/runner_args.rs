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

/// `spsa --log` writes a header naming the run, then one line per iteration; a
/// second run on the same log is refused unless it is `--resume`, which continues
/// from the last whole line (dropping a line cut by a kill) and, at fixed nodes,
/// writes what the uninterrupted run wrote.
#[cfg(feature = "dev-tools")]
#[test]
fn spsa_resumes_from_its_log() {
    let log = temp("spsa.log");
    let _ = std::fs::remove_file(&log);
    let qili_bin = env!("CARGO_BIN_EXE_qili");
    let spsa = |iterations: &str, extra: &[&str]| {
        let mut a = vec![
            "spsa",
            "--engine",
            qili_bin,
            "--iterations",
            iterations,
            "--params",
            "lmr_base,rfp_margin",
            "--nodes",
            "200",
            "--log",
            &log,
        ];
        a.extend_from_slice(extra);
        qili(&a)
    };
    let o = spsa("3", &[]);
    assert!(o.status.success(), "{}", text(&o));
    let full = std::fs::read_to_string(&log).unwrap();
    let lines: Vec<&str> = full.lines().collect();
    assert_eq!(lines.len(), 5, "{full}");
    assert!(lines[0].starts_with("# qili spsa iterations=3 "), "{full}");
    assert!(lines[0].contains(" nodes=200 "), "{full}");
    assert_eq!(lines[1], "# k result lmr_base rfp_margin");
    assert!(lines[4].starts_with("3 "), "{full}");

    let o = spsa("3", &[]);
    assert_fails_with(
        &o,
        &format!("qili spsa: {log} already holds a run: --resume"),
    );
    assert_eq!(
        std::fs::read_to_string(&log).unwrap(),
        full,
        "log unchanged"
    );

    // Killed while writing the second iteration's line.
    let cut = format!("{}\n{}\n{}\n2 +1 4", lines[0], lines[1], lines[2]);
    std::fs::write(&log, &cut).unwrap();
    let o = spsa("3", &["--resume"]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(
        text(&o).contains("resuming after iteration 1 of 3"),
        "{}",
        text(&o)
    );
    assert_eq!(std::fs::read_to_string(&log).unwrap(), full);

    // Other settings: refused, the log unchanged.
    let o = spsa("4", &["--resume"]);
    assert_fails_with(
        &o,
        &format!("qili spsa: --resume: {log}: the log is of another run"),
    );
    assert_eq!(std::fs::read_to_string(&log).unwrap(), full);
    let _ = std::fs::remove_file(log);
}
