//! How the GUI writes a move: ICCS with ranks 0–9 (UCCI, Pikafish's UCI, the
//! Cyclone commands: `h2e2` is 炮二平五), or Fairy-Stockfish's square names with
//! ranks 1–10 (`h3e3`, and `a10a9` on the last rank), spoken once a GUI has sent
//! `setoption name UCI_Variant value xiangqi`. Every move the session reads
//! (position moves, `banmoves`, `searchmoves`) and writes (`bestmove`, `ponder`,
//! `pv`, `currmove`) goes through the one `Coords` in force; the search and the
//! rules crate see only `Move`.

use rules::{Move, MoveError, Position, Square};

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Coords {
    /// Files a–i, ranks 0–9 from Red's side.
    #[default]
    Iccs,
    /// Files a–i, ranks 1–10 from Red's side (Fairy-Stockfish's `xiangqi`).
    OneBased,
}

impl Coords {
    /// A move as the GUI writes it.
    pub fn format(self, m: Move) -> String {
        match self {
            Coords::Iccs => m.iccs(),
            Coords::OneBased if m.is_null() => "0000".to_string(),
            Coords::OneBased => {
                format!("{}{}", square_one_based(m.from()), square_one_based(m.to()))
            }
        }
    }

    /// A legal move of `pos` from the GUI's text, or why not (in the words of
    /// the coordinates in force).
    pub fn parse(self, pos: &Position, text: &str) -> Result<Move, String> {
        match self {
            Coords::Iccs => pos.parse_move(text).map_err(|e| e.to_string()),
            Coords::OneBased => {
                let Some(m) = parse_one_based(text.trim()) else {
                    let shown: String = text.chars().take(16).collect();
                    return Err(format!(
                        "'{shown}' is not a move in ranks 1-10 (like h3e3, the UCI_Variant xiangqi coordinates)"
                    ));
                };
                match pos.parse_move(&m.iccs()) {
                    Ok(m) => Ok(m),
                    Err(MoveError::Illegal(_)) => {
                        Err(format!("{} is not a legal move here", self.format(m)))
                    }
                    Err(e) => Err(e.to_string()),
                }
            }
        }
    }

    /// Several moves, formatted and joined by single blanks.
    pub fn format_all(self, moves: &[Move]) -> String {
        let words: Vec<String> = moves.iter().map(|&m| self.format(m)).collect();
        words.join(" ")
    }
}

fn square_one_based(s: Square) -> String {
    format!("{}{}", (b'a' + s.file()) as char, s.rank() + 1)
}

/// `h3e3`, `a10a9`, `e10e9`: two squares, each a file letter and a rank 1–10.
fn parse_one_based(text: &str) -> Option<Move> {
    let (from, rest) = square_prefix(text)?;
    let (to, rest) = square_prefix(rest)?;
    if !rest.is_empty() || from == to {
        return None;
    }
    Some(Move::new(from, to))
}

fn square_prefix(text: &str) -> Option<(Square, &str)> {
    let b = text.as_bytes();
    let file = b.first()?.to_ascii_lowercase();
    if !(b'a'..=b'i').contains(&file) {
        return None;
    }
    let digits = b[1..]
        .iter()
        .take(2)
        .take_while(|c| c.is_ascii_digit())
        .count();
    // `h10e10` reads rank 10; `h1e1` must not read `1e` as digits (it cannot).
    let digits = match (digits, b.get(1), b.get(2)) {
        (2, Some(b'1'), Some(b'0')) => 2,
        (0, ..) => return None,
        _ => 1,
    };
    let rank: u8 = text.get(1..1 + digits)?.parse().ok()?;
    if !(1..=10).contains(&rank) {
        return None;
    }
    Some((Square::new(file - b'a', rank - 1), &text[1 + digits..]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_based_names_cover_ranks_1_to_10() {
        let start = Position::startpos();
        let c = Coords::OneBased;
        let m = c.parse(&start, "h3e3").unwrap();
        assert_eq!(m.iccs(), "h2e2");
        assert_eq!(c.format(m), "h3e3");
        let m = c.parse(&start, "b1c3").unwrap();
        assert_eq!(m.iccs(), "b0c2");
        let mut pos = start.clone();
        pos.make_move(m);
        let m = c.parse(&pos, "b10c8").unwrap();
        assert_eq!(
            (m.iccs(), c.format(m)),
            ("b9c7".to_string(), "b10c8".to_string())
        );
        assert_eq!(c.parse(&pos, "a10a9").unwrap().iccs(), "a9a8");
        assert_eq!(c.format(Move::NULL), "0000");
    }

    #[test]
    fn one_based_refuses_what_is_not_a_square_pair() {
        let start = Position::startpos();
        let c = Coords::OneBased;
        for bad in [
            "h0e0", "h11e1", "h2e", "j3e3", "h3e3x", "", "h3h3", "h01e1", "e10",
        ] {
            assert!(c.parse(&start, bad).is_err(), "{bad}");
        }
        // A 0-based move read as 1-based is a different square: here illegal.
        assert!(c.parse(&start, "h2e2").is_err());
        assert!(Coords::Iccs.parse(&start, "h3e3").is_err());
        assert_eq!(Coords::Iccs.parse(&start, "h2e2").unwrap().iccs(), "h2e2");
    }
}
