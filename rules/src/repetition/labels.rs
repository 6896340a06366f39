//! What each move of a cycle does, in the words of the rules: 将 check, 杀 kill
//! (threatens mate next move), 捉 chase, 兑 offer of exchange, 献 offer of a piece,
//! 拦 block, 闲 idle.
//!
//! A move chases only with threats it creates (AXF: 捉 is a new threat): the threats
//! of the mover after the move, minus those the same attacker already had before it.
//! So a chase by the moved piece, by a discovered line (a cannon's moving screen,
//! rules 20–21), or by cutting a root (断根) all count, while an attack that the
//! opponent walked into does not.

use super::articles::{Article, Cites};
use super::chase::{self, Attack, ChaseReason};
use super::grounds::{self, CHASE_CITES, MOVE_CITES};
use super::new_threat::{attacker_before, new_chase, MateGuard};
use super::tactic;
use super::RuleSet;
use crate::attacks;
use crate::bitboard::Bitboard;
use crate::position::Position;
use crate::types::{Color, Move, Piece, PieceKind, Square};

/// One piece chased by one attacker on one move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Chase {
    pub attacker: Piece,
    /// Where the attacker stands after the move.
    pub from: Square,
    pub victim: Piece,
    pub at: Square,
    /// The victim's identity through the cycle: its point at the start of the cycle, plus one.
    pub victim_id: u8,
    /// The attacker's identity through the cycle (as `victim_id`).
    pub attacker_id: u8,
    pub reason: ChaseReason,
    /// The attacker already attacked the victim before the move, and the move only
    /// took away its protection (断根): a chase in both rule sets (2020 图3; the AXF
    /// rule-book appendix case of a chase by blocking a root).
    pub root_cut: bool,
    /// A knight or cannon chases a rook that attacks a rook of the chaser's, and that
    /// rook cannot take it back (held on its line, with its king, by the chased rook and
    /// a cannon): still a chase (AXF rule 32).
    pub rook_held: bool,
    /// Why it is (or is not) counted under the rules it was labelled under: the
    /// articles the labelling applied (`grounds::chase_articles`).
    pub articles: Cites<CHASE_CITES>,
}

impl Chase {
    /// King and pawn chases are allowed on their own (rules 23–24).
    pub fn by_king_or_pawn(&self) -> bool {
        matches!(self.attacker.kind, PieceKind::King | PieceKind::Pawn)
    }

    /// Does this chase count toward a forbidden perpetual chase under `rules`? Not by a
    /// king or pawn (rules 23–24), and not for a reason `ChaseReason::counts` excludes
    /// (a joint attack on a truly protected piece; under AXF a threat to win by a
    /// check, 要抽吃).
    pub fn counts(&self, rules: RuleSet) -> bool {
        !self.by_king_or_pawn() && self.reason.counts(rules)
    }
}

/// The main label of a move, in the order a judge reads them (a check is a check first).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LabelKind {
    Check,
    Chase,
    Kill,
    Exchange,
    Offer,
    Block,
    Idle,
}

impl LabelKind {
    pub fn chinese(self) -> &'static str {
        match self {
            LabelKind::Check => "将",
            LabelKind::Chase => "捉",
            LabelKind::Kill => "杀",
            LabelKind::Exchange => "兑",
            LabelKind::Offer => "献",
            LabelKind::Block => "拦",
            LabelKind::Idle => "闲",
        }
    }
    pub fn english(self) -> &'static str {
        match self {
            LabelKind::Check => "check",
            LabelKind::Chase => "chase",
            LabelKind::Kill => "kill",
            LabelKind::Exchange => "exchange",
            LabelKind::Offer => "offer",
            LabelKind::Block => "block",
            LabelKind::Idle => "idle",
        }
    }
}

/// Chases kept per move; more are dropped and `MoveLabel::limits` says so.
pub const MAX_CHASES: usize = 8;
/// New attacks on truly protected pieces kept per move (for the ruling's text).
pub const MAX_PROTECTED: usize = 4;

