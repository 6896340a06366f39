//! Qili's searcher: evaluation behind the `Evaluator` interface, alpha-beta with
//! a shared lock-free hash table, lazy SMP, and repetition scores taken from the
//! 棋例 verdicts of `rules::repetition`.

pub mod bench_positions;
pub mod eval;
pub mod history;
pub mod limits;
pub mod movepick;
pub mod score;
mod search;
pub mod timeman;
pub mod tt;

pub use limits::{Limits, Score, SearchControl, SearchInfo, SearchResult};
pub use timeman::{TimeBudget, TimeControl};

use eval::{AnyEval, EvalChoice};
use history::Histories;
use rules::repetition::{NaturalLimit, RuleSet};
use rules::{Move, Position};
use search::{NodeCounter, Shared, Worker, MAX_DEPTH};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};
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
            move_overhead_ms: 30,
        }
    }
}

/// Largest hash table accepted (MiB); larger requests are clamped.
pub const MAX_HASH_MB: usize = 1 << 16;
/// Most search threads accepted.
pub const MAX_THREADS: usize = 256;

/// Searches shorter than this print no `info currmove` lines.
const CURRMOVE_AFTER_MS: u64 = 3000;

pub struct Engine {
    options: EngineOptions,
    /// The evaluation every search thread runs (handcrafted unless a net is set).
    eval: EvalChoice,
    tt: TranspositionTable,
    /// One set of move-ordering statistics per thread, kept between moves.
    histories: Vec<Histories>,
}

/// What one thread found.
struct ThreadResult {
    best: Move,
    score: i32,
    depth: i32,
    pv: Vec<Move>,
}

impl Engine {
    pub fn new(options: EngineOptions) -> Engine {
        let options = sanitize(options);
        Engine {
            tt: TranspositionTable::new(options.hash_mb),
            histories: (0..options.threads).map(|_| Histories::new()).collect(),
            options,
            eval: EvalChoice::default(),
        }
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
        let start = Instant::now();
        let root = root_moves(pos, limits);
        if root.is_empty() {
            let no_legal = pos.legal_moves().is_empty();
            wait_while_required(limits, control);
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
            };
        }

        let budget = limits
            .clock
            .map(|tc| timeman::allocate(&tc, self.options.move_overhead_ms, pos.game_ply() as u32))
            .map(|b| if limits.ponder { b.with_ponder() } else { b });
        let hard_ms = match (limits.movetime_ms, budget) {
            (Some(mt), _) => Some(mt),
            (None, Some(b)) => Some(b.hard_ms),
            (None, None) => None,
        };
        let max_depth = limits
            .depth
            .map_or(MAX_DEPTH, |d| (d.min(MAX_DEPTH as u32) as i32).max(1));
        let threads = self.options.threads;
        let multipv = limits.multipv.max(1);

        // Root-move reports go through the same callback as the iteration reports;
        // both run on this thread and never at once, hence the RefCell.
        let on_info = std::cell::RefCell::new(on_info);
        self.tt.new_search();
        for h in self.histories.iter_mut() {
            h.new_search();
        }
        let shared = Shared {
            tt: &self.tt,
            control,
            options: &self.options,
            abort: AtomicBool::new(false),
            nodes: (0..threads).map(|_| NodeCounter::default()).collect(),
            start,
            hard_ms,
            node_limit: limits.nodes,
            infinite: limits.infinite,
            crumbs: if threads > 1 {
                (0..search::CRUMBS)
                    .map(|_| search::Crumb::default())
                    .collect()
            } else {
                Vec::new()
            },
        };
        let single_reply = root.len() == 1;

