//! A match: games in parallel worker threads, each with its own pair of engine
//! processes; every opening played twice with colours reversed; results collected
//! on the calling thread, which writes the PGN, draws the progress bar, keeps the
//! statistics and stops early when the SPRT decides or a fatal problem shows up.

use crate::arbiter::Termination;
use crate::game::{play_game, GameReport, GameRules, GameSpec, GuiLag};
use crate::openings::Opening;
use crate::process::{Engine, EngineConfig};
use crate::progress::Progress;
use crate::stats::{Sprt, SprtState, Tally};
use rules::pgn::{GameRecord, GameResult};
use rules::Color;
use std::collections::HashMap;
use std::fs::File;
use std::io::Write;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::mpsc::channel;

/// Everything about a match.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The two engines; results are reported from the first one's point of view.
    pub engines: [EngineConfig; 2],
    pub games: u32,
    pub concurrency: usize,
    pub openings: Vec<Opening>,
    /// How every game is played and judged (clocks, arbiter, adjudication, lag).
    pub game: GameRules,
    /// Time odds: each engine's own clock (first, second), whichever colour it
    /// plays; overrides `game.tc`.
    pub engine_tc: Option<[engine::TimeControl; 2]>,
    pub sprt: Option<Sprt>,
    pub pgn_path: Option<std::path::PathBuf>,
    pub event: String,
    pub progress: bool,
    /// Print one line per finished game.
    pub game_lines: bool,
}

impl MatchConfig {
    pub fn new(engines: [EngineConfig; 2]) -> MatchConfig {
        MatchConfig {
            engines,
            games: 2,
            concurrency: 1,
            openings: vec![Opening::startpos()],
            game: GameRules::default(),
            engine_tc: None,
            sprt: None,
            pgn_path: None,
            event: "qili match".into(),
            progress: true,
            game_lines: true,
        }
    }
}

/// One finished game as the summary lists it.
#[derive(Clone, Debug)]
pub struct GameSummary {
    /// 0-based game number.
    pub index: u32,
    /// Which engine (0 or 1) played Red.
    pub red_engine: usize,
    pub record: GameRecord,
    pub termination: Termination,
}

impl GameSummary {
    /// Half points (0..=2) of the first engine; `None` for an aborted game.
    pub fn first_engine_half_points(&self) -> Option<u32> {
        let first = if self.red_engine == 0 {
            Color::Red
        } else {
            Color::Black
        };
        match self.termination.result() {
            GameResult::Draw => Some(1),
            GameResult::Unknown => None,
            r => Some(if r.winner() == Some(first) { 2 } else { 0 }),
        }
    }
}

#[derive(Clone, Debug)]
pub struct MatchSummary {
    pub names: [String; 2],
    pub tally: Tally,
    pub sprt: Option<(Sprt, f64, SprtState)>,
    /// Finished games in the order they finished.
    pub games: Vec<GameSummary>,
    /// A problem that stopped the match.
    pub fatal: Option<String>,
}

