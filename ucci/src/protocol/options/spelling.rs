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

    /// The `feature option="…"` lines of a CECP handshake: the UCI options
    /// except those CECP has commands of its own for (`memory`, `cores`,
    /// `hard`/`easy`, `variant`) and those whose output CECP cannot carry
    /// (MultiPV lines, WDL figures). A check is `0`/`1`; a combo marks its
    /// default with `*`.
    pub fn cecp_option_features() -> Vec<String> {
        const OWN_COMMAND: [Id; 6] = [
            Id::Hash,
            Id::Threads,
            Id::Ponder,
            Id::Variant,
            Id::MultiPv,
            Id::ShowWdl,
        ];
        let mut out = Vec::new();
        for d in DEFS
            .iter()
            .filter(|d| d.in_uci && !OWN_COMMAND.contains(&d.id))
        {
            let kind = match d.kind {
                Kind::Check(v) => format!("-check {}", u8::from(v)),
                Kind::Spin { min, max, default } => format!("-spin {default} {min} {max}"),
                Kind::Combo(vars, default) => {
                    let vars: Vec<String> = vars
                        .iter()
                        .map(|v| match *v == default {
                            true => format!("*{v}"),
                            false => v.to_string(),
                        })
                        .collect();
                    format!("-combo {}", vars.join(" /// "))
                }
                Kind::Button => "-button".to_string(),
                Kind::Text(default) => format!("-file {default}"),
            };
            out.push(format!("feature option=\"{} {kind}\"", d.uci));
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

    #[test]
    fn cecp_option_features() {
        let f = Settings::cecp_option_features();
        for want in [
            "feature option=\"Rules -combo *axf /// cn\"",
            "feature option=\"Move Overhead -spin 2 0 60000\"",
            "feature option=\"OwnBook -check 0\"",
            "feature option=\"Clear Hash -button\"",
        ] {
            assert!(f.iter().any(|l| l == want), "{want} not in {f:?}");
        }
        // Hash, threads and pondering have CECP commands of their own.
        assert!(f
            .iter()
            .all(|l| !l.contains("\"Hash ") && !l.contains("Threads") && !l.contains("Ponder")));
        // Every advertised name is one the table knows.
        for l in &f {
            let body = l.trim_start_matches("feature option=\"");
            let name = body.split(" -").next().unwrap();
            assert!(find(name).is_some(), "{name}");
        }
    }
}
