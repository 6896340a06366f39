//! The traces reproduce the evaluation exactly, a small tuning run lowers the loss
//! and recovers planted values, and the parameter file round-trips.

use super::*;
use crate::eval::hce_values::HCE_PARAMS;
use crate::eval::params::ParamsError;
use crate::eval::{evaluate_with, Evaluator, Hce};

/// Positions from seeded random play (every ply kept, games restarted when over).
fn random_positions(n: usize, seed: u64) -> Vec<Position> {
    let mut rng = Rng::from_state(seed);
    let mut out = Vec::with_capacity(n);
    let mut pos = Position::startpos();
    let mut plies = 0;
    while out.len() < n {
        let moves = pos.legal_moves();
        if moves.is_empty() || plies >= 120 {
            pos = Position::startpos();
            plies = 0;
            continue;
        }
        let m = moves.as_slice()[(rng.next_u64() % moves.len() as u64) as usize];
        pos.make_move(m);
        plies += 1;
        out.push(pos.clone());
    }
    // Bare endings random play rarely reaches: a side ahead with nothing to attack.
    for fen in [
        "3ak4/9/9/9/9/9/9/4B4/4A4/2BAK4 w - - 0 1",
        "4k4/9/9/9/9/9/4P4/9/9/4K4 b - - 0 1",
        "4k4/9/9/4p4/9/9/9/9/9/3K5 b - - 0 1",
        "3k5/9/9/9/9/2p1p4/9/9/9/5K3 w - - 0 1",
    ] {
        out.push(Position::from_fen(fen).unwrap());
    }
    out
}

/// The defaults with every tuned entry moved by a random amount in -40..=40.
fn perturbed(seed: u64) -> HceParams {
    let mut rng = Rng::from_state(seed);
    let mask = tuned_mask();
    let flat: Vec<i32> = HCE_PARAMS
        .to_flat()
        .iter()
        .zip(&mask)
        .map(|(&v, &t)| {
            if t {
                v + (rng.next_u64() % 81) as i32 - 40
            } else {
                v
            }
        })
        .collect();
    HceParams::from_flat(&flat).unwrap()
}

fn trace_all(
    p: &HceParams,
    positions: &[Position],
    mut labels: impl FnMut(&Position) -> (f32, f32),
) -> TraceSet {
    let mut set = TraceSet::new_like(p);
    for pos in positions {
        let (r, s) = labels(pos);
        set.push(p, pos, r, s);
    }
    set
}

#[test]
fn traces_reproduce_the_engine_evaluation() {
    let positions = random_positions(3000, 11);
    let set = trace_all(&HCE_PARAMS, &positions, |_| (0.5, 0.0));
    let flat = HCE_PARAMS.to_flat();
    let mut hce = Hce::new();
    let mut scaled = 0;
    for (i, pos) in positions.iter().enumerate() {
        hce.reset(pos);
        let engine = hce.evaluate(pos);
        assert_eq!(evaluate_with(&HCE_PARAMS, pos), engine, "{}", pos.to_fen());
        assert_eq!(set.eval_int(&flat, i), engine, "{}", pos.to_fen());
        if !has_attackers(pos, Color::Red) || !has_attackers(pos, Color::Black) {
            scaled += 1;
        }
    }
    // Random play reaches bare endings too, so the scale-down path is exercised.
    assert!(scaled > 0);
}

#[test]
fn traces_reproduce_any_parameters() {
    let positions = random_positions(1500, 5);
    for seed in 1..4 {
        let p = perturbed(seed);
        // Traces depend only on the fixed shapes, so the defaults' traces serve.
        let set = trace_all(&HCE_PARAMS, &positions, |_| (0.5, 0.0));
        let flat = p.to_flat();
        for (i, pos) in positions.iter().enumerate() {
            assert_eq!(
                set.eval_int(&flat, i),
                evaluate_with(&p, pos),
                "{}",
                pos.to_fen()
            );
        }
    }
}

