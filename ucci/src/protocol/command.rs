//! GUI → engine commands, parsed from one line into a typed `Command`.
//!
//! Pure and total: any byte string gives either a command or a `ParseError`,
//! never a panic (this is what `ucci/fuzz` hammers). Both dialects are parsed by
//! one grammar, because GUIs mix them (`setoption name X value Y` under UCCI);
//! the session decides what a command means in its dialect and state.

use std::fmt;

/// The longest line we look at. UCCI allows 8192 characters; a UCI game of 300
/// moves is about 1,600. Longer lines are refused whole, not truncated.
pub const MAX_LINE: usize = 64 * 1024;

/// Where a `position` (or `probe`) starts from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Base {
    Startpos,
    Fen(String),
}

/// A position as the GUI describes it: a base and the moves played from it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionSpec {
    pub base: Base,
    pub moves: Vec<String>,
}

/// The arguments of `go`, in both dialects. Times are as sent (the session
/// converts UCCI seconds when `usemillisec` is off).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoParams {
    pub ponder: bool,
    /// UCCI `go draw`: the opponent offers a draw.
    pub draw: bool,
    pub infinite: bool,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub movetime: Option<u64>,
    // UCCI: the side to move's clock and the opponent's.
    pub time: Option<u64>,
    pub increment: Option<u64>,
    pub movestogo: Option<u32>,
    pub opptime: Option<u64>,
    pub oppincrement: Option<u64>,
    pub oppmovestogo: Option<u32>,
    // UCI: clocks by colour.
    pub wtime: Option<u64>,
    pub btime: Option<u64>,
    pub winc: Option<u64>,
    pub binc: Option<u64>,
    pub searchmoves: Vec<String>,
    /// UCI `go mate n`: look for a mate in at most `n` moves.
    pub mate: Option<u32>,
    /// Problems found while parsing that did not stop the `go` (it must still be
    /// answered with a best move): unknown words, bad numbers.
    pub warnings: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Ucci,
    Uci,
    IsReady,
    /// `setoption name <words> [value <words>]` (UCI) or `setoption <name> [<value>]` (UCCI).
    SetOption {
        name: String,
        value: Option<String>,
    },
    Position(PositionSpec),
    BanMoves(Vec<String>),
    Go(GoParams),
    PonderHit {
        draw: bool,
    },
    Stop,
    /// UCCI `probe [position]`; without a position, the current one.
    Probe(Option<PositionSpec>),
    UciNewGame,
    /// UCI `debug on|off`.
    Debug(bool),
    /// `d`: show the position the engine holds (a board with Chinese glyphs).
    Display,
    /// `rulequery [MOVE…]`: for each named move (all legal moves when none is
    /// named), whether it completes a repetition and the ruling for the mover.
    RuleQuery(Vec<String>),
    /// `eval`: the static evaluation of the position held, with its parts.
    Eval,
    Quit,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseError {
    /// Nothing but white space: not an error to report, just skip it.
    Empty,
    TooLong(usize),
    Unknown(String),
    Missing {
        command: &'static str,
        what: &'static str,
    },
    BadValue {
        command: &'static str,
        what: String,
    },
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::Empty => write!(f, "empty line"),
            ParseError::TooLong(n) => write!(f, "line of {n} bytes is longer than {MAX_LINE}"),
            ParseError::Unknown(w) => write!(f, "unknown command '{w}'"),
            ParseError::Missing { command, what } => write!(f, "'{command}' needs {what}"),
            ParseError::BadValue { command, what } => write!(f, "'{command}': {what}"),
        }
    }
}

/// Cut user text short for messages, on a character boundary.
pub fn clip(s: &str) -> String {
    const N: usize = 40;
    if s.chars().count() <= N {
        s.to_string()
    } else {
        let mut t: String = s.chars().take(N).collect();
        t.push('…');
        t
    }
}

fn eq(a: &str, b: &str) -> bool {
    a.eq_ignore_ascii_case(b)
}