impl MatchSummary {
    /// The closing report: W/D/L, score, Elo ± 95%, SPRT, and how games ended.
    pub fn render(&self) -> String {
        let t = &self.tally;
        let mut s = format!(
            "{} vs {}: games {}, +{} ={} -{} (W/D/L for {}), score {:.1}%\n",
            self.names[0],
            self.names[1],
            t.games(),
            t.wins,
            t.draws,
            t.losses,
            self.names[0],
            100.0 * t.score()
        );
        match t.elo() {
            _ if t.games() > 0 && t.wins == t.games() => {
                s.push_str("Elo difference: +inf (every game won)\n")
            }
            _ if t.games() > 0 && t.losses == t.games() => {
                s.push_str("Elo difference: -inf (every game lost)\n")
            }
            (e, Some(err)) => s.push_str(&format!(
                "Elo difference: {:+.1} ± {err:.1} (95%)\n",
                e + 0.0
            )),
            (e, None) if t.games() > 0 => s.push_str(&format!(
                "Elo difference: {:+.1} (interval undefined)\n",
                e + 0.0
            )),
            _ => {}
        }
        if let Some((sp, llr, state)) = &self.sprt {
            let (lo, hi) = sp.bounds();
            let verdict = match state {
                SprtState::AcceptH1 => "H1 accepted",
                SprtState::AcceptH0 => "H0 accepted",
                SprtState::Continue => "no decision yet",
            };
            s.push_str(&format!(
                "SPRT elo0={} elo1={} alpha={} beta={}: LLR {llr:.2} ({lo:.2}, {hi:.2}) {verdict}\n",
                sp.elo0, sp.elo1, sp.alpha, sp.beta
            ));
        }
        let mut kinds: Vec<(String, u32)> = Vec::new();
        for g in &self.games {
            let k = termination_kind(&g.termination);
            match kinds.iter_mut().find(|(n, _)| *n == k) {
                Some(e) => e.1 += 1,
                None => kinds.push((k, 1)),
            }
        }
        if !kinds.is_empty() {
            let list: Vec<String> = kinds.iter().map(|(k, n)| format!("{k} {n}")).collect();
            s.push_str(&format!("Endings: {}\n", list.join(", ")));
        }
        if !self.games.is_empty() {
            s.push_str(&format!(
                "Distinct games: {} of {} (by start position and moves)\n",
                self.distinct_games(),
                self.games.len()
            ));
        }
        if let Some(f) = &self.fatal {
            s.push_str(&format!("Match stopped: {f}\n"));
        }
        s
    }

    /// How many finished games differ from each other in start position or moves
    /// (opening moves included): the variety an opening book or randomness gives.
    pub fn distinct_games(&self) -> usize {
        let set: std::collections::HashSet<(&str, &[rules::Move])> = self
            .games
            .iter()
            .map(|g| (g.record.start_fen(), g.record.moves.as_slice()))
            .collect();
        set.len()
    }

    /// Games lost on time, by illegal move, crash or no move.
    pub fn forfeits(&self) -> usize {
        self.games
            .iter()
            .filter(|g| g.termination.is_forfeit())
            .count()
    }
}

/// A short category name for the summary.
pub fn termination_kind(t: &Termination) -> String {
    use Termination::*;
    match t {
        Checkmate { .. } => "mate",
        Stalemate { .. } => "stalemate",
        PerpetualLoss { .. } => "perpetual",
        RepetitionDraw { .. } => "repetition draw",
        MoveLimit { .. } => "move limit",
        NoAttackingMaterial => "no material",
        TimeForfeit { .. } => "time forfeit",
        IllegalMove { .. } => "illegal move",
        Crash { .. } => "engine failure",
        NoMove { .. } => "no move",
        Resignation { .. } => "resignation",
        AgreedDraw => "agreed draw",
        ScoreAdjudication { .. } => "score adjudication",
        Aborted { .. } => "aborted",
    }
    .to_string()
}

/// Today's date as PGN writes it (UTC), without a date library.
pub fn pgn_date() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    // Civil date from days since 1970-01-01 (H. Hinnant's algorithm).
    let z = (secs / 86_400) as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}.{m:02}.{d:02}")
}

struct Finished {
    index: u32,
    red_engine: usize,
    report: GameReport,
    names: [String; 2],
}

