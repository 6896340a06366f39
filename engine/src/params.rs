//! Every search constant in one place (`SearchParams`), with the bounds and step
//! sizes the SPSA tuner (`qili spsa`) moves them within. The protocol accepts
//! `setoption name SP <name> value <v>` for each (not advertised: a tuning
//! interface, not a user setting).

/// The numbers the search prunes, reduces and extends by.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SearchParams {
    /// Razoring: below `eval + razor_margin · depth < alpha` at depth ≤ 3, verify
    /// with quiescence.
    pub razor_margin: i32,
    /// Reverse futility: `eval − rfp_margin · (depth − improving) ≥ beta` at depth
    /// ≤ `rfp_depth`.
    pub rfp_margin: i32,
    pub rfp_depth: i32,
    /// Null-move reduction: `nmp_base + depth / nmp_depth_div + min((eval − beta) /
    /// nmp_eval_div, 2)`.
    pub nmp_base: i32,
    pub nmp_depth_div: i32,
    pub nmp_eval_div: i32,
    /// Internal iterative reduction from this depth on.
    pub iir_depth: i32,
    /// Captures losing more than `see_capture · depth` (SEE) are pruned at depth ≤ 6.
    pub see_capture: i32,
    /// Quiets losing more than `see_quiet · lmr_depth²` are pruned.
    pub see_quiet: i32,
    /// Futility: a quiet move with `eval + futility_base + futility_depth ·
    /// lmr_depth ≤ alpha` is pruned.
    pub futility_base: i32,
    pub futility_depth: i32,
    /// Late-move pruning: `(lmp_base + depth²) / (2 − improving)` quiets.
    pub lmp_base: i32,
    /// Late-move reductions: `lmr_base / 100 + ln(depth) · ln(moves) · 100 /
    /// lmr_div` (hundredths).
    pub lmr_base: i32,
    pub lmr_div: i32,
    /// History (quiet + continuation) per ply of reduction.
    pub lmr_history_div: i32,
    /// Quiescence delta pruning margin beyond the victim's value.
    pub qs_delta: i32,
    /// First aspiration half-window (plus |score| / 20).
    pub aspiration_delta: i32,
    /// Singular extension: from this depth, with a hash entry this deep (99:
    /// never).
    pub se_depth: i32,
    /// Singular margin: the other moves must fail below `hash score −
    /// se_margin · depth / 100`.
    pub se_margin: i32,
    /// Double extension when the singular search fails this far below.
    pub se_double: i32,
    /// Correction history: weight of the pawn-structure and material corrections
    /// in the corrected evaluation (per 256).
    pub corr_pawn_weight: i32,
    pub corr_material_weight: i32,
    /// ProbCut: a capture search with `beta + probcut_margin` from this depth
    /// (99: never; depth 5 with margin 200 measured −31 ± 26 Elo, docs/ARCHITECTURE.md).
    pub probcut_margin: i32,
    pub probcut_depth: i32,
    /// 困毙 guard: where the opponent has at most this many legal moves (were we
    /// to pass), one quiet move of ours may leave it none, which wins; razoring,
    /// late-move pruning and SEE pruning of quiets are then off at the node, and
    /// futility never prunes a move after which the opponent has no move (0: no
    /// guard, for tests).
    pub cramped_moves: i32,
    /// Move ordering: added to the history score of a quiet move that gives a
    /// direct check (the history scores of a quiet move span about ±49 000; 0:
    /// off). 16 000 won at fixed nodes but not yet at a clock, where its 5 % nps
    /// cost counts (docs/ARCHITECTURE.md), so it is off until a timed match says.
    pub check_bonus: i32,
    /// The static evaluation is scaled by `(shuffle_damp − p) / shuffle_damp`, `p`
    /// the plies since the last capture (capped at `shuffle_damp`; 0: off): the
    /// natural move limit draws at 120 such plies. 240 scored +6.1 ± 25.4 in 456
    /// games at 50 000 nodes and did not make fewer move-limit draws, so it is off
    /// (docs/ARCHITECTURE.md).
    pub shuffle_damp: i32,
    /// History pruning: at `lmr_depth ≤ 3` a quiet move whose history (quiet +
    /// continuation, spanning about ±49 000) lies below `−hist_prune · depth` is
    /// pruned (0: off).
    pub hist_prune: i32,
    /// Late-move reduction: one ply more for quiet moves where the hash move is
    /// a capture (0: off).
    pub tt_capture_r: i32,
    /// After a reduced search beat alpha, the full-depth one goes a ply deeper
    /// when its score beat the best so far by more than `lmr_deeper + new
    /// depth`, and a ply shallower when it beat it by less than a quarter of
    /// `lmr_deeper` (0: off).
    pub lmr_deeper: i32,
    /// Late-move reduction: this many plies more once more than three of the
    /// node's children so far failed high at their own level (the node is
    /// likely one where every move fails low; 0: off). 1 scored +1.5 ± 24.1 in
    /// 456 games at 50 000 nodes a move (docs/ARCHITECTURE.md), so it is off.
    pub cutoff_r: i32,
}

