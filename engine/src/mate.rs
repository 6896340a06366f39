//! A mate prover: a dedicated depth-first search that either proves that the
//! side to move forces mate within N moves (and gives the main line), or proves
//! that it cannot, or says it ran out of its limits.
//!
//! `attack(n)`: some attacker move leads to a position where every defence is
//! mated within n − 1 more attacker moves; `defend(n)`: the defender, to move,
//! has no legal move (mate, or 困毙: in xiangqi both lose), or every move it has
//! leaves a mate in n − 1. Iterative deepening on n makes the first mate found
//! the shortest. Attacker moves are tried checks first, then captures, then the
//! rest (whether a move checks is read from the board without making it); with
//! one move left each move is made once and mates when the defender then has no
//! legal move. Results are kept in a table by position (attacker or defender to
//! move) as two bounds, "no mate within a" and "mate within b", which every depth
//! of the iterative deepening shares and which also order the moves; mates in
//! one are not kept (finding one again costs less than looking it up)
//! (docs/MATES.md).
//!
//! The kings facing each other (对面笑) are in the move generator: a defence that
//! would open the file is no legal move. The 棋例 apply conservatively: a move
//! that repeats a position of the line is never part of a forced mate (the
//! attacker may not force it through a repetition, and a defender who can repeat
//! has escaped the proof), and a result is not kept in the table when a
//! repetition below its node reached a position above it (it depends on the path).

mod dfpn;
mod escape;
mod order;
mod table;

use escape::Escapes;
use order::{bring_forward, history_index, killer_slot, KILLER_SLOTS};
use rules::repetition::find_repetition;
use rules::{Move, MoveList, Position, Square};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;
use table::Table;

/// What the prover found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MateResult {
    /// A forced mate in `moves` moves (and no shorter one), with a main line in
    /// which the defender delays the mate as long as it can.
    Mate { moves: u32, line: Vec<Move> },
    /// Proved: no forced mate in `max` moves or fewer.
    NoMate { max: u32 },
    /// The node or time limit (or a stop) came first; no mate in fewer than
    /// `searched` + 1 moves was found, and none shorter exists.
    Unknown { searched: u32 },
}

/// Limits of one proof.
#[derive(Clone, Copy, Debug, Default)]
pub struct MateLimits {
    pub nodes: Option<u64>,
    pub time_ms: Option<u64>,
}

/// Asked when a node or time limit is reached, with how many moves have been
/// proved to hold no mate so far and the nodes searched: new limits to go on with (the proof resumes
/// where it stood, nothing is lost), or `None` to stop.
pub type Pause<'a> = Box<dyn FnMut(u32, u64) -> Option<MateLimits> + Send + 'a>;

/// What is known of one position with the attacker to move. "Mate within n" is
/// monotone in n (a mate in n is a mate within n + 1), so two numbers say it all.
#[derive(Clone, Copy, Default)]
struct Known {
    /// No mate within this many moves (0: nothing proved).
    no_mate_upto: u8,
    /// A mate within this many moves (0: none proved).
    mate_within: u8,
    /// The attacker's move that proved `mate_within`.
    best: Move,
}

impl Known {
    /// What this says of a mate within `n` moves: proved, refuted, or unknown.
    fn answer(&self, n: u32) -> Option<bool> {
        if n <= self.no_mate_upto as u32 {
            Some(false)
        } else if self.mate_within != 0 && n >= self.mate_within as u32 {
            Some(true)
        } else {
            None
        }
    }
}

