//! The search side of the session: starting a search on its own thread, what
//! the GUI may say while it runs (`stop`, `ponderhit`, `isready`, `quit`; the rest
//! held or refused), and the `bestmove` answer once it is over, held back while
//! `go ponder` or `go infinite` has not been released.

use super::{Flow, Held, Session, Slot, Thinking};
use crate::protocol::command::{clip, Command, GoParams};
use crate::protocol::go::{self, Plan};
use crate::protocol::output::{self, Flag};
use crate::protocol::searcher::{spawn_search, Searcher};
use crate::protocol::Dialect;
use engine::{SearchControl, SearchResult};
use std::sync::Arc;

impl<S: Searcher> Session<S> {
    /// The GUI closed its end. A finite search may finish when the lines piped
    /// after it wait for it (batch mode, UCI), and those lines then run in
    /// order; any other search is stopped, as nobody will send `stop` now.
    pub(super) fn end_of_input(&mut self) -> Flow {
        self.input_ended = true;
        if self.thinking.is_none() {
            return Flow::Exit;
        }
        self.stop_unless_piped();
        if self.thinking.is_none() {
            // A held answer went out: run what waited for it.
            return self.run_deferred();
        }
        Flow::Continue
    }

    /// After the end of input: stop the current search unless it is finite and
    /// the dialect lets the lines after it wait (batch mode, UCI).
    fn stop_unless_piped(&mut self) {
        let waits = self.settings.batch || self.dialect() == Dialect::Uci;
        let Some(t) = self.thinking.as_mut() else {
            return;
        };
        let finite = t.ends_by_itself();
        if waits && finite {
            return;
        }
        t.stop_sent = true;
        t.control.stop();
        if t.held.is_some() {
            self.finish_held();
        }
    }

    pub(super) fn while_thinking(&mut self, cmd: Command, line: &str) -> Flow {
        let uci = self.dialect() == Dialect::Uci;
        let Some(t) = self.thinking.as_mut() else {
            return Flow::Continue;
        };
        let finite = t.ends_by_itself();
        // Batch mode: nothing is read during a search (UCCI §5.3). Under UCI,
        // once a `go` waits behind a finite search, so does everything after it
        // (a `stop` after it is meant for that search). A search that only ends
        // on `stop`/`ponderhit` still hears those, or it would never end.
        if finite && (self.settings.batch || (uci && self.deferred_go)) {
            self.defer(Held::Line(line.to_string()));
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
            Command::Ucci | Command::Uci => self.error("already initialised"),
            Command::Go(_) if uci => {
                self.deferred_go |= finite;
                self.defer(Held::Line(line.to_string()));
            }
            _ if uci || t.stop_sent => self.defer(Held::Line(line.to_string())),
            // Reports read the position held and leave the search alone.
            Command::RuleQuery(moves) => self.rule_query(&moves),
            Command::Display => self.display(),
            Command::Eval => self.eval_report(),
            Command::Probe(_) => self.defer(Held::Line(line.to_string())),
            // UCCI 3.0: only `stop`, `ponderhit`, `probe`, `isready` and `quit`
            // are read while thinking. A position refused now is still a
            // position the GUI meant: the one held before is no longer in force.
            Command::Position(_) | Command::BanMoves(_) => {
                let why = format!(
                    "'{}' refused while thinking (send stop first)",
                    clip(line.trim())
                );
                self.error(&why);
                self.forget_position(why);
            }
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

    pub(super) fn go(&mut self, g: &GoParams) {
        let dialect = self.dialect();
        let coords = self.settings.coords();
        let Some(root) = self.pos.clone() else {
            // Never a move for a position the GUI did not send.
            self.error(&format!(
                "no position to search: {}",
                self.no_position_because
            ));
            self.out.line(&output::bestmove_line(
                dialect,
                coords,
                None,
                None,
                Flag::None,
            ));
            return;
        };
        let mut plan: Plan = go::plan(g, dialect, &self.settings, &root, &self.banmoves);
        for w in &plan.warnings {
            self.error(w);
        }
        // The opening book answers before any search (or sets the root noise).
        let reply = self.book.go(
            dialect,
            &mut self.settings,
            &root,
            &self.banmoves,
            &mut plan,
        );
        for l in &reply.lines {
            self.out.line(l);
        }
        if reply.answered {
            return;
        }
        let us = root.side_to_move();
        let settings = self.settings.clone();
        let Some(searcher) = self.searcher() else {
            self.error("no searcher available");
            return;
        };
        searcher.configure(&settings, us);
        let Slot::Ready(searcher) = std::mem::replace(&mut self.searcher, Slot::Busy) else {
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
            bounded: {
                let l = &plan.limits;
                l.depth.is_some()
                    || l.nodes.is_some()
                    || l.movetime_ms.is_some()
                    || l.clock.is_some()
            },
            stop_sent: false,
            draw_offered: plan.draw_offered,
            depth_zero: plan.depth_zero,
            held: None,
            root: root.clone(),
            banmoves: self.banmoves.clone(),
        };
        let pos = root;
        let limits = plan.limits;
        let out = self.out.clone();
        let tx = self.tx.clone();
        let style = output::InfoStyle {
            multipv: limits.multipv > 1,
            wdl: self.settings.show_wdl,
            coords: self.settings.coords(),
        };
        let on_info = move |i: &engine::SearchInfo| {
            out.line(&output::info_line(dialect, i, style));
        };
        let spawned = spawn_search(searcher, id, pos, limits, control, tx, on_info);
        match spawned {
            Ok(_) => {
                self.thinking = Some(t);
                if self.input_ended {
                    // Started from lines piped before the end of input.
                    self.stop_unless_piped();
                }
            }
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

    pub(super) fn search_done(
        &mut self,
        id: u64,
        searcher: Option<S>,
        result: Option<SearchResult>,
    ) -> Flow {
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
        for e in result.iter().flat_map(|r| &r.errors) {
            self.error(e);
        }
        for n in result.iter().flat_map(|r| &r.notes) {
            self.note(n);
        }
        let (best, ponder, flag) = match result {
            Some(r) if t.depth_zero => {
                let _ = r;
                (None, None, Flag::None)
            }
            Some(r) if r.best.is_none() && !t.root.has_legal_move() => {
                // Mated, or left without a move (困毙): say so the way a GUI reads
                // a lost position before the empty answer.
                self.out.line(&output::mated_info_line(dialect));
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
        self.out.line(&output::bestmove_line(
            dialect,
            self.settings.coords(),
            best,
            ponder,
            flag,
        ));
    }

    /// Run the lines held during the search, as if they arrived now (a `go`
    /// among them starts a search, and the lines after it wait for that one).
    fn run_deferred(&mut self) -> Flow {
        self.deferred_go = false;
        let held: Vec<Held> = self.deferred.drain(..).collect();
        for h in held {
            let flow = match h {
                Held::Line(line) => self.handle_line(&line),
                Held::TooLong(n) => {
                    self.too_long(n);
                    Flow::Continue
                }
            };
            if flow == Flow::Exit {
                return Flow::Exit;
            }
        }
        let ended = self.exit_after_search || self.input_ended;
        if ended && self.thinking.is_none() {
            return self.exit();
        }
        Flow::Continue
    }
}
