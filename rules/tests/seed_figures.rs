//! What decides the Chinese 2020 rule-book figures (seed 001, 第八章) that need more
//! than a direct attack: 图2 and 图3 (a chase by a forcing check threat), 图7 (a capture
//! that would allow mate is no chase), 图10 (a joint attack on a truly protected piece
//! is labelled 捉 but is no perpetual chase). The figures' cycles, labels and verdicts
//! are rows of tests/data/repetition_cn2020.tsv (checked in repetition_rules.rs); these
//! tests check the reason behind each, and that it goes away when the reason does.

use rules::repetition::{
    judge_cycle, label_move_under, ChaseReason, LabelKind, MoveLabel, PieceIds, RuleSet, Verdict,
    KILL_DEPTH,
};
use rules::{Move, PieceKind, Position, Square};

/// A point in ICCS, `h9`.
fn sq(s: &str) -> Square {
    let b = s.as_bytes();
    Square::new(b[0] - b'a', b[1] - b'0')
}

/// The label of `mv` played after `before` (ICCS moves from `fen`), under `rules`.
fn label_after(fen: &str, before: &str, mv: &str, rules: RuleSet) -> MoveLabel {
    let mut pos = Position::from_fen(fen).expect("FEN");
    for m in before.split_whitespace() {
        let m = pos.parse_move(m).expect("legal");
        pos.make_move(m);
    }
    let ids = PieceIds::new(&pos);
    let m = pos.parse_move(mv).expect("legal");
    let copy = pos.clone();
    let l = label_move_under(&mut pos, m, &ids, KILL_DEPTH, rules);
    assert_eq!(pos, copy, "position restored");
    l
}

fn verdict(fen: &str, cycle: &str, rules: RuleSet) -> Verdict {
    let pos = Position::from_fen(fen).expect("FEN");
    let moves: Vec<Move> = cycle
        .split_whitespace()
        .map(|m| Move::parse_iccs(m).expect("ICCS"))
        .collect();
    judge_cycle(&pos, &moves, rules, KILL_DEPTH)
        .expect("a legal cycle")
        .verdict
}

fn forced(l: &MoveLabel) -> Vec<(PieceKind, Square, PieceKind, Square)> {
    l.chases()
        .filter(|c| c.reason == ChaseReason::Forced)
        .map(|c| (c.attacker.kind, c.from, c.victim.kind, c.at))
        .collect()
}

const FIG2: &str = "4k3r/9/6n2/7N1/9/7R1/9/9/9/3K4C w - - 0 1";
const FIG3: &str = "4k1r2/9/9/4n4/2c3C2/9/3p5/3ABn3/2R1K4/3C5 w - - 0 1";
const FIG10: &str = "5k3/9/9/9/c1r2N3/9/9/5R3/2N6/2C1K4 w - - 0 1";

#[test]
fn figure_2_the_knight_threatens_a_woca_check_that_wins_the_rook() {
    // 马一进二: next 马二进三 checks from 卧槽 (g8), blocks the leg of the rook's only
    // root (knight g7) and opens the h-file for the red rook; whatever Black answers,
    // 车二进五 takes the rook.
    let l = label_after(FIG2, "h6i4 i9h9", "i4h6", RuleSet::Chinese);
    assert_eq!(l.kind(), LabelKind::Chase);
    assert_eq!(
        forced(&l),
        vec![(PieceKind::Knight, sq("h6"), PieceKind::Rook, sq("h9"))]
    );
    assert!(l.chases().all(|c| c.counts(RuleSet::Chinese)));
    // AXF: a threat to win by a check is idle (rules 8, 11, 33): the move only blocks.
    let l = label_after(FIG2, "h6i4 i9h9", "i4h6", RuleSet::Axf);
    assert_eq!(l.chases().count(), 0, "{l:?}");
    assert_eq!(l.kind(), LabelKind::Block);
    // So Red's perpetual chase is forbidden under the Chinese rules only.
    let cycle = "h6i4 i9h9 i4h6 h9i9";
    assert_eq!(verdict(FIG2, cycle, RuleSet::Chinese), Verdict::RedLoses);
    assert_eq!(verdict(FIG2, cycle, RuleSet::Axf), Verdict::Draw);
}

