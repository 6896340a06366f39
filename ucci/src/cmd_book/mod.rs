//! `qili book`: build an opening book from game records or from the engine's own
//! self-play (`build`), and print a position's book moves (`probe`). The book format
//! and the counting are in the `book` crate; the searches (self-play, re-scoring)
//! are here, as that crate knows nothing of the engine. See docs/BOOK.md.

mod rescore;
#[cfg(feature = "dev-tools")]
mod selfplay;

use crate::cli::engine::EngineArgs;
use crate::cli::position::PositionArgs;
use crate::cli::{fail, warn};
use book::build::{BuildOptions, Builder};
use book::records::read_pgn;
use book::{Book, BookKey};
use clap::{Args, Subcommand};
use rules::notation::to_chinese;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Args)]
pub struct BookArgs {
    #[command(subcommand)]
    command: BookCommand,
}

#[derive(Subcommand)]
enum BookCommand {
    /// Build a book from PGN files and/or the engine's own self-play games.
    Build(Box<BuildArgs>),
    /// Print the book moves of a position.
    Probe(ProbeArgs),
}

#[derive(Args)]
#[command(mut_arg("threads", |a| a
    .alias("jobs")
    .help("Worker threads for self-play and re-scoring, one search thread each (`--jobs` is the same)")))]
#[command(mut_arg("hash", |a| a.help("Hash table per worker, MiB")))]
struct BuildArgs {
    /// The book file to write.
    #[arg(long)]
    out: PathBuf,
    /// PGN files (ICCS, WXF or Chinese movetext).
    #[arg(long, num_args = 1.., value_name = "FILE")]
    pgn: Vec<PathBuf>,
    #[cfg(feature = "dev-tools")]
    #[command(flatten)]
    selfplay: SelfplayArgs,
    /// Count the first this many plies of each game.
    #[arg(long, default_value_t = 20)]
    plies: usize,
    /// Keep a move only if it was played in at least this many games.
    #[arg(long = "min-games", default_value_t = 2)]
    min_games: u32,
    /// Keep a move only if it scored at least this fraction for its side (0..1).
    #[arg(long = "min-score", default_value_t = 0.0)]
    min_score: f64,
    /// Search every book position and move with this many nodes and drop moves
    /// more than --rescore-margin below the best (0: no re-scoring).
    #[arg(long = "rescore-nodes", default_value_t = 0)]
    rescore_nodes: u64,
    #[arg(long = "rescore-margin", default_value_t = 80)]
    rescore_margin: i32,
    #[command(flatten)]
    engine: EngineArgs,
}

/// Books from the engine's own games: a developer tool (`--features dev-tools`).
#[cfg(feature = "dev-tools")]
#[derive(Args)]
struct SelfplayArgs {
    /// Also play games engine against engine and count them.
    #[arg(long)]
    selfplay: bool,
    /// Self-play: number of games.
    #[arg(long, default_value_t = 1000)]
    games: usize,
    /// Self-play: nodes searched per move.
    #[arg(long, default_value_t = 3000)]
    nodes: u64,
    /// Self-play: seed (each game is seeded by the seed and its number).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Self-play: root score noise in centipawns (each root move's score shifted by
    /// up to this much) in the first --noise-plies plies.
    #[arg(long, default_value_t = 30)]
    noise: i32,
    #[arg(long = "noise-plies", default_value_t = 16)]
    noise_plies: usize,
    /// Self-play: a game still going after this many plies is a draw.
    #[arg(long = "max-game-plies", default_value_t = 300)]
    max_game_plies: usize,
    /// Self-play: a side whose score stays beyond this many centipawns for 8 plies
    /// wins; 0 plays every game out.
    #[arg(long, default_value_t = 1000)]
    adjudicate: i32,
    /// Self-play: write the games here as PGN (they can be fed back with --pgn).
    #[arg(long = "pgn-out")]
    pgn_out: Option<PathBuf>,
}

#[derive(Args)]
struct ProbeArgs {
    #[command(flatten)]
    position: PositionArgs,
    /// The book file (default: the book compiled into the binary).
    #[arg(long, default_value = book::EMBEDDED_NAME)]
    book: String,
}

pub fn run(a: BookArgs) -> ExitCode {
    let r = match a.command {
        BookCommand::Build(b) => build(&b),
        BookCommand::Probe(p) => probe(&p),
    };
    match r {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => fail("book", e),
    }
}

