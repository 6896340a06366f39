//! The commands that change the game while the engine is idle: the position
//! (kept as it was when a `position` line is bad), banned moves, options (loading
//! a net or resizing the hash here, off the clock), new games and `probe`.

use super::{Session, Slot};
use crate::protocol::command::{clip, Base, PositionSpec};
use crate::protocol::go;
use crate::protocol::options::{Effect, Id};
use crate::protocol::output;
use crate::protocol::searcher::Searcher;
use rules::Position;

impl<S: Searcher> Session<S> {
    pub(super) fn new_game(&mut self) {
        self.streaks = go::Streaks::default();
        if let Some(s) = self.searcher() {
            s.new_game();
        }
    }

    pub(super) fn set_option(&mut self, name: &str, value: Option<&str>) {
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

    pub(super) fn ban(&mut self, moves: &[String]) {
        let mut list = Vec::new();
        for text in moves {
            match self.pos.parse_move(text) {
                Ok(m) => list.push(m),
                Err(e) => self.error(&format!("banmoves {}: {e}", clip(text))),
            }
        }
        self.banmoves = list;
    }

    pub(super) fn probe(&mut self, spec: Option<&PositionSpec>) {
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
