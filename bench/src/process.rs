//! Driving one engine process over UCCI or UCI: spawn, handshake (detecting the
//! protocol if not given), options, `position`/`go`, reading the reply against a
//! deadline, `quit` with a kill after a timeout.
//!
//! A reader thread turns the engine's stdout into timestamped lines on a channel,
//! so every wait has a deadline and a silent, slow or dead engine never blocks the
//! runner. Lines are capped in length and decoded lossily: garbage cannot crash us.
//!
//! The configuration is in `config`, the reader thread in `reader`, start-up
//! (handshake, options, rank probe) in `startup`, and reading `info` and
//! `bestmove` lines in `reply`.

mod config;
mod reader;
mod reply;
mod startup;

pub use config::{split_command, EngineConfig, Protocol, ProtocolChoice};
pub use reply::Reply;

use reader::Event;
use reply::{foreign_pv_move, parse_info};
use std::io::Write;
use std::process::{Child, ChildStdin};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// Why talking to an engine failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineError {
    Spawn(String),
    /// No `ucciok`/`uciok` in time.
    NoHandshake,
    /// The process closed its output (crashed or exited).
    Exited,
    /// No answer before the deadline.
    Timeout,
    Write(String),
    /// The start-up probe failed: a move that reads only in the other rank numbering,
    /// or no move at all.
    Probe(String),
}

