//! Per-perspective accumulators (the first layer's pre-activations) and the per-ply
//! stack the search pushes on make and pops on unmake.

use crate::features;
use crate::simd::{self, Backend};
use crate::{Network, HIDDEN, QA, QB, SCALE};
use rules::{Color, Move, Position};

/// First-layer sums for Red's perspective (`v[0]`) and Black's (`v[1]`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(64))]
pub struct Accumulator {
    pub v: [[i16; HIDDEN]; 2],
}

impl Accumulator {
    /// From scratch: biases plus the column of every piece.
    pub fn refresh(net: &Network, pos: &Position, backend: Backend) -> Accumulator {
        let mut acc = Accumulator {
            v: [*net.ft_biases(); 2],
        };
        for s in pos.occupied() {
            if let Some(p) = pos.piece_at(s) {
                for c in Color::BOTH {
                    let col = net.ft_column(features::index(c, p, s));
                    let src = acc.v[c.index()];
                    simd::update(backend, &mut acc.v[c.index()], &src, &[col], &[]);
                }
            }
        }
        acc
    }

    /// Evaluation in centipawns from `stm`'s point of view.
    pub fn evaluate(&self, net: &Network, stm: Color, backend: Backend) -> i32 {
        let (w_us, w_them) = net.out_halves();
        let us = simd::screlu_dot(backend, &self.v[stm.index()], w_us) as i64;
        let them = simd::screlu_dot(backend, &self.v[stm.flip().index()], w_them) as i64;
        // QA²·QB → QA·QB, add the bias (QA·QB), then to centipawns.
        let out = (us + them) / QA as i64 + net.out_bias() as i64;
        (out * SCALE as i64 / (QA * QB) as i64) as i32
    }
}

/// One accumulator per ply of the current line.
#[derive(Clone, Debug)]
pub struct AccumulatorStack {
    stack: Vec<Accumulator>,
    backend: Backend,
}

impl Default for AccumulatorStack {
    fn default() -> Self {
        AccumulatorStack::new(Backend::detect())
    }
}

impl AccumulatorStack {
    /// `backend` must be available on this CPU; an unavailable one falls back to scalar
    /// (same results, only slower).
    pub fn new(backend: Backend) -> AccumulatorStack {
        AccumulatorStack {
            stack: Vec::with_capacity(256),
            backend: if backend.available() {
                backend
            } else {
                Backend::Scalar
            },
        }
    }

    pub fn backend(&self) -> Backend {
        self.backend
    }

    pub fn depth(&self) -> usize {
        self.stack.len()
    }

    /// Start again from `pos`.
    pub fn reset(&mut self, net: &Network, pos: &Position) {
        self.stack.clear();
        self.stack
            .push(Accumulator::refresh(net, pos, self.backend));
    }

    /// The accumulator of the current position. Before any `reset` it is all zero.
    pub fn current(&self) -> Accumulator {
        self.stack.last().copied().unwrap_or(Accumulator {
            v: [[0; HIDDEN]; 2],
        })
    }

    /// `m` is about to be made on `pos` (the position before the move).
    pub fn push_move(&mut self, net: &Network, pos: &Position, m: Move) {
        let prev = self.current();
        let (from, to) = (m.from(), m.to());
        let Some(piece) = pos.piece_at(from) else {
            // Not a move on this board (a caller bug): keep the stack balanced.
            self.stack.push(prev);
            return;
        };
        let captured = pos.piece_at(to);
        let mut next = prev;
        for c in Color::BOTH {
            let add = net.ft_column(features::index(c, piece, to));
            let sub = net.ft_column(features::index(c, piece, from));
            let i = c.index();
            match captured {
                Some(x) => {
                    let cap = net.ft_column(features::index(c, x, to));
                    simd::update(
                        self.backend,
                        &mut next.v[i],
                        &prev.v[i],
                        &[add],
                        &[sub, cap],
                    );
                }
                None => simd::update(self.backend, &mut next.v[i], &prev.v[i], &[add], &[sub]),
            }
        }
        self.stack.push(next);
    }

    /// A null move: the pieces stay, only the side to move changes.
    pub fn push_null(&mut self) {
        let prev = self.current();
        self.stack.push(prev);
    }

    /// Take back the last push (the root entry stays).
    pub fn pop(&mut self) {
        if self.stack.len() > 1 {
            self.stack.pop();
        }
    }

    /// Evaluation of `pos` (which must be the position this stack follows).
    pub fn evaluate(&self, net: &Network, pos: &Position) -> i32 {
        match self.stack.last() {
            Some(a) => a.evaluate(net, pos.side_to_move(), self.backend),
            None => Accumulator::refresh(net, pos, self.backend).evaluate(
                net,
                pos.side_to_move(),
                self.backend,
            ),
        }
    }
}