pub struct MateProver<'a> {
    table: Table,
    pub nodes: u64,
    limits: MateLimits,
    start: Instant,
    stop: Option<&'a AtomicBool>,
    out_of_limits: bool,
    pause: Option<Pause<'a>>,
    /// Mates of up to this many moves are proved not to exist (in this proof).
    proved_none: u32,
    /// While the main line of a proved mate is read, the limits do not apply
    /// (the proof is done; a cut line would be a wrong answer).
    reading_line: bool,
    /// The history length at the position being proved (its ply 0).
    root_len: usize,
    /// The lowest ply (from the position being proved) at which a position
    /// repeated in the subtree being searched had stood before, `usize::MAX`
    /// when none repeated. A result depends on the path that led to its node
    /// only if a repetition in its subtree reaches above the node: one whose
    /// cycle lies wholly below it is met whichever way the node is reached,
    /// so that result is kept in the table (else a proof whose lines repeat
    /// somewhere deep would be recomputed at each visit, and a proof resumed
    /// in slices would never finish).
    rep_floor: usize,
    /// The attacker move that last mated with each number of moves left:
    /// siblings are often mated the same way.
    attack_killer: [Move; KILLER_SLOTS],
    /// For each attacker move (from, to), how often it mated, each mate in
    /// n counted n² (a long mate says more of the position than a short
    /// one): within checks, captures and the rest, the moves that mated
    /// most often elsewhere in the proof are tried first.
    history: Vec<u32>,
    /// The same for the defender's replies that escaped a defence with three
    /// or more attacker moves left: among replies the table ranks alike, those
    /// first (with two moves left the first reply escapes almost always, and
    /// the history there measured slower).
    defence_history: Vec<u32>,
    /// Scratch space for a node's children's keys and their order, used
    /// before the node recurses (so one buffer serves every node, and no
    /// node clears an array of the longest move list's size).
    child_keys: Vec<u64>,
    ranked: Vec<(u32, Move)>,
}

/// The proof-number search runs before the passes from this many moves on,
/// with 1 / `DFPN_SHARE` of the previous pass's nodes, and at least
/// `DFPN_MIN_BUDGET`. Since the depth-first passes order their moves by the
/// history of mates they have become cheaper, and a sixteenth does best on
/// the suite's 26 slowest mates (a quarter, an eighth, a sixteenth and a
/// thirty-second tried; with almost none, M6-113 and M6-157 are twice as
/// slow), docs/MATES.md.
const DFPN_FROM: u32 = 3;
const DFPN_SHARE: u64 = 16;
const DFPN_MIN_BUDGET: u64 = 2_000;

/// Table entries kept at most (past it new positions evict the cheapest old
/// ones, table.rs: a long proof goes on within bounded memory).
const TABLE_MAX: usize = 4_000_000;

/// Whether the side to move has no legal move (in check too, `has_legal_move`
/// tests only the moves that can answer the check, and stops at the first).
fn no_legal_move(pos: &Position) -> bool {
    !pos.has_legal_move()
}

