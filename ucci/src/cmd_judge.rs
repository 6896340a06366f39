//! `qili judge`: decide a repetition under the AXF (default) or Chinese 2020 rules and
//! explain it move by move.
//!
//! `--fen F --moves "m1 m2 …"`: the moves are played from F; the final position must
//! repeat an earlier one (without a capture in between). The cycle judged runs from the
//! earliest such occurrence to the end, so a typed loop is judged whole.
//! `--pgn FILE`: every repetition in every game (a run of repeating plies is reported
//! once, by its first cycle).

use clap::{Args, ValueEnum};
use rules::notation::to_chinese;
use rules::pgn::parse_games;
use rules::repetition::{
    judge_cycle, CycleJudgement, LabelKind, MoveLabel, Offence, RuleSet, Verdict, KILL_DEPTH,
};
use rules::{Color, Move, Piece, Position, Square, START_FEN};
use std::fmt::Write as _;
use std::process::ExitCode;

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum RulesArg {
    /// Asian Xiangqi Federation rules (棋例细则 1–35).
    Axf,
    /// Chinese Xiangqi Association rules, 2020.
    Cn,
}

#[derive(Args)]
pub struct JudgeArgs {
    /// Position before the first move (default: the initial position).
    #[arg(long)]
    fen: Option<String>,
    /// Moves in ICCS coordinates, separated by spaces (e.g. "h2e2 h9g7").
    #[arg(long, allow_hyphen_values = true)]
    moves: Option<String>,
    /// A PGN file with ICCS movetext: report every repetition in it.
    #[arg(long, conflicts_with_all = ["fen", "moves"])]
    pgn: Option<std::path::PathBuf>,
    /// Rule set.
    #[arg(long, value_enum, default_value_t = RulesArg::Axf)]
    rules: RulesArg,
    /// Print one JSON object instead of the explanation.
    #[arg(long)]
    json: bool,
    /// Checking moves searched when looking for a mate threat (杀).
    #[arg(long, default_value_t = KILL_DEPTH)]
    kill_depth: u32,
}

