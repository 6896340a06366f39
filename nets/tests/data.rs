//! The 32-byte training record: round trip and rejection of bad files.

mod common;

use common::{random_position, temp_path};
use nets::data::{self, DataError, Outcome, PackedPosition};
use nets::features;
use rules::rng::Rng;

#[test]
fn records_round_trip_through_a_file() {
    let mut rng = Rng::new(1);
    let mut positions = Vec::new();
    let mut recs = Vec::new();
    for i in 0..400 {
        let plies = rng.below(150);
        let pos = random_position(&mut rng, plies);
        let score = (rng.next_u64() as i16) / 2;
        let outcome = [Outcome::Loss, Outcome::Draw, Outcome::Win][i % 3];
        let r = PackedPosition::pack(&pos, score, outcome);
        assert_eq!(r.score(), score);
        assert_eq!(r.outcome(), outcome);
        assert_eq!(r.side_to_move(), pos.side_to_move());
        recs.push(r);
        positions.push(pos);
    }
    let path = temp_path("records.bin");
    {
        let mut f = std::fs::File::create(&path).expect("create");
        data::write_records(&mut f, &recs).expect("write");
    }
    let back = data::read_file(&path).expect("read");
    let _ = std::fs::remove_file(&path);
    assert_eq!(std::mem::size_of::<PackedPosition>(), 32);
    assert_eq!(back, recs);
    let decoded = data::decode_positions(&back).expect("decode");
    let (mut us, mut them) = (Vec::new(), Vec::new());
    for ((pos, d), r) in positions.iter().zip(&decoded).zip(&back) {
        // Board and side to move survive (the counters are not stored).
        let a = pos.to_fen();
        let b = d.to_fen();
        assert_eq!(
            a.split(' ').take(2).collect::<Vec<_>>(),
            b.split(' ').take(2).collect::<Vec<_>>()
        );
        // The trainer's features equal the inference features.
        r.features(&mut us, &mut them);
        let [red, black] = features::active(pos);
        let (want_us, want_them) = match pos.side_to_move() {
            rules::Color::Red => (red, black),
            rules::Color::Black => (black, red),
        };
        assert_eq!(us, want_us);
        assert_eq!(them, want_them);
    }
}

#[test]
fn bad_files_and_records_are_rejected() {
    let pos = rules::Position::startpos();
    let good = PackedPosition::pack(&pos, 12, Outcome::Draw);
    let path = temp_path("bad.bin");

    std::fs::write(&path, [0u8; 33]).expect("write");
    assert!(matches!(
        data::read_file(&path),
        Err(DataError::Length { len: 33, .. })
    ));

    let mut bad = good;
    bad.bytes[30] = 3;
    std::fs::write(&path, [good.bytes, bad.bytes].concat()).expect("write");
    assert!(matches!(
        data::read_file(&path),
        Err(DataError::BadRecord { index: 1, .. })
    ));

    let mut bad = good;
    bad.bytes[11] |= 0x80; // point 95 does not exist
    std::fs::write(&path, bad.bytes).expect("write");
    assert!(matches!(
        data::read_file(&path),
        Err(DataError::BadRecord { index: 0, .. })
    ));

    let mut bad = good;
    bad.bytes[12] = 0xEE; // nibble 14
    assert!(bad.check().is_err());

    // Structurally fine but impossible: no kings.
    let mut bad = PackedPosition { bytes: [0; 32] };
    bad.bytes[0] = 1;
    bad.bytes[12] = 4; // a red rook on a0 alone
    assert!(bad.check().is_ok());
    assert!(matches!(
        data::decode_positions(&[bad]),
        Err(DataError::BadPosition { index: 0, .. })
    ));
    assert!(matches!(
        data::read_file(temp_path("missing.bin")),
        Err(DataError::Io { .. })
    ));
    let _ = std::fs::remove_file(&path);
}

/// A FEN's board reflected left to right (each rank's text reversed; digits are one
/// character, so the empty runs reverse with it).
fn mirror_fen(fen: &str) -> String {
    let mut parts = fen.split(' ');
    let board = parts.next().expect("board");
    let ranks: Vec<String> = board
        .split('/')
        .map(|r| r.chars().rev().collect())
        .collect();
    let rest: Vec<&str> = parts.collect();
    format!("{} {}", ranks.join("/"), rest.join(" "))
}

#[test]
fn a_mirrored_record_is_the_record_of_the_mirrored_position() {
    let mut rng = Rng::new(7);
    let mut changed = 0;
    for i in 0..300 {
        let plies = rng.below(150);
        let pos = random_position(&mut rng, plies);
        let score = (rng.next_u64() as i16) / 2;
        let outcome = [Outcome::Loss, Outcome::Draw, Outcome::Win][i % 3];
        let r = PackedPosition::pack(&pos, score, outcome);
        let m = r.mirrored();
        let mirror_pos =
            rules::Position::from_fen(&mirror_fen(&pos.to_fen())).expect("mirrored FEN");
        assert_eq!(m, PackedPosition::pack(&mirror_pos, score, outcome));
        assert_eq!(m.check(), Ok(()));
        assert_eq!(m.mirrored(), r);
        changed += (m != r) as usize;
    }
    // Symmetric positions map to themselves; random play leaves few of them.
    assert!(changed > 250, "only {changed} of 300 records changed");
}
