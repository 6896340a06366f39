//! The mate prover beside the normal search: in a position the search already
//! scores as clearly won, the main thread lends part of its time to the mate
//! prover (`mate.rs`), in slices taken at its polls.
//!
//! Why: alpha-beta with late-move reductions finds a mate only at about twice
//! its length in depth when the mating line starts with quiet moves (an
//! advisor's move that opens the file for the king, a quiet rook move before
//! the checks); in M5-065 of the suite the search needs depth 21 and 4.5 s for
//! the mate in 5 that the prover proves in 0.6 s. A proof is exact (the
//! shortest mate, never a guess), so once one is found the search stops and
//! plays it.
//!
//! The prover runs on a thread of its own that takes turns with the main
//! thread, never at once with it: the main thread hands it a slice of time and
//! waits until the prover pauses (its whole search stack kept) or finishes. So
//! the search uses the cores the user gave it and no more, and no proof work is
//! thrown away between slices (a proof restarted at each slice never finishes a
//! subtree larger than one slice whose lines repeat).
//!
//! The share is small and starts late because the search itself finds most
//! mates fastest: measured on the mate suite (docs/MATES.md), giving the prover
//! two thirds of the time in every won position lost more mates the search
//! would have found at 1 s than the prover won. Where the search's score says
//! the game is decided (+20 pawns, or a mate of its own that may not be the
//! shortest), ten elevenths go to the prover: there the search has little
//! left to find but the mate.

use crate::mate::{MateLimits, MateProver, MateResult};
use crate::score::{is_mate, mate_in, MATE};
use rules::{Move, Position};
use std::sync::atomic::AtomicBool;
use std::sync::mpsc::{channel, Receiver, Sender};
use std::thread::Scope;
use std::time::Instant;

/// Probe only where the search already sees at least this much for the side to
/// move (centipawns): below it mates are rare and the time is better spent on
/// the search itself.
pub const PROBE_MIN_SCORE: i32 = 500;
/// ... and only after this many iterations (a very short search has no time
/// to share).
pub const PROBE_MIN_DEPTH: i32 = 5;
/// The search alone for this long (ms): most mates it finds by itself within
/// a fraction of a second, and a short search has no time to share.
pub const PROBE_DELAY_MS: u64 = 100;
/// After that, the prover may use this much time for each unit of time the
/// search used beyond the delay.
pub const PROBE_SHARE: f64 = 0.5;
/// Where the search's score is at least this (centipawns), or a mate it has
/// found, the position is decisively won: more search can hardly change the
/// move's result, and a mate is what is left to find (the shortest one, as an
/// analyst asks). The prover then gets the larger share below.
pub const PROBE_DECISIVE_SCORE: i32 = 2000;
/// The prover's time for each unit of the search's beyond the delay in a
/// decisively won position: ten elevenths of the time are the prover's.
/// Chosen on the mate suite at 1 s a position: the larger the decisive share, the
/// more of the suite is solved, at no cost at 0.1 and 0.3 s (the runs are in
/// docs/LOG.md, from docs/MATES.md).
pub const PROBE_DECISIVE_SHARE: f64 = 10.0;
const _: () = assert!(PROBE_DECISIVE_SHARE > 2.0 * PROBE_SHARE);
/// The longest mate probed for (in moves); longer proofs do not fit a move's time.
pub const PROBE_MAX_MOVES: u32 = 12;
/// Slices shorter than this (ms) are not handed over (each costs two thread
/// switches).
const PROBE_MIN_SLICE_MS: u64 = 8;
/// Nor longer than this: the main thread waits for the slice to end before it
/// sees a `ponderhit`, a `stop` it does not share with the prover, or its clock.
const PROBE_MAX_SLICE_MS: u64 = 20;
/// The prover's table is capped well below the stand-alone prover's: at
/// most 32 MiB (16-byte slots, at most half of them filled), beside the hash
/// table the user sized; past the cap old entries are evicted (mate/table.rs).
const PROBE_TABLE_MAX: usize = 1 << 20;

