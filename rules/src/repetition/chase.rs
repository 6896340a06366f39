//! Threats to win a piece (捉) and offers of exchange (兑), as the AXF rules define them.
//!
//! Everything here works on one board by adjusting occupancy words, never by
//! playing moves, so it allocates nothing: a capture is tested for legality by
//! asking whether the capturer's king would be attacked, and a "root" (根, a
//! protector) is real only if the protector could legally take back after the
//! capture. That makes every kind of false root (假根) fall out of one test: a
//! pinned protector, a king whose recapture walks into an attack or faces the
//! other king, a cannon whose screen was the capturer itself.

use super::RuleSet;
use crate::attacks;
use crate::bitboard::{file_major_bit, Bitboard};
use crate::position::Position;
use crate::types::{Color, Piece, PieceKind, Square};

/// Material value in the sense of the rules' exceptions: a protected piece is still
/// chased when its attacker is worth less (knight or cannon on a rook; advisor,
/// elephant or pawn on a rook, knight or cannon).
#[inline(always)]
pub(crate) const fn value(k: PieceKind) -> u8 {
    match k {
        PieceKind::Rook => 9,
        PieceKind::Knight | PieceKind::Cannon => 4,
        PieceKind::Advisor | PieceKind::Elephant | PieceKind::Pawn => 2,
        PieceKind::King => 0,
    }
}

/// Why an attacked piece counts as chased.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ChaseReason {
    /// No piece protects it (无根).
    Unprotected,
    /// Protectors exist but none can legally take back (假根, rule 29); one barred only
    /// by the check the capture uncovers is `Discovered` instead.
    FalseRoot,
    /// Protected, but worth more than its attacker (rules 9, 15, 16, 32; principle 4).
    Outvalued,
    /// A rook that cannot move at all (rule 14): chased whatever protects it.
    Immobile,
    /// Not attacked, but won by force: a check, then (after any reply) a capture,
    /// with at most `TACTIC_DEPTH` checks (Chinese 2020 图2 卧槽 then the rook, 图3
    /// 连续将军得车). Counted under the Chinese rules only (AXF: 要抽吃 is idle).
    Forced,
    /// A false root that fails only because the capture uncovers a check by another
    /// piece of the mover: the opponent must answer the check, so no protector may
    /// take back (D15: the cannon takes the advisor over the king, uncovering the
    /// rook's check). That is a threat to win material by a check, 要抽吃, which AXF
    /// rules 8, 11 and 33 allow (一将一要抽吃, 一捉一要抽吃, 长要抽吃 are draws), not
    /// the false root of rule 29 (a root 受牵制, pinned before the capture): not
    /// counted under AXF. The Chinese rules count it (24.3: the capture wins the piece
    /// at once). Never found by `assess`; `new_threat::new_chase` tells it from
    /// `FalseRoot`, for the search and the labels alike.
    Discovered,
    /// Attacked by two or more pieces at once (劫) while one true root protects it:
    /// labelled 捉 (2020 图10's 车炮联合捉子) but never counted toward a perpetual
    /// chase (AXF rule 30: 真根子不作长捉论).
    Joint,
}

impl ChaseReason {
    /// Can a chase for this reason make a perpetual chase forbidden under `rules`? Not
    /// a joint attack on a truly protected piece (AXF rule 30, 2020 图10); a forced win
    /// by checks and a threat to win by a discovered check only under the Chinese rules
    /// (AXF: 要抽吃, rules 8, 11, 33). The search's verdict and the labels both ask this.
    #[inline]
    pub fn counts(self, rules: RuleSet) -> bool {
        match self {
            ChaseReason::Joint => false,
            ChaseReason::Forced | ChaseReason::Discovered => rules == RuleSet::Chinese,
            _ => true,
        }
    }

    pub fn chinese(self) -> &'static str {
        match self {
            ChaseReason::Unprotected => "无根",
            ChaseReason::FalseRoot => "假根",
            ChaseReason::Outvalued => "有根，子力价值高",
            ChaseReason::Immobile => "被牵制不能动",
            ChaseReason::Forced => "伏将军得子",
            ChaseReason::Discovered => "要抽吃（抽将得子）",
            ChaseReason::Joint => "多子联合捉真根子，不作长捉论",
        }
    }
}

