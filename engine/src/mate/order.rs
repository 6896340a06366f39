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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mate::MateLimits;

    /// Checks, then captures, then the rest; within each kind the moves with
    /// more history first, equal ones in the generator's order; nothing lost.
    #[test]
    fn each_kind_is_ordered_by_the_history_of_mates() {
        // M6-150 of the mate suite: Black has checks, captures and quiet moves.
        let pos = Position::from_fen("4kab2/4a4/4b4/p8/2pn5/8p/3n5/4BA3/2r1AK3/r1B3C2 b - - 3 50")
            .unwrap();
        let mut prover = MateProver::new(MateLimits::default(), None);
        let (plain, [checks, captures]) = MateProver::attacker_moves(&pos);
        assert!(checks > 0 && captures > checks && plain.len() > captures + 3);
        // Raise the history of the last move of each kind, and of two quiet
        // moves by different amounts.
        let quiet = &plain.as_slice()[captures..];
        let raised = [
            (plain.as_slice()[checks - 1], 5),
            (plain.as_slice()[captures - 1], 7),
            (quiet[quiet.len() - 1], 9),
            (quiet[1], 4),
        ];
        for &(m, h) in &raised {
            prover.history[history_index(m)] = h;
        }
        let ordered = prover.ordered_attacker_moves(&pos);
        let o = ordered.as_slice();
        assert_eq!(o.len(), plain.len());
        assert_eq!(o[0], raised[0].0, "the raised check first");
        assert_eq!(o[checks], raised[1].0, "the raised capture first");
        assert_eq!(o[captures], raised[2].0, "the most raised quiet move first");
        assert_eq!(o[captures + 1], raised[3].0, "then the other one");
        // The rest of each kind keeps the generator's order.
        let rest: Vec<Move> = o[captures + 2..].to_vec();
        let expected: Vec<Move> = quiet
            .iter()
            .copied()
            .filter(|m| *m != raised[2].0 && *m != raised[3].0)
            .collect();
        assert_eq!(rest, expected);
        let mut a = o.to_vec();
        let mut b = plain.as_slice().to_vec();
        a.sort_by_key(|m| m.0);
        b.sort_by_key(|m| m.0);
        assert_eq!(a, b, "the same moves");
    }
}
