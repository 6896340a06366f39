//! From the labels of a cycle to a verdict.
//!
//! Each side is judged on its own (principle 乙-2 of the 1982 draft, seed 003):
//! which forbidden perpetual, if any, it made. Then (乙 1–4):
//! neither forbidden → draw; one → that side must change; both → draw, except that a
//! perpetual check against any other forbidden perpetual makes the checker change, and
//! a perpetual chase of a rook held by a knight (rule 14) against a chase back makes the
//! chaser of the rook change.

use super::articles::Article::{self, Axf, Cn, CnFigure};
use super::chase::ChaseReason;
use super::labels::{Chase, MoveLabel};
use super::{CycleJudgement, RuleSet, Verdict};
use crate::types::{Color, PieceKind};

/// What one side did over the cycle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SideSummary {
    pub moves: u32,
    pub checks: u32,
    pub kills: u32,
    /// Moves that chase with a piece other than king or pawn (any victim).
    pub chase_moves: u32,
    /// Moves that check, kill or chase (the Chinese rules' 打).
    pub attacking_moves: u32,
    /// Victims chased (not by king or pawn alone) on every non-check move so far.
    pub victims_every_move: u128,
    /// Of those, rooks that could not move (held by a knight, rule 14) on every move.
    pub immobile_every_move: u128,
}

impl SideSummary {
    pub fn add(&mut self, l: &MoveLabel, rules: RuleSet) {
        let victims = if l.check {
            0
        } else {
            l.forbidden_victims(rules)
        };
        let immobile = if l.check {
            0
        } else {
            l.immobile_rook_victims()
        };
        self.add_parts(l.check, l.kill, victims, immobile);
    }

    /// Count one move: whether it checks, threatens mate, the victims (cycle ids as
    /// bits) it chases with a piece other than king or pawn, and which of those are
    /// rooks that cannot move.
    pub fn add_parts(&mut self, check: bool, kill: bool, victims: u128, immobile: u128) {
        let victims = if check { 0 } else { victims };
        let immobile = immobile & victims;
        if self.moves == 0 {
            self.victims_every_move = victims;
            self.immobile_every_move = immobile;
        } else {
            self.victims_every_move &= victims;
            self.immobile_every_move &= immobile;
        }
        self.moves += 1;
        self.checks += check as u32;
        self.kills += (kill && !check) as u32;
        self.chase_moves += (!check && victims != 0) as u32;
        self.attacking_moves += (check || kill || victims != 0) as u32;
    }

    /// Could this side still be found to make a forbidden perpetual if the cycle went on
    /// with more moves of the same kind? (Lets the verdict stop labelling a side early.)
    pub fn may_offend(&self, rules: RuleSet) -> bool {
        if self.moves == 0 || self.checks == self.moves {
            return true;
        }
        match rules {
            RuleSet::Axf => self.victims_every_move != 0,
            RuleSet::Chinese => self.attacking_moves == self.moves,
        }
    }

    /// Every move a check (长将, rule 1).
    pub fn perpetual_check(&self) -> bool {
        self.moves > 0 && self.checks == self.moves
    }

    /// The same piece chased on every move (长捉, rules 9–32), not by king or pawn alone.
    pub fn perpetual_chase_axf(&self) -> bool {
        self.moves > 0 && self.victims_every_move != 0
    }

    /// The forbidden perpetual this side made, if any.
    pub fn offence(&self, rules: RuleSet) -> Option<Offence> {
        if self.perpetual_check() {
            return Some(Offence::PerpetualCheck);
        }
        match rules {
            RuleSet::Axf => self
                .perpetual_chase_axf()
                .then_some(Offence::PerpetualChase),
            RuleSet::Chinese => {
                if self.moves == 0 || self.attacking_moves < self.moves {
                    None
                } else if self.chase_moves == self.moves {
                    Some(Offence::PerpetualChase)
                } else if self.kills == self.moves {
                    Some(Offence::PerpetualKill)
                } else {
                    Some(Offence::MixedAttack)
                }
            }
        }
    }
}

/// A forbidden perpetual.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Offence {
    /// 长将.
    PerpetualCheck,
    /// 长捉.
    PerpetualChase,
    /// 长杀 (forbidden only under the Chinese rules).
    PerpetualKill,
    /// Every move a check, kill or chase, mixed: 一将一杀, 一将一捉, 一杀一捉 (Chinese rules).
    MixedAttack,
}

impl Offence {
    pub fn chinese(self) -> &'static str {
        match self {
            Offence::PerpetualCheck => "长将",
            Offence::PerpetualChase => "长捉",
            Offence::PerpetualKill => "长杀",
            Offence::MixedAttack => "将杀捉交替（长打）",
        }
    }
}

/// Decide from the two sides' summaries.
pub fn decide(red: &SideSummary, black: &SideSummary, rules: RuleSet) -> Verdict {
    decide_with_principle(red, black, rules).0
}

