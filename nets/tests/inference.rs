//! Quantised inference against the float reference, incremental against
//! from-scratch accumulators, AVX2 against scalar.

mod common;

use common::random_position;
use nets::reference::FloatNet;
use nets::simd::{self, Backend};
use nets::{
    buckets, features, Accumulator, AccumulatorStack, Network, HIDDEN, OUT_WEIGHT_MAX, QA, QB,
    SCALE,
};
use rules::rng::Rng;
use rules::Position;

/// A random one-head float net with weights spread over the whole quantisable range.
fn random_float_net(seed: u64) -> FloatNet {
    random_bucketed_net(seed, 1)
}

/// The same with `buckets` output heads (each head its own random weights and bias).
fn random_bucketed_net(seed: u64, buckets: usize) -> FloatNet {
    let mut rng = Rng::new(seed);
    let mut n = FloatNet::zeros_bucketed(buckets);
    n.ft_w.iter_mut().for_each(|w| *w = rng.symmetric(0.08));
    n.ft_b
        .iter_mut()
        .for_each(|w| *w = 0.3 + rng.symmetric(0.4));
    n.out_w.iter_mut().for_each(|w| *w = rng.symmetric(1.9));
    n.out_b.iter_mut().for_each(|b| *b = rng.symmetric(0.5));
    n
}

/// A position with `plies` random plies, or fewer pieces: random captures thin the
/// board so that every material bucket is reached.
fn random_position_any_material(rng: &mut Rng, plies: usize) -> Position {
    let mut pos = Position::startpos();
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let captures: Vec<_> = moves
            .as_slice()
            .iter()
            .copied()
            .filter(|m| pos.piece_at(m.to()).is_some())
            .collect();
        let m = if !captures.is_empty() && rng.below(2) == 0 {
            captures[rng.below(captures.len())]
        } else {
            moves.as_slice()[rng.below(moves.len())]
        };
        pos.make_move(m);
    }
    pos
}

fn backends() -> Vec<Backend> {
    let mut v = vec![Backend::SCALAR];
    v.extend(Backend::avx512());
    if let Some(avx2) = Backend::avx2() {
        v.push(avx2);
    }
    v
}

#[test]
fn quantised_matches_dequantised_reference_to_rounding() {
    // The integer pipeline loses only two truncating divisions against the exact
    // float computation on the very same (quantised) weights, whatever the head.
    for heads in [1, 8] {
        matches_dequantised(heads);
    }
}

