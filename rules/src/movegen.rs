//! Legal move generation. Nothing pseudo-legal leaves this module.
//!
//! Legality without a full test of every move: when the side to move is not in
//! check, a non-king move can only expose its own king if the piece is pinned
//! (the lone piece between an enemy rook or king and ours, one of the two pieces
//! between an enemy cannon and our king, or on the leg of an enemy knight that
//! eyes our king), or if it steps onto an open line between an enemy cannon and
//! our king and so becomes that cannon's screen. Pinned pieces, king moves and
//! all moves in check are tested by replaying the attack lookups on the changed
//! occupancy; moves onto a cannon's open line are dropped.
//!
//! The move list is in `list`; whether a move gives check in `gives_check`.

mod gives_check;
mod list;

pub use list::{MoveList, MAX_MOVES};

use crate::attacks;
use crate::bitboard::{file_major_bit, Bitboard};
use crate::position::Position;
use crate::types::{Color, Move, PieceKind, Square};

/// When in check: the points where a non-king move can answer some check (a
/// checker, a point between a rook, cannon or king checker and our king, a
/// checking knight's leg), and the screens of checking cannons (moving one away
/// answers that check). A move that does neither leaves every check in place, so
/// it cannot be legal and needs no test.
#[derive(Clone, Copy)]
pub(crate) struct Evasion {
    reach: Bitboard,
    screens: Bitboard,
}

impl Evasion {
    /// The targets of a non-king move from `from` that may be legal.
    #[inline(always)]
    pub(crate) fn targets(self, from: Square, targets: Bitboard) -> Bitboard {
        if self.screens.has(from) {
            targets
        } else {
            targets & self.reach
        }
    }
}

/// `GenKind` as the constant parameter of the generation copies.
const ALL: u8 = 0;
const CAPTURES: u8 = 1;
const QUIETS: u8 = 2;

/// Which moves to generate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GenKind {
    All,
    Captures,
    Quiets,
}

impl Position {
    /// All legal moves.
    pub fn legal_moves(&self) -> MoveList {
        let mut l = MoveList::new();
        self.generate(GenKind::All, &mut l);
        l
    }

    /// Legal captures only.
    pub fn legal_captures(&self) -> MoveList {
        let mut l = MoveList::new();
        self.generate(GenKind::Captures, &mut l);
        l
    }

    /// Legal non-captures only.
    pub fn legal_quiets(&self) -> MoveList {
        let mut l = MoveList::new();
        self.generate(GenKind::Quiets, &mut l);
        l
    }

    /// Legal moves when in check (every legal move is an evasion then); empty when
    /// not in check.
    pub fn legal_evasions(&self) -> MoveList {
        let mut l = MoveList::new();
        if self.in_check() {
            self.generate(GenKind::All, &mut l);
        }
        l
    }

    /// Append the legal moves of the given kind to `list`.
    pub fn generate(&self, kind: GenKind, list: &mut MoveList) {
        match kind {
            GenKind::All => self.generate_kind::<ALL>(list),
            GenKind::Captures => self.generate_kind::<CAPTURES>(list),
            GenKind::Quiets => self.generate_kind::<QUIETS>(list),
        }
    }

    /// `generate` for one kind (`ALL`, `CAPTURES` or `QUIETS`), a copy each, so
    /// that what a kind leaves out costs nothing.
    #[inline(never)]
    fn generate_kind<const KIND: u8>(&self, list: &mut MoveList) {
        let checkers = self.checkers();
        if checkers.any() {
            // Every move gets a full test, and only those that may answer every
            // check are tried.
            let evasion = self.evasion_filter(checkers, self.king_square(self.side_to_move()));
            let filter = |from, tgts| evasion.targets(from, tgts);
            self.generate_with::<KIND>(list, filter, Bitboard::FULL, Bitboard::EMPTY);
        } else {
            let (test, forbidden) = self.pins_and_screens();
            // A capture never lands on an empty point between a cannon and our king.
            let forbidden = if KIND == CAPTURES {
                Bitboard::EMPTY
            } else {
                forbidden
            };
            self.generate_with::<KIND>(list, |_, tgts| tgts, test, forbidden);
        }
    }

