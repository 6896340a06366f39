//! Running one search on several threads (lazy SMP): the helpers search the same
//! root on the shared hash table with staggered depths, the main thread reports
//! each iteration and decides when to stop (`stop.rs`), and at the end the result
//! of the thread that got furthest is played. A helper that panics is reported
//! and its result dropped; the main thread's result still stands.
//!
//! Below full strength (`strength.rs`) the search stops at the level's node limit,
//! and the weaker levels judge the root moves with the level's root noise.

mod report;

use crate::eval::Evaluator;
use crate::history::Histories;
use crate::limits::{Limits, SearchControl, SearchInfo, SearchResult};
use crate::mate_probe::{MateProbe, ProvenMate};
use crate::score;
use crate::search::{self, NodeCounter, Shared, Worker, MAX_DEPTH};
use crate::stop::{StopRules, Verdict};
use crate::timeman::{counted_elapsed_ms, TimeBudget};
use crate::tt::TranspositionTable;
use crate::EngineOptions;
use report::Reporter;
use rules::{Move, Position};
use std::cell::{Cell, RefCell};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// Searches shorter than this print no `info currmove` lines.
const CURRMOVE_AFTER_MS: u64 = 3000;

/// Everything one search needs besides the threads' own state.
pub(crate) struct Job<'a> {
    pub pos: &'a Position,
    /// The legal root moves allowed (never empty).
    pub root: &'a [Move],
    pub limits: &'a Limits,
    pub control: &'a SearchControl,
    pub options: &'a EngineOptions,
    pub tt: &'a TranspositionTable,
    pub budget: Option<TimeBudget>,
    /// Seed of the noise of a weakened level.
    pub noise_seed: u64,
}

/// What one thread found.
struct ThreadResult {
    best: Move,
    score: i32,
    depth: i32,
    pv: Vec<Move>,
}

/// The limits of one search, read from the job once.
struct Settings {
    hard_ms: Option<u64>,
    node_limit: Option<u64>,
    max_depth: i32,
    threads: usize,
    shown_lines: usize,
    root_noise: Option<crate::RootNoise>,
}

impl Settings {
    fn new(job: &Job<'_>, threads: usize) -> Settings {
        let limits = job.limits;
        let strength = job.options.strength;
        let hard_ms = match (limits.movetime_ms, job.budget) {
            (Some(mt), _) => Some(mt),
            (None, Some(b)) => Some(b.hard_ms),
            (None, None) => None,
        };
        let node_limit = match (limits.nodes, strength.node_limit()) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        // A weak level's noise, or the Randomness option's, whichever is larger.
        let root_noise = match (limits.root_noise, strength.root_noise(job.noise_seed)) {
            (Some(a), Some(b)) => Some(if a.amplitude >= b.amplitude { a } else { b }),
            (a, b) => a.or(b),
        };
        Settings {
            hard_ms,
            node_limit,
            max_depth: limits
                .depth
                .map_or(MAX_DEPTH, |d| (d.min(MAX_DEPTH as u32) as i32).max(1)),
            threads: threads.max(1),
            shown_lines: limits.multipv.max(1),
            root_noise,
        }
    }

    /// What the threads share.
    fn shared<'a>(&self, job: &Job<'a>, start: Instant) -> Shared<'a> {
        Shared {
            tt: job.tt,
            control: job.control,
            options: job.options,
            abort: AtomicBool::new(false),
            stop_on_ponderhit: AtomicBool::new(false),
            nodes: (0..self.threads).map(|_| NodeCounter::default()).collect(),
            start,
            hard_ms: self.hard_ms,
            node_limit: self.node_limit,
            poll_mask: search::poll_mask(self.node_limit),
            infinite: job.limits.infinite,
            root_noise: self.root_noise,
            crumbs: if self.threads > 1 {
                (0..search::CRUMBS)
                    .map(|_| search::Crumb::default())
                    .collect()
            } else {
                Vec::new()
            },
            capture_order: crate::movepick::CaptureOrder::new(&job.options.params),
        }
    }
}