#[test]
fn figure_3_continuous_checks_win_the_rook_and_the_elephant_cuts_roots() {
    // 车7平8: 车8进8 checks, 帅五进一 is forced (e0 is the knight's, d1 and f1 the
    // rook's), and 车8平3 takes the unprotected rook c1.
    let l = label_after(FIG3, "e2g0", "g9h9", RuleSet::Chinese);
    assert_eq!(
        forced(&l),
        vec![(PieceKind::Rook, sq("h9"), PieceKind::Rook, sq("c1"))]
    );
    assert_eq!(
        label_after(FIG3, "e2g0", "g9h9", RuleSet::Axf).kind(),
        LabelKind::Idle
    );
    // Before the rook move the g-file is shut (cannon g5): no such threat, so 车8平7
    // creates none and chases the cannon directly.
    let l = label_after(FIG3, "e2g0 g9h9 g0e2", "h9g9", RuleSet::Chinese);
    assert!(forced(&l).is_empty());
    assert_eq!(l.chases().count(), 1);
    // Red's elephant moves chase by cutting roots (断根): the first pins the knight e6
    // on the e-file between the kings, the second blocks the leg of knight f2.
    for (before, mv, victim, reason) in [
        ("", "e2g0", "c5", ChaseReason::FalseRoot),
        ("e2g0 g9h9", "g0e2", "d3", ChaseReason::Unprotected),
    ] {
        let l = label_after(FIG3, before, mv, RuleSet::Chinese);
        let c = l.chases().next().expect("a chase");
        assert_eq!((c.at, c.reason, c.root_cut), (sq(victim), reason, true));
    }
    // Both sides chase on every move: a draw under the Chinese rules. Without the
    // forcing threat Black would be one chase, one idle and Red alone would change.
    let cycle = "e2g0 g9h9 g0e2 h9g9";
    assert_eq!(verdict(FIG3, cycle, RuleSet::Chinese), Verdict::Draw);
    assert_eq!(verdict(FIG3, cycle, RuleSet::Axf), Verdict::Draw);
}

/// Black to move: 车7平8 opens the h-file. 车8进8 checks, 帅五进一 is forced (the pawn
/// f0 holds e0), 车8进1 checks again on the second rank, and the rook a2 falls.
const TWO_CHECKS: &str = "3k2r2/9/9/6p2/9/9/9/R8/4K4/5p3 b - - 0 1";

#[test]
fn two_continuous_checks_win_a_rook() {
    let l = label_after(TWO_CHECKS, "", "g9h9", RuleSet::Chinese);
    assert_eq!(
        forced(&l),
        vec![(PieceKind::Rook, sq("h9"), PieceKind::Rook, sq("a2"))]
    );
    // With the rook a2 protected (knight b0) the capture only exchanges: no chase.
    let protected = "3k2r2/9/9/6p2/9/9/9/R8/4K4/1N3p3 b - - 0 1";
    let l = label_after(protected, "", "g9h9", RuleSet::Chinese);
    assert!(forced(&l).is_empty(), "{l:?}");
}

#[test]
fn a_forcing_threat_that_was_there_before_the_move_is_no_chase() {
    // Figure 2 after 马一进二 车8平9 is played, with Red to move again: the 卧槽 threat
    // on the rook (now back on i9, where the knight check forks it) is already there;
    // a cannon move that leaves it so is not a new chase.
    let fen = "4k3r/9/6n2/7N1/9/7R1/9/9/9/3K4C w - - 0 1";
    let l = label_after(fen, "", "i0i1", RuleSet::Chinese);
    assert!(forced(&l).is_empty(), "{l:?}");
}

