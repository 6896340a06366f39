//! The session's tests: the whole state machine driven line by line.
//!
//! The searcher answers at once (the first legal move that is allowed), so that
//! the order of events is under test control. They live apart from the code
//! because they cross every part of it (dispatch, options, thinking).

use super::*;
use engine::{Limits, Score, SearchInfo};
use std::io::Write;
use std::sync::mpsc::{channel, Receiver};
use std::sync::Mutex;
use std::time::Duration;

pub(super) struct Instant;

impl Searcher for Instant {
    fn configure(&mut self, _: &Settings, _: rules::Color) {}
    fn new_game(&mut self) {}
    fn search(
        &mut self,
        pos: &Position,
        limits: &Limits,
        _: &SearchControl,
        on_info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        let best = pos
            .legal_moves()
            .iter()
            .copied()
            .find(|m| !limits.banmoves.contains(m));
        on_info(&SearchInfo {
            depth: 1,
            seldepth: 1,
            multipv: 1,
            score: Score::Cp(0),
            lower_bound: None,
            time_ms: 0,
            nodes: 1,
            nps: 0,
            hashfull: 0,
            pv: best.into_iter().collect(),
            currmove: None,
            wdl: (0, 1000, 0),
        });
        SearchResult {
            best,
            ponder: None,
            score: Score::Cp(-50),
            depth: 1,
            nodes: 1,
            errors: Vec::new(),
            notes: Vec::new(),
            stats: engine::SearchStats::default(),
        }
    }
    fn probe(&self, _: &Position) -> Option<(Move, Score, u32)> {
        None
    }
    fn set_eval(&mut self, _: EvalChoice) {}
}

#[derive(Clone, Default)]
struct Buf(Arc<Mutex<Vec<u8>>>);

