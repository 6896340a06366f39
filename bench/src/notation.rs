//! Move text as engines print it. UCCI and the "UCI-cyclone" dialect (Pikafish)
//! number ranks 0–9 from Red's side, exactly like ICCS; plain UCI with a xiangqi
//! variant (Fairy-Stockfish, Sjaak) numbers them 1–10. A runner that read one as the
//! other would silently play the wrong moves, so a reply is read in the configured
//! convention and, if it makes no sense there, checked against the other one to give
//! a clear diagnosis.

use rules::{Move, Position, Square};

/// How an engine numbers ranks in its move text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum RankBase {
    /// `a0`…`i9` (UCCI, ICCS, Pikafish).
    #[default]
    Zero,
    /// `a1`…`i10` (UCI with a xiangqi variant).
    One,
}

/// Split `h2e2` / `a10a9` into (file, rank) pairs as written.
fn split_squares(text: &str) -> Option<[(u8, u32); 2]> {
    let b = text.as_bytes();
    let mut out = [(0u8, 0u32); 2];
    let mut i = 0;
    for slot in &mut out {
        let f = *b.get(i)?;
        if !f.is_ascii_lowercase() {
            return None;
        }
        i += 1;
        let start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        if i == start || i - start > 2 {
            return None;
        }
        let rank: u32 = text.get(start..i)?.parse().ok()?;
        *slot = (f, rank);
    }
    if i != b.len() {
        return None;
    }
    Some(out)
}

fn to_square(file: u8, rank: u32, base: RankBase) -> Option<Square> {
    let r = match base {
        RankBase::Zero => rank as i32,
        RankBase::One => rank as i32 - 1,
    };
    Square::try_new(file as i32 - b'a' as i32, r)
}

/// The move text as written, read in `base`; `None` if it is not a coordinate move.
pub fn parse_move_text(text: &str, base: RankBase) -> Option<Move> {
    let [(f1, r1), (f2, r2)] = split_squares(&text.to_ascii_lowercase())?;
    let from = to_square(f1, r1, base)?;
    let to = to_square(f2, r2, base)?;
    (from != to).then(|| Move::new(from, to))
}

/// Our move as the engine writes it.
pub fn move_text(m: Move, base: RankBase) -> String {
    match base {
        RankBase::Zero => m.iccs(),
        RankBase::One => {
            let sq = |s: Square| format!("{}{}", (b'a' + s.file()) as char, s.rank() + 1);
            format!("{}{}", sq(m.from()), sq(m.to()))
        }
    }
}

/// Why a reply could not be played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveProblem {
    /// Not coordinate move text at all.
    Syntax(String),
    /// A move, but not legal here.
    Illegal(String),
    /// The text only makes sense in the other rank numbering: a protocol mismatch.
    WrongRankBase { text: String, engine_uses: RankBase },
}

impl std::fmt::Display for MoveProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MoveProblem::Syntax(t) => write!(f, "'{t}' is not a move"),
            MoveProblem::Illegal(t) => write!(f, "{t} is illegal"),
            MoveProblem::WrongRankBase { text, engine_uses } => {
                let (uses, set) = match engine_uses {
                    RankBase::One => ("ranks 1-10", "ranks=1"),
                    RankBase::Zero => ("ranks 0-9", "ranks=0"),
                };
                write!(
                    f,
                    "'{text}' only makes sense with {uses}: the engine numbers ranks differently \
                     (set {set} for it)"
                )
            }
        }
    }
}

/// Read an engine's move in `base` and check it against the position.
pub fn read_engine_move(pos: &Position, text: &str, base: RankBase) -> Result<Move, MoveProblem> {
    let other = match base {
        RankBase::Zero => RankBase::One,
        RankBase::One => RankBase::Zero,
    };
    let wrong = || MoveProblem::WrongRankBase {
        text: text.chars().take(16).collect(),
        engine_uses: other,
    };
    match parse_move_text(text, base) {
        Some(m) if pos.is_legal(m) => Ok(m),
        parsed => {
            // Legal only when read the other way, or a rank that only the other way has.
            if let Some(m2) = parse_move_text(text, other) {
                if pos.is_legal(m2) {
                    return Err(wrong());
                }
            }
            match parsed {
                Some(_) => Err(MoveProblem::Illegal(text.chars().take(16).collect())),
                None if parse_move_text(text, other).is_some() => Err(wrong()),
                None => Err(MoveProblem::Syntax(text.chars().take(16).collect())),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_conventions_round_trip() {
        let m = Move::parse_iccs("a9a8").unwrap();
        assert_eq!(move_text(m, RankBase::One), "a10a9");
        assert_eq!(parse_move_text("a10a9", RankBase::One), Some(m));
        assert_eq!(parse_move_text("a9a8", RankBase::Zero), Some(m));
        assert_eq!(parse_move_text("a10a9", RankBase::Zero), None);
        assert_eq!(parse_move_text("a0a1", RankBase::One), None);
        for bad in ["", "h2", "h2e", "h2e2x", "j2e2", "h2h2", "h123e2", "H2-E2"] {
            assert_eq!(parse_move_text(bad, RankBase::Zero), None, "{bad}");
        }
    }

    #[test]
    fn diagnoses_the_other_rank_numbering() {
        let pos = Position::startpos();
        assert!(read_engine_move(&pos, "h2e2", RankBase::Zero).is_ok());
        // Fairy-Stockfish's UCI spelling of h2e2 is h3e3: empty in 0-based reading.
        assert!(matches!(
            read_engine_move(&pos, "h3e3", RankBase::Zero),
            Err(MoveProblem::WrongRankBase {
                engine_uses: RankBase::One,
                ..
            })
        ));
        assert_eq!(
            read_engine_move(&pos, "h3e3", RankBase::One).ok(),
            pos.parse_move("h2e2").ok()
        );
        assert!(matches!(
            read_engine_move(&pos, "h2e2", RankBase::One),
            Err(MoveProblem::WrongRankBase {
                engine_uses: RankBase::Zero,
                ..
            })
        ));
        assert!(matches!(
            read_engine_move(&pos, "a0a5", RankBase::Zero),
            Err(MoveProblem::Illegal(_))
        ));
        assert!(matches!(
            read_engine_move(&pos, "zzzz", RankBase::Zero),
            Err(MoveProblem::Syntax(_))
        ));
    }
}
