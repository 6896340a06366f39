//! Which evaluation the engine runs: the handcrafted one (the default) or a net.
//! `AnyEval` is what each search thread holds; one predictable branch per call.

use super::{Evaluator, Hce, Nnue};
use nets::Network;
use rules::{Move, Position};
use std::sync::Arc;

#[derive(Clone, Debug, Default)]
pub enum EvalChoice {
    #[default]
    Hce,
    Nnue(Arc<Network>),
}

impl PartialEq for EvalChoice {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (EvalChoice::Hce, EvalChoice::Hce) => true,
            (EvalChoice::Nnue(a), EvalChoice::Nnue(b)) => {
                Arc::ptr_eq(a, b) || a.as_bytes() == b.as_bytes()
            }
            _ => false,
        }
    }
}

impl Eq for EvalChoice {}

impl EvalChoice {
    /// Load a net file (`EvalFile`, `--net`): a typed error, never a silent fallback.
    pub fn load(path: impl AsRef<std::path::Path>) -> Result<EvalChoice, nets::NetError> {
        Ok(EvalChoice::Nnue(Arc::new(Network::load(path)?)))
    }

    /// The net compiled into the binary (`nets::EMBEDDED_NET`).
    pub fn embedded() -> Result<EvalChoice, nets::NetError> {
        Ok(EvalChoice::Nnue(Arc::new(nets::embedded()?)))
    }
}

#[derive(Clone, Debug)]
pub enum AnyEval {
    Hce(Hce),
    Nnue(Nnue),
}

impl AnyEval {
    pub fn new(choice: &EvalChoice) -> AnyEval {
        match choice {
            EvalChoice::Hce => AnyEval::Hce(Hce::new()),
            EvalChoice::Nnue(net) => AnyEval::Nnue(Nnue::new(Arc::clone(net))),
        }
    }
}

impl Evaluator for AnyEval {
    fn reset(&mut self, pos: &Position) {
        match self {
            AnyEval::Hce(e) => e.reset(pos),
            AnyEval::Nnue(e) => e.reset(pos),
        }
    }
    #[inline]
    fn on_make(&mut self, pos: &Position, m: Move) {
        match self {
            AnyEval::Hce(e) => e.on_make(pos, m),
            AnyEval::Nnue(e) => e.on_make(pos, m),
        }
    }
    #[inline]
    fn on_null(&mut self) {
        match self {
            AnyEval::Hce(e) => e.on_null(),
            AnyEval::Nnue(e) => e.on_null(),
        }
    }
    #[inline]
    fn on_unmake(&mut self) {
        match self {
            AnyEval::Hce(e) => e.on_unmake(),
            AnyEval::Nnue(e) => e.on_unmake(),
        }
    }
    #[inline]
    fn evaluate(&mut self, pos: &Position) -> i32 {
        match self {
            AnyEval::Hce(e) => e.evaluate(pos),
            AnyEval::Nnue(e) => e.evaluate(pos),
        }
    }
}
