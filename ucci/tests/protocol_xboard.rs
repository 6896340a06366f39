//! XBoard/CECP (protocol 2) transcripts against the real binary: a scripted
//! CECP client checks every `move` against its own copy of the game.

mod common;
use common::cecp::*;
use common::*;
use std::time::{Duration, Instant};

#[test]
fn xboard_handshake_and_features() {
    let mut q = Qili::start();
    q.send("xboard");
    q.send("protover 2");
    q.expect("feature done=1");
    let all = q.transcript.join("\n");
    for f in [
        "myname=\"Qili ",
        "variants=\"xiangqi\"",
        "setboard=1",
        "usermove=1",
        "san=0",
        "ping=1",
        "memory=1",
        "smp=1",
        "colors=0",
        "sigint=0",
        "sigterm=0",
        "analyze=1",
    ] {
        assert!(all.contains(f), "{f} missing:\n{all}");
    }
    assert!(
        q.transcript.iter().all(|l| l.starts_with("feature ")),
        "{all}"
    );
    q.send("quit");
    assert_eq!(q.wait_exit(Duration::from_secs(5)), Some(0));
}

#[test]
fn xboard_whole_game_against_a_scripted_client() {
    let mut q = cecp();
    q.send("sd 3");
    q.send("post");
    let mut game = Position::startpos();
    let mut seed = 7usize;
    let mut replies = 0;
    for ply in 0..10 {
        // The client (Red) plays a varied but deterministic legal move.
        let moves = game.legal_moves();
        if moves.is_empty() {
            break;
        }
        seed = seed.wrapping_mul(31).wrapping_add(ply);
        let m = moves.iter().copied().nth(seed % moves.len()).unwrap();
        game.make_move(m);
        q.send(&format!("time 6000\notim 6000\nusermove {}", m.iccs()));
        let (_, l) = q.wait_for("move or result", SLOW, |l| {
            l.starts_with("move ") || l.starts_with("1-0") || l.starts_with("0-1")
        });
        let Some(reply) = l.strip_prefix("move ") else {
            assert!(
                !game.has_legal_move(),
                "result while the engine can move: {l}"
            );
            break;
        };
        let em = game
            .parse_move(reply)
            .unwrap_or_else(|e| panic!("illegal engine move {reply}: {e}\n{:?}", q.transcript));
        game.make_move(em);
        replies += 1;
    }
    assert!(
        replies == 10 || !game.has_legal_move(),
        "{:?}",
        q.transcript
    );
    // Thinking output: `DEPTH SCORE TIME NODES PV`.
    let thinking = q
        .transcript
        .iter()
        .find(|l| l.starts_with(|c: char| c.is_ascii_digit()))
        .cloned()
        .expect("thinking output");
    let f: Vec<&str> = thinking.split_whitespace().collect();
    assert!(f.len() >= 5, "{thinking}");
    assert!(
        f[..4].iter().all(|w| w.parse::<i64>().is_ok()),
        "{thinking}"
    );
    q.send("result 1/2-1/2 {adjourned}");
    q.send("quit");
    assert_eq!(q.wait_exit(Duration::from_secs(5)), Some(0));
}

#[test]
fn xboard_setboard_with_h_e_letters_and_a_bad_fen() {
    let mut q = cecp();
    q.send("sd 2");
    let fen = "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR b - - 0 1";
    q.send("force");
    q.send(&format!("setboard {fen}"));
    q.send("go");
    let m = engine_move(&mut q, SLOW);
    assert!(legal_after(Some(fen), &[], &m), "{m}");
    // A bad FEN: the engine holds no position and never moves for the old one.
    q.send("force");
    q.send("setboard rheakaehr/9/9 w - - 0 1");
    q.expect("tellusererror Illegal position");
    q.send("go");
    let after = sync(&mut q, 1);
    assert!(no_move(&after), "{after:?}");
    assert!(no_move(&q.drain_for(Duration::from_millis(500))));
    // `new` brings a position back.
    q.send("new");
    q.send("usermove h2e2");
    let m = engine_move(&mut q, SLOW);
    assert!(legal_after(None, &["h2e2"], &m), "{m}");
}

#[test]
fn xboard_illegal_usermove_leaves_the_position() {
    let mut q = cecp();
    q.send("sd 2");
    q.send("usermove a0a5");
    q.expect("Illegal move: a0a5");
    let after = sync(&mut q, 1);
    assert!(no_move(&after), "{after:?}");
    // Bare moves work too (usermove not negotiated).
    q.send("h2e2");
    let m = engine_move(&mut q, SLOW);
    assert!(legal_after(None, &["h2e2"], &m), "{m}");
    q.send("frobnicate");
    q.expect("Error (unknown command): frobnicate");
}

