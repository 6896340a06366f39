//! Qili's opening book: the book file, probing, weighted choice, and building from game records.
//!
//! A book is a sorted list of entries (book key, move, weight, count, score) read
//! from a file with a versioned, checksummed header (`format`). Positions and their
//! left-right mirrors share entries (`mirror`). `Book::probe` gives the legal book
//! moves of a position in that position's orientation, and `choose` picks one by
//! weight (or the best). `build` turns game records into a book; it knows nothing of
//! search: re-scoring entries with a search is done by its caller (`qili book build`).
//!
//! The book is read into memory and validated once; no `unsafe`, no memory mapping.
//! Docs: `docs/BOOK.md`.

#![forbid(unsafe_code)]

pub mod build;
pub mod format;
pub mod mirror;
pub mod records;

pub use format::{BookError, NO_SCORE};
pub use mirror::{mirror_move, BookKey};

use rules::rng::Rng;
use rules::{Move, Position};

/// The book's stream of the workspace generator (`rules::rng`): book choices from
/// a seed differ from what other users draw from the same seed.
pub const RNG_STREAM: u64 = 0x6a09_e667_f3bc_c908;
use std::path::Path;

/// The book compiled into the binary: built by the project from its own self-play
/// (`qili book build --selfplay`, the command is in `docs/BOOK.md`).
pub const EMBEDDED_BOOK: &[u8] = include_bytes!("../data/qili-selfplay.qbook");

/// `BookFile` value naming the compiled-in book.
pub const EMBEDDED_NAME: &str = "<embedded>";

/// One record: a move of the position filed under `key` (see `BookKey`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    pub key: u64,
    /// A move of the position whose key is `key` (the smaller of a position's and
    /// its mirror's key), so mirrored when played in the mirror.
    pub mv: Move,
    pub weight: u16,
    /// Games the move was played in (saturating at 65 535).
    pub count: u16,
    /// Centipawns for the mover from a short search, or `NO_SCORE`.
    pub score: i16,
}

/// A book move of a particular position, in that position's orientation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookMove {
    pub mv: Move,
    pub weight: u16,
    pub count: u16,
    pub score: Option<i16>,
}

/// How `Book::choose` picks among a position's book moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pick {
    /// At random, each move with probability weight / total weight.
    Weighted,
    /// The move of the highest weight (the first in move order on a tie).
    Best,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Book {
    entries: Vec<Entry>,
}

impl Book {
    /// A book from entries in any order; the order is fixed here, and duplicates,
    /// zero weights and impossible moves are refused as they would be in a file.
    pub fn from_entries(mut entries: Vec<Entry>) -> Result<Book, BookError> {
        entries.sort_by_key(|e| (e.key, e.mv.0));
        format::validate(&entries)?;
        Ok(Book { entries })
    }

    /// Entries already validated by the reader.
    pub(crate) fn from_sorted_unchecked(entries: Vec<Entry>) -> Book {
        Book { entries }
    }

    /// Read and validate a book image.
    pub fn from_bytes(bytes: &[u8]) -> Result<Book, BookError> {
        format::read(bytes)
    }

    /// The book compiled into the binary.
    pub fn embedded() -> Result<Book, BookError> {
        Book::from_bytes(EMBEDDED_BOOK)
    }

    /// `EMBEDDED_NAME` (or an empty name) for the compiled-in book, else a file.
    pub fn load_named(name: &str) -> Result<Book, BookError> {
        match name.trim() {
            "" | EMBEDDED_NAME => Book::embedded(),
            path => Book::load(Path::new(path)),
        }
    }

    pub fn load(path: &Path) -> Result<Book, BookError> {
        let bytes = std::fs::read(path).map_err(|e| BookError::Io {
            path: path.display().to_string(),
            message: e.to_string(),
        })?;
        Book::from_bytes(&bytes)
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        format::write(self)
    }

    pub fn save(&self, path: &Path) -> Result<(), BookError> {
        std::fs::write(path, self.to_bytes()).map_err(|e| BookError::Io {
            path: path.display().to_string(),
            message: e.to_string(),
        })
    }

    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Number of distinct keys (positions, counting a position and its mirror once).
    pub fn positions(&self) -> usize {
        let mut n = 0;
        for (i, e) in self.entries.iter().enumerate() {
            if i == 0 || self.entries[i - 1].key != e.key {
                n += 1;
            }
        }
        n
    }

    /// The entries filed under `key` (binary search; empty if none).
    pub fn lookup(&self, key: u64) -> &[Entry] {
        let lo = self.entries.partition_point(|e| e.key < key);
        let hi = lo + self.entries[lo..].partition_point(|e| e.key == key);
        &self.entries[lo..hi]
    }

    /// The book moves of `pos`, in its orientation, legal ones only (a key that
    /// collides with another position's gives moves that are skipped here).
    pub fn probe(&self, pos: &Position) -> Vec<BookMove> {
        let k = BookKey::of(pos);
        self.lookup(k.key)
            .iter()
            .filter_map(|e| {
                let mv = k.to_played(e.mv);
                pos.is_legal(mv).then_some(BookMove {
                    mv,
                    weight: e.weight,
                    count: e.count,
                    score: (e.score != NO_SCORE).then_some(e.score),
                })
            })
            .collect()
    }

    /// A book move for `pos` that is not in `banned`, or `None` when the position is
    /// not in the book. `random` is a uniform random number (used by `Weighted`).
    pub fn choose(
        &self,
        pos: &Position,
        pick: Pick,
        banned: &[Move],
        random: u64,
    ) -> Option<BookMove> {
        let moves: Vec<BookMove> = self
            .probe(pos)
            .into_iter()
            .filter(|b| !banned.contains(&b.mv))
            .collect();
        pick_from(&moves, pick, random)
    }
}

/// Pick one of `moves` (see `Pick`); `None` if there are none.
pub fn pick_from(moves: &[BookMove], pick: Pick, random: u64) -> Option<BookMove> {
    match pick {
        Pick::Best => moves
            .iter()
            .enumerate()
            .max_by_key(|(i, b)| (b.weight, std::cmp::Reverse(*i)))
            .map(|(_, b)| *b),
        Pick::Weighted => {
            let total: u64 = moves.iter().map(|b| u64::from(b.weight)).sum();
            if total == 0 {
                return None;
            }
            let mut r = random % total;
            for b in moves {
                let w = u64::from(b.weight);
                if r < w {
                    return Some(*b);
                }
                r -= w;
            }
            None
        }
    }
}

/// A line from `start`: up to `max_plies` book moves chosen with `pick` from `rng`,
/// ending early where the book has no move. Used by `qili match --book`.
pub fn book_line(
    book: &Book,
    start: &Position,
    max_plies: usize,
    pick: Pick,
    rng: &mut Rng,
) -> Vec<Move> {
    let mut pos = start.clone();
    let mut line = Vec::new();
    while line.len() < max_plies {
        let Some(b) = book.choose(&pos, pick, &[], rng.next_u64()) else {
            break;
        };
        pos.make_move(b.mv);
        if !pos.has_legal_move() {
            break; // a book line never ends the game
        }
        line.push(b.mv);
    }
    line
}
