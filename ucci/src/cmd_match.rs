//! `qili match`: play a match between two engines (UCCI or UCI), adjudicated by the
//! rules crate, with PGN output, Elo and an SPRT. The work is in the `bench` crate;
//! this file turns the command line into a `bench::MatchConfig`.

use crate::cli::fail;
use crate::cli::outside::engine_settings;
use crate::cli::runner::RunnerArgs;
use bench::game::{FixedLimits, FlagPolicy, ScoreRules};
use bench::{ArbiterRules, EngineConfig, MatchConfig, Sprt};
use clap::Args;
use engine::TimeControl;
use rules::repetition::{NaturalLimit, RuleSet};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

#[derive(Args)]
#[command(after_help = "\
ENGINE SETTINGS (--e1 for the first --engine, --e2 for the second; repeatable):
  name=NAME           name in the PGN and the summary
  proto=auto|ucci|uci protocol (auto: try ucci, then uci)
  ranks=0|1           rank numbers in the engine's moves: 0-9 (UCCI, Pikafish) or
                      1-10 (UCI variant engines such as Fairy-Stockfish in UCI mode)
  dir=PATH            working directory of the engine
  option.NAME=VALUE   sent as `setoption NAME VALUE` (UCCI) or
                      `setoption name NAME value VALUE` (UCI); --option1/--option2
                      NAME=VALUE are the same thing

TIME CONTROLS: stages `[MOVES/]TIME[+INC]` or `TIME/MOVES[+INC]`, joined by ` then `
or `,`; seconds unless a unit is given (ms, s, m, h). Examples: 1800+0, 600+10, 10+0.1,
40/300, \"60m/30 then 10m/10\". The runner keeps the clocks from wall time; what
engines report is ignored.

EXAMPLES:
  qili match --engine ./qili-new --engine ./qili-old --tc 10+0.1 --games 2000 \\
      --concurrency 2 --openings bench/data/openings.txt --sprt 0,5 --pgn new-vs-old.pgn
  qili match --engine ./qili --engine /opt/eleeye/ELEEYE --e2 name=ElephantEye \\
      --e2 option.usebook=false --tc 60+1 --games 20
  qili match --engine ./qili --engine ./qili-old --book '<embedded>' --book-depth 8 \\
      --seed 3 --tc 10+0.1 --games 200")]
pub struct MatchArgs {
    // Boxed: the options are large and `Command` holds every subcommand's arguments.
    #[command(flatten)]
    options: Box<MatchOptions>,
}

