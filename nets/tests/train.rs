//! A tiny training run lowers the validation loss, and is reproducible from its seed.

mod common;

use common::random_position;
use nets::data::{Outcome, PackedPosition};
use nets::reference::FloatNet;
use nets::train::{self, TrainConfig};
use rules::rng::Rng;
use rules::{Color, PieceKind, Position};

/// Material balance from the side to move's view (a learnable, position-dependent label).
fn material(pos: &Position) -> i32 {
    let value = |k: PieceKind| match k {
        PieceKind::King => 0,
        PieceKind::Advisor | PieceKind::Elephant => 200,
        PieceKind::Knight => 400,
        PieceKind::Cannon => 450,
        PieceKind::Rook => 900,
        PieceKind::Pawn => 100,
    };
    let mut s = 0;
    for sq in pos.occupied() {
        if let Some(p) = pos.piece_at(sq) {
            let v = value(p.kind);
            s += if p.color == Color::Red { v } else { -v };
        }
    }
    if pos.side_to_move() == Color::Red {
        s
    } else {
        -s
    }
}

fn dataset(n: usize, seed: u64) -> Vec<PackedPosition> {
    let mut rng = Rng::new(seed);
    (0..n)
        .map(|_| {
            let plies = 20 + rng.below(150);
            let pos = random_position(&mut rng, plies);
            let m = material(&pos);
            let outcome = match m {
                m if m > 150 => Outcome::Win,
                m if m < -150 => Outcome::Loss,
                _ => Outcome::Draw,
            };
            PackedPosition::pack(&pos, m.clamp(-3000, 3000) as i16, outcome)
        })
        .collect()
}

#[test]
fn tiny_training_run_lowers_validation_loss_reproducibly() {
    let data = dataset(3000, 1);
    let cfg = TrainConfig {
        epochs: 4,
        lr: 0.01,
        batch: 256,
        val_fraction: 0.2,
        seed: 7,
        ..TrainConfig::default()
    };
    let init = train::init_random(cfg.seed);
    let (_, val) = train::split(&data, &cfg);
    let before = train::mean_loss(&init, &val, &cfg);
    let mut reports = Vec::new();
    let net = train::train(init.clone(), &data, &cfg, &mut |r| reports.push(r.clone()));
    assert_eq!(reports.len(), 4);
    let after = reports.last().map(|r| r.val_loss).unwrap_or(f64::MAX);
    assert!(
        after < 0.6 * before,
        "validation loss {before:.5} -> {after:.5}"
    );
    assert!((train::mean_loss(&net, &val, &cfg) - after).abs() < 1e-12);
    assert!(reports.iter().all(|r| r.positions_per_s > 0.0));

    // Same seed, same data: the same network, bit for bit.
    let again = train::train(init, &data, &cfg, &mut |_| {});
    assert_eq!(again, net);

    // The exported net evaluates like the float net it came from (sign and size).
    let q = net.quantise().expect("exports");
    assert_faithful_export(&net, &q, 99);
}

/// The export is a faithful rounding of the float net: every weight within half a
/// quantisation step of its float value (the trainer keeps weights inside the
/// clipping range), and the quantised net evaluates 100 random positions like the
/// float net those rounded weights stand for, to the integer pipeline's truncation.
/// (Against the unrounded float net the difference is the rounding of 2·HIDDEN output
/// weights, tens of centipawns on these crude nets: no fixed tolerance fits that.)
fn assert_faithful_export(net: &FloatNet, q: &nets::Network, seed: u64) {
    use nets::{QA, QB, SCALE};
    let deq = FloatNet::from_network(q);
    assert_eq!(deq.buckets(), net.buckets());
    let close = |a: &[f32], b: &[f32], step: f32, what: &str| {
        assert_eq!(a.len(), b.len(), "{what}");
        for (i, (x, y)) in a.iter().zip(b).enumerate() {
            assert!(
                (x - y).abs() <= 0.5 * step + 1e-6,
                "{what}[{i}]: {x} vs {y}"
            );
        }
    };
    close(&deq.ft_w, &net.ft_w, 1.0 / QA as f32, "ft_w");
    close(&deq.ft_b, &net.ft_b, 1.0 / QA as f32, "ft_b");
    close(&deq.out_w, &net.out_w, 1.0 / QB as f32, "out_w");
    close(&deq.out_b, &net.out_b, 1.0 / (QA * QB) as f32, "out_b");
    let mut rng = Rng::new(seed);
    for _ in 0..100 {
        let pos = random_position(&mut rng, 60);
        let mut st = nets::AccumulatorStack::default();
        st.reset(q, &pos);
        let (qi, d) = (st.evaluate(q, &pos) as f64, deq.evaluate(&pos));
        let limit = 1.0 + SCALE as f64 / (QA * QB) as f64 + 1e-9;
        assert!((qi - d).abs() <= limit, "{}: {qi} vs {d}", pos.to_fen());
    }
}

