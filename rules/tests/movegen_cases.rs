//! Move generation where Chinese-chess rules matter, on composed positions whose
//! legal moves are worked out by hand (the reasoning is in each comment), and
//! consistency checks on thousands of random positions: a naive generator written
//! here from the rules, `is_legal` on all 90×90 from/to pairs, make/unmake, keys.

mod naive_movegen;

use naive_movegen::{may_stand, naive_legal, naive_perft, Board};
use rules::movegen::MAX_MOVES;
use rules::{Color, Move, Piece, PieceKind, Position, Setup, Square};
use std::collections::{BTreeSet, HashSet};
mod common;
use common::{color, perft_fens};
use rules::rng::Rng;

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("bad test FEN {fen}: {e}"))
}

fn sq(s: &str) -> Square {
    Square::parse_iccs(s).expect("test square")
}

fn set(moves: &[&str]) -> BTreeSet<String> {
    moves.iter().map(|s| s.to_string()).collect()
}

/// All legal moves, as ICCS text; checks on the way that the generator agrees
/// with `is_legal`, the naive generator, and the captures/quiets split.
fn legal(p: &Position) -> BTreeSet<String> {
    consistent(p);
    p.legal_moves().iter().map(|m| m.iccs()).collect()
}

fn assert_exact(fen: &str, expected: &[&str]) {
    let p = pos(fen);
    assert_eq!(legal(&p), set(expected), "legal moves of {fen}");
}

/// The legal moves of the piece on `from` are exactly `expected` (ICCS to-squares).
fn assert_from(fen: &str, from: &str, expected: &[&str]) {
    let p = pos(fen);
    let got: BTreeSet<String> = legal(&p)
        .into_iter()
        .filter(|m| m.starts_with(from))
        .map(|m| m[2..].to_string())
        .collect();
    assert_eq!(got, set(expected), "moves of {from} in {fen}");
}

// ---- the flying general (将帅不能对面) ----

#[test]
fn king_cannot_step_onto_the_open_file_of_the_other_king() {
    // Red king d0, black king e9, nothing else. d0-d1 is fine; d0-e0 would face e9
    // along the empty file e.
    assert_exact("4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1", &["d0d1"]);
    // Black to move: e9-d9 would face d0; e9-f9 and e9-e8 are fine.
    assert_exact("4k4/9/9/9/9/9/9/9/9/3K5 b - - 0 1", &["e9f9", "e9e8"]);
}

#[test]
fn the_only_piece_between_the_kings_cannot_leave_the_file() {
    // Red knight e4 between the kings e0 and e9: every knight move leaves file e,
    // so none is legal. The king may step along the file (e1) or off it.
    assert_exact(
        "4k4/9/9/9/9/4N4/9/9/9/4K4 w - - 0 1",
        &["e0d0", "e0f0", "e0e1"],
    );
    // A red pawn e5 between them may advance along the file but not step aside.
    assert_exact(
        "4k4/9/9/9/4P4/9/9/9/9/4K4 w - - 0 1",
        &["e5e6", "e0d0", "e0f0", "e0e1"],
    );
    // With two pieces between, either may leave.
    assert_from("4k4/9/9/4P4/4P4/9/9/9/9/4K4 w - - 0 1", "e5", &["d5", "f5"]);
    assert_from(
        "4k4/9/9/4P4/4P4/9/9/9/9/4K4 w - - 0 1",
        "e6",
        &["d6", "f6", "e7"],
    );
}

// ---- pins ----

#[test]
fn rook_pinned_on_a_file_slides_along_it() {
    // Red rook e3 between its king e0 and a black rook e7: it may move along file
    // e (e1, e2, e4, e5, e6, take e7) but not sideways. The king may not go to d0
    // (facing the black king d9); f0 and e1 are fine.
    assert_exact(
        "3k5/9/4r4/9/9/9/4R4/9/9/4K4 w - - 0 1",
        &[
            "e3e1", "e3e2", "e3e4", "e3e5", "e3e6", "e3e7", "e0f0", "e0e1",
        ],
    );
}

#[test]
fn pins_along_a_rank() {
    // Red king d1, red knight e1, black rook h1: the knight is pinned along rank 1
    // (every knight move leaves it). The king goes to d0 or d2.
    assert_exact("4k4/9/9/9/9/9/9/9/3KN2r1/9 w - - 0 1", &["d1d0", "d1d2"]);
    // A red rook f1 with e1 empty may slide along the rank and take h1, not leave
    // it. The king may not go to e1: it would face the black king e9.
    assert_exact(
        "4k4/9/9/9/9/9/9/9/3K1R1r1/9 w - - 0 1",
        &["f1e1", "f1g1", "f1h1", "d1d0", "d1d2"],
    );
}

