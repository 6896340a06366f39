//! From the labels of a cycle to a verdict.
//!
//! Each side is judged on its own (principle 乙-2 of the 1982 draft, seed 003):
//! which forbidden perpetual, if any, it made. Then (乙 1–4):
//! neither forbidden → draw; one → that side must change; both → draw, except that a
//! perpetual check against any other forbidden perpetual makes the checker change, and
//! a perpetual chase of a rook held by a knight (rule 14) against a chase back makes the
//! chaser of the rook change.

use super::articles::Article::{self, Axf, Cn, CnFigure};
use super::labels::MoveLabel;
use super::{RuleSet, Verdict};
use crate::types::Color;

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
