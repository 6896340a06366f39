//! The move picker's order: best first, the killers after the good captures,
//! and what `skip_quiets` leaves.

use super::*;

/// With the exchange of a capture evaluated only when it is picked, the moves still
/// come best-first by their true scores (never rising), every capture is classed as
/// losing exactly when its SEE is below zero, and each legal move comes once.
#[test]
fn lazy_exchange_keeps_best_first_order() {
    let hist = Histories::new();
    let ctx = OrderContext::default();
    let mut losing = 0;
    for fen in crate::bench_positions::BENCH_FENS {
        let pos = Position::from_fen(fen).expect("valid FEN");
        let mut picker = MovePicker::new(Move::NULL);
        let mut last = i32::MAX;
        let mut seen = Vec::new();
        while let Some(m) = picker.next(&pos, &hist, 0, &ctx) {
            let s = picker.last_score();
            assert!(s <= last, "{fen}: {m} scored {s} after {last}");
            last = s;
            if pos.piece_at(m.to()).is_some() {
                let bad = is_bad_capture_score(s);
                assert_eq!(bad, !pos.see_ge(m, 0), "{fen}: {m}");
                losing += bad as usize;
            }
            seen.push(m);
        }
        let mut all = pos.legal_moves().as_slice().to_vec();
        all.sort_by_key(|m| m.0);
        seen.sort_by_key(|m| m.0);
        assert_eq!(seen, all, "{fen}");
    }
    assert!(losing > 5, "{losing} losing captures");
}

/// The killers come right after the good captures, before any other quiet
/// move, when they are legal quiet moves here; a killer that is not (from
/// another position at the same ply) is never handed out, and every legal
/// move still comes exactly once.
#[test]
fn legal_killers_come_after_the_good_captures_and_others_never() {
    let ctx = OrderContext::default();
    let mut killers_seen = 0;
    for fen in crate::bench_positions::BENCH_FENS {
        let pos = Position::from_fen(fen).expect("valid FEN");
        let legal = pos.legal_moves();
        let quiets: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|m| pos.piece_at(m.to()).is_none())
            .collect();
        let Some(&killer) = quiets.last() else {
            continue;
        };
        // A move of the side not to move: never legal here.
        let mut other = pos.clone();
        other.make_null_move();
        let Some(&alien) = other
            .legal_moves()
            .iter()
            .find(|m| pos.piece_at(m.to()).is_none())
        else {
            continue;
        };
        let mut hist = Histories::new();
        hist.killers[0] = [alien, killer];
        let mut picker = MovePicker::new(Move::NULL);
        let mut seen = Vec::new();
        let mut quiet_before_killer = false;
        while let Some(m) = picker.next(&pos, &hist, 0, &ctx) {
            assert_ne!(m, alien, "{fen}");
            if m == killer {
                assert!(!quiet_before_killer, "{fen}");
                assert_eq!(picker.last_score(), KILLER_2);
                killers_seen += 1;
            } else if pos.piece_at(m.to()).is_none() {
                quiet_before_killer = true;
            }
            seen.push(m);
        }
        let mut all = legal.as_slice().to_vec();
        all.sort_by_key(|m| m.0);
        seen.sort_by_key(|m| m.0);
        assert_eq!(seen, all, "{fen}");
    }
    assert!(killers_seen > 20, "{killers_seen}");
}

/// After `skip_quiets` the picker hands out exactly the captures it had not handed
/// out yet, in the order it would have given them, and reports how many quiet moves
/// it dropped.
#[test]
fn skip_quiets_leaves_the_remaining_captures_in_order() {
    let hist = Histories::new();
    let ctx = OrderContext::default();
    let mut captures_after_skip = 0;
    for fen in [
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
        // Middlegame with captures on both sides of zero SEE.
        "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/2P3P2/P3P3P/1C2C1N2/9/RNBAKAB1R b",
        "2bak4/4a4/4b4/p3R4/2n1c4/9/P3P4/4B4/3rA4/2BAK4 w",
    ] {
        let pos = Position::from_fen(fen).expect("valid FEN");
        let all = pos.legal_moves();
        for picked_first in 0..6 {
            let order = |skip: bool| {
                let mut mp = MovePicker::new(Move::NULL);
                let mut out = Vec::new();
                let mut dropped = 0;
                while let Some(m) = mp.next(&pos, &hist, 0, &ctx) {
                    out.push(m);
                    if skip && out.len() == picked_first {
                        dropped = mp.skip_quiets(&pos, &hist, &ctx);
                    }
                }
                (out, dropped)
            };
            let (full, _) = order(false);
            let (skipped, dropped) = order(true);
            assert_eq!(full.len(), all.len());
            if picked_first == 0 || picked_first > full.len() {
                assert_eq!(skipped, full);
                continue;
            }
            let is_capture = |m: &Move| pos.piece_at(m.to()).is_some();
            let expected: Vec<Move> = full[..picked_first]
                .iter()
                .copied()
                .chain(full[picked_first..].iter().copied().filter(is_capture))
                .collect();
            // Equal-scored moves may come in another order: compare as sets per
            // score class (good captures first, losing captures last).
            assert_eq!(skipped[..picked_first], expected[..picked_first], "{fen}");
            let mut rest: Vec<Move> = skipped[picked_first..].to_vec();
            let mut want: Vec<Move> = expected[picked_first..].to_vec();
            assert!(rest.iter().all(is_capture), "{fen}");
            captures_after_skip += rest.len();
            rest.sort_by_key(|m| (m.from().index(), m.to().index()));
            want.sort_by_key(|m| (m.from().index(), m.to().index()));
            assert_eq!(rest, want, "{fen}");
            let quiets_left = full[picked_first..]
                .iter()
                .filter(|m| !is_capture(m))
                .count();
            assert_eq!(dropped, quiets_left, "{fen}");
        }
    }
    assert!(
        captures_after_skip > 0,
        "no case kept a capture after the skip"
    );
}
