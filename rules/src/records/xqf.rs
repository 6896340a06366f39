//! XQF, the binary game format of XQStudio (象棋演播室), read (main line) and written.
//!
//! A file is a 1024-byte header and a move tree. The header (offsets in bytes):
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 2 | `XQ` |
//! | 2 | 1 | version: 10 and below plain; 11 and above encrypted |
//! | 3 | 1 | key mask |
//! | 4 | 4 | product id (ignored) |
//! | 8 | 4 | key "or" bytes A–D |
//! | 12 | 4 | key sum, piece key, from-point key, to-point key |
//! | 16 | 32 | points of the 32 pieces (`x * 10 + y`, x = file a..i, y = rank 0..9 from Red's side; 90 and above: not on the board) in the order of `SLOT_KINDS`, Red then Black |
//! | 48 | 2 | first move number (ignored) |
//! | 50 | 1 | side to move: 0 Red, 1 Black |
//! | 51 | 1 | result: 0 unknown, 1 Red wins, 2 Black wins, 3 draw |
//! | 80, 208, 272, 288, 304, 320, 336, 464, 480 | 64, 64, 16, 16, 16, 16, 64, 16, 16 | title, event, date, site, Red, Black, time control, annotator, author: a length byte, then GBK text |
//!
//! From offset 1024 the tree is written depth first, each node a record: from point,
//! to point, a flag byte, a reserved byte, then a comment. The first record is the
//! root (no move; its comment is the game's). Version 10: the from and to bytes carry
//! 0x18 and 0x20 added; the flag's high nibble says a first child follows, its low
//! nibble that a sibling (a variation) follows after this node's subtree; a 4-byte
//! comment length always follows. Version 11 and later: bit 0x80 a child follows,
//! 0x40 a sibling, 0x20 a comment (its 4-byte length has a key added); the from and
//! to bytes also carry the from/to keys; every byte from 1024 on has a 32-byte key
//! stream added; and the piece points carry the piece key (version 12 and later also
//! rotate the 32 slots by it). The keys are derived from header bytes 3 and 8..16.
//!
//! The main line is the chain of first children, so it is the run of records from
//! the first move while each one says a child follows.
//!
//! Checked against real XQStudio files: the three samples that ship with
//! ElephantEye's XQF tools (xqbase/eleeye, `XQFTOOLS/*.XQF`, encrypted version 18:
//! a handicap game with a set-up start, a tournament game of 110 moves and the
//! study 七星聚会) read with their players, events, results and whole main lines, and
//! `qili judge` gives the same report on `SAMPLE.XQF` as on the `SAMPLE.PGN` those
//! tools converted from it (the files are not ours to commit). The same tools'
//! reader rotates the piece slots only from version 12, as this one does. Whether
//! any version checks the key sum is still unknown; nothing here relies on it. The
//! tests build files with this writer and by hand from the layout above.

use super::{board_slots, gbk, slot_piece, RecordError};
use crate::fen::{Setup, START_FEN};
use crate::pgn::{GameRecord, GameResult};
use crate::position::Position;
use crate::types::{Color, Move, Square};

pub const HEADER_LEN: usize = 1024;
const KEY_TEXT: &[u8; 32] = b"[(C) Copyright Mr. Dong Shiwei.]";

/// The text fields: (tag, offset of the length byte, field size including it).
const TEXT_FIELDS: [(&str, usize, usize); 9] = [
    ("Title", 80, 64),
    ("Event", 208, 64),
    ("Date", 272, 16),
    ("Site", 288, 16),
    ("Red", 304, 16),
    ("Black", 320, 16),
    ("TimeControl", 336, 64),
    ("Annotator", 464, 16),
    ("Author", 480, 16),
];

/// The header bytes the encryption keys come from (offsets 3 and 8..16).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KeyBytes {
    pub mask: u8,
    pub or: [u8; 4],
    /// Key sum, piece key, from key, to key (offsets 12..16).
    pub seeds: [u8; 4],
}

/// The keys derived from `KeyBytes`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Keys {
    piece: u8,
    from: u8,
    to: u8,
    comment: u32,
    stream: [u8; 32],
}

/// `(54 k² + 221) · k`, the scrambling step of each key, mod 256.
fn scramble(k: u8) -> u8 {
    let k = k as u32;
    ((k * k * 54 + 221) & 0xFF) as u8
}

