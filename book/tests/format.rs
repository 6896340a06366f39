//! The book file: a round trip, and a typed error for every malformed file.

use book::format::{checksum, start_key, HEADER_LEN, RECORD_LEN};
use book::{Book, BookError, Entry, NO_SCORE};
use rules::{Move, Position};

fn mv(s: &str) -> Move {
    Move::parse_iccs(s).unwrap()
}

fn sample() -> Book {
    let k = Position::startpos().key();
    Book::from_entries(vec![
        Entry {
            key: k,
            mv: mv("h2e2"),
            weight: 40,
            count: 25,
            score: 12,
        },
        Entry {
            key: k,
            mv: mv("b0c2"),
            weight: 10,
            count: 7,
            score: NO_SCORE,
        },
        Entry {
            key: 5,
            mv: mv("a0a1"),
            weight: 1,
            count: 1,
            score: -30,
        },
    ])
    .unwrap()
}

/// Store a fresh checksum, so that the check behind it is reached.
fn reseal(bytes: &mut [u8]) {
    let sum = checksum(&bytes[HEADER_LEN..]);
    bytes[40..48].copy_from_slice(&sum.to_le_bytes());
}

fn record_at(i: usize) -> usize {
    HEADER_LEN + i * RECORD_LEN
}

#[test]
fn round_trip_keeps_every_field() {
    let b = sample();
    let bytes = b.to_bytes();
    assert_eq!(bytes.len(), HEADER_LEN + 3 * RECORD_LEN);
    assert_eq!(&bytes[0..8], b"QILIBOOK");
    let again = Book::from_bytes(&bytes).unwrap();
    assert_eq!(again, b);
    // Sorted by key, then move.
    assert_eq!(again.entries()[0].key, 5);
    let start = again.probe(&Position::startpos());
    assert_eq!(start.len(), 2);
    assert_eq!(
        start.iter().find(|m| m.mv == mv("h2e2")).unwrap().score,
        Some(12)
    );
    assert_eq!(
        start.iter().find(|m| m.mv == mv("b0c2")).unwrap().score,
        None
    );
    // An empty book is a valid file too.
    let empty = Book::default().to_bytes();
    assert_eq!(Book::from_bytes(&empty).unwrap().len(), 0);
}

