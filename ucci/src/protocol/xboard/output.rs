//! Engine → GUI lines of CECP: the `feature` reply to `protover`, thinking
//! output, moves and game results. Formatting only; the sink is `protocol::output::Out`.

use crate::protocol::options::Settings;
use engine::{Score, SearchInfo};
use rules::{Color, Move, Position};

const NAME: &str = "Qili";
const VERSION: &str = env!("CARGO_PKG_VERSION");

/// The `feature` lines answering `protover N`: the protocol's features, the
/// engine options (`feature option=…`), then `done=1` (XBoard waits for it).
pub fn feature_lines() -> Vec<String> {
    let mut lines = vec![
        format!("feature myname=\"{NAME} {VERSION}\""),
        // XBoard's own name for xiangqi; nothing else is played.
        "feature variants=\"xiangqi\"".to_string(),
        // Moves as coordinates with `usermove` in front, positions by FEN; no
        // signals (the reader thread sees every line while a search runs).
        "feature setboard=1 usermove=1 san=0 ping=1 memory=1 smp=1 colors=0".to_string(),
        "feature sigint=0 sigterm=0 analyze=1 draw=0 reuse=1 debug=1".to_string(),
    ];
    lines.extend(Settings::cecp_option_features());
    lines.push("feature done=1".to_string());
    lines
}

/// A score in CECP units: centipawns for the engine, mates as 100000 + N.
pub fn score_value(score: Score) -> i64 {
    match score {
        Score::Cp(v) => i64::from(v),
        Score::Mate(n) if n > 0 => 100_000 + i64::from(n),
        Score::Mate(n) => -100_000 + i64::from(n),
    }
}

/// `DEPTH SCORE TIME NODES PV` (time in centiseconds), or `None` for a report
/// that carries no score (a root-move report).
pub fn thinking_line(i: &SearchInfo) -> Option<String> {
    if i.currmove.is_some() {
        return None;
    }
    let pv: Vec<String> = i.pv.iter().map(|m| m.iccs()).collect();
    Some(format!(
        "{} {} {} {} {}",
        i.depth,
        score_value(i.score),
        i.time_ms / 10,
        i.nodes,
        pv.join(" ")
    ))
}

pub fn move_line(m: Move) -> String {
    format!("move {}", m.iccs())
}

/// The result when the side to move in `pos` has no legal move: it has lost,
/// mated or stalemated (困毙, a loss in xiangqi). `None` while it can move.
pub fn result_if_over(pos: &Position) -> Option<String> {
    if pos.has_legal_move() {
        return None;
    }
    let (score, who) = match pos.side_to_move() {
        Color::Red => ("0-1", "Red"),
        Color::Black => ("1-0", "Black"),
    };
    let how = if pos.in_check() {
        "is mated"
    } else {
        "has no legal move"
    };
    Some(format!("{score} {{{who} {how}}}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_and_results() {
        assert_eq!(score_value(Score::Cp(-37)), -37);
        assert_eq!(score_value(Score::Mate(3)), 100_003);
        assert_eq!(score_value(Score::Mate(-2)), -100_002);
        assert_eq!(result_if_over(&Position::startpos()), None);
        let mated = Position::from_fen("3k5/9/9/9/9/9/9/9/9/3RK4 b - - 0 1").unwrap();
        // The black king on d9 faces the rook on the d-file; it has no move.
        let r = result_if_over(&mated);
        assert!(
            r.as_deref().is_some_and(|r| r.starts_with("1-0 {Black")),
            "{r:?}"
        );
    }

    #[test]
    fn features_end_with_done() {
        let f = feature_lines();
        assert_eq!(f.last().map(String::as_str), Some("feature done=1"));
        assert!(f.iter().all(|l| l.starts_with("feature ")));
    }
}
