//! Colours, piece kinds, squares and moves.
//!
//! Squares are numbered `rank * 9 + file`: file 0 is ICCS file `a` (Red's left),
//! rank 0 is Red's back rank. Black's back rank is rank 9.

use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    Red = 0,
    Black = 1,
}

impl Color {
    pub const BOTH: [Color; 2] = [Color::Red, Color::Black];

    #[inline(always)]
    pub const fn flip(self) -> Color {
        match self {
            Color::Red => Color::Black,
            Color::Black => Color::Red,
        }
    }

    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Chinese name of the side: 红 / 黑.
    pub const fn chinese(self) -> &'static str {
        match self {
            Color::Red => "红",
            Color::Black => "黑",
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::Red => "red",
            Color::Black => "black",
        })
    }
}

/// The seven kinds of piece. The order is the order of the piece-kind bitboards.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PieceKind {
    King = 0,
    Advisor = 1,
    Elephant = 2,
    Knight = 3,
    Rook = 4,
    Cannon = 5,
    Pawn = 6,
}

impl PieceKind {
    pub const ALL: [PieceKind; 7] = [
        PieceKind::King,
        PieceKind::Advisor,
        PieceKind::Elephant,
        PieceKind::Knight,
        PieceKind::Rook,
        PieceKind::Cannon,
        PieceKind::Pawn,
    ];

    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    #[inline(always)]
    pub const fn from_index(i: usize) -> PieceKind {
        PieceKind::ALL[i]
    }

    /// Upper-case FEN letter (Red's letter).
    pub const fn letter(self) -> char {
        match self {
            PieceKind::King => 'K',
            PieceKind::Advisor => 'A',
            PieceKind::Elephant => 'B',
            PieceKind::Knight => 'N',
            PieceKind::Rook => 'R',
            PieceKind::Cannon => 'C',
            PieceKind::Pawn => 'P',
        }
    }

    /// FEN letter, case-insensitive; `E`/`H` are accepted as elephant/horse aliases.
    pub fn from_letter(c: char) -> Option<PieceKind> {
        Some(match c.to_ascii_uppercase() {
            'K' => PieceKind::King,
            'A' => PieceKind::Advisor,
            'B' | 'E' => PieceKind::Elephant,
            'N' | 'H' => PieceKind::Knight,
            'R' => PieceKind::Rook,
            'C' => PieceKind::Cannon,
            'P' => PieceKind::Pawn,
            _ => return None,
        })
    }

    /// How many of this kind a side starts with (and may have at most).
    pub const fn max_count(self) -> u32 {
        match self {
            PieceKind::King => 1,
            PieceKind::Pawn => 5,
            _ => 2,
        }
    }
}

/// A coloured piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    pub color: Color,
    pub kind: PieceKind,
}

impl Piece {
    #[inline(always)]
    pub const fn new(color: Color, kind: PieceKind) -> Piece {
        Piece { color, kind }
    }

    /// Index 0..14: colour * 7 + kind.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.color.index() * 7 + self.kind.index()
    }

    #[inline(always)]
    pub const fn from_index(i: usize) -> Piece {
        Piece {
            color: if i < 7 { Color::Red } else { Color::Black },
            kind: PieceKind::from_index(i % 7),
        }
    }

    /// FEN letter: upper case for Red, lower case for Black.
    pub const fn fen_char(self) -> char {
        let c = self.kind.letter();
        match self.color {
            Color::Red => c,
            Color::Black => c.to_ascii_lowercase(),
        }
    }

    pub fn from_fen_char(c: char) -> Option<Piece> {
        let kind = PieceKind::from_letter(c)?;
        let color = if c.is_ascii_uppercase() {
            Color::Red
        } else {
            Color::Black
        };
        Some(Piece { color, kind })
    }

    /// The name the rule books print: 帅仕相马车炮兵 for Red, 将士象马车炮卒 for Black.
    pub const fn chinese(self) -> char {
        match (self.color, self.kind) {
            (Color::Red, PieceKind::King) => '帅',
            (Color::Red, PieceKind::Advisor) => '仕',
            (Color::Red, PieceKind::Elephant) => '相',
            (Color::Black, PieceKind::King) => '将',
            (Color::Black, PieceKind::Advisor) => '士',
            (Color::Black, PieceKind::Elephant) => '象',
            (_, PieceKind::Knight) => '马',
            (_, PieceKind::Rook) => '车',
            (_, PieceKind::Cannon) => '炮',
            (Color::Red, PieceKind::Pawn) => '兵',
            (Color::Black, PieceKind::Pawn) => '卒',
        }
    }
}

