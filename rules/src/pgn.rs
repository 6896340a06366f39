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

    /// The record as PGN text (ending in a blank line).
    pub fn to_pgn(&self) -> String {
        let mut out = String::new();
        let roster = ["Event", "Site", "Date", "Round", "Red", "Black", "Result"];
        for name in roster {
            let v = match name {
                "Result" => self.result.as_str().to_string(),
                _ => self.tag(name).unwrap_or("?").to_string(),
            };
            push_tag(&mut out, name, &v);
        }
        for (n, v) in &self.tags {
            if !roster.contains(&n.as_str()) && n != "Format" {
                push_tag(&mut out, n, v);
            }
        }
        push_tag(&mut out, "Format", "ICCS");
        out.push('\n');

        // Movetext, wrapped before 80 columns.
        let (mut number, mut black) = match crate::fen::Setup::parse(self.start_fen()) {
            Ok(s) => (s.fullmove.max(1), s.side == Color::Black),
            Err(_) => (1, false),
        };
        let mut line = String::new();
        let mut emit = |tok: &str, out: &mut String| {
            if !line.is_empty() && line.len() + 1 + tok.len() > 79 {
                out.push_str(&line);
                out.push('\n');
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(tok);
        };
        if let Some(c) = &self.comment {
            let clean: String = c.chars().filter(|&ch| ch != '}' && ch != '{').collect();
            emit(&format!("{{{clean}}}"), &mut out);
        }
        for (i, &m) in self.moves.iter().enumerate() {
            if !black {
                emit(&format!("{number}."), &mut out);
            } else if i == 0 {
                emit(&format!("{number}..."), &mut out);
            }
            emit(&iccs_upper(m), &mut out);
            if let Some(Some(c)) = self.comments.get(i) {
                let clean: String = c.chars().filter(|&ch| ch != '}' && ch != '{').collect();
                emit(&format!("{{{clean}}}"), &mut out);
            }
            if black {
                number += 1;
            }
            black = !black;
        }
        emit(self.result.as_str(), &mut out);
        out.push_str(&line);
        out.push_str("\n\n");
        out
    }
}

fn push_tag(out: &mut String, name: &str, value: &str) {
    let escaped = value.replace('\\', "\\\\").replace('"', "\\\"");
    out.push_str(&format!("[{name} \"{escaped}\"]\n"));
}

/// `H2-E2`, the xqbase ICCS spelling.
fn iccs_upper(m: Move) -> String {
    let t = m.iccs().to_ascii_uppercase();
    format!("{}-{}", &t[0..2], &t[2..4])
}

/// Write several games, one after the other.
pub fn write_games(games: &[GameRecord]) -> String {
    games.iter().map(GameRecord::to_pgn).collect()
}

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

/// One lexical element of PGN text (escape lines, `;` comments, variations and
/// white space are dropped by the tokenizer).
#[derive(Clone, Debug, PartialEq, Eq)]
enum Token<'a> {
    /// `[Name "value"]`.
    Tag(String, String),
    /// `{…}`, white space folded.
    Comment(String),
    /// Anything else: a move, a move number, a NAG or a result.
    Word(&'a str),
}

