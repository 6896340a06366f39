//! Driving one engine process over UCCI or UCI: spawn, handshake (detecting the
//! protocol if not given), options, `position`/`go`, reading the reply against a
//! deadline, `quit` with a kill after a timeout.
//!
//! A reader thread turns the engine's stdout into timestamped lines on a channel,
//! so every wait has a deadline and a silent, slow or dead engine never blocks the
//! runner. Lines are capped in length and decoded lossily: garbage cannot crash us.

use crate::notation::{parse_move_text, read_engine_move, MoveProblem, RankBase};
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// The protocol an engine speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    Ucci,
    Uci,
}

/// What the user asked for: a protocol, or detection by handshake.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum ProtocolChoice {
    #[default]
    Auto,
    Ucci,
    Uci,
}

/// How to start and set up one engine.
#[derive(Clone, Debug)]
pub struct EngineConfig {
    /// Name in the PGN and the summary (defaults to the `id name` or the command).
    pub name: Option<String>,
    /// Program and arguments.
    pub argv: Vec<String>,
    pub dir: Option<std::path::PathBuf>,
    pub protocol: ProtocolChoice,
    /// `setoption` pairs, sent after the handshake in this order.
    pub options: Vec<(String, String)>,
    /// Rank numbering the engine uses in move text.
    pub ranks: RankBase,
    pub handshake_timeout: Duration,
    pub quit_timeout: Duration,
    /// Echo the protocol traffic on stderr.
    pub debug: bool,
}

impl EngineConfig {
    pub fn new(command_line: &str) -> Result<EngineConfig, String> {
        let argv = split_command(command_line)?;
        if argv.is_empty() {
            return Err("empty engine command".into());
        }
        Ok(EngineConfig {
            name: None,
            argv,
            dir: None,
            protocol: ProtocolChoice::Auto,
            options: Vec::new(),
            ranks: RankBase::Zero,
            handshake_timeout: Duration::from_secs(10),
            quit_timeout: Duration::from_secs(2),
            debug: false,
        })
    }
}

/// Split a command line into words: whitespace separates, '…' and "…" quote, \ escapes.
pub fn split_command(s: &str) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut has = false;
    let mut quote: Option<char> = None;
    let mut it = s.chars();
    while let Some(c) = it.next() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some('"'), '\\') | (None, '\\') => {
                if let Some(n) = it.next() {
                    cur.push(n);
                }
            }
            (Some(_), c) => cur.push(c),
            (None, '"') | (None, '\'') => {
                quote = Some(c);
                has = true;
            }
            (None, c) if c.is_whitespace() => {
                if has || !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                    has = false;
                }
            }
            (None, c) => cur.push(c),
        }
    }
    if quote.is_some() {
        return Err(format!("unclosed quote in engine command: {s}"));
    }
    if has || !cur.is_empty() {
        out.push(cur);
    }
    Ok(out)
}

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

enum Event {
    Line(String, Instant),
    Eof,
}

/// The answer to one `go`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Reply {
    /// The move text after `bestmove`; `None` for `nobestmove` or `bestmove (none)`.
    pub bestmove: Option<String>,
    pub offers_draw: bool,
    pub resigns: bool,
    /// Last reported score (side to move's view; mate scores mapped to ±30000 − n).
    pub score: Option<i32>,
    pub depth: Option<u32>,
    /// Lines that were not part of the protocol.
    pub garbage: u32,
    /// A PV move that reads only in the other rank numbering (e.g. `a10a9` from an
    /// engine configured for ranks 0-9): the first such token.
    pub foreign_pv_move: Option<String>,
}

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

const MAX_LINE: usize = 1 << 16;

