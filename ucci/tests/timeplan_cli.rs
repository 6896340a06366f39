//! `qili timeplan` plays a control out on a simulated clock, with the time
//! manager's parameters (`tm_*`) as the engine has them or as `--sp` sets them,
//! so that a tuned set is checked for time forfeits before it is played.

mod common;
use common::cli::{qili, text};

fn plan(extra: &[&str]) -> String {
    let mut args = vec!["timeplan", "--tc", "180+2", "--moves", "80"];
    args.extend_from_slice(extra);
    let o = qili(&args);
    assert!(o.status.success(), "{}", text(&o));
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// The table's "longest" column: every tenth search runs to its hard limit.
fn longest_ms(table: &str) -> Vec<String> {
    table
        .lines()
        .filter(|l| l.starts_with("| ") && l.contains('–'))
        .map(|l| l.split('|').nth(4).unwrap().trim().to_string())
        .collect()
}

#[test]
fn time_parameters_change_the_plan_and_bad_ones_are_named() {
    let default = plan(&[]);
    assert_eq!(default, plan(&["--sp", "tm_hard_ratio=4"]), "the default");
    let tight = plan(&["--sp", "tm_hard_ratio=2"]);
    assert_ne!(
        longest_ms(&default),
        longest_ms(&tight),
        "{default}\n{tight}"
    );
    assert_ne!(
        default,
        plan(&["--sp", "tm_stable=90", "--sp", "tm_max_horizon=40"])
    );
    for (sp, why) in [
        ("no_such=3", "no search parameter 'no_such'"),
        ("tm_stable=x", "not an integer"),
        ("tm_stable", "expected NAME=VALUE"),
    ] {
        let o = qili(&["timeplan", "--tc", "180+2", "--sp", sp]);
        assert!(
            !o.status.success() && text(&o).contains(why),
            "{sp}: {}",
            text(&o)
        );
    }
}
