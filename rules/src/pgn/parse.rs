//! The second step of reading PGN: building games from the tokens, reading each
//! move in whichever notation it is written (ICCS, WXF or Chinese).

use super::tokenize::{tokenize, Token};
use super::{GameRecord, GameResult, PgnError, PgnErrorKind};
use crate::position::Position;
use crate::types::Move;

/// Parse every game in `text`. Movetext may be ICCS (`h2e2`, `H2-E2`), WXF (`C2.5`)
/// or Chinese notation (`炮二平五`), detected move by move; the WXF and Chinese moves
/// are read in the position they are played from (the FEN tag's, then each move's),
/// so they are legal when read. ICCS moves stay syntactic: `GameRecord::replay`
/// checks them. A comment before the first move is the game's comment.
pub fn parse_games(text: &str) -> Result<Vec<GameRecord>, PgnError> {
    let tokens = tokenize(text)?;
    let mut games = Vec::new();
    let mut game = GameBuilder::default();
    for (line, token) in tokens {
        match token {
            Token::Tag(name, value) => {
                if game.in_moves {
                    games.push(std::mem::take(&mut game).finish());
                }
                if name == "Result" {
                    game.record.result = GameResult::parse(&value).unwrap_or_default();
                } else {
                    game.record.tags.push((name, value));
                }
                game.has_content = true;
            }
            Token::Comment(body) => game.comment(body),
            Token::Word(word) => {
                game.has_content = true;
                game.in_moves = true;
                if let Some(r) = GameResult::parse(word) {
                    game.record.result = r;
                    games.push(std::mem::take(&mut game).finish());
                } else {
                    game.word(word, line)?;
                }
            }
        }
    }
    if game.has_content {
        games.push(game.finish());
    }
    Ok(games)
}

/// A game being read: the record so far and the position its moves have reached
/// (`None` once a move is not legal or the FEN tag is bad: later WXF or Chinese
/// moves then cannot be read).
#[derive(Default)]
struct GameBuilder {
    record: GameRecord,
    /// The movetext of this game has started.
    in_moves: bool,
    has_content: bool,
    position: Option<Option<Position>>,
}

impl GameBuilder {
    fn finish(self) -> GameRecord {
        self.record
    }

    fn comment(&mut self, body: String) {
        let slot = match self.record.comments.last_mut() {
            Some(last) => last,
            None => &mut self.record.comment,
        };
        *slot = Some(match slot.take() {
            Some(prev) => format!("{prev} {body}"),
            None => body,
        });
        self.has_content = true;
    }

    /// The position before the next move (built from the FEN tag on first use).
    fn position(&mut self) -> Option<&mut Position> {
        let fen = self.record.start_fen().to_string();
        self.position
            .get_or_insert_with(|| Position::from_fen(&fen).ok())
            .as_mut()
    }

    fn word(&mut self, word: &str, line: usize) -> Result<(), PgnError> {
        if word.starts_with('$') || is_move_number(word) {
            return Ok(());
        }
        let m = match self.read_move(word) {
            Ok(m) => m,
            Err(first) => match strip_move_number(word) {
                Some(rest) if !rest.is_empty() => self
                    .read_move(rest)
                    .map_err(|_| PgnError { line, kind: first })?,
                _ => return Err(PgnError { line, kind: first }),
            },
        };
        self.record.push(m, None);
        Ok(())
    }

    /// A move in any notation; ICCS is read without a position.
    fn read_move(&mut self, text: &str) -> Result<Move, PgnErrorKind> {
        if let Some(m) = Move::parse_iccs(text) {
            if let Some(pos) = self.position() {
                if pos.is_legal(m) {
                    pos.make_move(m);
                } else {
                    self.position = Some(None);
                }
            }
            return Ok(m);
        }
        let bad = |reason: String| PgnErrorKind::BadToken {
            token: crate::notation::echo(text),
            reason,
        };
        let Some(pos) = self.position() else {
            return Err(bad(
                "the position before it is unknown (bad FEN or an illegal move earlier)".into(),
            ));
        };
        let m = crate::notation::parse_any(pos, text).map_err(|e| {
            use crate::notation::NotationError as N;
            bad(match e {
                N::Empty => "it is empty".to_string(),
                N::Syntax { reason, .. } => reason.to_string(),
                N::NoSuchMove(_) => "no legal move here fits it".to_string(),
                N::Ambiguous { .. } => "several legal moves fit it".to_string(),
            })
        })?;
        pos.make_move(m);
        Ok(m)
    }
}

/// `12.`, `12...`, `１２．`, `3、`: a move number on its own.
fn is_move_number(word: &str) -> bool {
    strip_move_number(word).is_some_and(str::is_empty)
}

/// The rest of `12.h2e2` after its move number, if it starts with one (digits, ASCII
/// or full-width, then at least one `.`, `．` or `、`).
fn strip_move_number(word: &str) -> Option<&str> {
    let rest = word.trim_start_matches(|c: char| c.is_ascii_digit() || ('０'..='９').contains(&c));
    if rest.len() == word.len() {
        return None;
    }
    let after = rest.trim_start_matches(['.', '．', '、']);
    (after.len() < rest.len()).then_some(after)
}