#[test]
fn a_piece_on_a_knight_leg_is_pinned() {
    // Black knight g1 eyes the red king e0 but its leg f1 holds a red rook: no
    // check. Any rook move off f1 would unblock the knight, except taking it.
    let fen = "3k5/9/9/9/9/9/9/9/5Rn2/4K4 w - - 0 1";
    assert!(!pos(fen).in_check());
    assert_from(fen, "f1", &["g1"]);
    // King: d0 faces d9; e1 and f0... e1 is attacked by the knight g1? g1 reaches
    // e2, f3, h3, i2, i0, e0 (leg f1 blocked for e0/e2): e1 is safe, f0 is safe.
    assert_from(fen, "e0", &["e1", "f0"]);
}

// ---- cannon screens ----

#[test]
fn two_screens_between_cannon_and_king_are_both_pinned() {
    // Black cannon e7, red knights e5 and e3, red king e0: if either knight left,
    // the other would be the cannon's only screen. Knights always leave their file,
    // so neither moves. King: d0 faces d9; f0 and e1 are fine (two screens stay).
    assert_exact("3k5/9/4c4/9/4N4/9/4N4/9/9/4K4 w - - 0 1", &["e0f0", "e0e1"]);
    // With a third piece (red pawn e6; cannon e8, knights e5 and e3) any one of
    // them may leave. Knight e5: d7/f7 are blocked by the pawn on its leg e6.
    let fen = "3k5/4c4/9/4P4/4N4/9/4N4/9/9/4K4 w - - 0 1";
    assert_from(fen, "e5", &["d3", "f3", "c6", "g6", "c4", "g4"]);
    assert_from(fen, "e6", &["d6", "f6", "e7"]);
}

#[test]
fn a_move_may_not_give_an_enemy_cannon_a_screen() {
    // Black cannon e7 faces the red king e0 over an empty file: no check. The red
    // rook a3 may go anywhere except e3, where it would be the cannon's screen.
    let fen = "3k5/9/4c4/9/9/9/R8/9/9/4K4 w - - 0 1";
    assert!(!pos(fen).in_check());
    assert_exact(
        fen,
        &[
            "a3a4", "a3a5", "a3a6", "a3a7", "a3a8", "a3a9", "a3a2", "a3a1", "a3a0", "a3b3", "a3c3",
            "a3d3", "a3f3", "a3g3", "a3h3", "a3i3", "e0f0", "e0e1",
        ],
    );
    // The king may not step behind an enemy screen either: black cannon f7 and
    // black pawn f3 make f0 attacked; black king d9 makes d0 face it.
    assert_from("3k5/9/5c3/9/9/9/5p3/9/9/4K4 w - - 0 1", "e0", &["e1"]);
}

#[test]
fn cannon_check_and_its_three_evasions() {
    // Black cannon e7 checks the red king e0 over the red knight e3 (the only
    // screen). Legal: the screen steps away (all 8 knight moves), a second screen
    // (rook a5-e5), capturing the cannon (rook i7xe7), the king to d0 (e1 is
    // still behind the single screen; f0 faces the black king f9). Nothing else.
    let fen = "5k3/9/4c3R/9/R8/9/4N4/9/9/4K4 w - - 0 1";
    assert_eq!(pos(fen).checkers().count(), 1);
    assert_exact(
        fen,
        &[
            "e3d5", "e3f5", "e3d1", "e3f1", "e3c4", "e3g4", "e3c2", "e3g2", "a5e5", "i7e7", "e0d0",
        ],
    );
}

