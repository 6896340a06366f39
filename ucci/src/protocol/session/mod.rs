//! The protocol state machine: boot (dialect not yet known), idle, thinking.
//!
//! The session runs on the main thread and reacts to `Event`s: lines from the
//! reader thread and the end of a search. While a search runs, the searcher lives
//! on the search thread; `stop`, `ponderhit`, `isready` and `quit` are answered at
//! once. Other lines wait for the search to end and then run in the order sent
//! under UCI (a `go` among them starts the next search, and the lines after it
//! wait for that one), in UCCI's batch mode, and after `stop`; otherwise UCCI
//! refuses them (UCCI 3.0), and a refused `position` still unsets the position.
//! At the end of input a finite search that lines may wait for finishes, the
//! waiting lines run, and the session exits.
//!
//! A `position` that is refused (a bad FEN, or a bad or illegal move anywhere in
//! its move list) leaves the engine with *no* position: a GUI that disagrees with
//! the engine about one move must never get a move for a position it did not
//! send. Until a good `position` arrives, `go` answers `nobestmove` (UCCI) or
//! `bestmove (none)` (UCI) at once, after an error line saying why. So does any
//! line the engine cannot read that may have been a position (Cyclone's bare
//! `fen …`/`startpos …` are read as positions).
//!
//! This file holds the session's state and the dispatch of each line; the
//! commands that change the game (position, banned moves, options, probe) are in
//! `game.rs`, and starting, holding and answering a search is in `thinking.rs`.

mod game;
#[cfg(test)]
mod random_lines;
mod reports;
#[cfg(test)]
mod tests;
mod thinking;

pub use game::{build_position, PositionError};

use super::book::BookPlay;
use super::command::{self, Command, ParseError};
use super::go;
use super::options::{Settings, EMBEDDED};
use super::output::{self, Out};
use super::reader::Input;
use super::searcher::{load_eval, Searcher};
use super::{Dialect, Event};
use engine::eval::EvalChoice;
use engine::{SearchControl, SearchResult};
use rules::{Move, Position};
use std::collections::VecDeque;
use std::sync::mpsc::Sender;
use std::sync::Arc;

const NAME: &str = "Qili";
const VERSION: &str = env!("CARGO_PKG_VERSION");

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
    /// A depth, node, time or clock limit: without one (a bare `go`) the search
    /// runs until `stop`, like `go infinite` but answering when stopped.
    bounded: bool,
}

impl Thinking {
    /// Will this search end without a `stop` or `ponderhit`?
    fn ends_by_itself(&self) -> bool {
        !self.infinite && !self.pondering && self.bounded
    }
}

/// A line that waits for the search to end.
enum Held {
    Line(String),
    /// A line too long to read (it may have been a position).
    TooLong(usize),
}

pub struct Session<S: Searcher> {
    dialect: Option<Dialect>,
    settings: Settings,
    /// The position the GUI last set; `None` after a refused `position`.
    pos: Option<Position>,
    /// Why `pos` is `None`, for the error line that answers `go`.
    no_position_because: String,
    /// The last start FEN warned about as not game-reachable, so that a GUI that
    /// resends the same study with each move hears the warning once.
    warned_fen: Option<String>,
    banmoves: Vec<Move>,
    searcher: Slot<S>,
    make_searcher: fn(&Settings) -> S,
    out: Out,
    tx: Sender<Event<S>>,
    thinking: Option<Thinking>,
    next_id: u64,
    /// Lines received while thinking that run once the search is over.
    deferred: VecDeque<Held>,
    /// What the `bestmove` flags remember between moves (resigning, offering a draw).
    streaks: go::Streaks,
    /// Exit once the current search has answered (`quit` while thinking).
    exit_after_search: bool,
    /// The GUI closed its end: run what is held, then exit.
    input_ended: bool,
    /// A `go` waits in `deferred` behind a finite search (UCI): every later line
    /// waits too, so that it applies to that search and in the order sent.
    deferred_go: bool,
    say_bye: bool,
    /// The evaluation `EvalFile` chose, given to every searcher made.
    eval: EvalChoice,
    /// The opening book and the randomness of play (`protocol::book`).
    book: BookPlay,
}

