//! Chinese vertical notation: `炮二平五`, `马８进７`, `前车进一`, `中兵平四`.
//!
//! Printing follows the rule books: Red's numbers are Chinese numerals 一..九, Black's
//! full-width digits １..９; 进/退/平; the last number is the destination file for
//! sideways moves and for advisors, elephants and knights, otherwise the step count.
//! Two like rooks, knights, cannons or pawns on one file are 前/后 (front/rear,
//! front = nearer the enemy), three pawns 前/中/后, four or five pawns 一二三四五
//! from the front. When two files each hold two or more pawns, the piece name gives
//! way to the file number: 前七平六, 中三进一, 后三平四 (rule-book convention).
//! Advisors and elephants sharing a file are named by file: the direction tells them
//! apart.
//!
//! Parsing also takes the usual variants: traditional and alternative piece names
//! (車馬砲包傌俥炮 帥將仕士相象 兵卒), 進, ASCII or full-width digits for either side,
//! 後 for 后, the piece-first order 车前进一, 前二三四五 numbering, 前兵七平六.

use super::describe::{describe, resolve, Action, Described, Place, Spec};
use super::{echo, NotationError};
use crate::position::Position;
use crate::types::{Color, Move, Piece, PieceKind};

const RED_NUMERALS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];
const BLACK_DIGITS: [char; 9] = ['１', '２', '３', '４', '５', '６', '７', '８', '９'];

fn number(color: Color, k: u8) -> char {
    let i = (k.clamp(1, 9) - 1) as usize;
    match color {
        Color::Red => RED_NUMERALS[i],
        Color::Black => BLACK_DIGITS[i],
    }
}

fn action_char(a: Action) -> char {
    match a {
        Action::Advance => '进',
        Action::Retreat => '退',
        Action::Traverse => '平',
    }
}

/// 前/中/后 or 一..五 for the piece at `idx` of `n` like pieces on a file.
fn place_char(idx: u8, n: u8) -> char {
    if n >= 4 {
        RED_NUMERALS[idx.min(8) as usize]
    } else if idx == 0 {
        '前'
    } else if idx + 1 == n {
        '后'
    } else {
        '中'
    }
}

/// Chinese vertical notation of the legal move `m` in `pos` (the position before
/// the move), e.g. `炮二平五`. A move with no piece on its from-square prints as
/// its ICCS coordinates rather than panicking.
pub fn to_chinese(pos: &Position, m: Move) -> String {
    match describe(pos, m) {
        Some(d) => write_described(&d),
        None => m.iccs(),
    }
}

fn write_described(d: &Described) -> String {
    let mut s = String::with_capacity(12);
    let piece = Piece::new(d.color, d.kind).chinese();
    if d.two_tandem_files() {
        s.push(place_char(d.idx, d.n));
        s.push(number(d.color, d.file_no));
    } else if d.tandem() {
        s.push(place_char(d.idx, d.n));
        s.push(piece);
    } else {
        s.push(piece);
        s.push(number(d.color, d.file_no));
    }
    s.push(action_char(d.action));
    s.push(number(d.color, d.target));
    s
}

fn piece_kind(c: char) -> Option<PieceKind> {
    Some(match c {
        '帅' | '帥' | '将' | '將' => PieceKind::King,
        '仕' | '士' => PieceKind::Advisor,
        '相' | '象' => PieceKind::Elephant,
        '马' | '馬' | '傌' | '碼' => PieceKind::Knight,
        '车' | '車' | '俥' | '伡' => PieceKind::Rook,
        '炮' | '砲' | '包' => PieceKind::Cannon,
        '兵' | '卒' => PieceKind::Pawn,
        _ => return None,
    })
}

/// 1..9 from a Chinese numeral, a full-width digit or an ASCII digit.
fn numeral(c: char) -> Option<u8> {
    if let Some(i) = RED_NUMERALS.iter().position(|&x| x == c) {
        return Some(i as u8 + 1);
    }
    if let Some(i) = BLACK_DIGITS.iter().position(|&x| x == c) {
        return Some(i as u8 + 1);
    }
    match c {
        '1'..='9' => Some(c as u8 - b'0'),
        _ => None,
    }
}

fn action(c: char) -> Option<Action> {
    Some(match c {
        '进' | '進' => Action::Advance,
        '退' => Action::Retreat,
        '平' => Action::Traverse,
        _ => return None,
    })
}

fn place_word(c: char) -> Option<Place> {
    Some(match c {
        '前' => Place::Front,
        '中' => Place::Middle,
        '后' | '後' => Place::Rear,
        _ => return None,
    })
}

/// A leading place: 前/中/后 or an ordinal 一..五.
fn place_or_ordinal(c: char) -> Option<Place> {
    place_word(c).or_else(|| numeral(c).filter(|&k| k <= 5).map(Place::Nth))
}

fn syntax(text: &str, reason: &'static str) -> NotationError {
    NotationError::Syntax {
        text: echo(text),
        reason,
    }
}

/// Read Chinese vertical notation (`炮二平五`, `马8进7`, `前炮退一`) as the one legal
/// move in `pos` it names.
pub fn parse_chinese(pos: &Position, s: &str) -> Result<Move, NotationError> {
    let t = s.trim_matches(|c: char| c.is_whitespace());
    if t.is_empty() {
        return Err(NotationError::Empty);
    }
    let cs: Vec<char> = t.chars().filter(|c| !c.is_whitespace()).take(8).collect();
    if !(4..=5).contains(&cs.len()) {
        return Err(syntax(t, "expected four characters like 炮二平五"));
    }
    let n = cs.len();
    let act =
        action(cs[n - 2]).ok_or_else(|| syntax(t, "the third character is not 进, 退 or 平"))?;
    let target =
        numeral(cs[n - 1]).ok_or_else(|| syntax(t, "the last character is not a number"))?;

    let (kind, file, place) = if n == 5 {
        // 前兵七平六: place, piece, file.
        let place = place_or_ordinal(cs[0])
            .ok_or_else(|| syntax(t, "expected 前, 中, 后 or 一..五 first"))?;
        let kind = piece_kind(cs[1]).ok_or_else(|| syntax(t, "unknown piece name"))?;
        let file = numeral(cs[2]).ok_or_else(|| syntax(t, "expected a file number"))?;
        (kind, Some(file), place)
    } else {
        let (a, b) = (cs[0], cs[1]);
        if let Some(kind) = piece_kind(a) {
            if let Some(f) = numeral(b) {
                (kind, Some(f), Place::Any) // 炮二
            } else if let Some(p) = place_word(b) {
                (kind, None, p) // 车前 (piece-first order)
            } else {
                return Err(syntax(t, "expected a file number or 前/后 after the piece"));
            }
        } else if let Some(p) = place_or_ordinal(a) {
            if let Some(kind) = piece_kind(b) {
                (kind, None, p) // 前炮, 中兵, 二兵
            } else if let Some(f) = numeral(b) {
                (PieceKind::Pawn, Some(f), p) // 前七: pawns on two files
            } else {
                return Err(syntax(
                    t,
                    "expected a piece name or file number after 前/中/后",
                ));
            }
        } else {
            return Err(syntax(t, "expected a piece name or 前/中/后 first"));
        }
    };
    let spec = Spec {
        kind,
        file,
        place,
        action: act,
        target,
    };
    resolve(pos, &spec, t)
}
