//! The developer tools are in the `qili` binary exactly when the `dev-tools` feature
//! is on. The binary and this test are built in one invocation with the same
//! features, so each build checks its own side: `cargo test -p qili` (what a GUI
//! user's `cargo build --release` makes) that the tools and the trainer's code are
//! absent, `cargo test --all-features` that they are present, which also shows that
//! the absence checks look for things that would be there.

mod common;
use common::cli::{qili, text};

/// The developer subcommands.
const TOOLS: [&str; 6] = ["datagen", "data", "train", "tune-hce", "spsa", "fit-wdl"];

/// What every build offers.
const USER_COMMANDS: [&str; 9] = [
    "perft", "judge", "bench", "analyze", "match", "book", "mate", "suite", "timeplan",
];

/// Source paths that the trainer's and the Texel tuner's code carry into a binary
/// that links it (in its panic locations).
const TRAINING_SOURCES: [&str; 2] = ["nets/src/train", "engine/src/eval/tune"];

/// The subcommands `qili --help` lists.
fn listed_commands() -> Vec<String> {
    let o = qili(&["--help"]);
    assert!(o.status.success(), "{}", text(&o));
    String::from_utf8_lossy(&o.stdout)
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next().map(str::to_string))
        .collect()
}

fn binary_holds(needle: &str) -> bool {
    let bytes = std::fs::read(env!("CARGO_BIN_EXE_qili")).expect("read the qili binary");
    bytes.windows(needle.len()).any(|w| w == needle.as_bytes())
}

#[test]
fn every_build_offers_the_user_commands() {
    let listed = listed_commands();
    for c in USER_COMMANDS {
        assert!(listed.iter().any(|l| l == c), "{c} missing from {listed:?}");
    }
}

#[test]
#[cfg(not(feature = "dev-tools"))]
fn the_default_build_has_no_developer_tools() {
    let listed = listed_commands();
    for tool in TOOLS {
        assert!(!listed.iter().any(|l| l == tool), "{tool} in {listed:?}");
        let o = qili(&[tool, "--help"]);
        assert!(!o.status.success(), "qili {tool}: {}", text(&o));
        assert!(
            text(&o).contains(&format!("unrecognized subcommand '{tool}'")),
            "{}",
            text(&o)
        );
    }
    let o = qili(&["book", "build", "--selfplay", "--out", "/nonexistent/x"]);
    assert!(!o.status.success());
    assert!(
        text(&o).contains("unexpected argument '--selfplay'"),
        "{}",
        text(&o)
    );
    // Where the tools went, for whoever looks for them.
    let help = text(&qili(&["--help"]));
    assert!(help.contains("--features qili/dev-tools"), "{help}");
    for source in TRAINING_SOURCES {
        assert!(!binary_holds(source), "the qili binary links {source}");
    }
}

#[test]
#[cfg(feature = "dev-tools")]
fn the_developer_build_has_them() {
    let listed = listed_commands();
    for tool in TOOLS {
        assert!(listed.iter().any(|l| l == tool), "{tool} not in {listed:?}");
        let o = qili(&[tool, "--help"]);
        assert!(o.status.success(), "qili {tool}: {}", text(&o));
    }
    let o = qili(&["book", "build", "--help"]);
    assert!(text(&o).contains("--selfplay"), "{}", text(&o));
    for source in TRAINING_SOURCES {
        assert!(binary_holds(source), "no {source} in the developer build");
    }
}