/// A search bound or table size a move's label ran into (bits of `MoveLabel::limits`):
/// the label may then miss something, and the ruling says so.
pub mod limit {
    /// More than `MAX_CHASES` chases by one move.
    pub const CHASES: u8 = 1;
    /// More than `chase::MAX_THREATS` threats of one side on the board.
    pub const THREATS: u8 = 2;
    /// More than `tactic::MAX_FORCED` pieces won by force after one move.
    pub const FORCED: u8 = 4;
}

/// A new attack that is no chase because the target is truly protected (有根) and
/// worth no more than its attacker: the ruling names it, as an arbiter would.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProtectedAttack {
    pub attacker: Piece,
    pub from: Square,
    pub target: Piece,
    pub at: Square,
}

/// Everything the rules see in one move. Fixed size, no allocation.
#[derive(Clone, Copy, Debug)]
pub struct MoveLabel {
    pub mv: Move,
    pub side: Color,
    pub piece: Piece,
    pub check: bool,
    /// Threatens mate next move (only computed when asked for).
    pub kill: bool,
    chases: [Option<Chase>; MAX_CHASES],
    n_chases: usize,
    /// A new attack on a like piece that can take back (兑): (attacker point, target point).
    pub exchange: Option<(Square, Square)>,
    /// The moved piece now stands where the opponent wins it (献).
    pub offer: bool,
    /// The moved piece cuts a line of an enemy rook or cannon (拦).
    pub block: bool,
    /// AXF: the move sets up a check that wins a piece by force (要抽吃; what the
    /// Chinese rules label 捉 `Forced`). Allowed (rules 8, 11, 33), never a chase.
    pub threat_by_check: bool,
    protected: [Option<ProtectedAttack>; MAX_PROTECTED],
    /// `limit` bits: which caps this label ran into.
    pub limits: u8,
    /// What makes the move a check, chase, kill, idle move or an exemption, as the
    /// labelling decided it (`grounds::move_articles`).
    articles: Cites<MOVE_CITES>,
}

impl MoveLabel {
    pub fn chases(&self) -> impl Iterator<Item = &Chase> {
        self.chases[..self.n_chases].iter().flatten()
    }

    /// The articles behind this label (under the rules it was labelled under).
    pub fn articles(&self) -> &[Article] {
        self.articles.as_slice()
    }

    /// New attacks on truly protected pieces (not chases).
    pub fn protected_attacks(&self) -> impl Iterator<Item = &ProtectedAttack> {
        self.protected.iter().flatten()
    }

    fn push_protected(&mut self, p: ProtectedAttack) {
        if let Some(slot) = self.protected.iter_mut().find(|s| s.is_none()) {
            *slot = Some(p);
        }
    }

    /// Attackers (by cycle identity, as bits) of the chases that count under `rules`.
    pub fn counted_attackers(&self, rules: RuleSet) -> u128 {
        let mut v = 0u128;
        for c in self.chases() {
            if c.counts(rules) {
                v |= 1u128 << c.attacker_id;
            }
        }
        v
    }

    /// Victims (by cycle identity, as bits) chased by at least one chase that counts
    /// (`Chase::counts`): the chases that can make a perpetual chase forbidden.
    /// (Both rule sets count every kind of new threat, root-cutting included.)
    pub fn forbidden_victims(&self, rules: RuleSet) -> u128 {
        let mut v = 0u128;
        for c in self.chases() {
            if c.counts(rules) {
                v |= 1u128 << c.victim_id;
            }
        }
        v
    }

    /// Victims chased as rooks that cannot move (rule 14), by pieces other than king or pawn.
    pub fn immobile_rook_victims(&self) -> u128 {
        let mut v = 0u128;
        for c in self.chases() {
            if !c.by_king_or_pawn() && c.reason == ChaseReason::Immobile {
                v |= 1u128 << c.victim_id;
            }
        }
        v
    }

    /// Is this move a chase that counts (by some piece other than king or pawn)?
    pub fn counted_chase(&self, rules: RuleSet) -> bool {
        self.forbidden_victims(rules) != 0
    }

