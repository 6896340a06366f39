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

use crate::attacks;
use crate::bitboard::{file_major_bit, Bitboard};
use crate::position::Position;
use crate::types::{Color, Move, PieceKind, Square};
use std::mem::MaybeUninit;

/// Enough for any playable position: a side has at most 16 pieces
/// (`fen::MAX_PIECES_PER_SIDE`), a rook or cannon at most 17 moves (8 along its
/// rank, 9 along its file), every other piece at most 8, the king 4, so
/// 15 · 17 + 4 = 259 bounds even a composed study of fifteen rooks. Game positions
/// stay well under 150. A test fills a list to this bound.
pub const MAX_MOVES: usize = 15 * 17 + 4;

/// A fixed-capacity list of moves, on the stack. The slots past `len` are left
/// uninitialised: a list is made at every search node and most are never filled,
/// so zeroing its 384 bytes each time is measurable.
#[derive(Clone)]
pub struct MoveList {
    moves: [MaybeUninit<Move>; MAX_MOVES],
    len: usize,
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

#[allow(unsafe_code)]
impl MoveList {
    #[inline(always)]
    pub fn new() -> MoveList {
        MoveList {
            moves: [MaybeUninit::uninit(); MAX_MOVES],
            len: 0,
        }
    }
    #[inline(always)]
    pub fn push(&mut self, m: Move) {
        if self.len < MAX_MOVES {
            self.moves[self.len] = MaybeUninit::new(m);
            self.len += 1;
        }
    }
    /// Append the moves from `from` to each point of `targets`, lowest point first
    /// (as `push` one at a time would), each half of the board a 64-bit word.
    #[inline(always)]
    pub fn push_moves(&mut self, from: Square, targets: Bitboard) {
        if self.len + 128 > MAX_MOVES {
            for to in targets {
                self.push(Move::new(from, to));
            }
            return;
        }
        let mut len = self.len;
        for (half, base) in [(targets.0 as u64, 0u16), ((targets.0 >> 64) as u64, 64)] {
            let mut bits = half;
            while bits != 0 {
                let to = base + bits.trailing_zeros() as u16;
                // SAFETY: `len` starts at most `MAX_MOVES - 128` and grows by one per
                // point of a 128-bit board, so it stays below `MAX_MOVES`.
                unsafe {
                    self.moves
                        .get_unchecked_mut(len)
                        .write(Move(from.0 as u16 | to << 7));
                }
                len += 1;
                bits &= bits - 1;
            }
        }
        self.len = len;
    }

    /// Keep the first `len` moves (all when there are fewer).
    #[inline(always)]
    pub fn truncate(&mut self, len: usize) {
        self.len = self.len.min(len);
    }
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len
    }
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    #[inline(always)]
    pub fn as_slice(&self) -> &[Move] {
        let init = &self.moves[..self.len];
        // SAFETY: the first `len` slots were written by `push` (`len` grows only there
        // and `truncate` only lowers it),
        // and `MaybeUninit<Move>` has the layout of `Move`.
        unsafe { &*(init as *const [MaybeUninit<Move>] as *const [Move]) }
    }
    #[inline(always)]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        let init = &mut self.moves[..self.len];
        // SAFETY: as in `as_slice`.
        unsafe { &mut *(init as *mut [MaybeUninit<Move>] as *mut [Move]) }
    }
    pub fn contains(&self, m: Move) -> bool {
        self.as_slice().contains(&m)
    }
    pub fn iter(&self) -> std::slice::Iter<'_, Move> {
        self.as_slice().iter()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

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

    /// Does the legal move `m` give check? Read from the board as it would be,
    /// without making the move: the enemy king is attacked by the piece on its new
    /// point, or by another piece of ours through the occupancy the move leaves
    /// (a line it opened, a knight's leg it left, a screen it became or stopped
    /// being for a cannon).
    pub fn gives_check(&self, m: Move) -> bool {
        let (from, to) = (m.from(), m.to());
        let Some(p) = self.piece_at(from) else {
            return false;
        };
        let us = p.color;
        let ksq = self.king_square(us.flip());
        // Only a move from or to the king's rank or file, or from a diagonal
        // neighbour of the king (a knight's leg), can open or screen a line
        // onto it; off those points only a knight or a pawn can check, by
        // itself (most moves are answered here, cheaply).
        let lines = attacks::lines(ksq);
        if !lines.has(to) && !(lines | attacks::diagonal_neighbours(ksq)).has(from) {
            return match p.kind {
                PieceKind::Knight => {
                    let occ =
                        (self.occupied() ^ Bitboard::from_square(from)) | Bitboard::from_square(to);
                    attacks::knight(to, occ).has(ksq)
                }
                PieceKind::Pawn => attacks::pawn(us, to).has(ksq),
                _ => false,
            };
        }
        let from_bb = Bitboard::from_square(from);
        let occ = (self.occupied() ^ from_bb) | Bitboard::from_square(to);
        let byf = (self.occ_by_file() ^ file_major_bit(from)) | file_major_bit(to);
        let direct = match p.kind {
            PieceKind::Rook => attacks::rook(to, occ, byf).has(ksq),
            PieceKind::Cannon => attacks::cannon_captures(to, occ, byf).has(ksq),
            PieceKind::Knight => attacks::knight(to, occ).has(ksq),
            PieceKind::Pawn => attacks::pawn(us, to).has(ksq),
            // A king or a palace piece attacks no enemy king (kings facing each
            // other is no legal move to have made).
            PieceKind::King | PieceKind::Advisor | PieceKind::Elephant => false,
        };
        // The moved piece is not on `from` any more: `alive` leaves it out there.
        direct || self.king_danger(ksq, us, occ, byf, !from_bb).any()
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

    /// `gives_check`, read from the board without making the move, agrees with
    /// making each legal move and asking whether the other side is in check, in
    /// random positions (direct, discovered and cannon-screen checks alike).
    #[test]
    fn gives_check_equals_making_the_move_in_random_positions() {
        let mut rand = lcg(11);
        let (mut checks, mut quiet) = (0, 0);
        for _ in 0..2000 {
            let mut p = Position::startpos();
            for _ in 0..rand() % 160 {
                let moves = p.legal_moves();
                if moves.is_empty() {
                    break;
                }
                for &m in moves.as_slice() {
                    let mut q = p.clone();
                    q.make_move(m);
                    let made = q.in_check();
                    assert_eq!(p.gives_check(m), made, "{} {m}", p.to_fen());
                    if made {
                        checks += 1;
                    } else {
                        quiet += 1;
                    }
                }
                p.make_move(moves.as_slice()[rand() % moves.len()]);
            }
        }
        assert!(
            checks > 5000 && quiet > checks,
            "{checks} checks, {quiet} not"
        );
    }
}
