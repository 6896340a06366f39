//! Repetition rules (棋例): move labels, perpetual-chase detection, verdicts under the
//! AXF rules (default) and the Chinese 2020 rules, and the natural move limit.
//!
//! CONTRACT used by search (keep these names and meanings): `RuleSet`, `Verdict`,
//! `NaturalLimit`, `find_repetition`, `judge_repetition`, `natural_limit_reached`.
//!
//! Files: `chase.rs` (what an attack amounts to: 捉 / 兑, protection, 假根),
//! `labels.rs` (将 杀 捉 兑 献 拦 闲 for one move; 劫, joint attacks), `new_threat.rs` (the
//! new-threat filter the labels and the search's verdict `fast.rs` share), `tactic.rs` (a
//! chase by a forcing check threat, Chinese rules), `grounds.rs` (the articles a chase
//! and a move label carry), `verdict.rs` (per-side offences and their articles, the
//! verdict and its principle), `articles.rs` (the articles' numbers and texts),
//! `natural.rs` (自然限着), `query.rs` (the per-move rule query: would a
//! move complete a cycle, and is it `none`/`draw`/`ban`/`win` for the mover).
//! docs/RULES.md maps each rule to the code.

pub mod articles;
mod chase;
mod fast;
mod grounds;
mod labels;
mod natural;
mod new_threat;
pub mod query;
mod tactic;
mod verdict;

pub use articles::{basis, Article, Basis, Cites, Lang};
pub use chase::ChaseReason;
pub use chase::MAX_THREATS;
pub use grounds::{CHASE_CITES, MOVE_CITES};
pub use labels::{
    label_move, label_move_under, limit, mates_by_checks, Chase, LabelKind, MoveLabel, PieceIds,
    ProtectedAttack, MAX_CHASES,
};
pub use natural::{counted_plies, CheckCounting};
pub use new_threat::capture_allows_mate;
pub use query::{
    article_label, deciding_articles, format_ruling, query_all, query_move, query_moves,
    MoveRuling, QueryError, RuleWord,
};
pub use tactic::{MAX_FORCED, TACTIC_DEPTH};
pub use verdict::{
    decide, decide_with_principle, ruling_of, summarize, verdict_of, Offence, SideSummary,
};

use crate::position::Position;
use crate::types::{Color, Move};
use std::fmt;

/// Checking moves searched for a mate threat (杀) when kills matter.
pub const KILL_DEPTH: u32 = 4;

/// Which rule book decides repetitions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum RuleSet {
    /// Asian Xiangqi Federation 棋例 (the default).
    #[default]
    Axf,
    /// Chinese Xiangqi Association rules, 2020 (中国象棋竞赛规则).
    Chinese,
}

impl RuleSet {
    /// How deep (in the mover's checking moves) a mate threat is looked for when
    /// judging: AXF never forbids a kill (rules 4–6), so it skips the search; the
    /// Chinese rules forbid 长杀 and count a forced mate by checks as a kill (杀), up
    /// to four checking moves (seed 003 图五's 兵四进一… line is four).
    pub fn search_kill_depth(self) -> u32 {
        match self {
            RuleSet::Axf => 0,
            RuleSet::Chinese => KILL_DEPTH,
        }
    }
}

/// Outcome of a repeated cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Verdict {
    Draw,
    /// Red made a forbidden perpetual: Red must change, and loses if it doesn't.
    RedLoses,
    BlackLoses,
}

impl Verdict {
    /// The side that must change, if any.
    pub fn offender(self) -> Option<Color> {
        match self {
            Verdict::Draw => None,
            Verdict::RedLoses => Some(Color::Red),
            Verdict::BlackLoses => Some(Color::Black),
        }
    }

    /// `draw`, `red_loses`, `black_loses`.
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Draw => "draw",
            Verdict::RedLoses => "red_loses",
            Verdict::BlackLoses => "black_loses",
        }
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The natural move limit (自然限着).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NaturalLimit {
    /// Full moves (each side one ply) without a capture that make a draw.
    pub moves: u32,
    /// How checks count (all, or each side's first n only).
    pub checks: CheckCounting,
}

impl Default for NaturalLimit {
    fn default() -> Self {
        NaturalLimit {
            moves: 60,
            checks: CheckCounting::All,
        }
    }
}

impl NaturalLimit {
    /// The AXF book: 50 moves, at most 10 checks of a side count.
    pub fn axf_book() -> NaturalLimit {
        NaturalLimit {
            moves: 50,
            checks: CheckCounting::AtMost(10),
        }
    }
    /// The Chinese 2020 fast-play rules: 50 moves, checks count only 8.
    pub fn chinese_fast() -> NaturalLimit {
        NaturalLimit {
            moves: 50,
            checks: CheckCounting::AtMost(8),
        }
    }
}

/// If the current position (same placement and side to move) occurred earlier
/// since the last capture, the ply index in `pos.history()` where the most recent
/// earlier occurrence stood; the cycle is `history()[start..]`. A null move (search's
/// pass) ends the look-back like a capture: a cycle through a pass is no repetition.
pub fn find_repetition(pos: &Position) -> Option<usize> {
    let h = pos.history();
    let n = h.len();
    let reach = (pos.plies_since_capture() as usize).min(n);
    let mut d = 1;
    while d <= reach {
        let st = &h[n - d];
        if st.mv.is_null() {
            return None;
        }
        if d >= 4 && d % 2 == 0 && st.key == pos.key() {
            return Some(n - d);
        }
        d += 1;
    }
    None
}

