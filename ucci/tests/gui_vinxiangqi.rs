//! VinXiangQi (github.com/Vincentzyx/VinXiangQi, `VinXiangQi/EngineHelper.cs`, with
//! the FEN and move helpers of `VinXiangQi/Utils.cs` and the callers in
//! `VinXiangQi/DetectionLogic.cs` and `Mainform.cs`) against the real binary.
//!
//! What that GUI does, reproduced here in our own words:
//! * start-up: it writes `uci` and then `ucci` at once, and waits only until some
//!   `option …` line has arrived (no `isready`, it never reads `uciok` or
//!   `readyok`); it switches its own `setoption` form to UCCI
//!   (`setoption KEY VALUE`) only if a `ucciok` line arrives, else it uses
//!   `setoption name KEY value VALUE`. Then it sets every saved option (always
//!   `Threads`) by its name as the engine listed it.
//! * each search: `position fen BOARD w|b` (the board and the side only, no
//!   counters and never a move list), then `banmoves MOVE` when its own list of
//!   answers shows the same move three times over, then `go movetime MS depth D`
//!   (or `go depth D` with no time set); pondering is `go ponder movetime MS depth
//!   D`, answered by `ponderhit` or by `stop` (whose `bestmove` it throws away).
//!   Before a new search it often sends `stop`, searching or not.
//! * replies: the first word must be exactly `bestmove` (so `nobestmove` is
//!   ignored); word 2 is the move, and if the line has more than two words word 4
//!   is read as the ponder move (a line of exactly three words would be an index
//!   error). Moves are four characters, files a–i and ranks the digits 0–9 from
//!   Red's side. `info` lines are split on spaces into a key → value map in which
//!   a repeated key is an error; `pv` and `string` take the rest of the line.

mod common;
use common::*;
use std::collections::HashSet;
use std::time::Duration;

const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w";
/// After 炮二平五 (h2e2), Black to move, as the GUI writes it when the user plays Black.
const AFTER_H2E2: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b";
/// A middlegame, Red to move.
const MIDDLE: &str = "r1bakab1r/9/1cn4c1/p1p1p3p/6p2/2P6/P3P1P1P/1C2C1N2/9/RNBAKAB1R w";
/// Bare advisors and elephants: a level ending.
const LEVEL: &str = "3aka3/9/4b4/9/9/9/9/4B4/9/3AKA3 w";

/// Start the engine the way the GUI does and set its options the way it then would.
fn start_like_vinxiangqi() -> Qili {
    let mut q = Qili::start();
    q.send("uci");
    q.send("ucci");
    // All the GUI waits for: one `option` line.
    q.expect_prefix("option ");
    // The first greeting chooses: UCI, whose `bestmove` lines never carry UCCI's
    // `draw`/`resign` (a three-word line the GUI cannot read). No `ucciok`, so
    // the GUI keeps the UCI form of `setoption`.
    q.expect("uciok");
    q.expect_prefix("info string error: already speaking uci");
    q.send("setoption name Threads value 1");
    q.send("setoption name Hash value 16");
    q
}

/// Lines the engine says within a short while (the GUI never syncs with `isready`;
/// the test does, so that nothing is missed).
fn settle(q: &mut Qili) -> Vec<String> {
    let start = q.transcript.len();
    q.send("isready");
    q.expect("readyok");
    q.transcript[start..q.transcript.len() - 1].to_vec()
}

