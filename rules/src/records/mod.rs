//! Game records in the formats Chinese game collections come in, read into the same
//! `GameRecord` as PGN (main line, start position, players, event, result):
//!
//! * `xqf` — the binary format of XQStudio (象棋演播室) and most Chinese databases,
//!   plain (version 1.0) and encrypted (versions 1.1 and later);
//! * `dhtmlxq` — the `[DhtmlXQ]` text that web pages and bulletin boards (UBB) carry;
//! * `gbk` — the text encoding both use.
//!
//! Readers never panic: a malformed file is a `RecordError` naming the byte offset
//! (binary) or the line (text). Each reader has a writer, used by the tests and by
//! anyone who wants to hand a record to an older program.

pub mod dhtmlxq;
pub mod gbk;
pub mod xqf;

use crate::fen::Setup;
use crate::pgn::{parse_games, GameRecord, PgnError};
use crate::types::{Color, Piece, PieceKind, Square};
use std::fmt;

/// Where in a record something went wrong.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Location {
    /// Byte offset from the start of a binary file.
    Byte(usize),
    /// 1-based line of a text file.
    Line(usize),
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Location::Byte(o) => write!(f, "byte {o} (0x{o:x})"),
            Location::Line(l) => write!(f, "line {l}"),
        }
    }
}

/// A record that cannot be read, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordError {
    pub at: Location,
    pub what: String,
}

impl RecordError {
    pub(crate) fn byte(offset: usize, what: impl Into<String>) -> RecordError {
        RecordError {
            at: Location::Byte(offset),
            what: what.into(),
        }
    }
    pub(crate) fn line(line: usize, what: impl Into<String>) -> RecordError {
        RecordError {
            at: Location::Line(line),
            what: what.into(),
        }
    }
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.at, self.what)
    }
}

impl std::error::Error for RecordError {}

impl From<PgnError> for RecordError {
    fn from(e: PgnError) -> RecordError {
        RecordError {
            at: Location::Line(e.line),
            what: match e.to_string().split_once(": ") {
                Some((_, rest)) => rest.to_string(),
                None => e.to_string(),
            },
        }
    }
}

/// The formats `read_games` tells apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Pgn,
    Xqf,
    DhtmlXq,
}

/// Which format a file is in, from its first bytes: `XQ` starts an XQF file, a
/// `[DhtmlXQ` tag marks DhtmlXQ/UBB text, anything else is read as PGN.
pub fn detect(bytes: &[u8]) -> Format {
    if bytes.starts_with(b"XQ") {
        return Format::Xqf;
    }
    let head = &bytes[..bytes.len().min(4096)];
    if head.windows(8).any(|w| w.eq_ignore_ascii_case(b"[dhtmlxq")) {
        Format::DhtmlXq
    } else {
        Format::Pgn
    }
}

/// Every game in a file of any of the three formats (text as UTF-8, or GBK when it
/// is not UTF-8). Moves are checked for legality by the XQF and DhtmlXQ readers;
/// PGN moves in ICCS are checked by `GameRecord::replay`.
pub fn read_games(bytes: &[u8]) -> Result<Vec<GameRecord>, RecordError> {
    match detect(bytes) {
        Format::Xqf => Ok(vec![xqf::read(bytes)?]),
        Format::DhtmlXq => dhtmlxq::read_all(&gbk::decode_text(bytes)),
        Format::Pgn => Ok(parse_games(&gbk::decode_text(bytes))?),
    }
}

/// The piece order of the 32 slots that XQF and DhtmlXQ share: Red's rook, knight,
/// elephant, advisor, king, advisor, elephant, knight, rook, two cannons, five pawns,
/// then Black's in the same order.
pub(crate) const SLOT_KINDS: [PieceKind; 16] = [
    PieceKind::Rook,
    PieceKind::Knight,
    PieceKind::Elephant,
    PieceKind::Advisor,
    PieceKind::King,
    PieceKind::Advisor,
    PieceKind::Elephant,
    PieceKind::Knight,
    PieceKind::Rook,
    PieceKind::Cannon,
    PieceKind::Cannon,
    PieceKind::Pawn,
    PieceKind::Pawn,
    PieceKind::Pawn,
    PieceKind::Pawn,
    PieceKind::Pawn,
];

/// The piece of slot `i` (0..32).
pub(crate) fn slot_piece(i: usize) -> Piece {
    let color = if i < 16 { Color::Red } else { Color::Black };
    Piece::new(color, SLOT_KINDS[i % 16])
}

/// The 32 slots of a board: each piece on the first free slot of its kind and colour.
/// `None` when a side has more of a kind than the slots hold (the formats cannot
/// write such a composed study).
pub(crate) fn board_slots(setup: &Setup) -> Option<[Option<Square>; 32]> {
    let mut slots = [None; 32];
    for (i, p) in setup.board.iter().enumerate() {
        if let Some(p) = p {
            let free = (0..32).find(|&k| slot_piece(k) == *p && slots[k].is_none())?;
            slots[free] = Some(Square(i as u8));
        }
    }
    Some(slots)
}

/// Name of a game for reports: "Red – Black, Event, Date" from whichever tags exist.
pub fn game_title(g: &GameRecord) -> Option<String> {
    let tag = |n: &str| g.tag(n).filter(|v| !v.trim().is_empty() && *v != "?");
    let players = match (tag("Red"), tag("Black")) {
        (Some(r), Some(b)) => Some(format!("{r} – {b}")),
        (Some(r), None) => Some(r.to_string()),
        (None, Some(b)) => Some(b.to_string()),
        (None, None) => None,
    };
    let parts: Vec<String> = [
        players,
        tag("Event").map(str::to_string),
        tag("Date").map(str::to_string),
    ]
    .into_iter()
    .flatten()
    .collect();
    if parts.is_empty() {
        tag("Title").map(str::to_string)
    } else {
        Some(parts.join(", "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_are_told_apart() {
        assert_eq!(detect(b"XQ\x0a"), Format::Xqf);
        assert_eq!(
            detect(b"junk\n[DhtmlXQ]\n[DhtmlXQ_movelist]7747[/DhtmlXQ_movelist]"),
            Format::DhtmlXq
        );
        assert_eq!(detect(b"[Event \"x\"]\n1. h2e2 *"), Format::Pgn);
        assert_eq!(detect(b""), Format::Pgn);
    }

    #[test]
    fn slots_of_the_start_position() {
        let s = Setup::parse(crate::fen::START_FEN).unwrap();
        let slots = board_slots(&s).unwrap();
        assert!(slots.iter().all(Option::is_some));
        assert_eq!(slots[0], Some(Square::new(0, 0)), "Red's first rook on a0");
        assert_eq!(slots[4], Some(Square::new(4, 0)), "Red's king on e0");
        assert_eq!(slots[20], Some(Square::new(4, 9)), "Black's king on e9");
        let two_kings_too_many = Setup::parse("3k5/9/9/9/9/9/9/9/9/AAAK5 w").unwrap();
        assert!(
            board_slots(&two_kings_too_many).is_none(),
            "three advisors have two slots"
        );
    }
}
