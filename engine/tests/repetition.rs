//! Rule-aware repetition scoring, checked on the AXF diagrams: in every case where
//! the AXF verdict is that Red must change (a forbidden perpetual by Red), play the
//! cycle twice from the diagram (and Black's first move when the cycle starts with
//! Black); with Red to move, the search must not play Red's cycle move again,
//! unless it is the only move or every other move is mated anyway. With Black to
//! move instead (Red still the offender), the search must keep the cycle going.
//!
//! This depends on `rules::repetition::judge_repetition` giving the 棋例 verdicts
//! (the 棋例 issue); with a draw-only judge it fails on the cases where Red is better.

use engine::{Engine, EngineOptions, Limits, Score, SearchControl};
use rules::repetition::RuleSet;
use rules::{Color, Position};

/// The AXF rule-book diagrams, the repository's copy (shared with the rules tests).
fn cases_file() -> String {
    include_str!("../../rules/tests/data/repetition_axf_cases.tsv").to_string()
}

/// A `red_must_change` case (by the verdict in `column`) with its cycle played twice
/// and then on to `mover`'s next cycle move: the position and that move.
struct Replayed {
    id: String,
    pos: Position,
    next: rules::Move,
}

fn replayed_cases(column: &str, mover: Color) -> Vec<Replayed> {
    let text = cases_file();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap_or("").split('\t').collect();
    let mut out = Vec::new();
    for line in lines {
        let cols: Vec<&str> = line.split('\t').collect();
        let col = |name: &str| {
            header
                .iter()
                .position(|h| *h == name)
                .and_then(|i| cols.get(i).copied())
                .unwrap_or("")
        };
        if col(column) != "red_must_change" {
            continue;
        }
        let id = col("id").to_string();
        let mut pos = Position::from_fen(col("fen")).unwrap_or_else(|e| panic!("{id}: {e}"));
        let cycle: Vec<_> = col("cycle_moves").split_whitespace().collect();
        for _ in 0..2 {
            for t in &cycle {
                let m = pos
                    .parse_move(t)
                    .unwrap_or_else(|e| panic!("{id}: cycle move {t}: {e}"));
                pos.make_move(m);
            }
        }
        // Some diagrams start with the other side's move: play on to `mover`'s.
        let mut i = 0;
        while pos.side_to_move() != mover {
            let m = pos.parse_move(cycle[i]).unwrap();
            pos.make_move(m);
            i += 1;
        }
        let next = pos.parse_move(cycle[i]).unwrap();
        out.push(Replayed { id, pos, next });
    }
    out
}