fn matches_dequantised(heads: usize) {
    let net = random_bucketed_net(1, heads).quantise().expect("valid net");
    let deq = FloatNet::from_network(&net);
    assert_eq!(deq.buckets(), heads);
    let mut rng = Rng::new(2);
    let mut worst = 0.0f64;
    for _ in 0..300 {
        let plies = rng.below(120);
        let pos = random_position_any_material(&mut rng, plies);
        for b in backends() {
            let head = net.bucket_of(&pos);
            let q = Accumulator::refresh(&net, &pos, b).evaluate(&net, pos.side_to_move(), head, b);
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
    let head = buckets::bucket(pos.occupied().count(), f.buckets());
    let mut bound = 0.5 / (QA * QB) as f64; // output bias rounding
    for (half, p) in [stm, 1 - stm].into_iter().enumerate() {
        let d_acc = 0.5 / QA as f64 * (active[p].len() + 1) as f64;
        let at = (2 * head + half) * HIDDEN;
        let weights = &f.out_w[at..at + HIDDEN];
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
    for heads in [1, 8] {
        quantised_matches_float_net(heads);
    }
}

fn quantised_matches_float_net(heads: usize) {
    let float = random_bucketed_net(3, heads);
    let net = float.quantise().expect("valid net");
    assert_eq!(net.buckets(), heads);
    let mut rng = Rng::new(4);
    let mut total_err = 0.0;
    let mut total_bound = 0.0;
    let mut seen = vec![0usize; heads];
    for _ in 0..300 {
        let plies = rng.below(120);
        let pos = random_position_any_material(&mut rng, plies);
        seen[net.bucket(pos.occupied().count())] += 1;
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
        "{heads} heads: {total_err} vs {total_bound}"
    );
    // Every head was exercised.
    assert!(seen.iter().all(|&n| n > 0), "{heads} heads: {seen:?}");
}

#[test]
fn each_material_bucket_uses_its_own_head() {
    // Zero every head but one: only positions whose piece count picks that head see
    // its bias; the others evaluate to 0.
    let base = random_bucketed_net(12, 8);
    let mut rng = Rng::new(13);
    let positions: Vec<Position> = (0..200)
        .map(|_| {
            let plies = rng.below(150);
            random_position_any_material(&mut rng, plies)
        })
        .collect();
    for head in 0..8 {
        let mut f = base.clone();
        for h in (0..8).filter(|&h| h != head) {
            f.out_w[h * 2 * HIDDEN..(h + 1) * 2 * HIDDEN].fill(0.0);
            f.out_b[h] = 0.0;
        }
        f.out_b[head] = 1.0; // 400 cp on top of the head's weights
        let net = f.quantise().expect("valid net");
        let mut hits = 0;
        for pos in &positions {
            let mut st = AccumulatorStack::default();
            st.reset(&net, pos);
            let cp = st.evaluate(&net, pos);
            if buckets::bucket(pos.occupied().count(), 8) == head {
                let (want, bound) = (f.evaluate(pos), quantisation_bound(&f, pos));
                assert!((cp as f64 - want).abs() <= bound, "{}", pos.to_fen());
                assert_ne!(cp, 0, "head {head}: {}", pos.to_fen());
                hits += 1;
            } else {
                assert_eq!(cp, 0, "head {head}: {}", pos.to_fen());
            }
        }
        assert!(hits > 0, "no position in bucket {head}");
    }
}

#[test]
fn incremental_equals_refresh_after_random_make_unmake() {
    for heads in [1, 8] {
        incremental_equals_refresh(heads);
    }
}

fn incremental_equals_refresh(heads: usize) {
    let net = random_bucketed_net(5, heads).quantise().expect("valid net");
    let mut rng = Rng::new(6);
    for b in backends() {
        for game in 0..20 {
            let mut pos = random_position_any_material(&mut rng, game * 3);
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
                let fresh = Accumulator::refresh(&net, &pos, b);
                assert_eq!(
                    stack.current(&net),
                    fresh,
                    "{:?} after {} plies: {}",
                    b,
                    made,
                    pos.to_fen()
                );
                assert_eq!(
                    stack.evaluate(&net, &pos),
                    fresh.evaluate(&net, pos.side_to_move(), net.bucket_of(&pos), b)
                );
            }
        }
    }
}

/// Every SIMD kernel this CPU runs (AVX2, AVX-512, AVX-512 with VNNI) gives the
/// scalar kernels' results bit for bit, on random accumulators over the whole i16
/// range (so clamping and wrapping both run) and on whole evaluations.
#[test]
fn simd_kernels_equal_scalar_kernels() {
    let mut backends = Vec::new();
    backends.extend(Backend::avx2());
    if let Some(b) = Backend::avx512() {
        backends.push(b);
        backends.push(b.without_vnni());
    }
    backends.dedup();
    if backends.is_empty() {
        eprintln!("no SIMD kernels on this CPU: only the scalar path runs here");
        return;
    }
    eprintln!(
        "kernels checked: {:?}",
        backends.iter().map(|b| b.name()).collect::<Vec<_>>()
    );
    let mut rng = Rng::new(7);
    for _ in 0..2000 {
        let mut acc = [0i16; HIDDEN];
        let mut w = [0i16; HIDDEN];
        let mut cols = [[0i16; HIDDEN]; 3];
        for j in 0..HIDDEN {
            acc[j] = rng.next_u64() as i16;
            w[j] = (rng.below(255) as i32 - 127) as i16;
            for c in cols.iter_mut() {
                c[j] = rng.next_u64() as i16;
            }
        }
        let dot = simd::screlu_dot_scalar(&acc, &w);
        let mut s = [0i16; HIDDEN];
        simd::update_scalar(&mut s, &acc, &[&cols[0]], &[&cols[1], &cols[2]]);
        for &b in &backends {
            assert_eq!(simd::screlu_dot(b, &acc, &w), dot, "{}", b.name());
            let mut a = [0i16; HIDDEN];
            simd::update(b, &mut a, &acc, &[&cols[0]], &[&cols[1], &cols[2]]);
            assert_eq!(a, s, "{}", b.name());
        }
    }
    // Every activation saturated and every weight at the limit: the largest sums
    // there are, exact in every kernel (they would overflow an i32 total).
    for sign in [1i32, -1] {
        let acc = [(QA + 7) as i16; HIDDEN];
        let w = [(sign * OUT_WEIGHT_MAX) as i16; HIDDEN];
        let most = sign as i64 * HIDDEN as i64 * (QA * QA) as i64 * OUT_WEIGHT_MAX as i64;
        assert_eq!(simd::screlu_dot_scalar(&acc, &w), most);
        for &b in &backends {
            assert_eq!(simd::screlu_dot(b, &acc, &w), most, "{}", b.name());
        }
    }
    let net = random_bucketed_net(8, 8).quantise().expect("valid net");
    for _ in 0..200 {
        let plies = rng.below(100);
        let pos = random_position_any_material(&mut rng, plies);
        let s = Accumulator::refresh(&net, &pos, Backend::SCALAR);
        let (stm, n) = (pos.side_to_move(), net.bucket_of(&pos));
        for &b in &backends {
            let a = Accumulator::refresh(&net, &pos, b);
            assert_eq!(a, s, "{}", b.name());
            assert_eq!(
                a.evaluate(&net, stm, n, b),
                s.evaluate(&net, stm, n, Backend::SCALAR),
                "{}",
                b.name()
            );
        }
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
    for heads in [1, 3, 8] {
        network_round_trips(heads);
    }
}

fn network_round_trips(heads: usize) {
    let net = random_bucketed_net(11, heads)
        .quantise()
        .expect("valid net");
    let path = common::temp_path("roundtrip.nnue");
    net.save(&path).expect("save");
    let back = Network::load(&path).expect("load");
    let _ = std::fs::remove_file(&path);
    assert_eq!(back.as_bytes(), net.as_bytes());
    assert_eq!(back.buckets(), heads);
    assert_eq!(back.as_bytes().len(), nets::format::file_len(heads));
    assert_eq!(
        FloatNet::from_network(&back)
            .quantise()
            .expect("valid")
            .as_bytes(),
        net.as_bytes()
    );
}

#[test]
fn replicated_heads_evaluate_exactly_like_the_one_head_net() {
    let one = random_float_net(14);
    let eight = one.replicate_head(8);
    assert_eq!(eight.buckets(), 8);
    let (q1, q8) = (
        one.quantise().expect("valid"),
        eight.quantise().expect("valid"),
    );
    assert_eq!(q8.buckets(), 8);
    let mut rng = Rng::new(15);
    for _ in 0..100 {
        let plies = rng.below(150);
        let pos = random_position_any_material(&mut rng, plies);
        let (mut a, mut b) = (AccumulatorStack::default(), AccumulatorStack::default());
        a.reset(&q1, &pos);
        b.reset(&q8, &pos);
        assert_eq!(a.evaluate(&q1, &pos), b.evaluate(&q8, &pos));
        assert_eq!(one.evaluate(&pos), eight.evaluate(&pos));
    }
}
