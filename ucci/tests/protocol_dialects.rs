//! The dialects besides plain UCCI and Pikafish's UCI, each as the GUI or tool
//! that speaks it sends it, against the real binary: Cyclone's bare position
//! commands, scripts piped in whole (lines arriving during a search), and
//! Fairy-Stockfish's `UCI_Variant` with ranks 1–10.

mod common;
use common::*;
use std::time::Duration;

const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/// Fairy-Stockfish's square names (ranks 1–10) to ICCS (ranks 0–9).
fn one_based_to_iccs(m: &str) -> String {
    let mut out = String::new();
    let mut digits = String::new();
    for c in m.chars().chain(std::iter::once(' ')) {
        if c.is_ascii_digit() {
            digits.push(c);
            continue;
        }
        if !digits.is_empty() {
            let rank: u32 = digits.parse().unwrap();
            assert!((1..=10).contains(&rank), "{m}");
            out += &(rank - 1).to_string();
            digits.clear();
        }
        if c != ' ' {
            out.push(c);
        }
    }
    out
}

#[test]
fn cyclone_bare_fen_and_startpos_are_the_positions_searched() {
    let mut q = Qili::start();
    q.send("ucicyclone");
    q.expect("uciok");
    q.ready();
    // The transcript: Black to move after h2e2, never a Red move.
    q.send(&format!("fen {START} moves h2e2"));
    q.send("go depth 5");
    let (best, _) = q.answer(SLOW);
    assert!(
        legal_after(None, &["h2e2"], &best_of(&best).unwrap()),
        "{best}"
    );
    q.send("startpos moves h2e2 h9g7");
    q.send("go depth 5");
    let (best, _) = q.answer(SLOW);
    assert!(
        legal_after(None, &["h2e2", "h9g7"], &best_of(&best).unwrap()),
        "{best}"
    );
    // A position command the engine cannot read leaves none in force.
    q.send("fen rnbakabnr/9/1c5c1 w moves h2e2");
    q.expect_prefix("info string error");
    q.send("go depth 5");
    q.expect_prefix("info string error: no position to search");
    q.expect("bestmove (none)");
    q.send("quit");
    assert_eq!(q.wait_exit(Duration::from_secs(5)), Some(0));
}

#[test]
fn a_script_piped_in_whole_gets_every_answer_for_its_own_position() {
    let mut q = Qili::start();
    let script = "uci\nposition startpos\ngo depth 6\nposition startpos moves h2e2\ngo depth 6\n\
                  setoption name MultiPV value 1\nfen 4k4/9/9/9/9/9/9/9/4A4/4K4 w - - 0 1\ngo depth 3\n";
    q.send_raw(script.as_bytes());
    q.close_stdin();
    let (first, _) = q.answer(SLOW);
    let (second, _) = q.answer(SLOW);
    let (third, _) = q.answer(SLOW);
    assert!(legal_after(None, &[], &best_of(&first).unwrap()), "{first}");
    assert!(
        legal_after(None, &["h2e2"], &best_of(&second).unwrap()),
        "{second}"
    );
    let lone = "4k4/9/9/9/9/9/9/9/4A4/4K4 w - - 0 1";
    assert!(
        legal_after(Some(lone), &[], &best_of(&third).unwrap()),
        "{third}"
    );
    assert_eq!(q.wait_exit(Duration::from_secs(10)), Some(0));
}

#[test]
fn fairy_stockfish_variant_reads_and_writes_ranks_one_to_ten() {
    let mut q = Qili::start();
    q.send("uci");
    q.expect("option name UCI_Variant type combo default xiangqi var xiangqi");
    q.expect("uciok");
    q.send("setoption name UCI_Variant value xiangqi");
    q.ready();
    // 炮二平五 is h3e3 here; Black answers on ranks 1–10.
    q.send(&format!("position fen {START} moves h3e3"));
    q.send("go depth 5");
    let (best, info) = q.answer(SLOW);
    let mv = best_of(&best).unwrap();
    assert!(
        legal_after(None, &["h2e2"], &one_based_to_iccs(&mv)),
        "{best}"
    );
    let pv = info.iter().rev().find(|l| l.contains(" pv ")).unwrap();
    let first_pv = pv.split(" pv ").nth(1).unwrap().split(' ').next().unwrap();
    assert_eq!(first_pv, mv, "{pv}");
    // Red's knight from b1: the last rank is written 10.
    q.send("position startpos moves b1c3 b10c8 a4a5");
    q.send("go depth 4");
    let (best, _) = q.answer(SLOW);
    let mv = best_of(&best).unwrap();
    assert!(
        legal_after(None, &["b0c2", "b9c7", "a3a4"], &one_based_to_iccs(&mv)),
        "{best}"
    );
    // The 0-based spelling of 炮二平五 is not a move in this dialect.
    q.send("position startpos moves h2e2");
    q.expect_prefix("info string error");
    q.send("go depth 3");
    q.expect_prefix("info string error: no position to search");
    q.expect("bestmove (none)");
    // Another variant: refused, and so is every position until xiangqi.
    q.send("setoption name UCI_Variant value janggi");
    q.expect_prefix("info string error: variant 'janggi' is not played");
    q.send("position startpos");
    q.expect_prefix("info string error: variant 'janggi'");
    q.send("go depth 3");
    q.expect("bestmove (none)");
    q.send("quit");
    assert_eq!(q.wait_exit(Duration::from_secs(5)), Some(0));
}

#[test]
fn eval_reports_the_static_evaluation_in_both_dialects() {
    for greeting in ["uci", "ucci"] {
        let mut q = Qili::handshake(greeting);
        q.send("position startpos moves h2e2");
        q.send("eval");
        q.expect_prefix("NNUE evaluation (embedded net");
        q.expect_prefix("      7 |  30-32 |");
        let last = q.expect_prefix("Final evaluation: ");
        // Black to move: the two views differ in sign.
        let cps: Vec<i32> = last
            .split("cp ")
            .skip(1)
            .map(|t| t.trim_end_matches([']', ' ', '/']).trim().parse().unwrap())
            .collect();
        assert_eq!(cps.len(), 2, "{last}");
        assert_eq!(cps[0], -cps[1], "{last}");
        // No position: an error, never a report of an older one.
        q.send("position startpos moves h2e2 h2e2");
        q.send("eval");
        q.expect_prefix("info ");
        q.ready();
        assert!(!q
            .transcript
            .iter()
            .rev()
            .take(3)
            .any(|l| l.starts_with("Final")));
    }
}
