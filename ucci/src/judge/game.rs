//! A whole game judged: every run of repetitions in it (each judged on its first
//! cycle), who broke each run off, and whether the recorded result agrees with what
//! the rules say; and a summary over a file of games.

use super::ruling::{build, color_str, num, Ruling};
use rayon::prelude::*;
use rules::pgn::{GameRecord, GameResult};
use rules::records::game_title;
use rules::repetition::{find_repetition, judge_cycle, Lang, RuleSet, Verdict};
use rules::{Move, Position};
use serde::Serialize;

/// One run of repeating plies, judged on its first cycle.
#[derive(Clone, Debug, Serialize)]
pub struct CycleReport {
    /// The ply (1-based) that first repeated a position, and the last ply of the run.
    pub first_repeat_ply: usize,
    pub last_ply: usize,
    /// Whole cycles played in the run (2 = the position came back twice).
    pub cycles_played: usize,
    /// The game went on after the run (someone changed).
    pub continued: bool,
    /// The side whose move broke the run off, if the game went on.
    pub changed_by: Option<&'static str>,
    /// The side that changed is the one the ruling names (null when the game ended in
    /// the run, or the ruling is a draw).
    pub changed_as_ruled: Option<bool>,
    pub ruling: Ruling,
}

/// What the rules say about the game's end, against its recorded result.
#[derive(Clone, Debug, Serialize)]
pub struct ResultCheck {
    /// The result the rules give a game that ends in its last run: `1-0`, `0-1`,
    /// `1/2-1/2`.
    pub by_the_rules: &'static str,
    pub recorded: &'static str,
    pub agrees: bool,
}

/// One game of a file.
#[derive(Clone, Debug, Serialize)]
pub struct GameReport {
    /// 1-based index in the file.
    pub game: usize,
    /// "Red – Black, Event, Date" from the record's tags.
    pub title: Option<String>,
    pub result: &'static str,
    pub plies: usize,
    pub cycles: Vec<CycleReport>,
    /// Set when the game ends inside a run of repetitions and its result is known.
    pub result_check: Option<ResultCheck>,
    /// Why the game could not be judged (an illegal move, a bad start position).
    pub error: Option<String>,
    pub warnings: Vec<String>,
}

/// Counts over a file.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Summary {
    pub games: usize,
    pub games_with_cycles: usize,
    pub games_not_judged: usize,
    pub cycles: usize,
    pub draw: usize,
    pub red_loses: usize,
    pub black_loses: usize,
    /// Runs broken off by the side the ruling named / by the other side.
    pub changed_as_ruled: usize,
    pub changed_against_ruling: usize,
    /// Games whose recorded result disagrees with the rules (1-based indexes).
    pub result_disagreements: Vec<usize>,
}

/// The options a whole-game judgement needs.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    pub rules: RuleSet,
    pub kill_depth: u32,
    pub lang: Lang,
    /// Refuse start positions no game reaches.
    pub strict: bool,
}

fn result_str(r: GameResult) -> &'static str {
    r.as_str()
}

