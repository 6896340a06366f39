//! UCCI 3.0 and UCI-for-xiangqi front-ends (`qili` with no arguments).
//!
//! Layout: `command` parses a line into a `Command` (pure, fuzzed); `options`
//! holds the option table of both dialects; `go` turns `go` into search limits
//! and results into `bestmove` flags; `output` formats every engine → GUI line;
//! `reader` is the stdin thread; `session` is the state machine (boot, idle,
//! thinking) that ties them to a `Searcher` running on its own thread.

pub mod book;
pub mod command;
pub mod coords;
pub mod eval_report;
pub mod go;
pub mod options;
pub mod output;
pub mod reader;
pub mod searcher;
pub mod session;
/// XBoard/WinBoard (CECP 2), chosen by a first line `xboard`.
pub mod xboard;

use engine::{Engine, SearchResult};
use std::process::ExitCode;
use std::sync::mpsc;

/// Which protocol the GUI speaks (chosen by its first command).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    Ucci,
    /// UCI as Pikafish speaks it for xiangqi: ICCS squares with ranks 0–9.
    Uci,
}

/// What the session reacts to: a line from the GUI, or a search that ended.
pub enum Event<S> {
    Input(reader::Input),
    /// The search thread hands the searcher back (`None` if the search panicked)
    /// with its result, tagged with the search it belongs to.
    Done {
        id: u64,
        searcher: Option<S>,
        result: Option<SearchResult>,
    },
}

/// Speak UCCI or UCI on stdin/stdout until `quit` or end of input.
pub fn run() -> ExitCode {
    run_with_net(None)
}

/// `run`, evaluating with the net in `net` (`qili --net FILE`) from the start.
/// A net that does not load is an error at start-up, not a silent fallback.
pub fn run_with_net(net: Option<&str>) -> ExitCode {
    let (tx, rx) = mpsc::channel();
    let mut session = session::Session::new(output::Out::stdout(), tx.clone(), |s| {
        Engine::new(searcher::engine_options(s, rules::Color::Red))
    });
    if let Some(file) = net {
        if let Err(e) = session.set_eval_file(file) {
            eprintln!("qili: --net: {e}");
            return ExitCode::FAILURE;
        }
    }
    reader::spawn(std::io::BufReader::new(std::io::stdin()), tx.clone());
    // Until the first non-blank line, an `xboard` may still choose CECP. Every
    // event still goes to the session as before unless CECP is chosen.
    let mut choosing = true;
    while let Ok(event) = rx.recv() {
        if choosing {
            match &event {
                Event::Input(reader::Input::Line(l)) if l.trim() == "xboard" => {
                    drop(session);
                    return xboard::run(output::Out::stdout(), tx, rx, net);
                }
                Event::Input(reader::Input::Line(l)) if l.trim().is_empty() => {}
                _ => choosing = false,
            }
        }
        if session.handle(event) == session::Flow::Exit {
            break;
        }
    }
    ExitCode::SUCCESS
}
