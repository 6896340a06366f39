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

struct Instant;

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
        });
        SearchResult {
            best,
            ponder: None,
            score: Score::Cp(-50),
            depth: 1,
            nodes: 1,
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

struct Rig {
    session: Session<Instant>,
    rx: Receiver<Event<Instant>>,
    buf: Buf,
}

impl Rig {
    fn new(greeting: &str) -> Rig {
        let buf = Buf::default();
        let (tx, rx) = channel();
        let session = Session::new(Out::new(Box::new(buf.clone())), tx, |_| Instant);
        let mut rig = Rig { session, rx, buf };
        rig.send(greeting);
        rig.take();
        rig
    }
    fn send(&mut self, line: &str) -> Flow {
        self.session
            .handle(Event::Input(Input::Line(line.to_string())))
    }
    /// Deliver the end of the running search.
    fn deliver(&mut self) -> Flow {
        let ev = self
            .rx
            .recv_timeout(Duration::from_secs(10))
            .expect("search ends");
        self.session.handle(ev)
    }
    fn take(&mut self) -> Vec<String> {
        let mut b = self.buf.0.lock().unwrap();
        let text = String::from_utf8_lossy(&b).into_owned();
        b.clear();
        text.lines().map(str::to_string).collect()
    }
    fn answers(&mut self) -> Vec<String> {
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
fn commands_while_thinking_are_refused_or_held() {
    let mut r = Rig::new("uci");
    r.send("go infinite");
    r.send("position startpos moves h2e2");
    let out = r.answers();
    assert!(
        out.len() == 1 && out[0].starts_with("info string error"),
        "{out:?}"
    );
    // After stop, commands wait for the answer and then run in order.
    r.send("stop");
    r.send("position startpos moves h2e2");
    r.send("go depth 1");
    r.deliver();
    assert_eq!(r.answers(), vec!["bestmove a0a1"]);
    r.deliver();
    // Black to move after h2e2: the first legal black move.
    assert_eq!(r.answers(), vec!["bestmove a9a7"]);
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