/// The prover's time for each unit of the search's, given the search's score.
fn share(score: i32) -> f64 {
    // Mate scores of the side to move lie above the threshold too.
    if score >= PROBE_DECISIVE_SCORE {
        PROBE_DECISIVE_SHARE
    } else {
        PROBE_SHARE
    }
}

/// A mate the prover proved: `moves` moves, the first of `line` to play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProvenMate {
    pub moves: u32,
    pub line: Vec<Move>,
}

impl ProvenMate {
    /// The search's score of this mate, from the root.
    pub fn score(&self) -> i32 {
        mate_in(2 * self.moves as usize - 1)
    }
}

/// What the prover thread says when it hands the turn back.
enum Report {
    /// Out of its slice; mates up to `proved_none` moves do not exist.
    Paused {
        proved_none: u32,
        nodes: u64,
    },
    Finished {
        result: MateResult,
        nodes: u64,
    },
}

/// The prover thread, once started.
struct Turns {
    grants: Sender<MateLimits>,
    reports: Receiver<Report>,
}

pub struct MateProbe<'scope, 'env> {
    scope: &'scope Scope<'scope, 'env>,
    pos: &'env Position,
    stop: &'env AtomicBool,
    turns: Option<Turns>,
    /// Prover nodes and time so far.
    spent: u64,
    spent_ms: u64,
    proved_none: u32,
    /// Nothing more to learn: a mate was found, or none exists within
    /// `PROBE_MAX_MOVES`, or the prover stopped.
    done: bool,
}

impl<'scope, 'env> MateProbe<'scope, 'env> {
    /// A probe of `pos` whose answers must start with one of `allowed`. The
    /// prover tries every legal move, so a root narrowed by `searchmoves` or
    /// `banmoves` is not probed at all (its shortest mate might start with a
    /// move the GUI excluded, and the one allowed be longer). The prover thread
    /// is started in `scope` at the first probe (most searches never probe).
    pub fn new(
        scope: &'scope Scope<'scope, 'env>,
        pos: &'env Position,
        allowed: &[Move],
        stop: &'env AtomicBool,
    ) -> MateProbe<'scope, 'env> {
        MateProbe {
            scope,
            pos,
            stop,
            turns: None,
            spent: 0,
            spent_ms: 0,
            proved_none: 0,
            done: allowed.len() != pos.legal_moves().len(),
        }
    }

    /// With the last completed iteration at `depth` scoring `score`,
    /// `elapsed_ms` since the search began (the prover's turns included) and
    /// `time_left_ms` before the hard limit (if any): when the position calls
    /// for it and the share allows a slice, let the prover run one. Returns
    /// the mate when one is proved.
    pub fn probe(
        &mut self,
        score: i32,
        depth: i32,
        elapsed_ms: u64,
        time_left_ms: Option<u64>,
    ) -> Option<ProvenMate> {
        if self.done || depth < PROBE_MIN_DEPTH || score < PROBE_MIN_SCORE {
            return None;
        }
        // A mate the search found may not be the shortest (it finds long ones
        // first when the short one starts quietly): look for a shorter one.
        let max = if is_mate(score) {
            ((MATE - score + 1) / 2 - 1).clamp(0, PROBE_MAX_MOVES as i32) as u32
        } else {
            PROBE_MAX_MOVES
        };
        if self.proved_none >= max {
            // Nothing shorter than the search's mate exists.
            self.done = true;
            return None;
        }
        let searched_ms = elapsed_ms.saturating_sub(self.spent_ms);
        let allowance = (searched_ms.saturating_sub(PROBE_DELAY_MS) as f64 * share(score)) as u64;
        let slice_ms = allowance
            .saturating_sub(self.spent_ms)
            .min(PROBE_MAX_SLICE_MS)
            .min(time_left_ms.unwrap_or(u64::MAX));
        if slice_ms < PROBE_MIN_SLICE_MS {
            return None;
        }
        let slice = MateLimits {
            nodes: None,
            time_ms: Some(slice_ms),
        };
        let turn = Instant::now();
        let report = match &self.turns {
            Some(t) => {
                if t.grants.send(slice).is_err() {
                    self.done = true;
                    return None;
                }
                t.reports.recv()
            }
            None => {
                let t = self.start(slice);
                let r = t.reports.recv();
                self.turns = Some(t);
                r
            }
        };
        self.spent_ms += turn.elapsed().as_millis() as u64;
        match report {
            Ok(Report::Paused { proved_none, nodes }) => {
                self.proved_none = proved_none;
                self.spent = nodes;
                None
            }
            Ok(Report::Finished { result, nodes }) => {
                self.spent = nodes;
                self.done = true;
                self.turns = None;
                self.proved_none = match &result {
                    MateResult::Mate { moves, .. } => moves - 1,
                    MateResult::NoMate { max } => *max,
                    MateResult::Unknown { searched } => *searched,
                };
                match result {
                    MateResult::Mate { moves, line } if moves <= max && !line.is_empty() => {
                        Some(ProvenMate { moves, line })
                    }
                    _ => None,
                }
            }
            Err(_) => {
                self.done = true;
                None
            }
        }
    }

