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

impl Spsa {
    /// Continue a run from its log: the state after `k` iterations with the values
    /// `theta` the log holds. The perturbations' random signs are drawn again (a
    /// fixed number per iteration), so the resumed run perturbs exactly as the
    /// uninterrupted one would have.
    pub fn fast_forward(&mut self, k: u32, theta: &[f64]) -> Result<(), String> {
        if theta.len() != self.theta.len() {
            return Err(format!(
                "{} values for {} parameters",
                theta.len(),
                self.theta.len()
            ));
        }
        for _ in 0..u64::from(k) * self.theta.len() as u64 {
            self.next_bit();
        }
        for (i, v) in theta.iter().enumerate() {
            self.theta[i] = v.clamp(self.min[i], self.max[i]);
        }
        self.k = k;
        Ok(())
    }
}

/// One iteration's line of a run's log: `k result θ…`, each value in full (the
/// shortest text that reads back as the same number, so a resume is exact).
pub fn log_line(k: u32, result: f64, theta: &[f64]) -> String {
    let values: Vec<String> = theta.iter().map(|v| format!("{v}")).collect();
    format!("{k} {result:+} {}\n", values.join(" "))
}

/// Where a run's log says the run stands.
#[derive(Clone, Debug, PartialEq)]
pub struct LogState {
    /// Iterations done: the last whole line's `k` (0 for a log with only its header).
    pub k: u32,
    /// The values after them (empty when `k` is 0).
    pub theta: Vec<f64>,
    /// The sum of their results (plus − minus, in games).
    pub total: f64,
    /// Bytes up to the end of the last whole line: what follows (a line cut when
    /// the run was killed) is to be dropped before the run appends again.
    pub whole_len: usize,
}

/// Read a run's log for `--resume`: it must begin with `header` (the lines that
/// name the run's settings and parameters, each ending in a newline), then hold
/// whole iteration lines `k result θ…` with `k` counting up from 1 and one value
/// per parameter. A last line without its newline is a cut write and is left out;
/// anything else malformed is an error rather than a guess.
pub fn read_log(text: &str, header: &str, params: usize) -> Result<LogState, String> {
    let Some(body) = text.strip_prefix(header) else {
        let first = text.lines().next().unwrap_or("");
        return Err(format!(
            "the log is of another run (its first line: '{first}'; this run's: '{}')",
            header.lines().next().unwrap_or("")
        ));
    };
    let mut state = LogState {
        k: 0,
        theta: Vec::new(),
        total: 0.0,
        whole_len: header.len(),
    };
    let mut rest = body;
    while let Some(end) = rest.find('\n') {
        let line = &rest[..end];
        let n = state.k + 1;
        let mut fields = line.split_whitespace();
        let k: u32 = fields
            .next()
            .and_then(|f| f.parse().ok())
            .ok_or_else(|| format!("log line {n}: '{line}' does not begin with an iteration"))?;
        if k != n {
            return Err(format!("log line {n}: iteration {k}, expected {n}"));
        }
        let number = |f: &str| f.parse::<f64>().ok().filter(|v| v.is_finite());
        let result = fields
            .next()
            .and_then(number)
            .ok_or_else(|| format!("log line {n}: no result"))?;
        let theta: Vec<f64> = fields
            .map(|f| number(f).ok_or_else(|| format!("log line {n}: '{f}' is not a value")))
            .collect::<Result<_, _>>()?;
        if theta.len() != params {
            return Err(format!(
                "log line {n}: {} values for {params} parameters",
                theta.len()
            ));
        }
        state.k = k;
        state.theta = theta;
        state.total += result;
        state.whole_len += end + 1;
        rest = &rest[end + 1..];
    }
    Ok(state)
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

    /// A toy run of 30 iterations, its log written as it goes; the result of an
    /// iteration a fixed function of its perturbation.
    fn toy_run(iterations: u32, log: &mut String) -> Vec<(Perturbation, Vec<f64>)> {
        let mut s = toy_spsa();
        let mut seen = Vec::new();
        for k in 1..=iterations {
            let p = s.perturb();
            let result = toy_result(&p);
            s.update(&p, result);
            log.push_str(&log_line(k, result, &s.theta));
            seen.push((p, s.theta.clone()));
        }
        seen
    }

    fn toy_spsa() -> Spsa {
        Spsa::new(
            vec![10.0, -3.0],
            vec![-50.0; 2],
            vec![50.0; 2],
            vec![2.0, 0.5],
            0.01,
            30,
            9,
        )
    }

    fn toy_result(p: &Perturbation) -> f64 {
        ((p.minus[0].abs() - p.plus[0].abs()) / 3.0)
            .round()
            .clamp(-2.0, 2.0)
    }

    const HEADER: &str = "# qili spsa test\n# k result a b\n";

    #[test]
    fn a_resumed_run_continues_as_the_uninterrupted_one() {
        let mut full_log = HEADER.to_string();
        let full = toy_run(30, &mut full_log);
        // Killed after 17 iterations, in the middle of writing the 18th line.
        let mut cut_log = HEADER.to_string();
        toy_run(17, &mut cut_log);
        let whole = cut_log.len();
        cut_log.push_str("18 +1 10.5");
        let state = read_log(&cut_log, HEADER, 2).unwrap();
        assert_eq!(state.k, 17);
        assert_eq!(state.whole_len, whole);
        assert_eq!(state.theta, full[16].1);
        let mut s = toy_spsa();
        s.fast_forward(state.k, &state.theta).unwrap();
        cut_log.truncate(state.whole_len);
        for (k, (p_full, theta_full)) in full.iter().enumerate().skip(17) {
            let p = s.perturb();
            assert_eq!(&p, p_full, "iteration {}", k + 1);
            let result = toy_result(&p);
            s.update(&p, result);
            assert_eq!(&s.theta, theta_full);
            cut_log.push_str(&log_line(k as u32 + 1, result, &s.theta));
        }
        assert_eq!(
            cut_log, full_log,
            "the resumed log is the uninterrupted one"
        );
        let end = read_log(&full_log, HEADER, 2).unwrap();
        let total: f64 = full.iter().map(|(p, _)| toy_result(p)).sum();
        assert_eq!((end.k, end.total), (30, total));
    }

    #[test]
    fn a_log_of_another_run_or_a_malformed_line_is_refused() {
        let mut log = HEADER.to_string();
        toy_run(3, &mut log);
        assert!(read_log(&log, "# qili spsa other\n# k result a b\n", 2).is_err());
        assert!(read_log(&log, HEADER, 3).is_err(), "value count");
        assert_eq!(read_log(HEADER, HEADER, 2).unwrap().k, 0);
        let skipped = log.replace("\n3 ", "\n4 ");
        assert!(read_log(&skipped, HEADER, 2).is_err(), "iterations skipped");
        let garbage = format!("{log}x +1 1 2\n");
        assert!(read_log(&garbage, HEADER, 2).is_err());
        let nan = format!("{log}4 +1 NaN 2\n");
        assert!(read_log(&nan, HEADER, 2).is_err());
        let mut s = toy_spsa();
        assert!(s.fast_forward(2, &[1.0]).is_err());
    }
}