/// Split PGN text into tokens, each with the line (1-based) it starts on.
fn tokenize(text: &str) -> Result<Vec<(usize, Token<'_>)>, PgnError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let err = |line: usize, kind: PgnErrorKind| PgnError { line, kind };
    let mut out = Vec::new();
    let mut chars = text.char_indices().peekable();
    let mut line = 1usize;
    let mut at_line_start = true;
    while let Some(&(i, c)) = chars.peek() {
        match c {
            '\n' => {
                line += 1;
                at_line_start = true;
                chars.next();
                continue;
            }
            c if c.is_whitespace() => {
                chars.next();
                continue;
            }
            '%' if at_line_start => {
                // Escape line: ignored to the end of the line.
                while chars.next_if(|&(_, c)| c != '\n').is_some() {}
            }
            '[' => {
                let end = text[i..].find('\n').map(|e| i + e).unwrap_or(text.len());
                let raw = text[i..end].trim_end();
                let (name, value) = parse_tag(raw).ok_or_else(|| {
                    err(line, PgnErrorKind::BadTag(raw.chars().take(60).collect()))
                })?;
                out.push((line, Token::Tag(name, value)));
                while chars.next_if(|&(j, _)| j < end).is_some() {}
            }
            '{' => {
                let first = line;
                chars.next();
                let mut body = String::new();
                let mut closed = false;
                for (_, c) in chars.by_ref() {
                    if c == '}' {
                        closed = true;
                        break;
                    }
                    if c == '\n' {
                        line += 1;
                    }
                    body.push(c);
                }
                if !closed {
                    return Err(err(line, PgnErrorKind::UnterminatedComment));
                }
                let body = body.split_whitespace().collect::<Vec<_>>().join(" ");
                out.push((first, Token::Comment(body)));
            }
            ';' => while chars.next_if(|&(_, c)| c != '\n').is_some() {},
            '(' => {
                let mut depth = 0usize;
                for (_, c) in chars.by_ref() {
                    match c {
                        '(' => depth += 1,
                        ')' => {
                            depth -= 1;
                            if depth == 0 {
                                break;
                            }
                        }
                        '\n' => line += 1,
                        _ => {}
                    }
                }
                if depth != 0 {
                    return Err(err(line, PgnErrorKind::UnbalancedVariation));
                }
            }
            ')' => return Err(err(line, PgnErrorKind::UnbalancedVariation)),
            _ => {
                chars.next(); // the first character always belongs to the word
                let mut end = text.len();
                while let Some(&(j, c)) = chars.peek() {
                    if c.is_whitespace() || "{};()[".contains(c) {
                        end = j;
                        break;
                    }
                    chars.next();
                }
                out.push((line, Token::Word(&text[i..end])));
            }
        }
        at_line_start = false;
    }
    Ok(out)
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

/// `[Name "value"]` with `\"` and `\\` escapes.
fn parse_tag(raw: &str) -> Option<(String, String)> {
    let inner = raw.strip_prefix('[')?.strip_suffix(']')?.trim();
    let sp = inner.find(|c: char| c.is_whitespace())?;
    let name = &inner[..sp];
    if name.is_empty() || !name.chars().all(|c| c.is_alphanumeric() || c == '_') {
        return None;
    }
    let rest = inner[sp..].trim();
    let body = rest.strip_prefix('"')?.strip_suffix('"')?;
    let mut value = String::new();
    let mut esc = false;
    for c in body.chars() {
        if esc {
            value.push(c);
            esc = false;
        } else if c == '\\' {
            esc = true;
        } else {
            value.push(c);
        }
    }
    Some((name.to_string(), value))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(s: &str) -> Move {
        Move::parse_iccs(s).unwrap()
    }

    #[test]
    fn write_and_read_back() {
        let mut g = GameRecord::new(None);
        g.set_tag("Event", "Test \"quoted\"");
        g.set_tag("Red", "qili");
        g.set_tag("Black", "other");
        g.set_tag("Termination", "mate");
        for (i, m) in ["h2e2", "h9g7", "h0g2", "i9h9"].iter().enumerate() {
            g.push(mv(m), if i == 1 { Some("+0.12/5".into()) } else { None });
        }
        g.result = GameResult::RedWins;
        let text = g.to_pgn();
        assert!(
            text.contains("1. H2-E2 H9-G7 {+0.12/5} 2. H0-G2 I9-H9 1-0"),
            "{text}"
        );
        let back = parse_games(&text).unwrap();
        assert_eq!(back.len(), 1);
        assert_eq!(back[0].moves, g.moves);
        assert_eq!(back[0].comments, g.comments);
        assert_eq!(back[0].result, GameResult::RedWins);
        assert_eq!(back[0].tag("Event"), Some("Test \"quoted\""));
        assert_eq!(back[0].tag("Termination"), Some("mate"));
        assert!(back[0].replay().is_ok());
    }

    #[test]
    fn black_to_move_start_and_several_games() {
        let fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C4C2/9/RNBAKABNR b - - 1 1";
        let mut g = GameRecord::new(Some(fen));
        g.push(mv("h7e7"), None);
        g.push(mv("b0c2"), None);
        g.result = GameResult::Draw;
        let text = write_games(&[g.clone(), GameRecord::new(None)]);
        assert!(text.contains("1... H7-E7 2. B0-C2 1/2-1/2"), "{text}");
        let back = parse_games(&text).unwrap();
        assert_eq!(back.len(), 2);
        assert_eq!(back[0].start_fen(), fen);
        assert_eq!(back[0].replay().unwrap().game_ply(), 2);
        assert!(back[1].moves.is_empty());
        assert_eq!(back[1].result, GameResult::Unknown);
    }

    #[test]
    fn reads_ucci_form_comments_variations_and_nags() {
        let text = "[Event \"x\"]\r\n[Result \"0-1\"]\r\n\r\n1.h2e2 $1 h9g7 ; note\n\
                    (1... h7e7 (2. b0c2)) 2. h0g2 {a {b} 0-1\n";
        let g = &parse_games(text).unwrap()[0];
        assert_eq!(g.moves, vec![mv("h2e2"), mv("h9g7"), mv("h0g2")]);
        assert_eq!(g.comments[2].as_deref(), Some("a {b"));
        assert_eq!(g.result, GameResult::BlackWins);
    }

    #[test]
    fn errors_are_typed_and_located() {
        let e = parse_games("[Event \"x\"]\n\n1. h2e2 zz 1-0").unwrap_err();
        assert_eq!(e.line, 3);
        assert!(matches!(e.kind, PgnErrorKind::BadToken { .. }));
        let e = parse_games("1. h2e2 {open").unwrap_err();
        assert_eq!(e.kind, PgnErrorKind::UnterminatedComment);
        assert!(parse_games("[Event x]\n").is_err());
        assert!(parse_games("1. h2e2 (h9g7").is_err());
        assert!(parse_games(")").is_err());
        // Syntactically fine but illegal: replay reports the ply.
        let g = &parse_games("1. h2e2 h2e2 *").unwrap()[0];
        assert!(matches!(
            g.replay().unwrap_err().kind,
            PgnErrorKind::IllegalMove { ply: 1, .. }
        ));
        let g = &parse_games("[FEN \"bad\"]\n*").unwrap()[0];
        assert!(matches!(
            g.replay().unwrap_err().kind,
            PgnErrorKind::BadFen(_)
        ));
    }

    /// Random edits of a real record and random strings over PGN's special
    /// characters: parsing returns, and whatever parses replays or errs cleanly.
    #[test]
    fn random_text_never_panics() {
        let mut g = GameRecord::new(None);
        for m in ["h2e2", "h9g7", "h0g2", "i9h9"] {
            g.push(mv(m), Some("c".into()));
        }
        let base: Vec<char> = g.to_pgn().chars().collect();
        let alphabet: Vec<char> = "[]{}();$%.\\\"\n 01-/*abcdefghi9HE红".chars().collect();
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut rnd = |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        for _ in 0..3000 {
            let mut t = base.clone();
            for _ in 0..1 + rnd(4) {
                let i = rnd(t.len() + 1);
                match rnd(3) {
                    0 if i < t.len() => {
                        t.remove(i);
                    }
                    1 => t.insert(i, alphabet[rnd(alphabet.len())]),
                    _ => t.truncate(i),
                }
            }
            let text: String = t.into_iter().collect();
            if let Ok(games) = parse_games(&text) {
                for g in games {
                    let _ = g.replay();
                    let _ = parse_games(&g.to_pgn());
                }
            }
            let junk: String = (0..rnd(40))
                .map(|_| alphabet[rnd(alphabet.len())])
                .collect();
            let _ = parse_games(&junk);
        }
    }

    #[test]
    fn never_panics_on_junk() {
        for t in [
            "",
            "[",
            "[]",
            "[A \"",
            "{",
            "}",
            "1.",
            "...",
            "$",
            "%x\n",
            "(((",
            "1-0 1-0",
            "[A \"b\"] [C \"d\"]",
            "\u{feff}*",
            "１. h2e2",
        ] {
            let _ = parse_games(t);
        }
    }
}
