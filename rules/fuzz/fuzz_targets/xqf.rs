//! Any bytes as an XQF file: `records::xqf::read` returns an error with an offset,
//! never panics; a record it accepts has legal moves, and written back (plain and
//! encrypted) it reads back to the same game.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rules::records::xqf::{self, KeyBytes, WriteAs};

fuzz_target!(|data: &[u8]| {
    // Most inputs should get past the header: prefix the magic when it is missing.
    let mut bytes = data.to_vec();
    if !bytes.starts_with(b"XQ") && bytes.len() > 2 {
        bytes[0] = b'X';
        bytes[1] = b'Q';
    }
    let Ok(game) = xqf::read(&bytes) else {
        return;
    };
    let end = game.replay().expect("an accepted record replays");
    let _ = end.legal_moves();
    let plain = xqf::write(&game, WriteAs::Plain).expect("an accepted record writes");
    let back = xqf::read(&plain).expect("a written record reads");
    assert_eq!(back.moves, game.moves);
    assert_eq!(back.start_fen(), game.start_fen());
    let keys = KeyBytes { mask: data.first().copied().unwrap_or(0x5a), or: [1, 2, 3, 4], seeds: [9, 8, 7, 6] };
    let enc = xqf::write(&game, WriteAs::Encrypted { version: 18, keys }).expect("writes encrypted");
    let back = xqf::read(&enc).expect("an encrypted record reads");
    assert_eq!(back.moves, game.moves);
    assert_eq!(back.result, game.result);
});