#[test]
fn double_check_evasions() {
    // Black rook e8 (open file) and black knight g1 (leg f1 empty) both check the
    // red king e0. Taking the rook (a8xe8) leaves the knight's check: illegal. The
    // king: e1 is on the rook's file, d0 faces the black king d9, f0 is safe.
    let fen = "3k5/R3r4/9/9/9/9/9/9/6n2/4K4 w - - 0 1";
    assert_eq!(pos(fen).checkers().count(), 2);
    assert_exact(fen, &["e0f0"]);
    // Rook e5 checks, and the cannon e7 checks over it: both along file e. The
    // knight d3 may take the rook, but then it is the cannon's screen: illegal.
    // Yet one interposition answers both checks: d3-e1 blocks the rook and is the
    // cannon's second screen. The king: e1 is on the file, f0 faces the black king
    // f9; only d0.
    let fen = "5k3/9/4c4/9/4r4/9/3N5/9/9/4K4 w - - 0 1";
    let p = pos(fen);
    assert_eq!(p.checkers().count(), 2);
    let (d3, e5) = (sq("d3"), sq("e5"));
    assert!(p.pseudo_targets(d3).has(e5));
    assert_exact(fen, &["d3e1", "e0d0"]);
}

#[test]
fn discovered_cannon_check_by_removing_a_screen_is_generated_for_the_attacker() {
    // Red cannon e2; between it and the black king e9 stand the red knight e5 and
    // the black advisor e8. Moving the knight away leaves one screen: e5-c6 gives
    // check, and every black reply must end it.
    let mut p = pos("3ak4/4a4/9/9/4N4/9/9/4C4/9/3K5 w - - 0 1");
    let m = p.parse_move("e5c6").expect("legal");
    assert!(p.gives_check(m));
    p.make_move(m);
    assert!(p.in_check());
    assert!(!p.legal_moves().is_empty());
    for mv in p.legal_moves().iter() {
        let mut q = p.clone();
        q.make_move(*mv);
        assert!(
            q.attackers_to_king(Color::Black).is_empty(),
            "{mv} leaves Black in check"
        );
    }
}

// ---- piece movement ----

#[test]
fn knight_legs() {
    // Red knight e4, red pawn e5 (leg of d6/f6), black pawn d4 (leg of c5/c3): only
    // d2, f2 (leg e3), g5, g3 (leg f4) remain.
    assert_from(
        "5k3/9/9/9/4P4/3pN4/9/9/9/3K5 w - - 0 1",
        "e4",
        &["d2", "f2", "g5", "g3"],
    );
    // A knight gives no check through a blocked leg: black knight d2, leg d1 held
    // by a red rook.
    let p = pos("5k3/9/9/9/9/9/9/3n5/3R5/4K4 w - - 0 1");
    assert!(!p.in_check());
}

#[test]
fn elephant_eyes_and_the_river() {
    // Red elephant e2: eye f1 holds a black pawn, eye d3 a red knight: only c0
    // (eye d1) and g4 (eye f3) remain.
    assert_from(
        "5k3/9/9/9/9/9/3N5/4B4/5p3/3K5 w - - 0 1",
        "e2",
        &["c0", "g4"],
    );
    // Red elephant g4 may not cross the river to e6/i6.
    assert_from("3k5/9/9/9/9/6B2/9/9/9/4K4 w - - 0 1", "g4", &["e2", "i2"]);
    // Black elephant c5 likewise stays on its side: a7 and e7 only.
    assert_from("3k5/9/9/9/2b6/9/9/9/9/4K4 b - - 0 1", "c5", &["a7", "e7"]);
}

#[test]
fn pawns_before_and_after_the_river() {
    // Red pawns c3 and g4 (not across: forward only), a6 (across: forward or
    // sideways, the board's edge on one side), e9 (last rank: sideways only).
    let fen = "4P4/4k4/9/P8/2p6/6P2/2P6/8p/9/3K5 w - - 0 1";
    assert_from(fen, "c3", &["c4"]);
    assert_from(fen, "g4", &["g5"]);
    assert_from(fen, "a6", &["a7", "b6"]);
    assert_from(fen, "e9", &["d9", "f9"]);
    // Black pawns: c5 (not across: down only), i2 (across: down or sideways).
    let fen = fen.replace(" w ", " b ");
    assert_from(&fen, "c5", &["c4"]);
    assert_from(&fen, "i2", &["i1", "h2"]);
}

#[test]
fn palace_limits() {
    // Red king f2 (corner): f1, e2 only; red advisor e1: d0, f0, d2 (f2 is its king).
    assert_exact(
        "3k5/9/9/9/9/9/9/5K3/4A4/9 w - - 0 1",
        &["f2f1", "f2e2", "e1d0", "e1f0", "e1d2"],
    );
    // Black king d7 (corner) and advisor d9: the king to d8, e7; the advisor to e8.
    assert_exact(
        "3a5/9/3k5/9/9/9/9/9/9/5K3 b - - 0 1",
        &["d7d8", "d7e7", "d9e8"],
    );
}