    /// `generate_kind` with the targets of each non-king piece narrowed by `filter`,
    /// the moves of `test` pieces tested and moves onto `forbidden` points dropped
    /// (two copies: in check, and not, where most of the work is left out).
    #[inline(always)]
    fn generate_with<const KIND: u8>(
        &self,
        list: &mut MoveList,
        filter: impl Fn(Square, Bitboard) -> Bitboard,
        test: Bitboard,
        forbidden: Bitboard,
    ) {
        let us = self.side_to_move();
        let own = self.pieces_of(us);
        let their = self.pieces_of(us.flip());
        let occ = self.occupied();
        let byf = self.occ_by_file();
        let targets = match KIND {
            CAPTURES => their,
            QUIETS => !occ,
            _ => !own,
        };
        let ksq = self.king_square(us);
        let emit = |from: Square, tgts: Bitboard, list: &mut MoveList| {
            self.emit(from, filter(from, tgts), test, forbidden, ksq, list)
        };
        // Captures only: a piece with no enemy piece within its reach on an empty
        // board takes nothing, and its occupancy lookup is skipped.
        let may_take = |reach: Bitboard| KIND != CAPTURES || (reach & their).any();

        for from in self.pieces(us, PieceKind::Rook) {
            if may_take(attacks::lines(from)) {
                emit(from, attacks::rook(from, occ, byf) & targets, list);
            }
        }
        for from in self.pieces(us, PieceKind::Knight) {
            if may_take(attacks::knight(from, Bitboard::EMPTY)) {
                emit(from, attacks::knight(from, occ) & targets, list);
            }
        }
        for from in self.pieces(us, PieceKind::Cannon) {
            let mut t = Bitboard::EMPTY;
            if KIND != CAPTURES {
                t |= attacks::slides(from, occ, byf);
            }
            if KIND != QUIETS && may_take(attacks::lines(from)) {
                t |= attacks::cannon_captures(from, occ, byf) & their;
            }
            emit(from, t, list);
        }
        for from in self.pieces(us, PieceKind::Pawn) {
            emit(from, attacks::pawn(us, from) & targets, list);
        }
        for from in self.pieces(us, PieceKind::Elephant) {
            if may_take(attacks::elephant(from, Bitboard::EMPTY)) {
                emit(from, attacks::elephant(from, occ) & targets, list);
            }
        }
        for from in self.pieces(us, PieceKind::Advisor) {
            emit(from, attacks::advisor(from) & targets, list);
        }
        for to in attacks::king(ksq) & targets {
            if self.move_keeps_king_safe(ksq, to, to) {
                list.push(Move::new(ksq, to));
            }
        }
    }

    /// Append the moves from `from` to `tgts`: each one tested when the piece is in
    /// `test`, else all but those onto `forbidden` points.
    #[inline(always)]
    fn emit(
        &self,
        from: Square,
        tgts: Bitboard,
        test: Bitboard,
        forbidden: Bitboard,
        ksq: Square,
        list: &mut MoveList,
    ) {
        if test.any() && test.has(from) {
            for to in tgts {
                if self.move_keeps_king_safe(from, to, ksq) {
                    list.push(Move::new(from, to));
                }
            }
        } else {
            list.push_moves(from, tgts & !forbidden);
        }
    }

    /// What the `checkers` of the king on `ksq` leave to non-king moves (nothing
    /// is taken away when there are none).
    #[inline]
    pub(crate) fn evasion_filter(&self, checkers: Bitboard, ksq: Square) -> Evasion {
        if checkers.is_empty() {
            return Evasion {
                reach: Bitboard::FULL,
                screens: Bitboard::EMPTY,
            };
        }
        let occ = self.occupied();
        let (mut reach, mut screens) = (Bitboard::EMPTY, Bitboard::EMPTY);
        for c in checkers {
            reach |= Bitboard::from_square(c) | attacks::between(ksq, c);
            match self.piece_at(c).map(|p| p.kind) {
                Some(PieceKind::Knight) => {
                    reach |= Bitboard::from_square(attacks::knight_leg(c, ksq));
                }
                Some(PieceKind::Cannon) => screens |= attacks::between(ksq, c) & occ,
                _ => {}
            }
        }
        Evasion { reach, screens }
    }

    /// Our pieces whose moves need a full legality test, and the points no other
    /// piece of ours may step onto (they would screen an enemy cannon onto our king).
    /// Only meaningful when the side to move is not in check.
    #[inline(always)]
    fn pins_and_screens(&self) -> (Bitboard, Bitboard) {
        self.pins_and_screens_of(self.side_to_move())
    }

    /// `pins_and_screens` for the king of `us`, whichever side is to move.
    #[inline(always)]
    pub(crate) fn pins_and_screens_of(&self, us: Color) -> (Bitboard, Bitboard) {
        let them = us.flip();
        let ksq = self.king_square(us);
        let own = self.pieces_of(us);
        let occ = self.occupied();
        let lines = attacks::lines(ksq);
        let mut pinned = Bitboard::EMPTY;
        let mut screens = Bitboard::EMPTY;
        for a in (self.pieces(them, PieceKind::Rook) | self.pieces(them, PieceKind::King)) & lines {
            let b = attacks::between(ksq, a) & occ;
            if !b.several() {
                pinned |= b;
            }
        }
        for a in self.pieces(them, PieceKind::Cannon) & lines {
            let line = attacks::between(ksq, a);
            let b = line & occ;
            if b.is_empty() {
                screens |= line;
            } else if Bitboard(b.0 & (b.0 - 1)).exactly_one() {
                pinned |= b;
            }
        }
        let knights =
            self.pieces(them, PieceKind::Knight) & attacks::knight_attackers(ksq, Bitboard::EMPTY);
        for n in knights {
            pinned |= Bitboard::from_square(attacks::knight_leg(n, ksq));
        }
        (pinned & own, screens)
    }

