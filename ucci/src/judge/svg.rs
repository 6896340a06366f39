//! A picture of a cycle: the board at the cycle's start drawn in the traditional
//! style (river, palace lines, pieces as Chinese glyphs in red and black), the cycle's
//! moves as numbered arrows, each check and each chase as a dashed arrow from the
//! attacker to its target with the move's ruling beside it, and the ruling itself in a
//! panel on the right. `html` is one self-contained page: the board alone, and the
//! ruling beside it as HTML text the browser wraps (below the board on a phone).

use super::ruling::{num, Ruling};
use super::text::{glyph, render};
use rules::repetition::Lang;
use rules::{Color, Move, Position, Square};
use std::fmt::Write as _;

/// Distance between lines, and the margin around the board.
pub const CELL: i32 = 56;
pub const MARGIN: i32 = 48;
const PANEL_X: i32 = MARGIN * 2 + 8 * CELL + 16;
const FONT: &str = "'Noto Serif CJK SC','Noto Sans CJK SC','Source Han Serif SC','SimSun',serif";

/// The pixel centre of a point (Red at the bottom).
pub fn xy(s: Square) -> (i32, i32) {
    (
        MARGIN + s.file() as i32 * CELL,
        MARGIN + (9 - s.rank() as i32) * CELL,
    )
}

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

fn line(out: &mut String, (x1, y1): (i32, i32), (x2, y2): (i32, i32), extra: &str) {
    let _ = writeln!(
        out,
        r#"<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" {extra}/>"#
    );
}

fn grid(out: &mut String) {
    let p = |f: u8, r: u8| xy(Square::new(f, r));
    let style = r##"stroke="#5a3a1a" stroke-width="1.5""##;
    for r in 0..10 {
        line(out, p(0, r), p(8, r), style);
    }
    for f in 0..9 {
        if f == 0 || f == 8 {
            line(out, p(f, 0), p(f, 9), style);
        } else {
            line(out, p(f, 0), p(f, 4), style);
            line(out, p(f, 5), p(f, 9), style);
        }
    }
    // Palace diagonals.
    for (a, b) in [
        ((3, 0), (5, 2)),
        ((5, 0), (3, 2)),
        ((3, 7), (5, 9)),
        ((5, 7), (3, 9)),
    ] {
        line(out, p(a.0, a.1), p(b.0, b.1), style);
    }
    let (x0, _) = p(0, 5);
    let (x8, _) = p(8, 5);
    let y = (p(0, 4).1 + p(0, 5).1) / 2;
    let _ = writeln!(
        out,
        r##"<text class="river" x="{}" y="{y}" font-family="{FONT}" font-size="26" fill="#5a3a1a" text-anchor="middle" dominant-baseline="central">楚　河</text>"##,
        x0 + (x8 - x0) / 4
    );
    let _ = writeln!(
        out,
        r##"<text class="river" x="{}" y="{y}" font-family="{FONT}" font-size="26" fill="#5a3a1a" text-anchor="middle" dominant-baseline="central">漢　界</text>"##,
        x0 + 3 * (x8 - x0) / 4
    );
}

fn piece(out: &mut String, p: rules::Piece, s: Square) {
    let (x, y) = xy(s);
    let color = match p.color {
        Color::Red => "#b22222",
        Color::Black => "#1a1a1a",
    };
    let _ = writeln!(
        out,
        r##"<g class="piece" data-piece="{}" data-at="{s}"><circle cx="{x}" cy="{y}" r="24" fill="#fbf0d9" stroke="{color}" stroke-width="2"/><circle cx="{x}" cy="{y}" r="20" fill="none" stroke="{color}" stroke-width="1"/><text x="{x}" y="{y}" font-family="{FONT}" font-size="26" font-weight="bold" fill="{color}" text-anchor="middle" dominant-baseline="central">{}</text></g>"##,
        p.fen_char(),
        glyph(p)
    );
}

/// An arrow from `a` to `b`, shifted sideways by `shift` pixels, stopping short of the
/// pieces' edges; returns the point `at` (0..1) of the way along it.
fn arrow(
    out: &mut String,
    class: &str,
    (a, b): (Square, Square),
    shift: f64,
    at: f64,
    style: &str,
) -> (f64, f64) {
    let (x1, y1) = xy(a);
    let (x2, y2) = xy(b);
    let (dx, dy) = ((x2 - x1) as f64, (y2 - y1) as f64);
    let len = (dx * dx + dy * dy).sqrt().max(1.0);
    let (ux, uy) = (dx / len, dy / len);
    let (nx, ny) = (-uy * shift, ux * shift);
    let sx = x1 as f64 + ux * 22.0 + nx;
    let sy = y1 as f64 + uy * 22.0 + ny;
    let ex = x2 as f64 - ux * 24.0 + nx;
    let ey = y2 as f64 - uy * 24.0 + ny;
    let _ = writeln!(
        out,
        r#"<line class="{class}" data-from="{a}" data-to="{b}" x1="{sx:.1}" y1="{sy:.1}" x2="{ex:.1}" y2="{ey:.1}" {style}/>"#
    );
    (sx + (ex - sx) * at, sy + (ey - sy) * at)
}

