//! Win/draw/loss expectation from a score (UCI `UCI_ShowWDL`): a model fitted on
//! the engine's own self-play results.
//!
//! The model: with `s` the score in centipawns from the side to move's view and
//! `m` the material on the board (pieces, kings included, over 32),
//! `P(win) = σ((s − a(m)) / b(m))` and `P(loss) = σ((−s − a(m)) / b(m))`, the rest
//! a draw, where `a(m) = a0 + a1·m` is the score at which a win is as likely as
//! not and `b(m) = b0 + b1·m` how fast certainty grows. Both depend on material
//! because the same advantage converts differently with few pieces left.
//!
//! `fit` finds the four numbers by maximum likelihood over labelled positions
//! (`qili fit-wdl --data shard*.bin` runs it on datagen shards and prints them);
//! `MODEL` holds the fitted values played with.

use crate::limits::Score;

/// The four numbers of the model.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WdlModel {
    pub a: [f64; 2],
    pub b: [f64; 2],
}

/// The values played with: `qili fit-wdl --data shard17.bin shard18.bin
/// --iterations 1500` on the first 803 353 positions of round-8 self-play (net7 at
/// 1500 nodes a move, docs/NNUE.md; 200 839 fitted, mean negative log-likelihood
/// 0.70123 before, 0.65828 after). Fast self-play from random openings converts
/// an advantage less surely and draws less often than long games do.
pub const MODEL: WdlModel = WdlModel {
    a: [628.9, -558.0],
    b: [80.4, 412.6],
};

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

impl WdlModel {
    fn params(&self, pieces: u32) -> (f64, f64) {
        let m = f64::from(pieces.clamp(2, 32)) / 32.0;
        let a = self.a[0] + self.a[1] * m;
        // A scale below 1 cp would make the model a step function.
        let b = (self.b[0] + self.b[1] * m).max(1.0);
        (a, b)
    }

    /// Probabilities of win, draw, loss for a centipawn score.
    pub fn probabilities(&self, cp: i32, pieces: u32) -> (f64, f64, f64) {
        let (a, b) = self.params(pieces);
        let s = f64::from(cp);
        let w = sigmoid((s - a) / b);
        let l = sigmoid((-s - a) / b);
        // With a >= 0 the two never overlap; guard a fitted a < 0 all the same.
        let d = (1.0 - w - l).max(0.0);
        let total = w + d + l;
        (w / total, d / total, l / total)
    }

    /// Per mille win, draw, loss, summing to exactly 1000. Mates are certain.
    pub fn per_mille(&self, score: Score, pieces: u32) -> (u32, u32, u32) {
        match score {
            Score::Mate(n) if n > 0 => (1000, 0, 0),
            Score::Mate(_) => (0, 0, 1000),
            Score::Cp(cp) => {
                let (w, _, l) = self.probabilities(cp, pieces);
                let w = (w * 1000.0).round() as u32;
                let l = ((l * 1000.0).round() as u32).min(1000 - w);
                (w, 1000 - w - l, l)
            }
        }
    }

    /// Mean negative log-likelihood of `samples` (score, pieces, result 0/1/2 as
    /// loss/draw/win, all from the side to move's view).
    pub fn loss(&self, samples: &[(i32, u32, u8)]) -> f64 {
        let mut total = 0.0;
        for &(cp, pieces, result) in samples {
            let (w, d, l) = self.probabilities(cp, pieces);
            let p = match result {
                2 => w,
                1 => d,
                _ => l,
            };
            total -= p.max(1e-9).ln();
        }
        total / samples.len().max(1) as f64
    }
}

/// Where `fit` starts: a neutral model (a win as likely as not at 3 pawns, the
/// same with any material).
const FIT_START: WdlModel = WdlModel {
    a: [300.0, 0.0],
    b: [150.0, 0.0],
};

/// Fit the model to `samples` by maximum likelihood: Adam on the four numbers
/// with numerical gradients (the loss is smooth and cheap), from `FIT_START`.
pub fn fit(samples: &[(i32, u32, u8)], iterations: usize) -> WdlModel {
    let mut x = [
        FIT_START.a[0],
        FIT_START.a[1],
        FIT_START.b[0],
        FIT_START.b[1],
    ];
    let model = |x: &[f64; 4]| WdlModel {
        a: [x[0], x[1]],
        b: [x[2], x[3]],
    };
    let (mut m, mut v) = ([0.0f64; 4], [0.0f64; 4]);
    let (lr, b1, b2) = (2.0, 0.9, 0.999);
    for t in 1..=iterations {
        let mut g = [0.0; 4];
        for i in 0..4 {
            let h = 0.01;
            let (mut up, mut down) = (x, x);
            up[i] += h;
            down[i] -= h;
            g[i] = (model(&up).loss(samples) - model(&down).loss(samples)) / (2.0 * h);
        }
        for i in 0..4 {
            m[i] = b1 * m[i] + (1.0 - b1) * g[i];
            v[i] = b2 * v[i] + (1.0 - b2) * g[i] * g[i];
            let mh = m[i] / (1.0 - b1.powi(t as i32));
            let vh = v[i] / (1.0 - b2.powi(t as i32));
            x[i] -= lr * mh / (vh.sqrt() + 1e-12);
        }
    }
    model(&x)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn per_mille_is_sensible() {
        for pieces in [4, 16, 32] {
            let (w, d, l) = MODEL.per_mille(Score::Cp(0), pieces);
            assert_eq!(w + d + l, 1000);
            assert_eq!(w, l, "a level score is symmetric");
            let mut last = 0;
            for cp in (-2000..=2000).step_by(50) {
                let (w, d, l) = MODEL.per_mille(Score::Cp(cp), pieces);
                assert_eq!(w + d + l, 1000);
                assert!(w >= last, "win grows with the score");
                last = w;
            }
            assert!(MODEL.per_mille(Score::Cp(3000), pieces).0 > 950);
        }
        assert_eq!(MODEL.per_mille(Score::Mate(3), 20), (1000, 0, 0));
        assert_eq!(MODEL.per_mille(Score::Mate(-1), 20), (0, 0, 1000));
        assert_eq!(MODEL.per_mille(Score::Mate(0), 20), (0, 0, 1000));
    }

    /// Samples drawn from a known model are fitted back to it.
    #[test]
    fn fit_recovers_a_planted_model() {
        let planted = WdlModel {
            a: [300.0, 150.0],
            b: [90.0, 60.0],
        };
        let mut rng = 12345u64;
        let mut next = || {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            rng
        };
        let mut samples = Vec::new();
        for _ in 0..20000 {
            let cp = (next() % 1601) as i32 - 800;
            let pieces = 4 + (next() % 29) as u32;
            let (w, d, _) = planted.probabilities(cp, pieces);
            let u = (next() % 1_000_000) as f64 / 1e6;
            let result = if u < w {
                2
            } else if u < w + d {
                1
            } else {
                0
            };
            samples.push((cp, pieces, result));
        }
        let fitted = fit(&samples, 400);
        assert!(fitted.loss(&samples) <= planted.loss(&samples) + 0.002);
        for (cp, pieces) in [(0, 10), (200, 20), (-300, 30), (500, 6)] {
            let (pw, _, pl) = planted.probabilities(cp, pieces);
            let (fw, _, fl) = fitted.probabilities(cp, pieces);
            assert!(
                (pw - fw).abs() < 0.05 && (pl - fl).abs() < 0.05,
                "{cp} {pieces}"
            );
        }
    }
}
