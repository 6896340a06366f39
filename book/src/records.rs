//! Game records for building a book: PGN files whose movetext is ICCS (read by
//! `rules::pgn::parse_games`), or WXF / Chinese notation, read move by move with
//! `rules::notation::parse_any` against the position (so only legal moves are
//! accepted and an ambiguous text is an error, never a guess).
//!
//! A file is cut into games at each tag section that follows movetext; a game that
//! cannot be read is skipped with a note saying why, and the others are kept.

use rules::notation::parse_any;
use rules::pgn::{parse_games, GameRecord, GameResult, PgnErrorKind};
use rules::{Move, Position};

/// A game as the book builder sees it.
#[derive(Clone, Debug)]
pub struct Game {
    pub start: Position,
    pub moves: Vec<Move>,
    pub result: GameResult,
}

impl Game {
    /// A checked game: every move legal from `start`. `None` (with the ply) otherwise.
    pub fn new(start: Position, moves: Vec<Move>, result: GameResult) -> Result<Game, usize> {
        let mut p = start.clone();
        for (ply, &m) in moves.iter().enumerate() {
            if !p.is_legal(m) {
                return Err(ply);
            }
            p.make_move(m);
        }
        Ok(Game {
            start,
            moves,
            result,
        })
    }
}

/// What reading a file gave: the games, and one note per game skipped.
#[derive(Debug, Default)]
pub struct ReadOutcome {
    pub games: Vec<Game>,
    pub skipped: Vec<String>,
}

/// Cut PGN text into one chunk per game (tag section plus movetext).
fn chunks(text: &str) -> Vec<String> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut in_moves = false;
    for line in text.lines() {
        let t = line.trim_start();
        if t.starts_with('[') {
            if in_moves {
                out.push(std::mem::take(&mut cur));
                in_moves = false;
            }
        } else if !t.is_empty() && !t.starts_with('%') {
            in_moves = true;
        }
        cur.push_str(line);
        cur.push('\n');
    }
    if !cur.trim().is_empty() {
        out.push(cur);
    }
    out
}

/// Movetext without comments, variations, escape lines and NAGs, as tokens.
fn movetext_tokens(movetext: &str) -> Result<Vec<String>, String> {
    let mut clean = String::new();
    let mut depth = 0usize;
    let mut chars = movetext.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '{' if depth == 0 => {
                let mut closed = false;
                for c in chars.by_ref() {
                    if c == '}' {
                        closed = true;
                        break;
                    }
                }
                if !closed {
                    return Err("a '{' comment is never closed".into());
                }
                clean.push(' ');
            }
            ';' if depth == 0 => {
                for c in chars.by_ref() {
                    if c == '\n' {
                        break;
                    }
                }
                clean.push(' ');
            }
            '(' => depth += 1,
            ')' => {
                depth = depth
                    .checked_sub(1)
                    .ok_or_else(|| "unbalanced ')'".to_string())?;
                clean.push(' ');
            }
            _ if depth > 0 => {}
            _ => clean.push(c),
        }
    }
    if depth != 0 {
        return Err("unbalanced '('".into());
    }
    Ok(clean
        .split_whitespace()
        .filter(|t| !t.starts_with('$'))
        .map(str::to_string)
        .collect())
}

/// A token without its move-number prefix (`12.`, `12...`, `12.h2e2`); empty if
/// the token was only a move number.
fn strip_number(tok: &str) -> &str {
    let digits = tok.chars().take_while(|c| c.is_ascii_digit()).count();
    let rest = &tok[digits..];
    if digits > 0 && rest.starts_with('.') {
        rest.trim_start_matches('.')
    } else if tok.chars().all(|c| c == '.') {
        ""
    } else {
        tok
    }
}

