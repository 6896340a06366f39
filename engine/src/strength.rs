//! Playing below full strength: `Skill Level` (0–20) and `UCI_LimitStrength` with
//! `UCI_Elo`.
//!
//! A weaker level searches fewer nodes (a node limit that doubles about every 1.7
//! levels), so it sees less. Below level `NOISY_BELOW` its search also judges each
//! root move by its score plus a fixed random offset (`RootNoise`, the mechanism
//! of the Randomness option), so it sometimes plays a move up to most of a pawn (at
//! level 0) worse than the one it thinks best. The noise costs no search, where
//! searching several root moves with exact scores to choose among them would cost
//! plies at these node counts and make the strength fall off a cliff at the level
//! where it began.
//!
//! Level 20 is full strength: no node limit, no noise, the normal search.
//! `UCI_Elo` picks the level whose measured strength matches, by linear
//! interpolation in `CALIBRATION` (a chain of self-play matches at 3 s + 0.05 s,
//! recorded in the README). The Elo scale's anchor is a convention: full strength
//! is `MAX_ELO`.

use crate::limits::RootNoise;

/// The strongest `Skill Level`: full strength.
pub const MAX_LEVEL: u32 = 20;

/// Levels below this judge the root moves with noise (`root_noise`); from it up
/// only the node limit weakens them.
pub const NOISY_BELOW: u32 = 10;

/// Full strength on the `UCI_Elo` scale (a convention: no common rating list
/// exists for xiangqi engines; only the distances below it are measured).
pub const MAX_ELO: u32 = 3000;

/// Measured Elo below full strength of some levels, from the weakest up, with
/// the level as hundredths: a chain of self-play matches at 3 s + 0.05 s, 40 games
/// each, every level against the next one measured (README, *Figures*; the matches in
/// docs/LOG.md), summed
/// from full strength down. Each step's error is ±110 to ±250 Elo (95 %).
const CALIBRATION: [(u32, i32); 7] = [
    (0, -2137),
    (400, -2067),
    (800, -1555),
    (1000, -1119),
    (1200, -818),
    (1600, -382),
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

    /// How much worse than the best a move may be and still be played: 80 cp at
    /// level 0, 8 cp at 9, none from `NOISY_BELOW` up (the node limit does most of
    /// the weakening; noise adds variety and the occasional second-best move).
    pub fn noise_cp(&self) -> i32 {
        let below = f64::from(NOISY_BELOW) - self.level();
        if below <= 0.0 {
            return 0;
        }
        (8.0 * below).round() as i32
    }

    /// The root noise of this level for a search seeded by `seed` (a new seed each
    /// move): offsets in `±noise_cp()/2`, so moves within `noise_cp()` of the best
    /// can be played. `None` from `NOISY_BELOW` up.
    pub fn root_noise(&self, seed: u64) -> Option<RootNoise> {
        let range = self.noise_cp();
        (range > 0).then_some(RootNoise {
            amplitude: (range + 1) / 2,
            seed,
        })
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
            if l < NOISY_BELOW {
                assert!(s.noise_cp() < last_noise, "level {l}");
                assert!(
                    s.root_noise(1).is_some_and(|n| n.amplitude > 0),
                    "level {l}"
                );
            } else {
                assert_eq!((s.noise_cp(), s.root_noise(1)), (0, None), "level {l}");
            }
            (last_nodes, last_noise) = (n, s.noise_cp());
        }
        assert_eq!(full.root_noise(1), None);
        assert_eq!(Strength::from_level(0).node_limit(), Some(64));
        assert_eq!(Strength::from_level(10).node_limit(), Some(4096));
        assert_eq!(Strength::from_level(0).noise_cp(), 80);
        assert_eq!(Strength::from_level(9).noise_cp(), 8);
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
    fn the_noise_spans_the_level_s_range_and_follows_the_seed() {
        let weak = Strength::from_level(0);
        let n = weak.root_noise(7).unwrap();
        assert_eq!((n.amplitude, n.seed), (40, 7));
        // Offsets of different moves differ and stay within the amplitude, so two
        // moves' offsets differ by at most the level's 80 cp.
        let key = rules::Position::startpos().key();
        let offsets: Vec<i32> = rules::Position::startpos()
            .legal_moves()
            .iter()
            .map(|&m| n.offset(key, m))
            .collect();
        assert!(offsets.iter().all(|o| o.abs() <= 40));
        assert!(offsets.iter().any(|&o| o != offsets[0]));
        assert_eq!(Strength::from_level(9).root_noise(3).unwrap().amplitude, 4);
    }
}
