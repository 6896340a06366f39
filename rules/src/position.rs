//! A validated position: piece placement (mailbox and bitboards), side to move,
//! Zobrist key, capture counter, and the stack of earlier states that unmake and
//! the repetition rules read.

use crate::attacks;
use crate::bitboard::{file_major_bit, Bitboard};
use crate::fen::{FenError, Setup, MAX_PIECES_PER_SIDE, START_FEN};
use crate::types::{Color, Move, Piece, PieceKind, Square};
use crate::zobrist;
use std::fmt;

/// What make-move saves so that unmake can restore it, and what the repetition
/// rules read back: the key of the position *before* the move, the move, and
/// what it captured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StateInfo {
    pub key: u64,
    pub mv: Move,
    pub captured: Option<Piece>,
    pub plies_since_capture: u32,
    /// The checkers of the position before the move (restored by unmake).
    pub checkers: Bitboard,
}

/// How much a setup must satisfy to become a `Position`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Validity {
    /// What move generation, search and evaluation can work on: one king a side in
    /// its palace, advisors in their own palace, elephants on their own side of the
    /// river, other pieces anywhere, at most 16 pieces a side, the kings not facing
    /// each other, the side not to move not in check. Composed studies (排局, 江湖
    /// 残局) are playable: a pawn on its own back rank, a third rook, an elephant
    /// off its seven points.
    Playable,
    /// Also what a game from the start position can reach: no more pieces of a kind
    /// than the set holds, and advisors, elephants and pawns only on the points
    /// their moves can reach.
    GameReachable,
}

#[derive(Clone)]
pub struct Position {
    board: [Option<Piece>; 90],
    by_color: [Bitboard; 2],
    by_kind: [Bitboard; 7],
    /// All pieces, file-major (`file * 10 + rank`), for file-slider lookups.
    occ_by_file: u128,
    king: [Square; 2],
    side: Color,
    key: u64,
    /// The pawns' part of the key (both colours), for pawn-structure tables.
    pawn_key: u64,
    /// Wrapping sum of `zobrist::MATERIAL` over every piece: the material on the
    /// board, whatever its placement.
    material_key: u64,
    /// Enemy pieces giving check to the side to move, kept up to date by make/unmake:
    /// search asks for it several times per node (at entry, after making a move to
    /// see whether it checks, and in move generation).
    checkers: Bitboard,
    plies_since_capture: u32,
    /// Full-move number of the starting setup, for FEN output.
    start_fullmove: u32,
    start_side: Color,
    history: Vec<StateInfo>,
}

impl Position {
    pub fn startpos() -> Position {
        Position::from_fen(START_FEN).expect("start FEN is valid")
    }

