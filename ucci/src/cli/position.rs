//! `--fen`, `--moves` and `--strict`: the position arguments of every subcommand
//! that takes a position, read one way (`rules::fen::Setup` and
//! `rules::notation::parse_line`), so that each accepts every notation the rules
//! crate reads.

use clap::Args;
use rules::fen::Setup;
use rules::{Move, Position, START_FEN};

#[derive(Args, Clone, Debug, Default)]
pub struct PositionArgs {
    /// The position as FEN [default: the initial position]. Composed studies are
    /// accepted, with a warning on stderr when no game reaches them.
    #[arg(long, value_name = "FEN")]
    pub fen: Option<String>,
    /// Moves played from that position, in ICCS (`h2e2`), WXF (`C2.5`) or Chinese
    /// (`炮二平五`) notation: separate words (`--moves h2e2 h9g7`) or one quoted string
    /// (`--moves "1. h2e2 h9g7"`); blanks or commas separate them and move numbers are
    /// skipped. (A WXF rear-piece move is written letter first, `R-+1`, so that no
    /// word starts with `-`.)
    #[arg(long, num_args = 1.., value_name = "MOVE")]
    pub moves: Vec<String>,
    /// Refuse a position that no game from the start reaches.
    #[arg(long)]
    pub strict: bool,
}

impl PositionArgs {
    /// The FEN given, or the initial position's.
    pub fn fen(&self) -> &str {
        self.fen.as_deref().unwrap_or(START_FEN)
    }

    /// The `--moves` text as one line, each move a word: a value may hold several
    /// moves separated by blanks or commas.
    pub fn move_text(&self) -> String {
        move_words(&self.moves).join(" ")
    }

    /// The position before the moves, and the warnings to print about it.
    pub fn start(&self) -> Result<(Position, Vec<String>), String> {
        let setup = Setup::parse(self.fen()).map_err(|e| format!("bad FEN: {e}"))?;
        let unreachable = setup.unreachable();
        if self.strict {
            if let Some(e) = unreachable.first() {
                return Err(format!("bad FEN (--strict): {e}"));
            }
        }
        let pos = Position::from_setup(&setup).map_err(|e| format!("bad FEN: {e}"))?;
        let warnings = if unreachable.is_empty() {
            Vec::new()
        } else {
            let list: Vec<String> = unreachable.iter().map(|r| r.to_string()).collect();
            vec![format!(
                "warning: no game reaches this position (a composed study?): {}",
                list.join("; ")
            )]
        };
        Ok((pos, warnings))
    }

    /// The moves, each read in the position the ones before it reach from `start`.
    pub fn line(&self, start: &Position) -> Result<Vec<Move>, String> {
        rules::notation::parse_line(start, &self.move_text())
            .map_err(|(i, e)| format!("move {}: {e}", i + 1))
    }

    /// The position the moves reach, and the warnings to print about its start.
    pub fn position(&self) -> Result<(Position, Vec<String>), String> {
        let (mut pos, warnings) = self.start()?;
        for m in self.line(&pos)? {
            pos.make_move(m);
        }
        Ok((pos, warnings))
    }
}

/// The words of a `--moves` list: each value may hold several moves separated by
/// blanks or commas.
pub fn move_words(values: &[String]) -> Vec<String> {
    values
        .iter()
        .flat_map(|v| v.split(|c: char| c.is_whitespace() || c == ','))
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(fen: Option<&str>, moves: &[&str], strict: bool) -> PositionArgs {
        PositionArgs {
            fen: fen.map(str::to_string),
            moves: moves.iter().map(|s| s.to_string()).collect(),
            strict,
        }
    }

    #[test]
    fn moves_may_be_words_or_one_string() {
        let words = move_words(&["h2e2".into(), "h9g7".into()]);
        let one = move_words(&["h2e2 h9g7".into()]);
        let commas = move_words(&["h2e2,h9g7".into()]);
        assert_eq!(words, vec!["h2e2", "h9g7"]);
        assert_eq!(one, words);
        assert_eq!(commas, words);
        assert!(move_words(&["  ".into()]).is_empty());
    }

    #[test]
    fn every_notation_reaches_the_same_position() {
        let want = args(None, &["h2e2", "h9g7"], false).position().unwrap().0;
        for moves in [
            &["1.", "h2e2", "h9g7"][..],
            &["C2.5 H8+7"],
            &["炮二平五", "马８进７"],
            &["1. 炮二平五 马8进7"],
            &["h2e2,H8+7"],
        ] {
            let (pos, warnings) = args(None, moves, false).position().unwrap();
            assert_eq!(pos.to_fen(), want.to_fen(), "{moves:?}");
            assert!(warnings.is_empty());
        }
    }

    #[test]
    fn bad_positions_and_moves_are_errors() {
        assert!(args(Some("bad fen"), &[], false)
            .position()
            .unwrap_err()
            .starts_with("bad FEN"));
        let e = args(None, &["h2e2", "zz"], false).position().unwrap_err();
        assert!(e.starts_with("move 2: ") && e.contains("zz"), "{e}");
        assert!(args(None, &["h2h8"], false).position().is_err());
        // Three red advisors: a composed study, warned about or refused.
        let study = "3ak4/3a1a3/9/9/9/9/9/9/4A4/R3K4 w - - 0 1";
        let (_, warnings) = args(Some(study), &[], false).position().unwrap();
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        let e = args(Some(study), &[], true).position().unwrap_err();
        assert!(e.contains("--strict"), "{e}");
    }
}
