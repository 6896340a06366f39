//! The protocol state machine: boot (dialect not yet known), idle, thinking.
//!
//! The session runs on the main thread and reacts to `Event`s: lines from the
//! reader thread and the end of a search. While a search runs, the searcher lives
//! on the search thread; `stop`, `ponderhit`, `isready` and `quit` are answered at
//! once; other commands are held (batch mode, or after `stop` while the search
//! winds down) or refused with an error line. Bad input never changes the last
//! good position.

use super::command::{self, clip, Base, Command, GoParams, ParseError, PositionSpec};
use super::go::{self, Plan};
use super::options::{Effect, Id, Settings, EMBEDDED};
use super::output::{self, Flag, Out};
use super::reader::Input;
use super::searcher::{load_eval, Searcher};
use super::{Dialect, Event};
use engine::eval::EvalChoice;
use engine::{SearchControl, SearchResult};
use rules::{Move, Position};
use std::collections::VecDeque;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::mpsc::Sender;
use std::sync::Arc;

const NAME: &str = "Qili";
const VERSION: &str = env!("CARGO_PKG_VERSION");
/// The search thread recurses deeply; give it room.
const SEARCH_STACK: usize = 64 << 20;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Exit,
}

enum Slot<S> {
    /// Not created yet (made on first use, after the GUI has set Hash/Threads).
    Empty,
    Ready(S),
    /// On the search thread.
    Busy,
}

/// A search in progress.
struct Thinking {
    id: u64,
    control: Arc<SearchControl>,
    /// `go ponder` and no `ponderhit` yet.
    pondering: bool,
    infinite: bool,
    stop_sent: bool,
    draw_offered: bool,
    depth_zero: bool,
    /// A result that came back before `stop`/`ponderhit` allowed printing it.
    held: Option<SearchResult>,
    /// The position searched, for a fallback move if the search fails.
    root: Position,
    banmoves: Vec<Move>,
}

pub struct Session<S: Searcher> {
    dialect: Option<Dialect>,
    settings: Settings,
    pos: Position,
    banmoves: Vec<Move>,
    searcher: Slot<S>,
    make_searcher: fn(&Settings) -> S,
    out: Out,
    tx: Sender<Event<S>>,
    thinking: Option<Thinking>,
    next_id: u64,
    /// Lines received while thinking that run once the search is over.
    deferred: VecDeque<String>,
    /// What the `bestmove` flags remember between moves (resigning, offering a draw).
    streaks: go::Streaks,
    /// Exit once the current search has answered (quit or end of input).
    exit_after_search: bool,
    say_bye: bool,
    /// The evaluation `EvalFile` chose, given to every searcher made.
    eval: EvalChoice,
}

impl<S: Searcher> Session<S> {
    pub fn new(out: Out, tx: Sender<Event<S>>, make_searcher: fn(&Settings) -> S) -> Session<S> {
        Session {
            dialect: None,
            settings: Settings::default(),
            pos: Position::startpos(),
            banmoves: Vec::new(),
            searcher: Slot::Empty,
            make_searcher,
            out,
            tx,
            thinking: None,
            next_id: 0,
            deferred: VecDeque::new(),
            streaks: go::Streaks::default(),
            exit_after_search: false,
            say_bye: false,
            eval: EvalChoice::default(),
        }
    }

    /// Use the evaluation of `file` (`EvalFile`, `qili --net`). On error nothing
    /// changes.
    pub fn set_eval_file(&mut self, file: &str) -> Result<(), String> {
        let choice = load_eval(file)?;
        self.settings.eval_file = match file.trim() {
            "" => EMBEDDED.to_string(),
            name => name.to_string(),
        };
        self.eval = choice.clone();
        if let Slot::Ready(s) = &mut self.searcher {
            s.set_eval(choice);
        }
        Ok(())
    }

    fn dialect(&self) -> Dialect {
        self.dialect.unwrap_or(Dialect::Uci)
    }

    fn error(&self, text: &str) {
        self.out.line(&output::error_line(self.dialect(), text));
    }

    fn note(&self, text: &str) {
        self.out.line(&output::message_line(self.dialect(), text));
    }

    /// The idle searcher, created on first use.
    fn searcher(&mut self) -> Option<&mut S> {
        if matches!(self.searcher, Slot::Empty) {
            let mut s = (self.make_searcher)(&self.settings);
            s.set_eval(self.eval.clone());
            self.searcher = Slot::Ready(s);
        }
        match &mut self.searcher {
            Slot::Ready(s) => Some(s),
            _ => None,
        }
    }

