//! The verdict as search needs it: no labels kept, and work skipped wherever it cannot
//! change the outcome. A side stops being examined once it can no longer be found
//! guilty (a non-check move ends a perpetual check; under AXF a move that does not chase
//! any piece chased on all its earlier moves ends a perpetual chase); after a side's
//! first chase only the pieces it chased are assessed again; a check needs no chase
//! test at all. When neither side can offend any more the cycle is a draw at once.

use super::chase::{standing_threats_on, threats_on, ChaseReason};
use super::labels::{mates_by_checks, PieceIds};
use super::new_threat::{new_chase, MateGuard};
use super::tactic;
use super::verdict::{verdict_of, SideSummary};
use super::{RuleSet, Verdict};
use crate::bitboard::Bitboard;
use crate::position::Position;
use crate::types::{Color, Move, PieceKind};

/// Judge the cycle `pos.history()[start..]` (which must close a repetition).
pub(super) fn judge_from(pos: &Position, start: usize, rules: RuleSet) -> Verdict {
    let n = pos.history().len();
    let mut p = super::position_before(pos, n - start);
    let mut ids = PieceIds::new(&p);
    let mut sums = [SideSummary::default(); 2];
    let kill_depth = rules.search_kill_depth();
    for st in &pos.history()[start..n] {
        let m = st.mv;
        let side = p.side_to_move();
        let s = &mut sums[side.index()];
        if s.may_offend(rules) {
            p.make_move(m);
            let check = p.in_check();
            p.unmake_move();
            if check {
                s.add_parts(true, false, 0, 0);
            } else {
                let only = match rules {
                    RuleSet::Axf if s.moves > 0 => candidates(&p, &ids, side, s.victims_every_move),
                    _ => Bitboard::FULL,
                };
                let mut victims = 0u128;
                let mut immobile = 0u128;
                let mut kill = false;
                if only.any() {
                    // A threat a check held back stands all the same (pattern a).
                    let before = standing_threats_on(&p, side, only);
                    p.make_move(m);
                    let after = threats_on(&p, side, only);
                    let mut mate_guard = MateGuard::default();
                    for t in after.as_slice() {
                        // Chases by king or pawn never count (rules 23-24); a victim
                        // already found needs no second attacker.
                        if matches!(
                            p.piece_at(t.attacker).map(|a| a.kind),
                            Some(PieceKind::King | PieceKind::Pawn) | None
                        ) || (victims >> ids.id(t.target)) & 1 != 0
                        {
                            continue;
                        }
                        if let Some(nc) = new_chase(&mut p, m, &before, t, &mut mate_guard) {
                            // AXF: 要抽吃 is no chase (rules 8, 11, 33).
                            if !nc.reason.counts(rules) {
                                continue;
                            }
                            victims |= 1u128 << ids.id(t.target);
                            if nc.reason == ChaseReason::Immobile {
                                immobile |= 1u128 << ids.id(t.target);
                            }
                        }
                    }
                    if victims == 0 && kill_depth > 0 {
                        p.make_null_move();
                        kill = mates_by_checks(&mut p, kill_depth);
                        p.unmake_move();
                    }
                    p.unmake_move();
                }
                if rules == RuleSet::Chinese && victims == 0 && !kill {
                    victims = forced_victims(&mut p, m, &ids);
                }
                s.add_parts(false, kill, victims, immobile);
            }
            if !sums[0].may_offend(rules) && !sums[1].may_offend(rules) {
                return Verdict::Draw;
            }
        }
        ids.play(m);
        p.make_move(m);
    }
    verdict_of(&sums, rules)
}

/// Points of the enemy pieces whose cycle ids are in `victims`.
fn candidates(p: &Position, ids: &PieceIds, side: Color, victims: u128) -> Bitboard {
    let mut b = Bitboard::EMPTY;
    for s in p.pieces_of(side.flip()) {
        if (victims >> ids.id(s)) & 1 != 0 {
            b |= Bitboard::from_square(s);
        }
    }
    b
}

/// Cycle ids of the pieces the move `m` newly threatens to win by force (checks, then a
/// capture), the first check given by a piece other than king or pawn (Chinese rules).
fn forced_victims(p: &mut Position, m: Move, ids: &PieceIds) -> u128 {
    let (wins, n) = tactic::new_forced_wins(p, m);
    let mut victims = 0u128;
    for w in &wins[..n] {
        let from = if w.checker == m.to() {
            m.from()
        } else {
            w.checker
        };
        if !matches!(
            p.piece_at(from).map(|a| a.kind),
            Some(PieceKind::King | PieceKind::Pawn) | None
        ) {
            victims |= 1u128 << ids.id(w.victim);
        }
    }
    victims
}
