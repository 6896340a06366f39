//! UCCI 3.0 transcripts against the real binary.

mod common;
use common::*;
use std::time::{Duration, Instant};

const MATED_BLACK: &str = "3k5/9/9/9/9/9/9/9/9/3RK4 b - - 0 1";
/// Red to move with a bare king against a rook: lost for Red.
const RED_LOST: &str = "4k4/9/9/9/r8/9/9/9/9/5K3 w - - 0 1";
/// Red to move, a rook up: winning for Red.
const RED_WINS: &str = "3k5/9/9/9/9/9/9/9/R8/4K4 w - - 0 1";

#[test]
fn handshake_options_position_go_quit() {
    let mut q = Qili::start();
    q.send("ucci");
    let id = q.expect_prefix("id name");
    assert!(id.contains("Qili"));
    q.expect("option usemillisec type check default true");
    q.expect("ucciok");
    // Lines may end in CRLF; the UCI form of setoption is accepted too.
    q.send_raw(b"setoption hashsize 16\r\n");
    q.send("setoption name Threads value 1");
    q.send("setoption usemillisec true");
    q.send("setoption newgame");
    q.send("setoption rules cn");
    q.send("setoption naturallimit 50");
    q.send("setoption drawvalue -20");
    q.send("setoption moveoverhead 30");
    q.send("setoption usebook false");
    q.send_raw(b"isready\r\n");
    q.expect("readyok");
    let moves = ["h2e2", "h9g7", "h0g2"];
    q.send(&format!("position startpos moves {}", moves.join(" ")));
    q.send("go depth 4");
    let (best, info) = q.answer(SLOW);
    let mv = best_of(&best).expect("a move");
    assert!(legal_after(None, &moves, &mv), "{best} after {moves:?}");
    let last = info
        .iter()
        .rev()
        .find(|l| l.contains(" pv "))
        .expect("an info line with pv");
    for field in [
        "depth", "seldepth", "score", "time", "nodes", "nps", "hashfull", "pv",
    ] {
        assert!(
            last.split_whitespace().any(|w| w == field),
            "{field} in {last}"
        );
    }
    assert!(!last.contains("score cp"), "UCCI scores have no cp: {last}");
    q.send("quit");
    q.expect("bye");
    assert_eq!(q.wait_exit(Duration::from_secs(5)), Some(0));
}

#[test]
fn go_time_answers_within_the_clock() {
    let mut q = Qili::handshake("ucci");
    q.send("position startpos");
    let sent = Instant::now();
    q.send("go time 2000 increment 0 opptime 2000 oppincrement 0");
    let (best, _) = q.answer(SLOW);
    let took = sent.elapsed();
    assert!(best_of(&best).is_some());
    assert!(
        took < Duration::from_millis(1500),
        "took {took:?} of a 2 s clock"
    );
    // Seconds mode when the GUI turns milliseconds off: `time 2` is 2 s.
    q.send("setoption usemillisec false");
    let sent = Instant::now();
    q.send("go time 2 movestogo 40");
    let (best, _) = q.answer(SLOW);
    assert!(best_of(&best).is_some());
    assert!(sent.elapsed() < Duration::from_millis(1500));
}

#[test]
fn stop_latency_during_infinite_search() {
    let mut q = Qili::handshake("ucci");
    q.send("position startpos moves b0c2");
    let mut worst = Duration::ZERO;
    for _ in 0..5 {
        q.send("go infinite");
        // Nothing may come back on its own.
        let early = q.drain_for(Duration::from_millis(300));
        assert!(
            early.iter().all(|l| l.starts_with("info")),
            "answered before stop: {early:?}"
        );
        let sent = Instant::now();
        q.send("stop");
        let (best, _) = q.answer(SLOW);
        let took = sent.elapsed();
        worst = worst.max(took);
        assert!(best_of(&best).is_some(), "{best}");
    }
    eprintln!("stop latency, worst of 5: {worst:?}");
    // The target is well under 100 ms; the bound is loose for a loaded 2-core box.
    assert!(worst < Duration::from_millis(500), "stop took {worst:?}");
}