    pub fn handle(&mut self, event: Event<S>) -> Flow {
        match event {
            Event::Input(Input::Line(line)) => self.handle_line(&line),
            Event::Input(Input::TooLong(n)) => {
                self.error(&command::ParseError::TooLong(n).to_string());
                Flow::Continue
            }
            Event::Input(Input::Eof) => self.end_of_input(),
            Event::Done {
                id,
                searcher,
                result,
            } => self.search_done(id, searcher, result),
        }
    }

    fn end_of_input(&mut self) -> Flow {
        let batch = self.settings.batch;
        match self.thinking.as_mut() {
            None => Flow::Exit,
            Some(t) => {
                // A finite search in batch mode may finish and run what was piped
                // after it; anything else is stopped: nobody will send `stop` now.
                let finite = !t.infinite && !t.pondering;
                if !(batch && finite) {
                    t.stop_sent = true;
                    t.control.stop();
                    if t.held.is_some() {
                        self.finish_held();
                        return Flow::Exit;
                    }
                }
                self.deferred.push_back("quit".to_string());
                Flow::Continue
            }
        }
    }

    fn handle_line(&mut self, line: &str) -> Flow {
        let cmd = match command::parse(line) {
            Ok(c) => c,
            Err(ParseError::Empty) => return Flow::Continue,
            Err(e) => {
                let finite = self
                    .thinking
                    .as_ref()
                    .is_some_and(|t| !t.infinite && !t.pondering);
                if finite && self.settings.batch {
                    self.deferred.push_back(line.to_string());
                } else {
                    self.error(&e.to_string());
                }
                return Flow::Continue;
            }
        };
        if self.thinking.is_some() {
            return self.while_thinking(cmd, line);
        }
        self.idle(cmd)
    }

    fn handshake(&mut self, d: Dialect) {
        self.dialect = Some(d);
        let lines: Vec<String> = match d {
            Dialect::Ucci => vec![
                format!("id name {NAME}"),
                format!("id version {VERSION}"),
                "id copyright GPL-3.0-or-later".to_string(),
                "id author the Qili developers".to_string(),
                "id user unknown".to_string(),
            ],
            Dialect::Uci => vec![
                format!("id name {NAME} {VERSION}"),
                "id author the Qili developers".to_string(),
            ],
        };
        for l in lines {
            self.out.line(&l);
        }
        for l in Settings::option_lines(d) {
            self.out.line(&l);
        }
        self.out.line(match d {
            Dialect::Ucci => "ucciok",
            Dialect::Uci => "uciok",
        });
    }

    fn while_thinking(&mut self, cmd: Command, line: &str) -> Flow {
        let Some(t) = self.thinking.as_mut() else {
            return Flow::Continue;
        };
        // Batch mode: nothing is read during a search (UCCI §5.3). A search that
        // only ends on `stop`/`ponderhit` still hears those, or it would never end.
        if self.settings.batch && !t.infinite && !t.pondering {
            self.deferred.push_back(line.to_string());
            return Flow::Continue;
        }
        match cmd {
            Command::IsReady => self.out.line("readyok"),
            Command::Stop => {
                t.stop_sent = true;
                t.control.stop();
                if t.held.is_some() {
                    self.finish_held();
                }
            }
            Command::PonderHit { draw } => {
                if t.pondering {
                    t.pondering = false;
                    t.draw_offered |= draw;
                    t.control.ponderhit();
                    if t.held.is_some() && !t.infinite {
                        self.finish_held();
                    }
                } else {
                    self.error("ponderhit, but this search is not pondering");
                }
            }
            Command::Quit => {
                t.control.stop();
                t.stop_sent = true;
                self.exit_after_search = true;
                self.say_bye = self.dialect == Some(Dialect::Ucci);
                if t.held.is_some() {
                    self.finish_held();
                }
            }
            Command::Probe(_) => self.deferred.push_back(line.to_string()),
            Command::Ucci | Command::Uci => self.error("already initialised"),
            _ if t.stop_sent => self.deferred.push_back(line.to_string()),
            _ => self.error(&format!(
                "'{}' ignored while thinking (send stop first)",
                clip(line.trim())
            )),
        }
        if self.thinking.is_none() {
            // A held answer went out: the search is over, run what waited for it.
            if self.exit_after_search {
                return self.exit();
            }
            return self.run_deferred();
        }
        Flow::Continue
    }

