//! The rule query (the offline form of chessdb's `queryrule`): for each move of a
//! position with its history, would playing it complete a repeated cycle, and with what
//! ruling for the mover.
//!
//! The verdict comes from the search's own entry points: the move is made on a copy,
//! `find_repetition` finds the cycle it closes (the most recent earlier occurrence, as
//! the search sees it) and `judge_repetition` (the fast path) decides it, so the query
//! and the search cannot disagree. The articles come from `judge_cycle` + `basis` on the
//! same cycle (a test checks that its verdict is the fast path's).
//!
//! Four words, from the mover's side:
//! * `none`: the move completes no repetition (or no cycle the search counts: a
//!   capture or a null move in between ends the look-back);
//! * `draw`: it completes one, and the cycle is a draw;
//! * `ban`: it completes one, and the mover is the offender: it must change, and
//!   playing the move loses by rule;
//! * `win`: it completes one, and the opponent is the offender: the opponent must
//!   change (the search scores the move as a win by rule).
//!
//! Articles are labelled by `Article::id` (`verdict-4`, `principle-3`, `axf-9`,
//! `cn-24.3`, `cn-fig-10`), the form `qili judge --json` prints as `id`.

use super::{
    basis, find_repetition, judge_cycle, judge_repetition, position_before, Article,
    CycleJudgement, RuleSet, Verdict, KILL_DEPTH,
};
use crate::position::Position;
use crate::types::{Color, Move};
use std::fmt;

/// The ruling on one move, from the mover's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RuleWord {
    /// No repeated cycle is completed.
    None,
    /// A cycle is completed and it is a draw.
    Draw,
    /// A cycle is completed and the mover is the offender (must change; it loses).
    Ban,
    /// A cycle is completed and the opponent is the offender.
    Win,
}

impl RuleWord {
    /// `none`, `draw`, `ban`, `win`.
    pub fn as_str(self) -> &'static str {
        match self {
            RuleWord::None => "none",
            RuleWord::Draw => "draw",
            RuleWord::Ban => "ban",
            RuleWord::Win => "win",
        }
    }

    /// The word for `mover` given the verdict of the cycle its move completes (if any).
    pub fn of(verdict: Option<Verdict>, mover: Color) -> RuleWord {
        match verdict.map(|v| v.offender()) {
            None => RuleWord::None,
            Some(None) => RuleWord::Draw,
            Some(Some(c)) if c == mover => RuleWord::Ban,
            Some(Some(_)) => RuleWord::Win,
        }
    }
}

impl fmt::Display for RuleWord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What the query says about one move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveRuling {
    pub mv: Move,
    pub word: RuleWord,
    /// The cycle's verdict (`None` when the move completes no cycle).
    pub verdict: Option<Verdict>,
    /// The articles that decide the verdict (`deciding_articles`); empty for `none`.
    pub articles: Vec<Article>,
    /// Where the completed cycle starts: an index into the history after the move
    /// (`find_repetition`'s answer), `None` for `none`.
    pub cycle_start: Option<usize>,
}

impl MoveRuling {
    /// `WORD [ARTICLE…]`, e.g. `ban verdict-4 axf-1` or `none`.
    pub fn protocol_text(&self) -> String {
        let mut s = self.word.as_str().to_string();
        for &a in &self.articles {
            s.push(' ');
            s += &article_label(a);
        }
        s
    }
}

/// `WORD [ARTICLE…]` for a ruling (what a protocol line or `qili judge --query` prints
/// after the move).
pub fn format_ruling(r: &MoveRuling) -> String {
    r.protocol_text()
}

/// The short label of an article for protocol lines: `Article::id` (`verdict-4`,
/// `principle-3`, `axf-9`, `cn-24.3`, `cn-fig-10`).
pub fn article_label(a: Article) -> String {
    a.id()
}

/// Why a move could not be queried.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QueryError {
    /// The move is not legal in the position.
    Illegal(Move),
}

impl fmt::Display for QueryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            QueryError::Illegal(m) => write!(f, "{m} is not a legal move in this position"),
        }
    }
}

impl std::error::Error for QueryError {}