#[test]
fn ponder_then_ponderhit_and_ponder_miss() {
    let mut q = Qili::handshake("ucci");
    q.send("setoption ponder true");
    q.send("position startpos moves h2e2 h9g7");
    q.send("go ponder time 3000 increment 0 opptime 3000 oppincrement 0");
    let early = q.drain_for(Duration::from_millis(400));
    assert!(early.iter().all(|l| l.starts_with("info")), "{early:?}");
    let hit = Instant::now();
    q.send("ponderhit");
    let (best, _) = q.answer(SLOW);
    assert!(legal_after(
        None,
        &["h2e2", "h9g7"],
        &best_of(&best).unwrap()
    ));
    assert!(
        hit.elapsed() < Duration::from_millis(2500),
        "{:?}",
        hit.elapsed()
    );
    // Ponder miss: the GUI stops the ponder search and ignores its move.
    q.send("go ponder time 3000 increment 0");
    std::thread::sleep(Duration::from_millis(200));
    q.send("stop");
    let (best, _) = q.answer(SLOW);
    assert!(best_of(&best).is_some());
    q.ready();
}

#[test]
fn draw_offers_are_accepted_only_when_not_better() {
    let mut q = Qili::handshake("ucci");
    q.send(&format!("position fen {RED_LOST}"));
    q.send("go draw depth 4");
    let (best, _) = q.answer(SLOW);
    assert!(best.ends_with(" draw"), "lost side should accept: {best}");
    q.send(&format!("position fen {RED_WINS}"));
    q.send("go draw depth 4");
    let (best, _) = q.answer(SLOW);
    assert!(
        !best.contains("draw"),
        "winning side should decline: {best}"
    );
    // Without an offer, no flag.
    q.send(&format!("position fen {RED_LOST}"));
    q.send("go depth 3");
    let (best, _) = q.answer(SLOW);
    assert!(!best.contains("draw") && !best.contains("resign"), "{best}");
    // The offer can come with ponderhit.
    q.send("go ponder time 2000 increment 0");
    std::thread::sleep(Duration::from_millis(100));
    q.send("ponderhit draw");
    let (best, _) = q.answer(SLOW);
    assert!(best.ends_with(" draw"), "{best}");
}

/// Late in the game, bare advisors and elephants on both sides: a level position.
const LEVEL_LATE: &str = "3aka3/9/4b4/9/9/9/9/4B4/9/3AKA3 w - - 0 50";

/// The `bestmove` lines of `n` searches of `fen` at depth 3.
fn answers(q: &mut Qili, fen: &str, n: usize) -> Vec<String> {
    (0..n)
        .map(|_| {
            q.send(&format!("position fen {fen}"));
            q.send("go depth 3");
            q.answer(SLOW).0
        })
        .collect()
}

#[test]
fn the_engine_offers_a_draw_in_a_long_level_game() {
    let mut q = Qili::handshake("ucci");
    let flags = answers(&mut q, LEVEL_LATE, 8);
    let offers: Vec<usize> = (0..8).filter(|&i| flags[i].ends_with(" draw")).collect();
    assert_eq!(offers, vec![7], "the 8th level search offers: {flags:?}");
    // Switched off: no offer.
    q.send("setoption drawoffer false");
    assert!(!answers(&mut q, LEVEL_LATE, 10)
        .iter()
        .any(|b| b.contains("draw")));
    // On again, but a draw is worth less than a level game to us: no offer.
    q.send("setoption drawoffer true");
    q.send("setoption drawvalue -30");
    assert!(!answers(&mut q, LEVEL_LATE, 10)
        .iter()
        .any(|b| b.contains("draw")));
    // A new game restarts the count.
    q.send("setoption drawvalue 0");
    answers(&mut q, LEVEL_LATE, 5);
    q.send("setoption newgame");
    let flags = answers(&mut q, LEVEL_LATE, 8);
    assert!(flags[..7].iter().all(|b| !b.contains("draw")), "{flags:?}");
    assert!(flags[7].ends_with(" draw"), "{flags:?}");
}

#[test]
fn resigns_only_when_allowed_and_hopeless() {
    let mut q = Qili::handshake("ucci");
    q.send(&format!("position fen {RED_LOST}"));
    for _ in 0..3 {
        q.send("go depth 4");
        let (best, _) = q.answer(SLOW);
        assert!(!best.contains("resign"), "{best}");
    }
    q.send("setoption resign true");
    q.send("setoption resignvalue 300");
    let mut flags = Vec::new();
    for _ in 0..3 {
        q.send("go depth 4");
        flags.push(q.answer(SLOW).0);
    }
    assert!(flags.last().unwrap().ends_with(" resign"), "{flags:?}");
    q.send(&format!("position fen {RED_WINS}"));
    q.send("go depth 4");
    assert!(!q.answer(SLOW).0.contains("resign"));
}