#[test]
fn every_malformed_file_is_a_typed_error() {
    let good = sample().to_bytes();
    let check =
        |bytes: &[u8], want: &dyn Fn(&BookError) -> bool, what: &str| match Book::from_bytes(bytes)
        {
            Err(e) => {
                assert!(want(&e), "{what}: got {e:?}");
                assert!(!e.to_string().is_empty());
            }
            Ok(_) => panic!("{what}: accepted"),
        };

    check(
        &good[..10],
        &|e| matches!(e, BookError::TooShort { len: 10 }),
        "short",
    );
    check(
        &[],
        &|e| matches!(e, BookError::TooShort { len: 0 }),
        "empty",
    );

    let mut b = good.clone();
    b[0] = b'X';
    check(&b, &|e| *e == BookError::BadMagic, "magic");

    let mut b = good.clone();
    b[8] = 2;
    check(
        &b,
        &|e| {
            matches!(
                e,
                BookError::UnsupportedVersion {
                    found: 2,
                    supported: 1
                }
            )
        },
        "version",
    );

    let mut b = good.clone();
    b[12] = 9;
    check(
        &b,
        &|e| matches!(e, BookError::UnknownKeyScheme { found: 9, .. }),
        "scheme",
    );

    let mut b = good.clone();
    b[16] ^= 1;
    check(
        &b,
        &|e| matches!(e, BookError::KeyMismatch { build, .. } if *build == start_key()),
        "key check",
    );

    let mut b = good.clone();
    b[60] = 1;
    check(&b, &|e| *e == BookError::NonZeroReserved, "reserved");

    let mut b = good.clone();
    b[32] += 1;
    check(
        &b,
        &|e| matches!(e, BookError::PayloadLengthMismatch { .. }),
        "payload length",
    );

    // A record count whose payload length would overflow.
    let mut b = good.clone();
    b[24..32].copy_from_slice(&u64::MAX.to_le_bytes());
    check(
        &b,
        &|e| matches!(e, BookError::PayloadLengthMismatch { .. }),
        "huge count",
    );

    // Declared consistently but far beyond the file.
    let mut b = good.clone();
    b[24..32].copy_from_slice(&(1u64 << 59).to_le_bytes());
    b[32..40].copy_from_slice(&(1u64 << 63).to_le_bytes());
    check(
        &b,
        &|e| matches!(e, BookError::Truncated { .. }),
        "huge payload",
    );

    check(
        &good[..good.len() - 1],
        &|e| matches!(e, BookError::Truncated { .. }),
        "truncated",
    );

    let mut b = good.clone();
    b.push(0);
    check(
        &b,
        &|e| matches!(e, BookError::TrailingBytes { .. }),
        "trailing",
    );

    let mut b = good.clone();
    b[record_at(1) + 10] ^= 0x40;
    check(
        &b,
        &|e| matches!(e, BookError::ChecksumMismatch { .. }),
        "checksum",
    );

    // Behind a valid checksum: the records themselves.
    let mut b = good.clone();
    let (r0, r1) = (record_at(0), record_at(1));
    let first: Vec<u8> = b[r0..r1].to_vec();
    let second: Vec<u8> = b[r1..r1 + RECORD_LEN].to_vec();
    b[r0..r1].copy_from_slice(&second);
    b[r1..r1 + RECORD_LEN].copy_from_slice(&first);
    reseal(&mut b);
    check(&b, &|e| *e == BookError::Unsorted { index: 1 }, "unsorted");

    let mut b = good.clone();
    let r2 = record_at(2);
    let prev: Vec<u8> = b[r1..r2].to_vec();
    b[r2..r2 + RECORD_LEN].copy_from_slice(&prev);
    reseal(&mut b);
    check(
        &b,
        &|e| *e == BookError::DuplicateEntry { index: 2 },
        "duplicate",
    );

    for (raw, what) in [
        (
            Move::new(rules::Square(4), rules::Square(4)).0,
            "same point",
        ),
        (95u16 | (3 << 7), "from beyond 89"),
        (3u16 | (100 << 7), "to beyond 89"),
        (mv("h2e2").0 | 0x8000, "high bit"),
    ] {
        let mut b = good.clone();
        b[r1 + 8..r1 + 10].copy_from_slice(&raw.to_le_bytes());
        reseal(&mut b);
        check(
            &b,
            &|e| matches!(e, BookError::BadMove { index: 1, raw: r } if *r == raw),
            what,
        );
    }

    let mut b = good.clone();
    b[r1 + 10..r1 + 12].copy_from_slice(&0u16.to_le_bytes());
    reseal(&mut b);
    check(
        &b,
        &|e| *e == BookError::ZeroWeight { index: 1 },
        "zero weight",
    );

    // The same checks guard books made in memory.
    let e = Entry {
        key: 1,
        mv: mv("a0a1"),
        weight: 1,
        count: 0,
        score: 0,
    };
    assert_eq!(
        Book::from_entries(vec![e, e]),
        Err(BookError::DuplicateEntry { index: 1 })
    );
    assert_eq!(
        Book::from_entries(vec![Entry { weight: 0, ..e }]),
        Err(BookError::ZeroWeight { index: 0 })
    );
}

#[test]
fn a_missing_file_is_an_io_error() {
    let e = Book::load(std::path::Path::new("/nonexistent/qili.qbook")).unwrap_err();
    assert!(matches!(e, BookError::Io { .. }), "{e:?}");
    assert!(e.to_string().contains("/nonexistent/qili.qbook"));
}

#[test]
fn a_key_collision_with_an_illegal_move_is_skipped_when_probing() {
    // An entry under the start position's key whose move is not legal there.
    let k = Position::startpos().key();
    let b = Book::from_entries(vec![
        Entry {
            key: k,
            mv: mv("e5e6"),
            weight: 9,
            count: 1,
            score: 0,
        },
        Entry {
            key: k,
            mv: mv("h2e2"),
            weight: 1,
            count: 1,
            score: 0,
        },
    ])
    .unwrap();
    let probed = b.probe(&Position::startpos());
    assert_eq!(probed.len(), 1);
    assert_eq!(probed[0].mv, mv("h2e2"));
}

#[test]
fn the_embedded_book_loads_and_knows_the_start() {
    let b = Book::embedded().expect("the embedded book is valid");
    assert!(b.len() >= 100, "{}", b.len());
    assert!(
        book::EMBEDDED_BOOK.len() < 1 << 20,
        "keep the embedded book small"
    );
    let start = b.probe(&Position::startpos());
    assert!(start.len() >= 3, "{start:?}");
    assert_eq!(Book::load_named(book::EMBEDDED_NAME).unwrap(), b);
    assert_eq!(Book::load_named("").unwrap(), b);
    // Random weighted lines from the start are legal all the way.
    let mut rng = rules::rng::Rng::with_stream(11, book::RNG_STREAM);
    for _ in 0..200 {
        let line = book::book_line(
            &b,
            &Position::startpos(),
            40,
            book::Pick::Weighted,
            &mut rng,
        );
        assert!(!line.is_empty());
        let mut p = Position::startpos();
        for m in line {
            assert!(p.is_legal(m));
            p.make_move(m);
        }
    }
}
