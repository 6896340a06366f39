//! Qili's search: evaluation, alpha-beta, hash table, lazy SMP, mate prover and time manager.
//!
//! Evaluation behind the `Evaluator` interface, alpha-beta with a shared lock-free
//! hash table, lazy SMP, and repetition scores taken from the 棋例 verdicts of
//! `rules::repetition`.

pub mod bench_positions;
pub mod clock;
pub mod eval;
pub mod history;
pub mod limits;
pub mod mate;
pub mod mate_probe;
pub mod movepick;
pub mod params;
pub mod score;
mod search;
mod stop;
pub mod strength;
mod threads;
pub mod timeman;
pub mod tt;
pub mod wdl;

pub use clock::{Clock, ClockReading, GuiLag, Stage, TimeControl};
pub use limits::{Limits, RootNoise, Score, SearchControl, SearchInfo, SearchResult, SearchStats};
pub use strength::Strength;
pub use timeman::TimeBudget;

use eval::{AnyEval, EvalChoice};
use history::Histories;
use rules::repetition::{NaturalLimit, RuleSet};
use rules::{Move, Position};
use tt::TranspositionTable;

/// Engine settings (the protocol's options).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineOptions {
    pub threads: usize,
    pub hash_mb: usize,
    pub rules: RuleSet,
    pub natural_limit: NaturalLimit,
    /// Value of a draw in centipawns from each side's own point of view (tie-break
    /// games where a draw counts as a win for Black: e.g. red -x, black +x).
    pub draw_value_red: i32,
    pub draw_value_black: i32,
    pub move_overhead_ms: u64,
    /// Full strength, or a weakened level (`Skill Level`, `UCI_Elo`).
    pub strength: Strength,
    /// The search's constants (tuned by SPSA; `params::DEFAULT` normally).
    pub params: params::SearchParams,
}

impl Default for EngineOptions {
    fn default() -> Self {
        EngineOptions {
            threads: 1,
            hash_mb: 64,
            rules: RuleSet::Axf,
            natural_limit: NaturalLimit::default(),
            draw_value_red: 0,
            draw_value_black: 0,
            move_overhead_ms: DEFAULT_MOVE_OVERHEAD_MS,
            strength: Strength::FULL,
            params: params::DEFAULT,
        }
    }
}

/// The least lag (ms) the time manager assumes per move (`Move Overhead`). It
/// measures the real lag from the clocks, and a local GUI's is a few ms.
pub const DEFAULT_MOVE_OVERHEAD_MS: u64 = 2;

/// Largest hash table accepted (MiB); larger requests are clamped.
pub const MAX_HASH_MB: usize = 1 << 16;
/// Most search threads accepted.
pub const MAX_THREADS: usize = 256;

pub struct Engine {
    options: EngineOptions,
    /// The evaluation every search thread runs (handcrafted unless a net is set).
    eval: EvalChoice,
    tt: TranspositionTable,
    /// One set of move-ordering statistics per thread, kept between moves.
    histories: Vec<Histories>,
    /// Drives the noise of a weakened level; a new value for each search.
    noise_seed: u64,
    /// The lag of the current game, learnt from its clocks.
    lag: timeman::LagTracker,
}

