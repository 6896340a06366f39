//! Drive the real `qili` binary through pipes: send lines, wait for lines.
#![allow(dead_code)]

pub mod cecp;
pub mod cli;

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

pub use rules::Position;

/// Generous: the test box has 2 shared cores.
pub const SLOW: Duration = Duration::from_secs(20);

pub struct Qili {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<(Instant, String)>,
    /// Everything the engine said, for failure messages.
    pub transcript: Vec<String>,
}

impl Qili {
    pub fn start() -> Qili {
        let mut child = Command::new(env!("CARGO_BIN_EXE_qili"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start qili");
        let stdout = child.stdout.take().expect("stdout");
        let stdin = child.stdin.take();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send((Instant::now(), line)).is_err() {
                    break;
                }
            }
        });
        Qili {
            child,
            stdin,
            lines: rx,
            transcript: Vec::new(),
        }
    }

    /// Start and shake hands in a dialect ("ucci" or "uci"), with a small hash.
    pub fn handshake(greeting: &str) -> Qili {
        let mut q = Qili::start();
        q.send(greeting);
        q.expect(&format!("{greeting}ok"));
        if greeting == "ucci" {
            q.send("setoption hashsize 16");
        } else {
            q.send("setoption name Hash value 16");
        }
        q.ready();
        q
    }

    pub fn send(&mut self, line: &str) {
        self.send_raw(format!("{line}\n").as_bytes());
    }

    pub fn send_raw(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).expect("write to qili");
        stdin.flush().expect("flush");
    }

    pub fn close_stdin(&mut self) {
        self.stdin = None;
    }

    /// Next line within `timeout`, or None.
    pub fn next_line(&mut self, timeout: Duration) -> Option<(Instant, String)> {
        match self.lines.recv_timeout(timeout) {
            Ok((t, l)) => {
                self.transcript.push(l.clone());
                Some((t, l))
            }
            Err(RecvTimeoutError::Timeout) | Err(RecvTimeoutError::Disconnected) => None,
        }
    }

    /// Wait for a line satisfying `pred`; returns it and when it arrived.
    pub fn wait_for(
        &mut self,
        what: &str,
        timeout: Duration,
        pred: impl Fn(&str) -> bool,
    ) -> (Instant, String) {
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.next_line(left) {
                Some((t, l)) if pred(&l) => return (t, l),
                Some(_) => {}
                None => panic!(
                    "no {what} within {timeout:?}; transcript:\n{}",
                    self.transcript.join("\n")
                ),
            }
        }
    }

    /// Wait for the exact line.
    pub fn expect(&mut self, exact: &str) -> Instant {
        self.wait_for(exact, SLOW, |l| l == exact).0
    }

    pub fn expect_prefix(&mut self, prefix: &str) -> String {
        self.wait_for(prefix, SLOW, |l| l.starts_with(prefix)).1
    }

    pub fn ready(&mut self) {
        self.send("isready");
        self.expect("readyok");
    }

    /// The next `bestmove`/`nobestmove` line, and every line before it.
    pub fn answer(&mut self, timeout: Duration) -> (String, Vec<String>) {
        let start = self.transcript.len();
        let (_, l) = self.wait_for("bestmove", timeout, |l| {
            l.starts_with("bestmove") || l == "nobestmove"
        });
        let before = self.transcript[start..self.transcript.len() - 1].to_vec();
        (l, before)
    }

    /// Lines that arrive within `d` (used to check that nothing arrives).
    pub fn drain_for(&mut self, d: Duration) -> Vec<String> {
        let deadline = Instant::now() + d;
        let mut v = Vec::new();
        while let Some((_, l)) = self.next_line(deadline.saturating_duration_since(Instant::now()))
        {
            v.push(l);
        }
        v
    }

    /// Wait for the process to end; its exit status code.
    pub fn wait_exit(&mut self, timeout: Duration) -> Option<i32> {
        let deadline = Instant::now() + timeout;
        while Instant::now() < deadline {
            if let Ok(Some(status)) = self.child.try_wait() {
                return status.code();
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        None
    }
}

impl Drop for Qili {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

/// The move of a `bestmove` line (None for `nobestmove` / `bestmove (none)`).
pub fn best_of(line: &str) -> Option<String> {
    let mut w = line.split_whitespace();
    match (w.next(), w.next()) {
        (Some("bestmove"), Some(m)) if m != "(none)" => Some(m.to_string()),
        _ => None,
    }
}

/// The position after `moves` from the start, and whether `mv` is legal there.
pub fn legal_after(fen: Option<&str>, moves: &[&str], mv: &str) -> bool {
    let mut pos = match fen {
        Some(f) => Position::from_fen(f).expect("test FEN"),
        None => Position::startpos(),
    };
    for m in moves {
        let m = pos.parse_move(m).expect("test move");
        pos.make_move(m);
    }
    pos.parse_move(mv).is_ok()
}