/// Parse one line (CR, LF and surrounding blanks are ignored).
pub fn parse(line: &str) -> Result<Command, ParseError> {
    if line.len() > MAX_LINE {
        return Err(ParseError::TooLong(line.len()));
    }
    let tokens: Vec<&str> = line.split_ascii_whitespace().collect();
    parse_tokens(&tokens)
}

/// Parse a command from its words.
pub fn parse_tokens(tokens: &[&str]) -> Result<Command, ParseError> {
    let Some((&head, rest)) = tokens.split_first() else {
        return Err(ParseError::Empty);
    };
    let head = head.to_ascii_lowercase();
    match (head.as_str(), rest) {
        ("ucci", _) => Ok(Command::Ucci),
        // Fairy-Stockfish's greeting for the Cyclone dialect: UCI with ICCS
        // squares, bare `fen`/`startpos` lines for positions.
        ("uci" | "ucicyclone", _) => Ok(Command::Uci),
        ("isready", _) => Ok(Command::IsReady),
        ("setoption", rest) => parse_setoption(rest),
        ("position", rest) => parse_position("position", rest).map(Command::Position),
        // Cyclone: the position without the word `position`.
        ("fen" | "startpos", _) => parse_position("position", tokens).map(Command::Position),
        ("banmoves", moves) => Ok(Command::BanMoves(
            moves.iter().map(|m| m.to_string()).collect(),
        )),
        ("go", rest) => Ok(Command::Go(parse_go(rest))),
        ("ponderhit", []) => Ok(Command::PonderHit { draw: false }),
        ("ponderhit", [w]) if eq(w, "draw") => Ok(Command::PonderHit { draw: true }),
        ("ponderhit", [w, ..]) => Err(ParseError::BadValue {
            command: "ponderhit",
            what: format!("unexpected '{}'", clip(w)),
        }),
        ("stop", _) => Ok(Command::Stop),
        ("probe", []) => Ok(Command::Probe(None)),
        ("probe", rest) => parse_position("probe", rest).map(|p| Command::Probe(Some(p))),
        ("ucinewgame", _) => Ok(Command::UciNewGame),
        ("debug", []) => Ok(Command::Debug(true)),
        ("debug", [w, ..]) if eq(w, "on") || eq(w, "true") => Ok(Command::Debug(true)),
        ("debug", [w, ..]) if eq(w, "off") || eq(w, "false") => Ok(Command::Debug(false)),
        ("debug", [w, ..]) => Err(ParseError::BadValue {
            command: "debug",
            what: format!("'{}' is not on or off", clip(w)),
        }),
        ("quit", _) => Ok(Command::Quit),
        ("d", []) => Ok(Command::Display),
        ("eval", []) => Ok(Command::Eval),
        ("rulequery", moves) => Ok(Command::RuleQuery(
            moves.iter().map(|m| m.to_string()).collect(),
        )),
        _ => Err(ParseError::Unknown(clip(tokens[0]))),
    }
}

/// Could this line be a position the GUI meant (an unknown or malformed line
/// that names a FEN, `startpos`, `moves`, or holds a move)? If so, the session
/// must not keep searching the position it held before.
pub fn may_be_position(line: &str) -> bool {
    const WORDS: [&str; 4] = ["position", "fen", "startpos", "moves"];
    line.split_ascii_whitespace().any(|w| {
        w.contains('/')
            || WORDS.iter().any(|k| eq(k, w))
            || rules::Move::parse_iccs(w).is_some()
            || looks_like_one_based_move(w)
    })
}

/// `h10e10`-style squares (ranks 1–10) that ICCS does not read.
fn looks_like_one_based_move(w: &str) -> bool {
    let b = w.as_bytes();
    (5..=6).contains(&b.len())
        && (b'a'..=b'i').contains(&b[0].to_ascii_lowercase())
        && b[1..].iter().filter(|c| c.is_ascii_alphabetic()).count() == 1
        && b[1..].iter().all(|c| c.is_ascii_alphanumeric())
}

