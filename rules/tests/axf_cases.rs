//! The 40 AXF rule-book diagrams (the repository's copy:
//! tests/data/repetition_axf_cases.tsv): FEN at the cycle start, the cycle in ICCS,
//! the official AXF verdict and, where known, the Chinese 2020 verdict.

use rules::repetition::{judge_cycle, RuleSet, Verdict};
use rules::{Move, Position};
mod common;
use common::{case_rows, verdict};

const CASES: &str = include_str!("data/repetition_axf_cases.tsv");

struct Case {
    id: String,
    fen: String,
    moves: Vec<Move>,
    axf: Verdict,
    cn: Option<Verdict>,
}

fn cases() -> Vec<Case> {
    case_rows(CASES)
        .into_iter()
        .map(|r| Case {
            axf: verdict(&r.columns[3]).expect("AXF verdict"),
            cn: verdict(&r.columns[4]),
            id: r.id,
            fen: r.fen,
            moves: r.moves,
        })
        .collect()
}

fn run(rules: RuleSet) -> Vec<String> {
    let mut failures = Vec::new();
    for c in cases() {
        let want = match rules {
            RuleSet::Axf => c.axf,
            RuleSet::Chinese => match c.cn {
                Some(v) => v,
                None => continue,
            },
        };
        let pos = Position::from_fen(&c.fen).expect("case FEN");
        let j = judge_cycle(&pos, &c.moves, rules, rules::repetition::KILL_DEPTH)
            .expect("case cycle is a legal repetition");
        if j.verdict != want {
            let labels: Vec<String> = j
                .labels
                .iter()
                .map(|l| {
                    let mut s = format!("{}:{}", l.mv, l.kind().chinese());
                    for ch in l.chases() {
                        s += &format!(
                            "[{}{}x{}{}]",
                            ch.attacker.chinese(),
                            ch.from,
                            ch.victim.chinese(),
                            ch.at
                        );
                    }
                    s
                })
                .collect();
            failures.push(format!(
                "{} {:?}: got {}, want {} | {}",
                c.id,
                rules,
                j.verdict,
                want,
                labels.join(" ")
            ));
        }
    }
    failures
}

#[test]
fn axf_cases_under_axf_rules() {
    let f = run(RuleSet::Axf);
    assert!(f.is_empty(), "{} failures:\n{}", f.len(), f.join("\n"));
}

#[test]
fn axf_cases_under_chinese_rules() {
    let f = run(RuleSet::Chinese);
    assert!(f.is_empty(), "{} failures:\n{}", f.len(), f.join("\n"));
}
