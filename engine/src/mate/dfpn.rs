//! A depth-first proof-number search (df-pn) for "mate within n", tried before
//! each pass of the prover's iterative deepening with a small node budget.
//!
//! The depth-first prover spends most of a proof on its last pass, refuting the
//! attacker's wrong moves one after the other before it reaches the mating one
//! (docs/MATES.md). Proof numbers go where the proof looks cheapest instead: at
//! an attacker node the move whose proof needs the fewest positions settled
//! (pn: the minimum over the moves, dn: the sum), at a defender node the reply
//! hardest to mate (pn: the sum, dn: the minimum), with the usual thresholds
//! (and the 1 + ε widening) so that the search stays depth-first. A defender
//! node not yet expanded starts with pn = its number of evasions after a check
//! (counted once, when first met) and 3 after a quiet move: on the suite's 26
//! slowest mates, df-pn alone at each mate's length took 5.8 s instead of 9.6 s
//! with a flat 1 for checks (docs/MATES.md).
//!
//! What it proves it proves under the same rules as the depth-first prover: a
//! move that repeats a position of the line is never part of a mate (it is a
//! disproof at an attacker's move and an escape at a defender's), checked on
//! the path before a child's value is read, and with one move left the mate in
//! one of the prover itself is the leaf. A disproof may rest on a repetition of
//! this path, so a disproof is never trusted: the depth-first pass runs then
//! as before and decides. A proof is handed to the prover's table (the mating
//! move of each attacker position of the proof), where the depth-first prover
//! reads the main line from it.

use super::MateProver;
use rules::repetition::would_repeat;
use rules::{Move, MoveList, Position};
use std::collections::HashMap;
use std::hash::BuildHasherDefault;
use std::hash::Hasher;

/// The table's keys are Zobrist keys, already uniformly random: hashing them
/// again (SipHash) only costs time.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ b as u64;
        }
    }
    fn write_u64(&mut self, k: u64) {
        self.0 = k;
    }
}

const INF: u32 = 1 << 28;

/// What is known of one node: proof and disproof numbers, and for a proved
/// attacker node the move that proved it.
#[derive(Clone, Copy)]
struct Entry {
    key: u64,
    n: u8,
    pn: u32,
    dn: u32,
    best: Move,
}

/// One df-pn run's table and counters.
pub(super) struct Dfpn {
    table: HashMap<u64, Entry, BuildHasherDefault<KeyHasher>>,
    budget_end: u64,
    aborted: bool,
}

impl Dfpn {
    /// Keep a node's numbers (and, for a proved attacker node, its mating move).
    fn record(&mut self, key: u64, n: u32, (pn, dn): (u32, u32), best: Move) {
        self.table.insert(
            slot(key, n),
            Entry {
                key,
                n: n as u8,
                pn,
                dn,
                best,
            },
        );
    }
}

/// A node is a position and the attacker moves left (counting the one just made
/// at a defender node); the side to move is in the key.
fn slot(key: u64, n: u32) -> u64 {
    key ^ (n as u64).wrapping_mul(rules::rng::GOLDEN)
}

