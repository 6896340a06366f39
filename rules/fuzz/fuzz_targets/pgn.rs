//! Any bytes as PGN text (UTF-8 or GBK): `pgn::parse_games` returns an error with a
//! line, never panics; what it reads writes back as ICCS PGN that reads to the same
//! moves, and replaying it never panics.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rules::pgn::parse_games;
use rules::records::gbk;

fuzz_target!(|data: &[u8]| {
    let text = gbk::decode_text(data);
    let Ok(games) = parse_games(&text) else {
        return;
    };
    for g in games {
        let _ = g.replay();
        let back = parse_games(&g.to_pgn()).expect("a written game reads");
        assert_eq!(back.len(), 1);
        assert_eq!(back[0].moves, g.moves);
        // The writer drops braces from comments; white space is folded on reading.
        let fold = |c: &Option<String>| {
            c.as_ref()
                .map(|c| c.replace(['{', '}'], "").split_whitespace().collect::<Vec<_>>().join(" "))
        };
        assert_eq!(fold(&back[0].comment), fold(&g.comment));
    }
});