/// Read one game whose movetext is not ICCS: tags through `parse_games`, moves
/// through `parse_any`.
fn read_notation_game(chunk: &str) -> Result<Game, String> {
    let (tags, moves): (Vec<&str>, Vec<&str>) =
        chunk.lines().partition(|l| l.trim_start().starts_with('['));
    let tag_text = tags.join("\n");
    let record = match parse_games(&tag_text) {
        Ok(mut v) if !v.is_empty() => v.remove(0),
        Ok(_) => GameRecord::default(),
        Err(e) => return Err(e.to_string()),
    };
    let start = record.start_position().map_err(|e| e.to_string())?;
    let mut result = record.result;
    let mut pos = start.clone();
    let mut list = Vec::new();
    let moves: Vec<&str> = moves
        .into_iter()
        .filter(|l| !l.trim_start().starts_with('%'))
        .collect();
    for tok in movetext_tokens(&moves.join("\n"))? {
        if let Some(r) = GameResult::parse(&tok) {
            result = r;
            break;
        }
        let text = strip_number(&tok);
        if text.is_empty() {
            continue;
        }
        let m = parse_any(&pos, text)
            .map_err(|e| format!("ply {} '{}': {e}", list.len() + 1, clip(text)))?;
        pos.make_move(m);
        list.push(m);
    }
    Ok(Game {
        start,
        moves: list,
        result,
    })
}

fn clip(s: &str) -> String {
    s.chars().take(24).collect()
}

/// Read every game of a PGN file's text.
pub fn read_pgn(text: &str) -> ReadOutcome {
    let mut out = ReadOutcome::default();
    for (i, chunk) in chunks(text).iter().enumerate() {
        let n = i + 1;
        match parse_games(chunk) {
            Ok(records) => {
                for r in records {
                    let start = match r.start_position() {
                        Ok(p) => p,
                        Err(e) => {
                            out.skipped.push(format!("game {n}: {e}"));
                            continue;
                        }
                    };
                    match Game::new(start, r.moves, r.result) {
                        Ok(g) => out.games.push(g),
                        Err(ply) => out
                            .skipped
                            .push(format!("game {n}: ply {} is not legal", ply + 1)),
                    }
                }
            }
            Err(e) if matches!(e.kind, PgnErrorKind::BadToken { .. }) => {
                match read_notation_game(chunk) {
                    Ok(g) => out.games.push(g),
                    Err(why) => out.skipped.push(format!("game {n}: {why}")),
                }
            }
            Err(e) => out.skipped.push(format!("game {n}: {e}")),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iccs_wxf_and_chinese_movetext_give_the_same_moves() {
        let iccs = "[Result \"1-0\"]\n1. h2e2 h9g7 2. h0g2 i9h9 1-0\n";
        let wxf = "[Result \"1-0\"]\n1. C2.5 H8+7 2. H2+3 R9.8 1-0\n";
        let chinese = "[Result \"1-0\"]\n1. 炮二平五 马８进７ 2. 马二进三 车９平８ 1-0\n";
        let a = read_pgn(iccs);
        let b = read_pgn(wxf);
        let c = read_pgn(chinese);
        for r in [&a, &b, &c] {
            assert!(r.skipped.is_empty(), "{:?}", r.skipped);
            assert_eq!(r.games.len(), 1);
            assert_eq!(r.games[0].result, GameResult::RedWins);
        }
        assert_eq!(a.games[0].moves, b.games[0].moves);
        assert_eq!(a.games[0].moves, c.games[0].moves);
        assert_eq!(a.games[0].moves.len(), 4);
    }

    #[test]
    fn bad_games_are_skipped_with_a_reason_and_the_rest_kept() {
        let text = "[Event \"a\"]\n1. h2e2 h9g7 1/2-1/2\n\n\
                    [Event \"b\"]\n1. h2e2 h2e2 0-1\n\n\
                    [Event \"c\"]\n1. 炮二平五 {comment} (1. 炮八平五) 马２进３ $1 0-1\n\n\
                    [Event \"d\"]\n1. 炮二平九九 *\n";
        let r = read_pgn(text);
        assert_eq!(r.games.len(), 2, "{:?}", r.skipped);
        assert_eq!(r.games[1].moves.len(), 2);
        assert_eq!(r.games[1].result, GameResult::BlackWins);
        assert_eq!(r.skipped.len(), 2, "{:?}", r.skipped);
        assert!(r.skipped[0].starts_with("game 2"), "{:?}", r.skipped);
        assert!(r.skipped[1].starts_with("game 4"), "{:?}", r.skipped);
    }

    #[test]
    fn move_numbers_are_stripped() {
        assert_eq!(strip_number("12."), "");
        assert_eq!(strip_number("12...h2e2"), "h2e2");
        assert_eq!(strip_number("..."), "");
        assert_eq!(strip_number("C2.5"), "C2.5");
        assert_eq!(strip_number("炮二平五"), "炮二平五");
    }
}
