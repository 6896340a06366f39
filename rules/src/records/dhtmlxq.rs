//! DhtmlXQ, the text form web pages and bulletin boards (UBB) carry games in:
//!
//! ```text
//! [DhtmlXQ]
//! [DhtmlXQ_title]…[/DhtmlXQ_title]      also _event, _date, _place, _red, _black
//! [DhtmlXQ_result]红胜[/DhtmlXQ_result]  红胜 / 黑胜 / 和棋 (or 红先胜 / 红先负 / 红先和)
//! [DhtmlXQ_binit]8979695949…[/DhtmlXQ_binit]
//! [DhtmlXQ_movelist]77477062…[/DhtmlXQ_movelist]
//! [DhtmlXQ_comment0]…[/DhtmlXQ_comment0]  the game's comment; _commentN after move N
//! [/DhtmlXQ]
//! ```
//!
//! Points are two digits `x y`: x the file 0..8 from Red's left (ICCS a..i), y the
//! row 0..9 from *Black's* side (so rank = 9 − y). `binit` gives the 32 pieces' points
//! in the slot order XQF uses (`99`: not on the board; missing: the standard start);
//! `movelist` is four digits a move. The side to move is whoever moves first (Red
//! when there are no moves). Variations (`_move_1_5_2` …) are not read: main line only.

use super::{board_slots, slot_piece, RecordError};
use crate::fen::{Setup, START_FEN};
use crate::pgn::{GameRecord, GameResult};
use crate::position::Position;
use crate::types::{Move, Square};

/// Every `[DhtmlXQ]…[/DhtmlXQ]` game in `text` (a text with tags but no enclosing
/// `[DhtmlXQ]` is read as one game).
pub fn read_all(text: &str) -> Result<Vec<GameRecord>, RecordError> {
    let lower = text.to_ascii_lowercase();
    let mut games = Vec::new();
    let mut from = 0;
    while let Some(s) = lower[from..].find("[dhtmlxq]") {
        let start = from + s;
        let end = lower[start..]
            .find("[/dhtmlxq]")
            .map(|e| start + e)
            .ok_or_else(|| RecordError::line(line_of(text, start), "[DhtmlXQ] is never closed"))?;
        games.push(read_block(text, start, end)?);
        from = end + "[/dhtmlxq]".len();
    }
    if games.is_empty() {
        if !lower.contains("[dhtmlxq_") {
            return Err(RecordError::line(1, "no [DhtmlXQ] game in the text"));
        }
        games.push(read_block(text, 0, text.len())?);
    }
    Ok(games)
}

/// Read one game from a text that holds a single `[DhtmlXQ]` block.
pub fn read(text: &str) -> Result<GameRecord, RecordError> {
    let mut all = read_all(text)?;
    Ok(all.swap_remove(0))
}

fn line_of(text: &str, byte: usize) -> usize {
    1 + text.as_bytes()[..byte.min(text.len())]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
}

/// A tag's value and the line it starts on.
struct Field<'a> {
    name: String,
    value: &'a str,
    line: usize,
}

fn fields(text: &str, start: usize, end: usize) -> Result<Vec<Field<'_>>, RecordError> {
    let mut out = Vec::new();
    let block = &text[start..end];
    let lower = block.to_ascii_lowercase();
    let mut at = 0;
    while let Some(s) = lower[at..].find("[dhtmlxq_") {
        let open = at + s;
        let name_end = lower[open..].find(']').map(|e| open + e).ok_or_else(|| {
            RecordError::line(line_of(text, start + open), "a tag is never closed")
        })?;
        let name = lower[open + "[dhtmlxq_".len()..name_end].to_string();
        let close_tag = format!("[/dhtmlxq_{name}]");
        let value_start = name_end + 1;
        let close = lower[value_start..]
            .find(&close_tag)
            .map(|e| value_start + e)
            .ok_or_else(|| {
                RecordError::line(
                    line_of(text, start + open),
                    format!("[DhtmlXQ_{name}] has no closing [/DhtmlXQ_{name}]"),
                )
            })?;
        out.push(Field {
            name,
            value: &block[value_start..close],
            line: line_of(text, start + open),
        });
        at = close + close_tag.len();
    }
    Ok(out)
}

