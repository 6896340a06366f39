//! A ruling as text, in one language at a time: `Lang::Zh` prints Chinese terms,
//! Chinese notation and full-width numbers as the rule books do, and no Latin
//! letters; `Lang::En` prints English terms, WXF and ICCS notation, and no Chinese.

use super::game::{GameReport, Summary};
use super::ruling::{num, Cited, Ruling};
use rules::repetition::Lang;
use rules::{Color, Piece, PieceKind, Square};
use std::fmt::Write as _;

/// The glyph of a piece on a text board: Red 帅仕相俥傌炮兵, Black 将士象車馬砲卒 (the
/// usual way to tell the two sets' rooks, knights and cannons apart in print).
pub fn glyph(p: Piece) -> char {
    match (p.color, p.kind) {
        (Color::Red, PieceKind::Rook) => '俥',
        (Color::Red, PieceKind::Knight) => '傌',
        (Color::Black, PieceKind::Rook) => '車',
        (Color::Black, PieceKind::Knight) => '馬',
        (Color::Black, PieceKind::Cannon) => '砲',
        _ => p.chinese(),
    }
}

/// The board at the cycle's start: Black at the top.
fn board(r: &Ruling, lang: Lang) -> String {
    let at = |s: Square| r.board.iter().find(|(_, q)| *q == s).map(|(p, _)| *p);
    let mut out = String::new();
    for rank in (0..10u8).rev() {
        let mut line = String::new();
        match lang {
            Lang::Zh => {
                for file in 0..9u8 {
                    line.push(at(Square::new(file, rank)).map_or('＋', glyph));
                }
            }
            Lang::En => {
                line.push_str(&format!("{rank} "));
                for file in 0..9u8 {
                    line.push(' ');
                    line.push(at(Square::new(file, rank)).map_or('.', |p| p.fen_char()));
                }
            }
        }
        out += line.trim_end();
        out.push('\n');
        if rank == 5 && lang == Lang::Zh {
            out += "　楚河　　　汉界\n";
        }
    }
    if lang == Lang::En {
        out += "   a b c d e f g h i\n";
    }
    out
}

fn cites(v: &[Cited], lang: Lang) -> String {
    let parts: Vec<&str> = v.iter().map(|c| c.cite.as_str()).collect();
    match lang {
        Lang::Zh => parts.join("、"),
        Lang::En => parts.join(", "),
    }
}

fn side_name(side: &str, lang: Lang) -> &'static str {
    match (side, lang) {
        ("red", Lang::Zh) => "红",
        ("black", Lang::Zh) => "黑",
        ("red", Lang::En) => "Red",
        _ => "Black",
    }
}

fn offence_name(o: Option<&str>, lang: Lang) -> &'static str {
    match (o, lang) {
        (Some("perpetual_check"), Lang::Zh) => "长将",
        (Some("perpetual_chase"), Lang::Zh) => "长捉",
        (Some("perpetual_kill"), Lang::Zh) => "长杀",
        (Some(_), Lang::Zh) => "将杀捉交替（长打）",
        (None, Lang::Zh) => "不犯例",
        (Some("perpetual_check"), Lang::En) => "perpetual check",
        (Some("perpetual_chase"), Lang::En) => "perpetual chase",
        (Some("perpetual_kill"), Lang::En) => "perpetual mate threats",
        (Some(_), Lang::En) => "checks, mate threats and chases mixed on every move",
        (None, Lang::En) => "no offence",
    }
}

fn limit_text(name: &str, lang: Lang) -> String {
    match (name, lang) {
        ("max_chases_per_move", Lang::Zh) => "一着的捉子超过８处，只记前８处".into(),
        ("max_threats", Lang::Zh) => "一方的攻击超过６４处，其余未计".into(),
        ("max_forced_wins", Lang::Zh) => "一着伏将军得子超过８处，其余未计".into(),
        ("max_chases_per_move", Lang::En) => {
            "a move chases more than 8 pieces: only 8 are listed".into()
        }
        ("max_threats", Lang::En) => {
            "a side has more than 64 attacks: the rest were not examined".into()
        }
        ("max_forced_wins", Lang::En) => {
            "a move wins more than 8 pieces by force: the rest were not examined".into()
        }
        (other, _) => other.to_string(),
    }
}