impl KeyBytes {
    fn keys(&self) -> Keys {
        let [sum, xy, xyf, xyt] = self.seeds;
        let piece = scramble(xy).wrapping_mul(xy);
        let from = scramble(xyf).wrapping_mul(piece);
        let to = scramble(xyt).wrapping_mul(from);
        let comment = (sum as u32 * 256 + xy as u32) % 32000 + 767;
        let mut stream = [0u8; 32];
        for (i, s) in stream.iter_mut().enumerate() {
            *s = ((self.seeds[i % 4] & self.mask) | self.or[i % 4]) & KEY_TEXT[i];
        }
        Keys {
            piece,
            from,
            to,
            comment,
            stream,
        }
    }

    fn of_header(h: &[u8]) -> KeyBytes {
        KeyBytes {
            mask: h[3],
            or: [h[8], h[9], h[10], h[11]],
            seeds: [h[12], h[13], h[14], h[15]],
        }
    }
}

/// Read the main line of an XQF file.
pub fn read(bytes: &[u8]) -> Result<GameRecord, RecordError> {
    if bytes.len() < HEADER_LEN {
        return Err(RecordError::byte(
            bytes.len(),
            format!("the file ends inside the {HEADER_LEN}-byte XQF header"),
        ));
    }
    if &bytes[..2] != b"XQ" {
        return Err(RecordError::byte(
            0,
            "not an XQF file (it does not start with XQ)",
        ));
    }
    let h = &bytes[..HEADER_LEN];
    let version = h[2];
    let keys = (version > 10).then(|| KeyBytes::of_header(h).keys());

    let setup = read_board(h, version, keys.as_ref())?;
    let mut g = GameRecord::default();
    for (tag, off, size) in TEXT_FIELDS {
        if let Some(v) = read_text(h, off, size) {
            g.set_tag(tag, &v);
        }
    }
    g.result = match h[51] {
        1 => GameResult::RedWins,
        2 => GameResult::BlackWins,
        3 => GameResult::Draw,
        _ => GameResult::Unknown,
    };

    // The move records, decrypted.
    let mut data = bytes[HEADER_LEN..].to_vec();
    if let Some(k) = &keys {
        for (i, b) in data.iter_mut().enumerate() {
            *b = b.wrapping_sub(k.stream[i % 32]);
        }
    }
    let mut at = 0usize;
    let root = read_record(&data, &mut at, keys.as_ref())?;
    g.comment = root.comment;
    let mut pos = Position::from_setup(&setup)
        .map_err(|e| RecordError::byte(16, format!("the start position cannot be played: {e}")))?;
    let mut setup = setup;
    let mut more = root.has_child;
    let mut ply = 0usize;
    while more {
        let offset = HEADER_LEN + at;
        let r = read_record(&data, &mut at, keys.as_ref())?;
        let (from, to) = (point(r.from), point(r.to));
        let (Some(from), Some(to)) = (from, to) else {
            return Err(RecordError::byte(
                offset,
                format!(
                    "move {} names a point off the board ({}, {})",
                    ply + 1,
                    r.from,
                    r.to
                ),
            ));
        };
        let m = Move::new(from, to);
        // Some writers leave the side-to-move byte at 0: the first mover decides.
        if ply == 0 {
            if let Some(p) = pos.piece_at(from) {
                if p.color != setup.side {
                    setup.side = p.color;
                    pos = Position::from_setup(&setup).map_err(|e| {
                        RecordError::byte(50, format!("the start position cannot be played: {e}"))
                    })?;
                }
            }
        }
        if !pos.is_legal(m) {
            return Err(RecordError::byte(
                offset,
                format!("move {} ({m}) is not legal in its position", ply + 1),
            ));
        }
        pos.make_move(m);
        g.push(m, r.comment);
        more = r.has_child;
        ply += 1;
    }
    let fen = setup.to_fen();
    if fen != START_FEN {
        g.set_tag("FEN", &fen);
    }
    Ok(g)
}

/// `x * 10 + y` as a point, if on the board.
fn point(b: u8) -> Option<Square> {
    (b < 90).then(|| Square::new(b / 10, b % 10))
}