    /// After moving the piece on `from` to `to`, is the mover's king (then on `ksq`) safe?
    #[inline(always)]
    pub(crate) fn move_keeps_king_safe(&self, from: Square, to: Square, ksq: Square) -> bool {
        self.move_keeps_king_of_safe(self.side_to_move(), from, to, ksq)
    }

    /// The same for a move of `side`'s piece, whoever is to move.
    #[inline(always)]
    pub(crate) fn move_keeps_king_of_safe(
        &self,
        side: Color,
        from: Square,
        to: Square,
        ksq: Square,
    ) -> bool {
        let to_bb = Bitboard::from_square(to);
        let occ = (self.occupied() ^ Bitboard::from_square(from)) | to_bb;
        let byf = (self.occ_by_file() ^ file_major_bit(from)) | file_major_bit(to);
        self.king_danger(ksq, side.flip(), occ, byf, !to_bb)
            .is_empty()
    }

    /// Points the piece on `from` could move to, ignoring its own king's safety.
    pub fn pseudo_targets(&self, from: Square) -> Bitboard {
        let p = match self.piece_at(from) {
            Some(p) => p,
            None => return Bitboard::EMPTY,
        };
        let occ = self.occupied();
        let byf = self.occ_by_file();
        let t = match p.kind {
            PieceKind::Rook => attacks::rook(from, occ, byf),
            PieceKind::Knight => attacks::knight(from, occ),
            PieceKind::Cannon => {
                attacks::slides(from, occ, byf)
                    | (attacks::cannon_captures(from, occ, byf) & self.pieces_of(p.color.flip()))
            }
            PieceKind::Pawn => attacks::pawn(p.color, from),
            PieceKind::Elephant => attacks::elephant(from, occ),
            PieceKind::Advisor => attacks::advisor(from),
            PieceKind::King => attacks::king(from),
        };
        t & !self.pieces_of(p.color)
    }

    /// Parse an ICCS move (`h2e2`) and check that it is legal here.
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let m = Move::parse_iccs(text)
            .ok_or_else(|| MoveError::Syntax(text.chars().take(16).collect()))?;
        if self.is_legal(m) {
            Ok(m)
        } else {
            Err(MoveError::Illegal(m))
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    Syntax(String),
    Illegal(Move),
}

impl std::fmt::Display for MoveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MoveError::Syntax(s) => {
                write!(f, "'{s}' is not a move in ICCS coordinates (like h2e2)")
            }
            MoveError::Illegal(m) => write!(f, "{m} is not a legal move here"),
        }
    }
}

impl std::error::Error for MoveError {}

#[cfg(test)]
pub(crate) mod tests {
    use crate::{Move, Position};

    /// A small reproducible random number source for the random-position tests.
    pub(crate) fn lcg(seed: u64) -> impl FnMut() -> usize {
        let mut x = seed;
        move || {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (x >> 33) as usize
        }
    }

    /// Call `f` on every position of `games` random games from the start (each of
    /// a random length below `max_plies`, ending early at a side with no move).
    pub(crate) fn for_random_positions(
        seed: u64,
        games: usize,
        max_plies: usize,
        mut f: impl FnMut(&Position),
    ) {
        let mut rand = lcg(seed);
        for _ in 0..games {
            let mut p = Position::startpos();
            for _ in 0..rand() % max_plies {
                let moves = p.legal_moves();
                if moves.is_empty() {
                    break;
                }
                f(&p);
                p.make_move(moves.as_slice()[rand() % moves.len()]);
            }
        }
    }

    /// In check, the generated moves are exactly the pseudo-legal moves after which
    /// the king is safe (checked by making each one).
    #[test]
    fn evasions_equal_brute_force_in_random_positions_in_check() {
        let mut rand = lcg(5);
        let mut in_check = 0;
        for _ in 0..3000 {
            let mut p = Position::startpos();
            for _ in 0..rand() % 150 {
                let moves = p.legal_moves();
                if moves.is_empty() {
                    break;
                }
                p.make_move(moves.as_slice()[rand() % moves.len()]);
                if !p.in_check() {
                    continue;
                }
                in_check += 1;
                let us = p.side_to_move();
                let mut brute = Vec::new();
                for from in p.pieces_of(us) {
                    for to in p.pseudo_targets(from) {
                        let m = Move::new(from, to);
                        let mut q = p.clone();
                        q.make_move(m);
                        if !q.attackers_to_king(us).any() {
                            brute.push(m);
                        }
                    }
                }
                let mut gen = p.legal_moves().as_slice().to_vec();
                gen.sort_by_key(|m| m.0);
                brute.sort_by_key(|m| m.0);
                assert_eq!(gen, brute, "{}", p.to_fen());
            }
        }
        assert!(in_check > 300, "{in_check} positions in check");
    }
}
