//! WXF move text of any bytes: `parse_wxf` accepts only legal moves, and the move
//! it finds prints as text that reads back to it.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rules::notation::{parse_wxf, to_wxf};

#[path = "common.rs"]
mod common;

fuzz_target!(|data: &[u8]| {
    let Some((pos, text)) = common::split(data) else {
        return;
    };
    if let Ok(m) = parse_wxf(&pos, &text) {
        assert!(pos.legal_moves().contains(m));
        assert_eq!(parse_wxf(&pos, &to_wxf(&pos, m)), Ok(m));
    }
});