#[test]
fn tiny_bucketed_training_run_lowers_validation_loss() {
    let data = dataset(3000, 2);
    let cfg = TrainConfig {
        epochs: 8,
        lr: 0.01,
        batch: 256,
        val_fraction: 0.2,
        seed: 8,
        ..TrainConfig::default()
    };
    let init = train::init_random_bucketed(cfg.seed, 8);
    assert_eq!(init.buckets(), 8);
    let (_, val) = train::split(&data, &cfg);
    let before = train::mean_loss(&init, &val, &cfg);
    let mut reports = Vec::new();
    let net = train::train(init, &data, &cfg, &mut |r| reports.push(r.clone()));
    assert_eq!(net.buckets(), 8);
    let after = reports.last().map(|r| r.val_loss).unwrap_or(f64::MAX);
    assert!(
        after < 0.6 * before,
        "validation loss {before:.5} -> {after:.5}"
    );
    // The export keeps the heads, and the quantised net picks the same head as the
    // float net it came from.
    let q = net.quantise().expect("exports");
    assert_eq!(q.buckets(), 8);
    assert_faithful_export(&net, &q, 98);
}

#[test]
fn only_the_heads_of_the_trained_positions_learn() {
    // Positions with 26 or more pieces pick heads 6 and 7 of 8: without weight decay
    // the other heads must come out bit for bit as they went in.
    let data: Vec<PackedPosition> = dataset(1500, 3)
        .into_iter()
        .filter(|r| r.piece_count() >= 26)
        .collect();
    assert!(data.len() > 200, "{} positions", data.len());
    let cfg = TrainConfig {
        epochs: 2,
        lr: 0.01,
        batch: 128,
        val_fraction: 0.1,
        weight_decay: 0.0,
        seed: 9,
        ..TrainConfig::default()
    };
    let init = train::init_random_bucketed(cfg.seed, 8);
    let net = train::train(init.clone(), &data, &cfg, &mut |_| {});
    let head = |n: &nets::reference::FloatNet, h: usize| {
        let w = n.out_w[h * 2 * nets::HIDDEN..(h + 1) * 2 * nets::HIDDEN].to_vec();
        (w, n.out_b[h])
    };
    for h in 0..6 {
        assert_eq!(head(&net, h), head(&init, h), "head {h} changed");
    }
    for h in 6..8 {
        assert_ne!(head(&net, h), head(&init, h), "head {h} did not learn");
    }
    assert_ne!(net.ft_w, init.ft_w, "the shared layer learns");
}

#[test]
fn validation_is_whole_blocks_of_consecutive_records() {
    let data = dataset(3000, 5);
    let cfg = TrainConfig {
        val_fraction: 0.2,
        seed: 11,
        ..TrainConfig::default()
    };
    let (train_set, val) = train::split(&data, &cfg);
    let block = train::val_block(data.len());
    assert_eq!(block, 11);
    assert_eq!(train_set.len() + val.len(), data.len());
    assert!((600..600 + block).contains(&val.len()), "{}", val.len());
    // Every validation record is a record of `data`, and they come in runs of whole
    // blocks: record i of a block is followed by record i + 1 of the data.
    let index: std::collections::HashMap<&[u8], usize> = data
        .iter()
        .enumerate()
        .map(|(i, r)| (bytemuck::bytes_of(r), i))
        .collect();
    assert_eq!(index.len(), data.len(), "test data must be distinct");
    let at: Vec<usize> = val.iter().map(|r| index[bytemuck::bytes_of(r)]).collect();
    for (j, &i) in at.iter().enumerate() {
        if j == 0 || at[j - 1] + 1 != i {
            assert_eq!(i % block, 0, "a run starts inside a block");
        }
        if i % block != block - 1 && i + 1 < data.len() {
            assert_eq!(at.get(j + 1), Some(&(i + 1)), "a block was cut");
        }
    }
    // The same seed gives the same split; another seed another one.
    assert_eq!(train::split(&data, &cfg).1, val);
    let other = TrainConfig { seed: 12, ..cfg };
    assert_ne!(train::split(&data, &other).1, val);
}

/// Training with `mirror` shows the net both reflections of each position: its
/// evaluations of a position and of its reflection come out closer than those of the
/// same run without it (the data is the same; only the reflections differ), and the
/// run is still reproducible from its seed.
#[test]
fn mirrored_training_makes_the_net_more_symmetric() {
    let data = dataset(3000, 3);
    let base = TrainConfig {
        epochs: 4,
        lr: 0.01,
        batch: 256,
        val_fraction: 0.2,
        seed: 11,
        ..TrainConfig::default()
    };
    let mirrored = TrainConfig {
        mirror: true,
        ..base.clone()
    };
    let init = train::init_random(base.seed);
    let plain = train::train(init.clone(), &data, &base, &mut |_| {});
    let with = train::train(init.clone(), &data, &mirrored, &mut |_| {});
    assert_ne!(plain, with);
    assert_eq!(train::train(init, &data, &mirrored, &mut |_| {}), with);
    let (_, val) = train::split(&data, &base);
    let asymmetry = |net: &FloatNet| -> f64 {
        let positions = nets::data::decode_positions(&val).expect("decode");
        let reflected: Vec<PackedPosition> = val.iter().map(|r| r.mirrored()).collect();
        let reflected = nets::data::decode_positions(&reflected).expect("decode");
        positions
            .iter()
            .zip(&reflected)
            .map(|(p, m)| (net.evaluate(p) - net.evaluate(m)).abs())
            .sum::<f64>()
            / positions.len() as f64
    };
    let (a_plain, a_with) = (asymmetry(&plain), asymmetry(&with));
    assert!(
        a_with < 0.7 * a_plain,
        "mean |eval - eval of the reflection|: {a_plain:.2} without, {a_with:.2} with"
    );
}
