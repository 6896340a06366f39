//! Opening files: one opening per line, either a FEN (optionally followed by
//! `moves m1 m2 …`), or a list of ICCS moves from the start position. Blank lines
//! and `#` comments are skipped. Every opening is checked (valid FEN,
//! legal moves) when the file is read, with the line number in the error.

use rules::{Move, Position, START_FEN};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    pub fen: String,
    pub moves: Vec<Move>,
}

impl Opening {
    pub fn startpos() -> Opening {
        Opening {
            fen: START_FEN.to_string(),
            moves: Vec::new(),
        }
    }

    /// The position after the opening moves.
    pub fn position(&self) -> Option<Position> {
        let mut p = Position::from_fen(&self.fen).ok()?;
        for &m in &self.moves {
            if !p.is_legal(m) {
                return None;
            }
            p.make_move(m);
        }
        Some(p)
    }
}

/// Parse one line; `Ok(None)` for blank lines and comments.
pub fn parse_line(line: &str) -> Result<Option<Opening>, String> {
    // `#` starts a comment (to the end of the line); FEN and moves never contain one.
    let line = line.split('#').next().unwrap_or("").trim();
    if line.is_empty() {
        return Ok(None);
    }
    let line = line.strip_prefix("fen ").unwrap_or(line);
    let (fen_part, move_part) = match line.find(" moves") {
        Some(i) => (line[..i].trim(), line[i + 6..].trim()),
        None if line.contains('/') => (line, ""),
        None => (START_FEN, line),
    };
    let fen_part = if fen_part == "startpos" {
        START_FEN
    } else {
        fen_part
    };
    let mut pos = Position::from_fen(fen_part).map_err(|e| format!("bad FEN: {e}"))?;
    let mut moves = Vec::new();
    for t in move_part.split_whitespace() {
        let m = pos.parse_move(t).map_err(|e| e.to_string())?;
        pos.make_move(m);
        moves.push(m);
    }
    if !pos.has_legal_move() {
        return Err("the opening ends the game (no legal move)".into());
    }
    Ok(Some(Opening {
        fen: Position::from_fen(fen_part)
            .map(|p| p.to_fen())
            .unwrap_or_else(|_| fen_part.to_string()),
        moves,
    }))
}

/// Parse a whole opening file.
pub fn parse_openings(text: &str) -> Result<Vec<Opening>, String> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        match parse_line(line) {
            Ok(Some(o)) => out.push(o),
            Ok(None) => {}
            Err(e) => return Err(format!("line {}: {e}", i + 1)),
        }
    }
    if out.is_empty() {
        return Err("no openings in the file".into());
    }
    Ok(out)
}

pub fn load_openings(path: &std::path::Path) -> Result<Vec<Opening>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    parse_openings(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// `count` openings from an opening book (`qili match --book`): each a line of up
/// to `depth` plies from the start position, every move picked at random by its
/// weight from a generator seeded with `seed`, ending early where the book runs out.
/// Opening k is played by game pair k, colours reversed, as with an openings file.
pub fn book_openings(book: &book::Book, count: usize, depth: usize, seed: u64) -> Vec<Opening> {
    let mut rng = rules::rng::Rng::with_stream(seed, book::RNG_STREAM);
    let start = Position::startpos();
    (0..count.max(1))
        .map(|_| Opening {
            fen: START_FEN.to_string(),
            moves: book::book_line(book, &start, depth, book::Pick::Weighted, &mut rng),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_three_forms() {
        let text = "# comment\n\nh2e2 h9g7  # +12\n\
                    rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1\n\
                    startpos moves b0c2\n\
                    fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 moves h2e2\n";
        let o = parse_openings(text).unwrap();
        assert_eq!(o.len(), 4);
        assert_eq!(o[0].moves.len(), 2);
        assert_eq!(o[1], Opening::startpos());
        assert_eq!(o[2].moves[0].iccs(), "b0c2");
        assert_eq!(o[3].moves[0].iccs(), "h2e2");
        assert!(o[0].position().is_some());
    }

    #[test]
    fn errors_name_the_line() {
        let e = parse_openings("h2e2\nh2e2 h2e2\n").unwrap_err();
        assert!(e.starts_with("line 2:"), "{e}");
        let e = parse_openings("x/y/z\n").unwrap_err();
        assert!(e.contains("bad FEN"), "{e}");
        assert!(parse_openings("# nothing\n").is_err());
    }
}

#[cfg(test)]
mod from_book {
    use super::*;
    use book::build::{BuildOptions, Builder};

    fn small_book() -> book::Book {
        let text = "1. h2e2 h9g7 2. h0g2 i9h9 1-0\n\n1. h2e2 b9c7 2. h0g2 1/2-1/2\n\n\
                    1. b0c2 h9g7 0-1\n\n1. h2e2 h9g7 2. h0g2 i9h9 1/2-1/2\n";
        let games = book::records::read_pgn(text);
        assert!(games.skipped.is_empty(), "{:?}", games.skipped);
        let mut b = Builder::new();
        for g in &games.games {
            b.add_game(g, 20);
        }
        let o = BuildOptions {
            max_plies: 20,
            min_games: 1,
            min_score: 0.0,
        };
        b.finish(&o).unwrap().0
    }

    #[test]
    fn lines_follow_the_book_up_to_the_depth_and_repeat_with_the_seed() {
        let b = small_book();
        let a = book_openings(&b, 40, 3, 7);
        assert_eq!(a.len(), 40);
        for o in &a {
            assert!(!o.moves.is_empty() && o.moves.len() <= 3, "{:?}", o.moves);
            assert!(o.position().is_some());
            // Every move is a book move of the position it is played in.
            let mut p = Position::startpos();
            for &m in &o.moves {
                assert!(b.probe(&p).iter().any(|e| e.mv == m), "{m}");
                p.make_move(m);
            }
        }
        // b0c2 lost its only game: not in the book, so every line starts h2e2.
        assert!(a.iter().all(|o| o.moves[0].iccs() == "h2e2"));
        // Black's two replies both appear over 40 lines.
        let replies: std::collections::HashSet<String> =
            a.iter().map(|o| o.moves[1].iccs()).collect();
        assert_eq!(replies.len(), 2, "{replies:?}");
        assert_eq!(book_openings(&b, 40, 3, 7), a);
        assert_ne!(book_openings(&b, 40, 3, 8), a);
        // Depth 0 is the start position itself.
        assert!(book_openings(&b, 2, 0, 1)
            .iter()
            .all(|o| o.moves.is_empty()));
    }
}

#[cfg(test)]
mod shipped {
    use super::*;

    /// The shipped opening set loads, is large, and has no duplicate positions.
    #[test]
    fn shipped_set_is_valid_and_distinct() {
        let o = parse_openings(include_str!("../data/openings.txt")).unwrap();
        assert!(o.len() >= 200, "{}", o.len());
        let keys: std::collections::HashSet<u64> =
            o.iter().map(|x| x.position().unwrap().key()).collect();
        assert_eq!(keys.len(), o.len());
    }
}
