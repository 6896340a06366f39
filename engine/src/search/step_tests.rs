//! Steps of the search (`steps.rs`) on positions built for them.

use super::alphabeta::Node;
use super::{Shared, Worker};
use crate::eval::{AnyEval, EvalChoice, Evaluator};
use crate::history::Histories;
use crate::params::{SearchParams, DEFAULT};
use crate::tt::TranspositionTable;
use crate::{EngineOptions, SearchControl};
use rules::{Move, Position};

/// Black has only palace pieces; Red, a rook and a pawn up, is to move after a
/// quiet black move (so that the node has a parent move that is not a pass).
fn rook_up() -> Position {
    Position::from_fen("3akab2/9/4b4/9/9/9/2P6/9/9/R2K5 b").unwrap()
}

/// `try_null_move` at a cut node `depth` deep, one ply below the root, with beta
/// `margin` below the node's evaluation: its answer, and the nodes it searched.
fn null_move(params: SearchParams, depth: i32, margin: i32) -> (Option<i32>, u64) {
    let options = EngineOptions {
        params,
        ..EngineOptions::default()
    };
    let tt = TranspositionTable::new(1);
    let control = SearchControl::new();
    let shared = Shared::for_tests(&tt, &control, &options);
    let mut hist = Histories::new();
    let pos = rook_up();
    let quiet = *pos
        .legal_moves()
        .iter()
        .find(|m| pos.piece_at(m.to()).is_none())
        .unwrap();
    let root: Vec<Move> = pos.legal_moves().iter().copied().collect();
    let eval = AnyEval::new(&EvalChoice::Hce);
    let mut w = Worker::new(0, pos, eval, &shared, &mut hist, &root, 1);
    w.make_prefetched(quiet, 0);
    let static_eval = w.eval.evaluate(&w.pos);
    let node = Node {
        ply: 1,
        depth,
        pv: false,
        cut: true,
        in_check: false,
        excluded: Move::NULL,
        key: w.pos.key(),
        tt: None,
        tt_move: Move::NULL,
        static_eval,
        improving: false,
        events_at_entry: 0,
        cramped: None,
        marked: false,
    };
    let v = w.try_null_move(&node, static_eval - margin);
    if let Some(v) = v {
        assert!(v >= static_eval - margin, "a cut below beta: {v}");
    }
    (v, w.nodes)
}

/// At low depth the pass needs the evaluation to beat beta by `nmp_gate −
/// nmp_gate_depth · depth`; deeper, beating beta is enough.
#[test]
fn the_null_move_at_low_depth_needs_a_margin() {
    let gate_at_3 = DEFAULT.nmp_gate - 3 * DEFAULT.nmp_gate_depth;
    assert!(gate_at_3 > 20, "{gate_at_3}");
    let (v, nodes) = null_move(DEFAULT, 3, gate_at_3 - 20);
    assert_eq!((v, nodes), (None, 0), "gated: not even tried");
    let (v, nodes) = null_move(DEFAULT, 3, gate_at_3 + 20);
    assert!(v.is_some() && nodes > 0, "{v:?} {nodes}");

    let deep = DEFAULT.nmp_gate / DEFAULT.nmp_gate_depth.max(1) + 1;
    let (v, nodes) = null_move(DEFAULT, deep, 10);
    assert!(v.is_some() && nodes > 0, "depth {deep}: {v:?} {nodes}");

    let no_gate = SearchParams {
        nmp_gate: 0,
        nmp_gate_depth: 0,
        ..DEFAULT
    };
    let (v, nodes) = null_move(no_gate, 3, gate_at_3 - 20);
    assert!(v.is_some() && nodes > 0, "without the gate: {v:?} {nodes}");
    // Below beta, never.
    assert_eq!(null_move(no_gate, 3, -1), (None, 0));
}
