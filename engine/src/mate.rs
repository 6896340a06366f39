//! A mate prover: a dedicated depth-first search that either proves that the
//! side to move forces mate within N moves (and gives the main line), or proves
//! that it cannot, or says it ran out of its limits.
//!
//! `attack(n)`: some attacker move leads to a position where every defence is
//! mated within n − 1 more attacker moves; `defend(n)`: the defender, to move,
//! has no legal move (mate, or 困毙: in xiangqi both lose), or every move it has
//! leaves a mate in n − 1. Iterative deepening on n makes the first mate found
//! the shortest. Attacker moves are tried checks first, then captures, then the
//! rest, and with one move left only checks and moves that leave the defender
//! without a move can mate, so only those are tried. Results are kept in a table
//! by (position, moves left).
//!
//! The kings facing each other (对面笑) are in the move generator: a defence that
//! would open the file is no legal move. The 棋例 apply conservatively: a move
//! that repeats a position of the line is never part of a forced mate (the
//! attacker may not force it through a repetition, and a defender who can repeat
//! has escaped the proof), and results that depended on a repetition are not
//! kept in the table.

use rules::repetition::find_repetition;
use rules::{Move, MoveList, Position};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

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

pub struct MateProver<'a> {
    table: HashMap<(u64, u32), bool>,
    pub nodes: u64,
    limits: MateLimits,
    start: Instant,
    stop: Option<&'a AtomicBool>,
    out_of_limits: bool,
    /// Repetitions met since the counter was last read: a result that saw one
    /// depends on the path and is not stored.
    repetitions: u64,
}

/// Table entries kept at most (a proof that needs more is answered `Unknown`
/// sooner than it would run out of memory).
const TABLE_MAX: usize = 4_000_000;