#[test]
fn banmoves_and_nobestmove() {
    let mut q = Qili::handshake("ucci");
    let pos = Position::startpos();
    let others: Vec<String> = pos
        .legal_moves()
        .iter()
        .map(|m| m.iccs())
        .filter(|m| m != "b0c2")
        .collect();
    q.send("position startpos");
    q.send(&format!("banmoves {}", others.join(" ")));
    q.send("go depth 3");
    let (best, _) = q.answer(SLOW);
    assert_eq!(best_of(&best).as_deref(), Some("b0c2"), "{best}");
    // `position` clears the bans.
    q.send("position startpos");
    q.send("go depth 1");
    assert!(best_of(&q.answer(SLOW).0).is_some());
    // Every move banned, or none legal: nobestmove.
    let all: Vec<String> = pos.legal_moves().iter().map(|m| m.iccs()).collect();
    q.send(&format!("banmoves {}", all.join(" ")));
    q.send("go depth 3");
    assert_eq!(q.answer(SLOW).0, "nobestmove");
    q.send(&format!("position fen {MATED_BLACK}"));
    q.send("go depth 3");
    assert_eq!(q.answer(SLOW).0, "nobestmove");
    // `stop` while idle is answered with nobestmove (UCCI).
    q.send("stop");
    q.expect("nobestmove");
    // `go depth 0`: an evaluation, then nobestmove (UCCI spec 5.10).
    q.send("position startpos");
    q.send("go depth 0");
    let (answer, info) = q.answer(SLOW);
    assert_eq!(answer, "nobestmove");
    assert!(info.iter().any(|l| l.contains(" score ")), "{info:?}");
}

#[test]
fn probe_reports_the_hash_entry() {
    let mut q = Qili::handshake("ucci");
    q.send("position startpos");
    q.send("go depth 6");
    let (best, _) = q.answer(SLOW);
    let mv = best_of(&best).unwrap();
    // The searched root itself is in the table, with the move just played.
    q.send("probe startpos");
    assert!(
        q.expect_prefix("pophash")
            .starts_with(&format!("pophash bestmove {mv} ")),
        "root probe"
    );
    // The reply to our best move was searched deeply: it is in the table.
    q.send(&format!("probe startpos moves {mv}"));
    let line = q.expect_prefix("pophash");
    assert!(line.starts_with("pophash bestmove "), "{line}");
    let stored = line.split_whitespace().nth(2).unwrap();
    assert!(legal_after(None, &[&mv], stored), "{line}");
    assert!(line.contains(" depth "), "{line}");
    // Without arguments, probe looks at the current position.
    q.send(&format!("position startpos moves {mv}"));
    q.send("probe");
    assert_eq!(q.expect_prefix("pophash"), line);
    q.send("probe fen 4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1");
    assert_eq!(q.expect_prefix("pophash"), "pophash");
    q.send("probe fen not-a-fen");
    q.expect_prefix("info message error");
    q.expect("pophash");
}

#[test]
fn batch_mode_runs_a_piped_script() {
    let mut q = Qili::handshake("ucci");
    q.send("setoption batch on");
    // All at once: in batch mode nothing is read during a search, so the
    // second position and go wait for the first answer instead of being lost.
    q.send_raw(
        b"position startpos\ngo depth 3\nposition startpos moves h2e2\ngo depth 3\nisready\n",
    );
    let (a, _) = q.answer(SLOW);
    let (b, _) = q.answer(SLOW);
    assert!(legal_after(None, &[], &best_of(&a).unwrap()));
    assert!(legal_after(None, &["h2e2"], &best_of(&b).unwrap()), "{b}");
    q.expect("readyok");
}

#[test]
fn quit_while_thinking_and_end_of_input() {
    let mut q = Qili::handshake("ucci");
    q.send("position startpos");
    q.send("go infinite");
    std::thread::sleep(Duration::from_millis(200));
    let sent = Instant::now();
    q.send("quit");
    q.expect("bye");
    assert_eq!(q.wait_exit(Duration::from_secs(5)), Some(0));
    eprintln!("quit during search: {:?}", sent.elapsed());

    // Unlike ElephantEye, end of input ends the engine, even mid-search.
    let mut q = Qili::handshake("ucci");
    q.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    q.close_stdin();
    assert_eq!(q.wait_exit(Duration::from_secs(5)), Some(0));
}
