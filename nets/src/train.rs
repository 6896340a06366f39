//! The CPU trainer: the float network of `reference`, mini-batch AdamW, a target that
//! blends the search score and the game result, both cores through rayon.
//!
//! Loss per position: `(sigmoid(out·SCALE/K) − target)²` with
//! `target = λ·result + (1−λ)·sigmoid(score/K)`, score and result from the side to
//! move's view (the data format's convention). Only the columns of the ≤32 active
//! pieces of each perspective take part in a position's forward and backward pass.
//! Each batch is cut into a fixed number of shards (independent of the thread count),
//! each shard sums its gradient sequentially, and the shards are added in order: a run
//! is reproducible from its seed on any machine.
//!
//! A net with several output heads (material buckets) trains its shared hidden layer on
//! every position and each head only on the positions its piece count picks
//! (`crate::buckets::bucket`); AdamW steps all heads.

use crate::buckets::bucket;
use crate::data::PackedPosition;
use crate::reference::{FloatNet, FT_W_LIMIT, OUT_W_LIMIT};
use crate::{HIDDEN, SCALE};
use rayon::prelude::*;
use rules::rng::Rng;
use std::time::Instant;

#[derive(Clone, Debug)]
pub struct TrainConfig {
    pub epochs: usize,
    /// AdamW learning rate at the first epoch; it falls linearly to a tenth at the last.
    pub lr: f32,
    /// λ: weight of the game result in the target (0 = score only, 1 = result only).
    pub wdl: f32,
    pub seed: u64,
    pub batch: usize,
    /// Fraction of the positions held out for validation.
    pub val_fraction: f32,
    /// AdamW decoupled weight decay.
    pub weight_decay: f32,
    /// K: centipawns that map to sigmoid(1) (a score of K ≈ 73% expected).
    pub score_scale: f32,
    /// Reflect each training position left to right with probability ½ every epoch
    /// (`PackedPosition::mirrored`): the rules are symmetric, so this doubles the
    /// distinct positions the net sees without new games. Validation is not mirrored.
    pub mirror: bool,
}

impl Default for TrainConfig {
    fn default() -> Self {
        TrainConfig {
            epochs: 10,
            lr: 0.001,
            wdl: 0.3,
            seed: 1,
            batch: 16384,
            val_fraction: 0.05,
            weight_decay: 0.0001,
            score_scale: 400.0,
            mirror: false,
        }
    }
}

/// What one epoch did.
#[derive(Clone, Debug)]
pub struct EpochReport {
    pub epoch: usize,
    pub lr: f32,
    pub train_loss: f64,
    pub val_loss: f64,
    pub positions_per_s: f64,
}

/// Gradient shards per batch (fixed so that results do not depend on the thread count).
const SHARDS: usize = 8;

pub use crate::reference::{init_random, init_random_bucketed};

#[inline]
fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

struct Scratch {
    us: Vec<usize>,
    them: Vec<usize>,
    acc: [Vec<f32>; 2],
    /// The output head of the last forward pass.
    head: usize,
}

impl Scratch {
    fn new() -> Scratch {
        Scratch {
            us: Vec::with_capacity(32),
            them: Vec::with_capacity(32),
            acc: [vec![0.0; HIDDEN], vec![0.0; HIDDEN]],
            head: 0,
        }
    }
}

fn target(r: &PackedPosition, cfg: &TrainConfig) -> f32 {
    let s = sigmoid(r.score() as f32 / cfg.score_scale);
    cfg.wdl * r.outcome().value() + (1.0 - cfg.wdl) * s
}

/// Forward pass; leaves the accumulators in `sc`; returns the prediction.
fn forward(net: &FloatNet, r: &PackedPosition, cfg: &TrainConfig, sc: &mut Scratch) -> f32 {
    r.features(&mut sc.us, &mut sc.them);
    sc.head = bucket(r.piece_count(), net.buckets());
    let head_w = &net.out_w[sc.head * 2 * HIDDEN..(sc.head + 1) * 2 * HIDDEN];
    let mut out = net.out_b[sc.head];
    for (p, feats) in [&sc.us, &sc.them].into_iter().enumerate() {
        let acc = &mut sc.acc[p];
        acc.copy_from_slice(&net.ft_b);
        for &f in feats.iter() {
            for (a, w) in acc.iter_mut().zip(&net.ft_w[f * HIDDEN..(f + 1) * HIDDEN]) {
                *a += *w;
            }
        }
        let ow = &head_w[p * HIDDEN..(p + 1) * HIDDEN];
        for (a, w) in acc.iter().zip(ow) {
            let c = a.clamp(0.0, 1.0);
            out += c * c * w;
        }
    }
    sigmoid(out * SCALE as f32 / cfg.score_scale)
}

