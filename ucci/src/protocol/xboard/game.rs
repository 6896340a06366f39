//! The game as CECP sees it: the position in force (a base position plus the
//! moves played from it, so that `undo` can take plies back and the search sees
//! the repetition history), who the engine plays, force mode, and the clocks
//! (`level`, `st`, `sd`, `time`, `otim`) turned into a `GoParams` for `go::plan`.
//!
//! A refused `setboard` or an unsupported `variant` leaves *no* position: the
//! engine must never move for a position the GUI no longer has.

use super::command::Level;
use crate::protocol::command::GoParams;
use rules::position::Validity;
use rules::{Color, Move, Position, Setup};

/// XBoard's default time control (40 moves in 5 minutes) until `level` says otherwise.
const DEFAULT_LEVEL: Level = Level {
    mps: 40,
    base_ms: 300_000,
    inc_ms: 0,
};

#[derive(Clone, Debug)]
pub struct Clocks {
    pub level: Level,
    /// `st`: fixed time per move (ms).
    pub st_ms: Option<u64>,
    /// `sd`: depth limit.
    pub sd: Option<u32>,
    /// `time`/`otim` as last received (centiseconds).
    pub ours_cs: Option<u64>,
    pub theirs_cs: Option<u64>,
}

impl Default for Clocks {
    fn default() -> Clocks {
        Clocks {
            level: DEFAULT_LEVEL,
            st_ms: None,
            sd: None,
            ours_cs: None,
            theirs_cs: None,
        }
    }
}

pub struct Game {
    /// Where the game started (`new`: the start position; `setboard`: its FEN).
    /// `None`: no position in force.
    base: Option<Position>,
    moves: Vec<Move>,
    /// `base` with `moves` played on it.
    current: Option<Position>,
    /// The colour the engine plays when not in force mode.
    pub engine: Color,
    pub force: bool,
    pub clocks: Clocks,
    /// Bumped by every change of the position: a search result for another
    /// generation is stale and dropped.
    pub generation: u64,
}

impl Game {
    /// As after `new`: start position, engine Black, not in force mode.
    pub fn new() -> Game {
        let start = Position::startpos();
        Game {
            base: Some(start.clone()),
            moves: Vec::new(),
            current: Some(start),
            engine: Color::Black,
            force: false,
            clocks: Clocks::default(),
            generation: 0,
        }
    }

    pub fn position(&self) -> Option<&Position> {
        self.current.as_ref()
    }

    /// Hold no position at all (bad FEN, unsupported variant).
    pub fn clear(&mut self) {
        self.base = None;
        self.moves.clear();
        self.current = None;
        self.generation += 1;
    }

    /// `setboard`: a playable position (H/E as well as N/B, `w`/`b` sides) or
    /// an error, in which case no position is held.
    pub fn set_board(&mut self, fen: &str) -> Result<(), String> {
        let parsed = Setup::parse(fen).map_err(|e| e.to_string()).and_then(|s| {
            Position::from_setup_checked(&s, Validity::Playable).map_err(|e| e.to_string())
        });
        match parsed {
            Ok(p) => {
                self.base = Some(p.clone());
                self.moves.clear();
                self.current = Some(p);
                self.generation += 1;
                Ok(())
            }
            Err(e) => {
                self.clear();
                Err(e)
            }
        }
    }

    /// Play a move given in ICCS if it is legal (`None`: illegal, or no
    /// position; nothing changes).
    pub fn play_text(&mut self, text: &str) -> Option<Move> {
        let m = self.current.as_ref()?.parse_move(text).ok()?;
        self.play(m);
        Some(m)
    }

    pub fn play(&mut self, m: Move) {
        if let Some(p) = self.current.as_mut() {
            p.make_move(m);
            self.moves.push(m);
            self.generation += 1;
        }
    }

    /// Take back `n` plies (fewer if the game is shorter).
    pub fn take_back(&mut self, n: usize) {
        let Some(base) = &self.base else { return };
        let keep = self.moves.len().saturating_sub(n);
        self.moves.truncate(keep);
        // Replaying from the base keeps the history exactly as if played.
        let mut p = base.clone();
        for &m in &self.moves {
            p.make_move(m);
        }
        self.current = Some(p);
        self.generation += 1;
    }

    /// Moves the engine's colour has made in this game (for `level` sessions).
    fn moves_by(&self, c: Color) -> u32 {
        let Some(base) = &self.base else { return 0 };
        let first_is_ours = base.side_to_move() == c;
        let n = self.moves.len() + usize::from(first_is_ours);
        u32::try_from(n / 2).unwrap_or(u32::MAX)
    }

    /// The search parameters for the side to move, as `go::plan` reads them
    /// (UCI dialect: milliseconds, clocks by colour).
    pub fn go_params(&self, us: Color) -> GoParams {
        let c = &self.clocks;
        let mut g = GoParams {
            depth: c.sd,
            ..GoParams::default()
        };
        if let Some(st) = c.st_ms {
            g.movetime = Some(st.max(1));
            return g;
        }
        let ours = c.ours_cs.map_or(c.level.base_ms, |t| t.saturating_mul(10));
        let theirs = c
            .theirs_cs
            .map_or(c.level.base_ms, |t| t.saturating_mul(10));
        if c.level.base_ms == 0 && c.level.inc_ms == 0 && c.ours_cs.is_none() {
            // No clock at all (`level 0 0 0`): only `sd`, or a short think.
            if g.depth.is_none() {
                g.movetime = Some(1_000);
            }
            return g;
        }
        let (w, b) = match us {
            Color::Red => (ours, theirs),
            Color::Black => (theirs, ours),
        };
        g.wtime = Some(w);
        g.btime = Some(b);
        g.winc = Some(c.level.inc_ms);
        g.binc = Some(c.level.inc_ms);
        if c.level.mps > 0 {
            let done = self.moves_by(us) % c.level.mps;
            g.movestogo = Some(c.level.mps - done);
        }
        g
    }
}

impl Default for Game {
    fn default() -> Game {
        Game::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_undo_and_setboard() {
        let mut g = Game::new();
        assert!(g.play_text("h2e2").is_some());
        assert!(
            g.play_text("h2e2").is_none(),
            "Black cannot play Red's move"
        );
        assert!(g.play_text("h9g7").is_some());
        g.take_back(1);
        assert_eq!(g.position().unwrap().side_to_move(), Color::Black);
        g.take_back(5);
        assert_eq!(
            g.position().unwrap().to_fen(),
            Position::startpos().to_fen()
        );
        let fen = "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR b - - 0 1";
        assert!(g.set_board(fen).is_ok());
        assert_eq!(g.position().unwrap().side_to_move(), Color::Black);
        assert!(g.set_board("not a fen").is_err());
        assert!(g.position().is_none());
        assert!(g.play_text("h2e2").is_none());
    }

    #[test]
    fn clocks_to_go_params() {
        let mut g = Game::new();
        g.clocks.level = Level {
            mps: 40,
            base_ms: 60_000,
            inc_ms: 0,
        };
        g.clocks.ours_cs = Some(500);
        g.clocks.theirs_cs = Some(700);
        let p = g.go_params(Color::Black);
        assert_eq!(
            (p.btime, p.wtime, p.movestogo),
            (Some(5_000), Some(7_000), Some(40))
        );
        g.clocks.st_ms = Some(1_000);
        assert_eq!(g.go_params(Color::Red).movetime, Some(1_000));
    }
}