pub fn run(a: JudgeArgs) -> ExitCode {
    let rules = match a.rules {
        RulesArg::Axf => RuleSet::Axf,
        RulesArg::Cn => RuleSet::Chinese,
    };
    let kill_depth = a.kill_depth.min(6);
    let result = match &a.pgn {
        Some(path) => judge_pgn(path, rules, kill_depth, a.json),
        None => judge_moves(
            a.fen.as_deref().unwrap_or(START_FEN),
            a.moves.as_deref().unwrap_or(""),
            rules,
            kill_depth,
            a.json,
        ),
    };
    match result {
        Ok(text) => {
            print!("{text}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("qili judge: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Play `moves` from `fen` and judge the cycle they close.
fn judge_moves(
    fen: &str,
    moves: &str,
    rules: RuleSet,
    kill_depth: u32,
    json: bool,
) -> Result<String, String> {
    let start = Position::from_fen(fen).map_err(|e| format!("bad FEN: {e}"))?;
    let mut pos = start.clone();
    let mut played = Vec::new();
    for (i, text) in moves.split_whitespace().enumerate() {
        let m = pos
            .parse_move(text)
            .map_err(|e| format!("move {} ('{text}'): {e}", i + 1))?;
        played.push(m);
        pos.make_move(m);
    }
    if played.is_empty() {
        return Err("no moves given: use --moves \"m1 m2 …\" or --pgn FILE".into());
    }
    let begin = earliest_occurrence(&pos).ok_or_else(|| {
        "the moves do not repeat a position (the final position must occur earlier, \
         with no capture in between)"
            .to_string()
    })?;
    let mut cycle_start = start;
    for &m in &played[..begin] {
        cycle_start.make_move(m);
    }
    let j = judge_cycle(&cycle_start, &played[begin..], rules, kill_depth)
        .map_err(|e| e.to_string())?;
    Ok(if json {
        let mut s = json_judgement(&cycle_start, &j, begin);
        s.push('\n');
        s
    } else {
        human_judgement(&cycle_start, &j, begin)
    })
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

fn judge_pgn(
    path: &std::path::Path,
    rules: RuleSet,
    kill_depth: u32,
    json: bool,
) -> Result<String, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let games = parse_games(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut out = String::new();
    let mut json_items = Vec::new();
    for (g, game) in games.iter().enumerate() {
        let mut pos = game
            .start_position()
            .map_err(|e| format!("game {}: {e}", g + 1))?;
        let mut in_run = false;
        for (ply, &m) in game.moves.iter().enumerate() {
            if !pos.is_legal(m) {
                return Err(format!(
                    "game {}, ply {}: {m} is not a legal move",
                    g + 1,
                    ply + 1
                ));
            }
            pos.make_move(m);
            let start = match rules::repetition::find_repetition(&pos) {
                Some(s) => s,
                None => {
                    in_run = false;
                    continue;
                }
            };
            if in_run {
                continue;
            }
            in_run = true;
            let mut cycle_start = pos.clone();
            let len = pos.history().len() - start;
            for _ in 0..len {
                cycle_start.unmake_move();
            }
            let cycle: Vec<Move> = pos.history()[start..].iter().map(|s| s.mv).collect();
            let j = judge_cycle(&cycle_start, &cycle, rules, kill_depth)
                .map_err(|e| format!("game {}, ply {}: {e}", g + 1, ply + 1))?;
            if json {
                json_items.push(format!(
                    "{{\"game\":{},\"ply\":{},\"judgement\":{}}}",
                    g + 1,
                    ply + 1,
                    json_judgement(&cycle_start, &j, start)
                ));
            } else {
                let _ = writeln!(
                    out,
                    "=== game {}, repetition completed at ply {} ===",
                    g + 1,
                    ply + 1
                );
                out += &human_judgement(&cycle_start, &j, start);
                out.push('\n');
            }
        }
    }
    if json {
        return Ok(format!(
            "{{\"games\":{},\"repetitions\":[{}]}}\n",
            games.len(),
            json_items.join(",")
        ));
    }
    if out.is_empty() {
        out = format!("no repetition in {} game(s)\n", games.len());
    }
    Ok(out)
}

/// `马7`, `车二`: a piece and its file, counted from its owner's right.
fn piece_on_file(p: Piece, s: Square) -> String {
    const RED: [&str; 9] = ["一", "二", "三", "四", "五", "六", "七", "八", "九"];
    match p.color {
        Color::Red => format!("{}{}", p.chinese(), RED[8 - s.file() as usize]),
        Color::Black => format!("{}{}", p.chinese(), s.file() + 1),
    }
}

fn reason_text(l: &MoveLabel) -> String {
    let mut parts = Vec::new();
    for c in l.chases() {
        let mut s = format!(
            "{}({})捉{}({}，{}",
            piece_on_file(c.attacker, c.from),
            c.from,
            piece_on_file(c.victim, c.at),
            c.at,
            c.reason.chinese()
        );
        if c.by_king_or_pawn() {
            s += "，帅将兵卒捉子";
        }
        if c.root_cut {
            s += "，断根";
        }
        s.push(')');
        parts.push(s);
    }
    if l.check {
        parts.insert(0, "将军".to_string());
    }
    if l.kill && !l.check {
        parts.push("叫杀".to_string());
    }
    if let Some((a, t)) = l.exchange {
        parts.push(format!("{}兑{}", a, t));
    }
    if l.offer {
        parts.push("献子".to_string());
    }
    if l.block {
        parts.push("拦".to_string());
    }
    parts.join("；")
}

fn side_zh(c: Color) -> &'static str {
    c.chinese()
}

fn offence_text(o: Option<Offence>) -> &'static str {
    match o {
        Some(o) => o.chinese(),
        None => "不犯例",
    }
}

fn rules_text(r: RuleSet) -> &'static str {
    match r {
        RuleSet::Axf => "亚洲象棋联合会棋例 (AXF)",
        RuleSet::Chinese => "中国象棋竞赛规则 2020 (CN)",
    }
}

fn human_judgement(start: &Position, j: &CycleJudgement, begin: usize) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{start}");
    let _ = writeln!(
        out,
        "cycle of {} plies from ply {} ({}):",
        j.labels.len(),
        begin,
        rules_text(j.rules)
    );
    let mut p = start.clone();
    for (i, l) in j.labels.iter().enumerate() {
        let name = to_chinese(&p, l.mv);
        let reason = reason_text(l);
        let _ = writeln!(
            out,
            "{:>3}. {} {:<10} {} {}{}",
            i + 1,
            side_zh(l.side),
            name,
            l.mv,
            l.kind().chinese(),
            if reason.is_empty() {
                String::new()
            } else {
                format!(" ({reason})")
            }
        );
        p.make_move(l.mv);
    }
    for c in Color::BOTH {
        let s = &j.sides[c.index()];
        let _ = writeln!(
            out,
            "{}方: {} 着, 将 {}, 捉 {}, 杀 {} → {}",
            side_zh(c),
            s.moves,
            s.checks,
            s.chase_moves,
            s.kills,
            offence_text(j.offences[c.index()])
        );
    }
    let verdict = match j.verdict {
        Verdict::Draw => "不变作和 (draw)".to_string(),
        v => format!(
            "{}方变着，不变作负 ({})",
            side_zh(v.offender().unwrap_or(Color::Red)),
            v
        ),
    };
    let _ = writeln!(out, "裁决: {verdict}");
    let _ = writeln!(out, "依据: {}", basis(j));
    out
}

/// Which principle decided (乙 1–4 of the 1982 draft; AXF detailed rules).
fn basis(j: &CycleJudgement) -> &'static str {
    match (j.offences[0], j.offences[1]) {
        (None, None) => "双方均不犯例，不变作和 (principle 1)",
        (Some(_), None) | (None, Some(_)) => "一方犯例、一方不犯例，犯例方变着 (principle 4)",
        (Some(Offence::PerpetualCheck), Some(Offence::PerpetualCheck)) => "双方长将，作和 (rule 2)",
        (Some(Offence::PerpetualCheck), Some(_)) | (Some(_), Some(Offence::PerpetualCheck)) => {
            "一方长将、一方长捉（长打），长将者变着 (principle 2)"
        }
        _ => "双方均犯例，作和 (principle 3)",
    }
}