/// Add this position's gradient to `g`; return its loss.
fn backward(
    net: &FloatNet,
    r: &PackedPosition,
    cfg: &TrainConfig,
    sc: &mut Scratch,
    g: &mut FloatNet,
) -> f32 {
    let pred = forward(net, r, cfg, sc);
    let err = pred - target(r, cfg);
    let dout = 2.0 * err * pred * (1.0 - pred) * SCALE as f32 / cfg.score_scale;
    let head = sc.head;
    g.out_b[head] += dout;
    let mut dacc = [0.0f32; HIDDEN];
    for p in 0..2 {
        let acc = &sc.acc[p];
        let at = (2 * head + p) * HIDDEN;
        let ow = &net.out_w[at..at + HIDDEN];
        let gow = &mut g.out_w[at..at + HIDDEN];
        for j in 0..HIDDEN {
            let a = acc[j];
            let c = a.clamp(0.0, 1.0);
            gow[j] += dout * c * c;
            dacc[j] = if a > 0.0 && a < 1.0 {
                dout * ow[j] * 2.0 * a
            } else {
                0.0
            };
        }
        for (gb, d) in g.ft_b.iter_mut().zip(&dacc) {
            *gb += *d;
        }
        let feats = if p == 0 { &sc.us } else { &sc.them };
        for &f in feats.iter() {
            for (gw, d) in g.ft_w[f * HIDDEN..(f + 1) * HIDDEN].iter_mut().zip(&dacc) {
                *gw += *d;
            }
        }
    }
    err * err
}

/// Mean loss of `net` over `data` (parallel, deterministic).
pub fn mean_loss(net: &FloatNet, data: &[PackedPosition], cfg: &TrainConfig) -> f64 {
    if data.is_empty() {
        return 0.0;
    }
    let parts: Vec<f64> = data
        .par_chunks(4096)
        .map(|chunk| {
            let mut sc = Scratch::new();
            chunk
                .iter()
                .map(|r| {
                    let e = forward(net, r, cfg, &mut sc) - target(r, cfg);
                    (e * e) as f64
                })
                .sum()
        })
        .collect();
    parts.iter().sum::<f64>() / data.len() as f64
}

struct Adam {
    m: FloatNet,
    v: FloatNet,
    t: i32,
}

/// One AdamW step on a parameter slice, cut into chunks the cores share (each value's
/// update depends only on its own gradient and moments, so the result does not
/// depend on the cut).
fn adam_slice(p: &mut [f32], g: &[f32], m: &mut [f32], v: &mut [f32], k: &AdamStep) {
    const CHUNK: usize = 1 << 15;
    if p.len() <= CHUNK {
        return adam_chunk(p, g, m, v, k);
    }
    p.par_chunks_mut(CHUNK)
        .zip(g.par_chunks(CHUNK))
        .zip(m.par_chunks_mut(CHUNK))
        .zip(v.par_chunks_mut(CHUNK))
        .for_each(|(((p, g), m), v)| adam_chunk(p, g, m, v, k));
}

fn adam_chunk(p: &mut [f32], g: &[f32], m: &mut [f32], v: &mut [f32], k: &AdamStep) {
    for i in 0..p.len() {
        let gi = g[i] * k.grad_scale;
        m[i] = 0.9 * m[i] + 0.1 * gi;
        v[i] = 0.999 * v[i] + 0.001 * gi * gi;
        let mh = m[i] / k.bc1;
        let vh = v[i] / k.bc2;
        p[i] -= k.lr * (mh / (vh.sqrt() + 1e-8) + k.wd * p[i]);
        p[i] = p[i].clamp(-k.limit, k.limit);
    }
}

struct AdamStep {
    lr: f32,
    wd: f32,
    bc1: f32,
    bc2: f32,
    grad_scale: f32,
    limit: f32,
}

impl Adam {
    fn new(net: &FloatNet) -> Adam {
        Adam {
            m: zeros_like(net),
            v: zeros_like(net),
            t: 0,
        }
    }

    fn step(&mut self, net: &mut FloatNet, g: &FloatNet, lr: f32, wd: f32, batch: usize) {
        self.t += 1;
        let mut k = AdamStep {
            lr,
            wd,
            bc1: 1.0 - 0.9f32.powi(self.t),
            bc2: 1.0 - 0.999f32.powi(self.t),
            grad_scale: 1.0 / batch.max(1) as f32,
            limit: FT_W_LIMIT,
        };
        adam_slice(
            &mut net.ft_w,
            &g.ft_w,
            &mut self.m.ft_w,
            &mut self.v.ft_w,
            &k,
        );
        adam_slice(
            &mut net.ft_b,
            &g.ft_b,
            &mut self.m.ft_b,
            &mut self.v.ft_b,
            &k,
        );
        k.limit = OUT_W_LIMIT;
        adam_slice(
            &mut net.out_w,
            &g.out_w,
            &mut self.m.out_w,
            &mut self.v.out_w,
            &k,
        );
        k.limit = f32::MAX;
        adam_slice(
            &mut net.out_b,
            &g.out_b,
            &mut self.m.out_b,
            &mut self.v.out_b,
            &k,
        );
    }
}