#[test]
fn cannon_moves_and_captures() {
    // Red cannon e4: slides to every empty point in four directions, cannot take
    // the adjacent-after-empty pawn e6 without a screen, takes the rook e8 over it.
    assert_from(
        "5k3/4r4/9/4p4/9/4C4/9/9/9/3K5 w - - 0 1",
        "e4",
        &[
            "e3", "e2", "e1", "e0", "e5", "e8", "d4", "c4", "b4", "a4", "f4", "g4", "h4", "i4",
        ],
    );
    // No capture over two screens: with a black elephant on e7 the cannon takes it
    // over e6, and the rook behind is safe.
    assert_from(
        "5k3/4r4/4b4/4p4/9/4C4/9/9/9/3K5 w - - 0 1",
        "e4",
        &[
            "e3", "e2", "e1", "e0", "e5", "e7", "d4", "c4", "b4", "a4", "f4", "g4", "h4", "i4",
        ],
    );
}

#[test]
fn mate_and_stalemate_have_no_moves() {
    // Black king e9 checked by the rook e5; d9 is covered by the rook d1, f9 faces
    // the red king f0, e8 is on the rook's file: mate.
    let p = pos("4k4/9/9/9/4R4/9/9/9/3R5/5K3 b - - 0 1");
    assert!(p.in_check());
    assert!(legal(&p).is_empty());
    assert!(!p.has_legal_move());
    // Stalemate (困毙): not in check, but d9 (rook d1), e8 (rook a8) and f9
    // (facing the red king f0) are all forbidden.
    let p = pos("4k4/R8/9/9/9/9/9/9/3R5/5K3 b - - 0 1");
    assert!(!p.in_check());
    assert!(legal(&p).is_empty());
    assert!(!p.has_legal_move());
}

// ---- consistency on random positions ----

/// Every check that needs only the position: the generator against `is_legal` on
/// all from/to pairs, against the naive generator below, and the split into
/// captures and quiets.
fn consistent(p: &Position) {
    let all: HashSet<Move> = p.legal_moves().iter().copied().collect();
    assert_eq!(
        all.len(),
        p.legal_moves().len(),
        "duplicates in {}",
        p.to_fen()
    );
    for from in 0..90u8 {
        for to in 0..90u8 {
            if from == to {
                continue;
            }
            let m = Move::new(Square(from), Square(to));
            assert_eq!(
                p.is_legal(m),
                all.contains(&m),
                "is_legal({m}) in {}",
                p.to_fen()
            );
        }
    }
    assert!(!p.is_legal(Move::NULL));
    assert_eq!(p.has_legal_move(), !all.is_empty(), "{}", p.to_fen());
    for limit in [1, 2, 3, 6, 7, MAX_MOVES] {
        assert_eq!(
            p.legal_move_count_up_to(limit),
            all.len().min(limit),
            "legal_move_count_up_to({limit}) in {}",
            p.to_fen()
        );
    }
    let naive = naive_legal(p);
    assert_eq!(all, naive, "generator vs naive rules in {}", p.to_fen());
    let caps: HashSet<Move> = p.legal_captures().iter().copied().collect();
    let quiets: HashSet<Move> = p.legal_quiets().iter().copied().collect();
    assert!(caps.is_disjoint(&quiets));
    assert_eq!(&caps | &quiets, all);
    for m in &caps {
        assert!(p.piece_at(m.to()).is_some());
    }
    for m in &quiets {
        assert!(p.piece_at(m.to()).is_none());
    }
    let evasions = p.legal_evasions();
    if p.in_check() {
        assert_eq!(evasions.len(), all.len());
    } else {
        assert!(evasions.is_empty());
    }
}