fn json_str(s: &str) -> String {
    let mut o = String::with_capacity(s.len() + 2);
    o.push('"');
    for ch in s.chars() {
        match ch {
            '"' => o.push_str("\\\""),
            '\\' => o.push_str("\\\\"),
            c if (c as u32) < 0x20 => {
                let _ = write!(o, "\\u{:04x}", c as u32);
            }
            c => o.push(c),
        }
    }
    o.push('"');
    o
}

fn offence_json(o: Option<Offence>) -> &'static str {
    match o {
        None => "null",
        Some(Offence::PerpetualCheck) => "\"perpetual_check\"",
        Some(Offence::PerpetualChase) => "\"perpetual_chase\"",
        Some(Offence::PerpetualKill) => "\"perpetual_kill\"",
        Some(Offence::MixedAttack) => "\"mixed_attack\"",
    }
}

fn label_json(p: &Position, l: &MoveLabel) -> String {
    let mut chases = Vec::new();
    for c in l.chases() {
        chases.push(format!(
            "{{\"attacker\":\"{}\",\"from\":\"{}\",\"victim\":\"{}\",\"at\":\"{}\",\"reason\":\"{:?}\",\"king_or_pawn\":{},\"root_cut\":{}}}",
            c.attacker.fen_char(),
            c.from,
            c.victim.fen_char(),
            c.at,
            c.reason,
            c.by_king_or_pawn(),
            c.root_cut
        ));
    }
    format!(
        "{{\"move\":\"{}\",\"chinese\":{},\"side\":\"{}\",\"label\":\"{}\",\"label_zh\":\"{}\",\"check\":{},\"kill\":{},\"offer\":{},\"block\":{},\"exchange\":{},\"chases\":[{}],\"reason\":{}}}",
        l.mv,
        json_str(&to_chinese(p, l.mv)),
        l.side,
        kind_json(l.kind()),
        l.kind().chinese(),
        l.check,
        l.kill,
        l.offer,
        l.block,
        l.exchange.is_some(),
        chases.join(","),
        json_str(&reason_text(l))
    )
}

