//! What the search leaves in the hash table: which scores it stores with a bound.

use crate::tt::{Bound, TtHit};
use crate::{Engine, EngineOptions, Limits, SearchControl};
use rules::Position;

fn searched(pos: &Position, depth: u32) -> Engine {
    let mut e = Engine::new(EngineOptions {
        hash_mb: 16,
        ..EngineOptions::default()
    });
    // A node limit never reached keeps the mate prover off (a proof ends the
    // search before the table fills).
    let limits = Limits {
        depth: Some(depth),
        nodes: Some(u64::MAX),
        ..Limits::default()
    };
    e.search(pos, &limits, &SearchControl::new(), &mut |_| {});
    e
}

/// The entries of the positions one move after `pos`.
fn children_entries(e: &Engine, pos: &Position) -> Vec<(String, TtHit)> {
    pos.legal_moves()
        .iter()
        .filter_map(|&m| {
            let mut p = pos.clone();
            p.make_move(m);
            e.tt.probe(p.key()).map(|h| (m.iccs(), h))
        })
        .collect()
}

/// Lines that shuffle back to a position of the path (the root's included) end
/// in a drawn repetition in many subtrees; such a draw does not keep a node's
/// result from being stored with its bound. Only the root's own entry, which may
/// rest on repetitions with the game, holds none.
#[test]
fn a_drawn_repetition_below_a_node_leaves_its_bound() {
    let pos = Position::startpos();
    let e = searched(&pos, 10);
    let [none, upper, lower, exact] = e.tt.count_by_bound();
    assert!(upper + lower + exact > 5_000, "{upper} {lower} {exact}");
    assert_eq!(none, 1, "entries without a bound");
}

/// A score that rests on a rule verdict of this game's history (here Black's
/// perpetual check, which the repetition after d1d0 a1a0 completes) must not
/// reach another game through a bound.
#[test]
fn a_rule_verdict_below_a_node_keeps_it_from_storing_a_bound() {
    let mut pos = Position::from_fen("4k4/7R1/6R2/9/9/9/9/9/r8/3K5 b").unwrap();
    for m in ["a1a0", "d0d1"] {
        pos.make_move(pos.parse_move(m).unwrap());
    }
    let e = searched(&pos, 8);
    let entries = children_entries(&e, &pos);
    let (_, h) = entries
        .iter()
        .find(|(m, _)| m == "a0a1")
        .unwrap_or_else(|| {
            panic!(
                "d1d0 not stored: {entries:?} legal {:?}",
                pos.legal_moves()
                    .iter()
                    .map(|m| m.iccs())
                    .collect::<Vec<_>>()
            )
        });
    assert_eq!(h.bound, Bound::None, "{h:?} {entries:?}");
}
