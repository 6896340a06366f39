//! WXF notation (World Xiangqi Federation, after the AXF system of 1980/82):
//! `C2.5`, `H8+7`, `R1-1`. Piece letters K A E H R C P; `+` forward, `-` back,
//! `.` sideways; the last digit is a file or a step count as in Chinese notation.
//!
//! Tandem pieces, as the WXF writes them: the file digit becomes `+` (front) or `-`
//! (rear): `C+.5`, `R-+3`. Pawns: three on a file are `P+`, `P3` (the middle one
//! keeps the plain form), `P-`; four are `++`, `P+`, `P-`, `--`; five are `++`,
//! `P+`, `P3`, `P-`, `--`. When two files hold tandem pawns the piece letter gives
//! way to the file: `3+.4`, `33.4`, `3-.4`, `7+.6`, `7-.6`.
//!
//! Parsing also takes `=` for `.`, lower case, `B`/`N`/`G` for elephant, knight and
//! king, and the sign-first tandem form `+C.5` / `-R+3`.

use super::describe::{describe, resolve, Action, Described, Place, Spec};
use super::{echo, NotationError};
use crate::position::Position;
use crate::types::{Move, PieceKind};

fn letter(k: PieceKind) -> char {
    match k {
        PieceKind::King => 'K',
        PieceKind::Advisor => 'A',
        PieceKind::Elephant => 'E',
        PieceKind::Knight => 'H',
        PieceKind::Rook => 'R',
        PieceKind::Cannon => 'C',
        PieceKind::Pawn => 'P',
    }
}

fn digit(k: u8) -> char {
    char::from(b'0' + k.clamp(1, 9))
}

/// WXF notation of the legal move `m` in `pos` (the position before the move), e.g.
/// `C2.5`. A move with no piece on its from-square prints as its ICCS coordinates.
pub fn to_wxf(pos: &Position, m: Move) -> String {
    match describe(pos, m) {
        Some(d) => write_described(&d),
        None => m.iccs(),
    }
}

fn write_described(d: &Described) -> String {
    let mut s = String::with_capacity(4);
    let (idx, n) = (d.idx, d.n);
    let last = n.saturating_sub(1);
    let middle = n % 2 == 1 && idx == n / 2;
    if d.two_tandem_files() {
        s.push(digit(d.file_no));
        s.push(if idx == 0 {
            '+'
        } else if idx == last {
            '-'
        } else {
            digit(d.file_no)
        });
    } else if d.tandem() {
        if n >= 4 && idx == 0 {
            s.push_str("++");
        } else if n >= 4 && idx == last {
            s.push_str("--");
        } else {
            s.push(letter(d.kind));
            s.push(if middle {
                digit(d.file_no)
            } else if idx < n / 2 {
                '+'
            } else {
                '-'
            });
        }
    } else {
        s.push(letter(d.kind));
        s.push(digit(d.file_no));
    }
    s.push(match d.action {
        Action::Advance => '+',
        Action::Retreat => '-',
        Action::Traverse => '.',
    });
    s.push(digit(d.target));
    s
}

fn piece_kind(c: u8) -> Option<PieceKind> {
    Some(match c.to_ascii_uppercase() {
        b'K' | b'G' => PieceKind::King,
        b'A' => PieceKind::Advisor,
        b'E' | b'B' => PieceKind::Elephant,
        b'H' | b'N' => PieceKind::Knight,
        b'R' => PieceKind::Rook,
        b'C' => PieceKind::Cannon,
        b'P' => PieceKind::Pawn,
        _ => return None,
    })
}

fn file_digit(c: u8) -> Option<u8> {
    match c {
        b'1'..=b'9' => Some(c - b'0'),
        _ => None,
    }
}

fn syntax(text: &str, reason: &'static str) -> NotationError {
    NotationError::Syntax {
        text: echo(text),
        reason,
    }
}

/// Read WXF notation (`C2.5`, `H8+7`, `C+.5`, `+C.5`, `P3.4`, `++.4`, `3+.4`) as the
/// one legal move in `pos` it names.
pub fn parse_wxf(pos: &Position, s: &str) -> Result<Move, NotationError> {
    let t = s.trim();
    if t.is_empty() {
        return Err(NotationError::Empty);
    }
    let b = t.as_bytes();
    if b.len() != 4 {
        return Err(syntax(t, "expected four characters like C2.5"));
    }
    let act = match b[2] {
        b'+' => Action::Advance,
        b'-' => Action::Retreat,
        b'.' | b'=' => Action::Traverse,
        _ => return Err(syntax(t, "the third character is not +, - or .")),
    };
    let target = file_digit(b[3]).ok_or_else(|| syntax(t, "the last character is not 1..9"))?;
    let sign = |c: u8| match c {
        b'+' => Some(true),
        b'-' => Some(false),
        _ => None,
    };
    let (kind, file, place) = if let Some(kind) = piece_kind(b[0]) {
        if let Some(f) = file_digit(b[1]) {
            (kind, Some(f), Place::WxfPlain) // C2, P3 (the middle of three)
        } else if let Some(front) = sign(b[1]) {
            (kind, None, Place::WxfInner { front }) // C+, P-
        } else {
            return Err(syntax(t, "expected a file digit, + or - after the piece"));
        }
    } else if let Some(front) = sign(b[0]) {
        let outer = if front { Place::Front } else { Place::Rear };
        if let Some(kind) = piece_kind(b[1]) {
            (kind, None, outer) // +C: sign-first tandem form
        } else if sign(b[1]) == Some(front) {
            (PieceKind::Pawn, None, outer) // ++ / --: outermost of four or five pawns
        } else {
            return Err(syntax(
                t,
                "expected a piece letter or the same sign after + or -",
            ));
        }
    } else if let Some(f) = file_digit(b[0]) {
        // Pawns on two tandem files: 3+, 33, 3-.
        let place = match b[1] {
            b'+' => Place::Front,
            b'-' => Place::Rear,
            c if c == b[0] => Place::Middle,
            _ => {
                return Err(syntax(
                    t,
                    "expected +, - or the same digit after a file digit",
                ))
            }
        };
        (PieceKind::Pawn, Some(f), place)
    } else {
        return Err(syntax(
            t,
            "expected a piece letter, a file digit, + or - first",
        ));
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
