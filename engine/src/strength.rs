//! Playing below full strength: `Skill Level` (0–20) and `UCI_LimitStrength` with
//! `UCI_Elo`.
//!
//! A weaker level does two things, both scaled smoothly by the level:
//! - it searches fewer nodes (a node limit that doubles about every 1.7 levels),
//!   so it sees less;
//! - it chooses among its best few root moves with noise on their scores, so it
//!   sometimes plays a move a few hundredths of a pawn (at level 0, up to most of a
//!   pawn) worse than the one it thinks best.
//!
//! Level 20 is full strength: no node limit, no noise, the normal search.
//! `UCI_Elo` picks the level whose measured strength matches, by linear
//! interpolation in `CALIBRATION` (self-play matches against the full engine at
//! 3 s + 0.05 s, recorded in docs/ARCHITECTURE.md). The Elo scale's anchor is a
//! convention: full strength is `MAX_ELO`.

use rules::Move;

/// The strongest `Skill Level`: full strength.
pub const MAX_LEVEL: u32 = 20;

/// Full strength on the `UCI_Elo` scale (a convention: no common rating list
/// exists for xiangqi engines; only the distances below it are measured).
pub const MAX_ELO: u32 = 3000;

/// Measured Elo below full strength of some levels, from the weakest up, with
/// the level as hundredths. Self-play at 3 s + 0.05 s (`qili match`, docs).
const CALIBRATION: [(u32, i32); 6] = [
    (0, -1336),
    (500, -1045),
    (1000, -738),
    (1400, -486),
    (1700, -290),
    (2000, 0),
];

/// The weakest `UCI_Elo`: what level 0 measured.
pub const MIN_ELO: u32 = (MAX_ELO as i32 + CALIBRATION[0].1) as u32;

/// How strongly the engine plays, in hundredths of a level (0..=2000).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Strength {
    centilevel: u32,
}

impl Default for Strength {
    fn default() -> Self {
        Strength::FULL
    }
}

impl Strength {
    pub const FULL: Strength = Strength {
        centilevel: MAX_LEVEL * 100,
    };

    /// `Skill Level` (values above 20 mean 20).
    pub fn from_level(level: u32) -> Strength {
        Strength {
            centilevel: level.min(MAX_LEVEL) * 100,
        }
    }

    /// `UCI_Elo`, clamped to `MIN_ELO..=MAX_ELO`: the level that measured it.
    pub fn from_elo(elo: u32) -> Strength {
        let drop = elo.clamp(MIN_ELO, MAX_ELO) as i32 - MAX_ELO as i32;
        for w in CALIBRATION.windows(2) {
            let ((l0, e0), (l1, e1)) = (w[0], w[1]);
            if drop <= e1 {
                let t = f64::from(drop - e0) / f64::from(e1 - e0);
                let c = f64::from(l0) + t * f64::from(l1 - l0);
                return Strength {
                    centilevel: c.round() as u32,
                };
            }
        }
        Strength::FULL
    }

    /// The level, 0.0..=20.0.
    pub fn level(&self) -> f64 {
        f64::from(self.centilevel) / 100.0
    }

    pub fn is_full(&self) -> bool {
        self.centilevel >= MAX_LEVEL * 100
    }

    /// Nodes a search may use: 64 at level 0, doubling every 1/0.6 levels
    /// (4 096 at level 10, about 170 000 at 19); none at full strength.
    pub fn node_limit(&self) -> Option<u64> {
        if self.is_full() {
            return None;
        }
        Some((64.0 * (self.level() * 0.6).exp2()).round() as u64)
    }

    /// Root moves searched with exact scores to choose among.
    pub fn candidates(&self) -> usize {
        if self.is_full() {
            1
        } else {
            4
        }
    }

    /// The most noise added to a candidate's score: 80 cp at level 0, 4 cp at 19
    /// (the node limit does most of the weakening; noise adds variety and the
    /// occasional second-best move).
    pub fn noise_cp(&self) -> i32 {
        if self.is_full() {
            return 0;
        }
        (4.0 * (f64::from(MAX_LEVEL) - self.level())).round() as i32
    }