impl<'a> MateProver<'a> {
    pub fn new(limits: MateLimits, stop: Option<&'a AtomicBool>) -> MateProver<'a> {
        MateProver {
            table: Table::new(TABLE_MAX),
            nodes: 0,
            limits,
            start: Instant::now(),
            stop,
            out_of_limits: false,
            pause: None,
            proved_none: 0,
            reading_line: false,
            root_len: 0,
            rep_floor: usize::MAX,
            attack_killer: [Move::NULL; KILLER_SLOTS],
            history: vec![0; Square::COUNT * Square::COUNT],
            defence_history: vec![0; Square::COUNT * Square::COUNT],
            child_keys: Vec::with_capacity(rules::movegen::MAX_MOVES),
            ranked: Vec::with_capacity(rules::movegen::MAX_MOVES),
        }
    }

    /// New limits for the next `prove`, keeping what the table learnt: a search
    /// that proves a little at a time resumes where it stopped. The node limit
    /// counts from now and the time limit from this call.
    pub fn set_limits(&mut self, limits: MateLimits) {
        self.limits = MateLimits {
            nodes: limits.nodes.map(|n| self.nodes.saturating_add(n)),
            time_ms: limits.time_ms,
        };
        self.start = Instant::now();
        self.out_of_limits = false;
    }

    /// Pause at the limits instead of stopping: `pause` decides whether and how
    /// far to go on (a prover on a thread of its own that takes turns with the
    /// search keeps its whole search stack this way).
    pub fn set_pause(&mut self, pause: Pause<'a>) {
        self.pause = Some(pause);
    }

    /// Cap the table at `entries` (a prover beside the search keeps it small);
    /// past the cap new positions evict old ones (table.rs).
    pub fn set_table_max(&mut self, entries: usize) {
        self.table.set_max(entries);
    }

    /// Prove or refute a mate in at most `max` moves for the side to move.
    pub fn prove(&mut self, pos: &Position, max: u32) -> MateResult {
        let mut pos = pos.clone();
        self.root_len = pos.history().len();
        self.rep_floor = usize::MAX;
        self.proved_none = 0;
        let mut last_pass = 0;
        for n in 1..=max.min(u8::MAX as u32) {
            let pass_start = self.nodes;
            // A proof-number search first, with a sixteenth of the nodes of
            // the pass before: it finds many mates long before the depth-first pass
            // would reach the mating move (dfpn.rs); what it does not prove,
            // the depth-first pass decides.
            let found = (n >= DFPN_FROM
                && self.dfpn_proves(&mut pos, n, (last_pass / DFPN_SHARE).max(DFPN_MIN_BUDGET)))
                || (!self.out_of_limits && self.attack(&mut pos, n));
            last_pass = self.nodes - pass_start;
            if self.out_of_limits {
                return MateResult::Unknown { searched: n - 1 };
            }
            if !found {
                self.proved_none = n;
            } else {
                self.reading_line = true;
                let line = self.main_line(&mut pos, n);
                self.reading_line = false;
                return MateResult::Mate { moves: n, line };
            }
        }
        MateResult::NoMate { max }
    }

    fn over_limits(&mut self) -> bool {
        if self.reading_line {
            return false;
        }
        if self.out_of_limits {
            return true;
        }
        let polled = self.nodes & 1023 == 0;
        let stopped = polled && self.stop.is_some_and(|s| s.load(Ordering::Relaxed));
        let spent = self.limits.nodes.is_some_and(|n| self.nodes >= n)
            || polled
                && self
                    .limits
                    .time_ms
                    .is_some_and(|t| self.start.elapsed().as_millis() as u64 >= t);
        if spent && !stopped {
            let (proved_none, nodes) = (self.proved_none, self.nodes);
            if let Some(more) = self.pause.as_mut().and_then(|p| p(proved_none, nodes)) {
                self.set_limits(more);
                return false;
            }
        }
        let hit = spent || stopped;
        self.out_of_limits = hit;
        hit
    }

    /// Can the side to move force mate within `n` moves?
    fn attack(&mut self, pos: &mut Position, n: u32) -> bool {
        if self.over_limits() {
            return false;
        }
        if n == 1 {
            return self.attack_in_one(pos);
        }
        let key = pos.key();
        let known = self.known(key);
        if let Some(r) = known.answer(n) {
            return r;
        }
        self.nodes += 1;
        let ply = pos.history().len() - self.root_len;
        let floor_above = std::mem::replace(&mut self.rep_floor, usize::MAX);
        let mating = match self.mating_move(pos, n, known.best) {
            Some(m) => m,
            None => {
                self.rep_floor = self.rep_floor.min(floor_above);
                return false;
            }
        };
        let result = !mating.is_null();
        if result {
            self.attack_killer[killer_slot(n)] = mating;
            let h = &mut self.history[history_index(mating)];
            *h = h.saturating_add(n * n);
        }
        let path_free = self.rep_floor >= ply;
        self.rep_floor = self.rep_floor.min(floor_above);
        if path_free && !self.out_of_limits {
            self.remember(key, n, result, mating);
        }
        result
    }

    /// `attack` with one move left. Its answers are not kept in the table: a mate
    /// in one is found by making a few moves (escape.rs rules most out unmade),
    /// which costs less than the table's cache misses, and without them the
    /// table holds a fraction of the positions (a defence with two moves left
    /// probed every reply's child: on M6-173 of the suite that made the
    /// prover 18 % slower, docs/MATES.md).
    fn attack_in_one(&mut self, pos: &mut Position) -> bool {
        self.nodes += 1;
        let floor_above = std::mem::replace(&mut self.rep_floor, usize::MAX);
        let mating = self.mate_in_one(pos);
        self.rep_floor = self.rep_floor.min(floor_above);
        if !mating.is_null() {
            self.attack_killer[1] = mating;
        }
        !mating.is_null()
    }

    /// Does the position just reached repeat one of its line (or of the game)?
    /// Notes how far up the repeated position stood.
    fn repeats(&mut self, pos: &Position) -> bool {
        match find_repetition(pos) {
            Some(at) => {
                self.rep_floor = self.rep_floor.min(at.saturating_sub(self.root_len));
                true
            }
            None => false,
        }
    }

    /// A move after which the defender has no legal move: mated, or 困毙 (both
    /// lose in xiangqi), so one test covers both. `Move::NULL` when there is none.
    /// Each move is made once (making it also tells whether it checks); the
    /// sibling's mating move goes first: in a defence's replies the same mate
    /// usually works.
    fn mate_in_one(&mut self, pos: &mut Position) -> Move {
        // Moves far from the defender's king that leave one of its present moves
        // untouched cannot mate: they are not made (escape.rs); often only
        // checks can, and only they are generated.
        let escapes = Escapes::of(pos);
        let only_checks = escapes.as_ref().is_some_and(|e| e.only_checks_mate());
        let mut moves = if only_checks {
            pos.legal_checks()
        } else {
            pos.legal_moves()
        };
        bring_forward(moves.as_mut_slice(), 0, self.attack_killer[1]);
        for &m in moves.as_slice() {
            if !only_checks
                && escapes
                    .as_ref()
                    .is_some_and(|e| e.survive(pos, m, || pos.gives_check(m)))
            {
                continue;
            }
            pos.make_move(m);
            // The repetition is asked only of a move that would mate: one that
            // does not mate anyway must not make the result depend on the path
            // (and keep it out of the table).
            let mates = no_legal_move(pos) && !self.repeats(pos);
            pos.unmake_move();
            if mates {
                return m;
            }
        }
        Move::NULL
    }

    /// The attacker's move that mates within `n` (≥ 2) moves, `Move::NULL` when
    /// none does, `None` when the limits came first. Tries the move that mated
    /// here in a longer proof, then the sibling's mating move, then checks,
    /// captures and the rest, each kind by the history of mates.
    fn mating_move(&mut self, pos: &mut Position, n: u32, best: Move) -> Option<Move> {
        let all = self.ordered_attacker_moves(pos);
        // Moves into a defence the table knows: mated there, tried first; escapes
        // there, not tried at all.
        let mut moves = MoveList::new();
        let mut later = MoveList::new();
        let keys = self.child_keys(pos, &all);
        for (&m, &key) in all.as_slice().iter().zip(keys.iter()) {
            match self.known(key).answer(n) {
                Some(false) => continue,
                Some(true) => moves.push(m),
                None => later.push(m),
            }
        }
        self.child_keys = keys;
        let fixed = moves.len();
        for &m in later.as_slice() {
            moves.push(m);
        }
        let fixed = bring_forward(moves.as_mut_slice(), fixed, best);
        bring_forward(
            moves.as_mut_slice(),
            fixed,
            self.attack_killer[killer_slot(n)],
        );
        for &m in moves.as_slice() {
            pos.make_move(m);
            let mated = if self.repeats(pos) {
                false
            } else {
                self.defend(pos, n)
            };
            pos.unmake_move();
            if mated {
                return Some(m);
            }
            if self.out_of_limits {
                return None;
            }
        }
        Some(Move::NULL)
    }

    /// The defender to move after the attacker's `n`-th-from-last move: is it
    /// mated within the `n − 1` attacker moves left, whatever it plays?
    fn defend(&mut self, pos: &mut Position, n: u32) -> bool {
        self.nodes += 1;
        if n <= 1 {
            return no_legal_move(pos);
        }
        // Defences are kept in the table too (the side to move is in the key):
        // attacker moves transpose into the same defences.
        let key = pos.key();
        if let Some(r) = self.known(key).answer(n) {
            return r;
        }
        let ply = pos.history().len() - self.root_len;
        let floor_above = std::mem::replace(&mut self.rep_floor, usize::MAX);
        let mated = self.all_defences_mated(pos, n);
        let path_free = self.rep_floor >= ply;
        self.rep_floor = self.rep_floor.min(floor_above);
        if path_free && !self.out_of_limits {
            self.remember(key, n, mated, Move::NULL);
        }
        mated
    }

    /// The keys of the children by `moves`, each one's table slot prefetched: the
    /// lookups that follow then overlap their cache misses instead of waiting for
    /// them one after the other.
    /// The buffer is the prover's scratch one, to be handed back once read.
    #[inline(always)]
    fn child_keys(&mut self, pos: &Position, moves: &MoveList) -> Vec<u64> {
        let mut keys = std::mem::take(&mut self.child_keys);
        keys.clear();
        for &m in moves.as_slice() {
            let k = pos.key_after(m);
            self.table.prefetch(k);
            keys.push(k);
        }
        keys
    }

    /// What the table knows of the position `key` (nothing: the default).
    fn known(&self, key: u64) -> Known {
        self.table.get(key)
    }

    /// Keep in the table what was proved of the position `key` with `n` moves.
    fn remember(&mut self, key: u64, n: u32, mate: bool, best: Move) {
        let e = self.table.entry(key);
        if mate {
            if e.mate_within == 0 || n < e.mate_within as u32 {
                e.mate_within = n as u8;
                e.best = best;
            }
        } else {
            e.no_mate_upto = e.no_mate_upto.max(n as u8);
        }
    }

    /// `defend`'s search: every legal move of the defender (≥ 2 attacker moves left).
    fn all_defences_mated(&mut self, pos: &mut Position, n: u32) -> bool {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return true;
        }
        if self.over_limits() {
            return false;
        }
        // What the table knows of each reply decides the order: a reply already
        // known to escape ends the node at once; then the replies that escaped
        // longest in earlier proofs (iterative deepening met them with fewer
        // moves left), captures and king moves (they refute most often), and
        // last the replies known to be mated; among equals, the replies that
        // escaped most often elsewhere (the defence history). (Trying first the
        // defence that escaped in the sibling measured worse: 1.4-4.6 times the
        // nodes on the suite's slowest mates.) With one attacker move left the
        // table knows nothing of the replies (mates in one are not kept), so the
        // kind alone orders them.
        let king = pos.king_square(pos.side_to_move());
        let class = |m: Move| {
            if pos.piece_at(m.to()).is_some() {
                3
            } else if m.from() == king {
                2
            } else {
                1
            }
        };
        let mut keyed = std::mem::take(&mut self.ranked);
        keyed.clear();
        if n == 2 {
            keyed.extend(moves.as_slice().iter().map(|&m| (class(m), m)));
        } else {
            let keys = self.child_keys(pos, &moves);
            for (&m, &key) in moves.as_slice().iter().zip(keys.iter()) {
                let known = self.known(key);
                if known.answer(n - 1) == Some(false) {
                    self.child_keys = keys;
                    self.ranked = keyed;
                    return false;
                }
                let class = if known.mate_within != 0 { 0 } else { class(m) };
                let dh = self.defence_history[history_index(m)].min(0xffff);
                keyed.push(((known.no_mate_upto as u32 * 4 + class) << 16 | dh, m));
            }
            self.child_keys = keys;
        }
        keyed.sort_unstable_by_key(|&(k, _)| std::cmp::Reverse(k));
        let mut order = MoveList::new();
        for &(_, m) in keyed.iter() {
            order.push(m);
        }
        self.ranked = keyed;
        for &d in order.as_slice() {
            pos.make_move(d);
            let escaped = if self.repeats(pos) {
                true
            } else {
                !self.attack(pos, n - 1)
            };
            pos.unmake_move();
            if escaped {
                if n > 2 {
                    let h = &mut self.defence_history[history_index(d)];
                    *h = h.saturating_add(n * n);
                }
                return false;
            }
        }
        true
    }