/// Run the search on `histories.len()` threads, each with an evaluator from
/// `make_eval(thread id)`. Also returns the time the search counted on the clock
/// (from `go`, or from `ponderhit`, to the answer), `None` when its answer does
/// not count (stopped while still pondering, or `go infinite`).
pub(crate) fn run<E, F>(
    job: Job<'_>,
    histories: &mut [Histories],
    make_eval: F,
    on_info: &mut dyn FnMut(&SearchInfo),
) -> (SearchResult, Option<u64>)
where
    E: Evaluator,
    F: Fn(usize) -> E + Sync,
{
    let start = Instant::now();
    let limits = job.limits;
    let settings = Settings::new(&job, histories.len());
    let shared = settings.shared(&job, start);
    let reporter = Reporter {
        on_info: RefCell::new(on_info),
        start,
        tt: job.tt,
        pieces: job.pos.occupied().count(),
    };
    let (main_hist, helper_hists) = histories
        .split_first_mut()
        .expect("at least one thread's histories");
    let mut errors = Vec::new();
    let mut stats = crate::SearchStats::default();
    // The first line of the last iteration reported: the answer must agree with it.
    let mut last_reported: Option<(Move, i32)> = None;

    let results: Vec<ThreadResult> = std::thread::scope(|s| {
        let handles = spawn_helpers(
            s,
            &job,
            &shared,
            helper_hists,
            &make_eval,
            settings.max_depth,
        );
        let main = MainThread {
            job: &job,
            shared: &shared,
            settings: &settings,
            reporter: &reporter,
        };
        let (result, main_stats, reported) = main.search(s, main_hist, make_eval(0));
        stats = main_stats;
        last_reported = reported;
        // `go infinite` and `go ponder` never return before stop (or ponderhit).
        wait_while_required(limits, job.control);
        shared.abort.store(true, Ordering::Relaxed);
        let mut all = vec![result];
        for (i, h) in handles.into_iter().enumerate() {
            match h.join() {
                Ok(r) => all.push(r),
                Err(panic) => errors.push(format!(
                    "search thread {} failed ({}); its result is not used",
                    i + 1,
                    panic_text(&panic)
                )),
            }
        }
        all
    });

    let chosen = choose(&results);
    let nodes = shared.total_nodes();
    // The move played came from an unfinished iteration or from a helper that got
    // further: report it, so that the last line a GUI shows is the answer.
    if last_reported != Some((chosen.best, chosen.score)) && !chosen.pv.is_empty() {
        reporter.result(chosen, chosen.depth.max(1) as u32, nodes);
    }
    let counted = if limits.infinite {
        None
    } else {
        counted_elapsed_ms(start, job.control)
    };
    let result = SearchResult {
        best: Some(chosen.best),
        ponder: chosen.pv.get(1).copied(),
        score: score::to_report(chosen.score),
        depth: chosen.depth.max(0) as u32,
        nodes,
        errors,
        notes: Vec::new(),
        stats,
    };
    (result, counted)
}

/// Start the helper threads: each searches the same root with its own
/// histories, reporting nothing.
fn spawn_helpers<'scope, 'env, E, F>(
    s: &'scope std::thread::Scope<'scope, 'env>,
    job: &Job<'env>,
    shared: &'env Shared<'env>,
    hists: &'env mut [Histories],
    make_eval: &'env F,
    max_depth: i32,
) -> Vec<std::thread::ScopedJoinHandle<'scope, ThreadResult>>
where
    E: Evaluator,
    F: Fn(usize) -> E + Sync,
{
    let root = job.root;
    hists
        .iter_mut()
        .enumerate()
        .map(|(i, hist)| {
            let pos = job.pos.clone();
            s.spawn(move || {
                let id = i + 1;
                let mut w = Worker::new(id, pos, make_eval(id), shared, hist, root, 1);
                // A helper that completes the last iteration asked for has
                // done the search's job: the others need not finish it too.
                w.iterate(max_depth, &mut |w| {
                    if w.completed_depth >= max_depth {
                        shared.abort.store(true, Ordering::Relaxed);
                    }
                    true
                });
                thread_result(&w)
            })
        })
        .collect()
}

/// The main thread's part: it reports, decides when to stop, and lends the mate
/// prover its share.
struct MainThread<'m, 'a> {
    job: &'m Job<'a>,
    shared: &'m Shared<'a>,
    settings: &'m Settings,
    reporter: &'m Reporter<'m>,
}