fn worker(
    cfg: &MatchConfig,
    next: &AtomicU32,
    stop: &AtomicBool,
    tx: std::sync::mpsc::Sender<Finished>,
) {
    let mut slots: [Option<Engine>; 2] = [None, None];
    let mut names: [String; 2] = [0, 1].map(|i| {
        cfg.engines[i].name.clone().unwrap_or_else(|| {
            Path::new(&cfg.engines[i].argv[0])
                .file_name()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default()
        })
    });
    loop {
        if stop.load(Ordering::SeqCst) {
            break;
        }
        let g = next.fetch_add(1, Ordering::SeqCst);
        if g >= cfg.games {
            break;
        }
        let red_engine = (g % 2) as usize;
        let colour_of = |i: usize| {
            if i == red_engine {
                Color::Red
            } else {
                Color::Black
            }
        };
        let opening = &cfg.openings[(g / 2) as usize % cfg.openings.len()];
        let mut failed: Vec<(usize, String)> = Vec::new();
        for i in 0..2 {
            if slots[i].is_none() {
                match Engine::start(&cfg.engines[i]) {
                    Ok(e) => {
                        names[i] = e.display_name();
                        slots[i] = Some(e);
                    }
                    Err(e) => failed.push((i, e.to_string())),
                }
            }
        }
        if names[0] == names[1] {
            names[0].push_str(" #1");
            names[1].push_str(" #2");
        }
        let report = if !failed.is_empty() {
            let detail = failed
                .iter()
                .map(|(i, e)| format!("engine '{}' failed to start: {e}", names[*i]))
                .collect::<Vec<_>>()
                .join("; ");
            let t = if failed.len() == 2 {
                Termination::Aborted {
                    detail: detail.clone(),
                }
            } else {
                Termination::Crash {
                    loser: colour_of(failed[0].0),
                    detail: detail.clone(),
                }
            };
            let mut record = GameRecord::new(Some(&opening.fen));
            for &m in &opening.moves {
                record.push(m, Some("book".into()));
            }
            record.result = t.result();
            record.set_tag("Termination", &t.to_string());
            GameReport {
                record,
                termination: t,
                broken: [false, false],
                fatal: Some(detail),
            }
        } else {
            let spec = GameSpec {
                start_fen: opening.fen.clone(),
                opening: opening.moves.clone(),
                rules: GameRules {
                    lag: GuiLag {
                        seed: cfg.game.lag.seed ^ (u64::from(g) << 32),
                        ..cfg.game.lag
                    },
                    // With time odds the clocks follow the engines, not the colours.
                    tc: match &cfg.engine_tc {
                        Some(t) => [Some(t[red_engine].clone()), Some(t[1 - red_engine].clone())],
                        None => cfg.game.tc.clone(),
                    },
                    ..cfg.game.clone()
                },
            };
            let [s0, s1] = &mut slots;
            let (Some(e0), Some(e1)) = (s0.as_mut(), s1.as_mut()) else {
                break;
            };
            let pair = if red_engine == 0 { [e0, e1] } else { [e1, e0] };
            let r = play_game(pair, &spec);
            for (i, slot) in slots.iter_mut().enumerate() {
                let broken = r.broken[colour_of(i).index()];
                if broken || !slot.as_mut().is_some_and(|e| e.alive()) {
                    *slot = None; // dropping quits (and kills if needed)
                }
            }
            r
        };
        if report.fatal.is_some() {
            stop.store(true, Ordering::SeqCst); // no point starting more games
        }
        if tx
            .send(Finished {
                index: g,
                red_engine,
                report,
                names: names.clone(),
            })
            .is_err()
        {
            break;
        }
    }
    // Quit both engines in parallel-safe order; Drop kills after the quit timeout.
    for s in slots.iter_mut() {
        if let Some(e) = s.take() {
            e.quit();
        }
    }
}

/// Open `path` for appending, created if missing (a match's PGN, a tuner's log: a
/// run adds to what earlier runs wrote). The error names the file.
pub fn open_append(path: &Path) -> Result<File, String> {
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|e| format!("{}: {e}", path.display()))
}

