//! Per-perspective accumulators (the first layer's pre-activations) and the per-ply
//! stack the search pushes on make and pops on unmake.

use crate::features;
use crate::simd::{self, Backend};
use crate::{Network, HIDDEN, QA, QB, SCALE};
use rules::{Color, Move, Piece, Position, Square};

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

    /// Evaluation in centipawns from `stm`'s point of view through output head `bucket`
    /// (`Network::bucket_of` picks it for a position; 0 for a one-head net).
    pub fn evaluate(&self, net: &Network, stm: Color, bucket: usize, backend: Backend) -> i32 {
        let (w_us, w_them) = net.out_halves(bucket);
        let us = simd::screlu_dot(backend, &self.v[stm.index()], w_us);
        let them = simd::screlu_dot(backend, &self.v[stm.flip().index()], w_them);
        // QA²·QB → QA·QB, add the bias (QA·QB), then to centipawns.
        let out = (us + them) / QA as i64 + net.out_bias(bucket) as i64;
        (out * SCALE as i64 / (QA * QB) as i64) as i32
    }

    /// `evaluate` through every output head in turn, head 0 first: what each head
    /// would say about this position, in centipawns from `stm`'s point of view (the
    /// `eval` report shows them all; search asks only for the head `bucket_of` picks).
    pub fn evaluate_every_bucket(&self, net: &Network, stm: Color, backend: Backend) -> Vec<i32> {
        (0..net.buckets())
            .map(|bucket| self.evaluate(net, stm, bucket, backend))
            .collect()
    }
}

/// What one push changed: a piece moved (and maybe took one), or nothing (a null move,
/// or a move that does not fit the board, which a caller bug could hand over).
#[derive(Clone, Copy, Debug)]
enum Delta {
    Same,
    Move {
        piece: Piece,
        from: Square,
        to: Square,
        captured: Option<Piece>,
    },
}

/// One ply of the line: its accumulator, valid only when `computed`, and the change
/// from the ply before.
#[derive(Clone, Copy, Debug)]
struct Entry {
    acc: Accumulator,
    delta: Delta,
    computed: bool,
}

const BLANK: Entry = Entry {
    acc: Accumulator {
        v: [[0; HIDDEN]; 2],
    },
    delta: Delta::Same,
    computed: false,
};

/// One accumulator per ply of the current line, updated lazily: a push only records
/// the move, and the sums are brought up to date (from the nearest computed ply) when
/// an evaluation asks for them. Search skips the evaluation at many nodes (hash cuts,
/// nodes in check, a stored static evaluation), and those then cost no vector work.
/// The sums are exact integer arithmetic, so the result is the same as updating at
/// every push.
#[derive(Clone, Debug)]
pub struct AccumulatorStack {
    /// `entries[..len]` is the line; the rest is kept allocated for reuse.
    entries: Vec<Entry>,
    len: usize,
    backend: Backend,
}

impl Default for AccumulatorStack {
    fn default() -> Self {
        AccumulatorStack::new(Backend::detect())
    }
}

impl AccumulatorStack {
    /// A stack running `backend`'s kernels (a token only detection hands out for
    /// fast kernels, so any one given runs on this CPU).
    pub fn new(backend: Backend) -> AccumulatorStack {
        AccumulatorStack {
            entries: Vec::with_capacity(256),
            len: 0,
            backend,
        }
    }

    pub fn backend(&self) -> Backend {
        self.backend
    }

    pub fn depth(&self) -> usize {
        self.len
    }

    /// Start again from `pos`.
    pub fn reset(&mut self, net: &Network, pos: &Position) {
        self.len = 0;
        let acc = Accumulator::refresh(net, pos, self.backend);
        self.push_entry(Delta::Same);
        self.entries[0].acc = acc;
        self.entries[0].computed = true;
    }

    #[inline(always)]
    fn push_entry(&mut self, delta: Delta) {
        if self.len == self.entries.len() {
            self.entries.push(BLANK);
        }
        let e = &mut self.entries[self.len];
        e.delta = delta;
        e.computed = false;
        self.len += 1;
    }

    /// The accumulator of the current position. Before any `reset` it is all zero.
    pub fn current(&self, net: &Network) -> Accumulator {
        let Some(top) = self.len.checked_sub(1) else {
            return BLANK.acc;
        };
        let start = (0..=top).rev().find(|&i| self.entries[i].computed);
        let (mut acc, first) = match start {
            Some(i) => (self.entries[i].acc, i + 1),
            None => (BLANK.acc, 0),
        };
        for e in &self.entries[first..=top] {
            let prev = acc;
            apply(net, self.backend, e.delta, &prev, &mut acc);
        }
        acc
    }

