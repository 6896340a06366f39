//! The GUI-safety promise, driven at random: whatever lines a GUI sends (good
//! and refused positions, bad moves anywhere in a list, composed studies,
//! garbage, options, banned moves, searches stopped early), every move the engine
//! answers is legal in the position the GUI last sent, and when that position
//! was refused the answer is no move at all.
//!
//! The real engine searches (at small depths and node counts), so that the
//! whole path from the `position` line to `bestmove` is under test.

use super::tests::Rig;
use crate::protocol::options::Settings;
use crate::protocol::searcher::engine_options;
use engine::Engine;
use rules::rng::Rng;
use rules::{Move, Position, START_FEN};

/// `percent` in a hundred.
fn chance(rng: &mut Rng, percent: usize) -> bool {
    rng.below(100) < percent
}

/// Start positions: game positions, composed studies, and boards that are no
/// position at all.
const FENS: [&str; 7] = [
    START_FEN,
    "3k1p3/4P4/9/9/6CCR/3n4c/2Pn5/8B/5p3/4K4 w - - 0 1",
    "4k4/9/9/9/9/9/9/9/9/RR1AKR3 b - - 0 1",
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1",
    "3k5/9/9/9/9/9/9/9/9/K8 w - - 0 1",
    "rnbakabnr/9/1c5c1 w - - 0 1",
    "R3k4/9/4P4/9/9/9/9/9/9/3K5 b - - 0 1",
];

/// A `position` line and the position it stands for (`None`: refused).
fn position_line(rng: &mut Rng) -> (String, Option<Position>) {
    let fen = FENS[rng.below(FENS.len())];
    let base = if fen == START_FEN && chance(rng, 50) {
        "startpos".to_string()
    } else {
        format!("fen {fen}")
    };
    let Ok(mut pos) = Position::from_fen(fen) else {
        return (format!("position {base}"), None);
    };
    let mut words = Vec::new();
    let mut valid = true;
    for _ in 0..rng.below(12) {
        let legal: Vec<Move> = pos.legal_moves().iter().copied().collect();
        if legal.is_empty() {
            break;
        }
        if chance(rng, 8) {
            // A bad word: garbage, an illegal move, the other side's move, or a
            // move in another notation (the protocols take ICCS only).
            let w = ["zz99", "e0e2", "h2e2h2e2", "a0a9", "炮二平五", "h9g7"][rng.below(6)];
            words.push(w.to_string());
            match Move::parse_iccs(w).filter(|&m| pos.is_legal(m)) {
                // By chance a legal move after all: it is played.
                Some(m) => pos.make_move(m),
                None => {
                    valid = false;
                    break;
                }
            }
            continue;
        }
        let m = legal[rng.below(legal.len())];
        words.push(m.iccs());
        pos.make_move(m);
    }
    let line = if words.is_empty() && chance(rng, 50) {
        format!("position {base}")
    } else {
        format!("position {base} moves {}", words.join(" "))
    };
    (line, valid.then_some(pos))
}

fn check_answers(out: &[String], model: &Option<Position>, log: &[String]) {
    for line in out
        .iter()
        .filter(|l| l.starts_with("bestmove") || *l == "nobestmove")
    {
        let word = line.split_whitespace().nth(1);
        match (model, word) {
            (None, None) | (None, Some("(none)")) => {}
            (None, Some(m)) => panic!("answered {m} with no position; lines: {log:#?}"),
            (Some(p), Some(text)) if text != "(none)" => {
                let m = Move::parse_iccs(text).expect("an ICCS move");
                assert!(
                    p.is_legal(m),
                    "{text} is illegal in {}; lines: {log:#?}",
                    p.to_fen()
                );
            }
            (Some(p), _) => assert!(
                !p.has_legal_move() || log.iter().any(|l| l.starts_with("banmoves")),
                "no move in {} which has moves; answers {out:?}; lines: {log:#?}",
                p.to_fen()
            ),
        }
    }
}

fn engine(s: &Settings) -> Engine {
    Engine::new(engine_options(s, rules::Color::Red))
}

#[test]
fn no_sequence_of_lines_gets_a_move_for_another_position() {
    let mut rng = Rng::new(0x5eed_1234_9876_0001);
    let mut answered = 0;
    let mut refused_answers = 0;
    for dialect in ["uci", "ucci"] {
        let mut r = Rig::with(dialect, engine);
        r.send("setoption name Hash value 1");
        r.take();
        // What the GUI last sent (`None`: refused); the engine starts at the start.
        let mut model = Some(Position::startpos());
        let mut log: Vec<String> = Vec::new();
        for _ in 0..400 {
            let line = match rng.below(14) {
                0..=4 => {
                    let (line, pos) = position_line(&mut rng);
                    model = pos;
                    line
                }
                5..=7 => ["go depth 1", "go depth 2", "go nodes 300", "go movetime 3"]
                    [rng.below(4)]
                .to_string(),
                8 => "go wtime 9223372036854775807 btime 1 winc 9223372036854775807 binc 0"
                    .to_string(),
                9 => [
                    "flip the board",
                    "position",
                    "position fen",
                    "go mate 2 depth 4",
                ][rng.below(4)]
                .to_string(),
                10 => "banmoves h2e2 zz99".to_string(),
                11 => ["isready", "d", "ucinewgame", "stop"][rng.below(4)].to_string(),
                12 => "setoption name Skill Level value 3".to_string(),
                _ => "go infinite".to_string(),
            };
            if line == "position" || line == "position fen" {
                model = None;
            }
            log.push(line.clone());
            if log.len() > 12 {
                log.remove(0);
            }
            r.send(&line);
            if line.starts_with("go") {
                if line == "go infinite" {
                    r.send("stop");
                }
                // A search that started ends with a Done event; one refused at
                // once (no position) answers without a search.
                let out = r.take();
                let done = out
                    .iter()
                    .any(|l| l.starts_with("bestmove") || l == "nobestmove");
                let out = if done {
                    out
                } else {
                    r.deliver();
                    let mut all = out;
                    all.extend(r.take());
                    all
                };
                if model.is_none() {
                    refused_answers += 1;
                }
                answered += 1;
                check_answers(&out, &model, &log);
            } else {
                // Without a `go` there is no move to answer (UCCI answers an idle
                // `stop` with `nobestmove`).
                let out = r.take();
                assert!(
                    !out.iter().any(|l| l.starts_with("bestmove")),
                    "{out:?} after {log:#?}"
                );
            }
        }
    }
    assert!(answered > 250, "{answered} searches");
    assert!(
        refused_answers > 40,
        "{refused_answers} answers with no position"
    );
}
