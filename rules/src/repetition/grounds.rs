//! The articles each labelling decision applies, chosen where the label is made
//! (`labels::label_move_under` stores them in `Chase::articles` and
//! `MoveLabel::articles`): why a chase counts or not (its reason, the attacker and
//! victim, a moving screen, an exchange offered with it) and what makes a move a check,
//! chase, kill, idle move or an exemption. `articles.rs` holds their texts.

use super::articles::{Article::*, Cites};
use super::chase::{value, ChaseReason};
use super::labels::{Chase, MoveLabel};
use super::RuleSet;
use crate::types::PieceKind;

/// Articles one chase can carry (AXF: reason, attacker and victim, rule 31).
pub const CHASE_CITES: usize = 6;
/// Articles one move can carry.
pub const MOVE_CITES: usize = 24;

fn one(a: super::Article) -> Cites<CHASE_CITES> {
    let mut v = Cites::default();
    v.push(a);
    v
}

/// Why one chase is (or is not) counted, under `rules`.
pub(crate) fn chase_articles(c: &Chase, l: &MoveLabel, rules: RuleSet) -> Cites<CHASE_CITES> {
    let mut v = Cites::default();
    let (a, t) = (c.attacker.kind, c.victim.kind);
    match rules {
        RuleSet::Chinese => {
            match c.attacker.kind {
                PieceKind::King => v.push(CnFigure(15)),
                PieceKind::Pawn => v.push(CnFigure(14)),
                _ => {}
            }
            v.push(Cn(3));
            match c.reason {
                ChaseReason::Joint => v.push(CnFigure(10)),
                ChaseReason::Forced => {}
                _ => v.push(Cn(15)),
            }
        }
        RuleSet::Axf => {
            match a {
                PieceKind::King => return one(Axf(23)),
                PieceKind::Pawn => return one(Axf(24)),
                _ => {}
            }
            let moved = c.from == l.mv.to();
            match c.reason {
                ChaseReason::Joint => return one(Axf(30)),
                // 要抽吃 is no chase: rule 33 (长要抽吃作和) says so for it alone; the
                // side's articles add 8 or 11 for its mix with checks or chases.
                ChaseReason::Discovered => return one(Axf(33)),
                ChaseReason::FalseRoot => v.push(Axf(29)),
                ChaseReason::Immobile => v.push(Axf(14)),
                ChaseReason::Outvalued => v.push(Principle(4)),
                ChaseReason::Unprotected | ChaseReason::Forced => v.push(Principle(3)),
            }
            match (a, t) {
                // A rook that cannot take back a rook on its own line is held there
                // (rule 22's case of rule 19).
                (PieceKind::Rook, PieceKind::Rook) => {
                    v.push(Axf(19));
                    v.push(Axf(22));
                }
                _ if a == t => v.push(Axf(19)),
                (PieceKind::Cannon, PieceKind::Rook) => {
                    v.push(Axf(9));
                    if !moved {
                        v.push(Axf(21));
                    }
                }
                (PieceKind::Cannon, _) if !moved => v.push(Axf(20)),
                (PieceKind::Knight, PieceKind::Rook) => v.push(Axf(16)),
                (PieceKind::Rook, PieceKind::Cannon) => v.push(Axf(13)),
                (PieceKind::Rook, PieceKind::Knight) => v.push(Axf(18)),
                (PieceKind::Rook, PieceKind::Pawn) => v.push(Axf(26)),
                _ => {}
            }
            if c.rook_held {
                v.push(Axf(32));
            }
            if l.exchange.is_some() && c.counts(rules) {
                v.push(Axf(31));
            }
        }
    }
    v
}

/// What makes one move a check, chase, kill, idle move or an exemption.
pub(crate) fn move_articles(l: &MoveLabel, rules: RuleSet) -> Cites<MOVE_CITES> {
    let mut v = Cites::default();
    let axf = rules == RuleSet::Axf;
    if l.check {
        v.push(if axf { Axf(1) } else { Cn(1) });
    }
    for c in l.chases() {
        for &a in c.articles.as_slice() {
            v.push(a);
        }
    }
    if l.kill && !l.check {
        v.push(if axf { Axf(4) } else { Cn(2) });
    }
    if l.exchange.is_some() {
        v.push(if axf { Axf(19) } else { Cn(4) });
    }
    if l.offer {
        v.push(if axf { Axf(35) } else { Cn(5) });
    }
    if l.block {
        v.push(if axf { Axf(34) } else { Cn(6) });
    }
    for p in l.protected_attacks() {
        if axf {
            match (p.attacker.kind, p.target.kind) {
                (PieceKind::Rook, PieceKind::Cannon) => v.push(Axf(12)),
                (PieceKind::Rook, PieceKind::Rook) => v.push(Axf(22)),
                _ => {}
            }
            if value(p.target.kind) <= value(p.attacker.kind) {
                v.push(Principle(4));
            }
        } else {
            v.push(Cn(15));
        }
    }
    if !axf && !l.check && !l.kill && !l.counted_chase(rules) {
        v.push(Cn(8));
    }
    v
}