/// The articles that decide a judged cycle, in a stable order: the principle that
/// decides the verdict first, then the articles of the side that must change (a
/// verdict with an offender) or of both sides, Red's first (a draw), each once, in the
/// order `basis` lists them.
pub fn deciding_articles(j: &CycleJudgement) -> Vec<Article> {
    let b = basis(j);
    let mut v = vec![b.principle];
    let sides: &[Color] = match j.verdict.offender() {
        Some(Color::Red) => &[Color::Red],
        Some(Color::Black) => &[Color::Black],
        None => &[Color::Red, Color::Black],
    };
    for c in sides {
        for &a in &b.sides[c.index()] {
            if !v.contains(&a) {
                v.push(a);
            }
        }
    }
    v
}

/// Rule on the legal move `m` of `pos` (whose history is the game so far).
pub fn query_move(pos: &Position, m: Move, rules: RuleSet) -> Result<MoveRuling, QueryError> {
    if !pos.is_legal(m) {
        return Err(QueryError::Illegal(m));
    }
    let mut p = pos.clone();
    Ok(rule_on(&mut p, m, rules))
}

/// Rule on each of `moves` in order; the first illegal one is an error.
pub fn query_moves(
    pos: &Position,
    moves: &[Move],
    rules: RuleSet,
) -> Result<Vec<MoveRuling>, QueryError> {
    if let Some(&m) = moves.iter().find(|&&m| !pos.is_legal(m)) {
        return Err(QueryError::Illegal(m));
    }
    let mut p = pos.clone();
    Ok(moves.iter().map(|&m| rule_on(&mut p, m, rules)).collect())
}

/// Rule on every legal move of `pos`, in ICCS order (`a0a1` … `i9i8`).
pub fn query_all(pos: &Position, rules: RuleSet) -> Vec<MoveRuling> {
    let mut moves: Vec<Move> = pos.legal_moves().iter().copied().collect();
    moves.sort_by_key(|m| m.iccs());
    let mut p = pos.clone();
    moves.iter().map(|&m| rule_on(&mut p, m, rules)).collect()
}

/// Make the legal move `m` on `p`, rule on it as the search would, and take it back.
fn rule_on(p: &mut Position, m: Move, rules: RuleSet) -> MoveRuling {
    let mover = p.side_to_move();
    p.make_move(m);
    let ruling = match find_repetition(p) {
        None => MoveRuling {
            mv: m,
            word: RuleWord::None,
            verdict: None,
            articles: Vec::new(),
            cycle_start: None,
        },
        Some(start) => {
            let verdict = judge_repetition(p, rules);
            MoveRuling {
                mv: m,
                word: RuleWord::of(verdict, mover),
                verdict,
                articles: verdict
                    .map(|v| cycle_articles(p, start, v, rules))
                    .unwrap_or_default(),
                cycle_start: Some(start),
            }
        }
    };
    p.unmake_move();
    ruling
}

/// The judged cycle `pos.history()[start..]`, labelled with `kill_depth`.
pub fn judge_closed_cycle(
    pos: &Position,
    start: usize,
    rules: RuleSet,
    kill_depth: u32,
) -> Option<CycleJudgement> {
    let h = pos.history();
    let first = position_before(pos, h.len() - start);
    let moves: Vec<Move> = h[start..].iter().map(|s| s.mv).collect();
    judge_cycle(&first, &moves, rules, kill_depth).ok()
}