/// What one attack amounts to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Attack {
    Chase(ChaseReason),
    /// A legal capture that wins nothing (a protected piece of equal or lower value).
    Plain,
    /// A like piece that can take back at once: an offer of exchange (兑, rule 19).
    Exchange,
}

/// One attack of `attacker` (of side `by`) on `target`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Threat {
    pub attacker: Square,
    pub target: Square,
    pub what: Attack,
}

pub const MAX_THREATS: usize = 64;

/// The threats of one side, in a fixed array.
#[derive(Clone, Copy)]
pub(crate) struct Threats {
    pub list: [Threat; MAX_THREATS],
    pub len: usize,
    /// More threats than `MAX_THREATS` were found; the rest were dropped.
    pub overflow: bool,
}

impl Threats {
    #[inline]
    pub fn as_slice(&self) -> &[Threat] {
        &self.list[..self.len]
    }
    #[inline]
    fn push(&mut self, t: Threat) {
        if self.len < MAX_THREATS {
            self.list[self.len] = t;
            self.len += 1;
        } else {
            self.overflow = true;
        }
    }
    /// The attack of `attacker` on `target`, if it has one.
    #[inline]
    pub fn get(&self, attacker: Square, target: Square) -> Option<Attack> {
        self.as_slice()
            .iter()
            .find(|t| t.attacker == attacker && t.target == target)
            .map(|t| t.what)
    }
}

#[inline(always)]
fn sq_bb(s: Square) -> Bitboard {
    Bitboard::from_square(s)
}

/// Pieces of `by` that could move to `s` (capture there), on the given occupancy,
/// restricted to `alive`. Kings only from adjacent palace points (the flying-general
/// line attacks only a king, never a piece).
#[inline]
pub(crate) fn attackers_on(
    pos: &Position,
    s: Square,
    by: Color,
    occ: Bitboard,
    byf: u128,
    alive: Bitboard,
) -> Bitboard {
    let a = pos.attackers_with(s, by, occ, byf, alive);
    let kings = pos.pieces_of_kind(PieceKind::King);
    (a & !kings) | (attacks::king(s) & kings & pos.pieces_of(by) & alive)
}

/// Can the piece of `side` on `from` legally take the piece on `to`?
/// (`from` must attack `to`; only the king's safety is tested.) Attacks by the pieces
/// in `suspended` are ignored: they are the checkers of a check `side` must answer
/// first, which bar a capture only until the check is answered.
#[inline]
pub(crate) fn capture_is_legal(
    pos: &Position,
    side: Color,
    from: Square,
    to: Square,
    suspended: Bitboard,
) -> bool {
    let occ = pos.occupied() ^ sq_bb(from);
    let byf = pos.occ_by_file() ^ file_major_bit(from);
    let ksq = if from == pos.king_square(side) {
        to
    } else {
        pos.king_square(side)
    };
    pos.king_danger(ksq, side.flip(), occ, byf, !sq_bb(to) & !suspended)
        .is_empty()
}

/// The checkers that bar `by`'s captures for now: those giving check when `by` is to
/// move and in check (a threat they hold back stands on the board all the same).
pub(crate) fn suspending_checkers(pos: &Position, by: Color) -> Bitboard {
    if pos.side_to_move() == by {
        pos.checkers()
    } else {
        Bitboard::EMPTY
    }
}

/// Does the piece on `from` attack `to` (could capture there, ignoring king safety)?
#[inline]
pub(crate) fn attacks_point(pos: &Position, from: Square, to: Square) -> bool {
    match pos.piece_at(from) {
        Some(p) => attackers_on(
            pos,
            to,
            p.color,
            pos.occupied(),
            pos.occ_by_file(),
            sq_bb(from),
        )
        .has(from),
        None => false,
    }
}

/// After `a` (side `by`) takes on `t`, can the owner of `t` legally take back?
/// Returns (some protector exists at all, some protector can legally take back).
fn protection_after_capture(pos: &Position, by: Color, a: Square, t: Square) -> (bool, bool) {
    protection_ignoring(pos, by, a, t, Bitboard::EMPTY)
}

