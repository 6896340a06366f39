//! Starting an engine: the handshake (detecting the protocol if not given), the
//! options, a warning for each option it refuses, and the probe of its rank
//! numbering.

use super::reader::spawn;
use super::{Engine, EngineConfig, EngineError, Protocol, ProtocolChoice};
use crate::notation::{read_engine_move, MoveProblem, RankBase};
use std::time::Instant;

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