fn read_board(h: &[u8], version: u8, keys: Option<&Keys>) -> Result<Setup, RecordError> {
    let mut slots = [0xFFu8; 32];
    for i in 0..32 {
        let raw = h[16 + i];
        match keys {
            None => slots[i] = raw,
            Some(k) if version >= 12 => {
                slots[(k.piece as usize + 1 + i) % 32] = raw.wrapping_sub(k.piece);
            }
            Some(k) => slots[i] = raw.wrapping_sub(k.piece),
        }
    }
    let mut setup = Setup::parse("9/9/9/9/9/9/9/9/9/9 w").expect("an empty board parses");
    for (i, &b) in slots.iter().enumerate() {
        if let Some(s) = point(b) {
            if setup.board[s.index()].is_some() {
                return Err(RecordError::byte(16 + i, format!("two pieces on {s}")));
            }
            setup.board[s.index()] = Some(slot_piece(i));
        }
    }
    setup.side = match h[50] {
        1 => Color::Black,
        _ => Color::Red,
    };
    Ok(setup)
}

/// A length-prefixed GBK text field; `None` when empty.
fn read_text(h: &[u8], off: usize, size: usize) -> Option<String> {
    let len = (h[off] as usize).min(size - 1);
    let raw = &h[off + 1..off + 1 + len];
    let raw = raw.split(|&b| b == 0).next().unwrap_or(raw);
    let text = gbk::decode(raw).trim().to_string();
    (!text.is_empty()).then_some(text)
}

struct Record {
    from: u8,
    to: u8,
    has_child: bool,
    comment: Option<String>,
}

/// Read the record at `*at` of the decrypted move data and step past it.
fn read_record(data: &[u8], at: &mut usize, keys: Option<&Keys>) -> Result<Record, RecordError> {
    let start = *at;
    let fixed = data.get(start..start + 4).ok_or_else(|| {
        RecordError::byte(
            HEADER_LEN + data.len(),
            "the file ends inside a move record",
        )
    })?;
    let (mut from, mut to, flag) = (fixed[0], fixed[1], fixed[2]);
    let (has_child, has_comment) = match keys {
        None => (flag & 0xF0 != 0, true),
        Some(_) => (flag & 0x80 != 0, flag & 0x20 != 0),
    };
    let mut end = start + 4;
    let mut comment = None;
    if has_comment {
        let len_bytes = data.get(end..end + 4).ok_or_else(|| {
            RecordError::byte(
                HEADER_LEN + data.len(),
                "the file ends inside a comment length",
            )
        })?;
        let stored = u32::from_le_bytes([len_bytes[0], len_bytes[1], len_bytes[2], len_bytes[3]]);
        let len = match keys {
            None => stored,
            Some(k) => stored.checked_sub(k.comment).ok_or_else(|| {
                RecordError::byte(HEADER_LEN + end, "the comment length is below its key")
            })?,
        } as usize;
        end += 4;
        let text = data.get(end..end.saturating_add(len)).ok_or_else(|| {
            RecordError::byte(
                HEADER_LEN + end,
                format!("a comment of {len} bytes runs past the end of the file"),
            )
        })?;
        let text = gbk::decode(text).trim().to_string();
        if !text.is_empty() {
            comment = Some(text);
        }
        end += len;
    }
    from = from.wrapping_sub(0x18);
    to = to.wrapping_sub(0x20);
    if let Some(k) = keys {
        from = from.wrapping_sub(k.from);
        to = to.wrapping_sub(k.to);
    }
    *at = end;
    Ok(Record {
        from,
        to,
        has_child,
        comment,
    })
}

/// How to write a file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WriteAs {
    /// Version 10 (XQF 1.0), no encryption.
    Plain,
    /// An encrypted version (11 or later) with these key bytes.
    Encrypted { version: u8, keys: KeyBytes },
}