/// Would making `m` repeat a position, as `find_repetition` would find it after
/// the move? Read from the history without making the move (a proof search asks
/// it of every move it weighs).
pub fn would_repeat(pos: &Position, m: Move) -> bool {
    if pos.piece_at(m.to()).is_some() {
        return false;
    }
    let h = pos.history();
    let len = h.len();
    let reach = (pos.plies_since_capture() as usize + 1).min(len + 1);
    let key = pos.key_after(m);
    // Distance 1 is `m` itself; distance d ≥ 2 is the state d − 1 plies back.
    for d in 2..=reach {
        let st = &h[len + 1 - d];
        if st.mv.is_null() {
            return false;
        }
        if d >= 4 && d % 2 == 0 && st.key == key {
            return true;
        }
    }
    false
}

/// Verdict of the repetition that the last move completed, if it completed one.
/// Decides the cycle from the earlier occurrence to now on a copy of the position
/// (one copy is the only allocation), skipping work that cannot change the verdict.
pub fn judge_repetition(pos: &Position, rules: RuleSet) -> Option<Verdict> {
    let start = find_repetition(pos)?;
    Some(fast::judge_from(pos, start, rules))
}

/// `pos` as it stood `plies` moves ago (at most as far back as its history goes).
pub(crate) fn position_before(pos: &Position, plies: usize) -> Position {
    let mut p = pos.clone();
    for _ in 0..plies.min(pos.history().len()) {
        p.unmake_move();
    }
    p
}

/// The same verdict from full labels of every move (what `judge_cycle` uses); kept
/// for tests that check the fast path against it.
pub fn judge_repetition_full(pos: &Position, rules: RuleSet) -> Option<Verdict> {
    let start = find_repetition(pos)?;
    let n = pos.history().len();
    let mut p = position_before(pos, n - start);
    let mut ids = PieceIds::new(&p);
    let mut sums = [SideSummary::default(); 2];
    let kill_depth = rules.search_kill_depth();
    for st in &pos.history()[start..n] {
        let l = label_move_under(&mut p, st.mv, &ids, kill_depth, rules);
        sums[l.side.index()].add(&l, rules);
        ids.play(st.mv);
        p.make_move(st.mv);
    }
    Some(verdict_of(&sums, rules))
}

/// Has the natural move limit been reached (a draw unless the side to move is mated)?
pub fn natural_limit_reached(pos: &Position, limit: &NaturalLimit) -> bool {
    natural::reached(pos, limit)
}

/// Natural-limit outcome with the mate rule applied: true when the game is drawn by the
/// limit, false when it is not reached or the side to move is mated on the last move.
pub fn natural_limit_draw(pos: &Position, limit: &NaturalLimit) -> bool {
    natural_limit_reached(pos, limit) && pos.has_legal_move()
}

/// Why a cycle could not be judged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CycleError {
    Empty,
    /// The move at this index (0-based) is not legal where it is played.
    Illegal(usize, Move),
    /// A capture at this index: a cycle has none.
    Capture(usize, Move),
    /// The final position does not repeat the first.
    NotARepetition,
}

impl fmt::Display for CycleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CycleError::Empty => write!(f, "no moves given"),
            CycleError::Illegal(i, m) => write!(f, "move {} ({m}) is not legal there", i + 1),
            CycleError::Capture(i, m) => {
                write!(
                    f,
                    "move {} ({m}) captures: a repetition cycle has no capture",
                    i + 1
                )
            }
            CycleError::NotARepetition => write!(
                f,
                "the moves do not return to the first position (no repetition to judge)"
            ),
        }
    }
}

impl std::error::Error for CycleError {}

/// A judged cycle: each move's label, each side's summary, offences and the verdict.
#[derive(Clone, Debug)]
pub struct CycleJudgement {
    pub rules: RuleSet,
    pub labels: Vec<MoveLabel>,
    pub sides: [SideSummary; 2],
    pub offences: [Option<Offence>; 2],
    pub verdict: Verdict,
    /// The principle that decided the verdict (`decide_with_principle`).
    pub principle: Article,
    /// For each side (`Color::index`): the articles that make its moves an offence,
    /// or allowed (`verdict::side_articles`).
    pub side_articles: [Vec<Article>; 2],
}

/// Judge the cycle `moves` played from `start`; the final position must repeat `start`.
/// `kill_depth` as in `label_move` (1 = literal mate threats; more finds 连将杀).
pub fn judge_cycle(
    start: &Position,
    moves: &[Move],
    rules: RuleSet,
    kill_depth: u32,
) -> Result<CycleJudgement, CycleError> {
    if moves.is_empty() {
        return Err(CycleError::Empty);
    }
    let mut p = start.clone();
    let mut ids = PieceIds::new(&p);
    let mut labels = Vec::with_capacity(moves.len());
    for (i, &m) in moves.iter().enumerate() {
        if !p.is_legal(m) {
            return Err(CycleError::Illegal(i, m));
        }
        if p.piece_at(m.to()).is_some() {
            return Err(CycleError::Capture(i, m));
        }
        labels.push(label_move_under(&mut p, m, &ids, kill_depth, rules));
        ids.play(m);
        p.make_move(m);
    }
    if p != *start {
        return Err(CycleError::NotARepetition);
    }
    let sides = summarize(&labels, rules);
    let (verdict, principle) = ruling_of(&sides, rules);
    let mut j = CycleJudgement {
        rules,
        offences: [sides[0].offence(rules), sides[1].offence(rules)],
        verdict,
        principle,
        side_articles: [Vec::new(), Vec::new()],
        labels,
        sides,
    };
    j.side_articles = [Color::Red, Color::Black].map(|c| verdict::side_articles(&j, c));
    Ok(j)
}
