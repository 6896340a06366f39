//! Which attacker moves cannot leave the defender without a move, decided without
//! making them: the mate-in-one test of the prover makes only the others.
//!
//! A move `m` of the attacker (not in check) leaves the defender, whose king is
//! on `k`, without a legal move only if it takes away every move the defender
//! has now (were it its turn). Whether the defender's king stands attacked
//! after a non-king defender move depends on the rays from `k` (rooks, cannons
//! and their screens, the kings facing) and on the knights around `k` and their
//! legs; pawns cannot be blocked. A ray matters only if a slider of the
//! attacker's on it could reach `k` once two of its points change (one by `m`,
//! one by the defender's move): a rook or king with at most two pieces between
//! it and `k`, a cannon with at most three. The *zone* is those rays and `k`'s
//! diagonal neighbours (the knights' legs); `m` leaves it alone when neither of
//! its points is in it and it does not bring a rook, cannon or king onto `k`'s
//! rank or file, a knight a knight's jump from `k`, or a pawn next to it. Then
//! `m` does not check, and every non-king defender move stays exactly as legal
//! as it is now unless `m` changes the move itself: captures its piece (`m.to`
//! on its from-point), blocks it (`m.to` on a point it passes, its knight leg or
//! elephant eye, or its target), or removes a cannon's screen or target
//! (`m.from` on those points). A defender move none of whose points `m` touches
//! survives `m`: the defender still has a move, and `m` does not mate.
//!
//! A second rule covers the moves that do not give check. A defender move `d`
//! whose from-point is off `k`'s rank and file can expose its king in three ways
//! only: when its from-point is a diagonal neighbour of `k`, by opening that
//! knight leg to a knight on one of the two points behind it; when its
//! to-point lies on `k`'s rank or file, by becoming a cannon's screen on that
//! ray. It is legal now, so none of these happens now; after a move `m` that
//! leaves those points (and `d`'s own) untouched and does not check, none
//! happens either, and `d` stays legal. So a non-checking `m` that leaves one
//! such *safe* defender move untouched does not mate; with three safe moves of
//! pairwise disjoint points no move does (a move touches two points), and only
//! checks are made.

use rules::{attacks, Bitboard, Move, PieceKind, Position, Square};

/// What the mate-in-one test needs to rule moves out: the king zone and up to
/// two defender moves' points (two with no point in common, when there are),
/// and up to three safe defender moves' points (pairwise disjoint).
pub(super) struct Escapes {
    /// `None` when three safe witnesses make it needless (only checks can mate).
    zone: Option<Zone>,
    witnesses: [Bitboard; 2],
    count: usize,
    safe: [Bitboard; SAFE_MAX],
    safe_count: usize,
}

/// The part of the board near the defender's king that an attacker move must
/// leave alone for every defender move it does not touch to stay as legal as
/// it is (and for the move not to check).
struct Zone {
    /// Points that the move must neither leave nor enter: the rays from the
    /// king along which a slider of the attacker's could attack it after two
    /// changes of their points (`dangerous_rays`), and the king's diagonal
    /// neighbours (knight legs).
    points: Bitboard,
    /// Points that an attacker's rook, cannon or king must not enter (the
    /// king's rank and file), nor a knight (its knight jumps), nor a pawn (the
    /// points from which it attacks the king).
    slider_to: Bitboard,
    knight_to: Bitboard,
    pawn_to: Bitboard,
}

impl Zone {
    /// The zone around the king of the side not to move in `pos`.
    fn of(pos: &Position) -> Zone {
        let k = pos.king_square(pos.side_to_move().flip());
        Zone {
            points: dangerous_rays(pos, k) | attacks::diagonal_neighbours(k),
            slider_to: attacks::lines(k),
            knight_to: knight_jumps(k),
            pawn_to: attacks::pawn_attackers(pos.side_to_move(), k),
        }
    }

    /// Whether the attacker's move `m` leaves the zone alone.
    #[inline]
    fn left_alone_by(&self, pos: &Position, m: Move) -> bool {
        let (from, to) = (m.from(), m.to());
        !self.points.has(from)
            && !self.points.has(to)
            && !match pos.piece_at(from).map(|p| p.kind) {
                Some(PieceKind::Rook | PieceKind::Cannon | PieceKind::King) => {
                    self.slider_to.has(to)
                }
                Some(PieceKind::Knight) => self.knight_to.has(to),
                Some(PieceKind::Pawn) => self.pawn_to.has(to),
                _ => false,
            }
    }
}

/// Safe witnesses kept at most: a move touches two points, so three pairwise
/// disjoint ones always leave one.
const SAFE_MAX: usize = 3;