fn kind_json(k: LabelKind) -> &'static str {
    k.english()
}

fn json_judgement(start: &Position, j: &CycleJudgement, begin: usize) -> String {
    let mut p = start.clone();
    let mut moves = Vec::new();
    for l in &j.labels {
        moves.push(label_json(&p, l));
        p.make_move(l.mv);
    }
    format!(
        "{{\"verdict\":\"{}\",\"rules\":\"{}\",\"fen\":{},\"cycle_start_ply\":{},\"offences\":{{\"red\":{},\"black\":{}}},\"moves\":[{}]}}",
        j.verdict,
        match j.rules {
            RuleSet::Axf => "axf",
            RuleSet::Chinese => "cn",
        },
        json_str(&start.to_fen()),
        begin,
        offence_json(j.offences[0]),
        offence_json(j.offences[1]),
        moves.join(",")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    const D01: &str = "c2a1k3/2c1a2R1/b6P1/8p/9/9/9/9/4K4/9 w - - 0 1";

    #[test]
    fn json_has_the_verdict_and_one_label_per_move() {
        let out = judge_moves(D01, "h8h9 f9f8 h9h8 f8f9", RuleSet::Axf, 1, true).expect("judged");
        assert!(out.starts_with("{\"verdict\":\"red_loses\""), "{out}");
        assert_eq!(out.matches("\"label\":").count(), 4);
        assert!(out.contains("\"label\":\"check\""));
        assert!(out.contains("\"chinese\":\"车二进一\""), "{out}");
    }

    #[test]
    fn human_output_names_moves_labels_and_the_verdict() {
        let out = judge_moves(D01, "h8h9 f9f8 h9h8 f8f9", RuleSet::Axf, 1, false).expect("judged");
        assert!(out.contains("车二进一"), "{out}");
        assert!(out.contains(" 将 "), "{out}");
        assert!(out.contains("红方变着"), "{out}");
        assert!(out.contains("长将"), "{out}");
    }

    #[test]
    fn a_prefix_before_the_loop_is_allowed() {
        // One extra pair of moves first; the loop is then judged on its own.
        let out = judge_moves(
            "4k4/4a4/9/9/9/9/9/9/4A4/R3K4 w - - 0 1",
            "a0b0 e8d9 b0c0 d9e8 c0b0 e8d9",
            RuleSet::Axf,
            1,
            true,
        )
        .expect("judged");
        assert!(out.contains("\"verdict\":\"draw\""), "{out}");
        assert!(out.contains("\"cycle_start_ply\":2"), "{out}");
        assert_eq!(out.matches("\"label\":").count(), 4);
    }

    #[test]
    fn bad_input_is_an_error() {
        assert!(judge_moves("bad fen", "h2e2", RuleSet::Axf, 1, false).is_err());
        assert!(judge_moves(START_FEN, "", RuleSet::Axf, 1, false).is_err());
        assert!(judge_moves(START_FEN, "h2e2 zz", RuleSet::Axf, 1, false).is_err());
        assert!(judge_moves(START_FEN, "h2e2 h9g7", RuleSet::Axf, 1, false).is_err());
        let e = judge_moves(START_FEN, "h2h8", RuleSet::Axf, 1, false).unwrap_err();
        assert!(e.contains("move 1"), "{e}");
    }

    #[test]
    fn pgn_reports_each_repetition_once() {
        let dir = std::env::temp_dir().join(format!("qili-judge-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let path = dir.join("game.pgn");
        let pgn = format!(
            "[Event \"test\"]\n[FEN \"{D01}\"]\n\n1. H8-H9 F9-F8 2. H9-H8 F8-F9 3. H8-H9 F9-F8 4. H9-H8 F8-F9 *\n"
        );
        std::fs::write(&path, pgn).expect("write");
        let out = judge_pgn(&path, RuleSet::Axf, 1, true).expect("judged");
        let _ = std::fs::remove_dir_all(&dir);
        assert_eq!(out.matches("\"verdict\":").count(), 1, "{out}");
        assert!(out.contains("\"verdict\":\"red_loses\""), "{out}");
        assert!(judge_pgn(&dir.join("missing.pgn"), RuleSet::Axf, 1, false).is_err());
    }
}