/// The ruling as text. `label`: a heading for the cycle (e.g. its game), if any.
pub fn render(r: &Ruling, lang: Lang) -> String {
    let zh = lang == Lang::Zh;
    let mut out = String::new();
    let rules_name = match (r.rules, zh) {
        ("axf", true) => "亚洲象棋联合会棋例",
        ("axf", false) => "Asian Xiangqi Federation rules",
        (_, true) => "中国象棋协会《象棋竞赛规则》（２０２０）",
        (_, false) => "Chinese Xiangqi Association rules (2020)",
    };
    let _ = writeln!(out, "{}{rules_name}", if zh { "棋例：" } else { "Rules: " });
    out += &board(r, lang);
    if !zh {
        let _ = writeln!(out, "FEN {}", r.fen);
    }
    let (first, last) = (r.start_ply + 1, r.start_ply + r.plies);
    let _ = if zh {
        writeln!(
            out,
            "循环：第{}至第{}着，共{}着",
            num(first, lang),
            num(last, lang),
            num(r.plies, lang)
        )
    } else {
        writeln!(out, "Cycle: plies {first} to {last}, {} plies", r.plies)
    };
    for m in &r.moves {
        let side = side_name(m.side, lang);
        let (name, label) = if zh {
            (m.chinese.clone(), m.label_zh.to_string())
        } else {
            (format!("{} ({})", m.wxf, m.iccs), m.label.to_string())
        };
        let mut line = if zh {
            format!("{:>4}．{side}　{name}　{label}", num(m.ply, lang))
        } else {
            format!("{:>4}. {side:<5} {name:<14} {label}", m.ply)
        };
        if !m.reason.is_empty() {
            line += &if zh {
                format!("：{}", m.reason)
            } else {
                format!(": {}", m.reason)
            };
        }
        if !m.articles.is_empty() {
            line += &if zh {
                format!("（{}）", cites(&m.articles, lang))
            } else {
                format!(" [{}]", cites(&m.articles, lang))
            };
        }
        out += &line;
        out.push('\n');
    }
    for (name, s) in [("red", &r.sides.red), ("black", &r.sides.black)] {
        let arts = if s.articles.is_empty() {
            String::new()
        } else if zh {
            format!("（{}）", cites(&s.articles, lang))
        } else {
            format!(" [{}]", cites(&s.articles, lang))
        };
        let _ = if zh {
            writeln!(
                out,
                "{}方：{}着，将{}，捉{}，杀{}；{}{arts}",
                side_name(name, lang),
                num(s.moves as usize, lang),
                num(s.checks as usize, lang),
                num(s.chases as usize, lang),
                num(s.kills as usize, lang),
                offence_name(s.offence, lang)
            )
        } else {
            writeln!(
                out,
                "{}: {} moves: {} checking, {} chasing, {} threatening mate: {}{arts}",
                side_name(name, lang),
                s.moves,
                s.checks,
                s.chases,
                s.kills,
                offence_name(s.offence, lang)
            )
        };
    }
    let verdict = match (r.must_change, zh) {
        (None, true) => "双方不变作和".to_string(),
        (Some(c), true) => format!("{}方变着，不变作负", side_name(c, lang)),
        (None, false) => "a draw if neither side changes".to_string(),
        (Some(c), false) => format!(
            "{} must change, and loses if it does not",
            side_name(c, lang)
        ),
    };
    let _ = writeln!(out, "{}{verdict}", if zh { "裁决：" } else { "Ruling: " });
    let p = &r.basis.principle;
    let _ = if zh {
        writeln!(out, "依据：{}（{}）", p.cite, p.text)
    } else {
        writeln!(out, "Basis: {} ({})", p.cite, p.text)
    };
    for l in &r.limits {
        let _ = writeln!(
            out,
            "{}{}",
            if zh { "注意：" } else { "Note: " },
            limit_text(l, lang)
        );
    }
    out
}