impl MateProver<'_> {
    /// Try to prove a mate within `n` moves from `pos` (attacker to move) in at
    /// most `budget` nodes. On a proof the table holds its mating moves and the
    /// answer is `true`; `false` says nothing (no proof within the budget, or a
    /// disproof, which is not trusted). Whatever it proved on the way, also
    /// below an unproved root, goes to the table.
    pub(super) fn dfpn_proves(&mut self, pos: &mut Position, n: u32, budget: u64) -> bool {
        let mut run = Dfpn {
            table: HashMap::default(),
            budget_end: self.nodes.saturating_add(budget),
            aborted: false,
        };
        let root = self.mid(&mut run, pos, n, true, INF, INF);
        self.rep_floor = usize::MAX;
        // Every proof it made holds (also of a subtree when the root is not
        // proved): the depth-first pass finds them in the table.
        for e in run.table.values() {
            if e.pn == 0 {
                self.remember(e.key, e.n as u32, true, e.best);
            }
        }
        root.0 == 0
    }

    /// The value of the child of `pos` by move `m`, `n` being the child node's
    /// attacker moves left, `or_child` whether the attacker moves there.
    fn child_value(
        &mut self,
        run: &mut Dfpn,
        pos: &mut Position,
        m: Move,
        n: u32,
        or_child: bool,
    ) -> (u32, u32) {
        if would_repeat(pos, m) {
            return (INF, 0);
        }
        let key = pos.key_after(m);
        match self.known(key).answer(n) {
            Some(true) => return (0, INF),
            Some(false) => return (INF, 0),
            None => {}
        }
        if let Some(e) = run.table.get(&slot(key, n)) {
            return (e.pn, e.dn);
        }
        if or_child && n == 1 {
            // The leaf: the prover's own mate in one.
            pos.make_move(m);
            self.nodes += 1;
            let mate = self.mate_in_one(pos);
            let v = if mate.is_null() { (INF, 0) } else { (0, INF) };
            run.record(key, 1, v, mate);
            pos.unmake_move();
            return v;
        }
        if or_child {
            return (1, 1);
        }
        if pos.gives_check(m) {
            // Unexpanded, after a check: as many positions to settle as the
            // defender has evasions (a check with one evasion is nearly a
            // proof, one with five is not), kept so that it is counted once.
            pos.make_move(m);
            let evasions = pos.legal_moves().len() as u32;
            pos.unmake_move();
            let v = if evasions == 0 {
                (0, INF)
            } else {
                (evasions, 1)
            };
            run.record(key, n, v, Move::NULL);
            return v;
        }
        // Unexpanded after a quiet move: the defender keeps more moves than
        // after most checks.
        (3, 1)
    }

    /// Multiple iterative deepening at one node (`or`: the attacker to move, `n`
    /// its moves left; else the defender to move after the attacker's `n`-th
    /// move from last). Returns the node's (pn, dn).
    fn mid(
        &mut self,
        run: &mut Dfpn,
        pos: &mut Position,
        n: u32,
        or: bool,
        th_pn: u32,
        th_dn: u32,
    ) -> (u32, u32) {
        self.nodes += 1;
        if self.nodes >= run.budget_end || self.over_limits() {
            run.aborted = true;
        }
        let moves: MoveList = if or {
            MateProver::attacker_moves(pos).0
        } else {
            pos.legal_moves()
        };
        let key = pos.key();
        if moves.is_empty() {
            // No move: the defender is mated, the attacker cannot mate.
            let v = if or { (INF, 0) } else { (0, INF) };
            run.record(key, n, v, Move::NULL);
            return v;
        }
        let child_n = if or { n } else { n - 1 };
        // The children's values are read once; after that only the child just
        // searched changes (its search returns its new value). A sibling that a
        // transposition settled meanwhile is seen late, never wrongly: a proof
        // read from the cache was a proof when it was read.
        let mut values = [(0u32, 0u32); rules::movegen::MAX_MOVES];
        for (i, &m) in moves.as_slice().iter().enumerate() {
            values[i] = self.child_value(run, pos, m, child_n, !or);
            let mine = if or { values[i].0 } else { values[i].1 };
            if mine == 0 {
                break;
            }
        }
        loop {
            // (pn, dn) from the children, the child to go into and the runner-up.
            let (mut sum, mut min, mut second) = (0u32, INF, INF);
            let (mut best, mut best_other) = (0usize, 0u32);
            for (i, &(cpn, cdn)) in values[..moves.len()].iter().enumerate() {
                // At an attacker node pn is the minimum, dn the sum; at a
                // defender node the other way round.
                let (mine, other) = if or { (cpn, cdn) } else { (cdn, cpn) };
                sum = (sum + other).min(INF);
                if mine < min {
                    second = min;
                    min = mine;
                    best = i;
                    best_other = other;
                } else if mine < second {
                    second = mine;
                }
                if mine == 0 {
                    break;
                }
            }
            let (pn, dn) = if or { (min, sum) } else { (sum, min) };
            let best_move = moves.as_slice()[best];
            let proved_move = if or && pn == 0 { best_move } else { Move::NULL };
            run.record(key, n, (pn, dn), proved_move);
            if pn == 0 || dn == 0 || pn >= th_pn || dn >= th_dn || run.aborted {
                return (pn, dn);
            }
            // Thresholds for the chosen child (1 + ε on the runner-up).
            let (th_mine, th_other) = if or { (th_pn, th_dn) } else { (th_dn, th_pn) };
            let widened = second.saturating_add(second / 4 + 1).min(INF);
            let c_mine = th_mine.min(widened);
            let c_other = th_other
                .saturating_sub(sum)
                .saturating_add(best_other)
                .min(INF);
            let (c_pn, c_dn) = if or {
                (c_mine, c_other)
            } else {
                (c_other, c_mine)
            };
            pos.make_move(best_move);
            values[best] = self.mid(run, pos, child_n, !or, c_pn, c_dn);
            pos.unmake_move();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mate::MateLimits;

    /// The suite's mates of up to five moves, each with its exact length.
    fn suite() -> Vec<(String, Position, u32)> {
        include_str!("../../tests/data/mates.tsv")
            .lines()
            .filter(|l| !l.starts_with('#') && !l.starts_with("id\t"))
            .filter_map(|l| {
                let c: Vec<&str> = l.split('\t').collect();
                let n: u32 = c.get(2)?.parse().ok()?;
                let pos = Position::from_fen(c.get(1)?).ok()?;
                (n <= 5).then(|| (c[0].to_string(), pos, n))
            })
            .collect()
    }

    /// On the suite's mates of up to five moves: no proof of a mate one move
    /// shorter than the shortest (a wrong proof would be one), and each proof at
    /// the right length leaves a table from which the prover reads a legal line
    /// that ends in mate; most are proved within a small budget (how many says
    /// whether the proof numbers still point the right way).
    #[test]
    fn proofs_are_sound_and_read_as_mating_lines() {
        let (mut proved, mut total) = (0, 0);
        for (id, pos, n) in suite() {
            total += 1;
            let mut prover = MateProver::new(MateLimits::default(), None);
            let mut p = pos.clone();
            prover.root_len = p.history().len();
            if n > 1 {
                assert!(
                    !prover.dfpn_proves(&mut p, n - 1, 5_000),
                    "{id}: a mate in {}",
                    n - 1
                );
            }
            let mut prover = MateProver::new(MateLimits::default(), None);
            prover.root_len = p.history().len();
            if n < 2 || !prover.dfpn_proves(&mut p, n, 5_000) {
                continue;
            }
            proved += 1;
            prover.reading_line = true;
            let line = prover.main_line(&mut p, n);
            assert!(
                !line.is_empty() && (line.len() as u32) < 2 * n,
                "{id}: {line:?}"
            );
            for m in &line {
                assert!(p.is_legal(*m), "{id}: {m} in {line:?}");
                p.make_move(*m);
            }
            assert!(!p.has_legal_move(), "{id}: {line:?} does not end in mate");
        }
        println!("proved {proved} of {total} within 5 000 nodes");
        // The evasion counts as the checks' first proof numbers prove more of
        // them within the budget than a flat 1 (the counts: docs/LOG.md).
        assert!(
            total > 100 && proved * 100 >= total * 77,
            "proved {proved} of {total}"
        );
    }

    /// `would_repeat` says what making the move and asking `find_repetition`
    /// would say, along a line that shuffles back and forth.
    #[test]
    fn a_repetition_is_seen_before_the_move_is_made() {
        let mut pos = Position::from_fen("3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1").unwrap();
        let line = ["e1f1", "d9d8", "f1e1", "d8d9", "e1f1", "d9d8", "f1e1"];
        let mut seen = 0;
        for t in line {
            let m = pos.parse_move(t).unwrap();
            let predicted = would_repeat(&pos, m);
            pos.make_move(m);
            let found = rules::repetition::find_repetition(&pos).is_some();
            assert_eq!(predicted, found, "{t}");
            seen += found as usize;
        }
        assert!(seen >= 2, "{seen}");
    }
}
