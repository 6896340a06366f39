//! The float network: the trainer's parameters and the plain reference that the
//! quantised inference is tested against.

use crate::buckets::bucket;
use crate::features;
use crate::format::NarrowNet;
use crate::{NetError, Network, HIDDEN, INPUTS, OUT_WEIGHT_MAX, QA, QB, SCALE};
use rules::rng::Rng;
use rules::{Color, Position};

/// Float weights in the layout of the net file (feature-major first layer).
#[derive(Clone, Debug, PartialEq)]
pub struct FloatNet {
    pub ft_w: Vec<f32>,
    pub ft_b: Vec<f32>,
    /// `2 × HIDDEN` per output head, head after head; in each, the side to move's
    /// `HIDDEN` first, then the opponent's.
    pub out_w: Vec<f32>,
    /// One bias per output head; its length is the number of heads.
    pub out_b: Vec<f32>,
}

/// Largest float output weight that quantises within ±OUT_WEIGHT_MAX.
pub const OUT_W_LIMIT: f32 = OUT_WEIGHT_MAX as f32 / QB as f32;
/// Largest float first-layer weight (keeps i16 accumulators far from overflow).
pub const FT_W_LIMIT: f32 = 1.98;

impl FloatNet {
    /// All zero, one output head.
    pub fn zeros() -> FloatNet {
        FloatNet::zeros_bucketed(1)
    }

    /// All zero, `buckets` output heads.
    pub fn zeros_bucketed(buckets: usize) -> FloatNet {
        FloatNet {
            ft_w: vec![0.0; INPUTS * HIDDEN],
            ft_b: vec![0.0; HIDDEN],
            out_w: vec![0.0; buckets * 2 * HIDDEN],
            out_b: vec![0.0; buckets],
        }
    }

    /// Number of output heads.
    pub fn buckets(&self) -> usize {
        self.out_b.len()
    }

    /// The same net with `buckets` output heads, each a copy of head 0 (a warm start
    /// for a bucketed net from a one-head one: it evaluates exactly like head 0 until
    /// the heads are trained apart).
    pub fn replicate_head(&self, buckets: usize) -> FloatNet {
        let head = &self.out_w[..2 * HIDDEN];
        FloatNet {
            ft_w: self.ft_w.clone(),
            ft_b: self.ft_b.clone(),
            out_w: head.repeat(buckets),
            out_b: vec![self.out_b[0]; buckets],
        }
    }

    /// A net of this build's width that evaluates exactly like `narrow`, a net of
    /// an earlier round with fewer hidden neurons: its neurons come first with their
    /// weights, and each new neuron starts with small random input weights (`seed`)
    /// and output weights of zero, so it changes nothing until training moves it
    /// (a warm start for a wider net from the best narrow one; from random weights a
    /// wider net would have to relearn on today's data what the narrow net learnt
    /// from every earlier round's).
    pub fn widened(narrow: &NarrowNet, seed: u64) -> FloatNet {
        let (h, qa, qb) = (narrow.hidden, QA as f32, QB as f32);
        let buckets = narrow.out_b.len();
        let mut n = init_random_bucketed(seed, buckets);
        for f in 0..INPUTS {
            for j in 0..h {
                n.ft_w[f * HIDDEN + j] = narrow.ft_w[f * h + j] as f32 / qa;
            }
        }
        for j in 0..h {
            n.ft_b[j] = narrow.ft_b[j] as f32 / qa;
        }
        n.out_w.iter_mut().for_each(|w| *w = 0.0);
        for half in 0..2 * buckets {
            for j in 0..h {
                n.out_w[half * HIDDEN + j] = narrow.out_w[half * h + j] as f32 / qb;
            }
        }
        for (b, &bias) in n.out_b.iter_mut().zip(&narrow.out_b) {
            *b = bias as f32 / (QA * QB) as f32;
        }
        n
    }