/// Two digits as a point (row counted from Black's side).
fn point(x: u8, y: u8) -> Option<Square> {
    (x <= 8 && y <= 9).then(|| Square::new(x, 9 - y))
}

fn digits(value: &str, line: usize, what: &str) -> Result<Vec<u8>, RecordError> {
    value
        .chars()
        .filter(|c| !c.is_whitespace())
        .map(|c| {
            c.to_digit(10)
                .map(|d| d as u8)
                .ok_or_else(|| RecordError::line(line, format!("{what}: '{c}' is not a digit")))
        })
        .collect()
}

fn read_block(text: &str, start: usize, end: usize) -> Result<GameRecord, RecordError> {
    let fields = fields(text, start, end)?;
    let mut g = GameRecord::default();
    let mut setup = Setup::parse(START_FEN).expect("start FEN parses");
    let mut moves_field: Option<&Field> = None;
    let mut comments: Vec<(usize, String)> = Vec::new();
    for f in &fields {
        let v = f.value.trim();
        match f.name.as_str() {
            "title" => set(&mut g, "Title", v),
            "event" => set(&mut g, "Event", v),
            "date" => set(&mut g, "Date", v),
            "place" => set(&mut g, "Site", v),
            "red" | "redname" => set(&mut g, "Red", v),
            "black" | "blackname" => set(&mut g, "Black", v),
            "result" => g.result = parse_result(v),
            "fen" if !v.is_empty() => {
                setup = Setup::parse(v)
                    .map_err(|e| RecordError::line(f.line, format!("bad FEN: {e}")))?;
            }
            "binit" if !v.is_empty() => setup = read_binit(v, f.line)?,
            "movelist" => moves_field = Some(f),
            n => {
                if let Some(k) = n
                    .strip_prefix("comment")
                    .and_then(|k| k.parse::<usize>().ok())
                {
                    let c = v.replace("||", "\n");
                    if !c.trim().is_empty() {
                        comments.push((k, c.trim().to_string()));
                    }
                }
            }
        }
    }
    let mut moves = Vec::new();
    let mut line = 0;
    if let Some(f) = moves_field {
        line = f.line;
        let d = digits(f.value, f.line, "movelist")?;
        if d.len() % 4 != 0 {
            return Err(RecordError::line(
                f.line,
                format!("movelist has {} digits, not four a move", d.len()),
            ));
        }
        for (i, c) in d.chunks(4).enumerate() {
            let (Some(from), Some(to)) = (point(c[0], c[1]), point(c[2], c[3])) else {
                return Err(RecordError::line(
                    f.line,
                    format!(
                        "move {} ({}{}{}{}) is off the board",
                        i + 1,
                        c[0],
                        c[1],
                        c[2],
                        c[3]
                    ),
                ));
            };
            moves.push(Move::new(from, to));
        }
    }
    // The first mover decides the side to move.
    if let Some(p) = moves.first().and_then(|m| setup.board[m.from().index()]) {
        setup.side = p.color;
    }
    let mut pos = Position::from_setup(&setup).map_err(|e| {
        RecordError::line(
            line.max(1),
            format!("the start position cannot be played: {e}"),
        )
    })?;
    for (i, &m) in moves.iter().enumerate() {
        if !pos.is_legal(m) {
            return Err(RecordError::line(
                line,
                format!("move {} ({m}) is not legal in its position", i + 1),
            ));
        }
        pos.make_move(m);
        g.push(m, None);
    }
    for (k, c) in comments {
        if k == 0 {
            g.comment = Some(c);
        } else if let Some(slot) = g.comments.get_mut(k - 1) {
            *slot = Some(c);
        }
    }
    let fen = setup.to_fen();
    if fen != START_FEN {
        g.set_tag("FEN", &fen);
    }
    Ok(g)
}

fn set(g: &mut GameRecord, tag: &str, v: &str) {
    if !v.is_empty() {
        g.set_tag(tag, v);
    }
}