impl<'a> MainThread<'_, 'a> {
    /// Search on this thread; returns its result (a proved mate when the prover
    /// found one), its statistics and the last line reported.
    fn search<'scope, E: Evaluator>(
        &self,
        s: &'scope std::thread::Scope<'scope, 'a>,
        hist: &mut Histories,
        eval: E,
    ) -> (ThreadResult, crate::SearchStats, Option<(Move, i32)>) {
        let (job, shared, settings, reporter) =
            (self.job, self.shared, self.settings, self.reporter);
        let limits = job.limits;
        let mut w = Worker::new(
            0,
            job.pos.clone(),
            eval,
            shared,
            hist,
            job.root,
            settings.shown_lines,
        );
        let currmove = |m: Move, number: usize, depth: i32| {
            reporter.currmove(m, number, depth, shared.total_nodes());
        };
        w.currmove_sink = Some(&currmove);
        // The mate prover beside the search (`mate_probe.rs`): at full strength,
        // one line, no node limit (a node-limited search is measured by its
        // nodes). It takes its share at the main thread's polls, once the last
        // completed iteration scores the position as won.
        let probe = RefCell::new(
            (settings.root_noise.is_none()
                && settings.shown_lines == 1
                && settings.node_limit.is_none())
            .then(|| MateProbe::new(s, job.pos, job.root, job.control.stop_flag())),
        );
        let probe_score = Cell::new(-score::INF);
        let proven: RefCell<Option<ProvenMate>> = RefCell::new(None);
        let probe_hook = |depth: i32| -> bool {
            let mut guard = probe.borrow_mut();
            let Some(p) = guard.as_mut() else {
                return false;
            };
            let time_left = shared
                .hard_ms
                .filter(|_| shared.timed())
                .map(|h| h.saturating_sub(shared.elapsed_ms()));
            match p.probe(probe_score.get(), depth, reporter.elapsed_ms(), time_left) {
                Some(mate) => {
                    *proven.borrow_mut() = Some(mate);
                    true
                }
                None => false,
            }
        };
        w.probe_sink = Some(&probe_hook);
        let mut stop = StopRules::new(
            job.budget,
            job.options.params,
            job.root.len() == 1,
            limits.mate,
            limits.infinite,
        );
        let mut last_reported = None;
        w.iterate(settings.max_depth, &mut |w| {
            let nodes = shared.total_nodes().max(w.nodes);
            last_reported = Some(reporter.iteration(w, settings.shown_lines, nodes));
            let best = &w.root_moves[0];
            let thinking = (!limits.infinite).then(|| reporter.elapsed_ms());
            let pondering = job.control.pondering();
            probe_score.set(best.score);
            match stop.go_on(best.mv, best.score, w.completed_depth, thinking, pondering) {
                Verdict::GoOn => true,
                Verdict::Stop => false,
                Verdict::StopAtPonderhit => {
                    shared.stop_on_ponderhit.store(true, Ordering::Relaxed);
                    true
                }
            }
        });
        let mut main = thread_result(&w);
        if let Some(mate) = proven.borrow_mut().take() {
            // Proved, and the shortest: report it as the answer.
            let probe_nodes = probe.borrow().as_ref().map_or(0, |p| p.nodes());
            let nodes = shared.total_nodes().max(w.nodes) + probe_nodes;
            main = ThreadResult {
                best: mate.line[0],
                score: mate.score(),
                depth: main.depth,
                pv: mate.line,
            };
            reporter.result(&main, 2 * mate.moves - 1, nodes);
            last_reported = Some((main.best, main.score));
        }
        (main, w.stats, last_reported)
    }
}

fn panic_text(panic: &Box<dyn std::any::Any + Send>) -> String {
    if let Some(s) = panic.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = panic.downcast_ref::<String>() {
        s.clone()
    } else {
        "panic".to_string()
    }
}

/// `go infinite` and `go ponder` never answer before `stop` (or `ponderhit`).
pub(crate) fn wait_while_required(limits: &Limits, control: &SearchControl) {
    control.wait_for_release(limits.infinite);
}

fn thread_result<E: Evaluator>(w: &Worker<E>) -> ThreadResult {
    let rm = &w.root_moves[0];
    let score = if rm.score > -score::INF {
        rm.score
    } else {
        rm.prev_score
    };
    ThreadResult {
        best: rm.mv,
        score: if score > -score::INF {
            rm.without_noise(score)
        } else {
            0
        },
        depth: w.completed_depth,
        pv: rm.pv.clone(),
    }
}

