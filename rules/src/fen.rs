//! FEN text to an unvalidated `Setup`, with a typed error for every way the text
//! can be wrong. `Position::from_setup` then checks that the setup is a position
//! that can occur (see `position.rs`).

use crate::types::{Color, Piece, PieceKind, Square};
use std::fmt;

/// The most pieces one side may have, king included: what a set holds. Also the
/// bound that keeps every legal move list within `movegen::MAX_MOVES`.
pub const MAX_PIECES_PER_SIDE: u32 = 16;

pub const START_FEN: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/// A board as written in a FEN, before any check that it is a reachable position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    pub board: [Option<Piece>; 90],
    pub side: Color,
    /// Plies since the last capture (the FEN's fifth field).
    pub plies_since_capture: u32,
    pub fullmove: u32,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    Empty,
    /// The board part does not have ten ranks separated by `/`.
    WrongRankCount(usize),
    /// A rank (ICCS number 9 at the top of the FEN) does not describe nine points.
    BadRankLength {
        rank: u8,
        points: usize,
    },
    UnknownLetter(char),
    BadSide(String),
    BadCounter(String),
    TooManyPieces {
        piece: Piece,
        count: u32,
    },
    /// More than 16 pieces of one colour: more than the set holds, and more than
    /// move lists and the evaluation are sized for even in a composed study.
    TooManyPiecesOfColor {
        color: Color,
        count: u32,
    },
    /// A king outside its palace, an advisor or elephant off its points, a pawn behind its start.
    PieceOffItsPoints {
        piece: Piece,
        square: Square,
    },
    MissingKing(Color),
    /// The kings face each other on an open file.
    KingsFacing,
    /// The side that just moved is in check.
    SideNotToMoveInCheck,
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::Empty => write!(f, "empty FEN"),
            FenError::WrongRankCount(n) => write!(f, "the board has {n} ranks, expected 10"),
            FenError::BadRankLength { rank, points } => {
                write!(f, "rank {rank} describes {points} points, expected 9")
            }
            FenError::UnknownLetter(c) => write!(f, "unknown piece letter '{c}'"),
            FenError::BadSide(s) => write!(f, "side to move '{s}' is not w, r or b"),
            FenError::BadCounter(s) => write!(f, "move counter '{s}' is not a number"),
            FenError::TooManyPieces { piece, count } => write!(
                f,
                "{count} {} {} ('{}'), at most {}",
                piece.color,
                piece.chinese(),
                piece.fen_char(),
                piece.kind.max_count()
            ),
            FenError::TooManyPiecesOfColor { color, count } => {
                write!(f, "{count} {color} pieces, at most {MAX_PIECES_PER_SIDE}")
            }
            FenError::PieceOffItsPoints { piece, square } => write!(
                f,
                "{} {} ('{}') cannot stand on {square}",
                piece.color,
                piece.chinese(),
                piece.fen_char()
            ),
            FenError::MissingKing(c) => write!(f, "{c} has no king"),
            FenError::KingsFacing => write!(f, "the kings face each other on an open file"),
            FenError::SideNotToMoveInCheck => write!(f, "the side not to move is in check"),
        }
    }
}

impl std::error::Error for FenError {}

impl Setup {
    /// Parse FEN text. Side letters `w`, `r` (Red) and `b` (Black) are accepted;
    /// missing trailing fields default to Red to move, 0 plies, move 1.
    pub fn parse(fen: &str) -> Result<Setup, FenError> {
        let mut fields = fen.split_whitespace();
        let placement = fields.next().ok_or(FenError::Empty)?;
        let ranks: Vec<&str> = placement.split('/').collect();
        if ranks.len() != 10 {
            return Err(FenError::WrongRankCount(ranks.len()));
        }
        let mut board = [None; 90];
        for (i, text) in ranks.iter().enumerate() {
            let rank = 9 - i as u8;
            let mut file = 0usize;
            for c in text.chars() {
                if let Some(d) = c.to_digit(10) {
                    if d == 0 {
                        return Err(FenError::UnknownLetter(c));
                    }
                    file += d as usize;
                } else if let Some(p) = Piece::from_fen_char(c) {
                    if file < 9 {
                        board[Square::new(file as u8, rank).index()] = Some(p);
                    }
                    file += 1;
                } else {
                    return Err(FenError::UnknownLetter(c));
                }
                if file > 9 {
                    break;
                }
            }
            if file != 9 {
                return Err(FenError::BadRankLength { rank, points: file });
            }
        }
        let side = match fields.next() {
            None | Some("w") | Some("r") | Some("W") | Some("R") => Color::Red,
            Some("b") | Some("B") => Color::Black,
            Some(s) => return Err(FenError::BadSide(s.chars().take(16).collect())),
        };
        // Castling and en-passant fields are always '-' in xiangqi; tolerate anything there.
        let _ = fields.next();
        let _ = fields.next();
        let counter = |s: Option<&str>, default: u32| -> Result<u32, FenError> {
            match s {
                None => Ok(default),
                Some(t) => t
                    .parse::<u32>()
                    .map_err(|_| FenError::BadCounter(t.chars().take(16).collect())),
            }
        };
        let plies_since_capture = counter(fields.next(), 0)?;
        let fullmove = counter(fields.next(), 1)?.max(1);
        Ok(Setup {
            board,
            side,
            plies_since_capture,
            fullmove,
        })
    }