/// The key → value map the GUI builds from an `info` line, or why it would fail.
fn gui_info_keys(line: &str) -> Result<Vec<String>, String> {
    const KEYS: &[&str] = &[
        "depth",
        "seldepth",
        "time",
        "nodes",
        "pv",
        "multipv",
        "score",
        "currmove",
        "currmovenumber",
        "hashfull",
        "nps",
        "tbhits",
        "cpuload",
        "string",
        "refutation",
        "currline",
    ];
    let w: Vec<&str> = line.split(' ').collect();
    let mut keys = Vec::new();
    let mut i = 1;
    while i < w.len() {
        let k = w[i];
        if keys.iter().any(|x| x == k) {
            return Err(format!("repeated key {k:?}"));
        }
        keys.push(k.to_string());
        match k {
            "pv" | "string" => break,
            "score" => {
                let kind = w.get(i + 1).ok_or("score without a value")?;
                i += if *kind == "cp" || *kind == "mate" {
                    if w.get(i + 2).is_none() {
                        return Err("score cp/mate without a number".into());
                    }
                    3
                } else {
                    2
                };
            }
            _ => {
                i += if w.get(i + 1).is_some_and(|n| !KEYS.contains(n)) {
                    2
                } else {
                    1
                };
            }
        }
    }
    Ok(keys)
}

/// Check a search's answer the way the GUI reads it: the move is legal in `fen`,
/// not `banned`, four characters; the ponder move (word 4) is legal after it; every
/// `info` line parses. Returns the move.
fn check_answer(fen: &str, banned: &[&str], line: &str, info: &[String]) -> String {
    assert!(line.starts_with("bestmove "), "GUI ignores {line:?}");
    let w: Vec<&str> = line.split(' ').collect();
    assert!(
        w.len() == 2 || w.len() >= 4,
        "the GUI reads word 4 of any longer line: {line:?}"
    );
    let mv = w[1];
    assert_eq!(mv.len(), 4, "{line}");
    assert!(
        mv.as_bytes()[1].is_ascii_digit() && mv.as_bytes()[3].is_ascii_digit(),
        "ranks 0-9: {line}"
    );
    let mut pos = Position::from_fen(fen).expect("GUI FEN");
    let m = pos
        .parse_move(mv)
        .unwrap_or_else(|e| panic!("{mv} is not legal in {fen}: {e:?}"));
    assert!(!banned.contains(&mv), "{mv} was banned in {fen}");
    if w.len() >= 4 {
        assert_eq!(w[2], "ponder", "{line}");
        pos.make_move(m);
        assert!(
            pos.parse_move(w[3]).is_ok(),
            "ponder {} not legal after {mv} in {fen}",
            w[3]
        );
    }
    for l in info.iter().filter(|l| l.starts_with("info ")) {
        if let Err(e) = gui_info_keys(l) {
            panic!("the GUI fails on {l:?}: {e}");
        }
    }
    mv.to_string()
}

/// One search as the GUI starts it.
fn search(q: &mut Qili, fen: &str, banned: &[&str], go: &str) -> String {
    q.send(&format!("position fen {fen}"));
    if !banned.is_empty() {
        q.send(&format!("banmoves {}", banned.join(" ")));
    }
    q.send(go);
    let (line, info) = q.answer(SLOW);
    check_answer(fen, banned, &line, &info)
}

#[test]
fn handshake_settles_on_the_first_greeting_and_takes_its_setoption() {
    let mut q = start_like_vinxiangqi();
    let said = settle(&mut q);
    assert!(
        !said.iter().any(|l| l.contains("error")),
        "setoption Threads/Hash in UCI form: {said:?}"
    );
    assert!(
        !q.transcript.iter().any(|l| l == "ucciok"),
        "{:?}",
        q.transcript
    );
    // The names the GUI's settings list shows come from the `option name …` lines.
    assert!(q
        .transcript
        .iter()
        .any(|l| l.starts_with("option name Threads type spin")));
    q.send("quit");
    assert_eq!(q.wait_exit(Duration::from_secs(5)), Some(0));
}

