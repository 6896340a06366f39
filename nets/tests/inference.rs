//! Quantised inference against the float reference, incremental against
//! from-scratch accumulators, AVX2 against scalar.

mod common;

use common::random_position;
use nets::reference::FloatNet;
use nets::rng::Rng;
use nets::simd::{self, Backend};
use nets::{features, Accumulator, AccumulatorStack, Network, HIDDEN, QA, QB, SCALE};
use rules::Position;

/// A random float net with weights spread over the whole quantisable range.
fn random_float_net(seed: u64) -> FloatNet {
    let mut rng = Rng::new(seed);
    let mut n = FloatNet::zeros();
    n.ft_w.iter_mut().for_each(|w| *w = rng.symmetric(0.08));
    n.ft_b
        .iter_mut()
        .for_each(|w| *w = 0.3 + rng.symmetric(0.4));
    n.out_w.iter_mut().for_each(|w| *w = rng.symmetric(1.9));
    n.out_b = rng.symmetric(0.5);
    n
}

fn backends() -> Vec<Backend> {
    let mut v = vec![Backend::Scalar];
    if Backend::Avx2.available() {
        v.push(Backend::Avx2);
    }
    v
}

#[test]
fn quantised_matches_dequantised_reference_to_rounding() {
    // The integer pipeline loses only two truncating divisions against the exact
    // float computation on the very same (quantised) weights.
    let net = random_float_net(1).quantise().expect("valid net");
    let deq = FloatNet::from_network(&net);
    let mut rng = Rng::new(2);
    let mut worst = 0.0f64;
    for _ in 0..300 {
        let plies = rng.below(120);
        let pos = random_position(&mut rng, plies);
        for b in backends() {
            let q = Accumulator::refresh(&net, &pos, b).evaluate(&net, pos.side_to_move(), b);
            let f = deq.evaluate(&pos);
            worst = worst.max((q as f64 - f).abs());
        }
    }
    let step = SCALE as f64 / (QA * QB) as f64;
    assert!(worst <= 1.0 + step + 1e-9, "worst difference {worst} cp");
}

/// Bound on |quantised − float| for one position, from the rounding of every weight.
fn quantisation_bound(f: &FloatNet, pos: &Position) -> f64 {
    let active = features::active(pos);
    let acc = f.accumulate(&active);
    let stm = pos.side_to_move().index();
    let mut bound = 0.5 / (QA * QB) as f64; // output bias rounding
    for (half, p) in [stm, 1 - stm].into_iter().enumerate() {
        let d_acc = 0.5 / QA as f64 * (active[p].len() + 1) as f64;
        let weights = &f.out_w[half * HIDDEN..(half + 1) * HIDDEN];
        for (a, w) in acc[p].iter().zip(weights) {
            let c = a.clamp(0.0, 1.0);
            let d_act = d_acc * (2.0 * c + d_acc);
            let w = w.abs() as f64;
            bound += (w + 0.5 / QB as f64) * d_act + (c * c) * 0.5 / QB as f64;
        }
    }
    bound * SCALE as f64 + 1.0 + SCALE as f64 / (QA * QB) as f64
}

#[test]
fn quantised_matches_float_net_within_quantisation_error() {
    let float = random_float_net(3);
    let net = float.quantise().expect("valid net");
    let mut rng = Rng::new(4);
    let mut total_err = 0.0;
    let mut total_bound = 0.0;
    for _ in 0..300 {
        let plies = rng.below(120);
        let pos = random_position(&mut rng, plies);
        let mut q = AccumulatorStack::default();
        q.reset(&net, &pos);
        let got = q.evaluate(&net, &pos) as f64;
        let want = float.evaluate(&pos);
        let bound = quantisation_bound(&float, &pos);
        assert!(
            (got - want).abs() <= bound,
            "{}: quantised {got}, float {want:.2}, bound {bound:.2}",
            pos.to_fen()
        );
        total_err += (got - want).abs();
        total_bound += bound;
    }
    // Rounding errors mostly cancel: far below the worst case on average.
    assert!(
        total_err < 0.5 * total_bound,
        "{total_err} vs {total_bound}"
    );
}