impl Engine {
    pub fn new(options: EngineOptions) -> Engine {
        let options = sanitize(options);
        Engine {
            tt: TranspositionTable::new(options.hash_mb),
            histories: (0..options.threads).map(|_| Histories::new()).collect(),
            options,
            eval: EvalChoice::default(),
            lag: timeman::LagTracker::new(),
            noise_seed: std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos() as u64),
        }
    }

    /// Fix the noise of a weakened level (tests and reproducible games).
    pub fn set_noise_seed(&mut self, seed: u64) {
        self.noise_seed = seed;
    }

    /// Evaluate with a net, or with the handcrafted evaluation again.
    pub fn set_eval(&mut self, eval: EvalChoice) {
        self.eval = eval;
    }

    pub fn eval(&self) -> &EvalChoice {
        &self.eval
    }

    pub fn options(&self) -> &EngineOptions {
        &self.options
    }

    pub fn set_options(&mut self, o: EngineOptions) {
        let o = sanitize(o);
        if o.hash_mb != self.options.hash_mb {
            self.tt = TranspositionTable::new(o.hash_mb);
        }
        self.histories.resize_with(o.threads, Histories::new);
        self.options = o;
    }

    /// Forget everything learnt: hash table and histories.
    pub fn new_game(&mut self) {
        self.lag.clear();
        self.tt.clear();
        for h in self.histories.iter_mut() {
            h.clear();
        }
    }

    /// The hash move, score and depth stored for `pos`, if any (UCCI `probe`).
    pub fn probe(&self, pos: &Position) -> Option<(Move, Score, u32)> {
        let h = self.tt.probe(pos.key())?;
        if h.mv.is_null() || !pos.is_legal(h.mv) {
            return None;
        }
        Some((
            h.mv,
            score::to_report(score::from_tt(h.score, 0)),
            h.depth.max(0) as u32,
        ))
    }

    pub fn hashfull(&self) -> u32 {
        self.tt.hashfull()
    }

    /// Search `pos` (which carries the game history, so repetitions with the game
    /// are seen) under `limits`, reporting each iteration through `on_info`.
    pub fn search(
        &mut self,
        pos: &Position,
        limits: &Limits,
        control: &SearchControl,
        on_info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        let root = root_moves(pos, limits);
        if root.is_empty() {
            let no_legal = !pos.has_legal_move();
            threads::wait_while_required(limits, control);
            return SearchResult {
                best: None,
                ponder: None,
                score: if no_legal {
                    Score::Mate(0)
                } else {
                    Score::Cp(0)
                },
                depth: 0,
                nodes: 0,
                errors: Vec::new(),
                notes: Vec::new(),
                stats: SearchStats::default(),
            };
        }
        let ply = pos.game_ply() as u32;
        if let Some(tc) = &limits.clock {
            self.lag.before_search(tc, ply);
        }
        let lag = self.lag.lag(self.options.move_overhead_ms);
        let budget = limits
            .clock
            .map(|tc| timeman::allocate(&tc, &lag, ply, &self.options.params))
            .map(|b| if limits.ponder { b.with_ponder() } else { b });
        self.tt.new_search();
        for h in self.histories.iter_mut() {
            h.new_search();
        }
        self.noise_seed = self.noise_seed.wrapping_add(rules::rng::GOLDEN);
        // `go mate N`: the mate prover first; the normal search only if it finds
        // no mate the GUI allows.
        let mut notes = Vec::new();
        let mut fallback = limits.clone();
        if let Some(n) = limits.mate {
            let hard = limits.movetime_ms.or(budget.map(|b| b.hard_ms));
            match prove_mate(pos, n, limits, hard, control, on_info) {
                MateOutcome::Found(r) => {
                    threads::wait_while_required(limits, control);
                    return *r;
                }
                MateOutcome::None(note) => {
                    notes.push(note);
                    // No mate exists: a short search answers, unless the GUI set
                    // limits of its own.
                    let unlimited = limits.depth.is_none()
                        && limits.nodes.is_none()
                        && limits.movetime_ms.is_none()
                        && limits.clock.is_none();
                    if unlimited {
                        fallback.depth = Some((2 * n + 2).clamp(6, 24));
                    }
                    fallback.mate = None;
                }
                MateOutcome::Unknown(note) => notes.push(note),
            }
        }
        let limits = &fallback;
        let job = threads::Job {
            pos,
            root: &root,
            limits,
            control,
            options: &self.options,
            tt: &self.tt,
            budget,
            noise_seed: self.noise_seed,
        };
        let choice = &self.eval;
        let (result, counted_ms) =
            threads::run(job, &mut self.histories, |_| AnyEval::new(choice), on_info);
        match (&limits.clock, counted_ms) {
            (Some(tc), Some(ms)) => self.lag.after_search(tc, ply, ms),
            _ => self.lag.forget_last(),
        }
        SearchResult { notes, ..result }
    }

    /// The lag the time manager plans with now (measured from the clocks of this
    /// game, never below Move Overhead).
    pub fn lag(&self) -> timeman::Lag {
        self.lag.lag(self.options.move_overhead_ms)
    }
}