    /// The move to play among `lines` (root moves with their scores, best first,
    /// at least one): the best score after adding to each a uniform noise in
    /// `0..=noise_cp()`. `seed` drives the noise (a new one per move).
    pub fn choose(&self, lines: &[(Move, i32)], seed: u64) -> Move {
        let noise = self.noise_cp();
        if noise == 0 || lines.len() < 2 {
            return lines[0].0;
        }
        let mut rng = SplitMix(seed);
        let mut best = (lines[0].0, i64::MIN);
        for &(m, score) in lines {
            let v = i64::from(score) + (rng.next() % (noise as u64 + 1)) as i64;
            if v > best.1 {
                best = (m, v);
            }
        }
        best.0
    }
}

/// A small, well-mixed generator for the noise (SplitMix64).
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_weaken_smoothly_and_full_strength_is_untouched() {
        let full = Strength::from_level(20);
        assert!(full.is_full() && full.node_limit().is_none() && full.noise_cp() == 0);
        assert_eq!(Strength::from_level(99), full);
        let mut last_nodes = 0;
        let mut last_noise = i32::MAX;
        for l in 0..20 {
            let s = Strength::from_level(l);
            let n = s.node_limit().unwrap();
            assert!(n > last_nodes, "level {l}");
            assert!(s.noise_cp() < last_noise, "level {l}");
            (last_nodes, last_noise) = (n, s.noise_cp());
        }
        assert_eq!(Strength::from_level(0).node_limit(), Some(64));
        assert_eq!(Strength::from_level(10).node_limit(), Some(4096));
        assert_eq!(Strength::from_level(0).noise_cp(), 80);
    }

    #[test]
    fn elo_maps_onto_the_calibrated_levels() {
        assert_eq!(Strength::from_elo(MAX_ELO), Strength::FULL);
        assert_eq!(Strength::from_elo(u32::MAX), Strength::FULL);
        assert_eq!(Strength::from_elo(MIN_ELO), Strength::from_level(0));
        assert_eq!(Strength::from_elo(0), Strength::from_level(0));
        for &(centi, drop) in &CALIBRATION {
            let s = Strength::from_elo((MAX_ELO as i32 + drop) as u32);
            assert_eq!(s.centilevel, centi);
        }
        // Monotone: more Elo, a higher level.
        let mut last = 0;
        for elo in (MIN_ELO..=MAX_ELO).step_by(25) {
            let c = Strength::from_elo(elo).centilevel;
            assert!(c >= last, "{elo}");
            last = c;
        }
        // The table runs from the weakest level to full strength, Elo rising.
        assert!(CALIBRATION
            .windows(2)
            .all(|w| w[0].0 < w[1].0 && w[0].1 < w[1].1));
        assert_eq!(CALIBRATION[CALIBRATION.len() - 1], (2000, 0));
    }

    #[test]
    fn the_choice_is_noisy_below_full_strength_only() {
        let m = |s: &str| Move::parse_iccs(s).unwrap();
        let lines = [
            (m("h2e2"), 40),
            (m("b2e2"), 35),
            (m("h0g2"), 20),
            (m("c3c4"), -300),
        ];
        let weak = Strength::from_level(0);
        let full = Strength::FULL;
        let mut picked = std::collections::HashMap::new();
        for seed in 0..2000 {
            assert_eq!(full.choose(&lines, seed), m("h2e2"));
            *picked.entry(weak.choose(&lines, seed)).or_insert(0) += 1;
        }
        // Level 0 plays the second and third moves often, never the one 340 cp
        // worse (beyond its 80 cp of noise).
        assert!(picked[&m("h2e2")] > 500, "{picked:?}");
        assert!(
            picked[&m("b2e2")] > 300 && picked[&m("h0g2")] > 100,
            "{picked:?}"
        );
        assert!(!picked.contains_key(&m("c3c4")));
        // The same seed gives the same choice.
        assert_eq!(weak.choose(&lines, 7), weak.choose(&lines, 7));
    }
}
