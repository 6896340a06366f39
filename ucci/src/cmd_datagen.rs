//! `qili datagen`: self-play games for NNUE training. Each game starts with a few
//! random legal plies (from the seed), then the engine plays both sides at a fixed
//! node count; the arbiter of `qili match` (mate, 棋例 verdicts, natural move limit,
//! no attacking material) or a ply cap ends it. Quiet positions (not in check, best
//! move not a capture, no mate score) are written as 32-byte records (`nets::data`)
//! labelled with the search score and the game result, both from the side to move.
//! Games are seeded by (seed, game index): shards with different seeds never overlap
//! in their random openings and can be concatenated. Beside the shard goes its
//! sidecar (`<out>.games`, `nets::shard`): one line per finished game, so a killed run
//! is continued with `--resume` to the bytes of an uninterrupted one.

use crate::cli::engine::NetHashArgs;
use crate::cli::fail;
use bench::{adjudicate, ArbiterRules};
use clap::Args;
use engine::{Engine, Limits, Score, SearchControl};
use nets::data::{Outcome, PackedPosition};
use rules::pgn::GameResult;
use rules::rng::{game_seed, Rng, DEFAULT_STREAM};
use rules::{Color, Position};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

#[derive(Args)]
pub struct DatagenArgs {
    /// Number of games.
    #[arg(long, default_value_t = 100)]
    games: u64,
    /// Index of the first game: games are seeded by (seed, index), so a shard
    /// can be continued, or one game replayed, without playing those before it.
    #[arg(long, default_value_t = 0)]
    first_game: u64,
    /// Nodes searched per move.
    #[arg(long, default_value_t = 5000)]
    nodes: u64,
    /// Seed of this shard (random openings); use a different one per shard.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Output file (created or truncated, with its sidecar `<out>.games`).
    #[arg(long)]
    out: PathBuf,
    /// Continue the shard at --out (made with the same options) up to --games games
    /// in all: its finished games are kept, a game cut by a kill is played again.
    #[arg(long)]
    resume: bool,
    /// Random plies before the engine plays: between these two (inclusive).
    #[arg(long, default_value_t = 6)]
    random_min: u32,
    #[arg(long, default_value_t = 10)]
    random_max: u32,
    /// Games still running after this many plies are drawn.
    #[arg(long, default_value_t = 400)]
    max_plies: u32,
    /// Positions whose search score is beyond ±this are not kept (decided games).
    #[arg(long, default_value_t = 3000)]
    score_limit: i32,
    // `--net` and `--hash`; no `--threads`: each game is searched by one thread.
    #[command(flatten)]
    engine: NetHashArgs,
}

/// Random legal plies from the start; `None` if the game ended among them.
fn random_opening(rng: &mut Rng, plies: u32) -> Option<Position> {
    let mut pos = Position::startpos();
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return None;
        }
        pos.make_move(moves.as_slice()[rng.below(moves.len())]);
    }
    pos.has_legal_move().then_some(pos)
}

struct GameOutput {
    /// Quiet positions with the score from the side to move's view.
    kept: Vec<(Position, i16)>,
    winner: Option<Color>,
}

fn play_game(engine: &mut Engine, a: &DatagenArgs, seed: u64) -> GameOutput {
    let mut rng = Rng::new(seed);
    let span = a.random_max.saturating_sub(a.random_min) as usize + 1;
    let plies = a.random_min + rng.below(span) as u32;
    let mut pos = loop {
        if let Some(p) = random_opening(&mut rng, plies) {
            break p;
        }
    };
    engine.new_game();
    let arbiter = ArbiterRules::default();
    let limits = Limits {
        nodes: Some(a.nodes.max(1)),
        ..Limits::default()
    };
    let control = SearchControl::new();
    let mut kept = Vec::new();
    let mut winner = None;
    for _ in 0..a.max_plies {
        if let Some(t) = adjudicate(&pos, &arbiter) {
            winner = match t.result() {
                GameResult::RedWins => Some(Color::Red),
                GameResult::BlackWins => Some(Color::Black),
                _ => None,
            };
            break;
        }
        let r = engine.search(&pos, &limits, &control, &mut |_| {});
        let Some(best) = r.best else { break };
        if !pos.is_legal(best) {
            break;
        }
        let quiet = !pos.in_check() && pos.piece_at(best.to()).is_none();
        if let Score::Cp(cp) = r.score {
            if quiet && cp.abs() <= a.score_limit {
                kept.push((
                    pos.clone(),
                    cp.clamp(i16::MIN as i32, i16::MAX as i32) as i16,
                ));
            }
        }
        pos.make_move(best);
    }
    GameOutput { kept, winner }
}

