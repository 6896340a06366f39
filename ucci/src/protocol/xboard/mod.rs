//! The XBoard/WinBoard front-end (CECP, protocol version 2) for xiangqi,
//! spoken when the first line from the GUI is `xboard`.
//!
//! Layout: `command` parses a line (pure, total, fuzzed); `game` holds the
//! position in force, who the engine plays and the clocks; `output` formats
//! engine → GUI lines; `think` runs a search on its own thread; this file is the
//! state machine (idle, thinking on a move, pondering, analysing),
//! `handlers.rs` what each command does, `ponder.rs` thinking on the
//! opponent's time (`hard`/`easy`) and `options.rs` the `option` command.
//! With `OwnBook` on, the engine's move comes from the opening book while the
//! book knows the position.
//!
//! Squares are ICCS (`h2e2`), which is exactly XBoard's notation for 10-rank
//! boards (ranks `0`..`9`, rank 0 Red's back rank). Stale results are never
//! played: a search whose position is changed (`new`, `force`, `result`, or any
//! change during analysis) is stopped and waited for, and its result dropped;
//! other game-changing lines that arrive while the engine thinks on its own move
//! wait until it has moved.

pub mod command;
pub mod game;
mod handlers;
mod options;
pub mod output;
mod ponder;
mod think;

use crate::protocol::book::BookPlay;
use crate::protocol::options::Settings;
use crate::protocol::output::Out;
use crate::protocol::reader::Input;
use crate::protocol::searcher::{engine_options, load_eval, Searcher};
use crate::protocol::Event;
use command::{Cmd, ParseError};
use engine::eval::EvalChoice;
use engine::{Engine, SearchResult};
use game::Game;
use rules::Move;
use std::collections::VecDeque;
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::sync::mpsc::{Receiver, Sender};
use std::sync::Arc;
use think::Thinking;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Exit,
}

/// Speak CECP with the real engine on the channel the stdin reader feeds (its
/// `xboard` line already read). `net` is `qili --net FILE`, if any.
pub fn run(
    out: Out,
    tx: Sender<Event<Engine>>,
    rx: Receiver<Event<Engine>>,
    net: Option<&str>,
) -> ExitCode {
    let eval = match net.map(load_eval) {
        None => EvalChoice::default(),
        Some(Ok(e)) => e,
        Some(Err(e)) => {
            eprintln!("qili: --net: {e}");
            return ExitCode::FAILURE;
        }
    };
    let make = |s: &Settings| Engine::new(engine_options(s, rules::Color::Red));
    Xboard::new(out, tx, rx, make, eval).run();
    ExitCode::SUCCESS
}

pub struct Xboard<S: Searcher> {
    out: Out,
    tx: Sender<Event<S>>,
    rx: Receiver<Event<S>>,
    settings: Settings,
    make_searcher: fn(&Settings) -> S,
    eval: EvalChoice,
    /// The idle searcher; `None` while it is on the search thread (or not made yet).
    searcher: Option<S>,
    game: Game,
    /// `variant` named something we do not play: never move until `new` or
    /// `variant xiangqi`.
    variant_ok: bool,
    post: Arc<AtomicBool>,
    analyzing: bool,
    thinking: Option<Thinking>,
    next_id: u64,
    /// Lines that arrived while they could not run yet, in order.
    deferred: VecDeque<Input>,
    /// The opening book (`OwnBook`) and the randomness of play.
    book: BookPlay,
    /// `hard`: think on the opponent's time after each move.
    ponder_on: bool,
    /// The reply the last search expected (`hint`, and what is pondered on).
    hint: Option<Move>,
}

impl<S: Searcher> Xboard<S> {
    pub fn new(
        out: Out,
        tx: Sender<Event<S>>,
        rx: Receiver<Event<S>>,
        make_searcher: fn(&Settings) -> S,
        eval: EvalChoice,
    ) -> Xboard<S> {
        Xboard {
            out,
            tx,
            rx,
            settings: Settings::default(),
            make_searcher,
            eval,
            searcher: None,
            game: Game::new(),
            variant_ok: true,
            post: Arc::new(AtomicBool::new(false)),
            analyzing: false,
            thinking: None,
            next_id: 0,
            deferred: VecDeque::new(),
            book: BookPlay::new(),
            ponder_on: false,
            hint: None,
        }
    }

    /// React to events until `quit` or the end of input.
    pub fn run(&mut self) {
        loop {
            // Held lines run once no search is in the way, before newer ones.
            // Only a search for the engine's move holds lines back; under an
            // analysis or a ponder search they run (and stop it themselves).
            let held = match &self.thinking {
                Some(t) if !t.analysis && t.ponder.is_none() => None,
                _ => self.deferred.pop_front(),
            };
            let event = match held {
                Some(i) => Event::Input(i),
                None => match self.rx.recv() {
                    Ok(e) => e,
                    Err(_) => return,
                },
            };
            if self.handle(event) == Flow::Exit {
                if let Some(t) = &self.thinking {
                    t.control.stop();
                }
                return;
            }
        }
    }