    pub fn kind(&self) -> LabelKind {
        if self.check {
            LabelKind::Check
        } else if self.n_chases > 0 {
            LabelKind::Chase
        } else if self.kill {
            LabelKind::Kill
        } else if self.exchange.is_some() {
            LabelKind::Exchange
        } else if self.offer {
            LabelKind::Offer
        } else if self.block {
            LabelKind::Block
        } else {
            LabelKind::Idle
        }
    }

    fn push_chase(&mut self, c: Chase) {
        if self.n_chases < MAX_CHASES {
            self.chases[self.n_chases] = Some(c);
            self.n_chases += 1;
        } else {
            self.limits |= limit::CHASES;
        }
    }
}

/// Piece identities through a cycle: the start point of each piece, plus one (0 = empty).
#[derive(Clone, Copy)]
pub struct PieceIds([u8; 90]);

impl PieceIds {
    pub fn new(pos: &Position) -> PieceIds {
        let mut ids = [0u8; 90];
        for s in pos.occupied() {
            ids[s.index()] = s.0 + 1;
        }
        PieceIds(ids)
    }
    #[inline]
    pub fn id(&self, s: Square) -> u8 {
        self.0[s.index()]
    }
    #[inline]
    pub fn play(&mut self, m: Move) {
        self.0[m.to().index()] = self.0[m.from().index()];
        self.0[m.from().index()] = 0;
    }
}

/// Label the legal move `m` in `pos` as the AXF rules see it (played and taken back;
/// `pos` is restored). `kill_depth`: 0 = do not look for mate threats; n = look for a
/// mate by checks within n moves of the mover (1 = mate next move, the literal 叫杀).
pub fn label_move(pos: &mut Position, m: Move, ids: &PieceIds, kill_depth: u32) -> MoveLabel {
    label_move_under(pos, m, ids, kill_depth, RuleSet::Axf)
}

/// `label_move` under the given rules: the Chinese rules also label 捉 a move that sets
/// up a check winning a piece by force (`ChaseReason::Forced`, 2020 图2, 图3), when the
/// move is not already a check, a kill or a counted chase. AXF calls such a move a
/// threat to win by a check (要抽吃, rules 8, 11, 33: allowed): it is marked
/// `threat_by_check`, no chase, so that the ruling can cite those rules.
pub fn label_move_under(
    pos: &mut Position,
    m: Move,
    ids: &PieceIds,
    kill_depth: u32,
    rules: RuleSet,
) -> MoveLabel {
    let mut label = label_plain(pos, m, ids, kill_depth);
    if !label.check && !label.kill && !label.counted_chase(rules) {
        let (wins, n) = tactic::new_forced_wins(pos, m);
        if n == tactic::MAX_FORCED {
            label.limits |= limit::FORCED;
        }
        if rules == RuleSet::Axf {
            label.threat_by_check = n > 0;
            return cited(label, rules);
        }
        for w in &wins[..n] {
            // `w.checker` is a point after the move: the moved piece, or one that stayed.
            let checker = w.checker;
            let from = if checker == m.to() { m.from() } else { checker };
            if let (Some(a), Some(v)) = (pos.piece_at(from), pos.piece_at(w.victim)) {
                label.push_chase(Chase {
                    attacker: a,
                    from: checker,
                    victim: v,
                    at: w.victim,
                    victim_id: ids.id(w.victim),
                    attacker_id: ids.id(from),
                    reason: ChaseReason::Forced,
                    root_cut: false,
                    rook_held: false,
                    articles: Cites::default(),
                });
            }
        }
    }
    cited(label, rules)
}

/// Rule 32's setting, after the move (`pos`): the knight or cannon `attacker` chases the
/// rook `victim` on `at`, which attacks a rook of the attacker's side that cannot
/// legally take it back.
fn holds_a_rook(pos: &Position, attacker: Piece, victim: Piece, at: Square) -> bool {
    if !matches!(attacker.kind, PieceKind::Knight | PieceKind::Cannon)
        || victim.kind != PieceKind::Rook
    {
        return false;
    }
    let rooks = pos.pieces(attacker.color, PieceKind::Rook);
    Iterator::any(&mut rooks.into_iter(), |r| {
        chase::attacks_point(pos, at, r)
            && !(chase::attacks_point(pos, r, at)
                && chase::capture_is_legal(pos, attacker.color, r, at, Bitboard::EMPTY))
    })
}