fn parse_setoption(rest: &[&str]) -> Result<Command, ParseError> {
    let missing = ParseError::Missing {
        command: "setoption",
        what: "an option name",
    };
    match rest {
        [] => Err(missing),
        [kw, words @ ..] if eq(kw, "name") => {
            // UCI form: the name runs up to the word `value`.
            let split = words.iter().position(|w| eq(w, "value"));
            let (name, value) = match split {
                Some(i) => (&words[..i], Some(words[i + 1..].join(" "))),
                None => (words, None),
            };
            if name.is_empty() {
                return Err(missing);
            }
            Ok(Command::SetOption {
                name: name.join(" "),
                value,
            })
        }
        [name, words @ ..] => {
            // UCCI form: one word of name, the rest is the value (an optional
            // `value` keyword is tolerated).
            let words = match words {
                [kw, tail @ ..] if eq(kw, "value") => tail,
                _ => words,
            };
            let value = if words.is_empty() {
                None
            } else {
                Some(words.join(" "))
            };
            Ok(Command::SetOption {
                name: name.to_string(),
                value,
            })
        }
    }
}

fn parse_position(command: &'static str, rest: &[&str]) -> Result<PositionSpec, ParseError> {
    let split = rest.iter().position(|w| eq(w, "moves"));
    let (base_words, moves) = match split {
        Some(i) => (&rest[..i], &rest[i + 1..]),
        None => (rest, &[][..]),
    };
    let base = match base_words {
        [] => {
            return Err(ParseError::Missing {
                command,
                what: "'startpos' or 'fen <FEN>'",
            })
        }
        [w] if eq(w, "startpos") => Base::Startpos,
        [w, ..] if eq(w, "startpos") => {
            return Err(ParseError::BadValue {
                command,
                what: "words after 'startpos' before 'moves'".to_string(),
            })
        }
        [w] if eq(w, "fen") => {
            return Err(ParseError::Missing {
                command,
                what: "a FEN after 'fen'",
            })
        }
        [w, fen @ ..] if eq(w, "fen") => Base::Fen(fen.join(" ")),
        [w, ..] => {
            return Err(ParseError::BadValue {
                command,
                what: format!("'{}' is neither startpos nor fen", clip(w)),
            })
        }
    };
    Ok(PositionSpec {
        base,
        moves: moves.iter().map(|m| m.to_string()).collect(),
    })
}

fn parse_go(rest: &[&str]) -> GoParams {
    let mut go = GoParams::default();
    let mut i = 0;
    while i < rest.len() {
        let word = rest[i].to_ascii_lowercase();
        let arg = rest.get(i + 1).copied();
        i += 1;
        // Numbers: negative clocks (some GUIs send them when the flag has
        // fallen) count as zero; anything else unparsable is a warning.
        let mut number = |w: &str| -> Option<u64> {
            let Some(text) = arg else {
                go.warnings.push(format!("'{w}' needs a number"));
                return None;
            };
            i += 1;
            match text.parse::<i64>() {
                Ok(v) => Some(v.max(0) as u64),
                Err(_) => match text.parse::<f64>() {
                    Ok(v) if v.is_finite() => Some(v.max(0.0).min(u64::MAX as f64 / 2.0) as u64),
                    _ => {
                        go.warnings
                            .push(format!("'{w}': '{}' is not a number", clip(text)));
                        None
                    }
                },
            }
        };
        let small = |v: Option<u64>| v.map(|v| v.min(u32::MAX as u64) as u32);
        match word.as_str() {
            "ponder" => go.ponder = true,
            "draw" => go.draw = true,
            "infinite" => go.infinite = true,
            "depth" => go.depth = small(number("depth")),
            "nodes" => go.nodes = number("nodes"),
            "movetime" => go.movetime = number("movetime"),
            "time" => go.time = number("time"),
            "increment" => go.increment = number("increment"),
            "movestogo" => go.movestogo = small(number("movestogo")),
            "opptime" => go.opptime = number("opptime"),
            "oppincrement" => go.oppincrement = number("oppincrement"),
            "oppmovestogo" => go.oppmovestogo = small(number("oppmovestogo")),
            "wtime" => go.wtime = number("wtime"),
            "btime" => go.btime = number("btime"),
            "winc" => go.winc = number("winc"),
            "binc" => go.binc = number("binc"),
            "mate" => go.mate = small(number("mate")),
            "searchmoves" => {
                // Everything up to the next keyword is a move.
                while let Some(m) = rest.get(i) {
                    if is_go_keyword(m) {
                        break;
                    }
                    go.searchmoves.push(m.to_string());
                    i += 1;
                }
            }
            _ => go
                .warnings
                .push(format!("unknown go parameter '{}'", clip(rest[i - 1]))),
        }
    }
    go
}

