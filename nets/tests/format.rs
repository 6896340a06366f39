//! Every way a net file can be wrong gives its own error, never a panic.

mod common;

use nets::format::{self, HEADER_LEN, OUT_W_OFFSET};
use nets::reference::FloatNet;
use nets::{NetError, Network, HIDDEN};

fn good_bytes() -> Vec<u8> {
    let mut f = nets::train::init_random(1);
    f.out_b = 0.25;
    f.quantise().expect("valid net").as_bytes().to_vec()
}

fn set_u32(b: &mut [u8], at: usize, v: u32) {
    b[at..at + 4].copy_from_slice(&v.to_le_bytes());
}

/// Rewrite the checksum after editing the payload (to reach the checks behind it).
fn reseal(b: &mut [u8]) {
    let sum = format::checksum(&b[HEADER_LEN..]);
    b[48..56].copy_from_slice(&sum.to_le_bytes());
}

#[test]
fn good_file_loads() {
    let b = good_bytes();
    let net = Network::from_bytes(&b).expect("loads");
    assert_eq!(net.as_bytes(), &b[..]);
    assert_eq!(b.len(), format::FILE_LEN);
}

#[test]
fn every_header_field_is_checked() {
    let b = good_bytes();
    let err = |f: &dyn Fn(&mut Vec<u8>)| {
        let mut x = b.clone();
        f(&mut x);
        Network::from_bytes(&x).expect_err("must be rejected")
    };
    assert_eq!(err(&|x| x.truncate(10)), NetError::TooShort { len: 10 });
    assert_eq!(err(&|x| x.clear()), NetError::TooShort { len: 0 });
    assert_eq!(err(&|x| x[0] = b'X'), NetError::BadMagic);
    assert_eq!(
        err(&|x| set_u32(x, 8, 2)),
        NetError::UnsupportedVersion {
            found: 2,
            supported: 1
        }
    );
    assert_eq!(
        err(&|x| set_u32(x, 12, 7)),
        NetError::ArchitectureMismatch {
            found: 7,
            expected: 1
        }
    );
    assert_eq!(
        err(&|x| set_u32(x, 16, 3)),
        NetError::FeatureSetMismatch {
            found: 3,
            expected: 1
        }
    );
    assert_eq!(
        err(&|x| set_u32(x, 20, 2 * HIDDEN as u32)),
        NetError::HiddenMismatch {
            found: 2 * HIDDEN as u32,
            expected: HIDDEN as u32
        }
    );
    assert!(matches!(
        err(&|x| set_u32(x, 28, 32)),
        NetError::QuantisationMismatch { .. }
    ));
    assert!(matches!(
        err(&|x| set_u32(x, 32, 600)),
        NetError::QuantisationMismatch { .. }
    ));
    assert_eq!(err(&|x| set_u32(x, 36, 1)), NetError::NonZeroReserved);
    assert_eq!(err(&|x| x[60] = 1), NetError::NonZeroReserved);
    assert!(matches!(
        err(&|x| x[40] ^= 0x40),
        NetError::PayloadLengthMismatch { .. }
    ));
}

#[test]
fn truncated_trailing_and_corrupt_payloads() {
    let b = good_bytes();
    let n = b.len();
    let mut x = b.clone();
    x.truncate(n - 1);
    assert_eq!(
        Network::from_bytes(&x).expect_err("truncated"),
        NetError::Truncated {
            len: n - 1,
            expected: n
        }
    );
    let mut x = b.clone();
    x.truncate(HEADER_LEN);
    assert!(matches!(
        Network::from_bytes(&x),
        Err(NetError::Truncated { .. })
    ));
    let mut x = b.clone();
    x.push(0);
    assert_eq!(
        Network::from_bytes(&x).expect_err("trailing"),
        NetError::TrailingBytes {
            len: n + 1,
            expected: n
        }
    );
    // One flipped bit anywhere in the weights.
    for at in [HEADER_LEN, HEADER_LEN + 12345, OUT_W_OFFSET + 3, n - 70] {
        let mut x = b.clone();
        x[at] ^= 0x10;
        assert!(
            matches!(
                Network::from_bytes(&x),
                Err(NetError::ChecksumMismatch { .. })
            ),
            "flip at {at}"
        );
    }
    // Non-zero padding behind a valid checksum.
    let mut x = b.clone();
    x[n - 1] = 1;
    reseal(&mut x);
    assert_eq!(
        Network::from_bytes(&x).expect_err("padding"),
        NetError::NonZeroReserved
    );
}

#[test]
fn output_weight_beyond_the_i16_product_range_is_rejected() {
    let mut x = good_bytes();
    x[OUT_W_OFFSET + 10..OUT_W_OFFSET + 12].copy_from_slice(&200i16.to_le_bytes());
    reseal(&mut x);
    assert_eq!(
        Network::from_bytes(&x).expect_err("out of range"),
        NetError::OutputWeightOutOfRange {
            index: 5,
            value: 200
        }
    );
    // The float export clips instead, so trained nets always load.
    let mut f = FloatNet::zeros();
    f.out_w[0] = 50.0;
    let net = f.quantise().expect("clipped");
    assert_eq!(net.out_weights()[0], nets::OUT_WEIGHT_MAX as i16);
}

#[test]
fn wrong_part_lengths_and_missing_files() {
    assert!(matches!(
        Network::from_parts(&[0; 5], &[0; HIDDEN], &[0; 2 * HIDDEN], 0),
        Err(NetError::WrongPartLength {
            part: "ft_weights",
            ..
        })
    ));
    let e = Network::load(common::temp_path("does-not-exist.nnue")).expect_err("missing");
    assert!(matches!(e, NetError::Io { .. }));
    assert!(e.to_string().contains("does-not-exist"));
    let path = common::temp_path("garbage.nnue");
    std::fs::write(&path, b"hello, not a net").expect("write");
    let e = Network::load(&path).expect_err("garbage");
    let _ = std::fs::remove_file(&path);
    assert_eq!(e, NetError::BadMagic);
}

#[test]
fn embedded_net_loads_and_evaluates_the_start_position_near_zero() {
    let net = nets::embedded().expect("the embedded net is valid");
    let pos = rules::Position::startpos();
    let mut st = nets::AccumulatorStack::default();
    st.reset(&net, &pos);
    let cp = st.evaluate(&net, &pos);
    assert!(cp.abs() < 150, "start position {cp} cp");
}