#[derive(Args)]
pub struct MatchOptions {
    /// Engine command line (give exactly two). Results are from the first engine's view.
    #[arg(long = "engine", required = true, num_args = 1)]
    engines: Vec<String>,
    /// Settings of the first engine, KEY=VALUE (see below).
    #[arg(long = "e1")]
    e1: Vec<String>,
    /// Settings of the second engine, KEY=VALUE.
    #[arg(long = "e2")]
    e2: Vec<String>,
    /// Engine option of the first engine, NAME=VALUE.
    #[arg(long = "option1")]
    option1: Vec<String>,
    /// Engine option of the second engine, NAME=VALUE.
    #[arg(long = "option2")]
    option2: Vec<String>,
    /// Number of games (each opening is played twice, colours reversed).
    #[arg(long, default_value_t = 2)]
    games: u32,
    /// Time control of both sides, e.g. 60+0.6.
    #[arg(long)]
    tc: Option<String>,
    /// Time control of Red (overrides --tc).
    #[arg(long = "tc-red")]
    tc_red: Option<String>,
    /// Time control of Black (overrides --tc).
    #[arg(long = "tc-black")]
    tc_black: Option<String>,
    /// Time odds: the first engine's clock whichever colour it plays (with --tc2).
    #[arg(long = "tc1", requires = "tc2", conflicts_with_all = ["tc", "tc_red", "tc_black"])]
    tc1: Option<String>,
    /// Time odds: the second engine's clock (with --tc1).
    #[arg(long = "tc2", requires = "tc1")]
    tc2: Option<String>,
    /// Search every move to this depth instead of by clock.
    #[arg(long)]
    depth: Option<u32>,
    #[command(flatten)]
    runner: RunnerArgs,
    /// Start each game pair from a line of an opening book (a file, or `<embedded>`
    /// for the book compiled into qili) instead of an openings file.
    #[arg(long, conflicts_with = "openings")]
    book: Option<String>,
    /// With --book: the most plies of each book line (shorter where the book ends).
    #[arg(long = "book-depth", default_value_t = 10)]
    book_depth: usize,
    /// Seed of the weighted random choice of the book lines.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Append the games to this PGN file.
    #[arg(long)]
    pgn: Option<PathBuf>,
    /// Repetition rules: axf (Asian, default) or cn (Chinese 2020).
    #[arg(long, default_value = "axf")]
    rules: String,
    /// SPRT elo0,elo1[,alpha,beta]: stop as soon as the test decides.
    #[arg(long)]
    sprt: Option<String>,
    /// Judge a repetition when a position stands for the N-th time.
    #[arg(long = "judge-at", default_value_t = 3)]
    judge_at: u32,
    /// Natural move limit: full moves without a capture that draw (default: the rules').
    #[arg(long = "move-limit")]
    move_limit: Option<u32>,
    /// Safety cap on a game's length in full moves (then a draw by the limit).
    #[arg(long = "max-moves", default_value_t = 500)]
    max_moves: u32,
    /// Adjudicate a loss when both engines agree: MOVES,SCORE (e.g. 5,1000). Off by default.
    #[arg(long)]
    resign: Option<String>,
    /// Adjudicate a draw: FROM_MOVE,MOVES,SCORE (e.g. 40,8,10). Off by default.
    #[arg(long)]
    draw: Option<String>,
    /// Honour `bestmove … resign` (by default the flag is ignored and the move played).
    #[arg(long = "accept-resign")]
    accept_resign: bool,
    /// Two consecutive `bestmove … draw` flags (one per engine) make a draw.
    #[arg(long = "accept-draw")]
    accept_draw: bool,
    /// Send UCCI engines `banmoves` with the moves that would complete a forbidden
    /// perpetual for them (like the UCCI league arbiter).
    #[arg(long)]
    banmoves: bool,
    /// Milliseconds an engine may overrun its clock before it loses on time.
    #[arg(long, default_value_t = 0)]
    margin: u64,
    /// Simulated GUI lag charged to the mover's clock on every move: `30` (ms) or a
    /// range `2000-8000` drawn per move (an operator relaying moves by hand).
    #[arg(long, value_name = "MS")]
    lag: Option<bench::GuiLag>,
    /// Seconds to wait for ucciok/uciok and readyok.
    #[arg(long = "handshake-timeout", default_value_t = 10.0)]
    handshake_timeout: f64,
    /// Seconds to wait for an engine to exit after quit before killing it.
    #[arg(long = "quit-timeout", default_value_t = 2.0)]
    quit_timeout: f64,
    /// Seconds to wait for a move with --depth/--nodes (no clock).
    #[arg(long = "move-timeout", default_value_t = 60.0)]
    move_timeout: f64,
    /// PGN Event tag.
    #[arg(long, default_value = "qili match")]
    event: String,
    /// No progress bar.
    #[arg(long = "no-progress")]
    no_progress: bool,
    /// No line per finished game.
    #[arg(long)]
    quiet: bool,
    /// Echo all protocol traffic (and the engines' stderr) on stderr.
    #[arg(long)]
    debug: bool,
}

fn seconds(x: f64, what: &str) -> Result<Duration, String> {
    if x.is_finite() && x > 0.0 && x < 1e6 {
        Ok(Duration::from_secs_f64(x))
    } else {
        Err(format!("{what} must be a positive number of seconds"))
    }
}

fn engine_config(
    cmd: &str,
    settings: &[String],
    options: &[String],
    a: &MatchOptions,
) -> Result<EngineConfig, String> {
    let mut e = engine_settings(cmd, settings, options)?;
    e.handshake_timeout = seconds(a.handshake_timeout, "--handshake-timeout")?;
    e.quit_timeout = seconds(a.quit_timeout, "--quit-timeout")?;
    e.debug = a.debug;
    Ok(e)
}

fn numbers<const N: usize>(s: &str, what: &str) -> Result<[i64; N], String> {
    let v: Vec<i64> = s
        .split(',')
        .map(|x| x.trim().parse::<i64>())
        .collect::<Result<_, _>>()
        .map_err(|_| format!("bad {what} '{s}'"))?;
    v.try_into()
        .map_err(|_| format!("{what} needs {N} comma-separated numbers, got '{s}'"))
}

