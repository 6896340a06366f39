//! Which evaluation the engine runs: the net compiled into the binary (the
//! default), another net file, or the handcrafted evaluation.
//! `AnyEval` is what each search thread holds; one predictable branch per call.

use super::{Evaluator, Hce, Nnue};
use nets::Network;
use rules::{Move, Position};
use std::sync::Arc;

#[derive(Clone, Debug)]
pub enum EvalChoice {
    Hce,
    Nnue(Arc<Network>),
}

/// Name of the handcrafted evaluation where a net file name is expected.
pub const HCE_NAME: &str = "<hce>";
/// Name of the net compiled into the binary where a net file name is expected.
pub const EMBEDDED_NAME: &str = "<embedded>";

impl Default for EvalChoice {
    /// The embedded net, the strongest evaluation (its measured margin over the
    /// handcrafted one is in docs/NNUE.md, kept current there rather than here).
    /// It is tested to load; were a broken build ever to ship a net that does not,
    /// say so and play on.
    fn default() -> Self {
        EvalChoice::embedded().unwrap_or_else(|e| {
            eprintln!(
                "qili: the embedded net does not load ({e}); using the handcrafted evaluation"
            );
            EvalChoice::Hce
        })
    }
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

    /// The net compiled into the binary (`nets::EMBEDDED_NET`), decoded once.
    pub fn embedded() -> Result<EvalChoice, nets::NetError> {
        static NET: std::sync::OnceLock<Result<Arc<Network>, nets::NetError>> =
            std::sync::OnceLock::new();
        NET.get_or_init(|| nets::embedded().map(Arc::new))
            .clone()
            .map(EvalChoice::Nnue)
    }

    /// The evaluation a name stands for (`EvalFile`, `--net`): `<hce>` is the
    /// handcrafted one, `<embedded>` or nothing the compiled-in net, anything else
    /// a net file to load.
    pub fn from_name(name: &str) -> Result<EvalChoice, nets::NetError> {
        match name.trim() {
            HCE_NAME => Ok(EvalChoice::Hce),
            "" | EMBEDDED_NAME => EvalChoice::embedded(),
            file => EvalChoice::load(file),
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_net_is_the_default_and_names_pick_an_evaluation() {
        let default = EvalChoice::default();
        assert!(matches!(default, EvalChoice::Nnue(_)));
        assert_eq!(
            EvalChoice::from_name(EMBEDDED_NAME).ok(),
            Some(default.clone())
        );
        assert_eq!(EvalChoice::from_name(" ").ok(), Some(default));
        assert_eq!(EvalChoice::from_name(HCE_NAME).ok(), Some(EvalChoice::Hce));
        assert!(EvalChoice::from_name("/nonexistent/qili.nnue").is_err());
    }
}