/// One of the 90 points, `rank * 9 + file`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(pub u8);

impl Square {
    pub const COUNT: usize = 90;

    #[inline(always)]
    pub const fn new(file: u8, rank: u8) -> Square {
        Square(rank * 9 + file)
    }

    /// Checked constructor for untrusted coordinates.
    pub const fn try_new(file: i32, rank: i32) -> Option<Square> {
        if file >= 0 && file < 9 && rank >= 0 && rank < 10 {
            Some(Square::new(file as u8, rank as u8))
        } else {
            None
        }
    }

    #[inline(always)]
    pub const fn file(self) -> u8 {
        self.0 % 9
    }

    #[inline(always)]
    pub const fn rank(self) -> u8 {
        self.0 / 9
    }

    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The point seen from the other side of the board (rotated 180°).
    #[inline(always)]
    pub const fn flip(self) -> Square {
        Square(89 - self.0)
    }

    /// Rank counted from `color`'s own back rank (0..9).
    #[inline(always)]
    pub const fn relative_rank(self, color: Color) -> u8 {
        match color {
            Color::Red => self.rank(),
            Color::Black => 9 - self.rank(),
        }
    }

    /// ICCS name such as `e0`.
    pub fn iccs(self) -> String {
        format!("{}{}", (b'a' + self.file()) as char, self.rank())
    }

    pub fn parse_iccs(s: &str) -> Option<Square> {
        let b = s.as_bytes();
        if b.len() != 2 {
            return None;
        }
        let f = b[0].to_ascii_lowercase();
        if !(b'a'..=b'i').contains(&f) || !b[1].is_ascii_digit() {
            return None;
        }
        Some(Square::new(f - b'a', b[1] - b'0'))
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank())
    }
}

/// A move: from-square in bits 0..7, to-square in bits 7..14. `Move::NULL` is the null move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Move(pub u16);

impl Move {
    pub const NULL: Move = Move(0);

    #[inline(always)]
    pub const fn new(from: Square, to: Square) -> Move {
        Move(from.0 as u16 | (to.0 as u16) << 7)
    }

    #[inline(always)]
    pub const fn from(self) -> Square {
        Square((self.0 & 0x7f) as u8)
    }

    #[inline(always)]
    pub const fn to(self) -> Square {
        Square((self.0 >> 7) as u8)
    }

    #[inline(always)]
    pub const fn is_null(self) -> bool {
        self.0 == 0
    }

    /// ICCS / UCCI coordinate text, e.g. `h2e2`. The null move prints as `0000`.
    pub fn iccs(self) -> String {
        if self.is_null() {
            return "0000".to_string();
        }
        format!("{}{}", self.from(), self.to())
    }

    /// Parse coordinate text (`h2e2`, also `H2-E2`) into a move. Not checked for legality:
    /// use `Position::parse_move` for that.
    pub fn parse_iccs(s: &str) -> Option<Move> {
        let s = s.trim();
        let (a, b) = if s.len() == 5 && s.as_bytes().get(2) == Some(&b'-') {
            (s.get(0..2)?, s.get(3..5)?)
        } else if s.len() == 4 {
            (s.get(0..2)?, s.get(2..4)?)
        } else {
            return None;
        };
        let from = Square::parse_iccs(a)?;
        let to = Square::parse_iccs(b)?;
        if from == to {
            return None;
        }
        Some(Move::new(from, to))
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_null() {
            f.write_str("0000")
        } else {
            write!(f, "{}{}", self.from(), self.to())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_coordinates() {
        let s = Square::new(4, 0);
        assert_eq!(s.iccs(), "e0");
        assert_eq!(Square::parse_iccs("i9"), Some(Square(89)));
        assert_eq!(s.flip(), Square::new(4, 9));
        assert_eq!(Square::parse_iccs("j0"), None);
        assert_eq!(Square::parse_iccs("a"), None);
    }

    #[test]
    fn move_text_round_trip() {
        let m = Move::parse_iccs("h2e2").unwrap();
        assert_eq!(m.iccs(), "h2e2");
        assert_eq!(Move::parse_iccs("H2-E2"), Some(m));
        assert_eq!(Move::parse_iccs("h2h2"), None);
        assert_eq!(Move::parse_iccs("h2e"), None);
        assert_eq!(Move::parse_iccs("见2e2"), None);
    }

    #[test]
    fn piece_letters() {
        for i in 0..14 {
            let p = Piece::from_index(i);
            assert_eq!(Piece::from_fen_char(p.fen_char()), Some(p));
            assert_eq!(p.index(), i);
        }
    }
}