#[test]
fn tuning_lowers_the_loss_and_recovers_planted_values() {
    // Labels come from a planted evaluation: rooks worth 250 more, cannons with
    // endgame mobility; the result is the planted score's sign.
    let mut planted = HCE_PARAMS.clone();
    planted.material_mg[PieceKind::Rook.index()] += 250;
    planted.material_eg[PieceKind::Rook.index()] += 250;
    planted.cannon_mob_eg = 12;
    let label = |pos: &Position| {
        let s = evaluate_with(&planted, pos) as f32;
        let r = if s > 150.0 {
            1.0
        } else if s < -150.0 {
            0.0
        } else {
            0.5
        };
        (r, s)
    };
    let positions = random_positions(5000, 3);
    let (train, val) = positions.split_at(4000);
    let train = trace_all(&HCE_PARAMS, train, label);
    let val = trace_all(&HCE_PARAMS, val, label);
    let obj = Objective {
        k: 1.0 / 300.0,
        wdl: 0.3,
    };
    let cfg = TuneConfig {
        epochs: 25,
        lr: 4.0,
        batch: 256,
        threads: 2,
        seed: 9,
        symmetric: true,
        l2: 0.0,
    };
    let before = loss_int(&val, &HCE_PARAMS, obj, 2);
    let mut reports = 0;
    let tuned = tune(&train, &HCE_PARAMS, obj, &cfg, &mut |_| reports += 1);
    let after = loss_int(&val, &tuned, obj, 2);
    assert_eq!(reports, cfg.epochs);
    assert!(after < 0.75 * before, "validation loss {before} -> {after}");
    assert!(
        tuned.cannon_mob_eg > 6,
        "cannon_mob_eg {}",
        tuned.cannon_mob_eg
    );
    let rook = PieceKind::Rook.index();
    assert!(
        tuned.material_mg[rook] + tuned.material_eg[rook]
            > HCE_PARAMS.material_mg[rook] + HCE_PARAMS.material_eg[rook] + 100,
        "rook {:?} {:?}",
        tuned.material_mg,
        tuned.material_eg
    );
    // Fixed shapes stay as they were; placement stays mirror-symmetric.
    assert_eq!(tuned.phase_weight, HCE_PARAMS.phase_weight);
    assert_eq!(tuned.attack_weight, HCE_PARAMS.attack_weight);
    assert_eq!(tuned.material_mg[0], HCE_PARAMS.material_mg[0]);
    for k in 0..7 {
        for row in 0..10 {
            for file in 0..9 {
                assert_eq!(
                    tuned.pst_mg[k][row * 9 + file],
                    tuned.pst_mg[k][row * 9 + 8 - file]
                );
            }
        }
    }
}

#[test]
fn fitted_k_matches_the_labels_scale() {
    // Results drawn from σ(s / 250) of a known score: the fitted K is near 1/250.
    let positions = random_positions(6000, 21);
    let mut rng = Rng::from_state(4);
    let set = trace_all(&HCE_PARAMS, &positions, |pos| {
        let s = evaluate_with(&HCE_PARAMS, pos) as f64;
        let u = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        (if u < sigmoid(s / 250.0) { 1.0 } else { 0.0 }, 0.0)
    });
    let k = fit_k(&set, &HCE_PARAMS, 2);
    assert!((1.0 / k - 250.0).abs() < 60.0, "1/K = {}", 1.0 / k);
}

#[test]
fn split_keeps_samples_whole() {
    let positions = random_positions(300, 8);
    let mut set = trace_all(&HCE_PARAMS, &positions, |_| (1.0, 0.0));
    let flat = HCE_PARAMS.to_flat();
    let whole: Vec<i32> = (0..set.len()).map(|i| set.eval_int(&flat, i)).collect();
    let n = set.len();
    let tail = set.split_off(200);
    assert_eq!((set.len(), tail.len()), (200, n - 200));
    for i in 0..n - 200 {
        assert_eq!(tail.eval_int(&flat, i), whole[200 + i]);
    }
}

/// The note lines at the top of a parameter file (up to the first bare `//!`).
fn note_of(text: &str) -> String {
    text.lines()
        .take_while(|l| *l != "//!")
        .map(|l| l.trim_start_matches("//! ").to_string())
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn the_committed_values_file_is_the_writers_output() {
    let file = include_str!("../hce_values.rs");
    assert_eq!(HCE_PARAMS.to_rust_source(&note_of(file)), file);
    assert_eq!(HceParams::from_rust_source(file), Ok(HCE_PARAMS.clone()));
}

#[test]
fn written_files_read_back() {
    for seed in 1..5 {
        let p = perturbed(seed);
        let text = p.to_rust_source("a test\nsecond line");
        assert_eq!(HceParams::from_rust_source(&text), Ok(p));
    }
    let text = HCE_PARAMS.to_rust_source("x");
    assert_eq!(
        HceParams::from_rust_source("fn main() {}"),
        Err(ParamsError::NoBody)
    );
    let cut = &text[..text.len() - 40];
    assert!(HceParams::from_rust_source(cut).is_err());
    let tempo = format!("tempo: {},", HCE_PARAMS.tempo);
    assert!(text.contains(&tempo));
    let bad = text.replace(&tempo, "tempo: ten,");
    assert!(HceParams::from_rust_source(&bad).is_err());
    let missing = text.replace("rook_mob_mg", "rook_mobility");
    assert!(HceParams::from_rust_source(&missing).is_err());
    for (from, to) in [
        ("phase_max: 32", "phase_max: 0"),
        ("no_attacker_divisor: 8", "no_attacker_divisor: 0"),
        (tempo.as_str(), "tempo: 2000000000,"),
    ] {
        assert!(text.contains(from), "{from}");
        let bad = text.replace(from, to);
        assert!(
            matches!(
                HceParams::from_rust_source(&bad),
                Err(ParamsError::Invalid(_))
            ),
            "{to}"
        );
    }
    assert_eq!(HCE_PARAMS.check(), Ok(()));
}
