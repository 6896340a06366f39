//! The book file: a 64-byte little-endian header followed by 16-byte records sorted
//! by (key, move).
//!
//! ```text
//! header
//! offset size  field
//!  0      8    magic "QILIBOOK"
//!  8      4    format version (1)
//! 12      4    key scheme (1: min(Zobrist key, mirrored position's key), see `mirror`)
//! 16      8    key check: the Zobrist key of the start position when the file was
//!              written; a build whose keys differ cannot use the file
//! 24      8    record count N
//! 32      8    payload length in bytes (16 N)
//! 40      8    FNV-1a 64 checksum of the payload
//! 48     16    reserved (0)
//! 64    16 N   records
//!
//! record
//!  0      8    book key (u64)
//!  8      2    move (u16, as `rules::Move`: from point in bits 0-6, to point in
//!              bits 7-13, bits 14-15 zero; a move of the position with that key)
//! 10      2    weight (u16, at least 1): relative chance of being played
//! 12      2    count (u16): games the move was played in (saturating)
//! 14      2    score (i16): centipawns for the side making the move after a short
//!              search of the position it leads to; -32768 when not searched
//! ```
//!
//! Records are strictly increasing in (key, move): a position's moves are contiguous
//! and found by binary search. Every way a file can be wrong is a `BookError`.

use crate::{Book, Entry};
use rules::bytes::{u16_at, u32_at, u64_at};
use rules::{Move, Position};
use std::fmt;

pub const MAGIC: [u8; 8] = *b"QILIBOOK";
pub const VERSION: u32 = 1;
/// Key scheme 1: `BookKey` (the smaller of a position's and its mirror's Zobrist key).
pub const KEY_SCHEME_MIRROR_MIN: u32 = 1;
pub const HEADER_LEN: usize = 64;
pub const RECORD_LEN: usize = 16;
/// `Entry::score` of a move that was never searched.
pub const NO_SCORE: i16 = i16::MIN;

/// Why a book could not be read (or written).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BookError {
    /// The file could not be read or written.
    Io {
        path: String,
        message: String,
    },
    /// Shorter than the header.
    TooShort {
        len: usize,
    },
    BadMagic,
    UnsupportedVersion {
        found: u32,
        supported: u32,
    },
    UnknownKeyScheme {
        found: u32,
        supported: u32,
    },
    /// The file's Zobrist keys are not this build's (the start position's key differs).
    KeyMismatch {
        file: u64,
        build: u64,
    },
    /// The declared payload length is not 16 × the record count.
    PayloadLengthMismatch {
        declared: u64,
        records: u64,
    },
    /// The file ends before the declared payload does.
    Truncated {
        len: usize,
        expected: usize,
    },
    /// Bytes after the declared payload.
    TrailingBytes {
        len: usize,
        expected: usize,
    },
    ChecksumMismatch {
        stored: u64,
        computed: u64,
    },
    NonZeroReserved,
    /// Record `index` is not after record `index - 1` in (key, move) order.
    Unsorted {
        index: usize,
    },
    /// Record `index` repeats the key and move of the record before it.
    DuplicateEntry {
        index: usize,
    },
    /// Record `index` holds no move a piece could make: a point beyond 89, the same
    /// point twice, or bits 14-15 set.
    BadMove {
        index: usize,
        raw: u16,
    },
    /// Record `index` has weight 0 (a move that is never played has no record).
    ZeroWeight {
        index: usize,
    },
}

impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BookError::Io { path, message } => write!(f, "{path}: {message}"),
            BookError::TooShort { len } => {
                write!(f, "{len} bytes is shorter than the {HEADER_LEN}-byte header")
            }
            BookError::BadMagic => write!(f, "not a Qili book (bad magic)"),
            BookError::UnsupportedVersion { found, supported } => {
                write!(f, "book format version {found}; this build reads {supported}")
            }
            BookError::UnknownKeyScheme { found, supported } => {
                write!(f, "book key scheme {found}; this build knows {supported}")
            }
            BookError::KeyMismatch { file, build } => write!(
                f,
                "the book's position keys are not this build's (start key {file:016x}, here {build:016x})"
            ),
            BookError::PayloadLengthMismatch { declared, records } => write!(
                f,
                "payload of {declared} bytes declared for {records} records of {RECORD_LEN} bytes"
            ),
            BookError::Truncated { len, expected } => {
                write!(f, "truncated: {len} bytes, expected {expected}")
            }
            BookError::TrailingBytes { len, expected } => {
                write!(f, "{len} bytes, {} after the {expected} expected", len - expected)
            }
            BookError::ChecksumMismatch { stored, computed } => write!(
                f,
                "checksum mismatch (stored {stored:016x}, computed {computed:016x})"
            ),
            BookError::NonZeroReserved => write!(f, "reserved header bytes are not zero"),
            BookError::Unsorted { index } => {
                write!(f, "record {index} is out of (key, move) order")
            }
            BookError::DuplicateEntry { index } => {
                write!(f, "record {index} repeats the key and move of the one before")
            }
            BookError::BadMove { index, raw } => {
                write!(f, "record {index}: {raw:#06x} is not a move")
            }
            BookError::ZeroWeight { index } => write!(f, "record {index} has weight 0"),
        }
    }
}

