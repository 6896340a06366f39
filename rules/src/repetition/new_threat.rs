//! The new-threat filter (AXF: 捉 is a threat the move creates), one for the search's
//! verdict (`fast.rs`) and the labels (`labels.rs`): `new_chase` asks of one threat after
//! a move whether the move created it, and `MateGuard` whether taking would let the
//! opponent mate at once (then the capture wins nothing); it also tells a threat to win
//! by a discovered check (要抽吃, `discovered`) from a false root, so that the verdict
//! and the ruling count the same chases.

use super::chase::{self, Attack, ChaseReason};
use super::labels::mates_by_checks;
use crate::bitboard::Bitboard;
use crate::position::Position;
use crate::types::{Move, Square};

/// `FalseRoot` becomes `Discovered` (要抽吃) when the capture uncovers a check by
/// another piece of the mover (one that did not check before the capture) and that
/// check is all that bars the recapture: with the uncovered checkers ignored, some
/// protector could legally take back (AXF D15: the cannon takes the advisor with the
/// king as screen, uncovering the rook's check). A root pinned anyway stays a false
/// root (rule 29: 其根受牵制), whatever the capture uncovers. `pos` is after the move,
/// the opponent to move; it is restored.
fn discovered(pos: &mut Position, t: &chase::Threat, reason: ChaseReason) -> ChaseReason {
    if reason != ChaseReason::FalseRoot {
        return reason;
    }
    // A check the move gave already is not uncovered by the capture.
    let standing = pos.checkers();
    let mover = pos.side_to_move().flip();
    pos.make_null_move();
    pos.make_move(Move::new(t.attacker, t.target));
    let uncovered = pos.checkers() & !Bitboard::from_square(t.target) & !standing;
    pos.unmake_move();
    pos.unmake_move();
    if uncovered.any()
        && chase::recapture_legal_without(pos, mover, t.attacker, t.target, uncovered)
    {
        ChaseReason::Discovered
    } else {
        reason
    }
}

/// Where the piece standing on `now` after the move `m` stood before it.
#[inline]
pub(crate) fn attacker_before(m: Move, now: Square) -> Square {
    if now == m.to() {
        m.from()
    } else {
        now
    }
}

/// A chase the move created, as `new_chase` finds it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct NewChase {
    pub reason: ChaseReason,
    /// The attacker attacked the victim before the move without winning it: the move
    /// took away its protection (断根).
    pub root_cut: bool,
}

/// The new-threat filter, one for the search's verdict (`fast.rs`) and the labels: is
/// the threat `t` of the mover after its move `m` (`pos` after the move) a chase the
/// move created? It must be a chase, the same attacker must not have had a chase on
/// the same victim before the move (`before`: the standing threats, `chase::
/// standing_threats_on`: AXF 捉 is a new threat), and taking must not let the
/// opponent mate at once (`MateGuard`). Its reason is `assess`'s, with a false root
/// that only the uncovered check makes told apart (`discovered`); whether it counts is
/// `ChaseReason::counts`. A caller drops the threats it has no use for before asking,
/// so that the costly mate test is not made for them.
#[inline]
pub(crate) fn new_chase(
    pos: &mut Position,
    m: Move,
    before: &chase::Threats,
    t: &chase::Threat,
    guard: &mut MateGuard,
) -> Option<NewChase> {
    let Attack::Chase(reason) = t.what else {
        return None;
    };
    let old = before.get(attacker_before(m, t.attacker), t.target);
    if matches!(old, Some(Attack::Chase(_))) || guard.refutes(pos, t.attacker, t.target) {
        return None;
    }
    Some(NewChase {
        reason: discovered(pos, t, reason),
        root_cut: old.is_some(),
    })
}

/// After the mover's move (the opponent to move in `pos`): if the mover took on
/// `target` with the piece on `attacker`, could the opponent mate at once (and not
/// otherwise)? Then the
/// capture wins nothing and the attack is no chase (2020 图7: a rook that cannot leave
/// its line). `pos` is restored.
pub fn capture_allows_mate(pos: &mut Position, attacker: Square, target: Square) -> bool {
    // A mate the opponent has anyway is not caused by the capture.
    MateGuard::default().refutes(pos, attacker, target)
}

/// Asks `capture_allows_mate` for several captures after one move, finding out at most
/// once whether the opponent could mate anyway.
#[derive(Default)]
pub(crate) struct MateGuard {
    mate_anyway: Option<bool>,
}

impl MateGuard {
    /// Would taking on `target` with `attacker` let the opponent mate (a chase refuted)?
    pub(crate) fn refutes(&mut self, pos: &mut Position, attacker: Square, target: Square) -> bool {
        // The capture rarely opens a mate: ask that first, and the costlier "anyway"
        // question only then.
        if !capture_opens_mate(pos, attacker, target) {
            return false;
        }
        let anyway = match self.mate_anyway {
            Some(m) => m,
            None => *self.mate_anyway.insert(mates_by_checks(pos, 1)),
        };
        !anyway
    }
}

/// `capture_allows_mate` without the test for a mate the opponent has anyway.
pub(crate) fn capture_opens_mate(pos: &mut Position, attacker: Square, target: Square) -> bool {
    pos.make_null_move();
    pos.make_move(Move::new(attacker, target));
    let mate = mates_by_checks(pos, 1);
    pos.unmake_move();
    pos.unmake_move();
    mate
}