/// The ruling as the picture's panel and the page show it: the rules' name, then
/// the ruling from the cycle line on (the board is the picture itself).
fn ruling_lines(r: &Ruling, lang: Lang) -> Vec<String> {
    let text = render(r, lang);
    let all: Vec<&str> = text.lines().filter(|l| !l.is_empty()).collect();
    let from = all
        .iter()
        .position(|l| l.starts_with("循环") || l.starts_with("Cycle"))
        .unwrap_or(0);
    all[..1.min(all.len())]
        .iter()
        .chain(&all[from..])
        .map(|l| l.to_string())
        .collect()
}

/// The cycle of `r` as an SVG document, its texts in `lang`, the ruling in a panel
/// to the right of the board.
pub fn svg(r: &Ruling, lang: Lang) -> String {
    let lines: Vec<String> = ruling_lines(r, lang)
        .iter()
        .flat_map(|l| wrap(l, PANEL_WIDTH))
        .collect();
    picture(r, lang, &lines)
}

/// The board with the cycle drawn on it, and `panel` (lines already wrapped)
/// to its right; with no panel, the board alone.
fn picture(r: &Ruling, lang: Lang, lines: &[String]) -> String {
    let zh = lang == Lang::Zh;
    let board_w = MARGIN * 2 + 8 * CELL;
    let text_w = lines.iter().map(|l| text_width(l)).fold(0.0, f64::max) as i32;
    let width = match lines.is_empty() {
        true => board_w,
        false => PANEL_X + text_w + 24,
    };
    let board_h = MARGIN * 2 + 9 * CELL;
    let height = board_h.max(40 + 20 * lines.len() as i32);
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}">"#
    );
    out += r##"<defs>
<marker id="head-move" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" markerHeight="6" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#1f4e9c"/></marker>
<marker id="head-chase" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" markerHeight="6" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#e07b00"/></marker>
<marker id="head-check" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" markerHeight="6" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#c0002a"/></marker>
</defs>
"##;
    let _ = writeln!(
        out,
        r##"<rect x="0" y="0" width="{width}" height="{height}" fill="#fffaf0"/><rect class="board" x="{}" y="{}" width="{}" height="{}" fill="#f1d7a0" stroke="#5a3a1a" stroke-width="3"/>"##,
        MARGIN / 3,
        MARGIN / 3,
        8 * CELL + MARGIN * 4 / 3,
        9 * CELL + MARGIN * 4 / 3
    );
    grid(&mut out);
    for &(p, s) in &r.board {
        piece(&mut out, p, s);
    }
    // The moves, numbered; a move and its return are drawn side by side.
    let mut pos = Position::from_fen(&r.fen).ok();
    for (i, m) in r.moves.iter().enumerate() {
        let Some(mv) = Move::parse_iccs(&m.iccs) else {
            continue;
        };
        // A curved arrow over the pieces (a one-point move stays visible), bending to
        // one side going and to the other coming back; its number by the piece it moves.
        let (x1, y1) = xy(mv.from());
        let (x2, y2) = xy(mv.to());
        let (dx, dy) = ((x2 - x1) as f64, (y2 - y1) as f64);
        let len = (dx * dx + dy * dy).sqrt().max(1.0);
        let (ux, uy) = (dx / len, dy / len);
        let bend = if mv.from().0 < mv.to().0 { 18.0 } else { -18.0 };
        let (sx, sy) = (x1 as f64 + ux * 10.0, y1 as f64 + uy * 10.0);
        let (ex, ey) = (x2 as f64 - ux * 14.0, y2 as f64 - uy * 14.0);
        let (cx, cy) = ((sx + ex) / 2.0 - uy * bend, (sy + ey) / 2.0 + ux * bend);
        let _ = writeln!(
            out,
            r##"<path class="move" data-from="{}" data-to="{}" d="M{sx:.1},{sy:.1} Q{cx:.1},{cy:.1} {ex:.1},{ey:.1}" fill="none" stroke="#1f4e9c" stroke-width="3" stroke-opacity="0.85" marker-end="url(#head-move)"/>"##,
            mv.from(),
            mv.to()
        );
        let (mx, my) = (x1 as f64 + 19.0, y1 as f64 - 19.0);
        let _ = writeln!(
            out,
            r##"<g class="move-number"><circle cx="{mx:.1}" cy="{my:.1}" r="10" fill="#1f4e9c"/><text x="{mx:.1}" y="{my:.1}" font-family="sans-serif" font-size="12" fill="#fff" text-anchor="middle" dominant-baseline="central">{}</text></g>"##,
            i + 1
        );
        // Checks and chases, read off the board after the move.
        if let Some(p) = pos.as_mut() {
            if !p.is_legal(mv) {
                pos = None;
                continue;
            }
            p.make_move(mv);
            if p.in_check() {
                let k = p.king_square(p.side_to_move());
                for c in p.checkers() {
                    let (lx, ly) = arrow(
                        &mut out,
                        "check",
                        (c, k),
                        0.0,
                        0.5,
                        r##"stroke="#c0002a" stroke-width="2.5" stroke-dasharray="7,4" marker-end="url(#head-check)""##,
                    );
                    note(
                        &mut out,
                        lx,
                        ly,
                        &format!("{}{}", num(i + 1, lang), if zh { "将" } else { " check" }),
                        "#c0002a",
                    );
                }
            }
            for c in &m.chases {
                let (Some(a), Some(t)) = (Square::parse_iccs(&c.from), Square::parse_iccs(&c.at))
                else {
                    continue;
                };
                let (lx, ly) = arrow(
                    &mut out,
                    "chase",
                    (a, t),
                    0.0,
                    0.5,
                    r##"stroke="#e07b00" stroke-width="2.5" stroke-dasharray="4,3" marker-end="url(#head-chase)""##,
                );
                let ruling = match (zh, c.counts) {
                    (true, true) => format!("{}捉", num(i + 1, lang)),
                    (true, false) => format!("{}捉（不计）", num(i + 1, lang)),
                    (false, true) => format!("{} chase", i + 1),
                    (false, false) => format!("{} chase (not counted)", i + 1),
                };
                note(&mut out, lx, ly, &ruling, "#a85a00");
            }
        }
    }
    // The ruling beside the board.
    for (k, l) in lines.iter().enumerate() {
        let _ = writeln!(
            out,
            r##"<text class="ruling" x="{PANEL_X}" y="{}" font-family="{FONT}" font-size="14" fill="#222" xml:space="preserve">{}</text>"##,
            32 + 20 * k as i32,
            esc(l)
        );
    }
    out += "</svg>\n";
    out
}

