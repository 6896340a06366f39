//! CECP's `option NAME=VALUE`: the engine options the `feature option` lines
//! announce, set through the same option table as UCI/UCCI's `setoption`, with
//! the same side effects (a net or a book is loaded here, idle, off the clock).

use super::Xboard;
use crate::protocol::command::clip;
use crate::protocol::options::{Effect, Id, EMBEDDED};
use crate::protocol::searcher::{load_eval, Searcher};

impl<S: Searcher> Xboard<S> {
    pub(super) fn set_option(&mut self, name: &str, value: Option<&str>) {
        let previous_eval = self.settings.eval_file.clone();
        match self.settings.set(name, value) {
            Ok(Effect::Changed(Id::EvalFile)) => {
                let file = std::mem::replace(&mut self.settings.eval_file, previous_eval);
                match load_eval(&file) {
                    Ok(choice) => {
                        self.settings.eval_file = match file.trim() {
                            "" => EMBEDDED.to_string(),
                            f => f.to_string(),
                        };
                        if let Some(s) = self.searcher.as_mut() {
                            s.set_eval(choice.clone());
                        }
                        self.eval = choice;
                    }
                    Err(e) => self.error_line(&format!("{e}; evaluation unchanged"), name),
                }
            }
            Ok(Effect::Changed(Id::BookFile | Id::OwnBook)) => {
                if let Err(e) = self.book.sync(&mut self.settings) {
                    self.error_line(&e, name);
                }
            }
            Ok(Effect::NewGame | Effect::ClearHash) => {
                if let Some(s) = self.searcher.as_mut() {
                    s.new_game();
                }
            }
            Ok(Effect::Changed(_)) => {
                let us = self.game.engine;
                if let Some(s) = self.searcher.as_mut() {
                    s.configure(&self.settings, us);
                }
            }
            Ok(Effect::NotSupported | Effect::NoEffect) => {
                self.out.line(&format!(
                    "# option '{}' is not supported; ignored",
                    clip(name)
                ));
            }
            Err(e) => self.error_line(&e.to_string(), name),
        }
    }

    /// `Error (WHY): option NAME`, CECP's form for a refused command.
    fn error_line(&self, why: &str, name: &str) {
        self.out
            .line(&format!("Error ({why}): option {}", clip(name)));
    }
}