fn config(a: &MatchOptions) -> Result<MatchConfig, String> {
    if a.engines.len() != 2 {
        return Err(format!(
            "give exactly two --engine commands (got {})",
            a.engines.len()
        ));
    }
    let e1 = engine_config(&a.engines[0], &a.e1, &a.option1, a)?;
    let e2 = engine_config(&a.engines[1], &a.e2, &a.option2, a)?;
    let mut cfg = MatchConfig::new([e1, e2]);
    if a.games == 0 {
        return Err("--games must be at least 1".into());
    }
    cfg.games = a.games;
    cfg.concurrency = a.runner.concurrency.clamp(1, 256);
    cfg.openings = a.runner.openings()?;
    if let Some(name) = &a.book {
        let b = book::Book::load_named(name).map_err(|e| format!("--book '{name}': {e}"))?;
        let pairs = (a.games as usize).div_ceil(2);
        cfg.openings = bench::openings::book_openings(&b, pairs, a.book_depth, a.seed);
    }
    let parse_tc = |s: &Option<String>| -> Result<Option<TimeControl>, String> {
        s.as_deref()
            .map(|t| t.parse::<TimeControl>().map_err(|e| e.to_string()))
            .transpose()
    };
    let both = parse_tc(&a.tc)?;
    cfg.game.tc = [
        parse_tc(&a.tc_red)?.or_else(|| both.clone()),
        parse_tc(&a.tc_black)?.or_else(|| both.clone()),
    ];
    if let (Some(t1), Some(t2)) = (parse_tc(&a.tc1)?, parse_tc(&a.tc2)?) {
        cfg.engine_tc = Some([t1, t2]);
    }
    if cfg.game.tc[0].is_some() != cfg.game.tc[1].is_some() {
        return Err(
            "give time controls for both colours (--tc, or --tc-red and --tc-black)".into(),
        );
    }
    cfg.game.fixed = FixedLimits {
        depth: a.depth,
        nodes: a.runner.nodes,
    };
    if cfg.game.tc[0].is_none()
        && cfg.engine_tc.is_none()
        && a.depth.is_none()
        && a.runner.nodes.is_none()
    {
        return Err("give a time control (--tc …) or a fixed --depth/--nodes".into());
    }
    let rules = match a.rules.as_str() {
        "axf" | "AXF" | "asian" => RuleSet::Axf,
        "cn" | "CN" | "chinese" => RuleSet::Chinese,
        r => return Err(format!("--rules must be axf or cn, not '{r}'")),
    };
    let mut natural = NaturalLimit::default();
    if let Some(m) = a.move_limit {
        natural.moves = m.max(1);
    }
    cfg.game.arbiter = ArbiterRules {
        rules,
        judge_at: a.judge_at.clamp(2, 10),
        natural_limit: natural,
    };
    cfg.game.max_plies = (a.max_moves.max(1) as usize) * 2;
    let mut scores = ScoreRules::default();
    if let Some(r) = &a.resign {
        let [m, s] = numbers::<2>(r, "--resign")?;
        scores.resign = Some((m.clamp(1, 1000) as u32, s.clamp(1, 100_000) as i32));
    }
    if let Some(d) = &a.draw {
        let [f, m, s] = numbers::<3>(d, "--draw")?;
        scores.draw = Some((
            f.clamp(0, 10_000) as u32,
            m.clamp(1, 1000) as u32,
            s.clamp(0, 100_000) as i32,
        ));
    }
    cfg.game.scores = scores;
    cfg.game.flags = FlagPolicy {
        resign: a.accept_resign,
        draw: a.accept_draw,
    };
    cfg.game.margin_ms = a.margin;
    cfg.game.banmoves = a.banmoves;
    cfg.game.lag = a.lag.unwrap_or_default();
    cfg.game.move_timeout = seconds(a.move_timeout, "--move-timeout")?;
    cfg.sprt = a.sprt.as_deref().map(Sprt::parse).transpose()?;
    cfg.pgn_path = a.pgn.clone();
    cfg.event = a.event.clone();
    cfg.progress = !a.no_progress;
    cfg.game_lines = !a.quiet;
    Ok(cfg)
}

pub fn run(a: MatchArgs) -> ExitCode {
    let cfg = match config(&a.options) {
        Ok(c) => c,
        Err(e) => return fail("match", e),
    };
    let mut out = std::io::stdout();
    match bench::run_match(&cfg, &mut out) {
        Ok(summary) => {
            print!("{}", summary.render());
            if summary.fatal.is_some() {
                ExitCode::from(2)
            } else {
                ExitCode::SUCCESS
            }
        }
        Err(e) => fail("match", e),
    }
}