/// The panel's widest line, in pixels.
const PANEL_WIDTH: f64 = 720.0;

/// Estimated width of a line at font size 14: CJK and full-width characters are square.
fn text_width(l: &str) -> f64 {
    l.chars()
        .map(|c| if c.is_ascii() { 7.6 } else { 14.0 })
        .sum()
}

/// Break a line into pieces no wider than `max` pixels, at spaces or after CJK
/// punctuation where possible; continuation lines are indented.
fn wrap(line: &str, max: f64) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut last_break: Option<usize> = None;
    for c in line.chars() {
        cur.push(c);
        if c == ' ' || "，；、）".contains(c) {
            last_break = Some(cur.len());
        }
        if text_width(&cur) > max {
            let cut = last_break
                .filter(|&b| b > 8)
                .unwrap_or(cur.len() - c.len_utf8());
            let rest = cur.split_off(cut);
            out.push(cur.trim_end().to_string());
            cur = format!("      {}", rest.trim_start());
            last_break = None;
        }
    }
    if !cur.trim().is_empty() || out.is_empty() {
        out.push(cur);
    }
    out
}

fn note(out: &mut String, x: f64, y: f64, text: &str, color: &str) {
    let _ = writeln!(
        out,
        r##"<text class="note" x="{:.1}" y="{:.1}" font-family="{FONT}" font-size="14" font-weight="bold" fill="{color}" stroke="#fffaf0" stroke-width="3" paint-order="stroke" text-anchor="middle">{}</text>"##,
        x,
        y - 8.0,
        esc(text)
    );
}

/// One self-contained HTML page: the board with the cycle drawn on it, and the
/// ruling beside it as text the browser wraps (below the board on a narrow
/// screen), in `lang`.
pub fn html(r: &Ruling, lang: Lang) -> String {
    let title = match lang {
        Lang::Zh => "棋例裁决",
        Lang::En => "Repetition ruling",
    };
    let mut ruling = String::new();
    for l in ruling_lines(r, lang) {
        // Indented lines belong to the line above them.
        let class = if l.starts_with(' ') { "sub" } else { "line" };
        let _ = writeln!(ruling, "<p class=\"{class}\">{}</p>", esc(l.trim()));
    }
    format!(
        "<!DOCTYPE html>\n<html lang=\"{}\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{title}</title>\n<style>body{{font-family:{FONT}}}{STYLE}</style>\n</head>\n<body>\n<h1>{title}</h1>\n\
         <main>\n<figure>\n{}</figure>\n<section class=\"ruling\">\n{ruling}</section>\n</main>\n</body>\n</html>\n",
        if lang == Lang::Zh { "zh" } else { "en" },
        picture(r, lang, &[]),
    )
}

/// The page's layout: board and ruling side by side while both fit, the ruling
/// below the board on a narrow screen; the board scales down with the screen.
const STYLE: &str = "body{background:#fffaf0;color:#222;margin:16px;line-height:1.6}\
h1{font-size:1.5em;margin:0 0 12px}\
main{display:flex;flex-wrap:wrap;gap:24px;align-items:flex-start}\
figure{margin:0;flex:0 1 520px;min-width:0}\
figure svg{width:100%;height:auto;display:block}\
.ruling{flex:1 1 320px;min-width:0;font-size:16px}\
.ruling p{margin:0 0 6px;overflow-wrap:anywhere}\
.ruling p.sub{margin-left:1.5em}";