    /// Start the prover thread with its first slice.
    fn start(&self, first: MateLimits) -> Turns {
        let (grants, grant_rx) = channel::<MateLimits>();
        let (report_tx, reports) = channel::<Report>();
        let pos = self.pos.clone();
        let stop = self.stop;
        self.scope.spawn(move || {
            let mut prover = MateProver::new(first, Some(stop));
            prover.set_table_max(PROBE_TABLE_MAX);
            let paused = report_tx.clone();
            prover.set_pause(Box::new(move |proved_none, nodes| {
                paused.send(Report::Paused { proved_none, nodes }).ok()?;
                // The main thread's next slice, or `None` once it has gone.
                grant_rx.recv().ok()
            }));
            // A failure in the prover must not take the search down with it: it
            // ends the probe (`Unknown`), the search goes on without it.
            let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                (prover.prove(&pos, PROBE_MAX_MOVES), prover.nodes)
            }));
            let (result, nodes) = result.unwrap_or((MateResult::Unknown { searched: 0 }, 0));
            let _ = report_tx.send(Report::Finished { result, nodes });
        });
        Turns { grants, reports }
    }

    /// Prover nodes spent so far.
    pub fn nodes(&self) -> u64 {
        self.spent
    }

    /// Prover time spent so far (ms).
    pub fn time_ms(&self) -> u64 {
        self.spent_ms
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all_moves(pos: &Position) -> Vec<Move> {
        pos.legal_moves().iter().copied().collect()
    }

    // M5-065 of the mate suite: a mate in 5 that starts with a quiet advisor
    // move (it opens the file for the king), which the search alone finds only
    // at depth 20.
    const QUIET_MATE: &str = "2nak1b2/4a4/b8/P7p/9/2P3P2/8P/2RKNr2B/3C5/2Br5 b - - 1 38";

    /// The share rises where the search sees the position decisively won (a
    /// large score or a mate of its own), and only there.
    #[test]
    fn the_prover_gets_the_larger_share_in_decisively_won_positions() {
        assert_eq!(share(PROBE_MIN_SCORE), PROBE_SHARE);
        assert_eq!(share(PROBE_DECISIVE_SCORE - 1), PROBE_SHARE);
        assert_eq!(share(PROBE_DECISIVE_SCORE), PROBE_DECISIVE_SHARE);
        assert_eq!(share(mate_in(11)), PROBE_DECISIVE_SHARE);
    }

    #[test]
    fn a_probe_proves_the_mate_within_its_share() {
        let pos = Position::from_fen(QUIET_MATE).unwrap();
        let moves = all_moves(&pos);
        let stop = AtomicBool::new(false);
        std::thread::scope(|s| {
            let mut probe = MateProbe::new(s, &pos, &moves, &stop);
            // Too shallow or too small a score: no probe.
            assert_eq!(probe.probe(2000, 4, 1 << 30, None), None);
            assert_eq!(probe.probe(300, 10, 1 << 30, None), None);
            assert_eq!(probe.nodes(), 0);
            // Nothing before the search has had its time alone.
            assert_eq!(probe.probe(1500, 10, PROBE_DELAY_MS, None), None);
            assert_eq!(probe.time_ms(), 0);
            // Then slices of a share of the search's time, each resumed where
            // the last paused, prove the mate.
            let mut found = None;
            let mut elapsed = PROBE_DELAY_MS;
            let mut slices = 0;
            while found.is_none() && elapsed < 3_600_000 {
                elapsed += 100;
                let before = probe.time_ms();
                found = probe.probe(1500, 10, elapsed, None);
                slices += (probe.time_ms() > before) as u32;
            }
            assert!(slices >= 2, "{slices} slices");
            let mate = found.expect("the mate in 5 is proved");
            assert_eq!(mate.moves, 5);
            assert_eq!(mate.score(), mate_in(9));
            let mut p = pos.clone();
            for &m in &mate.line {
                assert!(p.is_legal(m), "{mate:?}");
                p.make_move(m);
            }
            assert!(!p.has_legal_move());
            // Done: no more probes.
            let spent = probe.nodes();
            assert_eq!(probe.probe(1500, 40, 1 << 40, None), None);
            assert_eq!(probe.nodes(), spent);
        });
    }

    #[test]
    fn a_longer_mate_of_the_search_is_shortened() {
        let pos = Position::from_fen(QUIET_MATE).unwrap();
        let moves = all_moves(&pos);
        let stop = AtomicBool::new(false);
        std::thread::scope(|s| {
            // The search saw a mate in 7: the probe proves the mate in 5.
            let mut probe = MateProbe::new(s, &pos, &moves, &stop);
            let mut mate = None;
            let mut elapsed = 1_000;
            while mate.is_none() && !probe.done {
                mate = probe.probe(mate_in(13), 20, elapsed, None);
                elapsed += 1_000;
            }
            assert_eq!(mate.map(|m| m.moves), Some(5));
            // The search saw the mate in 5: the probe finds nothing shorter
            // (it proves none in 4) and is done.
            let mut probe = MateProbe::new(s, &pos, &moves, &stop);
            let mut elapsed = 1_000;
            while !probe.done {
                assert_eq!(probe.probe(mate_in(9), 20, elapsed, None), None);
                elapsed += 1_000;
            }
            assert!(probe.proved_none >= 4);
            let spent = probe.time_ms();
            assert_eq!(probe.probe(mate_in(9), 21, elapsed + 1_000, None), None);
            assert_eq!(probe.time_ms(), spent);
        });
    }

    #[test]
    fn a_mate_in_one_of_the_search_needs_no_probe() {
        let pos = Position::from_fen(QUIET_MATE).unwrap();
        let moves = all_moves(&pos);
        let stop = AtomicBool::new(false);
        std::thread::scope(|s| {
            let mut probe = MateProbe::new(s, &pos, &moves, &stop);
            assert_eq!(probe.probe(mate_in(1), 10, 1 << 30, None), None);
            assert_eq!(probe.nodes(), 0);
            assert!(probe.done);
        });
    }

    #[test]
    fn a_narrowed_root_is_not_probed() {
        let pos = Position::from_fen(QUIET_MATE).unwrap();
        let first = Move::parse_iccs("e8d7").unwrap();
        let moves: Vec<Move> = all_moves(&pos)
            .into_iter()
            .filter(|&m| m != first)
            .collect();
        let stop = AtomicBool::new(false);
        std::thread::scope(|s| {
            let mut probe = MateProbe::new(s, &pos, &moves, &stop);
            assert_eq!(probe.probe(1500, 10, 1 << 40, None), None);
            assert_eq!(probe.nodes(), 0);
        });
    }

    #[test]
    fn a_stopped_search_stops_the_probe() {
        let pos = Position::from_fen(QUIET_MATE).unwrap();
        let moves = all_moves(&pos);
        let stop = AtomicBool::new(true);
        std::thread::scope(|s| {
            let mut probe = MateProbe::new(s, &pos, &moves, &stop);
            assert_eq!(probe.probe(1500, 10, 1 << 40, None), None);
            assert!(probe.nodes() <= 1024);
            assert!(probe.done);
        });
    }
}
