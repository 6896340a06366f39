//! `qili judge`: decide a repetition under the AXF (default) or Chinese 2020 rules and
//! give the ruling as an arbiter signs it: each move's label and the articles behind
//! it, each side's offence, the verdict and the principle that decides it.
//!
//! `--fen F --moves …`: the moves (ICCS, WXF or Chinese notation, one quoted string or
//! separate words) are played from F; the final position must repeat an earlier one
//! (no capture in between). The cycle judged runs from the earliest such occurrence,
//! so a typed loop is judged whole.
//! `--pgn/--xqf/--dhtmlxq FILE`: every game in the file, every run of repetitions in
//! each game, the recorded result checked, and a summary.
//! `--query [MOVE…]` (with `--fen`/`--moves` as the position and its history): the
//! per-move rule query, `none`/`draw`/`ban`/`win` for each move (`judge/query.rs`).
//! The parts live in `judge/` (ruling data, text, games, pictures).

use crate::cli::position::PositionArgs;
use crate::cli::{fail, warn};
use crate::judge::{game, line_error, query, ruling, start_position, svg, text};
use clap::{Args, ValueEnum};
use rules::notation::parse_line;
use rules::records::read_games;
use rules::repetition::{judge_cycle, Lang, RuleSet, KILL_DEPTH};
use rules::Position;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum RulesArg {
    /// Asian Xiangqi Federation rules (棋例细则 1–35).
    Axf,
    /// Chinese Xiangqi Association rules, 2020.
    Cn,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum LangArg {
    /// Chinese terms and notation, full-width numbers.
    Zh,
    /// English terms, WXF and ICCS notation.
    En,
}

#[derive(Args)]
pub struct JudgeArgs {
    // `--moves` are the moves judged, or with `--query` the history of the position
    // queried.
    #[command(flatten)]
    position: PositionArgs,
    /// A file of games (PGN with any notation, XQF or DhtmlXQ; the format is read from
    /// the content): judge every repetition of every game.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["fen", "moves", "xqf", "dhtmlxq"])]
    pgn: Option<PathBuf>,
    /// An XQF file (XQStudio; plain or encrypted).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["fen", "moves", "dhtmlxq"])]
    xqf: Option<PathBuf>,
    /// A DhtmlXQ / UBB text file.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["fen", "moves"])]
    dhtmlxq: Option<PathBuf>,
    /// Rule set.
    #[arg(long, value_enum, default_value_t = RulesArg::Axf)]
    rules: RulesArg,
    /// Language of the ruling.
    #[arg(long, value_enum, default_value_t = LangArg::Zh)]
    lang: LangArg,
    /// Print JSON instead of text (schema in docs/RULES.md).
    #[arg(long)]
    json: bool,
    /// Draw the cycle as an SVG picture into FILE.
    #[arg(long, value_name = "FILE")]
    svg: Option<PathBuf>,
    /// Write one self-contained HTML page (picture and ruling) into FILE.
    #[arg(long, value_name = "FILE")]
    html: Option<PathBuf>,
    /// With a game file: which cycle to draw (counting through the file from 1).
    #[arg(long, default_value_t = 1, value_name = "N")]
    cycle: usize,
    /// Rule query: for each legal move of the position `--fen`/`--moves` reach (or each
    /// MOVE named, in any notation), would it complete a repetition, and is it `none`,
    /// `draw`, `ban` (the mover must change) or `win` (the opponent must), with the
    /// deciding articles: one line `ICCS NOTATION WORD [ARTICLE…]` per move, or a JSON
    /// array with `--json`. Uses the search's own verdict (its kill depth, not
    /// `--kill-depth`).
    #[arg(long, num_args = 0.., value_name = "MOVE",
          conflicts_with_all = ["pgn", "xqf", "dhtmlxq", "svg", "html"])]
    query: Option<Vec<String>>,
    /// Checking moves searched when looking for a mate threat (杀), at most 6.
    #[arg(long, default_value_t = KILL_DEPTH)]
    kill_depth: u32,
}

pub fn run(a: JudgeArgs) -> ExitCode {
    let lang = match a.lang {
        LangArg::Zh => Lang::Zh,
        LangArg::En => Lang::En,
    };
    let o = game::Options {
        rules: match a.rules {
            RulesArg::Axf => RuleSet::Axf,
            RulesArg::Cn => RuleSet::Chinese,
        },
        kill_depth: a.kill_depth.min(6),
        lang,
        strict: a.position.strict,
    };
    let file = a.pgn.as_ref().or(a.xqf.as_ref()).or(a.dhtmlxq.as_ref());
    let result = match (file, &a.query) {
        (_, Some(named)) => query::run(&query::QueryInput {
            fen: a.position.fen(),
            history: &a.position.move_text(),
            named,
            rules: o.rules,
            lang,
            strict: a.position.strict,
            json: a.json,
        }),
        (Some(path), None) => judge_file(path, &a, o),
        (None, None) => judge_moves(a.position.fen(), &a.position.move_text(), o)
            .and_then(|r| output_ruling(r, &a, lang)),
    };
    match result {
        Ok(text) => {
            print!("{text}");
            ExitCode::SUCCESS
        }
        Err(e) => fail("judge", e),
    }
}