fn zeros_like(net: &FloatNet) -> FloatNet {
    FloatNet::zeros_bucketed(net.buckets())
}

fn zero(g: &mut FloatNet) {
    g.ft_w.fill(0.0);
    g.ft_b.fill(0.0);
    g.out_w.fill(0.0);
    g.out_b.fill(0.0);
}

fn add_into(dst: &mut FloatNet, src: &FloatNet) {
    let add = |d: &mut [f32], s: &[f32]| d.iter_mut().zip(s).for_each(|(d, s)| *d += *s);
    add(&mut dst.ft_w, &src.ft_w);
    add(&mut dst.ft_b, &src.ft_b);
    add(&mut dst.out_w, &src.out_w);
    add(&mut dst.out_b, &src.out_b);
}

/// Records per validation block: `len / 256`, at most 1024, at least 1.
pub fn val_block(len: usize) -> usize {
    (len / 256).clamp(1, 1024)
}

/// Split `data` into (train, validation): the validation set is whole blocks of
/// consecutive records (`val_block`), picked by a seeded shuffle of the blocks until
/// it holds `val_fraction` of the positions. `qili datagen` writes a game's positions
/// one after another (about 100 per game), so a block of 1024 is mostly whole games:
/// a split by single positions put positions of the same games on both sides, and a
/// net that memorised games (a net with six times the inputs did) looked better on
/// validation than it played.
pub fn split(
    data: &[PackedPosition],
    cfg: &TrainConfig,
) -> (Vec<PackedPosition>, Vec<PackedPosition>) {
    let block = val_block(data.len());
    let n_val = ((data.len() as f64 * cfg.val_fraction as f64).round() as usize).min(data.len());
    let mut blocks: Vec<usize> = (0..data.len().div_ceil(block)).collect();
    Rng::new(cfg.seed ^ 0x5eed).shuffle(&mut blocks);
    let mut is_val = vec![false; blocks.len()];
    let mut taken = 0;
    for &b in &blocks {
        if taken >= n_val {
            break;
        }
        is_val[b] = true;
        taken += data[b * block..].len().min(block);
    }
    let (mut train, mut val) = (
        Vec::with_capacity(data.len() - taken),
        Vec::with_capacity(taken),
    );
    for (b, chunk) in data.chunks(block).enumerate() {
        let side = if is_val[b] { &mut val } else { &mut train };
        side.extend_from_slice(chunk);
    }
    (train, val)
}

/// Train `net` on `data`, calling `on_epoch` after every epoch. Returns the final net.
pub fn train(
    mut net: FloatNet,
    data: &[PackedPosition],
    cfg: &TrainConfig,
    on_epoch: &mut dyn FnMut(&EpochReport),
) -> FloatNet {
    let (mut train, val) = split(data, cfg);
    let mut rng = Rng::new(cfg.seed);
    let mut adam = Adam::new(&net);
    let mut grads: Vec<FloatNet> = (0..SHARDS).map(|_| zeros_like(&net)).collect();
    let batch = cfg.batch.max(1);
    for epoch in 0..cfg.epochs {
        let frac = if cfg.epochs > 1 {
            epoch as f32 / (cfg.epochs - 1) as f32
        } else {
            0.0
        };
        let lr = cfg.lr * (1.0 - 0.9 * frac);
        rng.shuffle(&mut train);
        if cfg.mirror {
            for r in train.iter_mut() {
                if rng.next_u64() & 1 == 1 {
                    *r = r.mirrored();
                }
            }
        }
        let t0 = Instant::now();
        let mut loss_sum = 0.0f64;
        for b in train.chunks(batch) {
            let shard_len = b.len().div_ceil(SHARDS);
            let losses: Vec<f64> = grads
                .par_iter_mut()
                .zip(b.par_chunks(shard_len))
                .map(|(g, shard)| {
                    zero(g);
                    let mut sc = Scratch::new();
                    shard
                        .iter()
                        .map(|r| backward(&net, r, cfg, &mut sc, g) as f64)
                        .sum()
                })
                .collect();
            let used = losses.len();
            loss_sum += losses.iter().sum::<f64>();
            let (first, rest) = grads.split_at_mut(1);
            for g in rest.iter().take(used.saturating_sub(1)) {
                add_into(&mut first[0], g);
            }
            adam.step(&mut net, &first[0], lr, cfg.weight_decay, b.len());
        }
        let secs = t0.elapsed().as_secs_f64();
        let report = EpochReport {
            epoch: epoch + 1,
            lr,
            train_loss: loss_sum / train.len().max(1) as f64,
            val_loss: mean_loss(&net, &val, cfg),
            positions_per_s: train.len() as f64 / secs.max(1e-9),
        };
        on_epoch(&report);
    }
    net
}