fn build(a: &BuildArgs) -> Result<(), String> {
    #[cfg(feature = "dev-tools")]
    let selfplay = a.selfplay.selfplay;
    #[cfg(not(feature = "dev-tools"))]
    let selfplay = false;
    if a.pgn.is_empty() && !selfplay {
        return Err(if cfg!(feature = "dev-tools") {
            "give --pgn FILE… and/or --selfplay".into()
        } else {
            "give --pgn FILE… (books from self-play, --selfplay, are a developer tool: \
             cargo build --release --features qili/dev-tools)"
                .into()
        });
    }
    if !(0.0..=1.0).contains(&a.min_score) {
        return Err("--min-score must be between 0 and 1".into());
    }
    let eval = a.engine.net_hash.eval()?;
    let options = BuildOptions {
        max_plies: a.plies,
        min_games: a.min_games.max(1),
        min_score: a.min_score,
    };
    let mut builder = Builder::new();
    for path in &a.pgn {
        let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let text = String::from_utf8_lossy(&bytes);
        let read = read_pgn(&text);
        for note in &read.skipped {
            eprintln!("{}: skipped {note}", path.display());
        }
        println!(
            "{}: {} games read, {} skipped",
            path.display(),
            read.games.len(),
            read.skipped.len()
        );
        for g in &read.games {
            builder.add_game(g, options.max_plies);
        }
    }
    #[cfg(feature = "dev-tools")]
    if selfplay {
        self_play(
            &a.selfplay,
            &a.engine,
            eval.as_ref(),
            &mut builder,
            &options,
        )?;
    }
    if a.rescore_nodes > 0 {
        let candidates = builder.candidates(&options);
        let moves: usize = candidates.iter().map(|c| c.moves.len()).sum();
        println!(
            "rescore: {} positions, {moves} moves, {} nodes each, margin {} cp",
            candidates.len(),
            a.rescore_nodes,
            a.rescore_margin
        );
        let dropped = rescore::rescore(
            &mut builder,
            &candidates,
            a.rescore_nodes,
            a.rescore_margin.max(0),
            a.engine.threads,
            a.engine.net_hash.hash,
            eval.as_ref(),
        )?;
        for d in &dropped {
            println!(
                "dropped {} ({}) score {} best {} ({}) fen {}",
                d.mv,
                d.chinese,
                d.score,
                d.best,
                d.best_move.map_or("-".to_string(), |m| m.iccs()),
                d.fen
            );
        }
    }
    let (book, report) = builder.finish(&options).map_err(|e| e.to_string())?;
    book.save(&a.out).map_err(|e| e.to_string())?;
    println!(
        "book {}: {} entries in {} positions from {} games ({} position-moves counted; dropped {} played too rarely, {} scoring too little, {} by the search), {} bytes",
        a.out.display(),
        report.entries,
        report.positions,
        report.games,
        report.counted,
        report.dropped_rare,
        report.dropped_score,
        report.dropped_by_caller,
        book.to_bytes().len()
    );
    Ok(())
}

/// Play the self-play games `a` asks for and count them into `builder`.
#[cfg(feature = "dev-tools")]
fn self_play(
    a: &SelfplayArgs,
    search: &EngineArgs,
    eval: Option<&engine::eval::EvalChoice>,
    builder: &mut Builder,
    options: &BuildOptions,
) -> Result<(), String> {
    let s = selfplay::SelfplaySettings {
        games: a.games,
        nodes: a.nodes.max(1),
        seed: a.seed,
        noise: a.noise.clamp(0, engine::RootNoise::MAX_AMPLITUDE),
        noise_plies: a.noise_plies,
        max_plies: a.max_game_plies.max(1),
        adjudicate_cp: a.adjudicate.max(0),
        jobs: search.threads,
        hash_mb: search.net_hash.hash,
    };
    let t0 = std::time::Instant::now();
    let games = selfplay::play_games(&s, eval)?;
    let (mut red, mut black, mut draw, mut plies) = (0, 0, 0, 0);
    for g in &games {
        plies += g.moves.len();
        match g.result.winner() {
            Some(rules::Color::Red) => red += 1,
            Some(rules::Color::Black) => black += 1,
            None => draw += 1,
        }
        builder.add_game(g, options.max_plies);
    }
    println!(
        "selfplay: {} games (red {red}, black {black}, draw {draw}), {:.1} plies a game, {:.0} s",
        games.len(),
        plies as f64 / games.len().max(1) as f64,
        t0.elapsed().as_secs_f64()
    );
    if let Some(path) = &a.pgn_out {
        let text = rules::pgn::write_games(&selfplay::to_records(&games, &s));
        std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok(())
}

fn probe(a: &ProbeArgs) -> Result<(), String> {
    let book = Book::load_named(&a.book).map_err(|e| format!("book '{}': {e}", a.book))?;
    let (pos, warnings) = a.position.position()?;
    warn("book", &warnings);
    let k = BookKey::of(&pos);
    println!("position {}", pos.to_fen());
    println!(
        "book key {:016x}{}",
        k.key,
        if k.mirrored {
            " (filed under the mirror image: moves mirrored)"
        } else {
            ""
        }
    );
    let moves = book.probe(&pos);
    if moves.is_empty() {
        println!("no book moves");
        return Ok(());
    }
    let total: u64 = moves.iter().map(|m| u64::from(m.weight)).sum();
    println!("move  weight  share  games  score  notation");
    for m in &moves {
        println!(
            "{:<5} {:>6} {:>5.1}% {:>6} {:>6}  {}",
            m.mv.iccs(),
            m.weight,
            100.0 * f64::from(m.weight) / total as f64,
            m.count,
            m.score.map_or("-".to_string(), |s| format!("{s:+}")),
            to_chinese(&pos, m.mv)
        );
    }
    Ok(())
}