fn is_go_keyword(w: &str) -> bool {
    const KEYWORDS: [&str; 19] = [
        "ponder",
        "draw",
        "infinite",
        "depth",
        "nodes",
        "movetime",
        "time",
        "increment",
        "movestogo",
        "opptime",
        "oppincrement",
        "oppmovestogo",
        "wtime",
        "btime",
        "winc",
        "binc",
        "mate",
        "searchmoves",
        "perft",
    ];
    KEYWORDS.iter().any(|k| eq(k, w))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn handshake_and_simple_commands() {
        assert_eq!(parse("ucci\r\n"), Ok(Command::Ucci));
        assert_eq!(parse("  UCI "), Ok(Command::Uci));
        assert_eq!(parse("isready"), Ok(Command::IsReady));
        assert_eq!(parse("stop"), Ok(Command::Stop));
        assert_eq!(parse("quit"), Ok(Command::Quit));
        assert_eq!(
            parse("ponderhit draw"),
            Ok(Command::PonderHit { draw: true })
        );
        assert_eq!(parse("ponderhit"), Ok(Command::PonderHit { draw: false }));
        assert!(matches!(
            parse("ponderhit now"),
            Err(ParseError::BadValue { .. })
        ));
        assert_eq!(parse(" \t\r"), Err(ParseError::Empty));
        assert_eq!(parse("fly away"), Err(ParseError::Unknown("fly".into())));
    }

    #[test]
    fn setoption_in_both_forms() {
        assert_eq!(
            parse("setoption name Move Overhead value 100"),
            Ok(Command::SetOption {
                name: "Move Overhead".into(),
                value: Some("100".into())
            })
        );
        assert_eq!(
            parse("setoption hashsize 64"),
            Ok(Command::SetOption {
                name: "hashsize".into(),
                value: Some("64".into())
            })
        );
        assert_eq!(
            parse("setoption newgame"),
            Ok(Command::SetOption {
                name: "newgame".into(),
                value: None
            })
        );
        assert_eq!(
            parse("setoption bookfiles a b.dat"),
            Ok(Command::SetOption {
                name: "bookfiles".into(),
                value: Some("a b.dat".into())
            })
        );
        assert_eq!(
            parse("SETOPTION NAME Clear Hash"),
            Ok(Command::SetOption {
                name: "Clear Hash".into(),
                value: None
            })
        );
        assert!(matches!(
            parse("setoption"),
            Err(ParseError::Missing { .. })
        ));
        assert!(matches!(
            parse("setoption name value 3"),
            Err(ParseError::Missing { .. })
        ));
    }

    #[test]
    fn positions() {
        assert_eq!(
            parse("position startpos moves h2e2 h9g7"),
            Ok(Command::Position(PositionSpec {
                base: Base::Startpos,
                moves: vec!["h2e2".into(), "h9g7".into()]
            }))
        );
        let fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
        assert_eq!(
            parse(&format!("position fen {fen}")),
            Ok(Command::Position(PositionSpec {
                base: Base::Fen(fen.into()),
                moves: vec![]
            }))
        );
        assert_eq!(
            parse("probe startpos moves b0c2"),
            Ok(Command::Probe(Some(PositionSpec {
                base: Base::Startpos,
                moves: vec!["b0c2".into()]
            })))
        );
        assert!(parse("position").is_err());
        assert!(parse("position fen").is_err());
        assert!(parse("position somewhere").is_err());
        assert!(parse("position startpos h2e2").is_err());
    }

    #[test]
    fn cyclone_positions_are_positions() {
        let fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
        assert_eq!(
            parse(&format!("fen {fen} moves h2e2")),
            Ok(Command::Position(PositionSpec {
                base: Base::Fen(fen.into()),
                moves: vec!["h2e2".into()]
            }))
        );
        assert_eq!(
            parse("startpos moves h2e2 h9g7"),
            Ok(Command::Position(PositionSpec {
                base: Base::Startpos,
                moves: vec!["h2e2".into(), "h9g7".into()]
            }))
        );
        assert_eq!(parse("STARTPOS"), parse("position startpos"));
        assert!(parse("fen").is_err());
        assert_eq!(parse("ucicyclone"), Ok(Command::Uci));
    }

    #[test]
    fn lines_that_may_be_positions() {
        for line in [
            "positon startpos",
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
            "h2e2 h9g7",
            "move b10c8",
            "FEN x",
            "usermove e3e4",
        ] {
            assert!(may_be_position(line), "{line}");
        }
        for line in [
            "hello world",
            "go depth 5",
            "isready",
            "xyzzy 12",
            "setoption name Hash",
        ] {
            assert!(!may_be_position(line), "{line}");
        }
    }

    #[test]
    fn go_in_both_dialects() {
        let Ok(Command::Go(g)) =
            parse("go draw time 60000 increment 2000 opptime 50000 oppincrement 2000")
        else {
            panic!()
        };
        assert!(g.draw && !g.ponder);
        assert_eq!(
            (g.time, g.increment, g.opptime),
            (Some(60000), Some(2000), Some(50000))
        );
        let Ok(Command::Go(g)) = parse("go ponder wtime 1000 btime -5 winc 10 binc 10 movestogo 3")
        else {
            panic!()
        };
        assert!(g.ponder);
        assert_eq!(
            (g.wtime, g.btime, g.movestogo),
            (Some(1000), Some(0), Some(3))
        );
        let Ok(Command::Go(g)) = parse("go searchmoves h2e2 b0c2 depth 5") else {
            panic!()
        };
        assert_eq!(g.searchmoves, vec!["h2e2", "b0c2"]);
        assert_eq!(g.depth, Some(5));
        assert!(g.warnings.is_empty());
        let Ok(Command::Go(g)) = parse("go depth x nodes 100 frobnicate infinite movetime") else {
            panic!()
        };
        assert_eq!((g.depth, g.nodes, g.infinite), (None, Some(100), true));
        assert_eq!(g.warnings.len(), 3, "{:?}", g.warnings);
        let Ok(Command::Go(g)) = parse("go mate 3 movetime 5000") else {
            panic!()
        };
        assert_eq!((g.mate, g.depth, g.movetime), (Some(3), None, Some(5000)));
        let Ok(Command::Go(g)) =
            parse("go wtime 9223372036854775807 winc 1e300 movestogo 99999999999")
        else {
            panic!()
        };
        assert_eq!(g.wtime, Some(i64::MAX as u64));
        assert!(g.winc.is_some() && g.movestogo == Some(u32::MAX));
        assert_eq!(parse("d"), Ok(Command::Display));
        assert_eq!(
            parse("RuleQuery h2e2 b0c2"),
            Ok(Command::RuleQuery(vec!["h2e2".into(), "b0c2".into()]))
        );
        assert_eq!(parse("rulequery"), Ok(Command::RuleQuery(vec![])));
        assert_eq!(parse("EVAL"), Ok(Command::Eval));
    }

    #[test]
    fn overlong_lines_are_refused() {
        let line = "position startpos moves".to_string() + &" h2e2".repeat(MAX_LINE / 5 + 1);
        assert!(matches!(parse(&line), Err(ParseError::TooLong(_))));
    }
}
