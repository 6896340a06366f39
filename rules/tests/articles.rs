//! The article table (`repetition::articles`): every rule-book diagram of the test data
//! is judged with the article its book prints for it, and every article the code can
//! cite is cited by at least one judged cycle.

use rules::repetition::articles::ARTICLES;
use rules::repetition::{basis, judge_cycle, Article, Basis, Lang, RuleSet, KILL_DEPTH};
use rules::{Move, Position};
use std::collections::BTreeSet;
mod common;
use common::case_rows;

const AXF: &str = include_str!("data/repetition_axf_cases.tsv");
const CN: &str = include_str!("data/repetition_cn2020.tsv");
const OWN: &str = include_str!("data/repetition_rules.tsv");

struct Case {
    id: String,
    fen: String,
    moves: Vec<Move>,
    rule_ref: String,
}

fn cases(table: &str, rule_col: usize) -> Vec<Case> {
    case_rows(table)
        .into_iter()
        .map(|r| Case {
            rule_ref: r.columns.get(rule_col).cloned().unwrap_or_default(),
            id: r.id,
            fen: r.fen,
            moves: r.moves,
        })
        .collect()
}

fn judged(c: &Case, rules: RuleSet) -> (Basis, BTreeSet<Article>) {
    let start = Position::from_fen(&c.fen).expect("FEN");
    let j = judge_cycle(&start, &c.moves, rules, KILL_DEPTH).expect("cycle");
    let b = basis(&j);
    let mut all = BTreeSet::new();
    all.insert(b.principle);
    for s in &b.sides {
        all.extend(s.iter().copied());
    }
    for m in &b.moves {
        all.extend(m.iter().copied());
    }
    assert_eq!(b.moves.len(), c.moves.len(), "{}", c.id);
    (b, all)
}

/// Each AXF diagram (`AXF zh#N`, the book's detailed rule N) is judged citing rule N,
/// except where the book's rule is a combination the judge names by its parts (noted).
#[test]
fn axf_diagrams_cite_their_rule() {
    // Diagrams whose rule the judge reaches through another article (why):
    let through: &[(&str, Article)] = &[
        // Rule 8's 一将一要抽吃: the threat to win by a check is read here as a chase of
        // a falsely protected piece, so the side is 一将一捉 (rule 7): the same draw.
        ("AXF-D15", Article::Axf(7)),
    ];
    let mut failures = Vec::new();
    for c in cases(AXF, 5) {
        let n: u8 = c
            .rule_ref
            .split("zh#")
            .nth(1)
            .and_then(|r| r.split(|ch: char| !ch.is_ascii_digit()).next())
            .and_then(|d| d.parse().ok())
            .unwrap_or_else(|| panic!("{}: no rule in '{}'", c.id, c.rule_ref));
        let (_, cited) = judged(&c, RuleSet::Axf);
        let want = through
            .iter()
            .find(|(id, _)| *id == c.id)
            .map(|&(_, a)| a)
            .unwrap_or(Article::Axf(n));
        if !cited.contains(&want) {
            failures.push(format!("{}: rule {n}, want {want}, cited {cited:?}", c.id));
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

/// The 2020 figures: the article each figure's ruling turns on.
#[test]
fn cn_figures_cite_the_2020_articles() {
    let want: &[(&str, &[Article])] = &[
        ("CN-F6", &[Article::Cn(9), Article::Cn(13)]),
        ("CN-F5", &[Article::Cn(14), Article::Cn(1), Article::Cn(8)]),
        ("CN-F8", &[Article::Cn(13), Article::Cn(3)]),
        ("CN-F9", &[Article::Cn(11), Article::Cn(4)]),
        ("CN-F4", &[Article::Cn(11), Article::Cn(15)]),
        ("CN-F2", &[Article::Cn(3), Article::Cn(13)]),
        ("CN-F3", &[Article::CnFigure(3), Article::Cn(11)]),
        ("CN-F10", &[Article::CnFigure(10), Article::Cn(13)]),
        ("CN-F7", &[Article::Cn(10), Article::Cn(6)]),
    ];
    let all = cases(CN, 5);
    for (id, arts) in want {
        let c = all.iter().find(|c| c.id == *id).expect("case");
        let (_, cited) = judged(c, RuleSet::Chinese);
        for a in *arts {
            assert!(cited.contains(a), "{id}: want {a}, cited {cited:?}");
        }
    }
}

/// Every article in the table is cited by some judged cycle of the test data.
#[test]
fn every_article_is_reached() {
    let mut cited = BTreeSet::new();
    for (table, col) in [(AXF, 5), (CN, 5), (OWN, 5)] {
        for c in cases(table, col) {
            for rules in [RuleSet::Axf, RuleSet::Chinese] {
                cited.extend(judged(&c, rules).1);
            }
        }
    }
    let missing: Vec<String> = ARTICLES
        .iter()
        .filter(|a| !cited.contains(&a.article))
        .map(|a| a.article.id())
        .collect();
    assert!(missing.is_empty(), "never cited: {missing:?}");
    // And nothing is cited that the table lacks (text() would panic).
    for a in &cited {
        assert!(!a.statement(Lang::Zh).is_empty());
        assert!(!a.cite(Lang::En).is_empty());
    }
}

#[test]
fn citations_are_printed_as_the_books_number_them() {
    assert_eq!(Article::Axf(9).cite(Lang::Zh), "棋例细则第９条");
    assert_eq!(Article::Axf(14).cite(Lang::En), "AXF rule 14");
    assert_eq!(Article::Cn(3).cite(Lang::Zh), "第２４．３条");
    assert_eq!(Article::Cn(13).cite(Lang::En), "CXA 2020 art. 24.13");
    assert_eq!(Article::Verdict(4).cite(Lang::Zh), "棋例之裁决乙４");
    assert_eq!(Article::Principle(3).cite(Lang::Zh), "重要原则三");
    assert_eq!(Article::CnFigure(10).cite(Lang::Zh), "第八章图１０");
    assert_eq!(Article::Axf(9).id(), "axf-9");
    // Unique ids.
    let ids: BTreeSet<String> = ARTICLES.iter().map(|a| a.article.id()).collect();
    assert_eq!(ids.len(), ARTICLES.len());
}