#[test]
fn incremental_equals_refresh_after_random_make_unmake() {
    let net = random_float_net(5).quantise().expect("valid net");
    let mut rng = Rng::new(6);
    for b in backends() {
        for game in 0..20 {
            let mut pos = random_position(&mut rng, game * 3);
            let mut stack = AccumulatorStack::new(b);
            stack.reset(&net, &pos);
            let mut made = 0usize;
            for _ in 0..150 {
                let moves = pos.legal_moves();
                let r = rng.below(10);
                if made > 0 && (r < 3 || moves.is_empty()) {
                    pos.unmake_move();
                    stack.pop();
                    made -= 1;
                } else if r == 3 && !pos.in_check() {
                    stack.push_null();
                    pos.make_null_move();
                    made += 1;
                } else if !moves.is_empty() {
                    let m = moves.as_slice()[rng.below(moves.len())];
                    stack.push_move(&net, &pos, m);
                    pos.make_move(m);
                    made += 1;
                } else {
                    break;
                }
                assert_eq!(stack.depth(), made + 1);
                assert_eq!(
                    stack.current(&net),
                    Accumulator::refresh(&net, &pos, b),
                    "{:?} after {} plies: {}",
                    b,
                    made,
                    pos.to_fen()
                );
            }
        }
    }
}

#[test]
fn avx2_equals_scalar_kernels() {
    if !Backend::Avx2.available() {
        eprintln!("AVX2 not available: only the scalar path runs here");
        return;
    }
    let mut rng = Rng::new(7);
    for _ in 0..2000 {
        let mut acc = [0i16; HIDDEN];
        let mut w = [0i16; HIDDEN];
        let mut cols = [[0i16; HIDDEN]; 3];
        for j in 0..HIDDEN {
            // Accumulators over the whole i16 range (so clamping and wrapping both run).
            acc[j] = rng.next_u64() as i16;
            w[j] = (rng.below(255) as i32 - 127) as i16;
            for c in cols.iter_mut() {
                c[j] = rng.next_u64() as i16;
            }
        }
        assert_eq!(
            simd::screlu_dot(Backend::Avx2, &acc, &w),
            simd::screlu_dot_scalar(&acc, &w)
        );
        let (mut a, mut s) = ([0i16; HIDDEN], [0i16; HIDDEN]);
        simd::update(
            Backend::Avx2,
            &mut a,
            &acc,
            &[&cols[0]],
            &[&cols[1], &cols[2]],
        );
        simd::update_scalar(&mut s, &acc, &[&cols[0]], &[&cols[1], &cols[2]]);
        assert_eq!(a, s);
    }
    let net = random_float_net(8).quantise().expect("valid net");
    for _ in 0..200 {
        let plies = rng.below(100);
        let pos = random_position(&mut rng, plies);
        let a = Accumulator::refresh(&net, &pos, Backend::Avx2);
        let s = Accumulator::refresh(&net, &pos, Backend::Scalar);
        assert_eq!(a, s);
        let stm = pos.side_to_move();
        assert_eq!(
            a.evaluate(&net, stm, Backend::Avx2),
            s.evaluate(&net, stm, Backend::Scalar)
        );
    }
}

#[test]
fn evaluation_is_from_the_side_to_move() {
    // A colour-mirrored position with the other side to move evaluates the same.
    let net = random_float_net(9).quantise().expect("valid net");
    let mut rng = Rng::new(10);
    for _ in 0..50 {
        let plies = rng.below(80);
        let pos = random_position(&mut rng, plies);
        let mut setup = pos.to_setup();
        let mut mirrored = [None; 90];
        for (s, p) in setup.board.iter().enumerate() {
            mirrored[89 - s] = p.map(|p| rules::Piece::new(p.color.flip(), p.kind));
        }
        setup.board = mirrored;
        setup.side = setup.side.flip();
        let Ok(m) = Position::from_setup(&setup) else {
            continue;
        };
        let mut a = AccumulatorStack::default();
        a.reset(&net, &pos);
        let mut b = AccumulatorStack::default();
        b.reset(&net, &m);
        assert_eq!(a.evaluate(&net, &pos), b.evaluate(&net, &m));
    }
}

#[test]
fn network_round_trips_through_a_file() {
    let net = random_float_net(11).quantise().expect("valid net");
    let path = common::temp_path("roundtrip.nnue");
    net.save(&path).expect("save");
    let back = Network::load(&path).expect("load");
    let _ = std::fs::remove_file(&path);
    assert_eq!(back.as_bytes(), net.as_bytes());
    assert_eq!(
        FloatNet::from_network(&back)
            .quantise()
            .expect("valid")
            .as_bytes(),
        net.as_bytes()
    );
}
