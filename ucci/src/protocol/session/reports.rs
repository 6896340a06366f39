//! Read-only reports on the position held: the per-move rule query
//! (`rulequery`) and the static evaluation (`eval`).

use super::Session;
use crate::protocol::command::clip;
use crate::protocol::eval_report::eval_report;
use crate::protocol::searcher::Searcher;
use rules::repetition::{format_ruling, query_all, query_moves};
use rules::Move;

impl<S: Searcher> Session<S> {
    /// `rulequery [MOVE…]`: one line per move, `rule MOVE none|draw|ban|win
    /// [ARTICLE…]`, as a message line of the dialect (`info string` under UCI,
    /// `info message` under UCCI). Moves in the coordinates in force.
    pub(super) fn rule_query(&mut self, words: &[String]) {
        let Some(pos) = self.pos.as_ref() else {
            self.error(&format!(
                "rulequery: no position: {}",
                self.no_position_because
            ));
            return;
        };
        let coords = self.settings.coords();
        let rules = self.settings.rules;
        let rulings = if words.is_empty() {
            query_all(pos, rules)
        } else {
            let mut moves: Vec<Move> = Vec::new();
            for w in words {
                match coords.parse(pos, w) {
                    Ok(m) => moves.push(m),
                    Err(e) => {
                        // One bad word refuses the query: a GUI must not read a
                        // partial answer as the whole one.
                        self.error(&format!("rulequery {}: {e}", clip(w)));
                        return;
                    }
                }
            }
            match query_moves(pos, &moves, rules) {
                Ok(r) => r,
                Err(e) => {
                    self.error(&format!("rulequery: {e}"));
                    return;
                }
            }
        };
        for r in &rulings {
            let text = format!("rule {} {}", coords.format(r.mv), format_ruling(r));
            self.note(&text);
        }
    }

    /// `eval`: the report of `protocol::eval_report`, as plain lines (as `d`
    /// prints the board; Stockfish and Pikafish print theirs the same way).
    pub(super) fn eval_report(&mut self) {
        let Some(pos) = self.pos.as_ref() else {
            self.error(&format!("eval: no position: {}", self.no_position_because));
            return;
        };
        for line in eval_report(pos, &self.eval) {
            self.out.line(&line);
        }
    }
}