/// The verdict and the principle that decided it, from the branch that decides (so
/// that the ruling cites what decided, not an inference from the verdict): 乙-1 / 24.14
/// neither offends; 乙-4 / 24.13 one does; both: 乙-2 perpetual check against another
/// offence, rule 2 both check, rule 14 the chaser of a rook held by a knight, else 乙-3
/// (2020 图3 under the Chinese rules).
pub fn decide_with_principle(
    red: &SideSummary,
    black: &SideSummary,
    rules: RuleSet,
) -> (Verdict, Article) {
    let axf = rules == RuleSet::Axf;
    let r = red.offence(rules);
    let b = black.offence(rules);
    match (r, b) {
        (None, None) => (
            Verdict::Draw,
            if axf { Article::Verdict(1) } else { Cn(14) },
        ),
        (Some(_), None) => (
            Verdict::RedLoses,
            if axf { Article::Verdict(4) } else { Cn(13) },
        ),
        (None, Some(_)) => (
            Verdict::BlackLoses,
            if axf { Article::Verdict(4) } else { Cn(13) },
        ),
        (Some(x), Some(y)) => {
            let (xc, yc) = (x == Offence::PerpetualCheck, y == Offence::PerpetualCheck);
            // Rule 14: whoever keeps chasing a rook held by a knight loses, whatever the
            // rook's side threatens meanwhile (无论马是否有根).
            let (xi, yi) = (red.immobile_every_move != 0, black.immobile_every_move != 0);
            match (xc, yc, xi, yi) {
                (true, false, _, _) => (Verdict::RedLoses, Article::Verdict(2)),
                (false, true, _, _) => (Verdict::BlackLoses, Article::Verdict(2)),
                (true, true, _, _) => (Verdict::Draw, Axf(2)),
                (false, false, true, false) => (Verdict::RedLoses, Axf(14)),
                (false, false, false, true) => (Verdict::BlackLoses, Axf(14)),
                _ => (
                    Verdict::Draw,
                    if axf {
                        Article::Verdict(3)
                    } else {
                        CnFigure(3)
                    },
                ),
            }
        }
    }
}

/// Summaries of both sides, indexed by `Color::index()`.
pub fn summarize<'a>(
    labels: impl IntoIterator<Item = &'a MoveLabel>,
    rules: RuleSet,
) -> [SideSummary; 2] {
    let mut s = [SideSummary::default(); 2];
    for l in labels {
        s[l.side.index()].add(l, rules);
    }
    s
}

/// The verdict for labelled moves.
pub fn verdict_of(sums: &[SideSummary; 2], rules: RuleSet) -> Verdict {
    decide(
        &sums[Color::Red.index()],
        &sums[Color::Black.index()],
        rules,
    )
}

/// `verdict_of` with the principle that decided it.
pub fn ruling_of(sums: &[SideSummary; 2], rules: RuleSet) -> (Verdict, Article) {
    decide_with_principle(
        &sums[Color::Red.index()],
        &sums[Color::Black.index()],
        rules,
    )
}

fn push(v: &mut Vec<Article>, a: Article) {
    if !v.contains(&a) {
        v.push(a);
    }
}

/// The articles that make side `c`'s moves an offence, or allowed, from the labels and
/// the offences of a judged cycle (`judge_cycle` stores them in
/// `CycleJudgement::side_articles`).
pub fn side_articles(j: &CycleJudgement, c: Color) -> Vec<Article> {
    let rules = j.rules;
    let axf = rules == RuleSet::Axf;
    let other = &j.sides[c.flip().index()];
    let mut v = Vec::new();
    match j.offences[c.index()] {
        Some(Offence::PerpetualCheck) => {
            if axf {
                push(&mut v, Axf(1));
                if other.perpetual_check() {
                    push(&mut v, Axf(2));
                } else if other.checks > 0 {
                    push(&mut v, Axf(3));
                }
            } else {
                push(&mut v, Cn(9));
                push(&mut v, Cn(13));
            }
        }
        Some(Offence::PerpetualChase) if axf => axf_chase_articles(j, c, &mut v),
        Some(o) => {
            push(
                &mut v,
                match o {
                    Offence::PerpetualChase => Cn(11),
                    Offence::PerpetualKill => Cn(10),
                    _ => Cn(13),
                },
            );
            push(&mut v, Cn(13));
        }
        None if axf => axf_allowed_articles(j, c, &mut v),
        None => {
            push(&mut v, Cn(14));
            for l in j.labels.iter().filter(|l| l.side == c) {
                for &a in l.articles() {
                    if matches!(a, CnFigure(14) | CnFigure(15) | CnFigure(10)) {
                        push(&mut v, a);
                    }
                }
            }
        }
    }
    v
}

/// The counted chases of side `c` on the pieces it chased on every move.
fn perpetual_chases(j: &CycleJudgement, c: Color) -> impl Iterator<Item = &Chase> {
    let victims = j.sides[c.index()].victims_every_move;
    j.labels
        .iter()
        .filter(move |l| l.side == c)
        .flat_map(|l| l.chases())
        .filter(move |ch| (victims >> ch.victim_id) & 1 == 1)
}

