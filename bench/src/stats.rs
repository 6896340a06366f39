//! Match statistics: W/D/L, score, logistic Elo with a 95% interval, and the
//! sequential probability ratio test (SPRT) on the Elo difference.
//!
//! The SPRT uses the normal approximation of the generalized SPRT: for per-sample
//! scores with mean m and variance v over N samples, testing mean s0 against s1,
//! LLR = N (s1 − s0)(2m − s0 − s1) / (2v). Samples are game pairs (the two games of
//! an opening with colours reversed, scored 0, ¼, ½, ¾, 1: the pentanomial model)
//! when pairs are complete, which removes the opening's bias from the variance;
//! otherwise single games (trinomial).

/// Results from the first engine's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    /// Completed pairs by the first engine's pair score in half points: 0..=4.
    pub pairs: [u32; 5],
}

impl Tally {
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Add one game with the first engine scoring `half_points` (0, 1 or 2).
    pub fn add_game(&mut self, half_points: u32) {
        match half_points {
            2 => self.wins += 1,
            1 => self.draws += 1,
            _ => self.losses += 1,
        }
    }

    /// Add a completed pair worth `half_points` (0..=4) to the first engine.
    pub fn add_pair(&mut self, half_points: u32) {
        self.pairs[half_points.min(4) as usize] += 1;
    }

    /// Score fraction of the first engine.
    pub fn score(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            return 0.5;
        }
        (self.wins as f64 + 0.5 * self.draws as f64) / n as f64
    }

    /// (mean, per-sample variance, samples) of the scores of games.
    fn trinomial(&self) -> (f64, f64, f64) {
        let counts = [self.losses, self.draws, self.wins].map(|c| c as f64);
        moments(&[0.0, 0.5, 1.0], &counts, 0.0)
    }

    /// Elo difference and the half-width of its 95% interval (`None` if undefined).
    pub fn elo(&self) -> (f64, Option<f64>) {
        let (m, v, n) = self.trinomial();
        if n == 0.0 {
            return (0.0, None);
        }
        let e = elo_of_score(m);
        if v == 0.0 || n < 2.0 {
            return (e, None);
        }
        let d = 1.959964 * (v / n).sqrt();
        if m - d <= 0.0 || m + d >= 1.0 {
            return (e, None); // the interval reaches a 0% or 100% score: unbounded
        }
        let lo = elo_of_score((m - d).max(1e-6));
        let hi = elo_of_score((m + d).min(1.0 - 1e-6));
        (e, Some((hi - lo) / 2.0))
    }
}

/// Mean and variance of a discrete distribution with `prior` pseudo-samples added to
/// every outcome, and the real sample count.
fn moments(values: &[f64], counts: &[f64], prior: f64) -> (f64, f64, f64) {
    let n: f64 = counts.iter().sum();
    let total = n + prior * counts.len() as f64;
    if total == 0.0 {
        return (0.5, 0.0, 0.0);
    }
    let m = values
        .iter()
        .zip(counts)
        .map(|(v, c)| v * (c + prior))
        .sum::<f64>()
        / total;
    let v = values
        .iter()
        .zip(counts)
        .map(|(x, c)| (c + prior) * (x - m).powi(2))
        .sum::<f64>()
        / total;
    (m, v, n)
}

/// Logistic Elo of a score fraction (clamped away from 0 and 1).
pub fn elo_of_score(s: f64) -> f64 {
    let s = s.clamp(1e-6, 1.0 - 1e-6);
    -400.0 * (1.0 / s - 1.0).log10()
}

/// Expected score of an Elo difference.
pub fn score_of_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// An SPRT of H0: elo = elo0 against H1: elo = elo1.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

/// The state of the test.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtState {
    Continue,
    /// H1 accepted: the first engine is stronger by about elo1.
    AcceptH1,
    /// H0 accepted.
    AcceptH0,
}

impl Sprt {
    /// Parse `elo0,elo1[,alpha,beta]` (alpha and beta default to 0.05).
    pub fn parse(s: &str) -> Result<Sprt, String> {
        let v: Vec<f64> = s
            .split(',')
            .map(|x| x.trim().parse::<f64>())
            .collect::<Result<_, _>>()
            .map_err(|_| format!("bad --sprt '{s}': expected elo0,elo1[,alpha,beta]"))?;
        let (alpha, beta) = match v.len() {
            2 => (0.05, 0.05),
            4 => (v[2], v[3]),
            _ => return Err(format!("bad --sprt '{s}': expected elo0,elo1[,alpha,beta]")),
        };
        let ok = |p: f64| p > 0.0 && p < 0.5;
        if v[0] >= v[1] || !ok(alpha) || !ok(beta) || v.iter().any(|x| !x.is_finite()) {
            return Err(format!(
                "bad --sprt '{s}': need elo0 < elo1 and 0 < alpha, beta < 0.5"
            ));
        }
        Ok(Sprt {
            elo0: v[0],
            elo1: v[1],
            alpha,
            beta,
        })
    }