/// A whole game's report as text.
pub fn render_game(g: &GameReport, lang: Lang) -> String {
    let zh = lang == Lang::Zh;
    let mut out = String::new();
    let title = match (&g.title, zh) {
        (Some(t), true) => format!("　{t}"),
        (Some(t), false) => format!(": {t}"),
        (None, _) => String::new(),
    };
    let result = match (g.result, zh) {
        ("1-0", true) => "红胜",
        ("0-1", true) => "黑胜",
        ("1/2-1/2", true) => "和棋",
        (_, true) => "结果不详",
        (r, false) => r,
    };
    let _ = if zh {
        writeln!(
            out,
            "＝＝ 第{}局{title}（{result}，{}着）＝＝",
            num(g.game, lang),
            num(g.plies, lang)
        )
    } else {
        writeln!(
            out,
            "== game {}{title} ({result}, {} plies) ==",
            g.game, g.plies
        )
    };
    // Warnings go to stderr once (cmd_judge), not into the report.
    if let Some(e) = &g.error {
        let _ = writeln!(
            out,
            "{}{e}",
            if zh {
                "无法裁决："
            } else {
                "not judged: "
            }
        );
    }
    if g.cycles.is_empty() && g.error.is_none() {
        let _ = writeln!(out, "{}", if zh { "无循环" } else { "no repetition" });
    }
    for (k, c) in g.cycles.iter().enumerate() {
        let _ = if zh {
            writeln!(
                out,
                "—— 循环{}：第{}着起重复，至第{}着，共走{}个循环 ——",
                num(k + 1, lang),
                num(c.first_repeat_ply, lang),
                num(c.last_ply, lang),
                num(c.cycles_played, lang)
            )
        } else {
            writeln!(
                out,
                "-- cycle {}: repeats from ply {} to ply {}, {} cycles played --",
                k + 1,
                c.first_repeat_ply,
                c.last_ply,
                c.cycles_played
            )
        };
        out += &render(&c.ruling, lang);
        let changed = match (c.changed_by, c.changed_as_ruled, zh) {
            (None, _, true) => "对局在循环中结束".to_string(),
            (None, _, false) => "the game ends in the repetition".to_string(),
            (Some(s), Some(true), true) => format!("{}方变着，与裁决相符", side_name(s, lang)),
            (Some(s), Some(false), true) => {
                format!("{}方变着，而裁决应变着的是另一方", side_name(s, lang))
            }
            (Some(s), _, true) => format!("{}方变着", side_name(s, lang)),
            (Some(s), Some(true), false) => format!("{} changed, as ruled", side_name(s, lang)),
            (Some(s), Some(false), false) => {
                format!(
                    "{} changed, though the ruling names the other side",
                    side_name(s, lang)
                )
            }
            (Some(s), _, false) => format!("{} changed", side_name(s, lang)),
        };
        let _ = writeln!(out, "{}{changed}", if zh { "后续：" } else { "Then: " });
    }
    if let Some(rc) = &g.result_check {
        let name = |r: &str| match (r, zh) {
            ("1-0", true) => "红胜",
            ("0-1", true) => "黑胜",
            ("1/2-1/2", true) => "和棋",
            (r, _) => {
                if zh {
                    "结果不详"
                } else {
                    match r {
                        "1-0" => "1-0",
                        "0-1" => "0-1",
                        "1/2-1/2" => "1/2-1/2",
                        _ => "*",
                    }
                }
            }
        };
        let _ = match (rc.agrees, zh) {
            (true, true) => writeln!(out, "结果：记录为{}，与棋例相符", name(rc.recorded)),
            (false, true) => writeln!(
                out,
                "结果不符：记录为{}，按棋例应为{}",
                name(rc.recorded),
                name(rc.by_the_rules)
            ),
            (true, false) => writeln!(out, "Result: recorded {}, as the rules say", rc.recorded),
            (false, false) => writeln!(
                out,
                "RESULT DISAGREES: recorded {}, the rules say {}",
                rc.recorded, rc.by_the_rules
            ),
        };
    }
    out
}

/// The counts over a file as text.
pub fn render_summary(s: &Summary, lang: Lang) -> String {
    let n = |x: usize| num(x, lang);
    let list = |v: &[usize]| v.iter().map(|&g| n(g)).collect::<Vec<_>>();
    match lang {
        Lang::Zh => format!(
            "＝＝ 汇总 ＝＝\n对局{}，有循环{}，无法裁决{}；循环{}：作和{}，红方变着{}，黑方变着{}；\n后续变着与裁决相符{}，不符{}；结果与棋例不符的对局：{}\n",
            n(s.games),
            n(s.games_with_cycles),
            n(s.games_not_judged),
            n(s.cycles),
            n(s.draw),
            n(s.red_loses),
            n(s.black_loses),
            n(s.changed_as_ruled),
            n(s.changed_against_ruling),
            if s.result_disagreements.is_empty() {
                "无".to_string()
            } else {
                list(&s.result_disagreements).join("、")
            }
        ),
        Lang::En => format!(
            "== summary ==\n{} games, {} with repetitions, {} not judged; {} cycles: {} draws, {} Red must change, {} Black must change;\nbroken off as ruled {}, by the other side {}; games whose result disagrees with the rules: {}\n",
            s.games,
            s.games_with_cycles,
            s.games_not_judged,
            s.cycles,
            s.draw,
            s.red_loses,
            s.black_loses,
            s.changed_as_ruled,
            s.changed_against_ruling,
            if s.result_disagreements.is_empty() {
                "none".to_string()
            } else {
                list(&s.result_disagreements).join(", ")
            }
        ),
    }
}
