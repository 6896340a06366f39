//! The evaluation interface. Search talks only to `Evaluator`, so that the NNUE of
//! a later issue replaces the handcrafted evaluation without touching search.
//!
//! The hooks bracket every move the search plays: `on_make(pos, m)` is called with
//! the position *before* `m` is made (an accumulator can read the moving and the
//! captured piece there), `on_null` before a null move, and `on_unmake` after each
//! take-back. `evaluate` then sees the position after the move.

mod choice;
mod hce;
mod hce_values;
mod nnue;
pub mod params;
mod tables;
/// The Texel tuner of the handcrafted evaluation: built for `qili tune-hce`, not
/// for the engine that only plays.
#[cfg(feature = "tune")]
pub mod tune;

pub use choice::{AnyEval, EvalChoice, EMBEDDED_NAME, HCE_NAME};
pub use hce::{evaluate_with, hce_terms, Hce, HceTerms};
pub use hce_values::HCE_PARAMS;
pub use nnue::Nnue;
pub use params::HceParams;

use rules::{Move, Position};

pub trait Evaluator: Clone + Send {
    /// Start from scratch at the root position.
    fn reset(&mut self, pos: &Position);
    /// `m` is about to be made on `pos`.
    fn on_make(&mut self, pos: &Position, m: Move);
    /// A null move is about to be made.
    fn on_null(&mut self);
    /// The last move (or null move) was taken back.
    fn on_unmake(&mut self);
    /// Score of `pos` in centipawns from the side to move's view, within `score::EVAL_LIMIT`.
    fn evaluate(&mut self, pos: &Position) -> i32;
}