impl std::error::Error for BookError {}

/// The payload checksum of the header: FNV-1a 64.
pub use rules::checksum::fnv1a64 as checksum;

/// The start position's Zobrist key in this build (the header's key check).
pub fn start_key() -> u64 {
    Position::startpos().key()
}

/// A raw move a piece could make: two different points 0..90, nothing else set.
pub fn move_is_well_formed(raw: u16) -> bool {
    let m = Move(raw);
    raw >> 14 == 0 && m.from().0 < 90 && m.to().0 < 90 && m.from() != m.to()
}

/// Check the entries' order and contents (what the reader checks after the header).
pub(crate) fn validate(entries: &[Entry]) -> Result<(), BookError> {
    for (index, e) in entries.iter().enumerate() {
        if !move_is_well_formed(e.mv.0) {
            return Err(BookError::BadMove { index, raw: e.mv.0 });
        }
        if e.weight == 0 {
            return Err(BookError::ZeroWeight { index });
        }
        if index > 0 {
            let p = &entries[index - 1];
            match (p.key, p.mv.0).cmp(&(e.key, e.mv.0)) {
                std::cmp::Ordering::Less => {}
                std::cmp::Ordering::Equal => return Err(BookError::DuplicateEntry { index }),
                std::cmp::Ordering::Greater => return Err(BookError::Unsorted { index }),
            }
        }
    }
    Ok(())
}

/// Read a book image. Checks, in this order: length of the header, magic, version,
/// key scheme, key check, reserved bytes, payload length, truncation, trailing
/// bytes, checksum, then every record (move, weight, order).
pub fn read(bytes: &[u8]) -> Result<Book, BookError> {
    if bytes.len() < HEADER_LEN {
        return Err(BookError::TooShort { len: bytes.len() });
    }
    if bytes[0..8] != MAGIC {
        return Err(BookError::BadMagic);
    }
    let version = u32_at(bytes, 8);
    if version != VERSION {
        return Err(BookError::UnsupportedVersion {
            found: version,
            supported: VERSION,
        });
    }
    let scheme = u32_at(bytes, 12);
    if scheme != KEY_SCHEME_MIRROR_MIN {
        return Err(BookError::UnknownKeyScheme {
            found: scheme,
            supported: KEY_SCHEME_MIRROR_MIN,
        });
    }
    let key_check = u64_at(bytes, 16);
    if key_check != start_key() {
        return Err(BookError::KeyMismatch {
            file: key_check,
            build: start_key(),
        });
    }
    if bytes[48..HEADER_LEN].iter().any(|&b| b != 0) {
        return Err(BookError::NonZeroReserved);
    }
    let records = u64_at(bytes, 24);
    let declared = u64_at(bytes, 32);
    if records.checked_mul(RECORD_LEN as u64) != Some(declared) {
        return Err(BookError::PayloadLengthMismatch { declared, records });
    }
    // Compare in u64: a declared length beyond memory is simply truncation.
    let expected64 = (HEADER_LEN as u64).saturating_add(declared);
    if (bytes.len() as u64) < expected64 {
        return Err(BookError::Truncated {
            len: bytes.len(),
            expected: usize::try_from(expected64).unwrap_or(usize::MAX),
        });
    }
    let expected = expected64 as usize;
    if bytes.len() > expected {
        return Err(BookError::TrailingBytes {
            len: bytes.len(),
            expected,
        });
    }
    let payload = &bytes[HEADER_LEN..];
    let stored = u64_at(bytes, 40);
    let computed = checksum(payload);
    if stored != computed {
        return Err(BookError::ChecksumMismatch { stored, computed });
    }
    let entries: Vec<Entry> = payload
        .chunks_exact(RECORD_LEN)
        .map(|r| Entry {
            key: u64_at(r, 0),
            mv: Move(u16_at(r, 8)),
            weight: u16_at(r, 10),
            count: u16_at(r, 12),
            score: u16_at(r, 14) as i16,
        })
        .collect();
    validate(&entries)?;
    Ok(Book::from_sorted_unchecked(entries))
}

/// The file image of a (valid) book.
pub fn write(book: &Book) -> Vec<u8> {
    let entries = book.entries();
    let mut payload = Vec::with_capacity(entries.len() * RECORD_LEN);
    for e in entries {
        payload.extend_from_slice(&e.key.to_le_bytes());
        payload.extend_from_slice(&e.mv.0.to_le_bytes());
        payload.extend_from_slice(&e.weight.to_le_bytes());
        payload.extend_from_slice(&e.count.to_le_bytes());
        payload.extend_from_slice(&e.score.to_le_bytes());
    }
    let mut out = Vec::with_capacity(HEADER_LEN + payload.len());
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&KEY_SCHEME_MIRROR_MIN.to_le_bytes());
    out.extend_from_slice(&start_key().to_le_bytes());
    out.extend_from_slice(&(entries.len() as u64).to_le_bytes());
    out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    out.extend_from_slice(&checksum(&payload).to_le_bytes());
    out.extend_from_slice(&[0u8; 16]);
    debug_assert_eq!(out.len(), HEADER_LEN);
    out.extend_from_slice(&payload);
    out
}
