//! The reader thread: spawning the engine process and turning its stdout into
//! timestamped lines on a channel, each capped in length and decoded lossily.

use super::{EngineConfig, EngineError};
use std::io::{BufRead, BufReader, Read};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::Instant;

pub(super) enum Event {
    Line(String, Instant),
    Eof,
}

const MAX_LINE: usize = 1 << 16;

pub(super) fn spawn(
    cfg: &EngineConfig,
) -> Result<(Child, ChildStdin, Receiver<Event>), EngineError> {
    let mut cmd = Command::new(&cfg.argv[0]);
    cmd.args(&cfg.argv[1..])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(if cfg.debug {
            Stdio::inherit()
        } else {
            Stdio::null()
        });
    if let Some(d) = &cfg.dir {
        cmd.current_dir(d);
    }
    let mut child = cmd
        .spawn()
        .map_err(|e| EngineError::Spawn(format!("{}: {e}", cfg.argv[0])))?;
    let stdin = child
        .stdin
        .take()
        .ok_or(EngineError::Spawn("no stdin".into()))?;
    let stdout = child
        .stdout
        .take()
        .ok_or(EngineError::Spawn("no stdout".into()))?;
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        let mut r = BufReader::new(stdout);
        let mut buf = Vec::new();
        loop {
            buf.clear();
            // At most MAX_LINE bytes per line; the rest of an overlong line is dropped.
            match r.by_ref().take(MAX_LINE as u64).read_until(b'\n', &mut buf) {
                Ok(0) | Err(_) => {
                    let _ = tx.send(Event::Eof);
                    return;
                }
                Ok(_) => {
                    if buf.last() != Some(&b'\n') && buf.len() >= MAX_LINE {
                        let mut skip = Vec::new();
                        if r.read_until(b'\n', &mut skip).is_err() {
                            let _ = tx.send(Event::Eof);
                            return;
                        }
                    }
                    let line = String::from_utf8_lossy(&buf).trim().to_string();
                    if tx.send(Event::Line(line, Instant::now())).is_err() {
                        return;
                    }
                }
            }
        }
    });
    Ok((child, stdin, rx))
}