/// The main thread's move unless a helper finished a deeper iteration, or the
/// same depth with a better score.
fn choose(results: &[ThreadResult]) -> &ThreadResult {
    let mut best = &results[0];
    for r in &results[1..] {
        if r.depth > best.depth && r.score >= best.score - 20
            || r.depth == best.depth && r.score > best.score
        {
            best = r;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::{AnyEval, EvalChoice};
    use crate::strength::Strength;

    /// An evaluator that panics in helper threads (at their first evaluation, the
    /// root's): a bug that only shows on some threads.
    #[derive(Clone)]
    struct FlakyHelper {
        inner: AnyEval,
        thread: usize,
        calls: u32,
    }

    impl Evaluator for FlakyHelper {
        fn reset(&mut self, pos: &Position) {
            self.inner.reset(pos)
        }
        fn on_make(&mut self, pos: &Position, m: Move) {
            self.inner.on_make(pos, m)
        }
        fn on_null(&mut self) {
            self.inner.on_null()
        }
        fn on_unmake(&mut self) {
            self.inner.on_unmake()
        }
        fn evaluate(&mut self, pos: &Position) -> i32 {
            self.calls += 1;
            if self.thread > 0 {
                panic!("helper evaluator broke");
            }
            self.inner.evaluate(pos)
        }
    }

    fn job_parts(threads: usize) -> (TranspositionTable, Vec<Histories>, EngineOptions) {
        let options = EngineOptions {
            threads,
            hash_mb: 4,
            ..EngineOptions::default()
        };
        (
            TranspositionTable::new(4),
            (0..threads).map(|_| Histories::new()).collect(),
            options,
        )
    }

    #[test]
    fn a_panicking_helper_is_reported_and_the_main_result_stands() {
        let pos = Position::startpos();
        let root: Vec<Move> = pos.legal_moves().iter().copied().collect();
        let limits = Limits {
            depth: Some(6),
            ..Limits::default()
        };
        let control = SearchControl::new();
        let (tt, mut hist, options) = job_parts(3);
        let job = Job {
            pos: &pos,
            root: &root,
            limits: &limits,
            control: &control,
            options: &options,
            tt: &tt,
            budget: None,
            noise_seed: 0,
        };
        let mut infos = 0;
        let (r, _) = run(
            job,
            &mut hist,
            |id| FlakyHelper {
                inner: AnyEval::new(&EvalChoice::Hce),
                thread: id,
                calls: 0,
            },
            &mut |_| infos += 1,
        );
        assert_eq!(r.errors.len(), 2, "{:?}", r.errors);
        assert!(
            r.errors[0].contains("helper evaluator broke"),
            "{:?}",
            r.errors
        );
        assert!(r.best.is_some_and(|m| pos.is_legal(m)));
        assert_eq!(r.depth, 6);
        assert!(infos >= 6);
    }

    #[test]
    fn a_weak_level_obeys_its_node_limit_and_varies_its_moves() {
        let pos = Position::startpos();
        let root: Vec<Move> = pos.legal_moves().iter().copied().collect();
        let limits = Limits::default();
        let control = SearchControl::new();
        let (tt, mut hist, mut options) = job_parts(1);
        options.strength = Strength::from_level(2);
        let limit = options.strength.node_limit().unwrap();
        // What depth 1 costs here, measured.
        let first_iteration = {
            let job = Job {
                pos: &pos,
                root: &root,
                limits: &Limits {
                    depth: Some(1),
                    ..Limits::default()
                },
                control: &control,
                options: &EngineOptions::default(),
                tt: &tt,
                budget: None,
                noise_seed: 0,
            };
            run(
                job,
                &mut hist,
                |_| AnyEval::new(&EvalChoice::Hce),
                &mut |_| {},
            )
            .0
            .nodes
        };
        let mut seen = std::collections::HashSet::new();
        for seed in 0..12 {
            tt.clear();
            let job = Job {
                pos: &pos,
                root: &root,
                limits: &limits,
                control: &control,
                options: &options,
                tt: &tt,
                budget: None,
                noise_seed: seed,
            };
            let mut lines = Vec::new();
            let (r, _) = run(
                job,
                &mut hist,
                |_| AnyEval::new(&EvalChoice::Hce),
                &mut |i| lines.push(i.multipv),
            );
            // The first iteration always completes (here it takes more than the
            // limit); after it the limit holds to within a sixteenth.
            assert!(r.depth >= 1);
            assert!(
                r.nodes <= limit.max(first_iteration) + limit / 16 + 4,
                "{} nodes of {limit}",
                r.nodes
            );
            assert!(
                lines.iter().all(|&l| l == 1),
                "only the shown line is reported"
            );
            seen.insert(r.best.unwrap());
        }
        assert!(seen.len() >= 2, "noise picks different moves: {seen:?}");
    }
}