/// `label` with the articles its decisions applied, for each chase and for the move.
fn cited(mut label: MoveLabel, rules: RuleSet) -> MoveLabel {
    for i in 0..label.n_chases {
        if let Some(c) = label.chases[i] {
            let articles = grounds::chase_articles(&c, &label, rules);
            if let Some(c) = label.chases[i].as_mut() {
                c.articles = articles;
            }
        }
    }
    label.articles = grounds::move_articles(&label, rules);
    label
}

fn label_plain(pos: &mut Position, m: Move, ids: &PieceIds, kill_depth: u32) -> MoveLabel {
    let side = pos.side_to_move();
    let piece = pos
        .piece_at(m.from())
        .unwrap_or(Piece::new(side, PieceKind::King));
    // A threat a check held back stands all the same (see `standing_threats_on`).
    let before = chase::standing_threats_on(pos, side, Bitboard::FULL);
    let lines_before = enemy_line_reach(pos, side.flip());
    pos.make_move(m);
    let mut label = MoveLabel {
        mv: m,
        side,
        piece,
        check: pos.in_check(),
        kill: false,
        chases: [None; MAX_CHASES],
        n_chases: 0,
        exchange: None,
        offer: false,
        block: false,
        threat_by_check: false,
        protected: [None; MAX_PROTECTED],
        limits: 0,
        articles: Cites::default(),
    };
    let after = chase::threats(pos, side);
    if before.overflow || after.overflow {
        label.limits |= limit::THREATS;
    }
    let mut mate_guard = MateGuard::default();
    for t in after.as_slice() {
        // The attacker's point before the move, to ask whether the threat is new.
        let was = attacker_before(m, t.attacker);
        match t.what {
            Attack::Chase(_) => {
                if let Some(nc) = new_chase(pos, m, &before, t, &mut mate_guard) {
                    if let (Some(a), Some(v)) = (pos.piece_at(t.attacker), pos.piece_at(t.target)) {
                        label.push_chase(Chase {
                            attacker: a,
                            from: t.attacker,
                            victim: v,
                            at: t.target,
                            victim_id: ids.id(t.target),
                            attacker_id: ids.id(was),
                            reason: nc.reason,
                            root_cut: nc.root_cut,
                            rook_held: holds_a_rook(pos, a, v, t.target),
                            articles: Cites::default(),
                        });
                    }
                }
            }
            Attack::Plain => {
                if before.get(was, t.target).is_none() {
                    if let (Some(a), Some(v)) = (pos.piece_at(t.attacker), pos.piece_at(t.target)) {
                        label.push_protected(ProtectedAttack {
                            attacker: a,
                            from: t.attacker,
                            target: v,
                            at: t.target,
                        });
                    }
                }
            }
            Attack::Exchange => {
                if label.exchange.is_none() && before.get(was, t.target) != Some(Attack::Exchange) {
                    label.exchange = Some((t.attacker, t.target));
                }
            }
        }
    }
    joint_chases(pos, &before, &after, &mut label, ids);
    // 献: the opponent now wins the moved piece.
    let them = side.flip();
    for d in chase::attackers_on(
        pos,
        m.to(),
        them,
        pos.occupied(),
        pos.occ_by_file(),
        Bitboard::FULL,
    ) {
        if matches!(chase::assess(pos, them, d, m.to()), Some(Attack::Chase(_))) {
            label.offer = true;
            break;
        }
    }
    // 拦: an enemy rook or cannon reaches less than before because of the moved piece.
    let lines_after = enemy_line_reach(pos, them);
    for (i, s) in lines_after.0[..lines_after.1].iter().enumerate() {
        let (sq, reach) = *s;
        if let Some(&(bsq, breach)) = lines_before.0[..lines_before.1].get(i) {
            let lost = breach & !reach & !Bitboard::from_square(m.from());
            if bsq == sq
                && Iterator::any(&mut lost.into_iter(), |l| {
                    attacks::between(sq, l).has(m.to())
                })
            {
                label.block = true;
            }
        }
    }
    if !label.check && kill_depth > 0 {
        pos.make_null_move();
        label.kill = mates_by_checks(pos, kill_depth);
        pos.unmake_move();
    }
    pos.unmake_move();
    label
}

