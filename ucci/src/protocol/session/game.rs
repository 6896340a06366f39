//! The commands that change the game while the engine is idle: the position
//! (none at all when a `position` line is refused), banned moves, options (loading
//! a net or resizing the hash here, off the clock), new games, `probe` and `d`.

use super::{Session, Slot};
use crate::protocol::command::{clip, Base, PositionSpec};
use crate::protocol::coords::Coords;
use crate::protocol::go;
use crate::protocol::options::{Effect, Id};
use crate::protocol::output;
use crate::protocol::searcher::Searcher;
use rules::diagram;
use rules::position::Validity;
use rules::{Position, Setup};
use std::fmt;

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
            Ok(Effect::Changed(Id::BookFile | Id::OwnBook)) => {
                // Loading a book reads a file: done here, idle, not on the clock.
                if let Err(e) = self.book.sync(&mut self.settings) {
                    self.error(&e);
                }
            }
            Ok(Effect::Changed(Id::Variant)) => {
                if let Some(v) = self.settings.foreign_variant() {
                    let why = foreign_variant_error(v);
                    self.error(&why);
                    self.pos = None;
                    self.banmoves.clear();
                    self.no_position_because = why;
                }
            }
            Ok(Effect::NewGame) | Ok(Effect::ClearHash) => self.new_game(),
            Ok(Effect::Changed(_)) => {
                // Apply now (a new hash size allocates) rather than on the clock.
                let us = self
                    .pos
                    .as_ref()
                    .map_or(rules::Color::Red, |p| p.side_to_move());
                let settings = self.settings.clone();
                if let Slot::Ready(s) = &mut self.searcher {
                    s.configure(&settings, us);
                }
            }
            Ok(Effect::NotSupported) => {
                self.note(&format!(
                    "option '{}' is not supported; ignored",
                    clip(name)
                ));
            }
            Ok(Effect::NoEffect) => {
                if self.settings.debug {
                    self.note(&format!(
                        "option '{}' changes nothing: play and analysis search alike",
                        clip(name)
                    ));
                }
            }
            Err(e) => self.error(&e.to_string()),
        }
    }

    /// `position …`: the new position, or none at all if any part is refused.
    pub(super) fn set_position(&mut self, spec: &PositionSpec) {
        self.banmoves.clear();
        let validity = if self.settings.strict_positions {
            Validity::GameReachable
        } else {
            Validity::Playable
        };
        if let Some(v) = self.settings.foreign_variant() {
            self.pos = None;
            self.no_position_because = foreign_variant_error(v);
            self.error(&self.no_position_because);
            return;
        }
        match build_position(spec, validity, self.settings.coords()) {
            Ok(pos) => {
                if let Base::Fen(fen) = &spec.base {
                    self.warn_unreachable(fen);
                }
                self.pos = Some(pos);
            }
            Err(e) => {
                self.pos = None;
                self.no_position_because = e.to_string();
                self.error(&format!(
                    "{e}; the engine now holds no position until a good 'position' command"
                ));
            }
        }
    }

    /// Say once per start FEN why no game reaches it (a composed study).
    fn warn_unreachable(&mut self, fen: &str) {
        if self.warned_fen.as_deref() == Some(fen) {
            return;
        }
        let Ok(setup) = Setup::parse(fen) else {
            return;
        };
        let reasons = setup.unreachable();
        if reasons.is_empty() {
            return;
        }
        self.warned_fen = Some(fen.to_string());
        let list: Vec<String> = reasons.iter().map(|r| r.to_string()).collect();
        self.note(&format!(
            "warning: no game reaches this position (a composed study?): {}",
            list.join("; ")
        ));
    }

    /// `d`: the board the engine holds, as a diagram.
    pub(super) fn display(&mut self) {
        match &self.pos {
            Some(p) => {
                for line in diagram::chinese_board(p).lines() {
                    self.out.line(line);
                }
            }
            None => self.error(&format!("no position: {}", self.no_position_because)),
        }
    }

    pub(super) fn ban(&mut self, moves: &[String]) {
        let Some(pos) = self.pos.as_ref() else {
            self.error("banmoves: no position is set");
            return;
        };
        let mut list = Vec::new();
        for text in moves {
            match self.settings.coords().parse(pos, text) {
                Ok(m) => list.push(m),
                Err(e) => self.error(&format!("banmoves {}: {e}", clip(text))),
            }
        }
        self.banmoves = list;
    }

    pub(super) fn probe(&mut self, spec: Option<&PositionSpec>) {
        let pos = match spec {
            None => match self.pos.clone() {
                Some(p) => p,
                None => {
                    self.error(&format!("probe: no position: {}", self.no_position_because));
                    self.out.line("pophash");
                    return;
                }
            },
            Some(spec) => match build_position(spec, Validity::Playable, self.settings.coords()) {
                Ok(p) => p,
                Err(e) => {
                    self.error(&e.to_string());
                    self.out.line("pophash");
                    return;
                }
            },
        };
        let entry = self.searcher().and_then(|s| s.probe(&pos));
        self.out.line(&output::pophash_line(entry));
    }
}

/// Why positions are refused under a `UCI_Variant` other than xiangqi.
pub(super) fn foreign_variant_error(variant: &str) -> String {
    format!(
        "variant '{variant}' is not played (only xiangqi); no position until 'setoption name UCI_Variant value xiangqi'"
    )
}

/// Why a `position` line was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    Fen(rules::FenError),
    /// The move at this 1-based index of the list is not legal (or not a move).
    Move {
        number: usize,
        text: String,
        why: String,
    },
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::Fen(e) => write!(f, "bad FEN: {e}"),
            PositionError::Move { number, text, why } => {
                write!(f, "move {number} '{text}': {why}")
            }
        }
    }
}

/// The position a GUI describes: base, then each move checked for legality. A
/// single bad move refuses the whole line.
pub fn build_position(
    spec: &PositionSpec,
    validity: Validity,
    coords: Coords,
) -> Result<Position, PositionError> {
    let mut pos = match &spec.base {
        Base::Startpos => Position::startpos(),
        Base::Fen(f) => Setup::parse(f)
            .and_then(|s| Position::from_setup_checked(&s, validity))
            .map_err(PositionError::Fen)?,
    };
    for (i, text) in spec.moves.iter().enumerate() {
        let m = coords.parse(&pos, text).map_err(|e| PositionError::Move {
            number: i + 1,
            text: clip(text),
            why: e.to_string(),
        })?;
        pos.make_move(m);
    }
    Ok(pos)
}
