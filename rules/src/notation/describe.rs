//! What the vertical notations (WXF and Chinese) say about a move, shared by both:
//! the description of a legal move for printing, and the `Spec` a parser reads,
//! matched against the descriptions of all legal moves.

use super::{echo, NotationError};
use crate::position::Position;
use crate::types::{Color, Move, PieceKind, Square};

/// 进 / 退 / 平: forward (toward the enemy), back, sideways along the rank.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Action {
    Advance,
    Retreat,
    Traverse,
}

/// One legal move as the vertical notations see it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Described {
    pub color: Color,
    pub kind: PieceKind,
    /// File of the moving piece counted 1..9 from the mover's right.
    pub file_no: u8,
    /// Like pieces (same colour and kind) on the moving piece's file.
    pub n: u8,
    /// Place of the moving piece among them, 0 = the front one (nearest the enemy).
    pub idx: u8,
    /// For pawns: how many files hold two or more of the mover's pawns.
    pub tandem_files: u8,
    /// For pawns on such files when there are two of them: place among all those
    /// pawns, numbered file by file from the mover's right, front to back on a file.
    pub global_idx: u8,
    pub action: Action,
    /// Destination file (sideways moves; advisor, elephant, knight) or step count.
    pub target: u8,
}

impl Described {
    /// Does the notation name this piece with its place on the file (前/后, `+`/`-`)
    /// rather than its file number? Advisors and elephants never need it: on a shared
    /// file the front one can only retreat and the rear one only advance.
    pub fn tandem(&self) -> bool {
        self.n >= 2
            && matches!(
                self.kind,
                PieceKind::Rook | PieceKind::Knight | PieceKind::Cannon | PieceKind::Pawn
            )
    }

    /// Pawns on two files each holding two or more: the file number must be given too.
    pub fn two_tandem_files(&self) -> bool {
        self.kind == PieceKind::Pawn && self.n >= 2 && self.tandem_files >= 2
    }
}

/// File number 1..9 of `file` (0 = ICCS `a`) for `color`.
#[inline]
pub(crate) fn file_no(color: Color, file: u8) -> u8 {
    match color {
        Color::Red => 9 - file,
        Color::Black => file + 1,
    }
}

/// Like pieces of `color`/`kind` on `file`, front first (front = nearest the enemy).
fn column(pos: &Position, color: Color, kind: PieceKind, file: u8) -> ([Square; 10], usize) {
    let mut out = [Square(0); 10];
    let mut n = 0;
    for i in 0..10u8 {
        // Red's front is the high ranks, Black's the low ones.
        let rank = match color {
            Color::Red => 9 - i,
            Color::Black => i,
        };
        let s = Square::new(file, rank);
        if let Some(p) = pos.piece_at(s) {
            if p.color == color && p.kind == kind {
                out[n] = s;
                n += 1;
            }
        }
    }
    (out, n)
}

/// Describe `m` in `pos`; `None` when no piece stands on the from-square or the move
/// stays in place (never for a legal move).
pub(crate) fn describe(pos: &Position, m: Move) -> Option<Described> {
    let (from, to) = (m.from(), m.to());
    if from.index() >= 90 || to.index() >= 90 || from == to {
        return None;
    }
    let p = pos.piece_at(from)?;
    let (color, kind) = (p.color, p.kind);
    let (col, n) = column(pos, color, kind, from.file());
    let idx = col[..n].iter().position(|&s| s == from).unwrap_or(0) as u8;

    let (mut tandem_files, mut global_idx) = (0u8, 0u8);
    if kind == PieceKind::Pawn {
        let mut seen = 0u8;
        // Files in the mover's numbering order 1..9 (from the mover's right).
        for no in 1..=9u8 {
            let file = match color {
                Color::Red => 9 - no,
                Color::Black => no - 1,
            };
            let (c, k) = column(pos, color, kind, file);
            if k >= 2 {
                tandem_files += 1;
                if let Some(i) = c[..k].iter().position(|&s| s == from) {
                    global_idx = seen + i as u8;
                }
                seen += k as u8;
            }
        }
    }

    let (rf, rt) = (from.relative_rank(color), to.relative_rank(color));
    let action = if rf == rt {
        Action::Traverse
    } else if rt > rf {
        Action::Advance
    } else {
        Action::Retreat
    };
    let target = match (action, kind) {
        (Action::Traverse, _)
        | (_, PieceKind::Advisor)
        | (_, PieceKind::Elephant)
        | (_, PieceKind::Knight) => file_no(color, to.file()),
        _ => rf.abs_diff(rt),
    };
    Some(Described {
        color,
        kind,
        file_no: file_no(color, from.file()),
        n: n as u8,
        idx,
        tandem_files,
        global_idx,
        action,
        target,
    })
}

/// Which piece of a kind the text names, besides its file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Place {
    /// Only the file (or nothing) is given.
    Any,
    /// 前 / `+`: the front one of two or more.
    Front,
    /// 后 / `-`: the rear one.
    Rear,
    /// 中: the middle one of three (or five).
    Middle,
    /// 一二三四五: the k-th (1-based) from the front.
    Nth(u8),
    /// WXF `P+` / `P-` for pawns: the front/rear one of two or three, the second from
    /// the front/rear of four or five (whose outermost are `++` / `--`).
    WxfInner { front: bool },
    /// WXF plain file number (`P3.4`): the middle pawn when three or five share the
    /// file, otherwise any piece on the file.
    WxfPlain,
}

/// A parsed move text: everything the notation said.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Spec {
    pub kind: PieceKind,
    pub file: Option<u8>,
    pub place: Place,
    pub action: Action,
    pub target: u8,
}

impl Spec {
    fn fits(&self, d: &Described) -> bool {
        if d.kind != self.kind || d.action != self.action || d.target != self.target {
            return false;
        }
        if let Some(f) = self.file {
            if d.file_no != f {
                return false;
            }
        }
        let (n, idx) = (d.n, d.idx);
        match self.place {
            Place::Any => true,
            Place::Front => n >= 2 && idx == 0,
            Place::Rear => n >= 2 && idx == n - 1,
            Place::Middle => n >= 3 && n % 2 == 1 && idx == n / 2,
            Place::Nth(k) => {
                if k == 0 {
                    false
                } else if self.file.is_none() && d.two_tandem_files() {
                    // Numbered across both files (the computer convention).
                    d.global_idx == k - 1
                } else {
                    n >= 2 && idx == k - 1
                }
            }
            Place::WxfInner { front } => {
                if n < 2 {
                    false
                } else if n >= 4 {
                    idx == if front { 1 } else { n - 2 }
                } else {
                    idx == if front { 0 } else { n - 1 }
                }
            }
            Place::WxfPlain => {
                if d.kind == PieceKind::Pawn && n >= 3 && n % 2 == 1 {
                    idx == n / 2
                } else {
                    true
                }
            }
        }
    }
}

/// The one legal move that `spec` names, or why there is none.
pub(crate) fn resolve(pos: &Position, spec: &Spec, text: &str) -> Result<Move, NotationError> {
    let mut found: Vec<Move> = Vec::new();
    for &m in pos.legal_moves().as_slice() {
        if let Some(d) = describe(pos, m) {
            if spec.fits(&d) {
                found.push(m);
            }
        }
    }
    match found.len() {
        0 => Err(NotationError::NoSuchMove(echo(text))),
        1 => Ok(found[0]),
        _ => Err(NotationError::Ambiguous {
            text: echo(text),
            moves: found,
        }),
    }
}