/// 劫 (rule 30, 2020 图10's 车炮联合捉子): a piece that the move leaves attacked by two
/// or more pieces, none of which wins it alone (it has a true root and is worth no more
/// than its attacker), and by more attackers than it has true roots, where before the
/// move fewer than two attacked it. Labelled 捉 with `ChaseReason::Joint`, which never
/// counts toward a perpetual chase (真根子不作长捉论).
fn joint_chases(
    pos: &Position,
    before: &chase::Threats,
    after: &chase::Threats,
    label: &mut MoveLabel,
    ids: &PieceIds,
) {
    let plain = |ts: &chase::Threats, t: Square| {
        ts.as_slice()
            .iter()
            .filter(|x| x.target == t && x.what == Attack::Plain)
            .count()
    };
    let mut seen = Bitboard::EMPTY;
    for th in after.as_slice() {
        let t = th.target;
        if th.what != Attack::Plain || seen.has(t) {
            continue;
        }
        seen |= Bitboard::from_square(t);
        let n = plain(after, t);
        if n < 2 || plain(before, t) >= 2 || label.chases().any(|c| c.at == t) {
            continue;
        }
        // The moved piece names the chase when it is one of the attackers.
        let a = after
            .as_slice()
            .iter()
            .filter(|x| x.target == t && x.what == Attack::Plain)
            .map(|x| x.attacker)
            .find(|&s| s == label.mv.to())
            .unwrap_or(th.attacker);
        if chase::true_roots(pos, label.side, a, t) as usize >= n {
            continue;
        }
        if let (Some(att), Some(v)) = (pos.piece_at(a), pos.piece_at(t)) {
            // `pos` is after the move; `ids` before it.
            let was = if a == label.mv.to() {
                label.mv.from()
            } else {
                a
            };
            label.push_chase(Chase {
                attacker: att,
                from: a,
                victim: v,
                at: t,
                victim_id: ids.id(t),
                attacker_id: ids.id(was),
                reason: ChaseReason::Joint,
                root_cut: false,
                rook_held: false,
                articles: Cites::default(),
            });
        }
    }
}

/// The points each rook and cannon of `c` reaches (moves and captures).
fn enemy_line_reach(pos: &Position, c: Color) -> ([(Square, Bitboard); 4], usize) {
    let occ = pos.occupied();
    let byf = pos.occ_by_file();
    let mut out = [(Square(0), Bitboard::EMPTY); 4];
    let mut n = 0;
    for s in pos.pieces(c, PieceKind::Rook) | pos.pieces(c, PieceKind::Cannon) {
        if n == 4 {
            break;
        }
        let reach = match pos.piece_at(s).map(|p| p.kind) {
            Some(PieceKind::Rook) => attacks::rook(s, occ, byf),
            _ => attacks::slides(s, occ, byf) | attacks::cannon_captures(s, occ, byf),
        };
        out[n] = (s, reach);
        n += 1;
    }
    (out, n)
}

/// Can the side to move force mate with checks only, in at most `depth` of its moves?
pub fn mates_by_checks(pos: &mut Position, depth: u32) -> bool {
    if depth == 0 {
        return false;
    }
    let ksq = pos.king_square(pos.side_to_move().flip());
    let moves = pos.legal_moves();
    for &m in moves.iter() {
        if !tactic::may_check(pos, m, ksq) {
            continue;
        }
        pos.make_move(m);
        let mut mated = false;
        if pos.in_check() {
            let replies = pos.legal_moves();
            if replies.is_empty() {
                mated = true;
            } else if depth > 1 {
                mated = true;
                for &r in replies.iter() {
                    pos.make_move(r);
                    let ok = mates_by_checks(pos, depth - 1);
                    pos.unmake_move();
                    if !ok {
                        mated = false;
                        break;
                    }
                }
            }
        }
        pos.unmake_move();
        if mated {
            return true;
        }
    }
    false
}