/// The points a defender move `d` depends on: its from- and to-points, the points
/// it passes (a rook's or cannon's path, a cannon's screen), a knight's leg, an
/// elephant's eye.
fn touched(pos: &Position, d: Move) -> Bitboard {
    let (from, to) = (d.from(), d.to());
    let mut t =
        Bitboard::from_square(from) | Bitboard::from_square(to) | attacks::between(from, to);
    match pos.piece_at(from).map(|p| p.kind) {
        Some(PieceKind::Knight) => t |= Bitboard::from_square(attacks::knight_leg(from, to)),
        Some(PieceKind::Elephant) => t |= Bitboard::from_square(attacks::elephant_eye(from, to)),
        _ => {}
    }
    t
}

/// The points a move `d` of the defender (king on `k`, `d.from()` off `k`'s
/// rank and file) depends on to stay unable to expose that king, beyond its own
/// points (`touched`): when it leaves a diagonal neighbour of `k`, the points
/// from which a knight would then attack `k` through it; when it lands on `k`'s
/// rank or file, the whole ray from `k` through its to-point (a cannon on that
/// ray, or one arriving there, would take it as a screen).
fn exposure_points(k: Square, d: Move) -> Bitboard {
    let (from, to) = (d.from(), d.to());
    let mut t = Bitboard::EMPTY;
    let (kf, kr) = (k.file() as i32, k.rank() as i32);
    // The knights whose way to `k` a piece on `from` blocks (none unless `from`
    // is a diagonal neighbour of `k`, a knight's leg).
    t |= knight_jumps(k) & !attacks::knight_attackers(k, Bitboard::from_square(from));
    let (tf, tr) = (to.file() as i32, to.rank() as i32);
    let edge = if tr == kr {
        Square::try_new(if tf > kf { 8 } else { 0 }, kr)
    } else if tf == kf {
        Square::try_new(kf, if tr > kr { 9 } else { 0 })
    } else {
        None
    };
    if let Some(e) = edge {
        t |= attacks::between(k, e) | Bitboard::from_square(e);
    }
    t
}

/// The rays from the king on `k` (side `us`) along which an enemy slider
/// could attack it once two points of the ray change (a move of each side):
/// those holding an enemy rook or king with at most two pieces between it and
/// `k`, or an enemy cannon with at most three.
fn dangerous_rays(pos: &Position, k: Square) -> Bitboard {
    let them = pos.piece_at(k).map(|p| p.color.flip());
    let mut rays = Bitboard::EMPTY;
    for (df, dr) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
        let mut ray = Bitboard::EMPTY;
        let mut between = 0;
        let mut danger = false;
        let (mut f, mut r) = (k.file() as i32 + df, k.rank() as i32 + dr);
        while let Some(s) = Square::try_new(f, r) {
            ray |= Bitboard::from_square(s);
            if let Some(p) = pos.piece_at(s) {
                if Some(p.color) == them {
                    danger |= match p.kind {
                        PieceKind::Rook | PieceKind::King => between <= 2,
                        PieceKind::Cannon => between <= 3,
                        _ => false,
                    };
                }
                between += 1;
            }
            (f, r) = (f + df, r + dr);
        }
        if danger {
            rays |= ray;
        }
    }
    rays
}

/// The points a knight jump away from `k`.
fn knight_jumps(k: Square) -> Bitboard {
    // With no piece on the board no leg is blocked.
    attacks::knight_attackers(k, Bitboard::EMPTY)
}

impl Escapes {
    /// The defender's present moves, for `pos` with the attacker to move. `None`
    /// when the attacker is in check (no pass to look from) or the defender has
    /// no move but king moves (nothing to rule out with).
    pub(super) fn of(pos: &mut Position) -> Option<Escapes> {
        if pos.in_check() {
            return None;
        }
        let k = pos.king_square(pos.side_to_move().flip());
        let lines = attacks::lines(k);
        // From-points of defender moves that cannot open a line towards the king.
        let quiet_from = !(lines | Bitboard::from_square(k));
        pos.make_null_move();
        let moves = pos.legal_moves();
        let mut e = Escapes {
            zone: None,
            witnesses: [Bitboard::EMPTY; 2],
            count: 0,
            safe: [Bitboard::EMPTY; SAFE_MAX],
            safe_count: 0,
        };
        for &d in moves.as_slice() {
            if d.from() == k {
                continue;
            }
            let t = touched(pos, d);
            if e.count == 0 {
                e.witnesses[0] = t;
                e.count = 1;
            } else if e.count == 1 && (t & e.witnesses[0]).is_empty() {
                e.witnesses[1] = t;
                e.count = 2;
            }
            if e.safe_count < SAFE_MAX && quiet_from.has(d.from()) {
                let t = t | exposure_points(k, d);
                if e.safe[..e.safe_count].iter().all(|s| (*s & t).is_empty()) {
                    e.safe[e.safe_count] = t;
                    e.safe_count += 1;
                }
            }
            if e.count == 2 && e.safe_count == SAFE_MAX {
                break;
            }
        }
        pos.unmake_move();
        // With three safe witnesses only checks can mate, and the prover makes
        // only those: the zone is not worth computing then.
        if e.safe_count < SAFE_MAX {
            e.zone = Some(Zone::of(pos));
        }
        (e.count > 0).then_some(e)
    }

