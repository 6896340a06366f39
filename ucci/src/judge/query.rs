//! `qili judge --query [MOVE…]`: the per-move rule query (`rules::repetition::query`)
//! on the position `--fen`/`--moves` reach. One line per legal move (or per named move):
//! `ICCS NOTATION WORD [ARTICLE…]`, the notation Chinese (`--lang zh`) or WXF (`en`), the
//! word `none`/`draw`/`ban`/`win`, the articles as `Article::id`; or, with `--json`, an
//! array of `{"move","notation","rule","verdict","articles"}` (docs/RULES.md).

use super::start_position;
use rules::notation::{parse_any, parse_line, to_chinese, to_wxf, NotationError};
use rules::repetition::{article_label, query_all, query_moves, Lang, MoveRuling, RuleSet};
use rules::{Move, Position};
use serde::Serialize;

/// What to query: the position and history, the moves named (none: every legal move).
pub struct QueryInput<'a> {
    pub fen: &'a str,
    pub history: &'a str,
    pub named: &'a [String],
    pub rules: RuleSet,
    pub lang: Lang,
    pub strict: bool,
    pub json: bool,
}

/// One move's ruling as `--json` prints it.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct QueryOut {
    /// ICCS (`h2e2`).
    #[serde(rename = "move")]
    pub mv: String,
    /// Chinese (`--lang zh`) or WXF (`--lang en`) notation.
    pub notation: String,
    /// `none`, `draw`, `ban` or `win`.
    pub rule: &'static str,
    /// `draw`, `red_loses`, `black_loses`, or null for `none`.
    pub verdict: Option<&'static str>,
    /// The deciding articles (`verdict-4`, `axf-1`, `cn-24.14`, …); empty for `none`.
    pub articles: Vec<String>,
}

/// The text or JSON to print, or the error to report (in `lang`).
pub fn run(q: &QueryInput) -> Result<String, String> {
    let (start, warnings) = start_position(q.fen, q.strict, q.lang)?;
    let played =
        parse_line(&start, q.history).map_err(|(i, e)| super::line_error(i, &e, q.lang))?;
    let mut pos = start;
    for &m in &played {
        pos.make_move(m);
    }
    for w in &warnings {
        eprintln!("{w}");
    }
    let rulings = if q.named.is_empty() {
        query_all(&pos, q.rules)
    } else {
        let moves = named_moves(&pos, q.named, q.lang)?;
        query_moves(&pos, &moves, q.rules).map_err(|e| e.to_string())?
    };
    let out: Vec<QueryOut> = rulings.iter().map(|r| entry(&pos, r, q.lang)).collect();
    if q.json {
        return serde_json::to_string_pretty(&out)
            .map(|s| s + "\n")
            .map_err(|e| e.to_string());
    }
    Ok(out.iter().map(line).collect())
}

/// The named moves (any notation; one word each, or several in one quoted string), each
/// read in the queried position.
fn named_moves(pos: &Position, named: &[String], lang: Lang) -> Result<Vec<Move>, String> {
    named
        .iter()
        .flat_map(|s| s.split_whitespace())
        .map(|t| parse_any(pos, t).map_err(|e| named_error(t, &e, lang)))
        .collect()
}

fn named_error(text: &str, e: &NotationError, lang: Lang) -> String {
    match lang {
        Lang::Zh => format!("查询着法：{}", super::notation_error_zh(e)),
        Lang::En => format!("query move {text:?}: {e}"),
    }
}

/// One ruling for output; `pos` is the position the move is played in.
pub fn entry(pos: &Position, r: &MoveRuling, lang: Lang) -> QueryOut {
    QueryOut {
        mv: r.mv.iccs(),
        notation: match lang {
            Lang::Zh => to_chinese(pos, r.mv),
            Lang::En => to_wxf(pos, r.mv),
        },
        rule: r.word.as_str(),
        verdict: r.verdict.map(|v| v.as_str()),
        articles: r.articles.iter().map(|&a| article_label(a)).collect(),
    }
}

/// `ICCS NOTATION WORD [ARTICLE…]` and a newline.
pub fn line(o: &QueryOut) -> String {
    let mut s = format!("{} {} {}", o.mv, o.notation, o.rule);
    for a in &o.articles {
        s.push(' ');
        s += a;
    }
    s + "\n"
}

#[cfg(test)]
mod tests {
    use super::*;

    const D01: &str = "c2a1k3/2c1a2R1/b6P1/8p/9/9/9/9/4K4/9 w - - 0 1";

    fn input<'a>(history: &'a str, named: &'a [String], lang: Lang) -> QueryInput<'a> {
        QueryInput {
            fen: D01,
            history,
            named,
            rules: RuleSet::Axf,
            lang,
            strict: false,
            json: false,
        }
    }

    #[test]
    fn lines_name_the_move_twice_then_the_word_and_articles() {
        let named = ["f8f9".to_string(), "将６进１".to_string()];
        let out = run(&input("h8h9 f9f8 h9h8", &named, Lang::Zh)).unwrap();
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 2, "{out}");
        assert!(
            lines[0].starts_with("f8f9 将６退１ win verdict-2 axf-1"),
            "{out}"
        );
        assert_eq!(lines[1], "f8f7 将６进１ none");
        let en = run(&input("h8h9 f9f8 h9h8", &named[..1], Lang::En)).unwrap();
        assert!(en.starts_with("f8f9 K6-1 win "), "{en}");
    }

    #[test]
    fn bad_named_moves_and_history_are_errors() {
        let bad = ["a0a1".to_string()];
        let e = run(&input("h8h9 f9f8 h9h8", &bad, Lang::En)).unwrap_err();
        assert!(e.contains("a0a1"), "{e}");
        let junk = ["zz".to_string()];
        assert!(run(&input("", &junk, Lang::Zh)).is_err());
        assert!(run(&input("h8h9 zz", &[], Lang::En))
            .unwrap_err()
            .contains("move 2"));
    }
}
