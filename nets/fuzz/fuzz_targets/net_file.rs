//! A net file image, valid or not, must load into a `Network` or a `NetError`, never
//! a panic; a loaded net must evaluate any position without panicking.
//!
//! The first input byte picks the image: a valid net with one or eight output heads
//! patched by the rest of the input, or the raw input itself. Patches are 5-byte records (a little-endian offset
//! into the image, a byte to store there); when the picking byte is odd the checksum
//! is recomputed after patching, so that the checks behind it (padding, output-weight
//! range) and evaluation with arbitrary weights are reached too.
#![no_main]

use libfuzzer_sys::fuzz_target;
use nets::format::{self, HEADER_LEN};
use nets::{AccumulatorStack, Network};
use rules::Position;
use std::sync::OnceLock;

fn bases() -> &'static [Vec<u8>; 2] {
    static BASES: OnceLock<[Vec<u8>; 2]> = OnceLock::new();
    BASES.get_or_init(|| {
        let image = |n: nets::reference::FloatNet| {
            n.quantise().expect("valid net").as_bytes().to_vec()
        };
        [
            image(nets::train::init_random_bucketed(1, 1)),
            image(nets::train::init_random_bucketed(2, 8)),
        ]
    })
}

fn positions() -> &'static [Position] {
    static POS: OnceLock<Vec<Position>> = OnceLock::new();
    POS.get_or_init(|| {
        [
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
            "3k5/4a4/9/9/9/9/9/9/4A4/3K5 w",
            "2bak4/4a4/4b4/p1p3p1p/9/2P6/P5P1P/4B4/4A4/3AK1B2 b",
        ]
        .iter()
        .filter_map(|f| Position::from_fen(f).ok())
        .collect()
    })
}

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let mut bytes = match pick % 6 {
        k @ 0..=3 => bases()[k as usize / 2].clone(),
        _ => rest.to_vec(),
    };
    if pick % 6 < 4 {
        for p in rest.chunks_exact(5) {
            let at = u32::from_le_bytes([p[0], p[1], p[2], p[3]]) as usize % bytes.len();
            bytes[at] = p[4];
        }
        if pick % 2 == 1 && bytes.len() > HEADER_LEN {
            let sum = format::checksum(&bytes[HEADER_LEN..]);
            bytes[48..56].copy_from_slice(&sum.to_le_bytes());
        }
    }
    let Ok(net) = Network::from_bytes(&bytes) else {
        return;
    };
    for pos in positions() {
        let mut stack = AccumulatorStack::default();
        stack.reset(&net, pos);
        let _ = stack.evaluate(&net, pos);
        let mut p = pos.clone();
        for m in pos.legal_moves().as_slice().iter().take(8) {
            stack.push_move(&net, &p, *m);
            p.make_move(*m);
            let _ = stack.evaluate(&net, &p);
            p.unmake_move();
            stack.pop();
        }
    }
});
