//! Move notation: ICCS coordinates (`h2e2`), WXF (`C2.5`, `H8+7`) and Chinese
//! vertical notation (`炮二平五`, `马８进７`), printed and parsed.
//!
//! Both vertical notations name a move the same way: which piece (by kind and the
//! file it stands on, or by its place among like pieces on one file), which way it
//! goes (进 `+` forward, 退 `-` back, 平 `.` sideways) and a number (a file, or a step
//! count for pieces moving straight along a file). Files are counted 1–9 from the
//! mover's right: for Red file `i` is 1, for Black file `a` is 1.
//!
//! Printing describes the move (`describe`); parsing reads the text into a `Spec`
//! and keeps the legal moves whose description the spec fits. Exactly one must fit,
//! so a parsed move is always legal, and an ambiguous text is an error, never a guess.

mod chinese;
mod describe;
mod wxf;

pub use chinese::{parse_chinese, to_chinese};
pub use wxf::{parse_wxf, to_wxf};

use crate::movegen::MoveError;
use crate::position::Position;
use crate::types::Move;
use std::fmt;

/// Why a text is not a move here.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotationError {
    /// Nothing but white space.
    Empty,
    /// The text does not follow the notation's grammar; `reason` says where.
    Syntax { text: String, reason: &'static str },
    /// Well formed, but no legal move in the position fits it.
    NoSuchMove(String),
    /// Several legal moves fit the text (e.g. `炮二平五` with two cannons on file 二).
    Ambiguous { text: String, moves: Vec<Move> },
}

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotationError::Empty => write!(f, "empty move text"),
            NotationError::Syntax { text, reason } => {
                write!(f, "'{text}' is not a move: {reason}")
            }
            NotationError::NoSuchMove(t) => write!(f, "'{t}' names no legal move here"),
            NotationError::Ambiguous { text, moves } => {
                write!(f, "'{text}' fits {} legal moves:", moves.len())?;
                for m in moves {
                    write!(f, " {m}")?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for NotationError {}

/// Error texts keep at most this many characters of the input.
const ECHO_CHARS: usize = 24;

pub(crate) fn echo(s: &str) -> String {
    s.chars().take(ECHO_CHARS).collect()
}

/// The three notations this module reads and writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Notation {
    Iccs,
    Wxf,
    Chinese,
}

/// ICCS coordinates of a move (`h2e2`); the same as `Move::iccs`.
pub fn to_iccs(m: Move) -> String {
    m.iccs()
}

/// ICCS coordinates checked for legality; the same as `Position::parse_move` with
/// this module's error type.
pub fn parse_iccs(pos: &Position, s: &str) -> Result<Move, NotationError> {
    let t = s.trim();
    if t.is_empty() {
        return Err(NotationError::Empty);
    }
    pos.parse_move(t).map_err(|e| match e {
        MoveError::Syntax(_) => NotationError::Syntax {
            text: echo(t),
            reason: "not ICCS coordinates like h2e2",
        },
        MoveError::Illegal(_) => NotationError::NoSuchMove(echo(t)),
    })
}

/// Print a legal move in the chosen notation.
pub fn format_move(pos: &Position, m: Move, notation: Notation) -> String {
    match notation {
        Notation::Iccs => m.iccs(),
        Notation::Wxf => to_wxf(pos, m),
        Notation::Chinese => to_chinese(pos, m),
    }
}

/// Print a sequence of moves played from `pos`, each in the position before it.
/// Printing stops being notation at the first move that is not legal: that move
/// and the rest are printed as ICCS coordinates.
pub fn format_line(pos: &Position, moves: &[Move], notation: Notation) -> Vec<String> {
    let mut p = pos.clone();
    let mut out = Vec::with_capacity(moves.len());
    let mut legal = true;
    for &m in moves {
        legal = legal && p.is_legal(m);
        if legal {
            out.push(format_move(&p, m, notation));
            p.make_move(m);
        } else {
            out.push(m.iccs());
        }
    }
    out
}

/// Read a game line such as `1. 炮二平五 马８进７ 2. 马二进三` or `h2e2 h9g7`: move
/// texts in any notation separated by white space, move numbers (`1.`, `12...`,
/// `3、`) skipped. Each move is read in the position after the ones before it. On
/// failure, the index of the offending move and why.
pub fn parse_line(pos: &Position, text: &str) -> Result<Vec<Move>, (usize, NotationError)> {
    let mut p = pos.clone();
    let mut out = Vec::new();
    for token in text.split_whitespace() {
        let digits = token.trim_start_matches(|c: char| c.is_ascii_digit());
        let is_number = digits.len() < token.len()
            && digits.chars().all(|c| matches!(c, '.' | '、' | ')' | '．'));
        if is_number {
            continue;
        }
        let m = parse_any(&p, token).map_err(|e| (out.len(), e))?;
        p.make_move(m);
        out.push(m);
    }
    Ok(out)
}

/// Read a move in whichever notation the text is in: ICCS, WXF (ASCII) or Chinese.
/// For text that is neither ICCS nor WXF the Chinese parser's error is returned.
pub fn parse_any(pos: &Position, s: &str) -> Result<Move, NotationError> {
    let t = s.trim();
    if t.is_empty() {
        return Err(NotationError::Empty);
    }
    if t.is_ascii() {
        if let Some(m) = Move::parse_iccs(t) {
            return if pos.is_legal(m) {
                Ok(m)
            } else {
                Err(NotationError::NoSuchMove(echo(t)))
            };
        }
        // ASCII text may still be Chinese notation with ASCII digits only if it has
        // a piece name, which ASCII lacks: so it is WXF or nothing.
        return parse_wxf(pos, t);
    }
    parse_chinese(pos, t)
}