#[test]
fn figure_10_a_joint_attack_on_a_truly_protected_piece_is_no_perpetual_chase() {
    // 车3退2: rook and cannon a5 (the rook is its screen) both attack the knight f5,
    // which the rook f2 protects: 车炮联合捉子, labelled 捉, not counted (rule 30).
    let l = label_after(FIG10, "c1d3 c5c3 d3c1", "c3c5", RuleSet::Chinese);
    assert_eq!(l.kind(), LabelKind::Chase);
    let c = l.chases().next().expect("a chase");
    assert_eq!(
        (c.victim.kind, c.at, c.reason),
        (PieceKind::Knight, sq("f5"), ChaseReason::Joint)
    );
    assert!(!c.counts(RuleSet::Chinese) && !c.counts(RuleSet::Axf));
    let cycle = "c1d3 c5c3 d3c1 c3c5";
    for rules in [RuleSet::Axf, RuleSet::Chinese] {
        assert_eq!(verdict(FIG10, cycle, rules), Verdict::RedLoses, "{rules:?}");
    }
    // Without the root the rook wins the knight alone: a counted chase, so Black also
    // chases on every move (two pieces in turn): both forbidden under the Chinese
    // rules (a draw); under AXF chasing two pieces in turn is allowed (rule 27).
    let unprotected = "5k3/9/9/9/c1r2N3/9/9/9/2N6/2C1K4 w - - 0 1";
    let l = label_after(unprotected, "c1d3 c5c3 d3c1", "c3c5", RuleSet::Chinese);
    assert!(l
        .chases()
        .any(|c| c.reason == ChaseReason::Unprotected && c.at == sq("f5")));
    assert_eq!(verdict(unprotected, cycle, RuleSet::Chinese), Verdict::Draw);
    assert_eq!(verdict(unprotected, cycle, RuleSet::Axf), Verdict::RedLoses);
    // Two true roots (rook f2, pawn g5) for two attackers: not even a joint chase.
    let two_roots = "5k3/9/9/9/c1r2NP2/9/9/5R3/2N6/2C1K4 w - - 0 1";
    let l = label_after(two_roots, "c1d3 c5c3 d3c1", "c3c5", RuleSet::Chinese);
    assert!(l.chases().all(|c| c.at != sq("f5")), "{l:?}");
}

const FIG7: &str = "3ak1P2/4n3r/3aN4/9/9/8C/9/9/4K4/9 w - - 0 1";

#[test]
fn figure_7_the_rook_that_cannot_leave_its_rank_only_blocks() {
    // 车9平8 blocks the cannon's way to h9 and attacks it down the h-file, but taking it
    // leaves the 8th rank and 马五进三 (e7-g8) mates: no chase, a block (长拦).
    let l = label_after(FIG7, "i4h4", "i8h8", RuleSet::Chinese);
    assert_eq!(l.kind(), LabelKind::Block, "{l:?}");
    assert_eq!(l.chases().count(), 0);
    let mut p = Position::from_fen(FIG7).expect("FEN");
    for m in ["i4h4", "i8h8"] {
        let m = p.parse_move(m).expect("legal");
        p.make_move(m);
    }
    assert!(rules::repetition::capture_allows_mate(
        &mut p,
        sq("h8"),
        sq("h4")
    ));
    // Red's cannon moves threaten mate (杀) every time: 长杀, forbidden only in China.
    let cycle = "i4h4 i8h8 h4i4 h8i8";
    assert_eq!(verdict(FIG7, cycle, RuleSet::Chinese), Verdict::RedLoses);
    assert_eq!(verdict(FIG7, cycle, RuleSet::Axf), Verdict::Draw);
    // Without the knight e7 there is no mate behind the capture: the same rook move
    // chases the unprotected cannon.
    let no_knight = "3ak1P2/4n3r/3a5/9/9/8C/9/9/4K4/9 w - - 0 1";
    let l = label_after(no_knight, "i4h4", "i8h8", RuleSet::Chinese);
    let c = l.chases().next().expect("a chase");
    assert_eq!((c.victim.kind, c.at), (PieceKind::Cannon, sq("h4")));
}
