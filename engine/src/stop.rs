//! When the main thread stops deepening. After each completed iteration it asks
//! `StopRules::go_on`: a proven mate needs no deeper search, `go mate N` ends when
//! a mate that short is found, and a timed search stops once the iteration has
//! used the soft budget, scaled by how unstable the best move has been and how
//! far the score fell. The hard limit (stop at once) is polled inside the search.
//!
//! Pondering: the soft budget is compared with the whole thinking time, pondering
//! included, so the time already spent counts. A ponder search that has used its
//! budget keeps searching (the opponent may take long) but stops at once on
//! `ponderhit` (`Verdict::StopAtPonderhit`).

use crate::params::SearchParams;
use crate::score::{self, MATE};
use crate::timeman::TimeBudget;
use rules::Move;

pub(crate) struct StopRules {
    budget: Option<TimeBudget>,
    /// The soft limit's scaling (`tm_*`).
    params: SearchParams,
    /// Only one legal move: answer after the first iteration.
    single_reply: bool,
    /// `go mate N`: stop at a mate in at most N moves for the side to move.
    mate_goal: Option<u32>,
    /// `go infinite`: only `stop` ends the search.
    infinite: bool,
    /// Decaying count of best-move changes.
    instability: f64,
    last_best: Move,
    last_score: i32,
}

/// What the main thread does after an iteration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Verdict {
    GoOn,
    Stop,
    /// Pondering, with the budget used: go on, but stop the moment `ponderhit`
    /// comes.
    StopAtPonderhit,
}

impl StopRules {
    pub fn new(
        budget: Option<TimeBudget>,
        params: SearchParams,
        single_reply: bool,
        mate_goal: Option<u32>,
        infinite: bool,
    ) -> StopRules {
        StopRules {
            budget,
            params,
            single_reply,
            mate_goal,
            infinite,
            instability: 0.0,
            last_best: Move::NULL,
            last_score: 0,
        }
    }

    /// After an iteration to `depth` with this best move and score: search on?
    /// `thinking_ms` is the time since `go`, pondering included (`None` when no
    /// time limit applies: `go infinite`); `pondering` whether the opponent is
    /// still to move.
    pub fn go_on(
        &mut self,
        best: Move,
        score: i32,
        depth: i32,
        thinking_ms: Option<u64>,
        pondering: bool,
    ) -> Verdict {
        self.instability *= 0.5;
        if best != self.last_best && !self.last_best.is_null() {
            self.instability += 1.0;
        }
        let drop = self.last_score - score;
        self.last_best = best;
        self.last_score = score;
        if let Some(n) = self.mate_goal {
            // Mate in n moves is 2n - 1 plies.
            let plies = 2 * i64::from(n) - 1;
            if i64::from(score) >= i64::from(MATE) - plies {
                return Verdict::Stop;
            }
        }
        // A mate found with room to spare (the iteration went deeper than the mate
        // is long) is proven: more depth cannot change it.
        if score::is_mate(score) && depth > 2 * (MATE - score.abs()) + 2 && !self.infinite {
            return Verdict::Stop;
        }
        if let (Some(b), Some(thinking)) = (self.budget, thinking_ms) {
            let soft = if self.single_reply {
                0
            } else {
                b.soft_scaled(self.instability, drop, &self.params)
            };
            if thinking >= soft {
                return if pondering {
                    Verdict::StopAtPonderhit
                } else {
                    Verdict::Stop
                };
            }
        }
        Verdict::GoOn
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::DEFAULT;
    use crate::score::{mate_in, mated_in};
    use Verdict::*;

    fn m(s: &str) -> Move {
        Move::parse_iccs(s).unwrap()
    }

    #[test]
    fn a_mate_goal_stops_at_a_mate_that_short_only() {
        let mut r = StopRules::new(None, DEFAULT, false, Some(2), false);
        assert_eq!(r.go_on(m("h2e2"), 30, 1, None, false), GoOn);
        assert_eq!(
            r.go_on(m("h2e2"), mate_in(5), 2, None, false),
            GoOn,
            "mate in 3"
        );
        assert_eq!(
            r.go_on(m("h2e2"), mate_in(3), 3, None, false),
            Stop,
            "mate in 2"
        );
        let mut r = StopRules::new(None, DEFAULT, false, Some(1), false);
        assert_eq!(
            r.go_on(m("h2e2"), mated_in(2), 2, None, false),
            GoOn,
            "being mated"
        );
        assert_eq!(r.go_on(m("h2e2"), mate_in(1), 2, None, false), Stop);
    }

    #[test]
    fn proven_mates_stop_unless_infinite() {
        let mut r = StopRules::new(None, DEFAULT, false, None, false);
        assert_eq!(
            r.go_on(m("h2e2"), mate_in(3), 4, None, false),
            GoOn,
            "not proven"
        );
        assert_eq!(r.go_on(m("h2e2"), mate_in(3), 9, None, false), Stop);
        let mut r = StopRules::new(None, DEFAULT, false, None, true);
        assert_eq!(r.go_on(m("h2e2"), mate_in(3), 9, None, false), GoOn);
    }

    #[test]
    fn the_soft_budget_grows_with_instability() {
        let b = TimeBudget {
            soft_ms: 100,
            hard_ms: 1000,
        };
        // Stable: stop at about 60 % of the soft budget.
        let mut r = StopRules::new(Some(b), DEFAULT, false, None, false);
        assert_eq!(r.go_on(m("h2e2"), 20, 1, Some(10), false), GoOn);
        assert_eq!(r.go_on(m("h2e2"), 20, 2, Some(70), false), Stop);
        // The best move changing every iteration buys more time.
        let mut r = StopRules::new(Some(b), DEFAULT, false, None, false);
        assert_eq!(r.go_on(m("h2e2"), 20, 1, Some(10), false), GoOn);
        assert_eq!(r.go_on(m("b2e2"), 20, 2, Some(70), false), GoOn);
        assert_eq!(r.go_on(m("h2e2"), 20, 3, Some(90), false), GoOn);
        // One legal move: answer at once; no time limit (infinite): go on.
        let mut r = StopRules::new(Some(b), DEFAULT, true, None, false);
        assert_eq!(r.go_on(m("h2e2"), 20, 1, Some(0), false), Stop);
        let mut r = StopRules::new(Some(b), DEFAULT, false, None, false);
        assert_eq!(r.go_on(m("h2e2"), 20, 1, None, false), GoOn);
    }

    /// The thinking done while pondering counts: a ponder search that has used
    /// its budget goes on while the opponent thinks, and stops at ponderhit.
    #[test]
    fn a_ponder_search_that_used_its_budget_stops_at_ponderhit() {
        let b = TimeBudget {
            soft_ms: 100,
            hard_ms: 1000,
        };
        let mut r = StopRules::new(Some(b), DEFAULT, false, None, false);
        assert_eq!(r.go_on(m("h2e2"), 20, 1, Some(10), true), GoOn);
        assert_eq!(r.go_on(m("h2e2"), 20, 2, Some(500), true), StopAtPonderhit);
        assert_eq!(r.go_on(m("h2e2"), 20, 3, Some(600), false), Stop);
    }
}