/// Write a record as XQF: its start position, tags, result, game comment and main
/// line with comments. Fails when the start position has more of a kind than the
/// format's slots hold, or a move is not legal.
pub fn write(g: &GameRecord, how: WriteAs) -> Result<Vec<u8>, String> {
    let (version, keys) = match how {
        WriteAs::Plain => (10u8, None),
        WriteAs::Encrypted { version, keys } => {
            if version <= 10 {
                return Err(format!("version {version} is not an encrypted version"));
            }
            (version, Some((keys, keys.keys())))
        }
    };
    let setup = Setup::parse(g.start_fen()).map_err(|e| format!("bad FEN: {e}"))?;
    let slots = board_slots(&setup).ok_or("more pieces of a kind than XQF has slots for")?;
    let mut h = vec![0u8; HEADER_LEN];
    h[0] = b'X';
    h[1] = b'Q';
    h[2] = version;
    if let Some((kb, _)) = &keys {
        h[3] = kb.mask;
        h[8..12].copy_from_slice(&kb.or);
        h[12..16].copy_from_slice(&kb.seeds);
    }
    for i in 0..32 {
        let plain = slots[i].map_or(0xFF, |s| s.file() * 10 + s.rank());
        match &keys {
            None => h[16 + i] = plain,
            Some((_, k)) if version >= 12 => {
                let slot = slots[(k.piece as usize + 1 + i) % 32];
                h[16 + i] = slot
                    .map_or(0xFF, |s| s.file() * 10 + s.rank())
                    .wrapping_add(k.piece);
            }
            Some((_, k)) => h[16 + i] = plain.wrapping_add(k.piece),
        }
    }
    h[50] = (setup.side == Color::Black) as u8;
    h[51] = match g.result {
        GameResult::Unknown => 0,
        GameResult::RedWins => 1,
        GameResult::BlackWins => 2,
        GameResult::Draw => 3,
    };
    for (tag, off, size) in TEXT_FIELDS {
        if let Some(v) = g.tag(tag) {
            let mut b = gbk::encode(v);
            b.truncate(size - 1);
            h[off] = b.len() as u8;
            h[off + 1..off + 1 + b.len()].copy_from_slice(&b);
        }
    }

    let mut data = Vec::new();
    let k = keys.as_ref().map(|(_, k)| k);
    push_record(
        &mut data,
        (0, 0),
        !g.moves.is_empty(),
        g.comment.as_deref(),
        k,
    );
    let mut pos = Position::from_setup(&setup).map_err(|e| format!("bad start position: {e}"))?;
    for (i, &m) in g.moves.iter().enumerate() {
        if !pos.is_legal(m) {
            return Err(format!("move {} ({m}) is not legal", i + 1));
        }
        pos.make_move(m);
        let at = |s: Square| s.file() * 10 + s.rank();
        let comment = g.comments.get(i).and_then(|c| c.as_deref());
        push_record(
            &mut data,
            (at(m.from()), at(m.to())),
            i + 1 < g.moves.len(),
            comment,
            k,
        );
    }
    if let Some(k) = k {
        for (i, b) in data.iter_mut().enumerate() {
            *b = b.wrapping_add(k.stream[i % 32]);
        }
    }
    h.extend_from_slice(&data);
    Ok(h)
}

fn push_record(
    out: &mut Vec<u8>,
    (from, to): (u8, u8),
    has_child: bool,
    comment: Option<&str>,
    keys: Option<&Keys>,
) {
    let text = comment.map(gbk::encode).unwrap_or_default();
    match keys {
        None => {
            out.extend_from_slice(&[
                from.wrapping_add(0x18),
                to.wrapping_add(0x20),
                if has_child { 0xF0 } else { 0 },
                0,
            ]);
            out.extend_from_slice(&(text.len() as u32).to_le_bytes());
        }
        Some(k) => {
            let flag = if has_child { 0x80 } else { 0 } | if text.is_empty() { 0 } else { 0x20 };
            out.extend_from_slice(&[
                from.wrapping_add(0x18).wrapping_add(k.from),
                to.wrapping_add(0x20).wrapping_add(k.to),
                flag,
                0,
            ]);
            if !text.is_empty() {
                out.extend_from_slice(&(text.len() as u32 + k.comment).to_le_bytes());
            }
        }
    }
    out.extend_from_slice(&text);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scrambled_keys_by_hand() {
        // Seeds 1, 1, 1: piece (54 + 221) · 1 = 275 → 19; from (275 mod 256) · 19 =
        // 19 · 19 = 361 → 105; to 19 · 105 = 1995 → 203; comment (0 · 256 + 1) mod
        // 32000 + 767 = 768.
        let k = KeyBytes {
            mask: 0xFF,
            or: [0; 4],
            seeds: [0, 1, 1, 1],
        }
        .keys();
        assert_eq!((k.piece, k.from, k.to, k.comment), (19, 105, 203, 768));
        // Stream byte i: (seed[i % 4] & mask | or[i % 4]) & KEY_TEXT[i].
        assert_eq!(k.stream[0], 0);
        assert_eq!(k.stream[1], 1 & b'(');
    }
}
