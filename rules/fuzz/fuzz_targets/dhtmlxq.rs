//! Any bytes as DhtmlXQ text: `records::dhtmlxq::read_all` returns an error with a
//! line, never panics; what it accepts has legal moves and reads back the same after
//! `dhtmlxq::write`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rules::records::{dhtmlxq, gbk};

fuzz_target!(|data: &[u8]| {
    let text = gbk::decode_text(data);
    let Ok(games) = dhtmlxq::read_all(&text) else {
        return;
    };
    for g in games {
        g.replay().expect("an accepted record replays");
        let written = dhtmlxq::write(&g).expect("an accepted record writes");
        let back = dhtmlxq::read(&written).expect("a written record reads");
        assert_eq!(back.moves, g.moves);
        assert_eq!(back.start_fen(), g.start_fen());
        assert_eq!(back.result, g.result);
    }
});