/// Judge one game (index `game`, 1-based).
pub fn judge_game(g: &GameRecord, game: usize, o: Options) -> GameReport {
    let mut report = GameReport {
        game,
        title: game_title(g),
        result: result_str(g.result),
        plies: g.moves.len(),
        cycles: Vec::new(),
        result_check: None,
        error: None,
        warnings: Vec::new(),
    };
    let start = match super::start_position(g.start_fen(), o.strict, o.lang) {
        Ok((p, warnings)) => {
            report.warnings = warnings;
            p
        }
        Err(e) => {
            report.error = Some(e);
            return report;
        }
    };
    let mut pos = start;
    let mut run: Option<(usize, usize, usize)> = None; // (cycle start, first repeat, last)
    let mut runs: Vec<(usize, usize, usize)> = Vec::new();
    for (i, &m) in g.moves.iter().enumerate() {
        if !pos.is_legal(m) {
            report.error = Some(match o.lang {
                Lang::Zh => format!("第{}着不合规则", num(i + 1, o.lang)),
                Lang::En => format!("ply {}: {m} is not a legal move", i + 1),
            });
            break;
        }
        pos.make_move(m);
        match find_repetition(&pos) {
            Some(s) => match &mut run {
                Some(r) => r.2 = i + 1,
                None => run = Some((s, i + 1, i + 1)),
            },
            None => {
                if let Some(r) = run.take() {
                    runs.push(r);
                }
            }
        }
    }
    if let Some(r) = run.take() {
        runs.push(r);
    }
    if report.error.is_some() {
        return report;
    }
    let start = super::start_position(g.start_fen(), false, o.lang)
        .map(|(p, _)| p)
        .expect("checked above");
    for (cycle_start, first, last) in runs {
        match judge_run(&start, &g.moves, cycle_start, first, last, o) {
            Ok(c) => report.cycles.push(c),
            Err(e) => report.error = Some(e),
        }
    }
    if let Some(c) = report.cycles.last() {
        if !c.continued && g.result != GameResult::Unknown {
            let by_the_rules = match super::ruling::verdict_of(&c.ruling) {
                Verdict::Draw => GameResult::Draw,
                Verdict::RedLoses => GameResult::BlackWins,
                Verdict::BlackLoses => GameResult::RedWins,
            };
            report.result_check = Some(ResultCheck {
                by_the_rules: result_str(by_the_rules),
                recorded: result_str(g.result),
                agrees: by_the_rules == g.result,
            });
        }
    }
    report
}

/// Judge the run whose first cycle is `moves[cycle_start..first]` and which lasts to
/// ply `last`.
fn judge_run(
    start: &Position,
    moves: &[Move],
    cycle_start: usize,
    first: usize,
    last: usize,
    o: Options,
) -> Result<CycleReport, String> {
    let mut p = start.clone();
    for &m in &moves[..cycle_start] {
        p.make_move(m);
    }
    let cycle = &moves[cycle_start..first];
    let j = judge_cycle(&p, cycle, o.rules, o.kill_depth).map_err(|e| e.to_string())?;
    let ruling = build(&p, &j, cycle_start, o.lang, o.kill_depth);
    let continued = last < moves.len();
    // The move after the run broke it off; its side is whoever moves at that ply.
    let changed_by = continued.then(|| {
        let mover = if (last - cycle_start).is_multiple_of(2) {
            p.side_to_move()
        } else {
            p.side_to_move().flip()
        };
        color_str(mover)
    });
    let changed_as_ruled = match (changed_by, ruling.must_change) {
        (Some(c), Some(m)) => Some(c == m),
        _ => None,
    };
    Ok(CycleReport {
        first_repeat_ply: first,
        last_ply: last,
        cycles_played: (last - cycle_start) / cycle.len().max(1),
        continued,
        changed_by,
        changed_as_ruled,
        ruling,
    })
}

/// Judge every game (in parallel), calling `progress` once per game.
pub fn judge_games(
    games: &[GameRecord],
    o: Options,
    progress: &(dyn Fn() + Sync),
) -> (Vec<GameReport>, Summary) {
    let reports: Vec<GameReport> = games
        .par_iter()
        .enumerate()
        .map(|(i, g)| {
            let r = judge_game(g, i + 1, o);
            progress();
            r
        })
        .collect();
    let mut s = Summary {
        games: reports.len(),
        ..Summary::default()
    };
    for r in &reports {
        s.games_not_judged += r.error.is_some() as usize;
        s.games_with_cycles += !r.cycles.is_empty() as usize;
        for c in &r.cycles {
            s.cycles += 1;
            match c.ruling.verdict {
                "draw" => s.draw += 1,
                "red_loses" => s.red_loses += 1,
                _ => s.black_loses += 1,
            }
            match c.changed_as_ruled {
                Some(true) => s.changed_as_ruled += 1,
                Some(false) => s.changed_against_ruling += 1,
                None => {}
            }
        }
        if r.result_check.as_ref().is_some_and(|c| !c.agrees) {
            s.result_disagreements.push(r.game);
        }
    }
    (reports, s)
}
