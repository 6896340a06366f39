//! Left-right mirroring and the book key.
//!
//! Xiangqi is symmetric about the e-file: a position and its mirror (file `a` ↔ `i`,
//! `b` ↔ `h`, …, ranks unchanged, same side to move) have mirrored best moves. The
//! book keeps one entry set for both: the *book key* of a position is the smaller of
//! its Zobrist key and its mirror's, and the entries' moves are stored as moves of
//! the position with that smaller key. Probing a position whose own key is the larger
//! one mirrors the stored moves back. A left-right symmetric position is its own
//! mirror: its moves are stored as they are.

use rules::{Move, Position, Square};

/// The point on the other side of the e-file: same rank, file `8 - file`.
#[inline]
pub fn mirror_square(s: Square) -> Square {
    Square::new(8 - s.file(), s.rank())
}

/// The move mirrored about the e-file (the null move stays null).
#[inline]
pub fn mirror_move(m: Move) -> Move {
    if m.is_null() {
        return m;
    }
    Move::new(mirror_square(m.from()), mirror_square(m.to()))
}

/// The mirrored position (same side to move, same counters), without history.
/// `None` only if `rules` refused the mirrored board, which cannot happen for a
/// position it accepted (every rule of the board is symmetric about the e-file).
pub fn mirror_position(pos: &Position) -> Option<Position> {
    let mut setup = pos.to_setup();
    let board = setup.board;
    for (i, p) in board.iter().enumerate() {
        let s = Square(i as u8);
        setup.board[mirror_square(s).index()] = *p;
    }
    Position::from_setup(&setup).ok()
}

/// Zobrist key of the mirrored position.
pub fn mirror_key(pos: &Position) -> u64 {
    mirror_position(pos).map_or(pos.key(), |m| m.key())
}

/// Where a position's entries live in the book.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookKey {
    /// `min(key, mirror key)`: the key the entries are filed under.
    pub key: u64,
    /// The position's own key is the larger one: stored moves are moves of the
    /// mirror and must be mirrored to be played here (and mirrored to be stored).
    pub mirrored: bool,
}

impl BookKey {
    pub fn of(pos: &Position) -> BookKey {
        let own = pos.key();
        let mirror = mirror_key(pos);
        if mirror < own {
            BookKey {
                key: mirror,
                mirrored: true,
            }
        } else {
            BookKey {
                key: own,
                mirrored: false,
            }
        }
    }

    /// A move of the position as it is stored under this key.
    pub fn to_stored(self, m: Move) -> Move {
        if self.mirrored {
            mirror_move(m)
        } else {
            m
        }
    }

    /// A stored move as a move of the position (the same mapping: mirroring is its own inverse).
    pub fn to_played(self, m: Move) -> Move {
        self.to_stored(m)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_and_moves_mirror_and_come_back() {
        assert_eq!(mirror_square(Square::new(0, 3)), Square::new(8, 3));
        assert_eq!(mirror_square(Square::new(4, 9)), Square::new(4, 9));
        for from in 0..90u8 {
            let s = Square(from);
            assert_eq!(mirror_square(mirror_square(s)), s);
        }
        let m = Move::parse_iccs("h2e2").unwrap();
        assert_eq!(mirror_move(m).iccs(), "b2e2");
        assert_eq!(mirror_move(mirror_move(m)), m);
        assert!(mirror_move(Move::NULL).is_null());
    }

    #[test]
    fn the_start_is_symmetric_and_one_cannon_opening_is_not() {
        let start = Position::startpos();
        assert_eq!(mirror_key(&start), start.key());
        let k = BookKey::of(&start);
        assert!(!k.mirrored);
        let mut a = Position::startpos();
        a.make_move(Move::parse_iccs("h2e2").unwrap());
        let mut b = Position::startpos();
        b.make_move(Move::parse_iccs("b2e2").unwrap());
        assert_ne!(a.key(), b.key());
        assert_eq!(mirror_key(&a), b.key());
        let (ka, kb) = (BookKey::of(&a), BookKey::of(&b));
        assert_eq!(ka.key, kb.key);
        assert_ne!(ka.mirrored, kb.mirrored);
        // A reply stored from one side is played mirrored from the other.
        let reply = Move::parse_iccs("h9g7").unwrap();
        assert_eq!(kb.to_played(ka.to_stored(reply)).iccs(), "b9c7");
    }
}