/// Write the pictures asked for, and return the text or JSON to print.
fn output_ruling(r: ruling::Ruling, a: &JudgeArgs, lang: Lang) -> Result<String, String> {
    draw(&r, a, lang)?;
    if a.json {
        return serde_json::to_string_pretty(&r)
            .map(|s| s + "\n")
            .map_err(|e| e.to_string());
    }
    warn("judge", &r.warnings);
    Ok(text::render(&r, lang))
}

fn draw(r: &ruling::Ruling, a: &JudgeArgs, lang: Lang) -> Result<(), String> {
    let write = |path: &Path, body: String| {
        std::fs::write(path, body).map_err(|e| format!("cannot write {}: {e}", path.display()))
    };
    if let Some(p) = &a.svg {
        write(p, svg::svg(r, lang))?;
    }
    if let Some(p) = &a.html {
        write(p, svg::html(r, lang))?;
    }
    Ok(())
}

/// Play `moves` from `fen` and judge the cycle they close.
pub fn judge_moves(fen: &str, moves: &str, o: game::Options) -> Result<ruling::Ruling, String> {
    let (start, warnings) = start_position(fen, o.strict, o.lang)?;
    let played = parse_line(&start, moves).map_err(|(i, e)| line_error(i, &e, o.lang))?;
    if played.is_empty() {
        return Err(match o.lang {
            Lang::Zh => {
                "没有着法：请用 --moves 给出着法，或 --pgn/--xqf/--dhtmlxq 给出棋谱文件".into()
            }
            Lang::En => {
                "no moves given: use --moves \"m1 m2 …\" or --pgn/--xqf/--dhtmlxq FILE".into()
            }
        });
    }
    let mut pos = start.clone();
    for &m in &played {
        pos.make_move(m);
    }
    let begin = earliest_occurrence(&pos).ok_or_else(|| match o.lang {
        Lang::Zh => "着法没有形成循环（最后的局面须在前面出现过，其间不能吃子）".to_string(),
        Lang::En => "the moves do not repeat a position (the final position must occur earlier, \
                     with no capture in between)"
            .to_string(),
    })?;
    let mut cycle_start = start;
    for &m in &played[..begin] {
        cycle_start.make_move(m);
    }
    let j = judge_cycle(&cycle_start, &played[begin..], o.rules, o.kill_depth)
        .map_err(|e| e.to_string())?;
    let mut r = ruling::build(&cycle_start, &j, begin, o.lang, o.kill_depth);
    r.warnings = warnings;
    Ok(r)
}

/// The earliest ply (index into `history()`) whose position equals the current one,
/// with no capture since.
fn earliest_occurrence(pos: &Position) -> Option<usize> {
    let h = pos.history();
    let n = h.len();
    let reach = (pos.plies_since_capture() as usize).min(n);
    (4..=reach)
        .rev()
        .filter(|d| d % 2 == 0)
        .map(|d| n - d)
        .find(|&i| h[i].key == pos.key())
}