/// After `a` (side `by`) takes on `t`, could some protector take back if the pieces
/// of `by` on `ignored` did not attack (the checkers the capture uncovers)? Tells a
/// root that fails only because the capture checks from one that is pinned anyway.
pub(crate) fn recapture_legal_without(
    pos: &Position,
    by: Color,
    a: Square,
    t: Square,
    ignored: Bitboard,
) -> bool {
    protection_ignoring(pos, by, a, t, ignored).1
}

fn protection_ignoring(
    pos: &Position,
    by: Color,
    a: Square,
    t: Square,
    ignored: Bitboard,
) -> (bool, bool) {
    let them = by.flip();
    let occ = pos.occupied() ^ sq_bb(a);
    let byf = pos.occ_by_file() ^ file_major_bit(a);
    let defenders = attackers_on(pos, t, them, occ, byf, pos.pieces_of(them) & !sq_bb(t));
    if defenders.is_empty() {
        return (false, false);
    }
    let their_king = pos.king_square(them);
    for d in defenders {
        let occ2 = occ ^ sq_bb(d);
        let byf2 = byf ^ file_major_bit(d);
        let ksq = if d == their_king { t } else { their_king };
        // The capturer on `t` is gone; it was registered on `a`, which `alive` drops.
        if pos
            .king_danger(ksq, by, occ2, byf2, !sq_bb(a) & !ignored)
            .is_empty()
        {
            return (true, true);
        }
    }
    (true, false)
}

/// After `a` (side `by`) takes on `t`, how many pieces of the owner of `t` could
/// legally take back (its true roots, 真根)?
pub(crate) fn true_roots(pos: &Position, by: Color, a: Square, t: Square) -> u32 {
    let them = by.flip();
    let occ = pos.occupied() ^ sq_bb(a);
    let byf = pos.occ_by_file() ^ file_major_bit(a);
    let defenders = attackers_on(pos, t, them, occ, byf, pos.pieces_of(them) & !sq_bb(t));
    let their_king = pos.king_square(them);
    let mut n = 0;
    for d in defenders {
        let ksq = if d == their_king { t } else { their_king };
        if pos
            .king_danger(ksq, by, occ ^ sq_bb(d), byf ^ file_major_bit(d), !sq_bb(a))
            .is_empty()
        {
            n += 1;
        }
    }
    n
}

/// If the piece on `s` stands on the leg of an enemy knight that attacks its own king
/// (so that it cannot move away, rule 14), that knight's point.
pub(crate) fn knight_pin_of(pos: &Position, s: Square) -> Option<Square> {
    let side = pos.piece_at(s)?.color;
    let ksq = pos.king_square(side);
    let knights = pos.pieces(side.flip(), PieceKind::Knight)
        & attacks::knight_attackers(ksq, Bitboard::EMPTY);
    knights
        .into_iter()
        .find(|&n| attacks::knight_leg(n, ksq) == s)
}

/// Can the rook on `t` make any legal move at all?
fn rook_can_move(pos: &Position, t: Square) -> bool {
    let side = match pos.piece_at(t) {
        Some(p) => p.color,
        None => return true,
    };
    let occ = pos.occupied();
    let byf = pos.occ_by_file();
    let ksq = pos.king_square(side);
    for to in attacks::rook(t, occ, byf) & !pos.pieces_of(side) {
        let to_bb = sq_bb(to);
        let occ2 = (occ ^ sq_bb(t)) | to_bb;
        let byf2 = (byf ^ file_major_bit(t)) | file_major_bit(to);
        if pos
            .king_danger(ksq, side.flip(), occ2, byf2, !to_bb)
            .is_empty()
        {
            return true;
        }
    }
    false
}

/// What the attack of the piece on `a` (side `by`) on the enemy piece on `t` amounts to,
/// or `None` when it threatens nothing in the sense of the rules.
pub(crate) fn assess(pos: &Position, by: Color, a: Square, t: Square) -> Option<Attack> {
    assess_with(pos, by, a, t, Bitboard::EMPTY)
}