impl Write for Buf {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

pub(super) struct Rig<S: Searcher = Instant> {
    pub(super) session: Session<S>,
    rx: Receiver<Event<S>>,
    buf: Buf,
}

impl Rig<Instant> {
    fn new(greeting: &str) -> Rig<Instant> {
        Rig::with(greeting, |_| Instant)
    }
}

impl<S: Searcher> Rig<S> {
    /// A session with searchers from `make`, after the handshake.
    pub(super) fn with(greeting: &str, make: fn(&Settings) -> S) -> Rig<S> {
        let buf = Buf::default();
        let (tx, rx) = channel();
        let session = Session::new(Out::new(Box::new(buf.clone())), tx, make);
        let mut rig = Rig { session, rx, buf };
        rig.send(greeting);
        rig.take();
        rig
    }
    pub(super) fn send(&mut self, line: &str) -> Flow {
        self.session
            .handle(Event::Input(Input::Line(line.to_string())))
    }
    /// Deliver the end of the running search.
    pub(super) fn deliver(&mut self) -> Flow {
        let ev = self
            .rx
            .recv_timeout(Duration::from_secs(10))
            .expect("search ends");
        self.session.handle(ev)
    }
    pub(super) fn take(&mut self) -> Vec<String> {
        let mut b = self.buf.0.lock().unwrap();
        let text = String::from_utf8_lossy(&b).into_owned();
        b.clear();
        text.lines().map(str::to_string).collect()
    }
    pub(super) fn answers(&mut self) -> Vec<String> {
        self.take()
            .into_iter()
            .filter(|l| !l.starts_with("info depth"))
            .collect()
    }
}

#[test]
fn ponder_result_is_held_until_ponderhit() {
    let mut r = Rig::new("ucci");
    r.send("go ponder draw time 1000");
    r.deliver();
    assert_eq!(
        r.answers(),
        Vec::<String>::new(),
        "no answer while pondering"
    );
    r.send("isready");
    assert_eq!(r.answers(), vec!["readyok"]);
    r.send("probe");
    assert!(r.answers().is_empty(), "probe waits for the searcher");
    r.send("ponderhit draw");
    // Score -50 <= draw value 0: the offer is accepted; then the probe.
    assert_eq!(r.answers(), vec!["bestmove a0a1 draw", "pophash"]);
    r.send("go infinite");
    r.deliver();
    assert!(r.answers().is_empty());
    r.send("stop");
    assert_eq!(r.answers(), vec!["bestmove a0a1"]);
}

#[test]
fn ucci_refuses_commands_while_thinking_and_a_refused_position_unsets_it() {
    let mut r = Rig::new("ucci");
    r.send("go infinite");
    r.deliver();
    r.send("position startpos moves h2e2");
    let out = r.answers();
    assert!(
        out.len() == 1 && out[0].starts_with("info message error") && out[0].contains("refused"),
        "{out:?}"
    );
    r.send("stop");
    assert_eq!(r.answers(), vec!["bestmove a0a1"]);
    // The GUI meant Black to move: the start position is no longer in force.
    r.send("go depth 1");
    let out = r.answers();
    assert!(out[0].contains("no position"), "{out:?}");
    assert_eq!(out[1], "nobestmove");
    // Garbage that looks like a position, while thinking, unsets it too.
    r.send("position startpos");
    r.send("go infinite");
    r.deliver();
    r.send("startpso moves h2e2");
    r.send("stop");
    let out = r.answers();
    assert_eq!(
        out.last().map(String::as_str),
        Some("bestmove a0a1"),
        "{out:?}"
    );
    r.send("go depth 1");
    assert_eq!(r.answers().last().map(String::as_str), Some("nobestmove"));
    // After stop, commands wait for the answer and then run in order.
    r.send("position startpos");
    r.send("go infinite");
    r.deliver();
    r.send("stop");
    r.send("position startpos moves h2e2");
    r.send("go depth 1");
    r.deliver();
    assert_eq!(r.answers(), vec!["bestmove a0a1", "bestmove a9a7"]);
}

#[test]
fn after_stop_ucci_commands_wait_for_the_answer() {
    let mut r = Rig::new("ucci");
    r.send("go infinite");
    r.send("stop");
    r.send("position startpos moves h2e2");
    r.send("go depth 1");
    assert!(r.answers().is_empty());
    r.deliver();
    assert_eq!(r.answers(), vec!["bestmove a0a1"]);
    r.deliver();
    assert_eq!(r.answers(), vec!["bestmove a9a7"]);
}

#[test]
fn uci_takes_lines_piped_during_a_search_in_order() {
    let mut r = Rig::new("uci");
    r.send("go depth 1");
    r.send("position startpos moves h2e2");
    r.send("go depth 1");
    // After a waiting `go`, even `stop` and `isready` wait: they are meant for
    // the search that `go` starts.
    r.send("stop");
    r.send("isready");
    assert!(r.answers().is_empty());
    r.deliver();
    assert_eq!(r.answers(), vec!["bestmove a0a1", "readyok"]);
    r.deliver();
    // Black to move after h2e2: the first legal black move.
    assert_eq!(r.answers(), vec!["bestmove a9a7"]);
    // During an infinite search `stop` acts at once; the `go` before it waits.
    r.send("go infinite");
    r.deliver();
    r.send("position startpos");
    r.send("go depth 1");
    r.send("isready");
    assert_eq!(r.answers(), vec!["readyok"]);
    r.send("stop");
    assert_eq!(r.answers(), vec!["bestmove a9a7"]);
    r.deliver();
    assert_eq!(r.answers(), vec!["bestmove a0a1"]);
}

#[test]
fn end_of_input_lets_piped_uci_searches_finish_in_turn() {
    let mut r = Rig::new("uci");
    r.send("go depth 1");
    r.send("position startpos moves h2e2");
    r.send("go depth 1");
    r.send("position startpos moves h2e2 h9g7");
    r.send("go infinite");
    assert_eq!(r.session.handle(Event::Input(Input::Eof)), Flow::Continue);
    assert_eq!(r.deliver(), Flow::Continue);
    assert_eq!(r.deliver(), Flow::Continue);
    // The infinite search started after the end of input is stopped at once.
    assert_eq!(r.deliver(), Flow::Exit);
    assert_eq!(
        r.answers(),
        vec!["bestmove a0a1", "bestmove a9a7", "bestmove a0a1"]
    );
}

#[test]
fn batch_mode_defers_everything_and_quit_says_bye() {
    let mut r = Rig::new("ucci");
    r.send("setoption batch on");
    r.send("go depth 1");
    r.send("isready");
    r.send("bogus");
    r.send("quit");
    assert!(r.answers().is_empty(), "batch reads nothing while thinking");
    assert_eq!(r.deliver(), Flow::Exit);
    let out = r.answers();
    assert_eq!(out[0], "bestmove a0a1");
    assert_eq!(out[1], "readyok");
    assert!(
        out[2].starts_with("info message error: unknown command"),
        "{out:?}"
    );
    assert_eq!(out[3], "bye");
}

#[test]
fn a_bad_eval_file_is_reported_and_changes_nothing() {
    let mut r = Rig::new("uci");
    r.send("setoption name EvalFile value /nonexistent/qili.net");
    let out = r.answers();
    assert!(
        out.len() == 1 && out[0].starts_with("info string error: EvalFile"),
        "{out:?}"
    );
    assert_eq!(r.session.settings.eval_file, EMBEDDED);
    r.send("setoption name EvalFile value <hce>");
    assert!(r.answers().is_empty());
    assert!(r.session.set_eval_file("").is_ok());
}

#[test]
fn batch_mode_still_hears_stop_for_an_infinite_search() {
    let mut r = Rig::new("ucci");
    r.send("setoption batch on");
    r.send("go infinite");
    r.deliver();
    r.send("position startpos moves h2e2");
    assert_eq!(r.answers().len(), 1, "refused: not batched for infinite");
    r.send("stop");
    assert_eq!(r.answers(), vec!["bestmove a0a1"]);
}

#[test]
fn a_failed_search_still_answers_with_a_legal_move() {
    let mut r = Rig::new("ucci");
    r.send("position startpos moves h2e2");
    r.send("go depth 3");
    // Replace the search's own report with a panic report.
    let Event::Done { id, .. } = r.rx.recv_timeout(Duration::from_secs(10)).unwrap() else {
        panic!()
    };
    r.session.handle(Event::Done {
        id,
        searcher: None,
        result: None,
    });
    let out = r.answers();
    assert!(
        out[0].starts_with("info message error: the search failed"),
        "{out:?}"
    );
    assert_eq!(out[1], "bestmove a9a7");
    // A fresh searcher serves the next go.
    r.send("go depth 1");
    r.deliver();
    assert_eq!(r.answers(), vec!["bestmove a9a7"]);
}

/// A refused `position` leaves no position: `go` is answered at once with no
/// move (never a move of the previous position), until a good `position`.
#[test]
fn a_refused_position_is_never_answered_with_a_move() {
    for (greeting, none) in [("ucci", "nobestmove"), ("uci", "bestmove (none)")] {
        let mut r = Rig::new(greeting);
        // Playable is wide, but a king outside its palace is not a position.
        r.send("position fen 3k5/9/9/9/9/9/9/9/9/K8 w - - 0 1");
        let out = r.answers();
        assert!(
            out.len() == 1 && out[0].contains("error: bad FEN"),
            "{out:?}"
        );
        r.send("go depth 8");
        let out = r.answers();
        assert_eq!(out.len(), 2, "{out:?}");
        assert!(out[0].contains("no position to search"), "{out:?}");
        assert_eq!(out[1], none);
        // A bad move anywhere in the list: no position either (not the one
        // before the bad move, which would have the other side to move).
        r.send("position startpos moves h2e2 h9g7 e2e9");
        let out = r.answers();
        assert!(out[0].contains("move 3 'e2e9'"), "{out:?}");
        r.send("go depth 1");
        assert_eq!(r.answers().last().map(String::as_str), Some(none));
        r.send("banmoves h2e2");
        assert!(r.answers()[0].contains("no position"));
        r.send("d");
        assert!(r.answers()[0].contains("no position"));
        // A good position brings the engine back.
        r.send("position startpos moves h2e2 h9g7");
        assert!(r.answers().is_empty());
        r.send("go depth 1");
        r.deliver();
        assert_eq!(r.answers(), vec!["bestmove a0a1"]);
    }
}

#[test]
fn composed_studies_are_played_with_one_warning_unless_strict() {
    let study = "3k1p3/4P4/9/9/6CCR/3n4c/2Pn5/8B/5p3/4K4 w - - 0 1";
    let mut r = Rig::new("uci");
    r.send(&format!("position fen {study}"));
    let out = r.answers();
    assert!(
        out.len() == 1 && out[0].starts_with("info string warning: no game reaches"),
        "{out:?}"
    );
    assert!(out[0].contains("f9"), "{out:?}");
    // The GUI resends the study with the moves played: no second warning.
    r.send(&format!("position fen {study} moves i5i8"));
    assert!(r.answers().is_empty());
    r.send("go depth 1");
    r.deliver();
    let out = r.answers();
    assert_eq!(out.len(), 1);
    let m = out[0].strip_prefix("bestmove ").unwrap();
    let mut pos = Position::from_fen(study).unwrap();
    pos.make_move(pos.parse_move("i5i8").unwrap());
    assert!(pos.parse_move(m).is_ok(), "{m} is legal in the study");
    // Strict: refused, and then no position.
    r.send("setoption name Strict Positions value true");
    r.send(&format!("position fen {study}"));
    let out = r.answers();
    assert!(
        out[0].contains("error: bad FEN") && out[0].contains("f9"),
        "{out:?}"
    );
    r.send("go depth 1");
    assert_eq!(
        r.answers().last().map(String::as_str),
        Some("bestmove (none)")
    );
}

#[test]
fn a_mated_side_reports_mate_zero_before_the_empty_answer() {
    // Black is mated (rook checks on the back rank, the king has no square).
    for (greeting, info, none) in [
        ("uci", "info depth 0 score mate 0", "bestmove (none)"),
        ("ucci", "info depth 0 score -10000", "nobestmove"),
    ] {
        let mut r = Rig::new(greeting);
        r.send("position fen R3k4/9/4P4/9/9/9/9/9/9/3K5 b - - 0 1");
        assert!(r.answers().is_empty());
        r.send("go depth 5");
        r.deliver();
        // (The stand-in searcher reports a depth-1 line of its own; the engine
        // reports nothing when there is no move.)
        let out: Vec<String> = r
            .take()
            .into_iter()
            .filter(|l| !l.starts_with("info depth 1"))
            .collect();
        assert_eq!(out, vec![info, none]);
    }
}

#[test]
fn options_the_engine_lacks_are_answered_not_swallowed() {
    let mut r = Rig::new("uci");
    for name in ["Slow Mover", "SyzygyPath", "UCI_Chess960"] {
        r.send(&format!("setoption name {name} value true"));
        let out = r.answers();
        assert_eq!(
            out,
            vec![format!(
                "info string option '{name}' is not supported; ignored"
            )]
        );
    }
    let mut r = Rig::new("ucci");
    for name in ["pruning", "useegtb", "egtbpaths"] {
        r.send(&format!("setoption {name} true"));
        let out = r.answers();
        assert!(
            out.len() == 1 && out[0].starts_with("info message option") && out[0].contains(name),
            "{out:?}"
        );
    }
    // Real options answer nothing.
    let mut r = Rig::new("uci");
    for line in [
        "setoption name Skill Level value 3",
        "setoption name UCI_LimitStrength value true",
        "setoption name UCI_Elo value 2000",
        "setoption name UCI_ShowWDL value true",
        "setoption name UCI_AnalyseMode value true",
        "setoption name OwnBook value true",
        "setoption name BookFile value <embedded>",
        "setoption name Randomness value small",
        "setoption name Random Moves value 4",
    ] {
        r.send(line);
        assert!(r.answers().is_empty(), "{line}");
    }
}

#[test]
fn d_shows_the_board_the_engine_holds() {
    let mut r = Rig::new("uci");
    r.send("position startpos moves h2e2");
    r.send("d");
    let out = r.answers();
    assert!(
        out.iter().any(|l| l == "2  ＋ 炮 ＋ ＋ 炮 ＋ ＋ ＋ ＋"),
        "{out:?}"
    );
    assert!(out.last().unwrap().contains("Black) to move"), "{out:?}");
}

#[test]
fn cyclone_bare_positions_are_taken_and_unknown_ones_unset_the_position() {
    let mut r = Rig::new("ucicyclone");
    let fen = rules::START_FEN;
    r.send(&format!("fen {fen} moves h2e2"));
    r.send("go depth 1");
    r.deliver();
    assert_eq!(r.answers(), vec!["bestmove a9a7"]);
    r.send("startpos moves h2e2 h9g7");
    r.send("go depth 1");
    r.deliver();
    assert_eq!(r.answers(), vec!["bestmove a0a1"]);
    // A misspelt position command: never a move for the position held before.
    r.send("positoin startpos moves h2e2");
    r.send("go depth 1");
    let out = r.answers();
    assert!(
        out[0].starts_with("info string error: unknown command"),
        "{out:?}"
    );
    assert!(out[1].contains("no position"), "{out:?}");
    assert_eq!(out[2], "bestmove (none)");
    // Unknown words that are no position leave it alone.
    r.send("startpos");
    r.send("xyzzy");
    r.send("go depth 1");
    r.deliver();
    assert_eq!(
        r.answers().last().map(String::as_str),
        Some("bestmove a0a1")
    );
}

#[test]
fn fairy_stockfish_variant_speaks_ranks_one_to_ten() {
    let mut r = Rig::new("uci");
    r.send("setoption name UCI_Variant value xiangqi");
    r.send("position startpos moves h3e3");
    r.send("go depth 1");
    r.deliver();
    let out = r.take();
    assert!(out.iter().any(|l| l.ends_with(" pv a10a8")), "{out:?}");
    assert_eq!(out.last().map(String::as_str), Some("bestmove a10a8"));
    r.send("banmoves a10a8");
    r.send("go depth 1 searchmoves a10a8 a10a9");
    r.deliver();
    assert_eq!(r.answers(), vec!["bestmove a10a9"]);
    // A 0-based move is a different square here: refused, not misread.
    r.send("position startpos moves h2e2");
    r.send("go depth 1");
    assert_eq!(
        r.answers().last().map(String::as_str),
        Some("bestmove (none)")
    );
    // Another variant: every position is refused until xiangqi is back.
    r.send("setoption name UCI_Variant value chess");
    r.send("position startpos");
    r.send("go depth 1");
    let out = r.answers();
    assert!(
        out.iter()
            .all(|l| l.starts_with("info string error") || l == "bestmove (none)"),
        "{out:?}"
    );
    assert!(out[0].contains("variant 'chess' is not played"), "{out:?}");
    assert_eq!(out.last().map(String::as_str), Some("bestmove (none)"));
    r.send("setoption name UCI_Variant value Xiangqi");
    r.send("position startpos");
    r.send("go depth 1");
    r.deliver();
    assert_eq!(r.answers(), vec!["bestmove a1a2"]);
}

#[test]
fn the_variant_option_is_announced_under_uci_only() {
    let mut fresh = Rig::new("isready");
    fresh.send("uci");
    let lines = fresh.take();
    assert!(lines
        .iter()
        .any(|l| l == "option name UCI_Variant type combo default xiangqi var xiangqi"));
    let mut u = Rig::new("isready");
    u.send("ucci");
    assert!(u.take().iter().all(|l| !l.contains("ariant")));
}

#[test]
fn rulequery_answers_each_move_in_the_dialect_and_its_coordinates() {
    let mut r = Rig::new("uci");
    r.send("position startpos moves h0g2 h9g7 g2h0 g7h9");
    r.send("rulequery h0g2 b0c2");
    assert_eq!(
        r.answers(),
        vec![
            "info string rule h0g2 draw verdict-1",
            "info string rule b0c2 none"
        ]
    );
    // All legal moves when none is named: 44 from the start position.
    r.send("rulequery");
    let all = r.answers();
    assert_eq!(all.len(), 44, "{all:?}");
    assert_eq!(
        all.iter().filter(|l| l.contains(" draw ")).count(),
        1,
        "{all:?}"
    );
    // One bad word refuses the whole query.
    r.send("rulequery b0c2 h0h9");
    let out = r.answers();
    assert!(
        out.len() == 1 && out[0].starts_with("info string error: rulequery h0h9"),
        "{out:?}"
    );
    r.send("setoption name UCI_Variant value xiangqi");
    r.send("rulequery h1g3");
    assert_eq!(r.answers(), vec!["info string rule h1g3 draw verdict-1"]);
    r.send("position startpos moves h9h0");
    r.take();
    r.send("rulequery");
    assert!(r.answers()[0].starts_with("info string error: rulequery: no position"));
    let mut u = Rig::new("ucci");
    u.send("position startpos moves h0g2 h9g7 g2h0 g7h9");
    u.send("rulequery h0g2");
    assert_eq!(u.answers(), vec!["info message rule h0g2 draw verdict-1"]);
}
