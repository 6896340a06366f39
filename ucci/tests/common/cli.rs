//! Running `qili` once as a command-line program, shared by the subcommand tests.

use std::ffi::OsStr;
use std::process::{Command, Output};

/// Run the binary with `args` to its end.
pub fn qili<S: AsRef<OsStr>>(args: &[S]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_qili"))
        .args(args)
        .output()
        .expect("run qili")
}

/// What it printed, standard output then standard error.
pub fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// A path in the temporary folder, unique to this test process and `name`.
pub fn temp_path(name: &str) -> String {
    let p = std::env::temp_dir().join(format!("qili-cli-{}-{name}", std::process::id()));
    p.to_str().expect("a UTF-8 temporary folder").to_string()
}

/// Assert that the run failed with a line of standard error (or output) that starts
/// with `prefix`, e.g. `qili bench: --net: `.
pub fn assert_fails_with(o: &Output, prefix: &str) {
    let t = text(o);
    assert!(!o.status.success(), "succeeded, expected {prefix}…: {t}");
    assert!(
        t.lines().any(|l| l.starts_with(prefix)),
        "expected {prefix}…: {t}"
    );
}
