//! Self-play games for `qili book build --selfplay`: the engine plays both sides at a
//! fixed node count from the start position, with root score noise (`RootNoise`)
//! in the first plies so that games differ, each game seeded by (seed, game index).
//! One thread per job, each game starting from a cleared hash table and histories,
//! so the games depend on (seed, nodes, noise, game index) and the build alone.

use bench::{adjudicate, ArbiterRules};
use book::records::Game;
use engine::eval::EvalChoice;
use engine::{Engine, Limits, RootNoise, Score, SearchControl};
use rayon::prelude::*;
use rules::pgn::{GameRecord, GameResult};
use rules::{Color, Position};
use std::sync::atomic::{AtomicUsize, Ordering};

#[derive(Clone, Debug)]
pub struct SelfplaySettings {
    pub games: usize,
    pub nodes: u64,
    pub seed: u64,
    /// Root noise amplitude (centipawns) in the first `noise_plies` plies.
    pub noise: i32,
    pub noise_plies: usize,
    /// A game still running after this many plies is a draw.
    pub max_plies: usize,
    /// A side whose score (by both engines' searches) stays beyond ±this for
    /// `ADJUDICATE_PLIES` plies in a row wins; 0 plays every game out.
    pub adjudicate_cp: i32,
    pub jobs: usize,
    pub hash_mb: usize,
}

const ADJUDICATE_PLIES: usize = 8;

fn centipawns(s: Score) -> i32 {
    match s {
        Score::Cp(v) => v,
        Score::Mate(n) if n > 0 => 30_000 - n,
        Score::Mate(n) => -30_000 - n,
    }
}

fn play(engine: &mut Engine, s: &SelfplaySettings, index: usize) -> Game {
    let seed = rules::rng::game_seed(s.seed, index as u64, book::RNG_STREAM);
    engine.new_game();
    let arbiter = ArbiterRules::default();
    let control = SearchControl::new();
    let start = Position::startpos();
    let mut pos = start.clone();
    let mut moves = Vec::new();
    // Scores from Red's point of view, latest last.
    let mut red_scores: Vec<i32> = Vec::new();
    let result = loop {
        if let Some(t) = adjudicate(&pos, &arbiter) {
            break t.result();
        }
        if moves.len() >= s.max_plies {
            break GameResult::Draw;
        }
        let limits = Limits {
            nodes: Some(s.nodes.max(1)),
            root_noise: (moves.len() < s.noise_plies && s.noise > 0).then_some(RootNoise {
                amplitude: s.noise,
                seed,
            }),
            ..Limits::default()
        };
        let r = engine.search(&pos, &limits, &control, &mut |_| {});
        let Some(best) = r.best.filter(|&m| pos.is_legal(m)) else {
            // No move: the arbiter above would have ended the game; be safe.
            break GameResult::win_for(pos.side_to_move().flip());
        };
        let cp = centipawns(r.score);
        red_scores.push(if pos.side_to_move() == Color::Red {
            cp
        } else {
            -cp
        });
        if s.adjudicate_cp > 0 && red_scores.len() >= ADJUDICATE_PLIES {
            let last = &red_scores[red_scores.len() - ADJUDICATE_PLIES..];
            if last.iter().all(|&v| v >= s.adjudicate_cp) {
                moves.push(best);
                break GameResult::RedWins;
            }
            if last.iter().all(|&v| v <= -s.adjudicate_cp) {
                moves.push(best);
                break GameResult::BlackWins;
            }
        }
        pos.make_move(best);
        moves.push(best);
    };
    Game {
        start,
        moves,
        result,
    }
}

/// Play the games (in parallel over `jobs` threads); they come back in index order.
pub fn play_games(s: &SelfplaySettings, eval: Option<&EvalChoice>) -> Result<Vec<Game>, String> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(s.jobs.max(1))
        .build()
        .map_err(|e| e.to_string())?;
    let done = AtomicUsize::new(0);
    let games = pool.install(|| {
        (0..s.games)
            .into_par_iter()
            .map_init(
                || crate::cli::engine::new_engine(1, s.hash_mb, eval),
                |engine, i| {
                    let g = play(engine, s, i);
                    let n = done.fetch_add(1, Ordering::Relaxed) + 1;
                    if n.is_multiple_of(10) || n == s.games {
                        eprint!("\rselfplay: {n}/{} games   ", s.games);
                    }
                    g
                },
            )
            .collect::<Vec<Game>>()
    });
    eprintln!();
    Ok(games)
}

/// The games as PGN records (ICCS movetext), for `--pgn-out`.
pub fn to_records(games: &[Game], s: &SelfplaySettings) -> Vec<GameRecord> {
    games
        .iter()
        .enumerate()
        .map(|(i, g)| {
            let mut r = GameRecord::new(None);
            r.set_tag("Event", "qili book selfplay");
            r.set_tag("Round", &(i + 1).to_string());
            r.set_tag("Red", "Qili");
            r.set_tag("Black", "Qili");
            r.set_tag(
                "Annotator",
                &format!(
                    "seed {} nodes {} noise {} noise-plies {}",
                    s.seed, s.nodes, s.noise, s.noise_plies
                ),
            );
            for &m in &g.moves {
                r.push(m, None);
            }
            r.result = g.result;
            r
        })
        .collect()
}