/// `assess`, with the attacks of `suspended` (checkers `by` must answer first) ignored
/// when testing that `by`'s capture is legal.
pub(crate) fn assess_with(
    pos: &Position,
    by: Color,
    a: Square,
    t: Square,
    suspended: Bitboard,
) -> Option<Attack> {
    let (attacker, target) = chaseable(pos, by, a, t, suspended)?;
    // Like pieces that can take each other: an offer of exchange (rule 19).
    if attacker.kind == target.kind
        && attacks_point(pos, t, a)
        && capture_is_legal(pos, target.color, t, a, Bitboard::EMPTY)
    {
        return Some(Attack::Exchange);
    }
    Some(
        match capture_gain(pos, by, a, t, attacker.kind, target.kind) {
            Some(reason) => Attack::Chase(reason),
            None => Attack::Plain,
        },
    )
}

/// Why the legal capture `a`×`t` wins material, or `None` when it does not: the part of
/// `assess` after the exchange rule.
fn capture_gain(
    pos: &Position,
    by: Color,
    a: Square,
    t: Square,
    attacker: PieceKind,
    target: PieceKind,
) -> Option<ChaseReason> {
    if target == PieceKind::Rook && (knight_pin_of(pos, t).is_some() || !rook_can_move(pos, t)) {
        return Some(ChaseReason::Immobile);
    }
    match protection_after_capture(pos, by, a, t) {
        (false, _) => Some(ChaseReason::Unprotected),
        (true, false) => Some(ChaseReason::FalseRoot),
        (true, true) if value(target) > value(attacker) => Some(ChaseReason::Outvalued),
        _ => None,
    }
}

/// With `by` to move: does taking the piece on `t` with the piece on `a` win material,
/// and why? Like `assess`, but a like piece that could take back first does not make
/// it an offer of exchange: it is `by`'s move now (the end of a forcing line).
pub(crate) fn wins_by_capture(
    pos: &Position,
    by: Color,
    a: Square,
    t: Square,
    suspended: Bitboard,
) -> Option<ChaseReason> {
    let (attacker, target) = chaseable(pos, by, a, t, suspended)?;
    capture_gain(pos, by, a, t, attacker.kind, target.kind)
}

/// The attacker and target when `by`'s piece on `a` can legally take an enemy piece on
/// `t` that the rules let be chased: not the king, and a pawn only once it has crossed
/// the river (rule 20).
fn chaseable(
    pos: &Position,
    by: Color,
    a: Square,
    t: Square,
    suspended: Bitboard,
) -> Option<(Piece, Piece)> {
    let attacker = pos.piece_at(a)?;
    let target = pos.piece_at(t)?;
    if target.kind == PieceKind::King || attacker.color != by || target.color == by {
        return None;
    }
    if target.kind == PieceKind::Pawn && t.relative_rank(target.color) < 5 {
        return None;
    }
    if !capture_is_legal(pos, by, a, t, suspended) {
        return None;
    }
    Some((attacker, target))
}

/// All threats of side `by` against the other side's pieces on this board.
pub(crate) fn threats(pos: &Position, by: Color) -> Threats {
    threats_on(pos, by, Bitboard::FULL)
}

/// Threats of side `by` against the other side's pieces on the points `only`.
pub(crate) fn threats_on(pos: &Position, by: Color, only: Bitboard) -> Threats {
    threats_on_with(pos, by, only, Bitboard::EMPTY)
}

/// The threats that stand on the board for `by`, to move: when `by` is in check, a
/// capture barred only by that check still stands (it is not created by the move
/// that answers the check). What a move's threats are compared with to find the new
/// ones (a chase must be created by the move).
pub(crate) fn standing_threats_on(pos: &Position, by: Color, only: Bitboard) -> Threats {
    threats_on_with(pos, by, only, suspending_checkers(pos, by))
}

fn threats_on_with(pos: &Position, by: Color, only: Bitboard, suspended: Bitboard) -> Threats {
    let mut out = Threats {
        list: [Threat {
            attacker: Square(0),
            target: Square(0),
            what: Attack::Exchange,
        }; MAX_THREATS],
        len: 0,
        overflow: false,
    };
    let them = by.flip();
    let occ = pos.occupied();
    let byf = pos.occ_by_file();
    let targets = pos.pieces_of(them) & !pos.pieces(them, PieceKind::King) & only;
    for t in targets {
        for a in attackers_on(pos, t, by, occ, byf, Bitboard::FULL) {
            if let Some(what) = assess_with(pos, by, a, t, suspended) {
                out.push(Threat {
                    attacker: a,
                    target: t,
                    what,
                });
            }
        }
    }
    out
}