    fn exit(&mut self) -> Flow {
        if self.say_bye {
            self.out.line("bye");
        }
        Flow::Exit
    }

    fn idle(&mut self, cmd: Command) -> Flow {
        match cmd {
            Command::Ucci => self.handshake(Dialect::Ucci),
            Command::Uci => self.handshake(Dialect::Uci),
            Command::IsReady => {
                // Make the engine now (hash allocation) so that the first `go`
                // does not pay for it on the clock.
                let _ = self.searcher();
                self.out.line("readyok");
            }
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            Command::Position(spec) => match build_position(&spec) {
                Ok(p) => {
                    self.pos = p;
                    self.banmoves.clear();
                }
                Err(e) => self.error(&format!("{e}; position unchanged")),
            },
            Command::BanMoves(moves) => self.ban(&moves),
            Command::Go(g) => self.go(&g),
            Command::PonderHit { .. } => self.error("ponderhit while not thinking"),
            Command::Stop => {
                // UCCI: `stop` while idle is answered with `nobestmove`.
                if self.dialect() == Dialect::Ucci {
                    self.out.line("nobestmove");
                }
            }
            Command::Probe(spec) => self.probe(spec.as_ref()),
            Command::UciNewGame => self.new_game(),
            Command::Debug(on) => self.settings.debug = on,
            Command::Quit => {
                self.say_bye = self.dialect() == Dialect::Ucci;
                return self.exit();
            }
        }
        Flow::Continue
    }

    fn new_game(&mut self) {
        self.streaks = go::Streaks::default();
        if let Some(s) = self.searcher() {
            s.new_game();
        }
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        let previous_eval = self.settings.eval_file.clone();
        match self.settings.set(name, value) {
            Ok(Effect::Changed(Id::EvalFile)) => {
                let file = std::mem::replace(&mut self.settings.eval_file, previous_eval);
                // Loading a net reads a file: done here, idle, not on the clock.
                if let Err(e) = self.set_eval_file(&file) {
                    self.error(&format!("{e}; evaluation unchanged"));
                }
            }
            Ok(Effect::NewGame) | Ok(Effect::ClearHash) => self.new_game(),
            Ok(Effect::Changed(_)) => {
                // Apply now (a new hash size allocates) rather than on the clock.
                let (settings, us) = (self.settings.clone(), self.pos.side_to_move());
                if let Slot::Ready(s) = &mut self.searcher {
                    s.configure(&settings, us);
                }
            }
            Ok(Effect::Ignored) => {
                if self.settings.debug {
                    self.note(&format!("option '{}' is not used", clip(name)));
                }
            }
            Err(e) => self.error(&e.to_string()),
        }
    }

    fn ban(&mut self, moves: &[String]) {
        let mut list = Vec::new();
        for text in moves {
            match self.pos.parse_move(text) {
                Ok(m) => list.push(m),
                Err(e) => self.error(&format!("banmoves {}: {e}", clip(text))),
            }
        }
        self.banmoves = list;
    }

    fn probe(&mut self, spec: Option<&PositionSpec>) {
        let pos = match spec {
            None => self.pos.clone(),
            Some(spec) => match build_position(spec) {
                Ok(p) => p,
                Err(e) => {
                    self.error(&e);
                    self.out.line("pophash");
                    return;
                }
            },
        };
        let entry = self.searcher().and_then(|s| s.probe(&pos));
        self.out.line(&output::pophash_line(entry));
    }

