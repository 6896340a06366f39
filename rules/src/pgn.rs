//! PGN game records for xiangqi: tag pairs (with `Red`/`Black` for the players and
//! `FEN` for a set-up start), ICCS movetext, the result, and comments after moves.
//!
//! The writer emits the xqbase ICCS form (`H2-E2`, with a `Format "ICCS"` tag) that
//! xiangqi PGN viewers read; the reader accepts that form, the UCCI form (`h2e2`), WXF
//! (`C2.5`) and Chinese notation (`炮二平五`), skips NAGs, `;` comments and variations,
//! and never panics on any text. Reading is two steps: `tokenize` splits the text into
//! tags, comments and words, and the parser builds games from them. ICCS moves are
//! read syntactically (`GameRecord::replay` checks that they are legal); WXF and
//! Chinese moves can only be read in their position, so they are legal when read.
//!
//! The writer is in `write`; reading in `tokenize` and `parse`.

mod parse;
mod tokenize;
mod write;

pub use parse::parse_games;
pub use write::write_games;

use crate::fen::{FenError, START_FEN};
use crate::movegen::MoveError;
use crate::position::Position;
use crate::types::{Color, Move};
use std::fmt;

/// The result of a game as PGN writes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum GameResult {
    RedWins,
    BlackWins,
    Draw,
    /// `*`: unfinished or unknown.
    #[default]
    Unknown,
}

impl GameResult {
    pub fn as_str(self) -> &'static str {
        match self {
            GameResult::RedWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::Unknown => "*",
        }
    }

    pub fn parse(s: &str) -> Option<GameResult> {
        Some(match s {
            "1-0" => GameResult::RedWins,
            "0-1" => GameResult::BlackWins,
            "1/2-1/2" | "½-½" => GameResult::Draw,
            "*" => GameResult::Unknown,
            _ => return None,
        })
    }

    /// The side that won, if any.
    pub fn winner(self) -> Option<Color> {
        match self {
            GameResult::RedWins => Some(Color::Red),
            GameResult::BlackWins => Some(Color::Black),
            _ => None,
        }
    }

    /// The result in which `c` wins.
    pub fn win_for(c: Color) -> GameResult {
        match c {
            Color::Red => GameResult::RedWins,
            Color::Black => GameResult::BlackWins,
        }
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One game: tags in file order, the moves from the start position, an optional
/// comment after each move, and the result.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct GameRecord {
    pub tags: Vec<(String, String)>,
    pub moves: Vec<Move>,
    /// `comments[i]` follows `moves[i]`; always as long as `moves`.
    pub comments: Vec<Option<String>>,
    /// A comment before the first move: about the game as a whole.
    pub comment: Option<String>,
    pub result: GameResult,
}

/// What went wrong, and on which line (1-based) of the text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnError {
    pub line: usize,
    pub kind: PgnErrorKind,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PgnErrorKind {
    /// A `[` tag line that is not `[Name "value"]`.
    BadTag(String),
    UnterminatedComment,
    UnbalancedVariation,
    /// A movetext token that is neither a move, a move number, a NAG nor a result
    /// (the token, and why it is not a move).
    BadToken {
        token: String,
        reason: String,
    },
    /// The `FEN` tag does not hold a valid position.
    BadFen(FenError),
    /// Move number `ply` (0-based) is not legal in the position it is played from.
    IllegalMove {
        ply: usize,
        error: MoveError,
    },
}

impl fmt::Display for PgnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: ", self.line)?;
        match &self.kind {
            PgnErrorKind::BadTag(s) => write!(f, "malformed tag '{s}'"),
            PgnErrorKind::UnterminatedComment => write!(f, "comment '{{' is never closed"),
            PgnErrorKind::UnbalancedVariation => write!(f, "unbalanced '(' or ')'"),
            PgnErrorKind::BadToken { token, reason } => write!(
                f,
                "'{token}' is not a move (ICCS, WXF or Chinese) or a result: {reason}"
            ),
            PgnErrorKind::BadFen(e) => write!(f, "bad FEN tag: {e}"),
            PgnErrorKind::IllegalMove { ply, error } => write!(f, "ply {}: {error}", ply + 1),
        }
    }
}

impl std::error::Error for PgnError {}

impl GameRecord {
    /// An empty record starting from `fen` (the standard start when `None`).
    pub fn new(fen: Option<&str>) -> GameRecord {
        let mut g = GameRecord::default();
        if let Some(f) = fen {
            g.set_tag("FEN", f);
        }
        g
    }

    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Set a tag, replacing an existing one of the same name.
    pub fn set_tag(&mut self, name: &str, value: &str) {
        match self.tags.iter_mut().find(|(n, _)| n == name) {
            Some(t) => t.1 = value.to_string(),
            None => self.tags.push((name.to_string(), value.to_string())),
        }
    }

    /// Append a move with an optional comment.
    pub fn push(&mut self, m: Move, comment: Option<String>) {
        self.moves.push(m);
        self.comments.push(comment);
    }

    /// The FEN of the start: the `FEN` tag, or the standard start.
    pub fn start_fen(&self) -> &str {
        self.tag("FEN").unwrap_or(START_FEN)
    }

    pub fn start_position(&self) -> Result<Position, PgnError> {
        Position::from_fen(self.start_fen()).map_err(|e| PgnError {
            line: 0,
            kind: PgnErrorKind::BadFen(e),
        })
    }

    /// Play every move from the start, checking legality; the final position.
    pub fn replay(&self) -> Result<Position, PgnError> {
        let mut pos = self.start_position()?;
        for (ply, &m) in self.moves.iter().enumerate() {
            if !pos.is_legal(m) {
                return Err(PgnError {
                    line: 0,
                    kind: PgnErrorKind::IllegalMove {
                        ply,
                        error: MoveError::Illegal(m),
                    },
                });
            }
            pos.make_move(m);
        }
        Ok(pos)
    }
}

#[cfg(test)]
mod tests;