#[test]
fn xboard_ping_answers_in_order() {
    let mut q = Qili::start();
    q.send("xboard\nprotover 2\nping 9");
    q.expect("pong 9");
    let done = q.transcript.iter().position(|l| l == "feature done=1");
    assert!(
        done.is_some_and(|d| d < q.transcript.len() - 1),
        "{:?}",
        q.transcript
    );
    // While thinking on its own move: pong at once, the move still comes.
    q.send("memory 16\nnew\nst 1\nusermove h2e2\nping 10");
    q.expect("pong 10");
    let m = engine_move(&mut q, SLOW);
    assert!(legal_after(None, &["h2e2"], &m), "{m}");
}

#[test]
fn xboard_undo_and_remove() {
    let mut q = cecp();
    q.send("force");
    q.send("usermove h2e2");
    q.send("usermove h9g7");
    q.send("undo");
    // Black to move again: h9g7 is legal once more.
    q.send("usermove h9g7");
    q.send("remove");
    // Back at the start: Red to move, so a Black move is illegal.
    q.send("usermove h9g7");
    q.expect("Illegal move: h9g7");
    let after = sync(&mut q, 1);
    assert!(no_move(&after), "{after:?}");
    q.send("sd 2\nusermove b2e2\ngo");
    let m = engine_move(&mut q, SLOW);
    assert!(legal_after(None, &["b2e2"], &m), "{m}");
}

#[test]
fn xboard_analyze_then_exit() {
    let mut q = cecp();
    q.send("force");
    q.send("analyze");
    q.wait_for("thinking output", SLOW, |l| {
        l.starts_with(|c: char| c.is_ascii_digit())
    });
    // A move during analysis restarts it on the new position (PVs start with Black).
    q.send("usermove h2e2");
    let before = q.transcript.len();
    std::thread::sleep(Duration::from_millis(300));
    q.send("exit");
    let mut after = sync(&mut q, 1);
    after.extend(q.drain_for(Duration::from_millis(300)));
    let all = [&q.transcript[..before], &after[..]].concat();
    assert!(no_move(&all), "{all:?}");
    // After `exit`, no more thinking lines.
    let quiet = q.drain_for(Duration::from_millis(500));
    assert!(quiet.is_empty(), "{quiet:?}");
    q.send("quit");
    assert_eq!(q.wait_exit(Duration::from_secs(5)), Some(0));
}

#[test]
fn xboard_force_then_go_and_move_now() {
    let mut q = cecp();
    q.send("force");
    q.send("usermove h2e2");
    q.send("sd 2");
    q.send("go");
    let m = engine_move(&mut q, SLOW);
    assert!(legal_after(None, &["h2e2"], &m), "{m}");
    // `?` makes a long search move now.
    q.send("new\nforce\nst 60\ngo");
    std::thread::sleep(Duration::from_millis(300));
    let asked = Instant::now();
    q.send("?");
    let (at, l) = q.wait_for("move", SLOW, |l| l.starts_with("move "));
    assert!(at.duration_since(asked) < Duration::from_secs(3), "{l}");
    assert!(legal_after(None, &[], &l[5..]), "{l}");
}

#[test]
fn xboard_new_or_force_while_thinking_drops_the_move() {
    let mut q = cecp();
    q.send("st 60\ngo");
    std::thread::sleep(Duration::from_millis(200));
    q.send("new");
    let after = sync(&mut q, 1);
    assert!(no_move(&after), "{after:?}");
    q.send("st 60\ngo");
    std::thread::sleep(Duration::from_millis(200));
    q.send("force");
    let after = sync(&mut q, 2);
    assert!(no_move(&after), "{after:?}");
    assert!(no_move(&q.drain_for(Duration::from_millis(300))));
}

#[test]
fn xboard_small_clock_still_moves_in_time() {
    let mut q = cecp();
    q.send("level 0 0:02 0");
    q.send("time 150\notim 150");
    let sent = Instant::now();
    q.send("usermove h2e2");
    let (at, l) = q.wait_for("move", SLOW, |l| l.starts_with("move "));
    assert!(
        at.duration_since(sent) < Duration::from_millis(1_500),
        "{l}"
    );
    assert!(legal_after(None, &["h2e2"], &l[5..]), "{l}");
}

#[test]
fn xboard_results_and_unsupported_variant() {
    let mut q = cecp();
    // Black to move has no legal move: the engine says it has lost.
    q.send("force");
    q.send("setboard 3k5/9/9/9/9/9/9/9/9/3RK4 b - - 0 1");
    q.send("go");
    q.expect("1-0 {Black is mated}");
    q.send("new");
    q.send("variant shogi");
    q.expect("Error (unsupported variant): shogi");
    q.send("go");
    let after = sync(&mut q, 1);
    assert!(no_move(&after), "{after:?}");
}

#[test]
fn other_first_lines_still_choose_ucci() {
    let mut q = Qili::start();
    q.send("");
    q.send("ucci");
    q.expect("ucciok");
    q.send("quit");
    q.expect("bye");
}
