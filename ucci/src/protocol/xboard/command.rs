//! One CECP (XBoard/WinBoard protocol 2) line from the GUI, parsed into a
//! `Cmd`. The parser is pure and total: any string gives a command or a
//! `ParseError`, never a panic (fuzzed by `fuzz/fuzz_targets/xboard.rs`).
//!
//! Numbers are checked here so that the state machine only sees sane values;
//! whether a move or a FEN is legal is left to the game (it needs the position).

use crate::protocol::command::clip;
use rules::Move;
use std::fmt;

/// A GUI → engine command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Cmd {
    Xboard,
    Protover(u32),
    /// `accepted FEATURE` / `rejected FEATURE`: nothing to do either way, since
    /// every move form we read is accepted with or without `usermove`.
    Accepted(String),
    Rejected(String),
    New,
    Variant(String),
    SetBoard(String),
    /// `usermove MOVE`, or a bare move when `usermove` was not negotiated.
    UserMove(String),
    Go,
    Force,
    PlayOther,
    /// Old-style `white`/`black`: the engine plays the other colour.
    White,
    Black,
    Level(Level),
    /// `st SECONDS`: a fixed time per move, in milliseconds.
    St(u64),
    Sd(u32),
    /// `time N` (the engine's clock) and `otim N`, in centiseconds.
    Time(u64),
    Otim(u64),
    MoveNow,
    /// `result RESULT {COMMENT}`: the game is over.
    Result(String),
    /// `ping N`: answered with `pong N`, the token echoed as sent.
    Ping(String),
    Draw,
    /// Pondering on (`hard`) or off (`easy`).
    Ponder(bool),
    /// Thinking output on (`post`) or off (`nopost`).
    Post(bool),
    Analyze,
    Exit,
    /// `.`: the analysis status request.
    Dot,
    Undo,
    Remove,
    Hint,
    /// `option NAME=VALUE` (or `option NAME` for a button): an engine option
    /// the `feature option` lines announced.
    Option {
        name: String,
        value: Option<String>,
    },
    /// `memory N` (megabytes of hash) and `cores N` (search threads).
    Memory(u64),
    Cores(u64),
    Quit,
    /// Commands accepted and ignored: `random`, `computer`, `name`, `rating`,
    /// `ics`, `bk`, `nps`, `egtpath`, `pause`, `resume`, `easy`-like
    /// hints the engine has no use for. The word is kept for tests.
    Ignored(String),
}

impl Cmd {
    /// Commands answered at once even while a search runs: they change neither
    /// the game nor the engine (`post` reaches a running search by itself).
    pub fn changes_no_game(&self) -> bool {
        matches!(
            self,
            Cmd::Ping(_)
                | Cmd::Post(_)
                | Cmd::Time(_)
                | Cmd::Otim(_)
                | Cmd::Dot
                | Cmd::Draw
                | Cmd::Hint
                | Cmd::Accepted(_)
                | Cmd::Rejected(_)
                | Cmd::Ignored(_)
        )
    }
}

/// `level MPS BASE INC`: moves per session (0: the whole game), base time and
/// increment, both in milliseconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Level {
    pub mps: u32,
    pub base_ms: u64,
    pub inc_ms: u64,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseError {
    /// A blank line: nothing to answer.
    Empty,
    /// Not a command we know: `Error (unknown command): LINE`.
    Unknown(String),
    /// A known command with a missing or bad argument.
    BadArgument { command: String, why: String },
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::Empty => write!(f, "Error (empty command): "),
            ParseError::Unknown(line) => write!(f, "Error (unknown command): {line}"),
            ParseError::BadArgument { command, why } => {
                write!(f, "Error ({why}): {command}")
            }
        }
    }
}