    /// Whether no move but a check can leave the defender without a move
    /// (three safe defender moves with no point in common).
    pub(super) fn only_checks_mate(&self) -> bool {
        self.safe_count == SAFE_MAX
    }

    /// Whether `m` certainly leaves the defender a move (so it cannot mate);
    /// `checks` tells whether `m` gives check, asked only when the answer
    /// depends on it.
    #[inline]
    pub(super) fn survive(&self, pos: &Position, m: Move, checks: impl FnOnce() -> bool) -> bool {
        let (from, to) = (m.from(), m.to());
        let untouched = |w: &Bitboard| !w.has(from) && !w.has(to);
        if self.zone.as_ref().is_some_and(|z| z.left_alone_by(pos, m))
            && self.witnesses[..self.count].iter().any(untouched)
        {
            return true;
        }
        self.safe[..self.safe_count].iter().any(untouched) && !checks()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The positions the rules are tested on: the mate suite's and those of
    /// random playouts from the start.
    fn positions() -> Vec<Position> {
        let suite = include_str!("../../tests/data/mates.tsv");
        let mut positions: Vec<Position> = suite
            .lines()
            .skip(1)
            .filter_map(|l| Position::from_fen(l.split('\t').nth(1)?).ok())
            .collect();
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..200 {
            let mut pos = Position::startpos();
            for _ in 0..120 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                pos.make_move(moves.as_slice()[(seed >> 33) as usize % moves.len()]);
                positions.push(pos.clone());
            }
        }
        positions
    }

    /// Each rule keeps, after every attacker move it applies to, every defender
    /// move it says stays legal: the zone rule all non-king moves the attacker's
    /// move does not touch (and that move does not check), the safe rule each
    /// safe move it does not touch. This is stronger than asking whether a mate
    /// is missed (a wrong claim on one defender move is found even where
    /// another move would have saved the defender).
    #[test]
    fn each_rule_keeps_the_moves_it_claims() {
        let (mut zone_claims, mut safe_claims) = (0, 0);
        for mut pos in positions() {
            if pos.in_check() {
                continue;
            }
            let k = pos.king_square(pos.side_to_move().flip());
            let zone = Zone::of(&pos);
            pos.make_null_move();
            let defences: Vec<(Move, Bitboard, Option<Bitboard>)> = pos
                .legal_moves()
                .iter()
                .filter(|d| d.from() != k)
                .map(|&d| {
                    let t = touched(&pos, d);
                    let safe = !attacks::lines(k).has(d.from());
                    (d, t, safe.then(|| t | exposure_points(k, d)))
                })
                .collect();
            pos.unmake_move();
            for &m in pos.legal_moves().as_slice() {
                let untouched = |w: Bitboard| !w.has(m.from()) && !w.has(m.to());
                let alone = zone.left_alone_by(&pos, m);
                let checks = pos.gives_check(m);
                assert!(!(alone && checks), "{} {m}", pos.to_fen());
                pos.make_move(m);
                let after = pos.legal_moves();
                for &(d, t, safe) in &defences {
                    let by_zone = alone && untouched(t);
                    let by_safety = !checks && safe.is_some_and(untouched);
                    zone_claims += by_zone as usize;
                    safe_claims += by_safety as usize;
                    assert!(
                        !(by_zone || by_safety) || after.contains(d),
                        "{} after {m}: {d} (zone {by_zone}, safe {by_safety})",
                        pos.to_fen()
                    );
                }
                pos.unmake_move();
            }
        }
        assert!(zone_claims > 100_000 && safe_claims > 100_000);
    }

    /// Every move `survive` passes over leaves the defender a legal move, on the
    /// mate suite's positions and on random playouts from the start; and it does
    /// pass over many (else the prover gains nothing).
    #[test]
    fn a_move_ruled_out_never_mates() {
        let positions = positions();
        let (mut ruled_out, mut made) = (0, 0);
        for mut pos in positions {
            let Some(e) = Escapes::of(&mut pos) else {
                continue;
            };
            for &m in pos.legal_moves().as_slice() {
                if e.survive(&pos, m, || pos.gives_check(m)) {
                    ruled_out += 1;
                    pos.make_move(m);
                    assert!(pos.has_legal_move(), "{} {m}", pos.to_fen());
                    pos.unmake_move();
                } else {
                    made += 1;
                }
            }
        }
        assert!(ruled_out > made, "ruled out {ruled_out}, made {made}");
    }
}