    /// Every reason no game from the start position could reach this board: each
    /// kind a side has more of than the set holds (once per kind), then each piece
    /// on a point its moves never reach, in board order. Empty for a game position.
    /// Composed studies are playable anyway; the protocol, `analyze` and `judge`
    /// report these as warnings, and refuse them only when asked to be strict.
    pub fn unreachable(&self) -> Vec<FenError> {
        let mut out = Vec::new();
        let mut counts = [0u32; 14];
        for p in self.board.iter().flatten() {
            counts[p.index()] += 1;
        }
        for c in Color::BOTH {
            for k in PieceKind::ALL {
                let piece = Piece::new(c, k);
                if counts[piece.index()] > k.max_count() {
                    out.push(FenError::TooManyPieces {
                        piece,
                        count: counts[piece.index()],
                    });
                }
            }
        }
        for (i, p) in self.board.iter().enumerate() {
            if let Some(p) = p {
                if (crate::attacks::LEGAL_POINTS[p.index()] >> i) & 1 == 0 {
                    out.push(FenError::PieceOffItsPoints {
                        piece: *p,
                        square: Square(i as u8),
                    });
                }
            }
        }
        out
    }

    /// FEN text of the setup (side written `w`/`b`).
    pub fn to_fen(&self) -> String {
        let mut s = String::with_capacity(90);
        for rank in (0..10u8).rev() {
            let mut empty = 0;
            for file in 0..9u8 {
                match self.board[Square::new(file, rank).index()] {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            s.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        s.push(p.fen_char());
                    }
                }
            }
            if empty > 0 {
                s.push(char::from(b'0' + empty));
            }
            if rank > 0 {
                s.push('/');
            }
        }
        let side = if self.side == Color::Red { 'w' } else { 'b' };
        format!(
            "{s} {side} - - {} {}",
            self.plies_since_capture, self.fullmove
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_round_trip() {
        let s = Setup::parse(START_FEN).unwrap();
        assert_eq!(s.to_fen(), START_FEN);
        let r =
            Setup::parse("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR r").unwrap();
        assert_eq!(r.to_fen(), START_FEN);
    }

    #[test]
    fn syntax_errors() {
        assert_eq!(Setup::parse(""), Err(FenError::Empty));
        assert_eq!(Setup::parse("9/9"), Err(FenError::WrongRankCount(2)));
        assert!(matches!(
            Setup::parse("rnbakabnr/8/9/9/9/9/9/9/9/9"),
            Err(FenError::BadRankLength { rank: 8, points: 8 })
        ));
        assert!(matches!(
            Setup::parse("rnbakabnrr/9/9/9/9/9/9/9/9/9"),
            Err(FenError::BadRankLength { rank: 9, .. })
        ));
        assert_eq!(
            Setup::parse("rnbakabnx/9/9/9/9/9/9/9/9/9"),
            Err(FenError::UnknownLetter('x'))
        );
        assert_eq!(
            Setup::parse("4k4/9/9/9/9/9/9/9/9/4K4 x"),
            Err(FenError::BadSide("x".into()))
        );
        assert_eq!(
            Setup::parse("4k4/9/9/9/9/9/9/9/9/4K4 w - - z"),
            Err(FenError::BadCounter("z".into()))
        );
        assert!(Setup::parse("将/9/9/9/9/9/9/9/9/9").is_err());
    }
}
