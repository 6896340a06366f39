//! How the move picker scores the moves it generates: captures by victim,
//! attacker and capture history (`CaptureOrder`, from the search parameters),
//! quiet moves by history; and the SEE shortcut that the picker and the search
//! share.

use super::{MovePicker, OrderContext, GOOD_CAPTURE};
use crate::history::Histories;
use crate::params::SearchParams;
use rules::{GenKind, Move, Position};
use std::mem::MaybeUninit;

/// Victim value for MVV-LVA (King, Advisor, Elephant, Knight, Rook, Cannon, Pawn).
pub const VICTIM: [i32; 7] = [0, 200, 200, 400, 900, 450, 100];

/// The capture-ordering terms of the search parameters (`capture_*`) as tables by
/// piece kind: `victim[v] − attacker[a] + capture history · hist_weight / 1024`.
#[derive(Clone, Copy, Debug)]
pub struct CaptureOrder {
    victim: [i32; 7],
    attacker: [i32; 7],
    hist_weight: i32,
}

impl CaptureOrder {
    pub const fn new(p: &SearchParams) -> CaptureOrder {
        let mut victim = [0; 7];
        let mut attacker = [0; 7];
        let div = if p.capture_attacker_div > 0 {
            p.capture_attacker_div
        } else {
            1
        };
        let mut k = 0;
        while k < 7 {
            victim[k] = VICTIM[k] * p.capture_victim_mul;
            attacker[k] = VICTIM[k] / div;
            k += 1;
        }
        CaptureOrder {
            victim,
            attacker,
            hist_weight: p.capture_hist_weight,
        }
    }
}

/// The ordering of the default parameters.
pub static DEFAULT_CAPTURE_ORDER: CaptureOrder = CaptureOrder::new(&crate::params::DEFAULT);

impl MovePicker<'_> {
    pub(super) fn generate_captures(&mut self, pos: &Position, hist: &Histories) {
        pos.generate(GenKind::Captures, &mut self.moves);
        let tt_move = self.tt_move;
        let order = self.order;
        let moves = self.moves.as_mut_slice();
        let mut n = 0;
        // Compact in place: the hash move (already tried) drops out.
        for i in 0..moves.len() {
            let m = moves[i];
            if m == tt_move {
                continue;
            }
            let (Some(mover), Some(victim)) = (pos.piece_at(m.from()), pos.piece_at(m.to())) else {
                continue;
            };
            // Whether it loses material is asked when it is picked (`next`).
            let v = order.victim[victim.kind.index()] - order.attacker[mover.kind.index()]
                + hist.capture(mover, m, victim.kind) * order.hist_weight / 1024;
            moves[n] = m;
            self.scores[n] = MaybeUninit::new(GOOD_CAPTURE + v);
            n += 1;
        }
        self.moves.truncate(n);
        self.captures = n;
        self.len = n;
        self.idx = 0;
    }

    /// Generate and score the quiet moves after the captures (the hash move and the
    /// killers, already handed out, left out).
    pub(super) fn generate_quiets(&mut self, pos: &Position, hist: &Histories, ctx: &OrderContext) {
        pos.generate(GenKind::Quiets, &mut self.moves);
        let us = pos.side_to_move();
        let tt_move = self.tt_move;
        // The slots past `n_killers` hold the null move, which is never generated.
        let [k0, k1, k2] = self.killers;
        let start = self.captures;
        let moves = self.moves.as_mut_slice();
        let mut n = start;
        for i in start..moves.len() {
            let m = moves[i];
            if m == tt_move || m == k0 || m == k1 || m == k2 {
                continue;
            }
            let Some(mover) = pos.piece_at(m.from()) else {
                continue;
            };
            moves[n] = m;
            self.scores[n] = MaybeUninit::new(hist.quiet(us, m) + hist.cont(&ctx.cont, mover, m));
            n += 1;
        }
        self.moves.truncate(n);
        self.len = n;
        self.quiet_idx = start;
    }
}

/// `pos.see_ge(m, threshold)` with the common shortcut: a capture never does worse
/// than winning the victim and losing the capturer.
#[inline(always)]
pub fn see_ge(pos: &Position, m: Move, threshold: i32) -> bool {
    if let (Some(mover), Some(victim)) = (pos.piece_at(m.from()), pos.piece_at(m.to())) {
        if mover.kind != rules::PieceKind::King
            && VICTIM[victim.kind.index()] - VICTIM[mover.kind.index()] >= threshold
        {
            return true;
        }
    }
    pos.see_ge(m, threshold)
}