    /// The float values a quantised net stands for.
    pub fn from_network(net: &Network) -> FloatNet {
        let qa = QA as f32;
        FloatNet {
            ft_w: net.ft_weights().iter().map(|&w| w as f32 / qa).collect(),
            ft_b: net.ft_biases().iter().map(|&w| w as f32 / qa).collect(),
            out_w: net
                .out_weights()
                .iter()
                .map(|&w| w as f32 / QB as f32)
                .collect(),
            out_b: (0..net.buckets())
                .map(|b| net.out_bias(b) as f32 / (QA * QB) as f32)
                .collect(),
        }
    }

    /// Round to the file's integers (output weights clipped to ±OUT_WEIGHT_MAX).
    pub fn quantise(&self) -> Result<Network, NetError> {
        let q16 =
            |x: f32, s: i32, lim: i32| (x * s as f32).round().clamp(-lim as f32, lim as f32) as i16;
        let ft_w: Vec<i16> = self
            .ft_w
            .iter()
            .map(|&w| q16(w, QA, i16::MAX as i32))
            .collect();
        let ft_b: Vec<i16> = self
            .ft_b
            .iter()
            .map(|&w| q16(w, QA, i16::MAX as i32))
            .collect();
        let out_w: Vec<i16> = self
            .out_w
            .iter()
            .map(|&w| q16(w, QB, OUT_WEIGHT_MAX))
            .collect();
        let out_b: Vec<i32> = self
            .out_b
            .iter()
            .map(|&b| {
                (b as f64 * (QA * QB) as f64)
                    .round()
                    .clamp(i32::MIN as f64, i32::MAX as f64) as i32
            })
            .collect();
        Network::from_parts_bucketed(&ft_w, &ft_b, &out_w, &out_b)
    }

    /// First-layer sums (Red's, Black's perspective) of the given active features.
    pub fn accumulate(&self, active: &[Vec<usize>; 2]) -> [Vec<f64>; 2] {
        let mut out = [Vec::new(), Vec::new()];
        for (p, feats) in active.iter().enumerate() {
            let mut acc: Vec<f64> = self.ft_b.iter().map(|&b| b as f64).collect();
            for &f in feats {
                for (a, &w) in acc.iter_mut().zip(&self.ft_w[f * HIDDEN..(f + 1) * HIDDEN]) {
                    *a += w as f64;
                }
            }
            out[p] = acc;
        }
        out
    }

    /// Raw output (before × SCALE) from `stm`'s view of output head `head`.
    pub fn output(&self, acc: &[Vec<f64>; 2], stm: Color, head: usize) -> f64 {
        let act = |x: f64| x.clamp(0.0, 1.0).powi(2);
        let w = &self.out_w[head * 2 * HIDDEN..(head + 1) * 2 * HIDDEN];
        let (w_us, w_them) = w.split_at(HIDDEN);
        let us = &acc[stm.index()];
        let them = &acc[stm.flip().index()];
        let mut out = self.out_b[head] as f64;
        for j in 0..HIDDEN {
            out += act(us[j]) * w_us[j] as f64 + act(them[j]) * w_them[j] as f64;
        }
        out
    }

    /// Evaluation in (fractional) centipawns from the side to move's view.
    pub fn evaluate(&self, pos: &Position) -> f64 {
        let acc = self.accumulate(&features::active(pos));
        let head = bucket(pos.occupied().count(), self.buckets());
        self.output(&acc, pos.side_to_move(), head) * SCALE as f64
    }
}

/// A freshly initialised one-head network (reproducible from `seed`).
pub fn init_random(seed: u64) -> FloatNet {
    init_random_bucketed(seed, 1)
}

/// A freshly initialised network with `buckets` output heads (reproducible from
/// `seed`; with one head the same as `init_random`).
pub fn init_random_bucketed(seed: u64, buckets: usize) -> FloatNet {
    let mut rng = Rng::new(seed);
    let mut n = FloatNet::zeros_bucketed(buckets);
    n.ft_w.iter_mut().for_each(|w| *w = rng.symmetric(0.05));
    n.ft_b
        .iter_mut()
        .for_each(|w| *w = 0.25 + rng.symmetric(0.25));
    let a = 1.0 / (2.0 * HIDDEN as f32).sqrt();
    n.out_w.iter_mut().for_each(|w| *w = rng.symmetric(a));
    n
}
