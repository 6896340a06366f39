//! What a search is asked to do (`Limits`), how it is steered while it runs
//! (`SearchControl`), and what it reports (`SearchInfo`, `SearchResult`).
//! This is the contract between the protocol front-ends and the searcher.

use crate::clock::ClockReading;
use rules::Move;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Condvar, Mutex};
use std::time::Instant;

/// Limits of one `go`. Every `None`/empty field means "no limit of this kind".
#[derive(Clone, Debug, Default)]
pub struct Limits {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    /// Exact time for this move, in milliseconds.
    pub movetime_ms: Option<u64>,
    /// The side to move's clock (and the opponent's, when known).
    pub clock: Option<ClockReading>,
    /// Search until stopped (`go infinite`, and `go ponder` until `ponderhit`).
    pub infinite: bool,
    /// Only these root moves (UCI `searchmoves`); empty means all.
    pub searchmoves: Vec<Move>,
    /// Never these root moves (UCCI `banmoves`).
    pub banmoves: Vec<Move>,
    /// Number of principal variations to report (1 = normal search).
    pub multipv: usize,
    /// `go mate N`: stop as soon as a mate in at most N moves is found.
    pub mate: Option<u32>,
    /// The Ponder option is on: some thinking happens on the opponent's time, so a
    /// move may plan a little longer (see `TimeBudget::with_ponder`).
    pub ponder: bool,
    /// Score noise at the root for variety (the Randomness option); `None`: none,
    /// and the search is exactly as without this field.
    pub root_noise: Option<RootNoise>,
}

/// Root score noise: the search judges each root move by its score plus a fixed
/// offset in `[-amplitude, amplitude]` drawn from (seed, position key, move), so it
/// picks among the moves within about twice the amplitude of the best. The same
/// seed gives the same offsets: a noisy search is as reproducible as a plain one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RootNoise {
    /// Centipawns, 0..=`RootNoise::MAX_AMPLITUDE`.
    pub amplitude: i32,
    pub seed: u64,
}

impl RootNoise {
    pub const MAX_AMPLITUDE: i32 = 500;

    /// The offset of root move `m` in the position with Zobrist key `key`.
    pub fn offset(&self, key: u64, m: Move) -> i32 {
        let a = self.amplitude.clamp(0, Self::MAX_AMPLITUDE);
        if a == 0 {
            return 0;
        }
        let z = rules::rng::mix(
            self.seed ^ key.rotate_left(23) ^ u64::from(m.0).wrapping_mul(rules::rng::GOLDEN),
        );
        (z % (2 * a as u64 + 1)) as i32 - a
    }
}

/// Shared flags that the protocol's reader thread sets while a search runs. The
/// search polls the atomics; a thread that must wait for `stop` or `ponderhit`
/// (an infinite or ponder search that has finished) sleeps on `changed`.
#[derive(Debug, Default)]
pub struct SearchControl {
    stop: AtomicBool,
    pondering: AtomicBool,
    ponderhit_at: Mutex<Option<Instant>>,
    changed: Condvar,
}

impl SearchControl {
    pub fn new() -> SearchControl {
        SearchControl::default()
    }
    /// Ask the search to return as soon as possible with its best move so far.
    pub fn stop(&self) {
        // Under the lock a waiter checks under, so that the wake-up is not lost.
        let _guard = self.ponderhit_at.lock().unwrap_or_else(|e| e.into_inner());
        self.stop.store(true, Ordering::Release);
        self.changed.notify_all();
    }
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Acquire)
    }
    /// The stop flag itself, for a search that polls it (the mate prover).
    pub fn stop_flag(&self) -> &AtomicBool {
        &self.stop
    }
    /// Start of a search: clear `stop`, set whether it is a ponder search.
    pub fn reset(&self, pondering: bool) {
        self.stop.store(false, Ordering::Release);
        self.pondering.store(pondering, Ordering::Release);
        *self.ponderhit_at.lock().unwrap_or_else(|e| e.into_inner()) = None;
    }
    /// The opponent played the expected move: time limits apply from now on.
    pub fn ponderhit(&self) {
        let mut at = self.ponderhit_at.lock().unwrap_or_else(|e| e.into_inner());
        *at = Some(Instant::now());
        self.pondering.store(false, Ordering::Release);
        self.changed.notify_all();
    }

    /// Block until `stop`, or (unless `infinite`) until `ponderhit` ends pondering.
    pub fn wait_for_release(&self, infinite: bool) {
        let mut guard = self.ponderhit_at.lock().unwrap_or_else(|e| e.into_inner());
        while !self.stopped() && (infinite || self.pondering()) {
            guard = self.changed.wait(guard).unwrap_or_else(|e| e.into_inner());
        }
    }
    pub fn pondering(&self) -> bool {
        self.pondering.load(Ordering::Acquire)
    }
    /// When `ponderhit` arrived, if it did during this search.
    pub fn ponderhit_at(&self) -> Option<Instant> {
        *self.ponderhit_at.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// A score from the side to move's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns (a pawn before the river is about 100).
    Cp(i32),
    /// Mate in this many moves (full moves, not plies); negative when we are mated.
    Mate(i32),
}

/// One progress report (an `info` line).
#[derive(Clone, Debug)]
pub struct SearchInfo {
    pub depth: u32,
    pub seldepth: u32,
    /// 1-based index of the line when MultiPV > 1.
    pub multipv: usize,
    pub score: Score,
    /// Expected result per mille (win, draw, loss) for the side to move, from the
    /// self-play model of `wdl.rs`.
    pub wdl: (u32, u32, u32),
    /// The score is only a bound (aspiration fail): `Some(true)` lower, `Some(false)` upper.
    pub lower_bound: Option<bool>,
    pub time_ms: u64,
    pub nodes: u64,
    pub nps: u64,
    /// Permille of the hash table in use.
    pub hashfull: u32,
    pub pv: Vec<Move>,
    /// Set on a root-move report (`info currmove`): the root move now being searched
    /// and its 1-based number. Such a report carries no score or PV.
    pub currmove: Option<(Move, u32)>,
}

/// The outcome of a search.
#[derive(Clone, Debug)]
pub struct SearchResult {
    /// `None` when the side to move has no legal move (or every move is banned).
    pub best: Option<Move>,
    pub ponder: Option<Move>,
    pub score: Score,
    pub depth: u32,
    pub nodes: u64,
    /// Problems that did not stop the search (a helper thread that failed).
    pub errors: Vec<String>,
    /// Things to tell the user (`info string`), e.g. that no mate in N exists.
    pub notes: Vec<String>,
    /// What the main thread's search did (for tests and tuning).
    pub stats: SearchStats,
}

/// Counts of the main thread's selective decisions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchStats {
    /// Hash moves extended because every other move failed well below them.
    pub singular_extensions: u64,
    /// Nodes cut because even without the hash move they beat beta.
    pub multi_cuts: u64,
    /// Nodes cut by ProbCut.
    pub probcuts: u64,
}
