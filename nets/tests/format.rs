//! Every way a net file can be wrong gives its own error, never a panic.

mod common;

use nets::buckets::MAX_BUCKETS;
use nets::format::{self, HEADER_LEN, OUT_W_OFFSET};
use nets::reference::FloatNet;
use nets::{NetError, Network, HIDDEN};

fn good_bytes() -> Vec<u8> {
    let mut f = nets::reference::init_random(1);
    f.out_b[0] = 0.25;
    f.quantise().expect("valid net").as_bytes().to_vec()
}

fn bucketed_bytes(buckets: usize) -> Vec<u8> {
    let mut f = nets::reference::init_random_bucketed(1, buckets);
    f.out_b
        .iter_mut()
        .enumerate()
        .for_each(|(i, b)| *b = 0.1 * i as f32);
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
            expected: 2
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
    // The round-7 net has eight material output heads (architecture 2).
    assert_eq!(net.buckets(), 8);
}

#[test]
fn bucketed_net_header_and_length() {
    let b = bucketed_bytes(8);
    assert_eq!(b.len(), format::file_len(8));
    assert!(b.len() > format::FILE_LEN);
    assert_eq!(&b[12..16], &2u32.to_le_bytes());
    assert_eq!(&b[36..40], &8u32.to_le_bytes());
    let net = Network::from_bytes(&b).expect("loads");
    assert_eq!(net.buckets(), 8);
    assert_eq!(net.as_bytes(), &b[..]);
    // Each head keeps its own bias.
    let biases: Vec<i32> = (0..8).map(|h| net.out_bias(h)).collect();
    let step = (0.1 * (nets::QA * nets::QB) as f64).round() as i32;
    assert_eq!(biases[1], step);
    assert_eq!(
        biases[7],
        (0.7 * (nets::QA * nets::QB) as f64).round() as i32
    );
    // One head is written as architecture 1 with the reserved word 0, as before.
    let one = good_bytes();
    assert_eq!(&one[12..16], &1u32.to_le_bytes());
    assert_eq!(&one[36..40], &0u32.to_le_bytes());
    assert_eq!(Network::from_bytes(&one).expect("loads").buckets(), 1);
}

#[test]
fn bad_bucket_counts_and_lengths_are_typed_errors() {
    let b = bucketed_bytes(8);
    let err = |f: &dyn Fn(&mut Vec<u8>)| {
        let mut x = b.clone();
        f(&mut x);
        Network::from_bytes(&x).expect_err("must be rejected")
    };
    let max = MAX_BUCKETS as u32;
    assert_eq!(
        err(&|x| set_u32(x, 36, 0)),
        NetError::BadBucketCount { found: 0, max }
    );
    assert_eq!(
        err(&|x| set_u32(x, 36, max + 1)),
        NetError::BadBucketCount {
            found: max + 1,
            max
        }
    );
    // A valid count that does not match the payload.
    assert_eq!(
        err(&|x| set_u32(x, 36, 7)),
        NetError::PayloadLengthMismatch {
            declared: format::payload_len(8) as u64,
            expected: format::payload_len(7) as u64
        }
    );
    // Architecture 1 keeps offset 36 reserved.
    assert_eq!(err(&|x| set_u32(x, 12, 1)), NetError::NonZeroReserved);
    let n = b.len();
    assert_eq!(
        err(&|x| x.truncate(n - 64)),
        NetError::Truncated {
            len: n - 64,
            expected: n
        }
    );
    assert_eq!(
        err(&|x| x.extend_from_slice(&[0; 64])),
        NetError::TrailingBytes {
            len: n + 64,
            expected: n
        }
    );
    // A one-head file relabelled as 8 heads: the declared payload is the one-head one.
    let mut one = good_bytes();
    set_u32(&mut one, 12, 2);
    set_u32(&mut one, 36, 8);
    assert_eq!(
        Network::from_bytes(&one).expect_err("wrong length"),
        NetError::PayloadLengthMismatch {
            declared: format::PAYLOAD_LEN as u64,
            expected: format::payload_len(8) as u64
        }
    );
    // Architecture 2 with one head is the same payload: it loads and evaluates alike.
    let mut one = good_bytes();
    set_u32(&mut one, 12, 2);
    set_u32(&mut one, 36, 1);
    let a = Network::from_bytes(&one).expect("arch 2, one head");
    let b1 = Network::from_bytes(&good_bytes()).expect("arch 1");
    let pos = rules::Position::startpos();
    let (mut sa, mut sb) = (
        nets::AccumulatorStack::default(),
        nets::AccumulatorStack::default(),
    );
    sa.reset(&a, &pos);
    sb.reset(&b1, &pos);
    assert_eq!(sa.evaluate(&a, &pos), sb.evaluate(&b1, &pos));
    // An output weight out of range in a later head is caught too.
    let mut x = b.clone();
    let at = OUT_W_OFFSET + 2 * (5 * 2 * HIDDEN + 3);
    x[at..at + 2].copy_from_slice(&(-300i16).to_le_bytes());
    reseal(&mut x);
    assert_eq!(
        Network::from_bytes(&x).expect_err("out of range"),
        NetError::OutputWeightOutOfRange {
            index: 5 * 2 * HIDDEN + 3,
            value: -300
        }
    );
    // Parts: no head, too many heads, weights for the wrong number of heads.
    let ft = vec![0i16; nets::INPUTS * HIDDEN];
    let fb = [0i16; HIDDEN];
    assert_eq!(
        Network::from_parts_bucketed(&ft, &fb, &[], &[]).expect_err("no head"),
        NetError::BadBucketCount { found: 0, max }
    );
    let many = vec![0i32; MAX_BUCKETS + 1];
    let w = vec![0i16; (MAX_BUCKETS + 1) * 2 * HIDDEN];
    assert!(matches!(
        Network::from_parts_bucketed(&ft, &fb, &w, &many),
        Err(NetError::BadBucketCount { .. })
    ));
    assert_eq!(
        Network::from_parts_bucketed(&ft, &fb, &[0; 2 * HIDDEN], &[0; 3]).expect_err("short"),
        NetError::WrongPartLength {
            part: "out_weights",
            len: 2 * HIDDEN,
            expected: 3 * 2 * HIDDEN
        }
    );
    assert!(err(&|x| set_u32(x, 36, 0))
        .to_string()
        .contains("0 output buckets"));
}