    /// Bring the top entry up to date and return it.
    #[inline]
    fn materialise(&mut self, net: &Network) -> &Accumulator {
        let top = self.len - 1;
        if !self.entries[top].computed {
            let mut first = top;
            while first > 0 && !self.entries[first - 1].computed {
                first -= 1;
            }
            for i in first..=top {
                let delta = self.entries[i].delta;
                if i == 0 {
                    // Pushes before any reset start from zero.
                    let (dst, zero) = (&mut self.entries[0].acc, BLANK.acc);
                    apply(net, self.backend, delta, &zero, dst);
                } else {
                    let (done, rest) = self.entries.split_at_mut(i);
                    apply(net, self.backend, delta, &done[i - 1].acc, &mut rest[0].acc);
                }
                self.entries[i].computed = true;
            }
        }
        &self.entries[top].acc
    }

    /// `m` is about to be made on `pos` (the position before the move).
    #[inline]
    pub fn push_move(&mut self, _net: &Network, pos: &Position, m: Move) {
        let (from, to) = (m.from(), m.to());
        let delta = match pos.piece_at(from) {
            Some(piece) => Delta::Move {
                piece,
                from,
                to,
                captured: pos.piece_at(to),
            },
            // Not a move on this board (a caller bug): keep the stack balanced.
            None => Delta::Same,
        };
        self.push_entry(delta);
    }

    /// A null move: the pieces stay, only the side to move changes.
    #[inline]
    pub fn push_null(&mut self) {
        self.push_entry(Delta::Same);
    }

    /// Take back the last push (the root entry stays).
    #[inline]
    pub fn pop(&mut self) {
        if self.len > 1 {
            self.len -= 1;
        }
    }

    /// Evaluation of `pos` (which must be the position this stack follows).
    pub fn evaluate(&mut self, net: &Network, pos: &Position) -> i32 {
        let backend = self.backend;
        let (stm, bucket) = (pos.side_to_move(), net.bucket_of(pos));
        if self.len == 0 {
            return Accumulator::refresh(net, pos, backend).evaluate(net, stm, bucket, backend);
        }
        self.materialise(net).evaluate(net, stm, bucket, backend)
    }
}

/// `dst = src` changed by `delta`, both perspectives in one pass.
#[inline(always)]
fn apply(net: &Network, backend: Backend, delta: Delta, src: &Accumulator, dst: &mut Accumulator) {
    match delta {
        Delta::Same => *dst = *src,
        Delta::Move {
            piece,
            from,
            to,
            captured,
        } => {
            let cols = |p: Piece, s: Square| {
                [
                    net.ft_column(features::index(Color::Red, p, s)),
                    net.ft_column(features::index(Color::Black, p, s)),
                ]
            };
            let add = cols(piece, to);
            let sub = cols(piece, from);
            match captured {
                Some(x) => simd::update_pair(backend, dst, src, add, sub, Some(cols(x, to))),
                None => simd::update_pair(backend, dst, src, add, sub, None),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rules::rng::Rng;

    /// Evaluations asked for at random plies (so that some pushes are brought up to date
    /// many plies later, some never) equal a fresh accumulator's, on both backends.
    #[test]
    fn lazy_updates_equal_a_refresh_wherever_evaluate_is_asked() {
        for heads in [1, 8] {
            lazy_updates_equal_a_refresh(heads);
        }
    }

    fn lazy_updates_equal_a_refresh(heads: usize) {
        let mut f = crate::reference::init_random_bucketed(21, heads);
        f.out_w
            .iter_mut()
            .enumerate()
            .for_each(|(i, w)| *w = ((i % 5) as f32 - 2.0) * 0.3);
        let net = f.quantise().expect("valid net");
        let mut rng = Rng::new(22);
        for backend in [Backend::SCALAR, Backend::detect()] {
            let mut pos = Position::startpos();
            let mut stack = AccumulatorStack::new(backend);
            stack.reset(&net, &pos);
            let (mut made, mut evaluated) = (0usize, 0);
            for _ in 0..3000 {
                let moves = pos.legal_moves();
                let r = rng.below(10);
                if made > 0 && (r < 3 || moves.is_empty() || made > 40) {
                    pos.unmake_move();
                    stack.pop();
                    made -= 1;
                } else if r == 3 && !pos.in_check() {
                    stack.push_null();
                    pos.make_null_move();
                    made += 1;
                } else if !moves.is_empty() {
                    let m = moves.as_slice()[rng.below(moves.len())];
                    stack.push_move(&net, &pos, m);
                    pos.make_move(m);
                    made += 1;
                }
                let fresh = Accumulator::refresh(&net, &pos, backend);
                if rng.below(4) == 0 {
                    evaluated += 1;
                    assert_eq!(
                        stack.evaluate(&net, &pos),
                        fresh.evaluate(&net, pos.side_to_move(), net.bucket_of(&pos), backend),
                        "{}",
                        pos.to_fen()
                    );
                }
                assert_eq!(stack.current(&net), fresh, "{}", pos.to_fen());
                if rng.below(16) == 0 {
                    let every = fresh.evaluate_every_bucket(&net, pos.side_to_move(), backend);
                    assert_eq!(every.len(), heads);
                    assert_eq!(
                        every[net.bucket_of(&pos)],
                        fresh.evaluate(&net, pos.side_to_move(), net.bucket_of(&pos), backend),
                        "{}",
                        pos.to_fen()
                    );
                }
            }
            assert!(evaluated > 500);
        }
    }
}