/// Make/unmake and keys: every legal move played and taken back restores FEN, key
/// and history; the incremental key equals the recomputed one after each move.
fn make_unmake(p: &mut Position) {
    let fen = p.to_fen();
    let key = p.key();
    let ply = p.game_ply();
    assert_eq!(key, p.compute_key(), "{fen}");
    for &m in p.legal_moves().as_slice() {
        let captured = p.piece_at(m.to());
        let predicted = p.key_after(m);
        p.make_move(m);
        assert!(p.is_consistent(), "after {m} in {fen}");
        assert_eq!(p.key(), p.compute_key(), "key after {m} in {fen}");
        assert_eq!(p.key(), predicted, "key_after({m}) in {fen}");
        assert_eq!(p.game_ply(), ply + 1);
        let st = p.history().last().copied().expect("history");
        assert_eq!((st.key, st.mv, st.captured), (key, m, captured));
        assert!(
            p.attackers_to_king(p.side_to_move().flip()).is_empty(),
            "{m} leaves its king attacked in {fen}"
        );
        p.unmake_move();
        assert!(p.is_consistent(), "unmake {m} in {fen}");
        assert_eq!(p.to_fen(), fen, "unmake {m}");
        assert_eq!(p.key(), key, "key after unmake {m}");
        assert_eq!(p.game_ply(), ply);
    }
    if !p.in_check() {
        p.make_null_move();
        assert_eq!(p.key(), p.compute_key());
        assert_ne!(p.key(), key);
        p.unmake_move();
        assert_eq!(p.to_fen(), fen);
        assert_eq!(p.key(), key);
    }
}

#[test]
fn random_games_are_consistent() {
    let mut starts = vec![rules::START_FEN.to_string()];
    starts.extend(perft_fens());
    let mut rng = Rng::from_state(2);
    let mut n = 0;
    for fen in &starts {
        for _game in 0..6 {
            let mut p = pos(fen);
            for _ply in 0..60 {
                consistent(&p);
                make_unmake(&mut p);
                n += 1;
                let moves = p.legal_moves();
                if moves.is_empty() {
                    break;
                }
                p.make_move(moves.as_slice()[rng.below_rem(moves.len())]);
            }
            // Taking back the whole game returns to the start.
            while p.game_ply() > 0 {
                p.unmake_move();
            }
            assert_eq!(p.to_fen(), pos(fen).to_fen());
        }
    }
    assert!(n > 1500, "{n} positions");
}

/// Random boards: kings in their palaces and a random handful of pieces on their
/// legal points, either side to move (often in check, with pins and screens that
/// games rarely reach).
#[test]
fn random_boards_are_consistent() {
    let mut rng = Rng::from_state(3);
    let mut tested = 0;
    let mut in_check = 0;
    for _ in 0..6000 {
        if let Some(mut p) = random_board(&mut rng) {
            consistent(&p);
            make_unmake(&mut p);
            tested += 1;
            in_check += p.in_check() as usize;
        }
    }
    assert!(
        tested > 1500 && in_check > 150,
        "{tested} boards, {in_check} in check"
    );
}

/// Composed studies: pieces anywhere a playable position allows (advisors anywhere
/// in their palace, elephants anywhere on their side, pawns anywhere, more of a
/// kind than the set holds), checked the same way.
#[test]
fn random_composed_studies_are_consistent() {
    let mut rng = Rng::from_state(5);
    let (mut tested, mut unreachable) = (0, 0);
    for _ in 0..3000 {
        if let Some(mut p) = random_study(&mut rng) {
            consistent(&p);
            make_unmake(&mut p);
            tested += 1;
            unreachable += !p.to_setup().unreachable().is_empty() as usize;
        }
    }
    assert!(
        tested > 1000 && unreachable > 500,
        "{tested} studies, {unreachable} unreachable"
    );
}

/// The most mobile sides a playable position allows: every move is generated (the
/// list never fills up) and agrees with the naive rules.
#[test]
fn move_lists_hold_the_most_mobile_composed_sides() {
    let mut most = 0;
    for fen in [
        "3k5/R8/1R7/2R6/4R4/5R3/6R2/7R1/8R/RRR1K1RRR w",
        "3k5/C8/1C7/2C6/4C4/5C3/6C2/7C1/8C/CCC1K1CCC w",
        "5k3/R8/9/1R7/2R6/3R5/4R4/6R2/7R1/RRRRK2R1 w",
        "4k4/1N1N1N1N1/9/N1N1N1N1N/9/1N1N1N1N1/9/9/9/3K5 w",
    ] {
        let p = pos(fen);
        consistent(&p);
        let n = p.legal_moves().len();
        assert!(n < MAX_MOVES, "{fen}: {n}");
        most = most.max(n);
    }
    // Fourteen rooks, each on its own rank or file where it can: 154 moves, more
    // than any game position has; the bound itself is argued at `MAX_MOVES`.
    assert!(most >= 154, "{most}");
}

