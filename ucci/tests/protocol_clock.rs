//! Clock tests: qili against qili at tiny time controls, the clocks kept by this
//! test from the moment `go` is written to the moment `bestmove` is read. A move
//! that arrives after its side's clock has run out is a time forfeit.
//!
//! The default tests play two short games; `many_fast_games_without_forfeit`
//! (ignored, opt-in) plays a hundred.

mod common;
use common::*;

struct Outcome {
    plies: usize,
    /// The longest answer, `go` written to `bestmove` read, in ms.
    slowest_ms: i64,
    /// Lowest clock either side had left after a move, in ms.
    lowest_ms: i64,
    forfeit: Option<String>,
}

/// One game from the start position after `opening`, each side on
/// `start_ms` + `inc_ms`, stopped after `max_plies` or when a side has no move.
fn play(opening: &str, start_ms: [u64; 2], inc_ms: [u64; 2], max_plies: usize) -> Outcome {
    let mut engines = [Qili::handshake("uci"), Qili::handshake("uci")];
    for e in engines.iter_mut() {
        e.send("ucinewgame");
        e.ready();
    }
    let mut pos = Position::startpos();
    let first = pos.parse_move(opening).expect("opening move");
    pos.make_move(first);
    let mut moves = vec![opening.to_string()];
    let mut clock = [start_ms[0] as i64, start_ms[1] as i64];
    let mut lowest = i64::MAX;
    let mut slowest = 0;
    while moves.len() < max_plies && !pos.legal_moves().is_empty() {
        let side = moves.len() % 2;
        let e = &mut engines[side];
        e.send(&format!("position startpos moves {}", moves.join(" ")));
        let sent = std::time::Instant::now();
        e.send(&format!(
            "go wtime {} btime {} winc {} binc {}",
            clock[0].max(0),
            clock[1].max(0),
            inc_ms[0],
            inc_ms[1]
        ));
        let (at, line) = e.wait_for("bestmove", SLOW, |l| l.starts_with("bestmove"));
        let used = at.duration_since(sent).as_millis() as i64;
        slowest = slowest.max(used);
        clock[side] -= used;
        if clock[side] < 0 {
            return Outcome {
                plies: moves.len(),
                slowest_ms: slowest,
                lowest_ms: clock[side],
                forfeit: Some(format!(
                    "side {side} flagged at ply {} ({used} ms used): {line}",
                    moves.len()
                )),
            };
        }
        lowest = lowest.min(clock[side]);
        clock[side] += inc_ms[side] as i64;
        let Some(mv) = best_of(&line) else { break };
        let m = pos
            .parse_move(&mv)
            .unwrap_or_else(|e| panic!("illegal {mv}: {e}"));
        pos.make_move(m);
        moves.push(mv);
    }
    Outcome {
        plies: moves.len(),
        slowest_ms: slowest,
        lowest_ms: lowest,
        forfeit: None,
    }
}

// The default games leave room for a few hundred ms of scheduling stalls (seen
// on a loaded 2-core box); the ignored run below is the tight one.

#[test]
fn one_second_sudden_death_and_sub_second_increment() {
    let o = play("h2e2", [1000, 1000], [0, 0], 60);
    assert!(o.forfeit.is_none(), "{:?}", o.forfeit);
    eprintln!(
        "1 s sudden death: {} plies, lowest clock {} ms",
        o.plies, o.lowest_ms
    );
    let o = play("b0c2", [600, 600], [50, 50], 80);
    assert!(o.forfeit.is_none(), "{:?}", o.forfeit);
    eprintln!(
        "0.6 s + 50 ms: {} plies, lowest clock {} ms",
        o.plies, o.lowest_ms
    );
}

#[test]
fn unequal_clocks() {
    // The playoff shape (Red 6 min, Black 4 min + 3 s) scaled down by 400.
    let o = play("c3c4", [900, 600], [8, 8], 60);
    assert!(o.forfeit.is_none(), "{:?}", o.forfeit);
}

/// `cargo test -p qili --test protocol_clock -- --ignored --nocapture`
///
/// Sudden-death games under a second are capped at 120 plies: every move also
/// pays a few ms of pipe and scheduling lag that no allocation can avoid, so a
/// 300 ms clock cannot pay for a 200-ply game.
#[test]
#[ignore]
fn many_fast_games_without_forfeit() {
    let openings: Vec<String> = Position::startpos()
        .legal_moves()
        .iter()
        .map(|m| m.iccs())
        .collect();
    let controls: [([u64; 2], [u64; 2], usize); 5] = [
        ([500, 500], [0, 0], 120),
        ([900, 900], [0, 0], 120),
        ([500, 500], [20, 20], 200),
        ([1000, 1000], [100, 100], 200),
        ([600, 400], [30, 30], 200),
    ];
    let games = 100;
    let mut forfeits = Vec::new();
    let mut plies = 0;
    let mut lowest = i64::MAX;
    let mut slowest = 0;
    for g in 0..games {
        let (start, inc, max_plies) = controls[g % controls.len()];
        let o = play(&openings[g % openings.len()], start, inc, max_plies);
        plies += o.plies;
        lowest = lowest.min(o.lowest_ms);
        slowest = slowest.max(o.slowest_ms);
        if let Some(f) = o.forfeit {
            forfeits.push(format!("game {g} {start:?}+{inc:?}: {f}"));
        }
    }
    eprintln!(
        "{games} games, {plies} plies, lowest clock {lowest} ms, slowest answer {slowest} ms, {} forfeits",
        forfeits.len()
    );
    assert!(forfeits.is_empty(), "{forfeits:#?}");
}