pub fn run(a: DatagenArgs) -> ExitCode {
    let eval = match a.engine.eval() {
        Ok(e) => e,
        Err(e) => return fail("datagen", e),
    };
    let mut engine = a.engine.engine(1, eval.as_ref());
    let opened = shard_params(&a).and_then(|params| {
        let r = if a.resume {
            nets::shard::ShardWriter::resume(&a.out, &params)
        } else {
            nets::shard::ShardWriter::create(&a.out, &params).map(|w| (w, Default::default()))
        };
        r.map_err(|e| e.to_string())
    });
    let (mut out, resumed) = match opened {
        Ok(o) => o,
        Err(e) => return fail("datagen", e),
    };
    if a.resume {
        eprintln!(
            "datagen: resuming {} after {} finished games ({} records); trimmed {} bytes of an unfinished game",
            a.out.display(),
            resumed.games,
            resumed.records,
            resumed.trimmed_bytes
        );
    }
    let t0 = Instant::now();
    let (mut positions, mut results) = (0u64, [0u64; 3]);
    let mut progress = bench::progress::Progress::new("datagen: games", a.games, true);
    for g in out.games()..a.games {
        let game = play_game(
            &mut engine,
            &a,
            game_seed(a.seed, a.first_game + g, DEFAULT_STREAM),
        );
        let recs: Vec<PackedPosition> = game
            .kept
            .iter()
            .map(|(p, score)| {
                let outcome = match game.winner {
                    None => Outcome::Draw,
                    Some(c) if c == p.side_to_move() => Outcome::Win,
                    Some(_) => Outcome::Loss,
                };
                PackedPosition::pack(p, *score, outcome)
            })
            .collect();
        if let Err(e) = out.write_game(a.seed, a.first_game + g, &recs) {
            progress.finish();
            return fail("datagen", format!("writing {e}"));
        }
        positions += recs.len() as u64;
        results[match game.winner {
            Some(Color::Red) => 0,
            Some(Color::Black) => 1,
            None => 2,
        }] += 1;
        let secs = t0.elapsed().as_secs_f64().max(1e-9);
        progress.set(
            g + 1,
            &format!(
                "positions {positions} ({:.0}/s) red {} black {} draw {}",
                positions as f64 / secs,
                results[0],
                results[1],
                results[2]
            ),
        );
    }
    progress.finish();
    let secs = t0.elapsed().as_secs_f64();
    println!(
        "games {} positions {} red {} black {} draw {} time {:.1} s  {:.0} positions/s",
        a.games - resumed.games.min(a.games),
        positions,
        results[0],
        results[1],
        results[2],
        secs,
        positions as f64 / secs.max(1e-9)
    );
    ExitCode::SUCCESS
}

/// What a shard's games depend on besides the build, in its sidecar: a resume with
/// other values would mix games of two runs, so it is refused. The eval is named by
/// the checksum of the net's bytes.
fn shard_params(a: &DatagenArgs) -> Result<String, String> {
    let name = a.engine.net.as_deref().map(str::trim);
    let eval = match name {
        Some(engine::eval::HCE_NAME) => "hce".to_string(),
        None | Some("") | Some(engine::eval::EMBEDDED_NAME) => {
            format!("net-{:016x}", nets::format::checksum(nets::EMBEDDED_NET))
        }
        Some(file) => {
            let bytes = std::fs::read(file).map_err(|e| format!("{file}: {e}"))?;
            format!("net-{:016x}", nets::format::checksum(&bytes))
        }
    };
    Ok(format!(
        "seed={} first-game={} nodes={} hash={} random={}-{} max-plies={} score-limit={} eval={eval}",
        a.seed, a.first_game, a.nodes, a.engine.hash, a.random_min, a.random_max, a.max_plies, a.score_limit
    ))
}

#[cfg(test)]
mod tests {
    use super::{shard_params, DatagenArgs};
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        a: DatagenArgs,
    }

    fn try_params(args: &[&str]) -> Result<String, String> {
        let cli = Cli::try_parse_from(["datagen", "--out", "x.bin"].iter().chain(args))
            .unwrap_or_else(|e| panic!("{args:?}: {e}"));
        shard_params(&cli.a)
    }

    fn params(args: &[&str]) -> String {
        try_params(args).unwrap()
    }

    /// The sidecar's parameter string is compared on `--resume`: shards written by
    /// earlier builds resume only while the same flags give exactly these strings.
    #[test]
    fn shard_params_are_pinned() {
        let embedded = format!("net-{:016x}", nets::format::checksum(nets::EMBEDDED_NET));
        assert_eq!(
            params(&[]),
            format!(
                "seed=1 first-game=0 nodes=5000 hash=16 random=6-10 max-plies=400 score-limit=3000 eval={embedded}"
            )
        );
        for net in ["<embedded>", " <embedded> "] {
            assert!(params(&["--net", net]).ends_with(&format!(" eval={embedded}")));
        }
        assert_eq!(
            params(&[
                "--seed", "7", "--first-game", "3", "--nodes", "800", "--hash", "0",
                "--random-min", "2", "--random-max", "4", "--max-plies", "100",
                "--score-limit", "1500", "--net", "<hce>", "--games", "9", "--resume",
            ]),
            "seed=7 first-game=3 nodes=800 hash=0 random=2-4 max-plies=100 score-limit=1500 eval=hce"
        );
        let file =
            std::env::temp_dir().join(format!("qili-datagen-params-{}.nnue", std::process::id()));
        std::fs::write(&file, b"not a net, only bytes to checksum").unwrap();
        let name = file.to_str().unwrap();
        assert_eq!(
            params(&["--net", name]),
            format!(
                "seed=1 first-game=0 nodes=5000 hash=16 random=6-10 max-plies=400 score-limit=3000 eval=net-{:016x}",
                rules::checksum::fnv1a64(b"not a net, only bytes to checksum")
            )
        );
        std::fs::remove_file(&file).unwrap();
        let missing = try_params(&["--net", "/nonexistent/x.nnue"]).unwrap_err();
        assert!(missing.starts_with("/nonexistent/x.nnue: "), "{missing}");
    }
}