    fn handle(&mut self, event: Event<S>) -> Flow {
        match event {
            Event::Input(Input::Line(line)) => self.line(&line),
            Event::Input(Input::TooLong(n)) => {
                self.out.line(&format!("Error (line too long): {n} bytes"));
                Flow::Continue
            }
            Event::Input(Input::Eof) => Flow::Exit,
            Event::Done {
                id,
                searcher,
                result,
            } => {
                self.search_done(id, searcher, result);
                Flow::Continue
            }
        }
    }

    fn line(&mut self, line: &str) -> Flow {
        let cmd = match command::parse(line) {
            Ok(c) => c,
            Err(ParseError::Empty) => return Flow::Continue,
            Err(e) => {
                self.out.line(&e.to_string());
                return Flow::Continue;
            }
        };
        match &self.thinking {
            Some(t) if t.ponder.is_some() => self.while_pondering(cmd, line),
            Some(_) => self.while_thinking(cmd, line),
            None => self.idle(cmd),
        }
    }

    /// A line while a search runs: answered at once, or after stopping the
    /// search (its result dropped), or held until the engine has moved.
    fn while_thinking(&mut self, cmd: Cmd, line: &str) -> Flow {
        let Some(t) = &self.thinking else {
            return self.idle(cmd);
        };
        let analysis = t.analysis;
        match cmd {
            Cmd::Quit => Flow::Exit,
            // `pong` after every earlier line: after held ones too.
            Cmd::Ping(_) if !self.deferred.is_empty() => {
                self.deferred.push_back(Input::Line(line.to_string()));
                Flow::Continue
            }
            Cmd::MoveNow => {
                if !analysis {
                    t.control.stop();
                }
                Flow::Continue
            }
            Cmd::Ponder(_) => self.idle(cmd),
            _ if cmd.changes_no_game() => self.idle(cmd),
            // During analysis everything else changes what is analysed (or ends
            // it): stop, carry it out, and `idle` starts the new analysis.
            _ if analysis => {
                self.abort();
                self.idle(cmd)
            }
            // These drop the move being searched. Lines held back before them
            // still run first, in order.
            Cmd::New | Cmd::Force | Cmd::Result(_) if !self.deferred.is_empty() => {
                self.deferred.push_back(Input::Line(line.to_string()));
                self.abort();
                Flow::Continue
            }
            Cmd::New | Cmd::Force | Cmd::Result(_) => {
                self.abort();
                self.idle(cmd)
            }
            _ => {
                self.deferred.push_back(Input::Line(line.to_string()));
                Flow::Continue
            }
        }
    }

    /// Stop the search and wait for it, dropping its result; lines that arrive
    /// meanwhile are kept, in order, for afterwards.
    fn abort(&mut self) {
        let Some(t) = self.thinking.take() else {
            return;
        };
        t.control.stop();
        loop {
            match self.rx.recv() {
                Ok(Event::Done { id, searcher, .. }) => {
                    self.searcher = searcher;
                    if id == t.id {
                        return;
                    }
                }
                Ok(Event::Input(i)) => self.deferred.push_back(i),
                Err(_) => return,
            }
        }
    }

    fn search_done(&mut self, id: u64, searcher: Option<S>, result: Option<SearchResult>) {
        if searcher.is_none() {
            self.out.line("# the search failed; starting afresh");
        }
        self.searcher = searcher;
        let Some(t) = self.thinking.take_if(|t| t.id == id) else {
            return;
        };
        for e in result.iter().flat_map(|r| r.errors.iter().chain(&r.notes)) {
            self.out.line(&format!("# {e}"));
        }
        // An analysis never moves, nor does a ponder search the opponent did not
        // confirm; a move for a position no longer in force (or for the
        // opponent) is dropped.
        let ours = self.game.position().map(|p| p.side_to_move()) == Some(self.game.engine);
        if t.analysis
            || t.ponder.is_some()
            || t.generation != self.game.generation
            || self.game.force
            || !ours
        {
            return;
        }
        let (best, ponder) = match result {
            Some(r) => (r.best, r.ponder),
            // The search failed: any legal move beats losing on time.
            None => (t.root.legal_moves().iter().copied().next(), None),
        };
        match best {
            Some(m) => self.play_own_move(m, ponder),
            None => {
                if let Some(r) = output::result_if_over(&t.root) {
                    self.out.line(&r);
                }
                self.game.force = true;
            }
        }
    }

    /// Play the engine's move `m` and tell the GUI; then, unless the game is
    /// over, ponder on the expected reply when pondering is on.
    fn play_own_move(&mut self, m: Move, expected: Option<Move>) {
        self.game.play(m);
        self.out.line(&output::move_line(m));
        self.hint = expected;
        let over = self.game.position().and_then(output::result_if_over);
        if let Some(r) = over {
            self.out.line(&r);
            self.game.force = true;
            return;
        }
        self.start_ponder();
    }
}