fn parse_result(v: &str) -> GameResult {
    match v {
        "红胜" | "红先胜" | "黑负" | "1-0" => GameResult::RedWins,
        "黑胜" | "红先负" | "红负" | "0-1" => GameResult::BlackWins,
        "和棋" | "红先和" | "和" | "1/2-1/2" => GameResult::Draw,
        _ => GameResult::Unknown,
    }
}

fn read_binit(v: &str, line: usize) -> Result<Setup, RecordError> {
    let d = digits(v, line, "binit")?;
    if d.len() != 64 {
        return Err(RecordError::line(
            line,
            format!("binit has {} digits, expected 64 (32 pieces)", d.len()),
        ));
    }
    let mut setup = Setup::parse("9/9/9/9/9/9/9/9/9/9 w").expect("an empty board parses");
    for i in 0..32 {
        let (x, y) = (d[2 * i], d[2 * i + 1]);
        if (x, y) == (9, 9) {
            continue;
        }
        let s = point(x, y).ok_or_else(|| {
            RecordError::line(
                line,
                format!("binit piece {} stands off the board ({x}{y})", i + 1),
            )
        })?;
        if setup.board[s.index()].is_some() {
            return Err(RecordError::line(
                line,
                format!("binit puts two pieces on {s}"),
            ));
        }
        setup.board[s.index()] = Some(slot_piece(i));
    }
    Ok(setup)
}

/// DhtmlXQ has no escapes: a value cannot hold the brackets that start a tag, nor a
/// line break (comments write it as `||`).
fn clean(v: &str) -> String {
    v.replace(['[', ']'], "").replace(['\r', '\n'], "||")
}

/// Write a record as DhtmlXQ text (main line, tags, result, comments). Brackets in
/// tag values and comments are dropped (the format cannot hold them).
pub fn write(g: &GameRecord) -> Result<String, String> {
    let setup = Setup::parse(g.start_fen()).map_err(|e| format!("bad FEN: {e}"))?;
    let slots = board_slots(&setup).ok_or("more pieces of a kind than DhtmlXQ has slots for")?;
    let xy = |s: Square| format!("{}{}", s.file(), 9 - s.rank());
    let mut out = String::from("[DhtmlXQ]\n");
    for (tag, name) in [
        ("Title", "title"),
        ("Event", "event"),
        ("Date", "date"),
        ("Site", "place"),
        ("Red", "red"),
        ("Black", "black"),
    ] {
        if let Some(v) = g.tag(tag) {
            out += &format!("[DhtmlXQ_{name}]{}[/DhtmlXQ_{name}]\n", clean(v));
        }
    }
    let result = match g.result {
        GameResult::RedWins => "红胜",
        GameResult::BlackWins => "黑胜",
        GameResult::Draw => "和棋",
        GameResult::Unknown => "未知",
    };
    out += &format!("[DhtmlXQ_result]{result}[/DhtmlXQ_result]\n");
    let binit: String = slots
        .iter()
        .map(|s| s.map_or("99".to_string(), xy))
        .collect();
    out += &format!("[DhtmlXQ_binit]{binit}[/DhtmlXQ_binit]\n");
    let mut pos = Position::from_setup(&setup).map_err(|e| format!("bad start position: {e}"))?;
    let mut list = String::new();
    for (i, &m) in g.moves.iter().enumerate() {
        if !pos.is_legal(m) {
            return Err(format!("move {} ({m}) is not legal", i + 1));
        }
        pos.make_move(m);
        list += &xy(m.from());
        list += &xy(m.to());
    }
    out += &format!("[DhtmlXQ_movelist]{list}[/DhtmlXQ_movelist]\n");
    if let Some(c) = &g.comment {
        out += &format!("[DhtmlXQ_comment0]{}[/DhtmlXQ_comment0]\n", clean(c));
    }
    for (i, c) in g.comments.iter().enumerate() {
        if let Some(c) = c {
            out += &format!(
                "[DhtmlXQ_comment{}]{}[/DhtmlXQ_comment{}]\n",
                i + 1,
                clean(c),
                i + 1
            );
        }
    }
    out += "[/DhtmlXQ]\n";
    Ok(out)
}
