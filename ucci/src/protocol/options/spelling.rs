//! How options are spelled in each dialect: matching the name a GUI sends
//! against the table in either spelling (case, blanks, `_` and `-` ignored), and
//! the `option …` lines each dialect advertises in the handshake.

use super::table::{Def, Id, Kind, DEFS};
use super::Settings;
use crate::protocol::Dialect;

pub(super) fn normalise(name: &str) -> String {
    name.chars()
        .filter(|c| !matches!(c, ' ' | '_' | '-'))
        .flat_map(|c| c.to_lowercase())
        .collect()
}

pub(super) fn find(name: &str) -> Option<&'static Def> {
    let n = normalise(name);
    DEFS.iter()
        .find(|d| normalise(d.uci) == n || d.ucci == n || d.aliases.iter().any(|a| *a == n))
}

impl Settings {
    /// The `option …` lines of the handshake.
    pub fn option_lines(dialect: Dialect) -> Vec<String> {
        let mut out = Vec::new();
        for d in DEFS {
            let name = match dialect {
                // UCCI GUIs have no variants to choose.
                Dialect::Ucci if d.id == Id::Variant => continue,
                Dialect::Ucci => d.ucci.to_string(),
                Dialect::Uci if d.in_uci => format!("name {}", d.uci),
                Dialect::Uci => continue,
            };
            let kind = match d.kind {
                Kind::Check(v) => format!("type check default {v}"),
                // UCCI §5.2 orders the fields min, max, var, default; UCI GUIs
                // are used to Stockfish's default-first order.
                Kind::Spin { min, max, default } => match dialect {
                    Dialect::Ucci => format!("type spin min {min} max {max} default {default}"),
                    Dialect::Uci => format!("type spin default {default} min {min} max {max}"),
                },
                Kind::Combo(vars, default) => {
                    let vars: Vec<String> = vars.iter().map(|v| format!("var {v}")).collect();
                    match dialect {
                        Dialect::Ucci => format!("type combo {} default {default}", vars.join(" ")),
                        Dialect::Uci => format!("type combo default {default} {}", vars.join(" ")),
                    }
                }
                Kind::Button => "type button".to_string(),
                Kind::Text(default) => format!("type string default {default}"),
            };
            out.push(format!("option {name} {kind}"));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn option_lines_per_dialect() {
        let ucci = Settings::option_lines(Dialect::Ucci);
        assert!(ucci.contains(&"option usemillisec type check default true".to_string()));
        assert!(ucci
            .iter()
            .any(|l| l.starts_with("option hashsize type spin")));
        assert!(ucci.iter().all(|l| !l.contains(" name ")));
        let uci = Settings::option_lines(Dialect::Uci);
        assert!(uci
            .iter()
            .any(|l| l.starts_with("option name Move Overhead type spin default 2 ")));
        assert!(uci
            .iter()
            .any(|l| l == "option name Rules type combo default axf var axf var cn"));
        assert!(uci.iter().all(|l| !l.contains("usemillisec")));
    }
}
