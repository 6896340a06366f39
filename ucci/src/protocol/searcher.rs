//! What the session needs from a searcher, and `engine::Engine` behind it. The
//! session owns the searcher while idle and moves it into a search thread for
//! each `go`; the thread hands it back with the result.

use super::options::Settings;
use engine::eval::EvalChoice;
use engine::{
    Engine, EngineOptions, Limits, Score, SearchControl, SearchInfo, SearchResult, Strength,
};
use rules::repetition::{CheckCounting, NaturalLimit};
use rules::{Color, Move, Position};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::mpsc::Sender;

/// The search thread recurses deeply; give it room.
const SEARCH_STACK: usize = 64 << 20;

pub trait Searcher: Send + 'static {
    /// Bring the searcher in line with the options; `us` is the side the engine
    /// plays in the coming search (draw values are per colour).
    fn configure(&mut self, settings: &Settings, us: Color);
    fn new_game(&mut self);
    fn search(
        &mut self,
        pos: &Position,
        limits: &Limits,
        control: &SearchControl,
        on_info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult;
    fn probe(&self, pos: &Position) -> Option<(Move, Score, u32)>;
    /// Evaluate with this net (or the handcrafted evaluation).
    fn set_eval(&mut self, eval: EvalChoice);
}

/// The evaluation an `EvalFile` value names: `<embedded>` (or nothing) is the
/// compiled-in net, `<hce>` the handcrafted evaluation, anything else a net file.
pub fn load_eval(file: &str) -> Result<EvalChoice, String> {
    EvalChoice::from_name(file)
        .map_err(|e| format!("EvalFile '{}': {e}", super::command::clip(file.trim())))
}

/// The engine options the protocol settings stand for.
pub fn engine_options(s: &Settings, us: Color) -> EngineOptions {
    // "Draw Value" is what a draw is worth to the engine; the opponent sees the
    // mirror image, so the search stays zero-sum.
    let (red, black) = match us {
        Color::Red => (s.draw_value, -s.draw_value),
        Color::Black => (-s.draw_value, s.draw_value),
    };
    EngineOptions {
        threads: s.threads,
        hash_mb: s.hash_mb,
        rules: s.rules,
        natural_limit: NaturalLimit {
            moves: s.natural_limit,
            checks: match s.natural_checks {
                0 => CheckCounting::All,
                n => CheckCounting::AtMost(n),
            },
        },
        draw_value_red: red,
        draw_value_black: black,
        move_overhead_ms: s.move_overhead_ms,
        // UCI_LimitStrength with UCI_Elo wins over Skill Level (as in Stockfish).
        params: s.params,
        strength: if s.limit_strength {
            Strength::from_elo(s.elo)
        } else {
            Strength::from_level(s.skill_level)
        },
    }
}

impl Searcher for Engine {
    fn configure(&mut self, settings: &Settings, us: Color) {
        let o = engine_options(settings, us);
        // Only when something changed: a new hash size reallocates the table.
        if *self.options() != o {
            self.set_options(o);
        }
    }

    fn new_game(&mut self) {
        Engine::new_game(self);
    }

    fn search(
        &mut self,
        pos: &Position,
        limits: &Limits,
        control: &SearchControl,
        on_info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        Engine::search(self, pos, limits, control, on_info)
    }

    fn probe(&self, pos: &Position) -> Option<(Move, Score, u32)> {
        Engine::probe(self, pos)
    }

    fn set_eval(&mut self, eval: EvalChoice) {
        Engine::set_eval(self, eval);
    }
}

/// Run one search on a thread of its own: the searcher moves into the thread
/// and comes back in `Event::Done` with the result, tagged with `id` (`None`
/// for both when the search panicked). `on_info` sees each iteration on the
/// search thread. If the thread cannot start, the searcher is lost with it.
pub fn spawn_search<S: Searcher>(
    mut searcher: S,
    id: u64,
    pos: Position,
    limits: Limits,
    control: std::sync::Arc<SearchControl>,
    tx: Sender<super::Event<S>>,
    mut on_info: impl FnMut(&SearchInfo) + Send + 'static,
) -> std::io::Result<()> {
    std::thread::Builder::new()
        .name("qili-search".into())
        .stack_size(SEARCH_STACK)
        .spawn(move || {
            let outcome = catch_unwind(AssertUnwindSafe(|| {
                searcher.search(&pos, &limits, &control, &mut on_info)
            }));
            let (searcher, result) = match outcome {
                Ok(r) => (Some(searcher), Some(r)),
                Err(_) => (None, None),
            };
            let _ = tx.send(super::Event::Done {
                id,
                searcher,
                result,
            });
        })
        .map(|_| ())
}