impl<'a> MateProver<'a> {
    pub fn new(limits: MateLimits, stop: Option<&'a AtomicBool>) -> MateProver<'a> {
        MateProver {
            table: HashMap::new(),
            nodes: 0,
            limits,
            start: Instant::now(),
            stop,
            out_of_limits: false,
            repetitions: 0,
        }
    }

    /// Prove or refute a mate in at most `max` moves for the side to move.
    pub fn prove(&mut self, pos: &Position, max: u32) -> MateResult {
        let mut pos = pos.clone();
        for n in 1..=max {
            let found = self.attack(&mut pos, n);
            if self.out_of_limits {
                return MateResult::Unknown { searched: n - 1 };
            }
            if found {
                let line = self.main_line(&mut pos, n);
                return MateResult::Mate { moves: n, line };
            }
        }
        MateResult::NoMate { max }
    }

    fn over_limits(&mut self) -> bool {
        if self.out_of_limits {
            return true;
        }
        let hit = self.limits.nodes.is_some_and(|n| self.nodes >= n)
            || (self.nodes & 1023 == 0
                && (self
                    .limits
                    .time_ms
                    .is_some_and(|t| self.start.elapsed().as_millis() as u64 >= t)
                    || self.stop.is_some_and(|s| s.load(Ordering::Relaxed))))
            || self.table.len() >= TABLE_MAX;
        self.out_of_limits = hit;
        hit
    }

    /// The attacker's moves in the order they are tried: checks, captures, the
    /// rest; with one move left, only those that can mate at once.
    fn attacker_moves(pos: &mut Position, n: u32) -> Vec<Move> {
        let moves: MoveList = pos.legal_moves();
        let mut checks = Vec::new();
        let mut captures = Vec::new();
        let mut quiet = Vec::new();
        for &m in moves.as_slice() {
            let capture = pos.piece_at(m.to()).is_some();
            pos.make_move(m);
            let check = pos.in_check();
            let stuck = n == 1 && !check && !pos.has_legal_move();
            pos.unmake_move();
            if check || stuck {
                checks.push(m);
            } else if n > 1 {
                if capture {
                    captures.push(m);
                } else {
                    quiet.push(m);
                }
            }
        }
        checks.extend(captures);
        checks.extend(quiet);
        checks
    }

    /// Can the side to move force mate within `n` moves?
    fn attack(&mut self, pos: &mut Position, n: u32) -> bool {
        if self.over_limits() {
            return false;
        }
        if let Some(&r) = self.table.get(&(pos.key(), n)) {
            return r;
        }
        self.nodes += 1;
        let reps_before = self.repetitions;
        let mut result = false;
        for m in MateProver::attacker_moves(pos, n) {
            pos.make_move(m);
            let repeats = find_repetition(pos).is_some();
            let mated = if repeats {
                self.repetitions += 1;
                false
            } else {
                self.defend(pos, n)
            };
            pos.unmake_move();
            if mated {
                result = true;
                break;
            }
            if self.out_of_limits {
                return false;
            }
        }
        if self.repetitions == reps_before && !self.out_of_limits {
            self.table.insert((pos.key(), n), result);
        }
        result
    }

    /// The defender to move after the attacker's `n`-th-from-last move: is it
    /// mated within the `n − 1` attacker moves left, whatever it plays?
    fn defend(&mut self, pos: &mut Position, n: u32) -> bool {
        self.nodes += 1;
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return true;
        }
        if n <= 1 || self.over_limits() {
            return false;
        }
        // Defences that capture or move the king first: they refute most often.
        let mut order: Vec<Move> = moves.as_slice().to_vec();
        let king = pos.king_square(pos.side_to_move());
        order.sort_by_key(|m| {
            if pos.piece_at(m.to()).is_some() {
                0
            } else if m.from() == king {
                1
            } else {
                2
            }
        });
        for d in order {
            pos.make_move(d);
            let escaped = if find_repetition(pos).is_some() {
                self.repetitions += 1;
                true
            } else {
                !self.attack(pos, n - 1)
            };
            pos.unmake_move();
            if escaped {
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
            let Some(m) = MateProver::attacker_moves(pos, n).into_iter().find(|&m| {
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
mod tests {
    use super::*;

    fn prove(fen: &str, max: u32) -> MateResult {
        let pos = Position::from_fen(fen).unwrap();
        MateProver::new(MateLimits::default(), None).prove(&pos, max)
    }

    fn moves_of(r: &MateResult) -> Option<u32> {
        match r {
            MateResult::Mate { moves, .. } => Some(*moves),
            _ => None,
        }
    }

    #[test]
    fn mates_in_one_and_two_with_their_lines() {
        // A rook mate on the back rank (the pawn on e7 covers e8).
        let r = prove("4k4/9/4P4/9/9/9/9/9/9/R2K5 w", 3);
        assert_eq!(moves_of(&r), Some(1), "{r:?}");
        let MateResult::Mate { line, .. } = r else {
            unreachable!()
        };
        assert_eq!(line.len(), 1);
        let mut p = Position::from_fen("4k4/9/4P4/9/9/9/9/9/9/R2K5 w").unwrap();
        p.make_move(line[0]);
        assert!(!p.has_legal_move() && p.in_check());
    }

    #[test]
    fn a_side_left_without_a_move_is_mated_too() {
        // 困毙: the session-3 study, mate in 2 ending with Black unable to move.
        let fen = "3arcb2/1R2akrcC/1P6b/7N1/5n3/P8/9/R5n2/5K3/6ppp w";
        let r = prove(fen, 3);
        assert_eq!(moves_of(&r), Some(2), "{r:?}");
        let MateResult::Mate { line, .. } = r else {
            unreachable!()
        };
        let mut p = Position::from_fen(fen).unwrap();
        for m in &line {
            assert!(p.is_legal(*m));
            p.make_move(*m);
        }
        assert!(!p.has_legal_move());
    }

    #[test]
    fn no_mate_is_proved_where_there_is_none() {
        assert_eq!(prove(rules::START_FEN, 2), MateResult::NoMate { max: 2 });
        // Bare kings and a rook that cannot mate in one.
        assert_eq!(
            prove("4k4/9/9/9/9/9/9/9/9/R2K5 w", 1),
            MateResult::NoMate { max: 1 }
        );
    }

    #[test]
    fn limits_give_unknown_not_a_wrong_answer() {
        let pos = Position::startpos();
        let mut p = MateProver::new(
            MateLimits {
                nodes: Some(50),
                time_ms: None,
            },
            None,
        );
        assert!(matches!(p.prove(&pos, 4), MateResult::Unknown { .. }));
    }
}