    /// The main line of a proved mate in `n`: the attacker's first mating move,
    /// the defence that lasts longest, and so on.
    fn main_line(&mut self, pos: &mut Position, n: u32) -> Vec<Move> {
        let mut line = Vec::new();
        let mut n = n;
        let mut played = 0;
        while n > 0 {
            // The table's mating move first (a proof-number proof leaves only its
            // table behind, and the other moves would each need a search).
            let mut moves = MateProver::attacker_moves(pos).0;
            let known = self.known(pos.key());
            if known.mate_within != 0 && known.mate_within as u32 <= n {
                bring_forward(moves.as_mut_slice(), 0, known.best);
            }
            let Some(m) = moves.iter().copied().find(|&m| {
                pos.make_move(m);
                let ok = find_repetition(pos).is_none() && self.defend(pos, n);
                pos.unmake_move();
                ok
            }) else {
                break;
            };
            pos.make_move(m);
            played += 1;
            line.push(m);
            let replies: Vec<Move> = pos.legal_moves().as_slice().to_vec();
            if replies.is_empty() || n == 1 {
                break;
            }
            // The reply after which the mate takes longest.
            let mut best: Option<(u32, Move)> = None;
            for d in replies {
                pos.make_move(d);
                let k = (1..n).find(|&k| self.attack(pos, k)).unwrap_or(n);
                pos.unmake_move();
                if best.is_none_or(|(bk, _)| k > bk) {
                    best = Some((k, d));
                }
            }
            let (k, d) = best.expect("a reply");
            pos.make_move(d);
            played += 1;
            line.push(d);
            n = k;
        }
        for _ in 0..played {
            pos.unmake_move();
        }
        line
    }
}

#[cfg(test)]
mod tests;
