//! A CECP (XBoard) client's helpers, shared by the CECP test files.

use super::Qili;
use std::time::Duration;

/// Start, choose CECP, negotiate, and set up a small-hash new xiangqi game.
pub fn cecp() -> Qili {
    let mut q = Qili::start();
    q.send("xboard");
    q.send("protover 2");
    q.expect("feature done=1");
    q.send("accepted usermove");
    q.send("memory 16");
    q.send("new");
    q.send("variant xiangqi");
    q
}

/// Wait until every earlier line has been handled; the lines said meanwhile.
pub fn sync(q: &mut Qili, n: u32) -> Vec<String> {
    let start = q.transcript.len();
    q.send(&format!("ping {n}"));
    q.expect(&format!("pong {n}"));
    q.transcript[start..q.transcript.len() - 1].to_vec()
}

pub fn engine_move(q: &mut Qili, timeout: Duration) -> String {
    let (_, l) = q.wait_for("move", timeout, |l| l.starts_with("move "));
    l["move ".len()..].to_string()
}

pub fn no_move(lines: &[String]) -> bool {
    !lines.iter().any(|l| l.starts_with("move "))
}
