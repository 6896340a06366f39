//! Every search constant in one place (`SearchParams`), with the bounds and step
//! sizes the SPSA tuner (`qili spsa`) moves them within: one list (the
//! `search_params!` call) declares the struct, its defaults and the tuner's table. The protocol accepts
//! `setoption name SP <name> value <v>` for each (not advertised: a tuning
//! interface, not a user setting).

macro_rules! search_params {
    ($($(#[$doc:meta])* $field:ident = $default:expr, $min:expr, $max:expr, $step:expr;)*) => {
        /// The numbers the search prunes, reduces, extends and orders by.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub struct SearchParams {
            $($(#[$doc])* pub $field: i32,)*
        }

        /// The values the engine plays with.
        pub const DEFAULT: SearchParams = SearchParams { $($field: $default,)* };

        /// Every search parameter with its bounds and SPSA step.
        pub const TUNABLES: &[Tunable] = &[$(
            Tunable {
                name: stringify!($field),
                get: |p| p.$field,
                set: |p, v| p.$field = v,
                min: $min,
                max: $max,
                step: $step,
            },
        )*];
    };
}

// The one list: `name = default, min, max, SPSA step;`.
search_params! {
    /// Razoring: below `eval + razor_margin · depth < alpha` at depth ≤
    /// `razor_depth`, verify with quiescence.
    razor_margin = 250, 50, 600, 25.0;
    razor_depth = 3, 1, 8, 0.5;
    /// Reverse futility: `eval − rfp_margin · (depth − improving) ≥ beta` at depth
    /// ≤ `rfp_depth`.
    rfp_margin = 100, 30, 250, 10.0;
    rfp_depth = 7, 3, 12, 1.0;
    /// Null move from `nmp_depth` on, reduced by `nmp_base + depth / nmp_depth_div +
    /// min((eval − beta) / nmp_eval_div, nmp_eval_max)`.
    nmp_depth = 3, 1, 8, 0.5;
    nmp_base = 4, 1, 6, 0.5;
    nmp_depth_div = 3, 2, 8, 0.5;
    nmp_eval_div = 200, 50, 600, 25.0;
    nmp_eval_max = 2, 0, 6, 0.5;
    /// ... and only where the evaluation also beats beta by `nmp_gate −
    /// nmp_gate_depth · depth`: at low depth the pass's search is little more than
    /// quiescence, blind to quiet threats, so it must start with a margin.
    nmp_gate = 110, -200, 400, 20.0;
    nmp_gate_depth = 10, 0, 40, 2.0;
    /// Internal iterative reduction from this depth on.
    iir_depth = 6, 3, 12, 1.0;
    /// Captures losing more than `see_capture · depth` (SEE) are pruned at depth ≤
    /// `see_capture_depth`.
    see_capture = 120, 30, 300, 12.0;
    see_capture_depth = 6, 2, 12, 1.0;
    /// Quiets losing more than `see_quiet · lmr_depth²` are pruned at `lmr_depth` ≤
    /// `see_quiet_depth`.
    see_quiet = 30, 5, 100, 4.0;
    see_quiet_depth = 6, 2, 12, 1.0;
    /// Futility: a quiet move with `eval + futility_base + futility_depth ·
    /// lmr_depth ≤ alpha` at `lmr_depth` ≤ `futility_max_depth` is pruned.
    futility_base = 120, 20, 400, 15.0;
    futility_depth = 110, 20, 300, 12.0;
    futility_max_depth = 7, 2, 14, 1.0;
    /// Late-move pruning: `(lmp_base + depth²) / (2 − improving)` quiets, at depth ≤
    /// `lmp_depth`.
    lmp_base = 3, 1, 10, 0.5;
    lmp_depth = 8, 2, 14, 1.0;
    /// Late-move reductions: `lmr_base / 100 + ln(depth) · ln(moves) · 100 /
    /// lmr_div` (hundredths).
    lmr_base = 40, -50, 150, 10.0;
    lmr_div = 220, 120, 400, 15.0;
    /// Late-move reductions from this depth on (at the root too).
    lmr_min_depth = 3, 2, 6, 0.5;
    /// Plies of reduction more at a node expected to fail high (a cut node).
    lmr_cut = 1, 0, 4, 0.5;
    /// History (quiet + continuation) per ply of reduction.
    lmr_history_div = 8000, 2000, 20000, 800.0;
    /// Capture history per ply of reduction of a capture.
    lmr_capture_history_div = 8000, 2000, 20000, 800.0;
    /// Quiescence delta pruning margin beyond the victim's value.
    qs_delta = 200, 50, 500, 20.0;
    /// Aspiration windows from `aspiration_depth` on: the first half-window is
    /// `aspiration_delta + |score| / aspiration_score_div`; it grows by half each
    /// failure, and past `aspiration_max` the window opens fully.
    aspiration_delta = 20, 5, 60, 3.0;
    aspiration_depth = 4, 2, 10, 1.0;
    aspiration_score_div = 20, 5, 100, 4.0;
    aspiration_max = 800, 200, 3000, 100.0;
    /// Singular extension: from this depth (99: never), with a hash entry at most
    /// `se_tt_depth` plies shallower.
    se_depth = 8, 4, 99, 1.0;
    se_tt_depth = 3, 1, 6, 0.5;
    /// Singular margin: the other moves must fail below `hash score −
    /// se_margin · depth / 100`.
    se_margin = 100, 50, 600, 25.0;
    /// Double extension when the singular search fails this far below.
    se_double = 20, 0, 100, 5.0;
    /// Plies the hash move loses when it is not singular but its hash score
    /// beats beta (another move likely cuts too).
    se_negative = 1, 0, 3, 0.5;
    /// 困毙 guard: where the opponent has at most this many legal moves (were we
    /// to pass), one quiet move of ours may leave it none, which wins; razoring,
    /// late-move pruning and SEE pruning of quiets are then off at the node, and
    /// futility never prunes a move after which the opponent has no move (0: no
    /// guard, for tests).
    cramped_moves = 3, 3, 20, 1.0;
    /// History bonus of the move that cut at `depth`: `min(hist_bonus_quad · depth²
    /// + hist_bonus_lin · depth, hist_bonus_max)`.
    hist_bonus_quad = 16, 0, 64, 2.0;
    hist_bonus_lin = 32, 0, 256, 8.0;
    hist_bonus_max = 2000, 200, 8000, 100.0;
    /// History malus of the moves tried before it, the same form.
    hist_malus_quad = 16, 0, 64, 2.0;
    hist_malus_lin = 32, 0, 256, 8.0;
    hist_malus_max = 2000, 200, 8000, 100.0;
    /// Capture ordering: `victim · capture_victim_mul − attacker /
    /// capture_attacker_div + capture history · capture_hist_weight / 1024` (piece
    /// values as in SEE).
    capture_victim_mul = 8, 1, 32, 1.0;
    capture_attacker_div = 8, 1, 64, 1.0;
    capture_hist_weight = 64, 0, 512, 8.0;
    /// Time manager (`timeman.rs`): the hard limit is at most `tm_hard_ratio`
    /// times the soft limit (room for an unstable iteration to finish, never the
    /// whole clock).
    tm_hard_ratio = 4, 2, 8, 0.5;
    /// Moves planned for in sudden death: `tm_max_horizon` at the start, one
    /// fewer every three moves, never below `tm_min_horizon` (engine games often
    /// pass move 100, so a reserve is always left; a horizon that spends more
    /// early runs out of clock under operator lag: `qili timeplan --tc 1800+0
    /// --lag 2000-8000 --moves 150 --sp tm_max_horizon=35 --sp tm_min_horizon=20`).
    tm_max_horizon = 50, 20, 90, 3.0;
    tm_min_horizon = 30, 10, 60, 3.0;
    /// Soft limit scaling after an iteration (hundredths): `(tm_stable +
    /// tm_instability · changes) · (1 + drop / tm_drop_div)`, with `changes` the
    /// decaying count of best-move changes and `drop` the score's fall in cp.
    tm_stable = 60, 30, 100, 5.0;
    tm_instability = 45, 10, 120, 5.0;
    tm_drop_div = 200, 50, 600, 20.0;
}

impl Default for SearchParams {
    fn default() -> Self {
        DEFAULT
    }
}

/// One tunable number: its name, where it lives, its bounds and the SPSA step.
pub struct Tunable {
    pub name: &'static str,
    pub get: fn(&SearchParams) -> i32,
    pub set: fn(&mut SearchParams, i32),
    pub min: i32,
    pub max: i32,
    /// The SPSA perturbation at the end of a run (`c_end`).
    pub step: f64,
}

impl SearchParams {
    /// History bonus of a move that caused a cut at `depth`.
    #[inline(always)]
    pub fn history_bonus(&self, depth: i32) -> i32 {
        (self.hist_bonus_quad * depth * depth + self.hist_bonus_lin * depth)
            .min(self.hist_bonus_max)
    }

    /// History malus of a move tried before the one that cut at `depth`.
    #[inline(always)]
    pub fn history_malus(&self, depth: i32) -> i32 {
        (self.hist_malus_quad * depth * depth + self.hist_malus_lin * depth)
            .min(self.hist_malus_max)
    }

    /// Set a parameter by name (case and `_` ignored); the value is clamped to
    /// its bounds. `Err` names the unknown parameter.
    pub fn set(&mut self, name: &str, value: i32) -> Result<i32, String> {
        let t = find(name).ok_or_else(|| format!("no search parameter '{name}'"))?;
        let v = value.clamp(t.min, t.max);
        (t.set)(self, v);
        Ok(v)
    }

    pub fn get(&self, name: &str) -> Option<i32> {
        find(name).map(|t| (t.get)(self))
    }
}

fn normalise(s: &str) -> String {
    s.chars()
        .filter(|c| !matches!(c, '_' | ' ' | '-'))
        .flat_map(|c| c.to_lowercase())
        .collect()
}

pub fn find(name: &str) -> Option<&'static Tunable> {
    let n = normalise(name);
    TUNABLES.iter().find(|t| normalise(t.name) == n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_parameter_is_reachable_by_name_and_within_its_bounds() {
        let mut p = DEFAULT;
        for t in TUNABLES {
            let v = (t.get)(&DEFAULT);
            assert!(t.min <= v && v <= t.max, "{} default {v}", t.name);
            assert!(
                t.step > 0.0 && t.step < f64::from(t.max - t.min),
                "{}",
                t.name
            );
            assert_eq!(p.set(t.name, t.max + 1000), Ok(t.max));
            assert_eq!(p.get(&t.name.to_uppercase()), Some(t.max));
            assert_eq!(p.set(t.name, t.min - 1000), Ok(t.min));
        }
        assert!(p.set("no_such_thing", 3).is_err());
        // Names are unique.
        let mut names: Vec<String> = TUNABLES.iter().map(|t| normalise(t.name)).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), TUNABLES.len());
    }

    /// Every field is in the tuner's table: set each by name to a value of its
    /// own, and every one reads back its value, through the table and the struct.
    #[test]
    fn every_field_round_trips_through_the_table() {
        let mut p = DEFAULT;
        let value = |i: usize, t: &Tunable| t.min + (i as i32) % (t.max - t.min + 1);
        for (i, t) in TUNABLES.iter().enumerate() {
            assert_eq!(p.set(t.name, value(i, t)), Ok(value(i, t)));
        }
        for (i, t) in TUNABLES.iter().enumerate() {
            assert_eq!(p.get(t.name), Some(value(i, t)), "{}", t.name);
        }
        // The table covers the struct: a struct changed field by field through the
        // table from DEFAULT equals one built with the same values.
        let mut q = DEFAULT;
        for t in TUNABLES {
            (t.set)(&mut q, (t.get)(&p));
        }
        assert_eq!(p, q);
        assert_eq!(
            std::mem::size_of::<SearchParams>(),
            TUNABLES.len() * std::mem::size_of::<i32>(),
            "every field is a tunable"
        );
    }
}
