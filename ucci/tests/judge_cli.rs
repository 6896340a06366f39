//! `qili judge` as a user runs it: the forms `--moves` takes, one language at a time,
//! the JSON ruling, composed studies and `--strict`, game files in every format with
//! several cycles and a summary, and the picture.

use rules::pgn::{GameRecord, GameResult};
use rules::records::dhtmlxq;
use rules::records::xqf::{self, KeyBytes, WriteAs};
use rules::Move;
use serde_json::Value;
use std::path::PathBuf;
use std::process::{Command, Output};

const D01: &str = "c2a1k3/2c1a2R1/b6P1/8p/9/9/9/9/4K4/9 w - - 0 1";
const QUIET: &str = "4k4/4a4/9/9/9/9/9/9/4A4/R3K4 w - - 0 1";

fn qili(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_qili"))
        .arg("judge")
        .args(args)
        .output()
        .expect("qili runs")
}

fn stdout(o: &Output) -> String {
    assert!(
        o.status.success(),
        "failed: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout.clone()).expect("UTF-8")
}

fn json(args: &[&str]) -> Value {
    let mut a = args.to_vec();
    a.push("--json");
    serde_json::from_str(&stdout(&qili(&a))).expect("JSON")
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("qili-judge-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir.join(name)
}

fn is_cjk(c: char) -> bool {
    matches!(c as u32, 0x3000..=0x303F | 0x4E00..=0x9FFF | 0xFF00..=0xFFEF)
}

#[test]
fn moves_as_one_string_or_separate_words_in_any_notation() {
    let one = json(&["--fen", D01, "--moves", "h8h9 f9f8 h9h8 f8f9"]);
    let words = json(&["--fen", D01, "--moves", "h8h9", "f9f8", "h9h8", "f8f9"]);
    let chinese = json(&[
        "--fen",
        D01,
        "--moves",
        "1.",
        "车二进一",
        "将６进１",
        "2.",
        "车二退一",
        "将６退１",
    ]);
    let wxf = json(&[
        "--fen",
        D01,
        "--moves",
        "R2+1 K6+1 R2-1 K6-1",
        "--rules",
        "axf",
    ]);
    for v in [&words, &chinese, &wxf] {
        assert_eq!(v["verdict"], one["verdict"]);
        assert_eq!(v["moves"], one["moves"]);
    }
    assert_eq!(one["verdict"], "red_loses");
    // A flag after the moves is a flag, not a move.
    let en = stdout(&qili(&[
        "--fen", D01, "--moves", "h8h9", "f9f8", "h9h8", "f8f9", "--lang", "en",
    ]));
    assert!(en.contains("Red must change"), "{en}");
}

/// The JSON has the basis and per-move articles, and the documented keys.
#[test]
fn json_ruling_has_its_basis() {
    let v = json(&["--fen", D01, "--moves", "h8h9 f9f8 h9h8 f8f9"]);
    for key in [
        "rules",
        "fen",
        "start_ply",
        "plies",
        "verdict",
        "must_change",
        "sides",
        "basis",
        "moves",
        "limits",
        "horizons",
        "warnings",
    ] {
        assert!(v.get(key).is_some(), "missing {key}");
    }
    assert_eq!(v["basis"]["principle"]["id"], "verdict-2");
    assert_eq!(v["sides"]["red"]["offence"], "perpetual_check");
    assert_eq!(v["sides"]["black"]["offence"], "perpetual_chase");
    assert_eq!(v["moves"][0]["articles"][0]["cite"], "棋例细则第１条");
    assert_eq!(v["moves"][1]["chases"][0]["reason"], "unprotected");
    assert_eq!(v["horizons"]["kill_depth"], 4);
    let cn = json(&[
        "--fen",
        D01,
        "--moves",
        "h8h9 f9f8 h9h8 f8f9",
        "--rules",
        "cn",
        "--lang",
        "en",
    ]);
    assert_eq!(cn["moves"][0]["articles"][0]["id"], "cn-24.1");
    assert_eq!(cn["moves"][0]["articles"][0]["cite"], "CXA 2020 art. 24.1");
}

/// `--lang zh` prints no Latin letters; `--lang en` prints no Chinese.
#[test]
fn one_language_at_a_time() {
    for (fen, moves, rules) in [
        (D01, "h8h9 f9f8 h9h8 f8f9", "axf"),
        (D01, "h8h9 f9f8 h9h8 f8f9", "cn"),
        (
            "4k1r2/9/9/4n4/2c3C2/9/3p5/3ABn3/2R1K4/3C5 w - - 0 1",
            "e2g0 g9h9 g0e2 h9g9",
            "cn",
        ),
        (
            "5k3/9/9/9/c1r2N3/9/9/5R3/2N6/2C1K4 w - - 0 1",
            "c1d3 c5c3 d3c1 c3c5",
            "axf",
        ),
    ] {
        let zh = stdout(&qili(&["--fen", fen, "--moves", moves, "--rules", rules]));
        let latin: Vec<&str> = zh
            .lines()
            .filter(|l| l.chars().any(|c| c.is_ascii_alphabetic()))
            .collect();
        assert!(
            latin.is_empty(),
            "Latin letters in the Chinese ruling: {latin:?}"
        );
        assert!(zh.contains("裁决："));
        let en = stdout(&qili(&[
            "--fen", fen, "--moves", moves, "--rules", rules, "--lang", "en",
        ]));
        let cjk: Vec<&str> = en.lines().filter(|l| l.chars().any(is_cjk)).collect();
        assert!(cjk.is_empty(), "Chinese in the English ruling: {cjk:?}");
        assert!(en.contains("Ruling: "));
    }
}

/// A composed study: judged, with one warning line on stderr (text) or in `warnings`
/// (JSON); `--strict` refuses it.
#[test]
fn composed_studies_and_strict() {
    let study = "3ak4/3a1a3/9/9/9/9/9/9/4A4/R3K4 w - - 0 1";
    let moves = "a0b0 e9e8 b0a0 e8e9";
    let o = qili(&["--fen", study, "--moves", moves, "--lang", "en"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("composed study"), "{err}");
    assert!(stdout(&o).contains("Ruling: "));
    let v = json(&["--fen", study, "--moves", moves]);
    assert_eq!(v["warnings"].as_array().map(Vec::len), Some(1));
    let strict = qili(&["--fen", study, "--moves", moves, "--strict"]);
    assert!(!strict.status.success());
    assert!(String::from_utf8_lossy(&strict.stderr).contains("--strict"));
    let fine = json(&["--fen", D01, "--moves", "h8h9 f9f8 h9h8 f8f9", "--strict"]);
    assert_eq!(fine["warnings"].as_array().map(Vec::len), Some(0));
}

fn game(fen: &str, moves: &[&str], result: GameResult, red: &str) -> GameRecord {
    let mut g = GameRecord::new(Some(fen));
    g.set_tag("Red", red);
    g.set_tag("Black", "乙");
    g.set_tag("Event", "测试赛");
    for m in moves {
        g.push(Move::parse_iccs(m).unwrap(), None);
    }
    g.result = result;
    g
}

/// Three games: two separate cycles in one; a perpetual check to the end with a result
/// the rules contradict; an illegal move.
fn games() -> Vec<GameRecord> {
    vec![
        game(
            QUIET,
            &[
                "a0a1", "e8d9", "a1a0", "d9e8", "a0b0", "e8d9", "b0a0", "d9e8", "a0a2",
            ],
            GameResult::Draw,
            "甲",
        ),
        game(
            D01,
            &[
                "h8h9", "f9f8", "h9h8", "f8f9", "h8h9", "f9f8", "h9h8", "f8f9",
            ],
            GameResult::RedWins,
            "丙",
        ),
        game(QUIET, &["a0a1", "e8e7"], GameResult::Unknown, "丁"),
    ]
}

#[test]
fn whole_games_every_cycle_results_and_summary() {
    let path = temp("games.pgn");
    std::fs::write(&path, rules::pgn::write_games(&games())).unwrap();
    let v = json(&["--pgn", path.to_str().unwrap()]);
    let g = &v["games"];
    assert_eq!(g[0]["cycles"].as_array().unwrap().len(), 2, "{}", g[0]);
    assert_eq!(g[0]["cycles"][0]["first_repeat_ply"], 4);
    // b0a0 (ply 7) brings back the position after a1a0 (ply 3).
    assert_eq!(g[0]["cycles"][1]["first_repeat_ply"], 7);
    assert_eq!(g[0]["cycles"][0]["changed_by"], "red");
    assert_eq!(g[0]["cycles"][1]["last_ply"], 8);
    assert_eq!(g[0]["cycles"][1]["changed_by"], "red");
    assert!(
        g[0]["cycles"][1]["changed_as_ruled"].is_null(),
        "a draw names nobody"
    );
    assert_eq!(g[0]["title"], "甲 – 乙, 测试赛");
    assert!(
        g[0]["result_check"].is_null(),
        "game 1 goes on after its cycles"
    );
    // Game 2 ends in Red's perpetual check: the rules say 0-1, the record 1-0.
    assert_eq!(g[1]["cycles"].as_array().unwrap().len(), 1);
    assert_eq!(g[1]["cycles"][0]["cycles_played"], 2);
    assert_eq!(g[1]["result_check"]["by_the_rules"], "0-1");
    assert_eq!(g[1]["result_check"]["agrees"], false);
    assert!(
        g[2]["error"].as_str().unwrap().contains("第２着"),
        "{}",
        g[2]
    );
    let s = &v["summary"];
    assert_eq!(s["games"], 3);
    assert_eq!(s["cycles"], 3);
    assert_eq!(s["draw"], 2);
    assert_eq!(s["red_loses"], 1);
    assert_eq!(s["games_not_judged"], 1);
    assert_eq!(s["result_disagreements"], serde_json::json!([2]));
    let text = stdout(&qili(&["--pgn", path.to_str().unwrap(), "--lang", "en"]));
    assert!(
        text.contains("RESULT DISAGREES: recorded 1-0, the rules say 0-1"),
        "{text}"
    );
    assert!(text.contains("== summary =="), "{text}");
    let zh = stdout(&qili(&["--pgn", path.to_str().unwrap()]));
    assert!(zh.contains("结果不符：记录为红胜，按棋例应为黑胜"), "{zh}");
    // The third cycle of the file (game 2's perpetual check) drawn; a fourth is an error.
    let svg = temp("third.svg");
    stdout(&qili(&[
        "--pgn",
        path.to_str().unwrap(),
        "--svg",
        svg.to_str().unwrap(),
        "--cycle",
        "3",
    ]));
    let s = std::fs::read_to_string(&svg).unwrap();
    assert_eq!(
        s.matches("class=\"check\"").count(),
        2,
        "the perpetual check's two checks"
    );
    let none = qili(&[
        "--pgn",
        path.to_str().unwrap(),
        "--svg",
        svg.to_str().unwrap(),
        "--cycle",
        "4",
    ]);
    assert!(!none.status.success());
}

#[test]
fn xqf_and_dhtmlxq_files() {
    let g = &games()[1];
    let plain = temp("d01.xqf");
    std::fs::write(&plain, xqf::write(g, WriteAs::Plain).unwrap()).unwrap();
    let enc = temp("d01-v18.xqf");
    let keys = KeyBytes {
        mask: 0x5A,
        or: [1, 2, 3, 4],
        seeds: [9, 8, 7, 6],
    };
    std::fs::write(
        &enc,
        xqf::write(g, WriteAs::Encrypted { version: 18, keys }).unwrap(),
    )
    .unwrap();
    let dh = temp("d01.txt");
    std::fs::write(&dh, dhtmlxq::write(g).unwrap()).unwrap();
    for (flag, path) in [
        ("--xqf", &plain),
        ("--xqf", &enc),
        ("--dhtmlxq", &dh),
        ("--pgn", &enc),
    ] {
        let v = json(&[flag, path.to_str().unwrap()]);
        assert_eq!(
            v["games"][0]["cycles"][0]["ruling"]["verdict"], "red_loses",
            "{flag} {path:?}"
        );
        assert_eq!(v["games"][0]["title"], "丙 – 乙, 测试赛");
    }
    let mut bad = xqf::write(g, WriteAs::Plain).unwrap();
    bad.truncate(1030);
    std::fs::write(&plain, bad).unwrap();
    let o = qili(&["--xqf", plain.to_str().unwrap()]);
    assert!(!o.status.success());
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("byte"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

/// The picture: the board's pieces where they stand, one arrow per move, a dashed
/// arrow per check and chase, the ruling beside it.
#[test]
fn svg_and_html() {
    let svg = temp("d01.svg");
    let html = temp("d01.html");
    stdout(&qili(&[
        "--fen",
        D01,
        "--moves",
        "h8h9 f9f8 h9h8 f8f9",
        "--svg",
        svg.to_str().unwrap(),
        "--html",
        html.to_str().unwrap(),
    ]));
    let s = std::fs::read_to_string(&svg).unwrap();
    assert!(s.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
    assert_eq!(
        s.matches("class=\"piece\"").count(),
        10,
        "ten pieces in D01"
    );
    // The red rook on h8: file 7, rank 8 → x = 48 + 7 × 56, y = 48 + 1 × 56.
    assert!(
        s.contains(r#"data-piece="R" data-at="h8"><circle cx="440" cy="104""#),
        "{s}"
    );
    assert_eq!(s.matches("class=\"move\"").count(), 4);
    assert_eq!(s.matches("class=\"check\"").count(), 2, "two checks");
    assert_eq!(s.matches("class=\"chase\"").count(), 2, "two chases");
    assert!(s.contains("楚　河") && s.contains("漢　界"));
    assert!(s.contains("裁决：红方变着，不变作负"));
    let h = std::fs::read_to_string(&html).unwrap();
    assert!(h.starts_with("<!DOCTYPE html>") && h.contains("<svg") && h.contains("</html>"));
    assert!(
        !h.contains("src=") && !h.contains("href=\"http"),
        "self-contained"
    );
    // The page: the board scaled to the screen, the ruling once, beside it as
    // text the browser wraps; no panel inside the picture, no text report under
    // it (its plain-text board would show as ＋＋＋ rows).
    assert!(h.contains("name=\"viewport\"") && h.contains("flex-wrap:wrap"));
    assert!(h.contains("figure svg{width:100%;height:auto"));
    assert!(
        !h.contains("class=\"ruling\" x="),
        "no panel in the page's picture"
    );
    assert_eq!(h.matches("<section class=\"ruling\">").count(), 1);
    assert!(h.contains("<p class=\"line\">裁决：红方变着，不变作负</p>"));
    assert_eq!(h.matches("裁决：").count(), 1, "the ruling once");
    assert!(
        !h.contains("<pre>") && !h.contains("＋＋＋"),
        "no text report"
    );
    let page_svg = &h[h.find("<svg").unwrap()..];
    assert!(
        page_svg.contains("width=\"544\""),
        "the board alone: 2 × 48 + 8 × 56"
    );
}

/// `--query`: every legal move of the position the history reaches, one line each
/// (`ICCS NOTATION WORD [ARTICLE…]`), in Chinese or WXF notation.
#[test]
fn query_rules_every_legal_move() {
    let history = ["--fen", D01, "--moves", "h8h9", "f9f8", "h9h8", "--query"];
    let out = stdout(&qili(&history));
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert_eq!(lines[0], "f8f7 将６进１ none");
    assert!(
        lines[1].starts_with("f8f9 将６退１ win verdict-2 axf-1"),
        "{out}"
    );
    let mut en = history.to_vec();
    en.extend(["--lang", "en"]);
    let out = stdout(&qili(&en));
    assert!(
        out.lines().any(|l| l.starts_with("f8f9 K6-1 win ")),
        "{out}"
    );
    assert!(!out.chars().any(is_cjk), "{out}");
    // No history: nothing repeats.
    let start = stdout(&qili(&["--query"]));
    assert_eq!(start.lines().count(), 44);
    assert!(start.lines().all(|l| l.ends_with(" none")), "{start}");
}

/// `--query MOVE…` names moves in any notation; `--json` gives the schema of docs/RULES.md.
#[test]
fn query_named_moves_as_json() {
    let v = json(&[
        "--fen",
        D01,
        "--moves",
        "h8h9 f9f8 h9h8 f8f9 h8h9 f9f8",
        "--query",
        "h9h8",
        "车二平一",
    ]);
    let a = v.as_array().expect("an array");
    assert_eq!(a.len(), 2);
    assert_eq!(a[0]["move"], "h9h8");
    assert_eq!(a[0]["notation"], "车二退一");
    assert_eq!(a[0]["rule"], "ban");
    assert_eq!(a[0]["verdict"], "red_loses");
    assert_eq!(a[0]["articles"][0], "verdict-2");
    assert_eq!(a[1]["move"], "h9i9");
    assert_eq!(a[1]["rule"], "none");
    assert_eq!(a[1]["verdict"], Value::Null);
    assert_eq!(a[1]["articles"], serde_json::json!([]));
    // The rule set decides: one rook chasing two pieces in turn (R27a).
    let r27 = "4k4/4a4/n8/1c7/9/9/9/R8/4A4/4K4 w - - 0 1";
    let q = ["--fen", r27, "--moves", "a2b2 e8d9 b2a2", "--query", "d9e8"];
    let axf = json(&q);
    assert_eq!(axf[0]["rule"], "draw");
    assert!(axf[0]["articles"]
        .as_array()
        .unwrap()
        .contains(&Value::from("axf-27")));
    let mut cn = q.to_vec();
    cn.extend(["--rules", "cn"]);
    let cn = json(&cn);
    assert_eq!(cn[0]["rule"], "win");
    assert_eq!(cn[0]["articles"][0], "cn-24.13");
}

/// A named move that is illegal or unreadable is an error on stderr, nothing on stdout.
#[test]
fn query_bad_moves_are_errors() {
    for (named, lang, want) in [
        ("a0a1", "en", "a0a1"),
        ("zz", "en", "zz"),
        ("马", "zh", "不是着法"),
    ] {
        let o = qili(&[
            "--fen",
            D01,
            "--moves",
            "h8h9 f9f8 h9h8",
            "--lang",
            lang,
            "--query",
            "f8f9",
            named,
        ]);
        assert!(!o.status.success(), "{named}");
        assert!(o.stdout.is_empty(), "{named}");
        let e = String::from_utf8_lossy(&o.stderr);
        assert!(e.contains(want), "{named}: {e}");
    }
    let o = qili(&["--moves", "h2e2 h9h0", "--query", "--lang", "en"]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("move 2"));
    let o = qili(&["--query", "--pgn", "x.pgn"]);
    assert!(!o.status.success());
}