pub const DEFAULT: SearchParams = SearchParams {
    razor_margin: 250,
    rfp_margin: 100,
    rfp_depth: 7,
    nmp_base: 3,
    nmp_depth_div: 4,
    nmp_eval_div: 200,
    iir_depth: 6,
    see_capture: 120,
    see_quiet: 30,
    futility_base: 120,
    futility_depth: 110,
    lmp_base: 3,
    lmr_base: 40,
    lmr_div: 220,
    lmr_history_div: 8000,
    qs_delta: 200,
    aspiration_delta: 20,
    se_depth: 8,
    se_margin: 100,
    se_double: 20,
    corr_pawn_weight: 0,
    corr_material_weight: 0,
    probcut_margin: 200,
    probcut_depth: 99,
    cramped_moves: 3,
    check_bonus: 0,
    shuffle_damp: 0,
    hist_prune: 0,
    tt_capture_r: 0,
    lmr_deeper: 0,
    cutoff_r: 0,
};

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

macro_rules! tunables {
    ($($field:ident: $min:expr, $max:expr, $step:expr;)*) => {
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

tunables! {
    razor_margin: 50, 600, 25.0;
    rfp_margin: 30, 250, 10.0;
    rfp_depth: 3, 12, 1.0;
    nmp_base: 1, 6, 0.5;
    nmp_depth_div: 2, 8, 0.5;
    nmp_eval_div: 50, 600, 25.0;
    iir_depth: 3, 12, 1.0;
    see_capture: 30, 300, 12.0;
    see_quiet: 5, 100, 4.0;
    futility_base: 20, 400, 15.0;
    futility_depth: 20, 300, 12.0;
    lmp_base: 1, 10, 0.5;
    lmr_base: -50, 150, 10.0;
    lmr_div: 120, 400, 15.0;
    lmr_history_div: 2000, 20000, 800.0;
    qs_delta: 50, 500, 20.0;
    aspiration_delta: 5, 60, 3.0;
    se_depth: 4, 99, 1.0;
    se_margin: 50, 600, 25.0;
    se_double: 0, 100, 5.0;
    corr_pawn_weight: 0, 512, 20.0;
    corr_material_weight: 0, 512, 20.0;
    probcut_margin: 50, 500, 20.0;
    probcut_depth: 3, 99, 1.0;
    cramped_moves: 3, 20, 1.0;
    check_bonus: 0, 60000, 2000.0;
    shuffle_damp: 0, 1000, 20.0;
    hist_prune: 0, 20000, 400.0;
    tt_capture_r: 0, 2, 0.5;
    lmr_deeper: 0, 200, 5.0;
    cutoff_r: 0, 2, 0.5;
}

impl SearchParams {
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
}