/// Every game of a file: reports, a summary, and the picture of one cycle.
fn judge_file(path: &Path, a: &JudgeArgs, o: game::Options) -> Result<String, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let games = read_games(&bytes).map_err(|e| format!("{}: {e}", path.display()))?;
    let bar = indicatif::ProgressBar::new(games.len() as u64);
    if games.len() < 50 {
        bar.set_draw_target(indicatif::ProgressDrawTarget::hidden());
    }
    let (reports, summary) = game::judge_games(&games, o, &|| bar.inc(1));
    bar.finish_and_clear();
    if a.svg.is_some() || a.html.is_some() {
        let c = reports
            .iter()
            .flat_map(|g| &g.cycles)
            .nth(a.cycle.saturating_sub(1))
            .ok_or_else(|| format!("the file has no cycle {} to draw", a.cycle))?;
        draw(&c.ruling, a, o.lang)?;
    }
    if a.json {
        #[derive(serde::Serialize)]
        struct FileReport<'a> {
            games: &'a [game::GameReport],
            summary: &'a game::Summary,
        }
        return serde_json::to_string_pretty(&FileReport {
            games: &reports,
            summary: &summary,
        })
        .map(|s| s + "\n")
        .map_err(|e| e.to_string());
    }
    let mut out = String::new();
    for r in &reports {
        warn("judge", &r.warnings);
        out += &text::render_game(r, o.lang);
        out.push('\n');
    }
    out += &text::render_summary(&summary, o.lang);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rules::START_FEN;

    const D01: &str = "c2a1k3/2c1a2R1/b6P1/8p/9/9/9/9/4K4/9 w - - 0 1";

    fn opts(rules: RuleSet, lang: Lang) -> game::Options {
        game::Options {
            rules,
            kill_depth: 1,
            lang,
            strict: false,
        }
    }

    #[test]
    fn the_ruling_has_the_verdict_basis_and_one_entry_per_move() {
        let r = judge_moves(D01, "h8h9 f9f8 h9h8 f8f9", opts(RuleSet::Axf, Lang::Zh)).unwrap();
        assert_eq!(r.verdict, "red_loses");
        assert_eq!(r.must_change, Some("red"));
        assert_eq!(r.moves.len(), 4);
        assert_eq!(r.moves[0].chinese, "车二进一");
        assert_eq!(r.moves[0].label, "check");
        assert_eq!(r.basis.principle.id, "verdict-2");
        assert!(r.sides.red.articles.iter().any(|c| c.id == "axf-1"));
        assert!(r.moves[0].articles.iter().any(|c| c.id == "axf-1"));
        let json = serde_json::to_value(&r).unwrap();
        assert_eq!(json["basis"]["principle"]["cite"], "棋例之裁决乙２");
        assert_eq!(json["moves"][0]["articles"][0]["id"], "axf-1");
    }

    #[test]
    fn moves_in_any_notation() {
        let a = judge_moves(D01, "h8h9 f9f8 h9h8 f8f9", opts(RuleSet::Axf, Lang::En)).unwrap();
        let b = judge_moves(
            D01,
            "车二进一 将６进１ 车二退一 将６退１",
            opts(RuleSet::Axf, Lang::En),
        )
        .unwrap();
        let c = judge_moves(D01, "R2+1 K6+1 R2-1 K6-1", opts(RuleSet::Axf, Lang::En)).unwrap();
        assert_eq!(a.verdict, b.verdict);
        assert_eq!(
            a.moves.iter().map(|m| &m.iccs).collect::<Vec<_>>(),
            c.moves.iter().map(|m| &m.iccs).collect::<Vec<_>>()
        );
    }

    #[test]
    fn a_prefix_before_the_loop_is_allowed() {
        let r = judge_moves(
            "4k4/4a4/9/9/9/9/9/9/4A4/R3K4 w - - 0 1",
            "a0b0 e8d9 b0c0 d9e8 c0b0 e8d9",
            opts(RuleSet::Axf, Lang::En),
        )
        .unwrap();
        assert_eq!(r.verdict, "draw");
        assert_eq!(r.start_ply, 2);
        assert_eq!(r.moves[0].ply, 3);
        assert_eq!(r.moves.len(), 4);
    }

    #[test]
    fn bad_input_is_an_error() {
        let o = opts(RuleSet::Axf, Lang::En);
        assert!(judge_moves("bad fen", "h2e2", o).is_err());
        assert!(judge_moves(START_FEN, "", o).is_err());
        assert!(judge_moves(START_FEN, "h2e2 zz", o).is_err());
        assert!(judge_moves(START_FEN, "h2e2 h9g7", o).is_err());
        let e = judge_moves(START_FEN, "h2h8", o).unwrap_err();
        assert!(e.contains("move 1"), "{e}");
        let e = judge_moves(START_FEN, "h2h8", opts(RuleSet::Axf, Lang::Zh)).unwrap_err();
        assert!(e.contains("第１着") && e.contains("不是合法着法"), "{e}");
        let e = judge_moves(START_FEN, "h2e2 zz", opts(RuleSet::Axf, Lang::Zh)).unwrap_err();
        assert_eq!(e, "第２着：「zz」不是着法");
    }

    /// A composed study (three advisors) is judged with a warning, and refused when strict.
    #[test]
    fn composed_studies_warn_and_strict_refuses() {
        let study = "3ak4/3a1a3/9/9/9/9/9/9/4A4/R3K4 w - - 0 1";
        let cycle = "a0b0 e9e8 b0a0 e8e9";
        let r = judge_moves(study, cycle, opts(RuleSet::Axf, Lang::En)).unwrap();
        assert_eq!(r.warnings.len(), 1, "{:?}", r.warnings);
        assert!(r.warnings[0].contains("composed"), "{:?}", r.warnings);
        let zh = judge_moves(study, cycle, opts(RuleSet::Axf, Lang::Zh)).unwrap();
        assert!(zh.warnings[0].contains("排局"), "{:?}", zh.warnings);
        let strict = game::Options {
            strict: true,
            ..opts(RuleSet::Axf, Lang::En)
        };
        assert!(judge_moves(study, cycle, strict)
            .unwrap_err()
            .contains("--strict"));
        let ok = judge_moves(D01, "h8h9 f9f8 h9h8 f8f9", strict).unwrap();
        assert!(ok.warnings.is_empty());
    }
}
