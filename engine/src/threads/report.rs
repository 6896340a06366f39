//! The `info` lines of a search: each completed iteration's lines, the root move
//! being searched, and a result reported apart (a proved mate, a helper's move).

use super::{ThreadResult, CURRMOVE_AFTER_MS};
use crate::eval::Evaluator;
use crate::limits::SearchInfo;
use crate::search::Worker;
use crate::tt::TranspositionTable;
use crate::{score, wdl};
use rules::Move;
use std::cell::RefCell;
use std::time::Instant;

/// The `info` lines of one search, through the caller's callback. Root-move
/// reports and iteration reports both come from the main thread and never at
/// once, hence the RefCell.
pub(super) struct Reporter<'r> {
    pub on_info: RefCell<&'r mut dyn FnMut(&SearchInfo)>,
    pub start: Instant,
    pub tt: &'r TranspositionTable,
    /// Pieces on the board, for the win/draw/loss model.
    pub pieces: u32,
}

/// One line of a result as a GUI reads it: `score` on the search's scale.
struct Line<'p> {
    depth: u32,
    seldepth: u32,
    multipv: usize,
    score: i32,
    pv: &'p [Move],
}

impl Reporter<'_> {
    pub(super) fn elapsed_ms(&self) -> u64 {
        self.start.elapsed().as_millis() as u64
    }

    fn line(&self, line: &Line, elapsed: u64, nodes: u64) {
        let reported = score::to_report(line.score);
        (self.on_info.borrow_mut())(&SearchInfo {
            depth: line.depth,
            seldepth: line.seldepth,
            multipv: line.multipv,
            score: reported,
            wdl: wdl::MODEL.per_mille(reported, self.pieces),
            lower_bound: None,
            time_ms: elapsed,
            nodes,
            nps: nodes * 1000 / elapsed.max(1),
            hashfull: self.tt.hashfull(),
            pv: line.pv.to_vec(),
            currmove: None,
        });
    }

    /// The root move being searched; like ElephantEye and Stockfish, only in
    /// long searches.
    pub(super) fn currmove(&self, m: Move, number: usize, depth: i32, nodes: u64) {
        let elapsed = self.elapsed_ms();
        if elapsed < CURRMOVE_AFTER_MS {
            return;
        }
        (self.on_info.borrow_mut())(&SearchInfo {
            depth: depth.max(1) as u32,
            seldepth: 0,
            multipv: 1,
            score: crate::Score::Cp(0),
            wdl: (0, 1000, 0),
            lower_bound: None,
            time_ms: elapsed,
            nodes,
            nps: nodes * 1000 / elapsed.max(1),
            hashfull: 0,
            pv: Vec::new(),
            currmove: Some((m, number as u32)),
        });
    }

    /// The shown lines of the main thread's completed iteration; returns the first
    /// line's move and score (the answer must agree with the last one reported).
    pub(super) fn iteration<E: Evaluator>(
        &self,
        w: &Worker<E>,
        shown_lines: usize,
        nodes: u64,
    ) -> (Move, i32) {
        let elapsed = self.elapsed_ms();
        for (i, rm) in w.root_moves.iter().take(shown_lines).enumerate() {
            let score = rm.without_noise(if rm.score > -score::INF {
                rm.score
            } else {
                rm.prev_score
            });
            let line = Line {
                depth: w.completed_depth as u32,
                seldepth: rm.seldepth as u32,
                multipv: i + 1,
                score,
                pv: &rm.pv,
            };
            self.line(&line, elapsed, nodes);
        }
        let best = &w.root_moves[0];
        (best.mv, best.without_noise(best.score))
    }

    /// A result not reported as an iteration's line (a proved mate, a helper's
    /// deeper move): as the only line, at `seldepth`.
    pub(super) fn result(&self, r: &ThreadResult, seldepth: u32, nodes: u64) {
        let line = Line {
            depth: r.depth.max(1) as u32,
            seldepth,
            multipv: 1,
            score: r.score,
            pv: &r.pv,
        };
        self.line(&line, self.elapsed_ms(), nodes);
    }
}