    /// A playable position from FEN text (see `Validity::Playable`).
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        Position::from_setup(&Setup::parse(fen)?)
    }

    /// A position from FEN text that a game from the start can reach
    /// (`Validity::GameReachable`).
    pub fn from_fen_strict(fen: &str) -> Result<Position, FenError> {
        Position::from_setup_checked(&Setup::parse(fen)?, Validity::GameReachable)
    }

    /// Build a playable position (composed studies included); `Setup::unreachable`
    /// says what, if anything, no game could reach.
    pub fn from_setup(setup: &Setup) -> Result<Position, FenError> {
        Position::from_setup_checked(setup, Validity::Playable)
    }

    /// Check a setup at the given level and build the position.
    pub fn from_setup_checked(setup: &Setup, validity: Validity) -> Result<Position, FenError> {
        if validity == Validity::GameReachable {
            if let Some(e) = setup.unreachable().into_iter().next() {
                return Err(e);
            }
        }
        let mut counts = [0u32; 14];
        let mut per_side = [0u32; 2];
        for (i, p) in setup.board.iter().enumerate() {
            if let Some(p) = p {
                counts[p.index()] += 1;
                per_side[p.color.index()] += 1;
                if p.kind == PieceKind::King && counts[p.index()] > 1 {
                    return Err(FenError::TooManyPieces {
                        piece: *p,
                        count: setup.board.iter().filter(|q| **q == Some(*p)).count() as u32,
                    });
                }
                if (attacks::PLAYABLE_POINTS[p.index()] >> i) & 1 == 0 {
                    return Err(FenError::PieceOffItsPoints {
                        piece: *p,
                        square: Square(i as u8),
                    });
                }
            }
        }
        for c in Color::BOTH {
            if per_side[c.index()] > MAX_PIECES_PER_SIDE {
                return Err(FenError::TooManyPiecesOfColor {
                    color: c,
                    count: per_side[c.index()],
                });
            }
        }
        for c in Color::BOTH {
            if counts[Piece::new(c, PieceKind::King).index()] == 0 {
                return Err(FenError::MissingKing(c));
            }
        }
        let mut pos = Position {
            board: [None; 90],
            by_color: [Bitboard::EMPTY; 2],
            by_kind: [Bitboard::EMPTY; 7],
            occ_by_file: 0,
            king: [Square(0); 2],
            side: setup.side,
            key: 0,
            pawn_key: 0,
            material_key: 0,
            checkers: Bitboard::EMPTY,
            plies_since_capture: setup.plies_since_capture,
            start_fullmove: setup.fullmove,
            start_side: setup.side,
            history: Vec::with_capacity(256),
        };
        for (i, p) in setup.board.iter().enumerate() {
            if let Some(p) = p {
                pos.put(*p, Square(i as u8));
            }
        }
        if setup.side == Color::Black {
            pos.key ^= zobrist::BLACK_TO_MOVE;
        }
        let (rk, bk) = (pos.king[0], pos.king[1]);
        if rk.file() == bk.file() && (attacks::between(rk, bk) & pos.occupied()).is_empty() {
            return Err(FenError::KingsFacing);
        }
        if pos.attackers_to_king(setup.side.flip()).any() {
            return Err(FenError::SideNotToMoveInCheck);
        }
        pos.checkers = pos.attackers_to_king(setup.side);
        Ok(pos)
    }

    pub fn to_setup(&self) -> Setup {
        Setup {
            board: self.board,
            side: self.side,
            plies_since_capture: self.plies_since_capture,
            fullmove: self.fullmove(),
        }
    }

    pub fn to_fen(&self) -> String {
        self.to_setup().to_fen()
    }

    /// The full-move number, counted from the setup's.
    pub fn fullmove(&self) -> u32 {
        let plies = self.history.len() as u32
            + if self.start_side == Color::Black {
                1
            } else {
                0
            };
        self.start_fullmove + plies / 2
    }

    #[inline(always)]
    fn put(&mut self, p: Piece, s: Square) {
        self.board[s.index()] = Some(p);
        let b = Bitboard::from_square(s);
        self.by_color[p.color.index()] |= b;
        self.by_kind[p.kind.index()] |= b;
        self.occ_by_file |= file_major_bit(s);
        self.key ^= zobrist::PIECE_SQUARE[p.index()][s.index()];
        self.material_key = self.material_key.wrapping_add(zobrist::MATERIAL[p.index()]);
        if p.kind == PieceKind::Pawn {
            self.pawn_key ^= zobrist::PIECE_SQUARE[p.index()][s.index()];
        }
        if p.kind == PieceKind::King {
            self.king[p.color.index()] = s;
        }
    }

    // ---- accessors ----

    #[inline(always)]
    pub fn side_to_move(&self) -> Color {
        self.side
    }
    #[inline(always)]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// Key of the pawns alone (both colours, placement only).
    #[inline(always)]
    pub fn pawn_key(&self) -> u64 {
        self.pawn_key
    }

    /// Key of the material alone (how many of each piece, not where).
    #[inline(always)]
    pub fn material_key(&self) -> u64 {
        self.material_key
    }
    #[inline(always)]
    pub fn piece_at(&self, s: Square) -> Option<Piece> {
        self.board[s.index()]
    }
    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        Bitboard(self.by_color[0].0 | self.by_color[1].0)
    }
    #[inline(always)]
    pub fn occ_by_file(&self) -> u128 {
        self.occ_by_file
    }
    #[inline(always)]
    pub fn pieces_of(&self, c: Color) -> Bitboard {
        self.by_color[c.index()]
    }
    #[inline(always)]
    pub fn pieces_of_kind(&self, k: PieceKind) -> Bitboard {
        self.by_kind[k.index()]
    }
    #[inline(always)]
    pub fn pieces(&self, c: Color, k: PieceKind) -> Bitboard {
        self.by_color[c.index()] & self.by_kind[k.index()]
    }
    #[inline(always)]
    pub fn king_square(&self, c: Color) -> Square {
        self.king[c.index()]
    }
    /// Plies since the last capture (or since the setup).
    #[inline(always)]
    pub fn plies_since_capture(&self) -> u32 {
        self.plies_since_capture
    }
    /// The states before each move played since the setup, oldest first.
    #[inline(always)]
    pub fn history(&self) -> &[StateInfo] {
        &self.history
    }
    /// Plies played since the setup.
    #[inline(always)]
    pub fn game_ply(&self) -> usize {
        self.history.len()
    }
    pub fn last_move(&self) -> Option<Move> {
        self.history.last().map(|s| s.mv)
    }

    // ---- attacks ----

    /// Pieces of colour `by` that attack `s` under occupancy `occ`/`occ_by_file`,
    /// restricted to the attacker set `alive` (so a caller can remove captured pieces).
    /// Kings count as attackers of adjacent palace points, and of the other king
    /// along an open file (the flying-general rule).
    #[inline(always)]
    pub fn attackers_with(
        &self,
        s: Square,
        by: Color,
        occ: Bitboard,
        occ_by_file: u128,
        alive: Bitboard,
    ) -> Bitboard {
        let them = self.by_color[by.index()] & alive;
        let k = &self.by_kind;
        let mut a = attacks::knight_attackers(s, occ) & k[PieceKind::Knight.index()];
        a |= attacks::pawn_attackers(by, s) & k[PieceKind::Pawn.index()];
        let rook_rays = attacks::rook(s, occ, occ_by_file);
        a |= rook_rays & k[PieceKind::Rook.index()];
        let kings = k[PieceKind::King.index()];
        // The flying general: a king "attacks" the other king along an open file only.
        if s == self.king[by.flip().index()] {
            a |= rook_rays & kings & file_of(s);
        }
        a |= attacks::king(s) & kings;
        a |= attacks::cannon_captures(s, occ, occ_by_file) & k[PieceKind::Cannon.index()];
        a |= attacks::advisor(s) & k[PieceKind::Advisor.index()];
        a |= attacks::elephant(s, occ) & k[PieceKind::Elephant.index()];
        a & them
    }

    /// All pieces of colour `by` attacking `s` in the current position.
    pub fn attackers(&self, s: Square, by: Color) -> Bitboard {
        self.attackers_with(s, by, self.occupied(), self.occ_by_file, Bitboard::FULL)
    }

    /// Enemy pieces giving check to the king of `c` (including a facing king).
    #[inline(always)]
    pub fn attackers_to_king(&self, c: Color) -> Bitboard {
        let ksq = self.king[c.index()];
        self.king_danger(
            ksq,
            c.flip(),
            self.occupied(),
            self.occ_by_file,
            Bitboard::FULL,
        )
    }

    /// Checkers of the side to move.
    #[inline(always)]
    pub fn checkers(&self) -> Bitboard {
        self.checkers
    }

    #[inline(always)]
    pub fn in_check(&self) -> bool {
        self.checkers().any()
    }

    /// Would a king on `ksq` be attacked by colour `by`, given an occupancy and the set
    /// of enemy pieces still on the board? Only the kinds that can reach a palace
    /// (rook, cannon, knight, pawn, and the enemy king along the file) are looked at.
    #[inline(always)]
    pub(crate) fn king_danger(
        &self,
        ksq: Square,
        by: Color,
        occ: Bitboard,
        occ_by_file: u128,
        alive: Bitboard,
    ) -> Bitboard {
        let them = self.by_color[by.index()] & alive;
        let k = &self.by_kind;
        let mut a = attacks::knight_attackers(ksq, occ) & k[PieceKind::Knight.index()];
        a |= attacks::pawn_attackers(by, ksq) & k[PieceKind::Pawn.index()];
        // Kings are never on the same rank, so a rook ray meeting the enemy king is the open file.
        a |= attacks::rook(ksq, occ, occ_by_file)
            & (k[PieceKind::Rook.index()] | k[PieceKind::King.index()]);
        a |= attacks::cannon_captures(ksq, occ, occ_by_file) & k[PieceKind::Cannon.index()];
        a & them
    }

    /// Pieces (of either colour) whose removal from the board would expose the king of
    /// `c` to a rook, cannon, knight or the enemy king: the single piece between a rook
    /// and the king, both pieces between a cannon and the king, a piece on the leg of a
    /// knight that eyes the king. Used for pins and discovered checks.
    pub fn king_blockers(&self, c: Color) -> Bitboard {
        let ksq = self.king[c.index()];
        let them = c.flip();
        let occ = self.occupied();
        let mut blockers = Bitboard::EMPTY;
        let line_attackers = (self.pieces(them, PieceKind::Rook)
            | self.pieces(them, PieceKind::King))
            & attacks::lines(ksq);
        for a in line_attackers {
            let b = attacks::between(ksq, a) & occ;
            if b.count() == 1 {
                blockers |= b;
            }
        }
        for a in self.pieces(them, PieceKind::Cannon) & attacks::lines(ksq) {
            let b = attacks::between(ksq, a) & occ;
            if b.count() == 2 {
                blockers |= b;
            }
        }
        // A knight whose leg is occupied: the leg piece is a blocker.
        for n in
            self.pieces(them, PieceKind::Knight) & attacks::knight_attackers(ksq, Bitboard::EMPTY)
        {
            let leg = attacks::knight_leg(n, ksq);
            if occ.has(leg) {
                blockers |= Bitboard::from_square(leg);
            }
        }
        blockers
    }

    // ---- make / unmake ----

    /// Play a move. The move must be legal (from `legal_moves` or `parse_move`).
    #[inline]
    pub fn make_move(&mut self, m: Move) {
        let (from, to) = (m.from(), m.to());
        let piece = self.board[from.index()].expect("make_move: no piece on from-square");
        let captured = self.board[to.index()];
        // Whether the other side is out of check before this move: it is after a move
        // of its own (a legal one); after its pass the pass kept its checkers (the
        // repetition rules pass in check); with no history it is not known.
        let them_safe = self
            .history
            .last()
            .is_some_and(|st| !st.mv.is_null() || st.checkers.is_empty());
        self.history.push(StateInfo {
            key: self.key,
            mv: m,
            captured,
            plies_since_capture: self.plies_since_capture,
            checkers: self.checkers,
        });
        let to_bb = Bitboard::from_square(to);
        if let Some(c) = captured {
            // The point stays occupied: only the captured piece's sets change.
            self.by_color[c.color.index()] ^= to_bb;
            self.by_kind[c.kind.index()] ^= to_bb;
            self.key ^= zobrist::PIECE_SQUARE[c.index()][to.index()];
            self.material_key = self.material_key.wrapping_sub(zobrist::MATERIAL[c.index()]);
            if c.kind == PieceKind::Pawn {
                self.pawn_key ^= zobrist::PIECE_SQUARE[c.index()][to.index()];
            }
            self.plies_since_capture = 0;
        } else {
            self.occ_by_file ^= file_major_bit(to);
            self.plies_since_capture += 1;
        }
        self.occ_by_file ^= file_major_bit(from);
        self.shift_piece(piece, from, to);
        if piece.kind == PieceKind::Pawn {
            self.pawn_key ^= zobrist::PIECE_SQUARE[piece.index()][from.index()]
                ^ zobrist::PIECE_SQUARE[piece.index()][to.index()];
        }
        self.key ^= zobrist::PIECE_SQUARE[piece.index()][from.index()]
            ^ zobrist::PIECE_SQUARE[piece.index()][to.index()]
            ^ zobrist::BLACK_TO_MOVE;
        self.side = self.side.flip();
        self.checkers = if them_safe {
            self.checkers_after(piece, from, to)
        } else {
            self.attackers_to_king(self.side)
        };
        debug_assert!(self.is_consistent(), "after make_move {m}: {self:?}");
    }

    /// The checkers of the side to move, just after `piece` moved from `from` to
    /// `to`, when that side was not in check before the move. Attacks on its king
    /// depend on the occupancy of its king's rank and file and of its diagonal
    /// neighbours (knights' legs) only: when the move emptied none of those points
    /// and filled no point on the rank or file, the only possible checker is the
    /// moved piece, and only a knight or a pawn can check from off those lines (as
    /// `gives_check` reasons).
    #[inline(always)]
    fn checkers_after(&self, piece: Piece, from: Square, to: Square) -> Bitboard {
        let ksq = self.king[self.side.index()];
        let lines = attacks::lines(ksq);
        if lines.has(to) || (lines | attacks::diagonal_neighbours(ksq)).has(from) {
            return self.attackers_to_king(self.side);
        }
        let checks = match piece.kind {
            PieceKind::Knight => attacks::knight_attackers(ksq, self.occupied()).has(to),
            PieceKind::Pawn => attacks::pawn_attackers(piece.color, ksq).has(to),
            _ => false,
        };
        if checks {
            Bitboard::from_square(to)
        } else {
            Bitboard::EMPTY
        }
    }

    /// Move `piece` from `from` to `to` in the mailbox and the colour and kind
    /// bitboards; the callers see to the file-major word and the key.
    #[inline(always)]
    fn shift_piece(&mut self, piece: Piece, from: Square, to: Square) {
        self.board[from.index()] = None;
        self.board[to.index()] = Some(piece);
        let both = Bitboard::from_square(from) | Bitboard::from_square(to);
        self.by_color[piece.color.index()] ^= both;
        self.by_kind[piece.kind.index()] ^= both;
        if piece.kind == PieceKind::King {
            self.king[piece.color.index()] = to;
        }
    }

    /// Take back the last move (or null move).
    #[inline]
    pub fn unmake_move(&mut self) {
        let st = match self.history.pop() {
            Some(s) => s,
            None => return,
        };
        self.side = self.side.flip();
        if !st.mv.is_null() {
            let (from, to) = (st.mv.from(), st.mv.to());
            let piece = self.board[to.index()].expect("unmake_move: no piece on to-square");
            // The key comes back from the state; the placement and the pawn and
            // material keys are undone.
            self.shift_piece(piece, to, from);
            self.occ_by_file ^= file_major_bit(from);
            if piece.kind == PieceKind::Pawn {
                self.pawn_key ^= zobrist::PIECE_SQUARE[piece.index()][from.index()]
                    ^ zobrist::PIECE_SQUARE[piece.index()][to.index()];
            }
            match st.captured {
                Some(c) => {
                    let to_bb = Bitboard::from_square(to);
                    self.board[to.index()] = Some(c);
                    self.by_color[c.color.index()] ^= to_bb;
                    self.by_kind[c.kind.index()] ^= to_bb;
                    self.material_key =
                        self.material_key.wrapping_add(zobrist::MATERIAL[c.index()]);
                    if c.kind == PieceKind::Pawn {
                        self.pawn_key ^= zobrist::PIECE_SQUARE[c.index()][to.index()];
                    }
                }
                None => self.occ_by_file ^= file_major_bit(to),
            }
        }
        self.key = st.key;
        self.plies_since_capture = st.plies_since_capture;
        self.checkers = st.checkers;
        debug_assert!(self.is_consistent(), "after unmake_move: {self:?}");
    }

    /// Pass the move (for null-move pruning). Not legal when in check.
    pub fn make_null_move(&mut self) {
        self.history.push(StateInfo {
            key: self.key,
            mv: Move::NULL,
            captured: None,
            plies_since_capture: self.plies_since_capture,
            checkers: self.checkers,
        });
        self.plies_since_capture += 1;
        self.side = self.side.flip();
        self.key ^= zobrist::BLACK_TO_MOVE;
        self.checkers = self.attackers_to_king(self.side);
    }

    /// Forget the move history (keeping the position), e.g. after a capture in a game
    /// record so that the stack does not grow without bound.
    pub fn clear_history(&mut self) {
        self.start_fullmove = self.fullmove();
        self.start_side = self.side;
        self.history.clear();
    }

    /// Key after playing `m`, without playing it (for hash prefetch).
    #[inline]
    pub fn key_after(&self, m: Move) -> u64 {
        let (from, to) = (m.from(), m.to());
        let mut k = self.key ^ zobrist::BLACK_TO_MOVE;
        if let Some(p) = self.board[from.index()] {
            k ^= zobrist::PIECE_SQUARE[p.index()][from.index()]
                ^ zobrist::PIECE_SQUARE[p.index()][to.index()];
        }
        if let Some(c) = self.board[to.index()] {
            k ^= zobrist::PIECE_SQUARE[c.index()][to.index()];
        }
        k
    }

    /// Everything kept incrementally agrees with the mailbox: the colour and kind
    /// bitboards, the file-major occupancy word, the king squares, the keys and the
    /// checkers. Checked after every make and unmake in builds with debug
    /// assertions (the `ci` profile runs the tests so), as Stockfish's `pos_is_ok`.
    pub fn is_consistent(&self) -> bool {
        let mut by_color = [Bitboard::EMPTY; 2];
        let mut by_kind = [Bitboard::EMPTY; 7];
        let mut by_file = 0u128;
        let mut pawn_key = 0u64;
        let mut material_key = 0u64;
        for (i, p) in self.board.iter().enumerate() {
            if let Some(p) = p {
                let s = Square(i as u8);
                by_color[p.color.index()] |= Bitboard::from_square(s);
                by_kind[p.kind.index()] |= Bitboard::from_square(s);
                by_file |= file_major_bit(s);
                material_key = material_key.wrapping_add(zobrist::MATERIAL[p.index()]);
                if p.kind == PieceKind::Pawn {
                    pawn_key ^= zobrist::PIECE_SQUARE[p.index()][i];
                }
                if p.kind == PieceKind::King && self.king[p.color.index()] != s {
                    return false;
                }
            }
        }
        by_color == self.by_color
            && by_kind == self.by_kind
            && by_file == self.occ_by_file
            && pawn_key == self.pawn_key
            && material_key == self.material_key
            && self.key == self.compute_key()
            && self.checkers == self.attackers_to_king(self.side)
    }

    /// Key computed from scratch (for tests of the incremental key).
    pub fn compute_key(&self) -> u64 {
        let mut k = if self.side == Color::Black {
            zobrist::BLACK_TO_MOVE
        } else {
            0
        };
        for (i, p) in self.board.iter().enumerate() {
            if let Some(p) = p {
                k ^= zobrist::PIECE_SQUARE[p.index()][i];
            }
        }
        k
    }
}

