//! ICCS move text of any bytes: `Position::parse_move` accepts only legal moves;
//! `parse_any` never panics; printing any move, legal or not, never panics.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "common.rs"]
mod common;

fuzz_target!(|data: &[u8]| {
    let Some((pos, text)) = common::split(data) else {
        return;
    };
    if let Ok(m) = pos.parse_move(&text) {
        assert!(pos.is_legal(m));
        assert!(pos.legal_moves().contains(m));
        assert_eq!(pos.parse_move(&m.iccs()), Ok(m));
    }
    let _ = rules::notation::parse_any(&pos, &text);
    if let [a, b, ..] = text.as_bytes() {
        let m = rules::Move(u16::from_le_bytes([*a, *b]));
        let _ = rules::notation::to_chinese(&pos, m);
        let _ = rules::notation::to_wxf(&pos, m);
    }
});