#[test]
fn red_breaks_its_forbidden_perpetuals() {
    let mut checked = 0;
    let mut failures = Vec::new();
    for Replayed {
        id,
        pos,
        next: first,
    } in replayed_cases("verdict_axf", Color::Red)
    {
        let mut e = Engine::new(EngineOptions {
            hash_mb: 8,
            ..EngineOptions::default()
        });
        let limits = Limits {
            depth: Some(7),
            ..Limits::default()
        };
        let r = e.search(&pos, &limits, &SearchControl::new(), &mut |_| {});
        checked += 1;
        if r.best == Some(first) {
            // Allowed only when every other move loses too (then the choice is which
            // loss): the search without the cycle move must find a forced mate.
            let others = Limits {
                banmoves: vec![first],
                ..limits.clone()
            };
            let alt = e.search(&pos, &others, &SearchControl::new(), &mut |_| {});
            if alt.best.is_some() && !matches!(alt.score, Score::Mate(n) if n <= 0) {
                failures.push(format!(
                    "{id}: repeats {first} (score {:?}) though {:?} scores {:?}",
                    r.score, alt.best, alt.score
                ));
            }
        }
    }
    assert!(checked >= 20, "only {checked} cases read");
    assert!(
        failures.is_empty(),
        "{} of {checked}:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Each `red_must_change` case with the cycle played twice and then on to Black's
/// next cycle move: Red is the offender, so Black's cycle move wins by the rules
/// (Red must deviate). The search must keep the cycle going, or play a move that
/// scores at least as well (a forced mate, or another rule win).
#[test]
fn black_keeps_the_cycle_when_red_must_change() {
    let checked = keeps_the_cycle("verdict_axf", RuleSet::Axf);
    assert!(checked >= 20, "only {checked} AXF cases read");
}

/// The same under the Chinese 2020 rules, on the cases with a Chinese verdict.
#[test]
fn black_keeps_the_cycle_under_chinese_rules() {
    let checked = keeps_the_cycle("verdict_cn2020", RuleSet::Chinese);
    assert!(checked >= 8, "only {checked} Chinese-rules cases read");
}

/// Runs the keep-the-cycle check on every case whose `column` says Red must change,
/// searching under `rules`; returns how many cases were checked.
fn keeps_the_cycle(column: &str, rules: RuleSet) -> usize {
    let mut checked = 0;
    let mut failures = Vec::new();
    for Replayed {
        id,
        pos,
        next: keep,
    } in replayed_cases(column, Color::Black)
    {
        let mut e = Engine::new(EngineOptions {
            hash_mb: 8,
            rules,
            ..EngineOptions::default()
        });
        let limits = Limits {
            depth: Some(7),
            ..Limits::default()
        };
        let r = e.search(&pos, &limits, &SearchControl::new(), &mut |_| {});
        checked += 1;
        // Black's cycle move repeats the position with Red the offender: a rule
        // win, reported like a mate at the repetition.
        let kept = Limits {
            searchmoves: vec![keep],
            ..limits.clone()
        };
        let k = e.search(&pos, &kept, &SearchControl::new(), &mut |_| {});
        if !matches!(k.score, Score::Mate(n) if n > 0) {
            failures.push(format!("{id}: the cycle move {keep} scores {:?}", k.score));
            continue;
        }
        let as_good = matches!(r.score, Score::Mate(n) if n > 0);
        if r.best != Some(keep) && !as_good {
            failures.push(format!(
                "{id}: plays {:?} (score {:?}) instead of the cycle move {keep} ({:?})",
                r.best, r.score, k.score
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{column}: {} of {checked}:\n{}",
        failures.len(),
        failures.join("\n")
    );
    checked
}

/// When every move loses, the engine takes the loss that comes latest: it does not
/// complete its own forbidden perpetual check (a loss by rule at once) but plays
/// on and makes the opponent prove the mate.
#[test]
fn a_loss_by_rule_ranks_like_mate_and_the_latest_loss_is_chosen() {
    // Black's rook has checked the red king back and forth (a1a0 d0d1 a0a1 d1d0);
    // a1a0 now completes Black's perpetual check. Any other move is mated: the red
    // rooks on h8 and g7 mate on g9.
    let mut pos = Position::from_fen("4k4/7R1/6R2/9/9/9/9/9/r8/3K5 b").unwrap();
    for m in ["a1a0", "d0d1", "a0a1", "d1d0"] {
        pos.make_move(pos.parse_move(m).unwrap());
    }
    let repeat = pos.parse_move("a1a0").unwrap();
    // From depth 12 every other move is seen to be mated (in 3: a1f1 g7g9 f1f9 …);
    // the old scoring then completed the perpetual (cp −29999) instead.
    for depth in [5, 12, 14] {
        let mut e = Engine::new(EngineOptions {
            hash_mb: 8,
            ..EngineOptions::default()
        });
        let limits = Limits {
            depth: Some(depth),
            ..Limits::default()
        };
        let r = e.search(&pos, &limits, &SearchControl::new(), &mut |_| {});
        assert_ne!(
            r.best,
            Some(repeat),
            "depth {depth}: completes the perpetual"
        );
        // The perpetual itself scores as lost at once: mate −1 (our own move).
        let only = Limits {
            searchmoves: vec![repeat],
            ..limits
        };
        let k = e.search(&pos, &only, &SearchControl::new(), &mut |_| {});
        assert_eq!(k.score, Score::Mate(-1), "depth {depth}");
        // Anything else loses later, or not at all as far as this depth sees.
        match r.score {
            Score::Mate(n) => assert!(n < -1, "depth {depth}: {n}"),
            Score::Cp(_) => assert!(depth < 12, "depth {depth}: {:?}", r.score),
        }
    }
}

/// Checks answered by checks cycle in quiescence too (its evasions are quiet
/// moves). From this position of a self-play game (Black's knight and Red's
/// cannon and knight can check in turn) a depth-1 search without the repetition
/// verdict in quiescence went 16 million nodes deep into such lines, and in the
/// game itself the first iteration of a 1500-node search never ended.
#[test]
fn quiescence_ends_lines_of_mutual_checks_at_a_repetition() {
    let pos = Position::from_fen("4c1b2/1C3k3/3aba3/2N6/9/2B3P2/9/6n2/3K5/9 b - - 9 68").unwrap();
    let mut e = Engine::new(EngineOptions {
        hash_mb: 8,
        ..EngineOptions::default()
    });
    for limits in [
        Limits {
            depth: Some(1),
            ..Limits::default()
        },
        Limits {
            nodes: Some(1500),
            ..Limits::default()
        },
    ] {
        e.new_game();
        let r = e.search(&pos, &limits, &SearchControl::new(), &mut |_| {});
        assert!(r.best.is_some_and(|m| pos.is_legal(m)));
        assert!(r.nodes < 20_000, "{limits:?}: {} nodes", r.nodes);
    }
}