impl<S: Searcher> Session<S> {
    pub fn new(out: Out, tx: Sender<Event<S>>, make_searcher: fn(&Settings) -> S) -> Session<S> {
        Session {
            dialect: None,
            settings: Settings::default(),
            pos: Some(Position::startpos()),
            no_position_because: String::new(),
            warned_fen: None,
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
            input_ended: false,
            deferred_go: false,
            say_bye: false,
            eval: EvalChoice::default(),
            book: BookPlay::new(),
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
                self.too_long(n);
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

    fn too_long(&mut self, n: usize) {
        if self.holds_while_thinking() {
            self.defer(Held::TooLong(n));
            return;
        }
        let e = command::ParseError::TooLong(n).to_string();
        self.error(&e);
        // It may have been a `position` (a very long game): unread, it must not
        // leave the previous position in force.
        self.forget_position(e);
    }

    fn defer(&mut self, held: Held) {
        self.deferred.push_back(held);
    }

    fn handle_line(&mut self, line: &str) -> Flow {
        let cmd = match command::parse(line) {
            Ok(c) => c,
            Err(ParseError::Empty) => return Flow::Continue,
            Err(e) => {
                if self.holds_while_thinking() {
                    // Reported in its turn, once the search is over.
                    self.defer(Held::Line(line.to_string()));
                    return Flow::Continue;
                }
                self.error(&e.to_string());
                // A line that may have been a position the GUI meant (a
                // malformed `position`, a misspelt or unknown position command)
                // must not leave the previous position in force.
                if command::may_be_position(line) {
                    self.forget_position(e.to_string());
                }
                return Flow::Continue;
            }
        };
        if self.thinking.is_some() {
            return self.while_thinking(cmd, line);
        }
        self.idle(cmd)
    }

    /// Lines that do not act on the running search wait for it to end: all of
    /// them in batch mode during a finite search (UCCI §5.3), and all of them
    /// under UCI (as Stockfish and Pikafish take `position` and `go` piped in).
    fn holds_while_thinking(&self) -> bool {
        let Some(t) = &self.thinking else {
            return false;
        };
        let finite = t.ends_by_itself();
        (finite && self.settings.batch) || self.dialect() == Dialect::Uci
    }

    /// No position until a good one arrives; `go` answers without a move.
    fn forget_position(&mut self, why: String) {
        self.pos = None;
        self.banmoves.clear();
        self.no_position_because = why;
    }

    /// The first greeting chooses the dialect for the session. A GUI that sends
    /// both (VinXiangQi writes `uci` then `ucci`, and switches to UCCI only if
    /// `ucciok` comes) keeps the first, whose replies it then reads; the same
    /// greeting again repeats the handshake.
    fn greeting(&mut self, d: Dialect) {
        match self.dialect {
            Some(held) if held != d => {
                let name = |d: Dialect| match d {
                    Dialect::Ucci => "ucci",
                    Dialect::Uci => "uci",
                };
                self.error(&format!(
                    "already speaking {} (the first greeting chooses); '{}' ignored",
                    name(held),
                    name(d)
                ));
            }
            _ => self.handshake(d),
        }
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

    fn exit(&mut self) -> Flow {
        if self.say_bye {
            self.out.line("bye");
        }
        Flow::Exit
    }

    fn idle(&mut self, cmd: Command) -> Flow {
        match cmd {
            Command::Ucci => self.greeting(Dialect::Ucci),
            Command::Uci => self.greeting(Dialect::Uci),
            Command::IsReady => {
                // Make the engine now (hash allocation) so that the first `go`
                // does not pay for it on the clock.
                let _ = self.searcher();
                self.out.line("readyok");
            }
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            Command::Position(spec) => self.set_position(&spec),
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
            Command::Display => self.display(),
            Command::RuleQuery(moves) => self.rule_query(&moves),
            Command::Eval => self.eval_report(),
            Command::Quit => {
                self.say_bye = self.dialect() == Dialect::Ucci;
                return self.exit();
            }
        }
        Flow::Continue
    }
}
