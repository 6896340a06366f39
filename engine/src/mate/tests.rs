//! The prover on small cases: mates with their lines, 困毙, no mate, limits.
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
