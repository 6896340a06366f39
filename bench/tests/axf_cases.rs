//! The arbiter on the 40 rule-book diagrams of the AXF rule book (the repository's
//! copy is `rules/tests/data/repetition_axf_cases.tsv`, shared with the rules tests):
//! each cycle is played out until the arbiter ends the game, and the
//! result must be the official verdict (`red_must_change` → Black wins, `draw` → draw),
//! under the AXF rules and, where the table gives one, the Chinese 2020 rules.
//! Once directly on the arbiter, once as real games between two scripted engine
//! processes driven by the match runner.

use bench::arbiter::{adjudicate, ArbiterRules, PerpetualKind, Termination};
use bench::game::FixedLimits;
use bench::{run_match, EngineConfig, MatchConfig, Opening, ProtocolChoice};
use rules::pgn::GameResult;
use rules::repetition::RuleSet;
use rules::Position;

struct Case {
    id: String,
    fen: String,
    cycle: Vec<String>,
    axf: String,
    cn: String,
}

fn cases() -> Vec<Case> {
    let text = include_str!("../../rules/tests/data/repetition_axf_cases.tsv");
    text.lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            Case {
                id: f[0].into(),
                fen: f[1].into(),
                cycle: f[2].split_whitespace().map(String::from).collect(),
                axf: f[3].into(),
                cn: f[4].into(),
            }
        })
        .collect()
}

fn expected(verdict: &str) -> Option<GameResult> {
    match verdict {
        "red_must_change" => Some(GameResult::BlackWins),
        "black_must_change" => Some(GameResult::RedWins),
        "draw" => Some(GameResult::Draw),
        _ => None,
    }
}

fn rule_sets(c: &Case) -> Vec<(RuleSet, GameResult)> {
    let mut v = Vec::new();
    if let Some(r) = expected(&c.axf) {
        v.push((RuleSet::Axf, r));
    }
    if let Some(r) = expected(&c.cn) {
        v.push((RuleSet::Chinese, r));
    }
    v
}

/// The forbidden perpetual checks of the table (the others that lose are chases).
const CHECK_CASES: [&str; 4] = ["AXF-D01", "AXF-D02", "AXF-D03", "AXF-D05"];

#[test]
fn arbiter_gives_the_official_verdicts() {
    let all = cases();
    assert_eq!(all.len(), 40);
    let mut wrong = Vec::new();
    for c in &all {
        for (rules, want) in rule_sets(c) {
            let ar = ArbiterRules {
                rules,
                ..ArbiterRules::default()
            };
            let mut pos = Position::from_fen(&c.fen).expect("case FEN");
            let mut ended = None;
            // Three times round is more than the arbiter ever needs.
            'play: for _ in 0..3 {
                for t in &c.cycle {
                    let m = pos.parse_move(t).expect("cycle move is legal");
                    pos.make_move(m);
                    if let Some(term) = adjudicate(&pos, &ar) {
                        ended = Some(term);
                        break 'play;
                    }
                }
            }
            match ended {
                Some(t) if t.result() == want => {
                    // A repetition ending; under AXF the perpetual is named: the rule
                    // book's check cases (notes of D01-D05) are checks, the rest chases.
                    assert!(matches!(
                        t,
                        Termination::PerpetualLoss { .. } | Termination::RepetitionDraw { .. }
                    ));
                    if let Termination::PerpetualLoss { kind, .. } = t {
                        if rules == RuleSet::Axf {
                            let check = CHECK_CASES.contains(&c.id.as_str());
                            let want_kind = if check {
                                PerpetualKind::Check
                            } else {
                                PerpetualKind::Chase
                            };
                            assert_eq!(kind, want_kind, "{}", c.id);
                        }
                    }
                    assert!(pos.game_ply() <= 2 * c.cycle.len(), "{}: late", c.id);
                }
                other => wrong.push(format!("{} {rules:?}: want {want}, got {other:?}", c.id)),
            }
        }
    }
    assert!(wrong.is_empty(), "wrong verdicts:\n{}", wrong.join("\n"));
}

fn scripted(cycle: &[String]) -> EngineConfig {
    let mut e = EngineConfig::new(env!("CARGO_BIN_EXE_qili-fake-engine")).unwrap();
    e.argv
        .extend(["--mode", "script", "--script"].map(String::from));
    e.argv.push(cycle.join(" "));
    e.protocol = ProtocolChoice::Ucci;
    e
}

#[test]
fn scripted_games_end_with_the_official_verdicts() {
    let mut wrong = Vec::new();
    for c in cases() {
        for (rules, want) in rule_sets(&c) {
            let mut cfg = MatchConfig::new([scripted(&c.cycle), scripted(&c.cycle)]);
            cfg.games = 1;
            cfg.openings = vec![Opening {
                fen: c.fen.clone(),
                moves: vec![],
            }];
            cfg.game.fixed = FixedLimits {
                depth: Some(1),
                nodes: None,
            };
            cfg.game.arbiter.rules = rules;
            cfg.progress = false;
            cfg.game_lines = false;
            let s = run_match(&cfg, &mut std::io::sink()).expect("match runs");
            let g = &s.games[0];
            let got = g.record.result;
            if got != want
                || !matches!(
                    g.termination,
                    Termination::PerpetualLoss { .. } | Termination::RepetitionDraw { .. }
                )
            {
                wrong.push(format!(
                    "{} {rules:?}: want {want}, got {}",
                    c.id, g.termination
                ));
            }
            // The record replays legally and carries the termination.
            assert!(g.record.replay().is_ok(), "{}", c.id);
            assert_eq!(
                g.record.tag("Termination"),
                Some(g.termination.to_string().as_str())
            );
        }
    }
    assert!(wrong.is_empty(), "wrong verdicts:\n{}", wrong.join("\n"));
}

#[test]
fn banmoves_keep_the_offender_from_completing_the_perpetual() {
    let all = cases();
    let c = all.iter().find(|c| c.id == "AXF-D01").unwrap();
    let mut cfg = MatchConfig::new([scripted(&c.cycle), scripted(&c.cycle)]);
    cfg.games = 1;
    cfg.openings = vec![Opening {
        fen: c.fen.clone(),
        moves: vec![],
    }];
    cfg.game.fixed.depth = Some(1);
    cfg.game.max_plies = 30;
    cfg.progress = false;
    cfg.game_lines = false;
    cfg.game.banmoves = true;
    let s = run_match(&cfg, &mut std::io::sink()).unwrap();
    let g = &s.games[0];
    assert!(
        !matches!(g.termination, Termination::PerpetualLoss { .. }),
        "{}",
        g.termination
    );
    // Red left the cycle when it was about to close it a second time round.
    assert!(g.record.moves.len() > c.cycle.len());
    assert!(g.record.replay().is_ok());
}