/// Keep option values within what the engine supports.
fn sanitize(mut o: EngineOptions) -> EngineOptions {
    o.threads = o.threads.clamp(1, MAX_THREADS);
    o.hash_mb = o.hash_mb.clamp(1, MAX_HASH_MB);
    o.draw_value_red = o
        .draw_value_red
        .clamp(-score::EVAL_LIMIT, score::EVAL_LIMIT);
    o.draw_value_black = o
        .draw_value_black
        .clamp(-score::EVAL_LIMIT, score::EVAL_LIMIT);
    o
}

/// Legal root moves allowed by `searchmoves` and `banmoves`, captures first.
fn root_moves(pos: &Position, limits: &Limits) -> Vec<Move> {
    let mut v: Vec<Move> = pos
        .legal_moves()
        .iter()
        .copied()
        .filter(|m| limits.searchmoves.is_empty() || limits.searchmoves.contains(m))
        .filter(|m| !limits.banmoves.contains(m))
        .collect();
    v.sort_by_key(|&m| {
        -pos.piece_at(m.to())
            .map_or(0, |p| movepick::VICTIM[p.kind.index()])
    });
    v
}

/// What the mate prover brought to a `go mate N`.
enum MateOutcome {
    Found(Box<SearchResult>),
    /// Proved: no mate within N (the note says so).
    None(String),
    /// Out of limits before a proof either way.
    Unknown(String),
}

/// Run the mate prover for `go mate n` within the search's node and time limits;
/// a mate whose first move `searchmoves`/`banmoves` allow is reported as the
/// answer.
fn prove_mate(
    pos: &Position,
    n: u32,
    limits: &Limits,
    hard_ms: Option<u64>,
    control: &SearchControl,
    on_info: &mut dyn FnMut(&SearchInfo),
) -> MateOutcome {
    let start = std::time::Instant::now();
    let mut prover = mate::MateProver::new(
        mate::MateLimits {
            nodes: limits.nodes,
            time_ms: if limits.infinite { None } else { hard_ms },
        },
        Some(control.stop_flag()),
    );
    match prover.prove(pos, n) {
        mate::MateResult::Mate { moves, line } => {
            let first = line[0];
            let allowed = (limits.searchmoves.is_empty() || limits.searchmoves.contains(&first))
                && !limits.banmoves.contains(&first);
            if !allowed {
                return MateOutcome::Unknown(format!(
                    "mate in {moves} starts with {first}, which this search excludes"
                ));
            }
            let elapsed = start.elapsed().as_millis() as u64;
            on_info(&SearchInfo {
                depth: 2 * moves - 1,
                seldepth: line.len() as u32,
                multipv: 1,
                score: Score::Mate(moves as i32),
                wdl: (1000, 0, 0),
                lower_bound: None,
                time_ms: elapsed,
                nodes: prover.nodes,
                nps: prover.nodes * 1000 / elapsed.max(1),
                hashfull: 0,
                pv: line.clone(),
                currmove: None,
            });
            MateOutcome::Found(Box::new(SearchResult {
                best: Some(first),
                ponder: line.get(1).copied(),
                score: Score::Mate(moves as i32),
                depth: 2 * moves - 1,
                nodes: prover.nodes,
                errors: Vec::new(),
                notes: vec![format!("mate in {moves} proved")],
                stats: SearchStats::default(),
            }))
        }
        mate::MateResult::NoMate { max } => {
            MateOutcome::None(format!("no mate in {max} (proved by the mate prover)"))
        }
        mate::MateResult::Unknown { searched } => MateOutcome::Unknown(format!(
            "the mate prover stopped at its limits: no mate in {searched} or fewer"
        )),
    }
}
