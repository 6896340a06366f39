//! Thinking on the opponent's time (`hard`; `easy` turns it off). After its
//! move the engine searches the position after the reply it expects, as a
//! ponder search: no time limit applies until the GUI plays that reply, which
//! turns it into the search for the engine's next move (`ponderhit`). Any other
//! reply, and every line that changes the game or the engine, stops it first
//! and drops its result, so a pondered move is never played for a position the
//! GUI did not reach.

use super::command::Cmd;
use super::{output, Flow, Xboard};
use crate::protocol::go;
use crate::protocol::reader::Input;
use crate::protocol::searcher::Searcher;
use crate::protocol::Dialect;

impl<S: Searcher> Xboard<S> {
    /// Ponder on `self.hint` when pondering is on and the engine waits for
    /// the opponent's reply in a game still going.
    pub(super) fn start_ponder(&mut self) {
        if !self.ponder_on || self.game.force || self.analyzing || self.thinking.is_some() {
            return;
        }
        let (Some(expected), Some(pos)) = (self.hint, self.game.position()) else {
            return;
        };
        if !self.variant_ok
            || pos.side_to_move() == self.game.engine
            || !pos.legal_moves().contains(expected)
        {
            return;
        }
        let mut after = pos.clone();
        after.make_move(expected);
        if output::result_if_over(&after).is_some() {
            return;
        }
        let mut g = self.game.go_params(self.game.engine);
        g.ponder = true;
        let plan = go::plan(&g, Dialect::Uci, &self.settings, &after, &[]);
        self.start(plan, after, false, Some(expected));
    }

    /// A line while pondering: the expected reply turns the ponder search
    /// into the engine's search; lines that change nothing are answered at
    /// once; anything else stops the ponder search and is then carried out.
    pub(super) fn while_pondering(&mut self, cmd: Cmd, line: &str) -> Flow {
        let Some(t) = self.thinking.as_mut() else {
            return self.idle(cmd);
        };
        match cmd {
            Cmd::Quit => Flow::Exit,
            Cmd::UserMove(ref text) => {
                let played = self.game.position().and_then(|p| p.parse_move(text).ok());
                if played.is_some() && played == t.ponder {
                    self.game.play(t.ponder.take().expect("checked above"));
                    t.generation = self.game.generation;
                    t.control.ponderhit();
                    return Flow::Continue;
                }
                self.abort();
                self.idle(cmd)
            }
            Cmd::Ping(_) if !self.deferred.is_empty() => {
                self.deferred.push_back(Input::Line(line.to_string()));
                Flow::Continue
            }
            // Not the engine's move: nothing to move now.
            Cmd::MoveNow | Cmd::Ponder(true) => Flow::Continue,
            _ if cmd.changes_no_game() => self.idle(cmd),
            _ => {
                self.abort();
                self.idle(cmd)
            }
        }
    }
}
