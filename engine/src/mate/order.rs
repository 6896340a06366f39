//! The order in which the prover tries moves: the attacker's checks, captures
//! and the rest, each kind by the history of mates (the moves that mated most
//! often elsewhere in the proof, a mate in n counting n²), and the helpers
//! that bring the table's move and the killer to the front (docs/MATES.md).

use super::MateProver;
use rules::{Move, MoveList, Position, Square};

/// Killer slots, one for each number of moves left (longer mates share the last).
pub(super) const KILLER_SLOTS: usize = 32;

/// The history's slot of an attacker move.
pub(super) fn history_index(m: Move) -> usize {
    m.from().index() * Square::COUNT + m.to().index()
}

pub(super) fn killer_slot(n: u32) -> usize {
    (n as usize).min(KILLER_SLOTS - 1)
}

/// Put `first` at the front of `moves[from..]` when it is there (the others keep
/// their order); returns where the unfixed part now starts.
pub(super) fn bring_forward(moves: &mut [Move], from: usize, first: Move) -> usize {
    if first.is_null() {
        return from;
    }
    match moves[from..].iter().position(|&m| m == first) {
        Some(i) => {
            moves[from..=from + i].rotate_right(1);
            from + 1
        }
        None => from,
    }
}

impl MateProver<'_> {
    /// The attacker's moves in the order they are tried: checks, captures, the
    /// rest (whether a move checks is read from the board, without making it),
    /// and where the checks and the captures end.
    pub(super) fn attacker_moves(pos: &Position) -> (MoveList, [usize; 2]) {
        let moves: MoveList = pos.legal_moves();
        let mut checks = MoveList::new();
        let mut captures = MoveList::new();
        let mut quiet = MoveList::new();
        for &m in moves.as_slice() {
            if pos.gives_check(m) {
                checks.push(m);
            } else if pos.piece_at(m.to()).is_some() {
                captures.push(m);
            } else {
                quiet.push(m);
            }
        }
        let ends = [checks.len(), checks.len() + captures.len()];
        for &m in captures.iter().chain(quiet.iter()) {
            checks.push(m);
        }
        (checks, ends)
    }

    /// `attacker_moves`, each kind ordered by the history of mates (most first;
    /// equal ones keep the generator's order).
    pub(super) fn ordered_attacker_moves(&self, pos: &Position) -> MoveList {
        let (mut moves, [checks, captures]) = MateProver::attacker_moves(pos);
        let score = |m: Move| self.history[history_index(m)];
        for part in [0..checks, checks..captures, captures..moves.len()] {
            let part = &mut moves.as_mut_slice()[part];
            // Insertion sort: short lists, mostly in order already, no allocation.
            for i in 1..part.len() {
                let m = part[i];
                let s = score(m);
                let mut j = i;
                while j > 0 && score(part[j - 1]) < s {
                    part[j] = part[j - 1];
                    j -= 1;
                }
                part[j] = m;
            }
        }
        moves
    }
}