/// Run the match; per-game lines go to `out`.
pub fn run_match(cfg: &MatchConfig, out: &mut dyn Write) -> Result<MatchSummary, String> {
    if cfg.openings.is_empty() {
        return Err("no openings".into());
    }
    if cfg.engine_tc.is_none()
        && cfg.game.tc.iter().any(|t| t.is_none())
        && cfg.game.fixed.depth.is_none()
        && cfg.game.fixed.nodes.is_none()
    {
        return Err(
            "give a time control (--tc, or --tc-red and --tc-black) or --depth/--nodes".into(),
        );
    }
    let mut pgn_file = cfg.pgn_path.as_deref().map(open_append).transpose()?;
    let next = AtomicU32::new(0);
    let stop = AtomicBool::new(false);
    let mut summary = MatchSummary {
        names: [String::new(), String::new()],
        tally: Tally::default(),
        sprt: cfg.sprt.map(|s| (s, 0.0, SprtState::Continue)),
        games: Vec::new(),
        fatal: None,
    };
    let mut progress = Progress::new("games", u64::from(cfg.games), cfg.progress);
    progress.set(0, "starting");
    let mut first_of_pair: HashMap<u32, u32> = HashMap::new();
    let date = pgn_date();
    let threads = cfg.concurrency.clamp(1, cfg.games.max(1) as usize);
    std::thread::scope(|scope| {
        let (tx, rx) = channel::<Finished>();
        for _ in 0..threads {
            let tx = tx.clone();
            let (next, stop) = (&next, &stop);
            scope.spawn(move || worker(cfg, next, stop, tx));
        }
        drop(tx);
        for f in rx {
            let Finished {
                index,
                red_engine,
                mut report,
                names,
            } = f;
            summary.names = names.clone();
            let rec = &mut report.record;
            rec.set_tag("Event", &cfg.event);
            rec.set_tag("Site", "?");
            rec.set_tag("Date", &date);
            rec.set_tag("Round", &(index + 1).to_string());
            rec.set_tag("Red", &names[red_engine]);
            rec.set_tag("Black", &names[1 - red_engine]);
            let clocks = match &cfg.engine_tc {
                Some(t) => [Some(&t[red_engine]), Some(&t[1 - red_engine])],
                None => [cfg.game.tc[0].as_ref(), cfg.game.tc[1].as_ref()],
            };
            if let Some(tc) = clocks[0] {
                rec.set_tag("TimeControl", &tc.to_string());
            }
            if clocks[0] != clocks[1] {
                if let Some(tc) = clocks[1] {
                    rec.set_tag("TimeControlBlack", &tc.to_string());
                }
            }
            rec.set_tag("PlyCount", &rec.moves.len().to_string());
            if let Some(file) = pgn_file.as_mut() {
                if let Err(e) = file.write_all(rec.to_pgn().as_bytes()) {
                    summary.fatal = Some(format!("cannot write the PGN: {e}"));
                    stop.store(true, Ordering::SeqCst);
                }
            }
            let game = GameSummary {
                index,
                red_engine,
                record: report.record,
                termination: report.termination,
            };
            if let Some(hp) = game.first_engine_half_points() {
                summary.tally.add_game(hp);
                match first_of_pair.remove(&(index / 2)) {
                    Some(prev) => summary.tally.add_pair(prev + hp),
                    None => {
                        first_of_pair.insert(index / 2, hp);
                    }
                }
            }
            if let Some(f) = report.fatal {
                summary.fatal.get_or_insert(f);
                stop.store(true, Ordering::SeqCst);
            }
            if cfg.game_lines {
                progress.suspend(|| {
                    let _ = writeln!(
                        out,
                        "Game {} ({} vs {}): {} {{{}}}",
                        index + 1,
                        names[red_engine],
                        names[1 - red_engine],
                        game.termination.result(),
                        game.termination
                    );
                });
            }
            summary.games.push(game);
            let mut status = format!(
                "+{} ={} -{}",
                summary.tally.wins, summary.tally.draws, summary.tally.losses
            );
            if let Some((sp, llr, state)) = summary.sprt.as_mut() {
                *llr = sp.llr(&summary.tally);
                *state = sp.state(&summary.tally);
                status.push_str(&format!(" LLR {:.2}", *llr));
                if *state != SprtState::Continue {
                    stop.store(true, Ordering::SeqCst);
                }
            }
            progress.set(summary.games.len() as u64, &status);
        }
    });
    progress.finish();
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use super::open_append;
    use std::io::Write;

    #[test]
    fn open_append_creates_then_appends_and_names_the_file_in_errors() {
        let p = std::env::temp_dir().join(format!("qili-open-append-{}", std::process::id()));
        let _ = std::fs::remove_file(&p);
        for line in ["a\n", "b\n"] {
            open_append(&p).unwrap().write_all(line.as_bytes()).unwrap();
        }
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "a\nb\n");
        std::fs::remove_file(&p).unwrap();
        let e = open_append(std::path::Path::new("/nonexistent/dir/x.pgn")).unwrap_err();
        assert!(e.starts_with("/nonexistent/dir/x.pgn: "), "{e}");
    }
}