#[inline(always)]
pub(crate) fn file_of(s: Square) -> Bitboard {
    const FILE_A: u128 = {
        let mut m = 0u128;
        let mut r = 0;
        while r < 10 {
            m |= 1u128 << (r * 9);
            r += 1;
        }
        m
    };
    Bitboard(FILE_A << s.file())
}

impl fmt::Display for Position {
    /// A text diagram: Black at the top, ranks 9..0 on the left, files a..i below.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in (0..10u8).rev() {
            write!(f, "{rank} ")?;
            for file in 0..9u8 {
                let c = match self.board[Square::new(file, rank).index()] {
                    Some(p) => p.fen_char(),
                    None => '.',
                };
                write!(f, " {c}")?;
            }
            writeln!(f)?;
        }
        writeln!(f, "   a b c d e f g h i")?;
        write!(f, "{} to move; FEN {}", self.side, self.to_fen())
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({})", self.to_fen())
    }
}

impl PartialEq for Position {
    /// Same placement and side to move (history is not compared).
    fn eq(&self, o: &Position) -> bool {
        self.board == o.board && self.side == o.side
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every incrementally kept part agrees with the mailbox.
    fn assert_consistent(p: &Position) {
        assert_eq!(p.key(), p.compute_key(), "{p:?}");
        let rebuilt = Position::from_fen(&p.to_fen()).expect("valid");
        assert_eq!(p.by_color, rebuilt.by_color, "{p:?}");
        assert_eq!(p.by_kind, rebuilt.by_kind, "{p:?}");
        assert_eq!(p.occ_by_file, rebuilt.occ_by_file, "{p:?}");
        assert_eq!(p.king, rebuilt.king, "{p:?}");
    }

    #[test]
    fn kept_checkers_equal_computed_ones_through_make_unmake_and_null() {
        let mut x = 99u64;
        let mut rand = move || {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (x >> 33) as usize
        };
        let mut checks = 0;
        for _ in 0..40 {
            let mut p = Position::startpos();
            let mut made = 0;
            for _ in 0..300 {
                let moves = p.legal_moves();
                let r = rand() % 10;
                if made > 0 && (r < 3 || moves.is_empty()) {
                    p.unmake_move();
                    made -= 1;
                } else if r == 3 && !p.in_check() {
                    p.make_null_move();
                    made += 1;
                } else if !moves.is_empty() {
                    p.make_move(moves.as_slice()[rand() % moves.len()]);
                    made += 1;
                }
                assert_eq!(p.checkers(), p.attackers_to_king(p.side_to_move()), "{p:?}");
                assert_consistent(&p);
                checks += p.in_check() as u32;
            }
        }
        assert!(checks > 20, "{checks} positions in check");
    }
}
