//! Writing records as PGN text: the tag roster, then ICCS movetext in the xqbase
//! form (`H2-E2`) with comments, wrapped before 80 columns.

use super::GameRecord;
use crate::types::{Color, Move};

impl GameRecord {
    /// The record as PGN text (ending in a blank line).
    pub fn to_pgn(&self) -> String {
        let mut out = String::new();
        let roster = ["Event", "Site", "Date", "Round", "Red", "Black", "Result"];
        for name in roster {
            let v = match name {
                "Result" => self.result.as_str().to_string(),
                _ => self.tag(name).unwrap_or("?").to_string(),
            };
            push_tag(&mut out, name, &v);
        }
        for (n, v) in &self.tags {
            if !roster.contains(&n.as_str()) && n != "Format" {
                push_tag(&mut out, n, v);
            }
        }
        push_tag(&mut out, "Format", "ICCS");
        out.push('\n');

        // Movetext, wrapped before 80 columns.
        let (mut number, mut black) = match crate::fen::Setup::parse(self.start_fen()) {
            Ok(s) => (s.fullmove.max(1), s.side == Color::Black),
            Err(_) => (1, false),
        };
        let mut line = String::new();
        let mut emit = |tok: &str, out: &mut String| {
            if !line.is_empty() && line.len() + 1 + tok.len() > 79 {
                out.push_str(&line);
                out.push('\n');
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(tok);
        };
        if let Some(c) = &self.comment {
            let clean: String = c.chars().filter(|&ch| ch != '}' && ch != '{').collect();
            emit(&format!("{{{clean}}}"), &mut out);
        }
        for (i, &m) in self.moves.iter().enumerate() {
            if !black {
                emit(&format!("{number}."), &mut out);
            } else if i == 0 {
                emit(&format!("{number}..."), &mut out);
            }
            emit(&iccs_upper(m), &mut out);
            if let Some(Some(c)) = self.comments.get(i) {
                let clean: String = c.chars().filter(|&ch| ch != '}' && ch != '{').collect();
                emit(&format!("{{{clean}}}"), &mut out);
            }
            if black {
                number += 1;
            }
            black = !black;
        }
        emit(self.result.as_str(), &mut out);
        out.push_str(&line);
        out.push_str("\n\n");
        out
    }
}

fn push_tag(out: &mut String, name: &str, value: &str) {
    let escaped = value.replace('\\', "\\\\").replace('"', "\\\"");
    out.push_str(&format!("[{name} \"{escaped}\"]\n"));
}

/// `H2-E2`, the xqbase ICCS spelling.
fn iccs_upper(m: Move) -> String {
    let t = m.iccs().to_ascii_uppercase();
    format!("{}-{}", &t[0..2], &t[2..4])
}

/// Write several games, one after the other.
pub fn write_games(games: &[GameRecord]) -> String {
    games.iter().map(GameRecord::to_pgn).collect()
}