/// The deciding articles of the cycle `pos.history()[start..]` whose verdict is `v`.
/// Labelled with `KILL_DEPTH` as `qili judge` does (under AXF the search skips the kill
/// search, which never changes an AXF verdict but does choose between rules 4–8); if
/// that ever gave another verdict, the search's own depth is used instead.
fn cycle_articles(pos: &Position, start: usize, v: Verdict, rules: RuleSet) -> Vec<Article> {
    let search_depth = rules.search_kill_depth();
    let judge_depth = KILL_DEPTH.max(search_depth);
    let fallback = (search_depth != judge_depth).then_some(search_depth);
    std::iter::once(judge_depth)
        .chain(fallback)
        .filter_map(|d| judge_closed_cycle(pos, start, rules, d))
        .find(|j| j.verdict == v)
        .map(|j| deciding_articles(&j))
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::repetition::Article::{Axf, Cn, Principle, Verdict as V};

    /// AXF-D01: a rook checks, the king steps back and forth.
    const D01: &str = "c2a1k3/2c1a2R1/b6P1/8p/9/9/9/9/4K4/9 w - - 0 1";
    /// Rook and advisors shuffle: nothing checks or chases.
    const QUIET: &str = "4k4/4a4/9/9/9/9/9/9/4A4/R3K4 w - - 0 1";
    /// R16a: a knight chases the unprotected rook on every move.
    const R16A: &str = "3ak4/4a4/9/3r5/8P/2N6/9/9/4A4/4K4 b - - 0 1";
    /// R27a: one rook chases two pieces in turn (AXF 27: a draw; CN: forbidden).
    const R27A: &str = "4k4/4a4/n8/1c7/9/9/9/R8/4A4/4K4 w - - 0 1";
    /// R02a: mutual perpetual check by uncovering knights.
    const R02A: &str = "4k4/9/9/9/9/9/3n5/9/c2N1K3/4C4 w - - 0 1";

    fn mv(s: &str) -> Move {
        Move::parse_iccs(s).expect("ICCS")
    }

    fn after(fen: &str, moves: &str) -> Position {
        let mut p = Position::from_fen(fen).expect("FEN");
        for m in moves.split_whitespace() {
            assert!(p.is_legal(mv(m)), "{m} legal");
            p.make_move(mv(m));
        }
        p
    }

    fn ask(fen: &str, moves: &str, m: &str, rules: RuleSet) -> MoveRuling {
        query_move(&after(fen, moves), mv(m), rules).expect("legal")
    }

    #[test]
    fn perpetual_check_the_defender_completing_it_wins() {
        let r = ask(D01, "h8h9 f9f8 h9h8", "f8f9", RuleSet::Axf);
        assert_eq!(r.word, RuleWord::Win);
        assert_eq!(r.verdict, Some(Verdict::RedLoses));
        assert_eq!(r.cycle_start, Some(0));
        assert_eq!(r.articles[0], V(2), "{:?}", r.articles);
        assert!(r.articles.contains(&Axf(1)), "{:?}", r.articles);
        assert!(r.protocol_text().starts_with("win verdict-2 axf-1"));
        let cn = ask(D01, "h8h9 f9f8 h9h8", "f8f9", RuleSet::Chinese);
        assert_eq!(cn.word, RuleWord::Win);
        assert!(cn.articles.contains(&Cn(9)), "{:?}", cn.articles);
        // The king's other way out completes nothing.
        let other = ask(D01, "h8h9 f9f8 h9h8", "f8f7", RuleSet::Axf);
        assert_eq!(other.word, RuleWord::None);
        assert_eq!(other.protocol_text(), "none");
    }

    #[test]
    fn perpetual_check_the_checker_completing_it_is_banned() {
        let r = ask(D01, "h8h9 f9f8 h9h8 f8f9 h8h9 f9f8", "h9h8", RuleSet::Axf);
        assert_eq!(r.word, RuleWord::Ban);
        assert_eq!(r.verdict, Some(Verdict::RedLoses));
        assert_eq!(&r.articles[..2], &[V(2), Axf(1)]);
        // Before any repetition the same check is no ruling.
        assert_eq!(ask(D01, "", "h8h9", RuleSet::Axf).word, RuleWord::None);
    }

    #[test]
    fn idle_repetition_is_a_draw_by_the_principle() {
        let moves = "a0b0 e8d9 b0c0 d9e8 c0b0";
        let r = ask(QUIET, moves, "e8d9", RuleSet::Axf);
        assert_eq!((r.word, r.verdict), (RuleWord::Draw, Some(Verdict::Draw)));
        assert_eq!(r.articles, vec![V(1)]);
        assert_eq!(r.protocol_text(), "draw verdict-1");
        let cn = ask(QUIET, moves, "e8d9", RuleSet::Chinese);
        assert_eq!(cn.articles, vec![Cn(14)]);
        assert_eq!(format_ruling(&cn), "draw cn-24.14");
        // The advisor's other step repeats nothing.
        assert_eq!(ask(QUIET, moves, "e8f9", RuleSet::Axf).word, RuleWord::None);
    }

    #[test]
    fn mutual_perpetual_check_is_a_draw() {
        let r = ask(R02A, "d1e3 d3e1 e3d1", "e1d3", RuleSet::Axf);
        assert_eq!(r.word, RuleWord::Draw);
        assert_eq!(r.articles[0], Axf(2), "{:?}", r.articles);
    }

    #[test]
    fn perpetual_chase_by_a_knight() {
        // Red's knight completes its own chase: banned (1982 乙4; principle 3, rule 16).
        let r = ask(R16A, "d6d5 c4e3 d5d6", "e3c4", RuleSet::Axf);
        assert_eq!(r.word, RuleWord::Ban);
        assert_eq!(r.articles, vec![V(4), Principle(3), Axf(16)]);
        assert_eq!(r.protocol_text(), "ban verdict-4 principle-3 axf-16");
        // The chased rook completing the cycle: the chaser must change.
        let w = ask(R16A, "d6d5 c4e3 d5d6 e3c4 d6d5 c4e3", "d5d6", RuleSet::Axf);
        assert_eq!(w.word, RuleWord::Win);
        assert_eq!(w.articles, r.articles);
    }

    #[test]
    fn the_rule_set_changes_the_word() {
        let moves = "a2b2 e8d9 b2a2";
        let axf = ask(R27A, moves, "d9e8", RuleSet::Axf);
        assert_eq!(axf.word, RuleWord::Draw);
        assert!(axf.articles.contains(&Axf(27)), "{:?}", axf.articles);
        let cn = ask(R27A, moves, "d9e8", RuleSet::Chinese);
        assert_eq!(cn.word, RuleWord::Win);
        assert_eq!(cn.verdict, Some(Verdict::RedLoses));
        assert_eq!(cn.articles[0], Cn(13), "{:?}", cn.articles);
    }

    #[test]
    fn all_moves_and_named_moves() {
        let pos = after(D01, "h8h9 f9f8 h9h8");
        let all = query_all(&pos, RuleSet::Axf);
        assert_eq!(all.len(), pos.legal_moves().len());
        let ruled: Vec<_> = all.iter().filter(|r| r.word != RuleWord::None).collect();
        assert_eq!(ruled.len(), 1);
        assert_eq!(ruled[0].mv, mv("f8f9"));
        let iccs: Vec<String> = all.iter().map(|r| r.mv.iccs()).collect();
        let mut sorted = iccs.clone();
        sorted.sort();
        assert_eq!(iccs, sorted);
        let named = query_moves(&pos, &[mv("f8f7"), mv("f8f9")], RuleSet::Axf).unwrap();
        assert_eq!(
            named.iter().map(|r| r.word).collect::<Vec<_>>(),
            vec![RuleWord::None, RuleWord::Win]
        );
        // The query leaves the position as it was.
        assert_eq!(pos.history().len(), 3);
    }

    #[test]
    fn illegal_moves_are_errors() {
        let pos = after(D01, "h8h9 f9f8 h9h8");
        assert_eq!(
            query_move(&pos, mv("a0a1"), RuleSet::Axf),
            Err(QueryError::Illegal(mv("a0a1")))
        );
        let e = query_moves(&pos, &[mv("f8f9"), mv("e0e1")], RuleSet::Axf).unwrap_err();
        assert_eq!(e, QueryError::Illegal(mv("e0e1")));
        assert!(e.to_string().contains("not a legal move"));
    }

    #[test]
    fn words_read_from_the_mover() {
        use RuleWord as W;
        let (r, b) = (Color::Red, Color::Black);
        assert_eq!(W::of(None, r), W::None);
        assert_eq!(W::of(Some(Verdict::Draw), b), W::Draw);
        assert_eq!(W::of(Some(Verdict::RedLoses), r), W::Ban);
        assert_eq!(W::of(Some(Verdict::RedLoses), b), W::Win);
        assert_eq!(W::of(Some(Verdict::BlackLoses), b), W::Ban);
        let words = [W::None, W::Draw, W::Ban, W::Win].map(W::as_str);
        assert_eq!(words, ["none", "draw", "ban", "win"]);
    }
}
