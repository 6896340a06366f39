//! `qili judge`'s parts: the ruling's data (`ruling`), its text in one language
//! (`text`), whole games and files of games (`game`), pictures (`svg`), and the per-move
//! rule query (`query`); this file holds the start position and the error texts.
//!
//! The parts use each other one way only, so that none needs to know the ones above
//! it: `ruling` uses none of them; this file uses `ruling`; `game` uses `ruling` and
//! this file; `text` uses `game` and `ruling`; `svg` uses `text` and `ruling`;
//! `query` uses this file.

pub mod game;
pub mod query;
pub mod ruling;
pub mod svg;
pub mod text;

use rules::fen::Setup;
use rules::notation::NotationError;
use rules::repetition::articles::full_width;
use rules::repetition::Lang;
use rules::{FenError, Position};

/// Why no game from the start reaches a board, in `lang` (Chinese without Latin letters).
fn unreachable_reason(e: &FenError, lang: Lang) -> String {
    match (e, lang) {
        (FenError::TooManyPieces { piece, count }, Lang::Zh) => format!(
            "{}方{}有{}个，多于一副棋的{}个",
            piece.color.chinese(),
            piece.chinese(),
            full_width(*count),
            full_width(piece.kind.max_count())
        ),
        (FenError::PieceOffItsPoints { piece, square }, Lang::Zh) => format!(
            "{}方{}位于{}，不是它能走到的点",
            piece.color.chinese(),
            piece.chinese(),
            ruling::piece_on_file(*piece, *square)
                .chars()
                .skip(1)
                .collect::<String>()
                + &format!("路第{}横线", full_width(square.rank() as u32 + 1))
        ),
        (FenError::Empty, Lang::Zh) => "局面文字为空".into(),
        (FenError::WrongRankCount(n), Lang::Zh) => {
            format!("棋盘有{}行，应为１０行", full_width(*n as u32))
        }
        (FenError::BadRankLength { rank, points }, Lang::Zh) => format!(
            "第{}横线有{}个点，应为９个",
            full_width(*rank as u32 + 1),
            full_width(*points as u32)
        ),
        (FenError::UnknownLetter(_), Lang::Zh) => "有不认识的棋子字母".into(),
        (FenError::BadSide(_), Lang::Zh) => "走子方有误".into(),
        (FenError::BadCounter(_), Lang::Zh) => "着数有误".into(),
        (FenError::TooManyPiecesOfColor { color, count }, Lang::Zh) => format!(
            "{}方有{}子，多于１６子",
            color.chinese(),
            full_width(*count)
        ),
        (FenError::MissingKing(c), Lang::Zh) => format!("{}方没有将帅", c.chinese()),
        (FenError::KingsFacing, Lang::Zh) => "将帅对面".into(),
        (FenError::SideNotToMoveInCheck, Lang::Zh) => "未走棋的一方正被将军".into(),
        (FenError::TooManyPieces { piece, count }, Lang::En) => format!(
            "{count} {} {}s, a set has {}",
            color_en(piece.color),
            kind_en(piece.kind),
            piece.kind.max_count()
        ),
        (FenError::PieceOffItsPoints { piece, square }, Lang::En) => format!(
            "a {} {} on {square}, a point it cannot reach",
            color_en(piece.color),
            kind_en(piece.kind)
        ),
        (e, Lang::En) => e.to_string(),
    }
}

fn color_en(c: rules::Color) -> &'static str {
    ruling::color_str(c)
}

fn kind_en(k: rules::PieceKind) -> &'static str {
    use rules::PieceKind::*;
    match k {
        King => "king",
        Advisor => "advisor",
        Elephant => "elephant",
        Knight => "knight",
        Rook => "rook",
        Cannon => "cannon",
        Pawn => "pawn",
    }
}

/// The start position from FEN text: every playable position is accepted (composed
/// studies too); one that no game reaches comes with a warning in `lang`, or is refused
/// when `strict`.
pub fn start_position(
    fen: &str,
    strict: bool,
    lang: Lang,
) -> Result<(Position, Vec<String>), String> {
    let bad = |e: FenError| match lang {
        Lang::Zh => format!("局面有误：{}", unreachable_reason(&e, lang)),
        Lang::En => format!("bad FEN: {e}"),
    };
    let setup = Setup::parse(fen).map_err(bad)?;
    let pos = Position::from_setup(&setup).map_err(bad)?;
    let reasons: Vec<String> = setup
        .unreachable()
        .iter()
        .map(|e| unreachable_reason(e, lang))
        .collect();
    if reasons.is_empty() {
        return Ok((pos, Vec::new()));
    }
    if strict {
        return Err(match lang {
            Lang::Zh => format!("此局面非实战可达（--strict）：{}", reasons.join("；")),
            Lang::En => format!(
                "not a position a game can reach (--strict): {}",
                reasons.join("; ")
            ),
        });
    }
    Ok((pos, vec![unreachable_warning(&reasons, lang)]))
}

/// A warning line in `lang` for a start position no game reaches.
fn unreachable_warning(reasons: &[String], lang: Lang) -> String {
    match lang {
        Lang::Zh => format!("注意：此局面非实战可达（排局），照常裁决：{}", reasons.join("；")),
        Lang::En => format!(
            "note: this position cannot arise in a game (a composed study); judged all the same: {}",
            reasons.join("; ")
        ),
    }
}

/// A notation error in Chinese (the move text is echoed as typed).
pub fn notation_error_zh(e: &NotationError) -> String {
    match e {
        NotationError::Empty => "着法为空".into(),
        NotationError::Syntax { text, .. } => format!("「{text}」不是着法"),
        NotationError::NoSuchMove(t) => format!("「{t}」在此局面不是合法着法"),
        NotationError::Ambiguous { text, moves } => {
            format!(
                "「{text}」可指{}步合法着法",
                ruling::num(moves.len(), Lang::Zh)
            )
        }
    }
}

/// The error for move `i` (0-based) of a typed line, in `lang`.
pub fn line_error(i: usize, e: &NotationError, lang: Lang) -> String {
    match lang {
        Lang::Zh => format!("第{}着：{}", ruling::num(i + 1, lang), notation_error_zh(e)),
        Lang::En => format!("move {}: {e}", i + 1),
    }
}