/// Parse one line (without its newline; a trailing `\r` is blank like any other).
pub fn parse(line: &str) -> Result<Cmd, ParseError> {
    let line = line.trim();
    let (word, rest) = match line.split_once(|c: char| c.is_ascii_whitespace()) {
        Some((w, r)) => (w, r.trim()),
        None => (line, ""),
    };
    if word.is_empty() {
        return Err(ParseError::Empty);
    }
    let bad = |why: &str| ParseError::BadArgument {
        command: clip(line),
        why: why.to_string(),
    };
    let cmd = match word {
        "xboard" => Cmd::Xboard,
        "protover" => Cmd::Protover(number(rest).ok_or_else(|| bad("bad version"))?),
        "accepted" => Cmd::Accepted(rest.to_string()),
        "rejected" => Cmd::Rejected(rest.to_string()),
        "new" => Cmd::New,
        "variant" if !rest.is_empty() => Cmd::Variant(rest.to_string()),
        "setboard" if !rest.is_empty() => Cmd::SetBoard(rest.to_string()),
        "usermove" if !rest.is_empty() => Cmd::UserMove(rest.to_string()),
        "go" => Cmd::Go,
        "force" => Cmd::Force,
        "playother" => Cmd::PlayOther,
        "white" => Cmd::White,
        "black" => Cmd::Black,
        "level" => Cmd::Level(parse_level(rest).ok_or_else(|| bad("bad level"))?),
        "st" => Cmd::St(seconds_ms(rest).ok_or_else(|| bad("bad time"))?),
        "sd" => Cmd::Sd(number(rest).ok_or_else(|| bad("bad depth"))?),
        "time" => Cmd::Time(centis(rest).ok_or_else(|| bad("bad time"))?),
        "otim" => Cmd::Otim(centis(rest).ok_or_else(|| bad("bad time"))?),
        "?" => Cmd::MoveNow,
        "result" => Cmd::Result(rest.to_string()),
        "ping" => Cmd::Ping(rest.to_string()),
        "draw" => Cmd::Draw,
        "hard" => Cmd::Ponder(true),
        "easy" => Cmd::Ponder(false),
        "post" => Cmd::Post(true),
        "nopost" => Cmd::Post(false),
        "analyze" => Cmd::Analyze,
        "exit" => Cmd::Exit,
        "." => Cmd::Dot,
        "undo" => Cmd::Undo,
        "remove" => Cmd::Remove,
        "hint" => Cmd::Hint,
        "memory" => Cmd::Memory(number(rest).ok_or_else(|| bad("bad size"))?),
        "cores" => Cmd::Cores(number(rest).ok_or_else(|| bad("bad count"))?),
        "quit" => Cmd::Quit,
        "option" if !rest.is_empty() => {
            let (name, value) = match rest.split_once('=') {
                Some((n, v)) => (n.trim(), Some(v.trim().to_string())),
                None => (rest, None),
            };
            if name.is_empty() {
                return Err(bad("missing option name"));
            }
            Cmd::Option {
                name: name.to_string(),
                value,
            }
        }
        "random" | "computer" | "name" | "rating" | "ics" | "bk" | "nps" | "egtpath" | "pause"
        | "resume" => Cmd::Ignored(word.to_string()),
        // Without `usermove=1` accepted, a move comes alone on its line.
        _ if rest.is_empty() && Move::parse_iccs(word).is_some() => Cmd::UserMove(word.to_string()),
        "variant" | "setboard" | "usermove" | "option" => return Err(bad("missing argument")),
        _ => return Err(ParseError::Unknown(clip(line))),
    };
    Ok(cmd)
}

/// A whole non-negative number (the only argument on the line).
fn number<T: std::str::FromStr>(s: &str) -> Option<T> {
    s.parse().ok()
}

/// Centiseconds of `time`/`otim`. A flagged clock can go negative: count it
/// as empty rather than refusing the line.
fn centis(s: &str) -> Option<u64> {
    let v: i64 = s.parse().ok()?;
    Some(v.max(0) as u64)
}

/// Seconds, possibly with a fraction (`st 1.5`, an increment of `0.5`), in ms.
fn seconds_ms(s: &str) -> Option<u64> {
    let v: f64 = s.parse().ok()?;
    // Below a day of thinking per move there is nothing to refuse; NaN and
    // infinities are refused by the range check too.
    (0.0..=86_400_000.0)
        .contains(&v)
        .then(|| (v * 1000.0).round() as u64)
}