#[test]
fn a_vinxiangqi_session_gets_legal_answers() {
    let mut q = start_like_vinxiangqi();
    settle(&mut q);
    // The opening, with a time and a depth, then the reply side with a depth only.
    search(&mut q, START, &[], "go movetime 1000 depth 6");
    search(&mut q, AFTER_H2E2, &[], "go depth 5");
    // A stop before a new search while nothing runs: no `bestmove` may come, or the
    // GUI would pair it with the next position it queues.
    q.send("stop");
    let idle = q.drain_for(Duration::from_millis(300));
    assert!(
        !idle.iter().any(|l| l.split(' ').next() == Some("bestmove")),
        "{idle:?}"
    );
    // A stop during a long search: the answer still belongs to that position.
    q.send(&format!("position fen {MIDDLE}"));
    q.send("go movetime 20000 depth 40");
    std::thread::sleep(Duration::from_millis(300));
    q.send("stop");
    let (line, info) = q.answer(SLOW);
    check_answer(MIDDLE, &[], &line, &info);
    // The move the engine repeats is banned, then the position is searched again.
    let first = search(&mut q, MIDDLE, &[], "go movetime 500 depth 6");
    let second = search(&mut q, MIDDLE, &[&first], "go movetime 500 depth 6");
    assert_ne!(first, second);
    // The GUI sends a ban once, with one position; the next search has none.
    search(&mut q, MIDDLE, &[], "go depth 4");
    // Black to move with a ban.
    let black_first = search(&mut q, AFTER_H2E2, &[], "go depth 4");
    search(
        &mut q,
        AFTER_H2E2,
        &[&black_first],
        "go movetime 300 depth 4",
    );
    // A level ending searched again and again (the GUI's FEN has no move counters).
    for _ in 0..9 {
        search(&mut q, LEVEL, &[], "go movetime 200 depth 3");
    }
    q.send("quit");
    assert_eq!(q.wait_exit(Duration::from_secs(5)), Some(0));
}

#[test]
fn vinxiangqi_pondering_hit_and_miss() {
    let mut q = start_like_vinxiangqi();
    settle(&mut q);
    // Hit: the opponent played the expected move.
    q.send(&format!("position fen {AFTER_H2E2}"));
    q.send("go ponder movetime 300 depth 6");
    let early = q.drain_for(Duration::from_millis(200));
    assert!(
        !early.iter().any(|l| l.starts_with("bestmove")),
        "answered before ponderhit: {early:?}"
    );
    q.send("ponderhit");
    let (line, info) = q.answer(SLOW);
    check_answer(AFTER_H2E2, &[], &line, &info);
    // Miss: `stop` (the GUI discards this answer), then the real position.
    q.send(&format!("position fen {MIDDLE}"));
    q.send("go ponder movetime 300 depth 6");
    std::thread::sleep(Duration::from_millis(100));
    q.send("stop");
    let (line, info) = q.answer(SLOW);
    check_answer(MIDDLE, &[], &line, &info);
    search(&mut q, START, &[], "go movetime 300 depth 6");
    let seen: HashSet<&str> = q
        .transcript
        .iter()
        .filter_map(|l| l.split(' ').next())
        .collect();
    assert!(seen.contains("info"), "{seen:?}");
}

#[test]
fn vinxiangqi_sets_options_of_several_words() {
    // The GUI's settings dialog sends every option it lists, by the name in the
    // `option name …` line: in UCI form here, and in UCCI form (`setoption NAME
    // VALUE`) had it seen `ucciok`, as it does from a UCCI-only engine.
    let mut q = start_like_vinxiangqi();
    settle(&mut q);
    q.send("setoption name Skill Level value 20");
    q.send("setoption name Natural Move Limit value 60");
    q.send("setoption name Clear Hash");
    let said = settle(&mut q);
    assert!(
        !said.iter().any(|l| l.contains("error")),
        "multi-word option names in UCI form: {said:?}"
    );
    let mut q = Qili::start();
    q.send("ucci");
    q.expect("ucciok");
    q.send("setoption Skill Level 20");
    q.send("setoption Natural Move Limit 60");
    q.send("setoption Clear Hash ");
    let said = settle(&mut q);
    assert!(
        !said.iter().any(|l| l.contains("error")),
        "multi-word option names in UCCI form: {said:?}"
    );
}
