//! SPSA (simultaneous perturbation stochastic approximation) for tuning engine
//! parameters by self-play, in the form fishtest uses: every iteration perturbs
//! all parameters at once by ±c_k, plays the two versions against each other,
//! and moves every parameter along its perturbation by the result.
//!
//! With `N` iterations planned, parameter `i` with end perturbation `c_end[i]`
//! and end learning rate `r_end`:
//! `c_k = c_end · N^γ / k^γ`, `a_k = r_end · c_end² · (A + N)^α / (A + k)^α`,
//! `θ_i += a_k / c_k² · c_k · δ_i · result`, where `result` is the score of
//! θ + c δ minus that of θ − c δ (in games), `δ_i = ±1` at random, `A = N / 10`,
//! `α = 0.602`, `γ = 0.101`.

use rules::rng::Rng;

/// The state of one tuning run.
#[derive(Clone, Debug)]
pub struct Spsa {
    /// Current values (real numbers; engines get them rounded).
    pub theta: Vec<f64>,
    pub min: Vec<f64>,
    pub max: Vec<f64>,
    pub c_end: Vec<f64>,
    pub r_end: f64,
    pub iterations: u32,
    /// Iterations done.
    pub k: u32,
    rng: Rng,
}

const ALPHA: f64 = 0.602;
const GAMMA: f64 = 0.101;

/// One iteration's two points to play.
#[derive(Clone, Debug, PartialEq)]
pub struct Perturbation {
    pub delta: Vec<f64>,
    pub plus: Vec<f64>,
    pub minus: Vec<f64>,
    pub c: Vec<f64>,
}

impl Spsa {
    pub fn new(
        theta: Vec<f64>,
        min: Vec<f64>,
        max: Vec<f64>,
        c_end: Vec<f64>,
        r_end: f64,
        iterations: u32,
        seed: u64,
    ) -> Spsa {
        assert!(theta.len() == min.len() && min.len() == max.len() && max.len() == c_end.len());
        Spsa {
            theta,
            min,
            max,
            c_end,
            r_end,
            iterations: iterations.max(1),
            k: 0,
            rng: Rng::new(seed),
        }
    }

    fn next_bit(&mut self) -> bool {
        self.rng.next_u64() & 1 == 1
    }

    fn c_k(&self, i: usize, k: f64) -> f64 {
        self.c_end[i] * f64::from(self.iterations).powf(GAMMA) / k.powf(GAMMA)
    }

    fn a_k(&self, i: usize, k: f64) -> f64 {
        let big_a = f64::from(self.iterations) / 10.0;
        self.r_end
            * self.c_end[i]
            * self.c_end[i]
            * (big_a + f64::from(self.iterations)).powf(ALPHA)
            / (big_a + k).powf(ALPHA)
    }

    /// The two points of the next iteration, within the bounds.
    pub fn perturb(&mut self) -> Perturbation {
        let k = f64::from(self.k + 1);
        let n = self.theta.len();
        let mut p = Perturbation {
            delta: Vec::with_capacity(n),
            plus: Vec::with_capacity(n),
            minus: Vec::with_capacity(n),
            c: Vec::with_capacity(n),
        };
        for i in 0..n {
            let d = if self.next_bit() { 1.0 } else { -1.0 };
            let c = self.c_k(i, k);
            p.delta.push(d);
            p.c.push(c);
            p.plus
                .push((self.theta[i] + c * d).clamp(self.min[i], self.max[i]));
            p.minus
                .push((self.theta[i] - c * d).clamp(self.min[i], self.max[i]));
        }
        p
    }

    /// Apply the result of an iteration: `result` is the score of `plus` minus
    /// that of `minus`, in games (e.g. +1 for a won pair and a draw: 1.5 − 0.5).
    pub fn update(&mut self, p: &Perturbation, result: f64) {
        let k = f64::from(self.k + 1);
        for i in 0..self.theta.len() {
            let c = p.c[i];
            let step = self.a_k(i, k) / (c * c) * c * p.delta[i] * result;
            self.theta[i] = (self.theta[i] + step).clamp(self.min[i], self.max[i]);
        }
        self.k += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A toy objective with its optimum at (30, −20, 5): a "match" between two
    /// points is won by the one closer to the optimum, with noise. SPSA must walk
    /// from a poor start to near the optimum.
    #[test]
    fn spsa_finds_the_optimum_of_a_noisy_toy_objective() {
        let optimum = [30.0, -20.0, 5.0];
        let loss =
            |x: &[f64]| -> f64 { x.iter().zip(optimum).map(|(a, b)| (a - b) * (a - b)).sum() };
        let mut s = Spsa::new(
            vec![-40.0, 40.0, 60.0],
            vec![-100.0; 3],
            vec![100.0; 3],
            vec![4.0; 3],
            0.006,
            4000,
            7,
        );
        let mut noise = 12345u64;
        let start_loss = loss(&s.theta);
        for _ in 0..4000 {
            let p = s.perturb();
            noise ^= noise << 13;
            noise ^= noise >> 7;
            noise ^= noise << 17;
            let jitter = (noise % 1000) as f64 / 1000.0 - 0.5;
            // A pair of games: +2 .. −2, from the loss difference and luck.
            let diff = (loss(&p.minus) - loss(&p.plus)) / 50.0 + jitter;
            let result = diff.clamp(-2.0, 2.0);
            s.update(&p, result);
        }
        let end_loss = loss(&s.theta);
        assert!(
            end_loss < start_loss / 50.0,
            "{start_loss} -> {end_loss}: {:?}",
            s.theta
        );
        for (t, o) in s.theta.iter().zip(optimum) {
            assert!((t - o).abs() < 8.0, "{:?}", s.theta);
        }
        assert_eq!(s.k, 4000);
    }

    #[test]
    fn perturbations_stay_within_bounds_and_shrink() {
        let mut s = Spsa::new(vec![0.0], vec![-1.0], vec![1.0], vec![5.0], 0.002, 100, 1);
        let first = s.perturb();
        assert!(first.plus[0].abs() <= 1.0 && first.minus[0].abs() <= 1.0);
        let c1 = first.c[0];
        for _ in 0..99 {
            let p = s.perturb();
            s.update(&p, 0.0);
        }
        let last = s.perturb();
        assert!(last.c[0] < c1);
        assert!((last.c[0] - 5.0).abs() < 0.1, "c at the end is c_end");
    }
}
