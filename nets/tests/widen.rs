//! Widening a net of an earlier round: a narrower file is read exactly, and the
//! widened net evaluates exactly like it until training moves the new neurons.

mod common;

use common::random_position;
use nets::buckets::bucket;
use nets::format::{self, HEADER_LEN};
use nets::reference::FloatNet;
use nets::{features, Accumulator, Backend, NetError, HIDDEN, INPUTS, QA, QB, SCALE};
use rules::rng::Rng;
use rules::Position;

const NARROW: usize = HIDDEN / 2;
const HEADS: usize = 3;

/// A valid file image of a net with `NARROW` hidden neurons and random weights.
fn narrow_file(seed: u64) -> (Vec<u8>, format::NarrowNet) {
    let mut rng = Rng::new(seed);
    let mut small = |span: usize| (rng.below(2 * span + 1) as i32 - span as i32) as i16;
    let net = format::NarrowNet {
        hidden: NARROW,
        ft_w: (0..INPUTS * NARROW).map(|_| small(300)).collect(),
        ft_b: (0..NARROW).map(|_| small(200)).collect(),
        out_w: (0..HEADS * 2 * NARROW).map(|_| small(127)).collect(),
        out_b: (0..HEADS).map(|b| 1000 * b as i32 - 700).collect(),
    };
    let mut payload = Vec::new();
    for w in net.ft_w.iter().chain(&net.ft_b).chain(&net.out_w) {
        payload.extend_from_slice(&w.to_le_bytes());
    }
    for b in &net.out_b {
        payload.extend_from_slice(&b.to_le_bytes());
    }
    payload.resize(payload.len().div_ceil(64) * 64, 0);
    let mut bytes = format::header(format::checksum(&payload), HEADS).to_vec();
    bytes[20..24].copy_from_slice(&(NARROW as u32).to_le_bytes());
    bytes[40..48].copy_from_slice(&(payload.len() as u64).to_le_bytes());
    bytes.extend_from_slice(&payload);
    (bytes, net)
}

/// The narrow net's evaluation in the engine's integer arithmetic.
fn narrow_eval(net: &format::NarrowNet, pos: &Position) -> i32 {
    let h = net.hidden;
    let head = bucket(pos.occupied().count(), HEADS);
    let active = features::active(pos);
    let mut sums = [0i64; 2];
    let stm = pos.side_to_move().index();
    for (p, feats) in active.iter().enumerate() {
        let half = if p == stm { 0 } else { 1 };
        let w = &net.out_w[(head * 2 + half) * h..(head * 2 + half + 1) * h];
        for (j, &wj) in w.iter().enumerate() {
            let mut a = net.ft_b[j];
            for &f in feats {
                a = a.wrapping_add(net.ft_w[f * h + j]);
            }
            let v = (a as i32).clamp(0, QA);
            sums[p] += (v * wj as i32 * v) as i64;
        }
    }
    let out = (sums[0] + sums[1]) / QA as i64 + net.out_b[head] as i64;
    (out * SCALE as i64 / (QA * QB) as i64) as i32
}

#[test]
fn a_narrower_file_is_read_exactly() {
    let (bytes, expected) = narrow_file(3);
    let read = format::read_narrower(&bytes).expect("a valid narrower net");
    assert_eq!(read.hidden, NARROW);
    assert_eq!(read.ft_w, expected.ft_w);
    assert_eq!(read.ft_b, expected.ft_b);
    assert_eq!(read.out_w, expected.out_w);
    assert_eq!(read.out_b, expected.out_b);
    // It is no net this build can play with.
    assert!(matches!(
        nets::Network::from_bytes(&bytes),
        Err(NetError::HiddenMismatch { .. })
    ));
}

#[test]
fn a_widened_net_evaluates_exactly_like_the_narrow_one() {
    let (bytes, _) = narrow_file(4);
    let narrow = format::read_narrower(&bytes).unwrap();
    let wide = FloatNet::widened(&narrow, 9)
        .quantise()
        .expect("a valid net");
    assert_eq!(wide.buckets(), HEADS);
    // The old neurons keep their weights; the new ones have input weights (so
    // training can move them) and no output weight yet.
    let ft = wide.ft_weights();
    for f in [0, 17, INPUTS - 1] {
        assert_eq!(
            &ft[f * HIDDEN..f * HIDDEN + NARROW],
            &narrow.ft_w[f * NARROW..(f + 1) * NARROW]
        );
    }
    assert!(ft
        .chunks(HIDDEN)
        .any(|c| c[NARROW..].iter().any(|&w| w != 0)));
    for half in wide.out_weights().chunks(HIDDEN) {
        assert!(half[NARROW..].iter().all(|&w| w == 0));
    }
    let mut rng = Rng::new(11);
    for i in 0..300 {
        let pos = random_position(&mut rng, i % 120);
        let acc = Accumulator::refresh(&wide, &pos, Backend::detect());
        let got = acc.evaluate(
            &wide,
            pos.side_to_move(),
            wide.bucket_of(&pos),
            Backend::detect(),
        );
        assert_eq!(got, narrow_eval(&narrow, &pos), "{}", pos.to_fen());
    }
}

#[test]
fn only_valid_narrower_nets_are_widened() {
    // This build's own width is no narrower net.
    let own = nets::reference::init_random(1).quantise().unwrap();
    assert!(matches!(
        format::read_narrower(own.as_bytes()),
        Err(NetError::HiddenMismatch { .. })
    ));
    let (bytes, _) = narrow_file(5);
    // A width that is not a whole number of SIMD registers.
    let mut odd = bytes.clone();
    odd[20..24].copy_from_slice(&100u32.to_le_bytes());
    assert!(matches!(
        format::read_narrower(&odd),
        Err(NetError::HiddenMismatch { found: 100, .. })
    ));
    // A corrupt payload.
    let mut bad = bytes.clone();
    bad[HEADER_LEN + 5] ^= 1;
    assert!(matches!(
        format::read_narrower(&bad),
        Err(NetError::ChecksumMismatch { .. })
    ));
    // Cut short.
    assert!(matches!(
        format::read_narrower(&bytes[..bytes.len() - 64]),
        Err(NetError::Truncated { .. })
    ));
}