fn random_study(rng: &mut Rng) -> Option<Position> {
    let mut s = Setup::parse("9/9/9/9/9/9/9/9/9/9").ok()?;
    let playable = |p: Piece, sq: Square| {
        let (f, r) = (sq.file(), sq.relative_rank(p.color));
        match p.kind {
            PieceKind::King | PieceKind::Advisor => (3..=5).contains(&f) && r <= 2,
            PieceKind::Elephant => r <= 4,
            _ => true,
        }
    };
    let place = |s: &mut Setup, rng: &mut Rng, p: Piece| {
        for _ in 0..20 {
            let sq = Square(rng.below_rem(90) as u8);
            if s.board[sq.index()].is_none() && playable(p, sq) {
                s.board[sq.index()] = Some(p);
                return;
            }
        }
    };
    for c in Color::BOTH {
        place(&mut s, rng, Piece::new(c, PieceKind::King));
    }
    for _ in 0..2 + rng.below_rem(20) {
        let kind = PieceKind::ALL[1 + rng.below_rem(6)];
        let c = color(rng);
        place(&mut s, rng, Piece::new(c, kind));
    }
    s.side = color(rng);
    Position::from_setup(&s).ok()
}

fn random_board(rng: &mut Rng) -> Option<Position> {
    let mut s = Setup::parse("9/9/9/9/9/9/9/9/9/9").ok()?;
    let place = |s: &mut Setup, rng: &mut Rng, p: Piece| {
        // Try a few random points; keep the first empty one the piece may stand on.
        for _ in 0..20 {
            let sq = Square(rng.below_rem(90) as u8);
            if s.board[sq.index()].is_none() && may_stand(p, sq) {
                s.board[sq.index()] = Some(p);
                return;
            }
        }
    };
    for c in Color::BOTH {
        place(&mut s, rng, Piece::new(c, PieceKind::King));
    }
    let extra = 2 + rng.below_rem(14);
    for _ in 0..extra {
        let c = color(rng);
        let kind = PieceKind::ALL[1 + rng.below_rem(6)];
        let have = s
            .board
            .iter()
            .filter(|q| **q == Some(Piece::new(c, kind)))
            .count() as u32;
        if have < kind.max_count() {
            place(&mut s, rng, Piece::new(c, kind));
        }
    }
    s.side = color(rng);
    Position::from_setup(&s).ok()
}

/// The naive generator is itself checked: it reproduces the reference perft(3)
/// of every position in the table, so agreeing with it means something.
#[test]
fn naive_generator_matches_the_perft_table() {
    let table = include_str!("data/perft.tsv");
    let mut rows = 0;
    for line in table
        .lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("fen"))
    {
        let mut fields = line.split('\t');
        let p = pos(fields.next().unwrap_or_default());
        let counts: Vec<u64> = fields.filter_map(|f| f.trim().parse().ok()).collect();
        let mut b: Board = [None; 90];
        for (i, cell) in b.iter_mut().enumerate() {
            *cell = p.piece_at(Square(i as u8));
        }
        for depth in 1..=3u32 {
            assert_eq!(
                naive_perft(&b, p.side_to_move(), depth),
                counts[depth as usize - 1],
                "naive perft({depth}) of {}",
                p.to_fen()
            );
        }
        rows += 1;
    }
    assert_eq!(rows, 7);
}

/// The pawn key follows the pawns alone, the material key the material alone.
#[test]
fn pawn_and_material_keys() {
    let a = pos("3k5/9/9/9/9/2p6/9/2R6/9/4K4 w");
    let b = pos("3k5/9/9/9/9/2p6/9/6R2/9/4K4 w");
    let c = pos("3k5/9/9/9/9/3p5/9/2R6/9/4K4 w");
    assert_eq!(a.pawn_key(), b.pawn_key());
    assert_ne!(a.pawn_key(), c.pawn_key());
    assert_eq!(a.material_key(), c.material_key());
    assert_ne!(
        a.material_key(),
        pos("3k5/9/9/9/9/9/9/2R6/9/4K4 w").material_key()
    );
    // A capture changes the material key as if built from scratch.
    let mut p = pos("3k5/9/9/9/9/2p6/9/2R6/9/4K4 w");
    p.make_move(p.parse_move("c2c4").unwrap());
    let q = pos(&p.to_fen());
    assert_eq!(p.material_key(), q.material_key());
    assert_eq!(p.pawn_key(), q.pawn_key());
    assert!(p.is_consistent());
}
