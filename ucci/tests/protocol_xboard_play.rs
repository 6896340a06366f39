//! CECP play beyond the basics, against the real binary: engine options
//! (`feature option` and `option NAME=VALUE`), the opening book (`OwnBook`),
//! and pondering (`hard`/`easy`), each move checked against the client's own
//! copy of the game.

mod common;
use common::cecp::*;
use common::*;
use std::time::Duration;

/// Play `text` on `pos`; panics when it is illegal there.
fn play(pos: &mut Position, text: &str) {
    let m = pos
        .parse_move(text)
        .unwrap_or_else(|_| panic!("{text} is illegal in {}", pos.to_fen()));
    pos.make_move(m);
}

/// Is this a thinking line of depth 1 (a search that starts afresh)?
fn depth_one(l: &str) -> bool {
    l.starts_with("1 ")
}

#[test]
fn xboard_options_are_announced_and_set() {
    let mut q = cecp();
    let features = q.transcript.join("\n");
    for f in [
        "feature option=\"Rules -combo *axf /// cn\"",
        "feature option=\"OwnBook -check 0\"",
        "feature option=\"Clear Hash -button\"",
        "feature option=\"EvalFile -file <embedded>\"",
    ] {
        assert!(features.contains(f), "{f} missing:\n{features}");
    }
    // Hash and threads are `memory` and `cores` under CECP.
    assert!(!features.contains("option=\"Hash "), "{features}");
    let done = features.find("feature done=1").unwrap();
    assert!(features.rfind("feature option=").unwrap() < done);
    q.send("option Rules=cn");
    q.send("option Clear Hash");
    q.send("option Skill Level=20");
    let quiet = sync(&mut q, 1);
    assert!(quiet.is_empty(), "{quiet:?}");
    q.send("option Rules=xyz");
    q.send("option Nonesuch=1");
    q.send("option EvalFile=/nonexistent.nnue");
    let errors = sync(&mut q, 2);
    assert_eq!(errors.len(), 3, "{errors:?}");
    assert!(
        errors.iter().all(|l| l.starts_with("Error (")),
        "{errors:?}"
    );
    assert!(errors[0].ends_with("option Rules"), "{errors:?}");
    // The engine still plays after the refused values.
    q.send("sd 2");
    q.send("usermove h2e2");
    let m = engine_move(&mut q, SLOW);
    assert!(legal_after(None, &["h2e2"], &m), "{m}");
    q.send("quit");
    assert_eq!(q.wait_exit(SLOW), Some(0));
}

#[test]
fn xboard_own_book_answers_from_the_book() {
    let mut q = cecp();
    // A search this deep would take minutes: a quick move is the book's.
    q.send("sd 60");
    q.send("option OwnBook=1");
    q.send("option Best Book Move=1");
    q.send("usermove h2e2");
    let m = engine_move(&mut q, SLOW);
    assert!(legal_after(None, &["h2e2"], &m), "{m}");
    let note = q.transcript.iter().find(|l| l.starts_with("# book move "));
    assert!(
        note.is_some_and(|n| n.starts_with(&format!("# book move {m} "))),
        "{:?}",
        q.transcript
    );
    // Without the book the engine searches (and says nothing of a book).
    q.send("new");
    q.send("option OwnBook=0");
    q.send("sd 2");
    let before = q.transcript.len();
    q.send("usermove h2e2");
    let m = engine_move(&mut q, SLOW);
    assert!(legal_after(None, &["h2e2"], &m), "{m}");
    assert!(
        q.transcript[before..].iter().all(|l| !l.contains("book")),
        "{:?}",
        q.transcript
    );
    q.send("quit");
    assert_eq!(q.wait_exit(SLOW), Some(0));
}

/// After the engine's reply to h2e2 with pondering on: the game so far, the
/// reply the engine expects (`hint`), and where in the transcript the ponder
/// search's lines begin.
fn pondering_game(q: &mut Qili) -> (Position, String, usize) {
    q.send("hard");
    q.send("post");
    q.send("sd 5");
    q.send("usermove h2e2");
    let mut game = Position::startpos();
    play(&mut game, "h2e2");
    let m = engine_move(q, SLOW);
    let pondering = q.transcript.len();
    play(&mut game, &m);
    q.send("hint");
    let hint = q.expect_prefix("Hint: ")["Hint: ".len()..].to_string();
    assert!(game.parse_move(&hint).is_ok(), "hint {hint} is illegal");
    (game, hint, pondering)
}

#[test]
fn xboard_ponder_hit_answers_from_the_ponder_search() {
    let mut q = cecp();
    let (mut game, hint, pondering) = pondering_game(&mut q);
    // The ponder search has reached its depth and waits for the reply.
    if !q.transcript[pondering..]
        .iter()
        .any(|l| l.starts_with("5 "))
    {
        q.wait_for("the ponder search's depth 5", SLOW, |l| l.starts_with("5 "));
    }
    play(&mut game, &hint);
    q.send(&format!("usermove {hint}"));
    let start = q.transcript.len();
    let m = engine_move(&mut q, SLOW);
    assert!(game.parse_move(&m).is_ok(), "{m} is illegal after {hint}");
    // No search started afresh after the expected reply.
    let after = &q.transcript[start..];
    assert!(!after.iter().any(|l| depth_one(l)), "{after:?}");
    q.send("quit");
    assert_eq!(q.wait_exit(SLOW), Some(0));
}

#[test]
fn xboard_ponder_miss_searches_the_move_played() {
    let mut q = cecp();
    let (mut game, hint, _) = pondering_game(&mut q);
    let other = game
        .legal_moves()
        .iter()
        .map(|m| m.iccs())
        .find(|m| *m != hint)
        .unwrap();
    play(&mut game, &other);
    let start = q.transcript.len();
    q.send(&format!("usermove {other}"));
    let m = engine_move(&mut q, SLOW);
    assert!(game.parse_move(&m).is_ok(), "{m} is illegal after {other}");
    let after = &q.transcript[start..];
    assert!(after.iter().any(|l| depth_one(l)), "{after:?}");
    q.send("quit");
    assert_eq!(q.wait_exit(SLOW), Some(0));
}

#[test]
fn xboard_lines_while_pondering_stop_it_and_never_move() {
    // `force`, `easy`, `setboard`, `undo`, `new`: no move for the pondered position.
    let fen = "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR b - - 0 1";
    for stopper in ["force", "easy", &format!("setboard {fen}"), "undo", "new"] {
        let mut q = cecp();
        let (mut game, hint, _) = pondering_game(&mut q);
        q.send(stopper);
        sync(&mut q, 1);
        // The pondered reply now gets no answer from the ponder search.
        q.send(&format!("usermove {hint}"));
        let lines = sync(&mut q, 2);
        if stopper == "easy" {
            // Still the engine's game: it searches the reply afresh.
            play(&mut game, &hint);
            let start = q.transcript.len();
            let m = engine_move(&mut q, SLOW);
            assert!(game.parse_move(&m).is_ok(), "{m} after {hint}");
            let fresh = lines.iter().chain(&q.transcript[start..]);
            assert!(fresh.into_iter().any(|l| depth_one(l)), "{lines:?}");
        } else {
            let later = q.drain_for(Duration::from_millis(1500));
            let said = q.transcript.join("\n");
            assert!(no_move(&lines) && no_move(&later), "{stopper}:\n{said}");
        }
        q.send("quit");
        assert_eq!(q.wait_exit(SLOW), Some(0), "{stopper}");
    }
}
