//! The answer to one `go`: the move, draw offer or resignation, and the score,
//! depth and stray PV moves read from the `info` lines before it.

use crate::notation::{parse_move_text, RankBase};

/// The answer to one `go`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Reply {
    /// The move text after `bestmove`; `None` for `nobestmove` or `bestmove (none)`.
    pub bestmove: Option<String>,
    pub offers_draw: bool,
    pub resigns: bool,
    /// Last reported score (side to move's view; mate scores mapped to ±30000 − n).
    pub score: Option<i32>,
    pub depth: Option<u32>,
    /// Lines that were not part of the protocol.
    pub garbage: u32,
    /// A PV move that reads only in the other rank numbering (e.g. `a10a9` from an
    /// engine configured for ranks 0-9): the first such token.
    pub foreign_pv_move: Option<String>,
}

/// The first move after `pv` that is not a move in `base` but is one in the other
/// rank numbering.
pub(super) fn foreign_pv_move(t: &[&str], base: RankBase) -> Option<String> {
    let other = match base {
        RankBase::Zero => RankBase::One,
        RankBase::One => RankBase::Zero,
    };
    let pv = t.iter().position(|w| *w == "pv")?;
    t[pv + 1..]
        .iter()
        .find(|w| parse_move_text(w, base).is_none() && parse_move_text(w, other).is_some())
        .map(|w| w.chars().take(16).collect())
}

pub(super) fn parse_info(t: &[&str], reply: &mut Reply) {
    let mut i = 0;
    while i < t.len() {
        match t[i] {
            "depth" => {
                if let Some(d) = t.get(i + 1).and_then(|s| s.parse().ok()) {
                    reply.depth = Some(d);
                }
                i += 2;
            }
            "score" => {
                // UCCI: `score v`; UCI: `score cp v` / `score mate n`.
                match (t.get(i + 1), t.get(i + 2)) {
                    (Some(&"cp"), Some(v)) => {
                        reply.score = v.parse().ok().or(reply.score);
                        i += 3;
                    }
                    (Some(&"mate"), Some(v)) => {
                        if let Ok(n) = v.parse::<i32>() {
                            reply.score = Some(if n >= 0 { 30000 - n } else { -30000 - n });
                        }
                        i += 3;
                    }
                    (Some(v), _) => {
                        reply.score = v.parse().ok().or(reply.score);
                        i += 2;
                    }
                    _ => i += 1,
                }
            }
            "pv" | "string" | "message" => return,
            _ => i += 1,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_scores() {
        let mut r = Reply::default();
        parse_info(&["depth", "7", "score", "-35", "pv", "h2e2"], &mut r);
        assert_eq!((r.depth, r.score), (Some(7), Some(-35)));
        parse_info(&["depth", "8", "score", "cp", "12"], &mut r);
        assert_eq!(r.score, Some(12));
        parse_info(&["score", "mate", "-3"], &mut r);
        assert_eq!(r.score, Some(-29997));
        parse_info(&["score", "junk", "depth"], &mut r);
        assert_eq!(r.score, Some(-29997), "junk keeps the last good score");
        let pv = ["depth", "3", "pv", "h3e3", "a10a9"];
        assert_eq!(foreign_pv_move(&pv, RankBase::Zero), Some("a10a9".into()));
        assert_eq!(foreign_pv_move(&pv, RankBase::One), None);
        assert_eq!(
            foreign_pv_move(&["pv", "a0a1"], RankBase::One),
            Some("a0a1".into())
        );
    }
}
