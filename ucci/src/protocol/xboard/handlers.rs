//! What each CECP command does when no search is running (or once the running
//! one has been stopped), and starting the searches the commands call for: the
//! engine's move after `usermove`/`go`, and the endless search of `analyze`.

use super::command::Cmd;
use super::think::{self, Job};
use super::{output, Flow, Xboard};
use crate::protocol::command::GoParams;
use crate::protocol::go::{self, Plan};
use crate::protocol::searcher::Searcher;
use crate::protocol::Dialect;
use std::sync::atomic::Ordering;

impl<S: Searcher> Xboard<S> {
    pub(super) fn idle(&mut self, cmd: Cmd) -> Flow {
        // Only a move of the opponent or `go` make the engine think on a move:
        // after `new`, `setboard` or `undo` it waits for one of them.
        let mut think = false;
        match cmd {
            Cmd::Quit => return Flow::Exit,
            Cmd::Protover(_) => {
                for l in output::feature_lines() {
                    self.out.line(&l);
                }
            }
            Cmd::New => self.new_game(),
            Cmd::Variant(v) => self.variant(&v),
            Cmd::SetBoard(fen) => {
                if self.game.set_board(&fen).is_err() {
                    self.out.line("tellusererror Illegal position");
                }
            }
            Cmd::UserMove(m) => {
                if self.game.play_text(&m).is_none() {
                    self.out.line(&format!("Illegal move: {m}"));
                } else {
                    think = true;
                }
            }
            Cmd::Go => {
                if let Some(p) = self.game.position() {
                    self.game.engine = p.side_to_move();
                }
                self.game.force = false;
                think = true;
            }
            Cmd::PlayOther => {
                if let Some(p) = self.game.position() {
                    self.game.engine = p.side_to_move().flip();
                }
                self.game.force = false;
            }
            Cmd::Force | Cmd::Result(_) => self.game.force = true,
            // Old-style colour commands: the engine takes the other colour.
            Cmd::White => self.game.engine = rules::Color::Black,
            Cmd::Black => self.game.engine = rules::Color::Red,
            Cmd::Ping(n) => self.out.line(&format!("pong {n}")),
            Cmd::Post(on) => self.post.store(on, Ordering::Relaxed),
            Cmd::Analyze => self.analyzing = true,
            Cmd::Exit => self.analyzing = false,
            Cmd::Undo => self.game.take_back(1),
            Cmd::Remove => self.game.take_back(2),
            Cmd::Memory(mb) => self.set_command_option("Hash", mb, "memory"),
            Cmd::Cores(n) => self.set_command_option("Threads", n, "cores"),
            Cmd::Option { name, value } => self.set_option(&name, value.as_deref()),
            Cmd::Ponder(on) => self.ponder_on = on,
            Cmd::Hint => {
                if let Some(m) = self.hint {
                    self.out.line(&format!("Hint: {}", m.iccs()));
                }
            }
            Cmd::Level(l) => {
                self.game.clocks.level = l;
                self.game.clocks.st_ms = None;
            }
            Cmd::St(ms) => self.game.clocks.st_ms = Some(ms),
            Cmd::Sd(d) => self.game.clocks.sd = Some(d.max(1)),
            Cmd::Time(cs) => self.game.clocks.ours_cs = Some(cs),
            Cmd::Otim(cs) => self.game.clocks.theirs_cs = Some(cs),
            Cmd::Xboard
            | Cmd::Accepted(_)
            | Cmd::Rejected(_)
            | Cmd::MoveNow
            | Cmd::Draw
            | Cmd::Dot
            | Cmd::Ignored(_) => {}
        }
        self.next_search(think);
        Flow::Continue
    }

    fn new_game(&mut self) {
        // Clocks, `sd` and `st` go with the old game; `memory`/`cores` stay.
        self.game = super::game::Game::new();
        self.hint = None;
        self.variant_ok = true;
        if let Some(s) = self.searcher.as_mut() {
            s.new_game();
        }
    }

    fn variant(&mut self, name: &str) {
        if name == "xiangqi" {
            self.variant_ok = true;
        } else {
            self.out
                .line(&format!("Error (unsupported variant): {name}"));
            self.variant_ok = false;
            self.game.clear();
        }
    }

    /// `memory`/`cores` through the option table, so the limits are its limits.
    fn set_command_option(&mut self, name: &str, value: u64, command: &str) {
        if let Err(e) = self.settings.set(name, Some(&value.to_string())) {
            self.out.line(&format!("Error ({e}): {command} {value}"));
        }
    }

    /// Start what the state calls for: the analysis, or the engine's move when
    /// `think` and it is the engine's turn outside force mode.
    fn next_search(&mut self, think: bool) {
        if self.thinking.is_some() {
            return;
        }
        if !self.variant_ok {
            if think && !self.game.force {
                self.out.line("Error (unsupported variant): go");
            }
            return;
        }
        let Some(pos) = self.game.position().cloned() else {
            if think && !self.game.force {
                self.out.line("Error (no position): go");
            }
            return;
        };
        if self.analyzing {
            let g = GoParams {
                infinite: true,
                ..GoParams::default()
            };
            let plan = go::plan(&g, Dialect::Uci, &self.settings, &pos, &[]);
            self.start(plan, pos, true, None);
            return;
        }
        if !think || self.game.force || pos.side_to_move() != self.game.engine {
            return;
        }
        if let Some(r) = output::result_if_over(&pos) {
            // Nothing to play: the game is over, say how.
            self.out.line(&r);
            self.game.force = true;
            return;
        }
        let g = self.game.go_params(pos.side_to_move());
        let mut plan = go::plan(&g, Dialect::Uci, &self.settings, &pos, &[]);
        // The book answers first (with `OwnBook` on), or sets the root noise.
        let choice = self.book.choose(&mut self.settings, &pos, &[], &mut plan);
        if let Some(e) = choice.error {
            self.out.line(&format!("# {e}"));
        }
        match choice.pick {
            Some(p) => {
                self.out.line(&format!("# {}", p.note));
                self.play_own_move(p.mv, None);
            }
            None => self.start(plan, pos, false, None),
        }
    }

    /// Search `pos` under `plan` on the search thread: the engine's move, an
    /// analysis, or (with `ponder`, the opponent's expected move already
    /// played in `pos`) a ponder search.
    pub(super) fn start(
        &mut self,
        plan: Plan,
        pos: rules::Position,
        analysis: bool,
        ponder: Option<rules::Move>,
    ) {
        for w in &plan.warnings {
            self.out.line(&format!("# {w}"));
        }
        let mut searcher = match self.searcher.take() {
            Some(s) => s,
            None => {
                let mut s = (self.make_searcher)(&self.settings);
                s.set_eval(self.eval.clone());
                s
            }
        };
        searcher.configure(&self.settings, pos.side_to_move());
        self.next_id += 1;
        let job = Job {
            id: self.next_id,
            root: pos,
            limits: plan.limits,
            post: self.post.clone(),
            analysis,
            generation: self.game.generation,
            ponder,
        };
        match think::spawn(searcher, job, self.out.clone(), self.tx.clone()) {
            Ok(t) => self.thinking = Some(t),
            Err(e) => self.out.line(&format!("# {e}")),
        }
    }
}