    /// (lower, upper) LLR bounds.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio so far (pentanomial when there are complete pairs).
    pub fn llr(&self, t: &Tally) -> f64 {
        // Half a pseudo-sample in every outcome keeps the first few results (all wins,
        // say: variance zero) from deciding the test; its weight fades as N grows.
        let (m, v, n) = if t.pairs.iter().sum::<u32>() > 0 {
            moments(
                &[0.0, 0.25, 0.5, 0.75, 1.0],
                &t.pairs.map(|c| c as f64),
                0.5,
            )
        } else {
            moments(
                &[0.0, 0.5, 1.0],
                &[t.losses, t.draws, t.wins].map(|c| c as f64),
                0.5,
            )
        };
        if n == 0.0 || v <= 0.0 {
            return 0.0;
        }
        let (s0, s1) = (score_of_elo(self.elo0), score_of_elo(self.elo1));
        n * (s1 - s0) * (2.0 * m - s0 - s1) / (2.0 * v)
    }

    pub fn state(&self, t: &Tally) -> SprtState {
        let llr = self.llr(t);
        let (lo, hi) = self.bounds();
        if llr >= hi {
            SprtState::AcceptH1
        } else if llr <= lo {
            SprtState::AcceptH0
        } else {
            SprtState::Continue
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_and_interval() {
        assert!((elo_of_score(0.5)).abs() < 1e-9);
        assert!((elo_of_score(score_of_elo(123.0)) - 123.0).abs() < 1e-6);
        let t = Tally {
            wins: 60,
            draws: 20,
            losses: 20,
            pairs: [0; 5],
        };
        let (e, err) = t.elo();
        // Score 0.7 → +147 Elo.
        assert!((e - 147.2).abs() < 0.5, "{e}");
        let err = err.unwrap();
        assert!(err > 50.0 && err < 90.0, "{err}");
        assert_eq!(Tally::default().elo(), (0.0, None));
    }

    #[test]
    fn sprt_bounds_and_decisions() {
        let s = Sprt::parse("0,10").unwrap();
        let (lo, hi) = s.bounds();
        assert!((lo + 2.944).abs() < 1e-3 && (hi - 2.944).abs() < 1e-3);
        assert!(Sprt::parse("10,0").is_err());
        assert!(Sprt::parse("0,5,0.6,0.1").is_err());
        assert!(Sprt::parse("x").is_err());
        assert_eq!(Sprt::parse("0,5,0.1,0.2").unwrap().alpha, 0.1);
        // A clearly stronger first engine: H1.
        let mut strong = Tally::default();
        for _ in 0..150 {
            strong.add_pair(3);
            strong.add_pair(4);
            strong.add_pair(2);
        }
        assert!(s.llr(&strong) > hi);
        assert_eq!(s.state(&strong), SprtState::AcceptH1);
        // Equal engines over many pairs: H0 (elo 0 vs 10).
        let mut equal = Tally::default();
        for _ in 0..2000 {
            equal.add_pair(1);
            equal.add_pair(3);
            equal.add_pair(2);
        }
        assert_eq!(s.state(&equal), SprtState::AcceptH0);
        // Trinomial fallback without pairs.
        let tri = Tally {
            wins: 10,
            draws: 10,
            losses: 10,
            pairs: [0; 5],
        };
        assert!(s.llr(&tri) < 0.0);
        assert_eq!(s.state(&Tally::default()), SprtState::Continue);
        // Against 0,50: one won pair decides nothing; a dozen do.
        let wide = Sprt::parse("0,50").unwrap();
        let mut one = Tally::default();
        one.add_pair(4);
        assert_eq!(wide.state(&one), SprtState::Continue, "{}", wide.llr(&one));
        for _ in 0..12 {
            one.add_pair(4);
        }
        assert_eq!(wide.state(&one), SprtState::AcceptH1, "{}", wide.llr(&one));
    }
}
