//! FEN text of any bytes: `Setup::parse` and `Position::from_setup` return errors,
//! never panic; whatever they accept prints and reads back unchanged.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rules::{Position, Setup};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let Ok(setup) = Setup::parse(&text) else {
        return;
    };
    let again = Setup::parse(&setup.to_fen()).expect("a printed setup reads back");
    assert_eq!(again, setup);
    if let Ok(pos) = Position::from_setup(&setup) {
        let back = Position::from_fen(&pos.to_fen()).expect("a printed FEN reads back");
        assert_eq!(back.key(), pos.key());
        assert_eq!(back.compute_key(), pos.key());
        let _ = pos.legal_moves();
        let _ = pos.checkers();
    }
});
