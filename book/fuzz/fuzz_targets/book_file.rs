//! A book file image, valid or not, must load into a `Book` or a `BookError`, never
//! a panic; a loaded book writes back to the same bytes, finds each of its entries
//! by key, and probes and chooses in any position without panicking, giving only
//! legal moves.
//!
//! The first input byte picks the image: a valid book patched by the rest of the
//! input, or the raw input itself. Patches are 5-byte records (a little-endian offset
//! into the image, a byte to store there); when the picking byte is odd the checksum
//! is recomputed after patching, so that the record checks behind it (moves,
//! weights, order) and probing arbitrary entries are reached too.
#![no_main]

use book::format::{checksum, HEADER_LEN};
use book::{Book, BookKey, Entry, Pick};
use libfuzzer_sys::fuzz_target;
use rules::{Move, Position};
use std::sync::OnceLock;

fn positions() -> &'static [Position] {
    static POS: OnceLock<Vec<Position>> = OnceLock::new();
    POS.get_or_init(|| {
        let mut v = vec![Position::startpos()];
        for line in [&["h2e2"][..], &["b2e2"], &["h2e2", "h9g7"], &["b2e2", "b9c7"]] {
            let mut p = Position::startpos();
            for t in line {
                let m = p.parse_move(t).expect("legal");
                p.make_move(m);
            }
            v.push(p);
        }
        v
    })
}

fn base() -> &'static [u8] {
    static BASE: OnceLock<Vec<u8>> = OnceLock::new();
    BASE.get_or_init(|| {
        let mut entries: Vec<Entry> = Vec::new();
        for (i, p) in positions().iter().enumerate() {
            let k = BookKey::of(p);
            // A position and its mirror share a key: file its moves once.
            if entries.iter().any(|e| e.key == k.key) {
                continue;
            }
            for (j, m) in p.legal_moves().iter().take(3).enumerate() {
                entries.push(Entry {
                    key: k.key,
                    mv: k.to_stored(*m),
                    weight: (i * 3 + j + 1) as u16,
                    count: j as u16,
                    score: if j == 0 { book::NO_SCORE } else { 10 * j as i16 },
                });
            }
        }
        Book::from_entries(entries).expect("valid").to_bytes()
    })
}

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let mut bytes = if pick % 4 < 3 { base().to_vec() } else { rest.to_vec() };
    if pick % 4 < 3 {
        for p in rest.chunks_exact(5) {
            let at = u32::from_le_bytes([p[0], p[1], p[2], p[3]]) as usize % bytes.len();
            bytes[at] = p[4];
        }
        if pick % 2 == 1 && bytes.len() >= HEADER_LEN {
            let sum = checksum(&bytes[HEADER_LEN..]);
            bytes[40..48].copy_from_slice(&sum.to_le_bytes());
        }
    }
    let Ok(book) = Book::from_bytes(&bytes) else {
        return;
    };
    assert_eq!(book.to_bytes(), bytes, "a valid book writes back to its bytes");
    for e in book.entries() {
        assert!(book.lookup(e.key).contains(e));
    }
    for (i, p) in positions().iter().enumerate() {
        for b in book.probe(p) {
            assert!(p.is_legal(b.mv));
        }
        let r = u64::from(pick) << 8 | i as u64;
        for pick in [Pick::Weighted, Pick::Best] {
            if let Some(b) = book.choose(p, pick, &[Move::NULL], r) {
                assert!(p.is_legal(b.mv));
            }
        }
    }
});
