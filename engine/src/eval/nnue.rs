//! The NNUE evaluation: a `nets::Network` shared by all threads behind an `Arc`, and
//! each thread's own per-ply accumulator stack, pushed in `on_make` (the position
//! before the move gives the moving and the captured piece) and popped in `on_unmake`.

use super::Evaluator;
use crate::score::EVAL_LIMIT;
use nets::{AccumulatorStack, Network};
use rules::{Move, Position};
use std::sync::Arc;

#[derive(Clone, Debug)]
pub struct Nnue {
    net: Arc<Network>,
    acc: AccumulatorStack,
}

impl Nnue {
    pub fn new(net: Arc<Network>) -> Nnue {
        Nnue {
            net,
            acc: AccumulatorStack::default(),
        }
    }
}

impl Evaluator for Nnue {
    fn reset(&mut self, pos: &Position) {
        self.acc.reset(&self.net, pos);
    }

    #[inline]
    fn on_make(&mut self, pos: &Position, m: Move) {
        self.acc.push_move(&self.net, pos, m);
    }

    #[inline]
    fn on_null(&mut self) {
        self.acc.push_null();
    }

    #[inline]
    fn on_unmake(&mut self) {
        self.acc.pop();
    }

    #[inline]
    fn evaluate(&mut self, pos: &Position) -> i32 {
        self.acc
            .evaluate(&self.net, pos)
            .clamp(-EVAL_LIMIT + 1, EVAL_LIMIT - 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn test_net() -> Arc<Network> {
        let mut f = nets::reference::init_random(3);
        f.out_w
            .iter_mut()
            .enumerate()
            .for_each(|(i, w)| *w = ((i % 7) as f32 - 3.0) * 0.4);
        Arc::new(f.quantise().expect("valid net"))
    }

    #[test]
    fn hooks_keep_the_evaluation_equal_to_a_fresh_one() {
        let net = test_net();
        let mut pos = Position::startpos();
        let mut e = Nnue::new(Arc::clone(&net));
        e.reset(&pos);
        let mut seed = 12345u64;
        let mut made = 0;
        for step in 0..400 {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let moves = pos.legal_moves();
            if made > 0 && (moves.is_empty() || (seed >> 60) < 4) {
                pos.unmake_move();
                e.on_unmake();
                made -= 1;
            } else if !moves.is_empty() {
                let m = moves.as_slice()[(seed >> 33) as usize % moves.len()];
                e.on_make(&pos, m);
                pos.make_move(m);
                made += 1;
            }
            let mut fresh = Nnue::new(Arc::clone(&net));
            fresh.reset(&pos);
            assert_eq!(
                e.evaluate(&pos),
                fresh.evaluate(&pos),
                "step {step}: {}",
                pos.to_fen()
            );
        }
    }

    #[test]
    fn evaluation_stays_inside_the_eval_band() {
        let mut f = nets::reference::FloatNet::zeros();
        f.out_b[0] = 1000.0; // far beyond any real score
        let net = Arc::new(f.quantise().expect("valid net"));
        let mut e = Nnue::new(net);
        let pos = Position::startpos();
        e.reset(&pos);
        assert_eq!(e.evaluate(&pos), EVAL_LIMIT - 1);
    }

    #[test]
    fn engine_searches_with_a_net_and_switches_back() {
        use crate::eval::EvalChoice;
        use crate::{Engine, EngineOptions, Limits, SearchControl};
        let mut engine = Engine::new(EngineOptions::default());
        let choice = EvalChoice::Nnue(test_net());
        engine.set_eval(choice.clone());
        assert_eq!(engine.eval(), &choice);
        let pos = Position::startpos();
        let limits = Limits {
            depth: Some(5),
            ..Limits::default()
        };
        let r = engine.search(&pos, &limits, &SearchControl::new(), &mut |_| {});
        let best = r.best.expect("a move");
        assert!(pos.is_legal(best));
        engine.set_eval(EvalChoice::Hce);
        assert_eq!(engine.eval(), &EvalChoice::Hce);
        assert!(EvalChoice::load("/nonexistent/qili.nnue").is_err());
    }
}