/// AXF: the articles of a side's perpetual chase: those of each chase of the piece
/// chased on every move; several attackers in turn (28), knights and cannons on one
/// rook (15); both sides chasing each other's chasers (17).
fn axf_chase_articles(j: &CycleJudgement, c: Color, v: &mut Vec<Article>) {
    let rules = j.rules;
    let mut attackers = 0u128;
    let mut kinds = Vec::new();
    let mut victim_kinds = Vec::new();
    for ch in perpetual_chases(j, c) {
        if ch.counts(rules) {
            attackers |= 1 << ch.attacker_id;
            kinds.push(ch.attacker.kind);
            victim_kinds.push(ch.victim.kind);
            for &a in ch.articles.as_slice() {
                push(v, a);
            }
        }
        if ch.by_king_or_pawn() {
            push(v, Axf(25));
        }
    }
    if attackers.count_ones() > 1 {
        // Rule 15: a cannon and a knight (or two knights) on one rook in turn; two
        // cannons are rule 9's.
        let on_rook = victim_kinds.iter().all(|&k| k == PieceKind::Rook);
        let knights_cannons = kinds
            .iter()
            .all(|&k| matches!(k, PieceKind::Knight | PieceKind::Cannon));
        if on_rook && knights_cannons && kinds.contains(&PieceKind::Knight) {
            push(v, Axf(15));
        }
        push(v, Axf(28));
    }
    // Rule 17: each side keeps chasing a piece that chases it back (车马循环长捉).
    if j.offences[c.flip().index()] == Some(Offence::PerpetualChase) {
        let mine = |x: Color| {
            perpetual_chases(j, x)
                .filter(|ch| ch.counts(rules))
                .fold((0u128, 0u128), |(a, t), ch| {
                    (a | 1 << ch.attacker_id, t | 1 << ch.victim_id)
                })
        };
        let ((my_att, my_vic), (their_att, their_vic)) = (mine(c), mine(c.flip()));
        if my_vic & their_att != 0 && their_vic & my_att != 0 {
            push(v, Axf(17));
        }
    }
}

/// AXF: why a side that made no forbidden perpetual is allowed: kills answered by
/// kills (5), checks mixed with chases, threats by a discovered check, mate threats or
/// idle moves (7, 8, 6), every move a kill (4), chases of different pieces (27, 10;
/// with threats by a discovered check 11, only those 33), and the exemptions its
/// moves cite (12, 19, 22, 23, 24, 30, 34, 35).
fn axf_allowed_articles(j: &CycleJudgement, c: Color, v: &mut Vec<Article>) {
    let rules = j.rules;
    let s = &j.sides[c.index()];
    let other = &j.sides[c.flip().index()];
    let mine = || j.labels.iter().filter(move |l| l.side == c);
    // 要抽吃 moves: no check and no counted chase, but a threat to win a piece by a
    // discovered check (a `Discovered` chase) or by a check first (`threat_by_check`).
    let discovered = mine()
        .filter(|l| !l.check && !l.counted_chase(rules))
        .filter(|l| l.threat_by_check || l.chases().any(|ch| ch.reason == ChaseReason::Discovered))
        .count() as u32;
    let plain_chases = s.chase_moves;
    // Rule 5: one side threatens mate on every move, the other answers each threat
    // with a threat (or a check) of its own.
    let answers = |x: &super::SideSummary, y: &super::SideSummary| {
        y.moves > 0 && y.kills == y.moves && x.kills > 0 && x.kills + x.checks == x.moves
    };
    if answers(s, other) || answers(other, s) {
        push(v, Axf(5));
    } else if s.checks > 0 && s.checks < s.moves {
        push(
            v,
            if plain_chases > 0 {
                Axf(7)
            } else if discovered > 0 {
                Axf(8)
            } else if s.kills > 0 {
                Axf(6)
            } else {
                Axf(8)
            },
        );
    } else if s.kills == s.moves && s.moves > 0 {
        push(v, Axf(4));
    } else if discovered > 0 && plain_chases > 0 && s.checks == 0 {
        push(v, Axf(11));
    } else if discovered == s.moves && s.moves > 0 {
        push(v, Axf(33));
    } else if s.chase_moves == s.moves && s.moves > 0 {
        // Chases on every move, of different pieces (rule 27; a side that also idles
        // chases nothing in turn: 乙-1 says enough). Rule 10 is rule 27's case of
        // cannons chasing two rooks.
        let cannons_on_rooks = mine().all(|l| {
            l.chases().filter(|ch| ch.counts(rules)).all(|ch| {
                (ch.attacker.kind, ch.victim.kind) == (PieceKind::Cannon, PieceKind::Rook)
            })
        });
        push(v, if cannons_on_rooks { Axf(10) } else { Axf(27) });
    }
    for l in mine() {
        for &a in l.articles() {
            let exemption = matches!(a, Axf(12) | Axf(19) | Axf(22) | Axf(23) | Axf(24));
            if exemption || matches!(a, Axf(30) | Axf(34) | Axf(35)) {
                push(v, a);
            }
        }
    }
}