impl std::fmt::Display for EngineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EngineError::Spawn(e) => write!(f, "cannot start: {e}"),
            EngineError::NoHandshake => write!(f, "no ucciok/uciok answer to the handshake"),
            EngineError::Exited => write!(f, "the engine exited"),
            EngineError::Timeout => write!(f, "no answer in time"),
            EngineError::Write(e) => write!(f, "cannot write to the engine: {e}"),
            EngineError::Probe(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for EngineError {}

/// A running engine.
pub struct Engine {
    pub cfg: EngineConfig,
    pub protocol: Protocol,
    /// `id name`, if the engine sent one.
    pub id_name: Option<String>,
    /// UCCI only: the engine takes milliseconds (it advertised `usemillisec`).
    pub millis: bool,
    child: Child,
    stdin: ChildStdin,
    rx: Receiver<Event>,
    dead: bool,
}

impl Engine {
    /// The name to show: the configured name, the engine's `id name`, or the program.
    pub fn display_name(&self) -> String {
        if let Some(n) = &self.cfg.name {
            return n.clone();
        }
        if let Some(n) = &self.id_name {
            return n.clone();
        }
        std::path::Path::new(&self.cfg.argv[0])
            .file_name()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| self.cfg.argv[0].clone())
    }

    /// `isready` → `readyok`, skipping anything else.
    /// `isready`, and wait for `readyok`; the lines said before it.
    pub fn sync(&mut self, timeout: Duration) -> Result<Vec<String>, EngineError> {
        self.send("isready")?;
        let deadline = Instant::now() + timeout;
        let mut said = Vec::new();
        loop {
            let (l, _) = self.next_line(deadline)?;
            if l == "readyok" {
                return Ok(said);
            }
            said.push(l);
        }
    }

    /// Tell the engine a new game starts, and wait until it is ready.
    pub fn new_game(&mut self) -> Result<(), EngineError> {
        match self.protocol {
            Protocol::Ucci => self.send("setoption newgame")?,
            Protocol::Uci => self.send("ucinewgame")?,
        }
        self.sync(self.cfg.handshake_timeout).map(|_| ())
    }

    pub fn send(&mut self, line: &str) -> Result<(), EngineError> {
        if self.cfg.debug {
            eprintln!("{} < {line}", self.display_name());
        }
        writeln!(self.stdin, "{line}")
            .and_then(|_| self.stdin.flush())
            .map_err(|e| EngineError::Write(e.to_string()))
    }

    fn next_line(&mut self, deadline: Instant) -> Result<(String, Instant), EngineError> {
        if self.dead {
            return Err(EngineError::Exited);
        }
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.rx.recv_timeout(wait) {
            Ok(Event::Line(l, t)) => {
                if self.cfg.debug {
                    eprintln!("{} > {l}", self.display_name());
                }
                Ok((l, t))
            }
            Ok(Event::Eof) | Err(RecvTimeoutError::Disconnected) => {
                self.dead = true;
                Err(EngineError::Exited)
            }
            Err(RecvTimeoutError::Timeout) => Err(EngineError::Timeout),
        }
    }

    /// Drop any output still queued (e.g. `info` after a late `bestmove`).
    pub fn drain(&mut self) {
        while let Ok(ev) = self.rx.try_recv() {
            if let Event::Eof = ev {
                self.dead = true;
            }
        }
    }

    /// Send the set-up lines (`position`, and `banmoves` if any) and `go`, and wait for
    /// the reply until `deadline`. Returns the reply and when its last line arrived.
    pub fn think(
        &mut self,
        setup: &[String],
        go: &str,
        deadline: Instant,
    ) -> Result<(Reply, Instant), EngineError> {
        self.drain();
        for line in setup {
            self.send(line)?;
        }
        self.send(go)?;
        let mut reply = Reply::default();
        loop {
            let (line, at) = self.next_line(deadline)?;
            let t: Vec<&str> = line.split_whitespace().collect();
            match t.as_slice() {
                ["info", rest @ ..] => {
                    parse_info(rest, &mut reply);
                    if reply.foreign_pv_move.is_none() {
                        reply.foreign_pv_move = foreign_pv_move(rest, self.cfg.ranks);
                    }
                }
                ["bestmove", rest @ ..] => {
                    match rest.first() {
                        Some(&"(none)") | None => reply.bestmove = None,
                        Some(m) => reply.bestmove = Some(m.to_string()),
                    }
                    reply.offers_draw = rest.contains(&"draw");
                    reply.resigns = rest.contains(&"resign");
                    return Ok((reply, at));
                }
                ["nobestmove", ..] => return Ok((reply, at)),
                [] => {}
                _ => reply.garbage += 1,
            }
        }
    }

    /// After a deadline passed: `stop`, and wait a little for the engine to become idle.
    /// Returns false if it did not answer (it should be restarted).
    pub fn stop_and_settle(&mut self, wait: Duration) -> bool {
        if self.send("stop").is_err() {
            return false;
        }
        let deadline = Instant::now() + wait;
        loop {
            match self.next_line(deadline) {
                Ok((l, _)) if l.starts_with("bestmove") || l.starts_with("nobestmove") => {
                    return true
                }
                Ok(_) => {}
                Err(_) => return false,
            }
        }
    }

    /// Is the process still alive?
    pub fn alive(&mut self) -> bool {
        !self.dead && matches!(self.child.try_wait(), Ok(None))
    }

    fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        self.dead = true;
    }

    /// `quit`, wait for the process to exit, and kill it after the quit timeout.
    pub fn quit(mut self) {
        self.shutdown();
    }

    fn shutdown(&mut self) {
        if matches!(self.child.try_wait(), Ok(Some(_))) {
            return;
        }
        let _ = self.send("quit");
        // The reader thread reports the end of the engine's output, which comes
        // when it exits: wait for that (draining what it still says), not by
        // polling the process.
        let deadline = Instant::now() + self.cfg.quit_timeout;
        while !self.dead {
            let wait = deadline.saturating_duration_since(Instant::now());
            match self.rx.recv_timeout(wait) {
                Ok(Event::Line(..)) => {}
                Ok(Event::Eof) | Err(RecvTimeoutError::Disconnected) => self.dead = true,
                Err(RecvTimeoutError::Timeout) => break,
            }
        }
        // Its output closed: the process is gone or going. Reap it; one that holds
        // on without output past the timeout is killed.
        while self.dead && Instant::now() < deadline {
            if matches!(self.child.try_wait(), Ok(Some(_))) {
                return;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        self.kill();
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.shutdown();
    }
}