    fn go(&mut self, g: &GoParams) {
        let dialect = self.dialect();
        let plan: Plan = go::plan(g, dialect, &self.settings, &self.pos, &self.banmoves);
        for w in &plan.warnings {
            self.error(w);
        }
        let us = self.pos.side_to_move();
        let settings = self.settings.clone();
        let Some(searcher) = self.searcher() else {
            self.error("no searcher available");
            return;
        };
        searcher.configure(&settings, us);
        let Slot::Ready(mut searcher) = std::mem::replace(&mut self.searcher, Slot::Busy) else {
            return;
        };
        self.next_id += 1;
        let id = self.next_id;
        let control = Arc::new(SearchControl::new());
        control.reset(plan.ponder);
        let t = Thinking {
            id,
            control: control.clone(),
            pondering: plan.ponder,
            infinite: plan.limits.infinite,
            stop_sent: false,
            draw_offered: plan.draw_offered,
            depth_zero: plan.depth_zero,
            held: None,
            root: self.pos.clone(),
            banmoves: self.banmoves.clone(),
        };
        let pos = self.pos.clone();
        let limits = plan.limits;
        let out = self.out.clone();
        let tx = self.tx.clone();
        let show_multipv = limits.multipv > 1;
        let spawned = std::thread::Builder::new()
            .name("qili-search".into())
            .stack_size(SEARCH_STACK)
            .spawn(move || {
                let outcome = catch_unwind(AssertUnwindSafe(|| {
                    let mut on_info = |i: &engine::SearchInfo| {
                        out.line(&output::info_line(dialect, i, show_multipv));
                    };
                    searcher.search(&pos, &limits, &control, &mut on_info)
                }));
                let (searcher, result) = match outcome {
                    Ok(r) => (Some(searcher), Some(r)),
                    Err(_) => (None, None),
                };
                let _ = tx.send(Event::Done {
                    id,
                    searcher,
                    result,
                });
            });
        match spawned {
            Ok(_) => self.thinking = Some(t),
            Err(e) => {
                // The searcher went with the failed closure: make a new one and
                // still answer, as a GUI waits for `bestmove`.
                self.searcher = Slot::Empty;
                self.error(&format!("cannot start the search thread: {e}"));
                self.thinking = Some(t);
                self.finish(None);
            }
        }
    }

    fn search_done(&mut self, id: u64, searcher: Option<S>, result: Option<SearchResult>) -> Flow {
        self.searcher = match searcher {
            Some(s) => Slot::Ready(s),
            None => {
                self.error("the search failed; playing a legal move and starting afresh");
                Slot::Empty
            }
        };
        let Some(t) = self.thinking.as_mut() else {
            return Flow::Continue;
        };
        if t.id != id {
            return Flow::Continue;
        }
        // `go infinite` and `go ponder` must not answer before `stop`/`ponderhit`.
        let must_wait = !t.stop_sent && (t.pondering || t.infinite);
        if must_wait && result.is_some() {
            t.held = result;
            return Flow::Continue;
        }
        self.finish(result);
        if self.exit_after_search {
            return self.exit();
        }
        self.run_deferred()
    }

    fn finish_held(&mut self) {
        let held = self.thinking.as_mut().and_then(|t| t.held.take());
        self.finish(held);
    }

    /// Print the answer of the current search and go idle.
    fn finish(&mut self, result: Option<SearchResult>) {
        let Some(t) = self.thinking.take() else {
            return;
        };
        let dialect = self.dialect();
        let (best, ponder, flag) = match result {
            Some(r) if t.depth_zero => {
                let _ = r;
                (None, None, Flag::None)
            }
            Some(r) => {
                // Resignation and draw offers belong to games, not analysis.
                let flag = if t.infinite || dialect == Dialect::Uci {
                    Flag::None
                } else {
                    go::flag(
                        &self.settings,
                        t.draw_offered,
                        r.score,
                        t.root.fullmove(),
                        &mut self.streaks,
                    )
                };
                (r.best, r.ponder, flag)
            }
            None => {
                // The search failed: any legal move beats losing on time.
                let m = t
                    .root
                    .legal_moves()
                    .iter()
                    .copied()
                    .find(|m| !t.banmoves.contains(m));
                (m, None, Flag::None)
            }
        };
        self.out
            .line(&output::bestmove_line(dialect, best, ponder, flag));
    }

    /// Run the lines held during the search, as if they arrived now.
    fn run_deferred(&mut self) -> Flow {
        let held: Vec<String> = self.deferred.drain(..).collect();
        for line in held {
            if self.handle_line(&line) == Flow::Exit {
                return Flow::Exit;
            }
        }
        if self.exit_after_search && self.thinking.is_none() {
            return self.exit();
        }
        Flow::Continue
    }
}

/// The position a GUI describes: base, then each move checked for legality.
pub fn build_position(spec: &PositionSpec) -> Result<Position, String> {
    let mut pos = match &spec.base {
        Base::Startpos => Position::startpos(),
        Base::Fen(f) => Position::from_fen(f).map_err(|e| format!("bad FEN: {e}"))?,
    };
    for (i, text) in spec.moves.iter().enumerate() {
        let m = pos
            .parse_move(text)
            .map_err(|e| format!("move {} '{}': {e}", i + 1, clip(text)))?;
        pos.make_move(m);
    }
    Ok(pos)
}

#[cfg(test)]
mod tests {
    //! The state machine with a searcher that answers at once (the first legal
    //! move that is allowed), so that the order of events is under test control.
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
}