fn spawn(cfg: &EngineConfig) -> Result<(Child, ChildStdin, Receiver<Event>), EngineError> {
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

impl Engine {
    /// Start the engine, do the handshake and send the options.
    pub fn start(cfg: &EngineConfig) -> Result<Engine, EngineError> {
        let (child, stdin, rx) = spawn(cfg)?;
        let mut e = Engine {
            cfg: cfg.clone(),
            protocol: Protocol::Ucci,
            id_name: None,
            millis: false,
            child,
            stdin,
            rx,
            dead: false,
        };
        match cfg.protocol {
            ProtocolChoice::Ucci => e.handshake(Protocol::Ucci)?,
            ProtocolChoice::Uci => e.handshake(Protocol::Uci)?,
            ProtocolChoice::Auto => {
                if e.handshake(Protocol::Ucci).is_err() {
                    // Not UCCI: an engine that rejected `ucci` may still be waiting
                    // for `uci`; one that exited on it is started again.
                    if e.dead || e.child.try_wait().ok().flatten().is_some() {
                        e.kill();
                        let (child, stdin, rx) = spawn(cfg)?;
                        e.child = child;
                        e.stdin = stdin;
                        e.rx = rx;
                        e.dead = false;
                    }
                    e.handshake(Protocol::Uci)?;
                }
            }
        }
        if e.protocol == Protocol::Ucci && e.millis {
            e.send("setoption usemillisec true")?;
        }
        for (n, v) in cfg.options.clone() {
            match e.protocol {
                Protocol::Ucci => e.send(&format!("setoption {n} {v}"))?,
                Protocol::Uci => e.send(&format!("setoption name {n} value {v}"))?,
            }
        }
        // An option the engine refuses would make the match measure something
        // else than asked: say so (once per engine and line).
        for l in e.sync(cfg.handshake_timeout)? {
            if refuses_option(&l) {
                warn_once(&format!("{}: {l}", e.display_name()));
            }
        }
        // UCCI fixes ranks 0-9; the UCI dialects differ, so check those (and any
        // engine declared 1-10).
        if e.protocol == Protocol::Uci || cfg.ranks == RankBase::One {
            e.probe_rank_numbering()?;
        }
        Ok(e)
    }

    /// Ask for a depth-1 move from the start position, where the two rank numberings
    /// cannot be confused (no legal Red move reads as a legal move the other way), and
    /// stop with a clear error if the engine uses the other one.
    fn probe_rank_numbering(&mut self) -> Result<(), EngineError> {
        let start = rules::Position::startpos();
        let setup = ["position fen ".to_string() + rules::START_FEN];
        let deadline = Instant::now() + self.cfg.handshake_timeout;
        let reply = match self.think(&setup, "go depth 1", deadline) {
            Ok((r, _)) => r,
            Err(EngineError::Timeout) => {
                return Err(EngineError::Probe(format!(
                    "no move to `go depth 1` from the start position within {:.1} s",
                    self.cfg.handshake_timeout.as_secs_f64()
                )))
            }
            Err(e) => return Err(e),
        };
        let problem = match (&reply.bestmove, &reply.foreign_pv_move) {
            (_, Some(pv)) => Some(pv.clone()),
            (Some(m), None) => match read_engine_move(&start, m, self.cfg.ranks) {
                Err(MoveProblem::WrongRankBase { text, .. }) => Some(text),
                _ => None,
            },
            _ => None,
        };
        match problem {
            None => Ok(()),
            Some(text) => {
                let p = MoveProblem::WrongRankBase {
                    text,
                    engine_uses: match self.cfg.ranks {
                        RankBase::Zero => RankBase::One,
                        RankBase::One => RankBase::Zero,
                    },
                };
                Err(EngineError::Probe(format!(
                    "from the start position it answered {p}"
                )))
            }
        }
    }

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

    fn handshake(&mut self, p: Protocol) -> Result<(), EngineError> {
        let (hello, ok) = match p {
            Protocol::Ucci => ("ucci", "ucciok"),
            Protocol::Uci => ("uci", "uciok"),
        };
        self.send(hello)?;
        let deadline = Instant::now() + self.cfg.handshake_timeout;
        loop {
            let line = match self.next_line(deadline) {
                Ok((l, _)) => l,
                Err(EngineError::Timeout) => return Err(EngineError::NoHandshake),
                Err(e) => return Err(e),
            };
            let t: Vec<&str> = line.split_whitespace().collect();
            match t.as_slice() {
                [w] if *w == ok => {
                    self.protocol = p;
                    return Ok(());
                }
                ["id", "name", rest @ ..] if !rest.is_empty() => {
                    self.id_name = Some(rest.join(" "))
                }
                ["option", "usemillisec", ..] if p == Protocol::Ucci => self.millis = true,
                // A UCI engine answering `ucci` with an error or with `uciok`: not UCCI.
                // (`id user unknown` and option texts are no error.)
                [w, ..]
                    if p == Protocol::Ucci
                        && (*w == "uciok"
                            || (*w != "id"
                                && *w != "option"
                                && line.to_ascii_lowercase().contains("unknown"))) =>
                {
                    return Err(EngineError::NoHandshake)
                }
                _ => {}
            }
        }
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

/// The first move after `pv` that is not a move in `base` but is one in the other
/// rank numbering.
fn foreign_pv_move(t: &[&str], base: RankBase) -> Option<String> {
    let other = match base {
        RankBase::Zero => RankBase::One,
        RankBase::One => RankBase::Zero,
    };
    let pv = t.iter().position(|w| *w == "pv")?;
    t[pv + 1..]
        .iter()
        .find(|w| parse_move_text(w, base).is_none() && parse_move_text(w, other).is_some())
        .map(|w| w.chars().take(16).collect())
}

fn parse_info(t: &[&str], reply: &mut Reply) {
    let mut i = 0;
    while i < t.len() {
        match t[i] {
            "depth" => {
                if let Some(d) = t.get(i + 1).and_then(|s| s.parse().ok()) {
                    reply.depth = Some(d);
                }
                i += 2;
            }
            "score" => {
                // UCCI: `score v`; UCI: `score cp v` / `score mate n`.
                match (t.get(i + 1), t.get(i + 2)) {
                    (Some(&"cp"), Some(v)) => {
                        reply.score = v.parse().ok().or(reply.score);
                        i += 3;
                    }
                    (Some(&"mate"), Some(v)) => {
                        if let Ok(n) = v.parse::<i32>() {
                            reply.score = Some(if n >= 0 { 30000 - n } else { -30000 - n });
                        }
                        i += 3;
                    }
                    (Some(v), _) => {
                        reply.score = v.parse().ok().or(reply.score);
                        i += 2;
                    }
                    _ => i += 1,
                }
            }
            "pv" | "string" | "message" => return,
            _ => i += 1,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn command_splitting() {
        assert_eq!(split_command("a b  c").unwrap(), vec!["a", "b", "c"]);
        assert_eq!(
            split_command("'/x y/e' --opt \"a b\" \\\"q").unwrap(),
            vec!["/x y/e", "--opt", "a b", "\"q"]
        );
        assert_eq!(split_command("e ''").unwrap(), vec!["e", ""]);
        assert!(split_command("e 'x").is_err());
    }

    #[test]
    fn info_scores() {
        let mut r = Reply::default();
        parse_info(&["depth", "7", "score", "-35", "pv", "h2e2"], &mut r);
        assert_eq!((r.depth, r.score), (Some(7), Some(-35)));
        parse_info(&["depth", "8", "score", "cp", "12"], &mut r);
        assert_eq!(r.score, Some(12));
        parse_info(&["score", "mate", "-3"], &mut r);
        assert_eq!(r.score, Some(-29997));
        parse_info(&["score", "junk", "depth"], &mut r);
        assert_eq!(r.score, Some(-29997), "junk keeps the last good score");
        let pv = ["depth", "3", "pv", "h3e3", "a10a9"];
        assert_eq!(foreign_pv_move(&pv, RankBase::Zero), Some("a10a9".into()));
        assert_eq!(foreign_pv_move(&pv, RankBase::One), None);
        assert_eq!(
            foreign_pv_move(&["pv", "a0a1"], RankBase::One),
            Some("a0a1".into())
        );
    }
}

/// Does this engine line refuse an option (`info string error: no such option
/// …`, Stockfish's `No such option: …`, UCCI's `info message error: …`)?
fn refuses_option(line: &str) -> bool {
    let l = line.to_ascii_lowercase();
    l.contains("error") || l.contains("no such option") || l.contains("not supported")
}

/// Print `text` as a warning on standard error, the first time only.
fn warn_once(text: &str) {
    use std::collections::HashSet;
    use std::sync::{Mutex, OnceLock};
    static SEEN: OnceLock<Mutex<HashSet<String>>> = OnceLock::new();
    let seen = SEEN.get_or_init(|| Mutex::new(HashSet::new()));
    let mut seen = seen.lock().unwrap_or_else(|e| e.into_inner());
    if seen.insert(text.to_string()) {
        eprintln!("warning: {text}");
    }
}

#[cfg(test)]
mod option_refusal_tests {
    use super::refuses_option;

    #[test]
    fn refused_options_are_recognised() {
        assert!(refuses_option("info message error: no such option 'SP'"));
        assert!(refuses_option("No such option: Foo"));
        assert!(refuses_option(
            "info string option 'SyzygyPath' is not supported; ignored"
        ));
        assert!(!refuses_option("info string book move h2e2"));
    }
}