/// `MPS BASE INC`, BASE as minutes (`5`, `0.5`) or `min:sec` (`0:02`).
fn parse_level(s: &str) -> Option<Level> {
    let mut w = s.split_ascii_whitespace();
    let (mps, base, inc) = (w.next()?, w.next()?, w.next()?);
    if w.next().is_some() {
        return None;
    }
    let base_ms = match base.split_once(':') {
        Some((m, sec)) => {
            let m: u64 = m.parse().ok()?;
            let sec: u64 = sec.parse().ok()?;
            if sec >= 60 {
                return None;
            }
            m.checked_mul(60)?.checked_add(sec)?.checked_mul(1000)?
        }
        None => seconds_ms(base)?.checked_mul(60)?,
    };
    Some(Level {
        mps: mps.parse().ok()?,
        base_ms,
        inc_ms: seconds_ms(inc)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_and_arguments() {
        assert_eq!(parse("xboard\r"), Ok(Cmd::Xboard));
        assert_eq!(parse("protover 2"), Ok(Cmd::Protover(2)));
        assert_eq!(parse("usermove h2e2"), Ok(Cmd::UserMove("h2e2".into())));
        assert_eq!(parse("h2e2"), Ok(Cmd::UserMove("h2e2".into())));
        assert_eq!(parse("variant xiangqi"), Ok(Cmd::Variant("xiangqi".into())));
        let fen = "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w - - 0 1";
        assert_eq!(
            parse(&format!("setboard {fen}")),
            Ok(Cmd::SetBoard(fen.into()))
        );
        assert_eq!(parse("time 12345"), Ok(Cmd::Time(12345)));
        assert_eq!(parse("otim -20"), Ok(Cmd::Otim(0)));
        assert_eq!(parse("st 1.5"), Ok(Cmd::St(1500)));
        assert_eq!(parse("sd 3"), Ok(Cmd::Sd(3)));
        assert_eq!(parse("ping 7"), Ok(Cmd::Ping("7".into())));
        assert_eq!(parse("hard"), Ok(Cmd::Ponder(true)));
        assert_eq!(parse("nopost"), Ok(Cmd::Post(false)));
        assert_eq!(parse("memory 16"), Ok(Cmd::Memory(16)));
        assert_eq!(parse("cores 2"), Ok(Cmd::Cores(2)));
        assert_eq!(parse("name Someone Else"), Ok(Cmd::Ignored("name".into())));
        assert_eq!(
            parse("option Rules=cn"),
            Ok(Cmd::Option {
                name: "Rules".into(),
                value: Some("cn".into())
            })
        );
        assert_eq!(
            parse("option Clear Hash"),
            Ok(Cmd::Option {
                name: "Clear Hash".into(),
                value: None
            })
        );
        assert_eq!(
            parse("option BookFile=/a b/c=d.qbook"),
            Ok(Cmd::Option {
                name: "BookFile".into(),
                value: Some("/a b/c=d.qbook".into())
            })
        );
        assert!(matches!(
            parse("option =1"),
            Err(ParseError::BadArgument { .. })
        ));
        assert!(matches!(
            parse("option"),
            Err(ParseError::BadArgument { .. })
        ));
        assert_eq!(
            parse("result 1-0 {Black is mated}"),
            Ok(Cmd::Result("1-0 {Black is mated}".into()))
        );
    }

    #[test]
    fn levels() {
        let l = |mps, base_ms, inc_ms| {
            Ok(Cmd::Level(Level {
                mps,
                base_ms,
                inc_ms,
            }))
        };
        assert_eq!(parse("level 40 5 0"), l(40, 300_000, 0));
        assert_eq!(parse("level 0 0:02 0"), l(0, 2_000, 0));
        assert_eq!(parse("level 0 2:30 1.5"), l(0, 150_000, 1_500));
        assert_eq!(parse("level 0 0.5 0"), l(0, 30_000, 0));
        assert!(parse("level 0 1:75 0").is_err());
        assert!(parse("level 40 5").is_err());
        assert!(parse("level 40 5 0 9").is_err());
        assert!(parse("level -1 5 0").is_err());
    }

    #[test]
    fn errors() {
        assert_eq!(parse("   "), Err(ParseError::Empty));
        assert_eq!(
            parse("frobnicate now").map_err(|e| e.to_string()),
            Err("Error (unknown command): frobnicate now".to_string())
        );
        assert!(matches!(parse("sd x"), Err(ParseError::BadArgument { .. })));
        assert!(matches!(
            parse("usermove"),
            Err(ParseError::BadArgument { .. })
        ));
        assert!(matches!(
            parse("st NaN"),
            Err(ParseError::BadArgument { .. })
        ));
        assert!(matches!(
            parse("st inf"),
            Err(ParseError::BadArgument { .. })
        ));
        assert!(matches!(parse("h2e2 extra"), Err(ParseError::Unknown(_))));
    }

    #[test]
    fn total_on_odd_input() {
        // Any string: a command or an error, never a panic.
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let pieces = [
            "level",
            "st",
            "time",
            "otim",
            "sd",
            "ping",
            "usermove",
            "setboard",
            "variant",
            ":",
            "::",
            "1:",
            ":9",
            "-1",
            "1e400",
            "NaN",
            "0.0005",
            "99999999999999999999",
            "\u{fffd}",
            "é",
            "h2e2",
            "\t",
            " ",
            "\r",
            "protover",
            "memory",
            "cores",
            "option",
            "=",
            "?",
            ".",
        ];
        for _ in 0..20_000 {
            let mut line = String::new();
            for _ in 0..(seed % 5) {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                line += pieces[(seed % pieces.len() as u64) as usize];
                if seed & 1 == 0 {
                    line.push(' ');
                }
            }
            let _ = parse(&line);
        }
    }
}