        let (main_hist, helper_hists) = match self.histories.split_first_mut() {
            Some(x) => x,
            None => unreachable!("at least one thread"),
        };
        let choice = &self.eval;
        let results: Vec<ThreadResult> = std::thread::scope(|s| {
            let shared = &shared;
            let root = &root;
            let handles: Vec<_> = helper_hists
                .iter_mut()
                .enumerate()
                .map(|(i, hist)| {
                    let pos = pos.clone();
                    s.spawn(move || {
                        let mut w =
                            Worker::new(i + 1, pos, AnyEval::new(choice), shared, hist, root, 1);
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
                .collect();

            let mut w = Worker::new(
                0,
                pos.clone(),
                AnyEval::new(choice),
                shared,
                main_hist,
                root,
                multipv,
            );
            // Like ElephantEye and Stockfish, report the root move only in long searches.
            let currmove = |m: Move, number: usize, depth: i32| {
                let elapsed = start.elapsed().as_millis() as u64;
                if elapsed < CURRMOVE_AFTER_MS {
                    return;
                }
                let nodes = shared.total_nodes();
                (on_info.borrow_mut())(&SearchInfo {
                    depth: depth.max(1) as u32,
                    seldepth: 0,
                    multipv: 1,
                    score: Score::Cp(0),
                    lower_bound: None,
                    time_ms: elapsed,
                    nodes,
                    nps: nodes * 1000 / elapsed.max(1),
                    hashfull: 0,
                    pv: Vec::new(),
                    currmove: Some((m, number as u32)),
                });
            };
            w.currmove_sink = Some(&currmove);
            let mut last_best = Move::NULL;
            let mut last_score = 0;
            let mut instability = 0.0f64;
            w.iterate(max_depth, &mut |w| {
                let elapsed = start.elapsed().as_millis() as u64;
                let nodes = shared.total_nodes().max(w.nodes);
                for (i, rm) in w.root_moves.iter().take(w.multipv).enumerate() {
                    let score = if rm.score > -score::INF {
                        rm.score
                    } else {
                        rm.prev_score
                    };
                    (on_info.borrow_mut())(&SearchInfo {
                        depth: w.completed_depth as u32,
                        seldepth: rm.seldepth as u32,
                        multipv: i + 1,
                        score: score::to_report(score),
                        lower_bound: None,
                        time_ms: elapsed,
                        nodes,
                        nps: nodes * 1000 / elapsed.max(1),
                        hashfull: shared.tt.hashfull(),
                        pv: rm.pv.clone(),
                        currmove: None,
                    });
                }
                let best = &w.root_moves[0];
                instability *= 0.5;
                if best.mv != last_best && !last_best.is_null() {
                    instability += 1.0;
                }
                let drop = last_score - best.score;
                last_best = best.mv;
                last_score = best.score;
                // A proven mate needs no deeper search (unless told to go on).
                if score::is_mate(best.score)
                    && w.completed_depth > 2 * (score::MATE - best.score.abs()) + 2
                    && !shared.infinite
                {
                    return false;
                }
                if shared.timed() {
                    if let Some(b) = budget {
                        let soft = if single_reply {
                            0
                        } else {
                            b.soft_scaled(instability, drop)
                        };
                        if shared.elapsed_ms() >= soft {
                            return false;
                        }
                    }
                }
                true
            });
            let main = thread_result(&w);
            // `go infinite` and `go ponder` never return before stop (or ponderhit).
            wait_while_required(limits, control);
            shared.abort.store(true, Ordering::Relaxed);
            let mut all = vec![main];
            for h in handles {
                if let Ok(r) = h.join() {
                    all.push(r);
                }
            }
            all
        });

        let chosen = choose(&results);
        let nodes = shared.total_nodes();
        SearchResult {
            best: Some(chosen.best),
            ponder: chosen.pv.get(1).copied(),
            score: score::to_report(chosen.score),
            depth: chosen.depth.max(0) as u32,
            nodes,
        }
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

fn wait_while_required(limits: &Limits, control: &SearchControl) {
    while !control.stopped() && (limits.infinite || control.pondering()) {
        std::thread::sleep(Duration::from_millis(1));
    }
}

fn thread_result<E: eval::Evaluator>(w: &Worker<E>) -> ThreadResult {
    let rm = &w.root_moves[0];
    let score = if rm.score > -score::INF {
        rm.score
    } else {
        rm.prev_score
    };
    ThreadResult {
        best: rm.mv,
        score: if score > -score::INF { score } else { 0 },
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
