//! Engine options: one table serves both dialects (UCI names like `Move Overhead`,
//! UCCI one-word names like `moveoverhead`); names match case-insensitively and
//! ignoring blanks, `_` and `-`, so either spelling works in either dialect.

use super::Dialect;
use rules::repetition::RuleSet;
use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Id {
    UseMillisec,
    Batch,
    Debug,
    Ponder,
    Hash,
    Threads,
    NewGame,
    ClearHash,
    Rules,
    NaturalLimit,
    NaturalChecks,
    DrawValue,
    MoveOverhead,
    MultiPv,
    Resign,
    ResignValue,
    DrawOffer,
    Promotion,
    EvalFile,
}

#[derive(Clone, Copy, Debug)]
enum Kind {
    Check(bool),
    Spin {
        min: i64,
        max: i64,
        default: i64,
    },
    Combo(&'static [&'static str], &'static str),
    Button,
    /// Free text; the default as advertised.
    Text(&'static str),
}

struct Def {
    id: Id,
    uci: &'static str,
    ucci: &'static str,
    /// Other accepted spellings (already normalised).
    aliases: &'static [&'static str],
    kind: Kind,
    /// Advertised under UCI (UCCI advertises all).
    in_uci: bool,
}

// The engine's own bounds, so that an accepted value is the value used.
const MAX_THREADS: i64 = engine::MAX_THREADS as i64;
const MAX_HASH_MB: i64 = engine::MAX_HASH_MB as i64;
const DEFAULT_HASH_MB: i64 = 64;

/// `EvalFile` value meaning the handcrafted evaluation.
pub const HCE: &str = engine::eval::HCE_NAME;
/// `EvalFile` value meaning the net compiled into the binary (the default).
pub const EMBEDDED: &str = engine::eval::EMBEDDED_NAME;

const DEFS: &[Def] = &[
    Def {
        id: Id::UseMillisec,
        uci: "UseMillisec",
        ucci: "usemillisec",
        aliases: &[],
        kind: Kind::Check(true),
        in_uci: false,
    },
    Def {
        id: Id::Batch,
        uci: "Batch",
        ucci: "batch",
        aliases: &[],
        kind: Kind::Check(false),
        in_uci: false,
    },
    Def {
        id: Id::Debug,
        uci: "Debug",
        ucci: "debug",
        aliases: &[],
        kind: Kind::Check(false),
        in_uci: false,
    },
    Def {
        id: Id::Ponder,
        uci: "Ponder",
        ucci: "ponder",
        aliases: &[],
        kind: Kind::Check(false),
        in_uci: true,
    },
    Def {
        id: Id::Hash,
        uci: "Hash",
        ucci: "hashsize",
        aliases: &["hash"],
        // UCCI: 0 means "choose for me" (the default size).
        kind: Kind::Spin {
            min: 0,
            max: MAX_HASH_MB,
            default: DEFAULT_HASH_MB,
        },
        in_uci: true,
    },
    Def {
        id: Id::Threads,
        uci: "Threads",
        ucci: "threads",
        aliases: &[],
        // UCCI: 0 means "choose for me" (every core).
        kind: Kind::Spin {
            min: 0,
            max: MAX_THREADS,
            default: 1,
        },
        in_uci: true,
    },
    Def {
        id: Id::NewGame,
        uci: "NewGame",
        ucci: "newgame",
        aliases: &[],
        kind: Kind::Button,
        in_uci: false,
    },
    Def {
        id: Id::ClearHash,
        uci: "Clear Hash",
        ucci: "clearhash",
        aliases: &[],
        kind: Kind::Button,
        in_uci: true,
    },
    Def {
        id: Id::Rules,
        uci: "Rules",
        ucci: "rules",
        aliases: &["ruleset", "repetitionrules"],
        kind: Kind::Combo(&["axf", "cn"], "axf"),
        in_uci: true,
    },
    Def {
        id: Id::NaturalLimit,
        uci: "Natural Move Limit",
        ucci: "naturallimit",
        aliases: &["naturalmovelimit", "drawmoves"],
        kind: Kind::Spin {
            min: 1,
            max: 1000,
            default: 60,
        },
        in_uci: true,
    },
    // How many checks of each side count toward the natural limit (0 = all;
    // the AXF book counts 10, the Chinese fast-play rules 8).
    Def {
        id: Id::NaturalChecks,
        uci: "Natural Limit Checks",
        ucci: "naturalchecks",
        aliases: &[],
        kind: Kind::Spin {
            min: 0,
            max: 1000,
            default: 0,
        },
        in_uci: true,
    },
    Def {
        id: Id::DrawValue,
        uci: "Draw Value",
        ucci: "drawvalue",
        aliases: &["contempt"],
        kind: Kind::Spin {
            min: -1000,
            max: 1000,
            default: 0,
        },
        in_uci: true,
    },
    Def {
        id: Id::MoveOverhead,
        uci: "Move Overhead",
        ucci: "moveoverhead",
        aliases: &[],
        kind: Kind::Spin {
            min: 0,
            max: 5000,
            default: 50,
        },
        in_uci: true,
    },
    Def {
        id: Id::MultiPv,
        uci: "MultiPV",
        ucci: "multipv",
        aliases: &[],
        kind: Kind::Spin {
            min: 1,
            max: 128,
            default: 1,
        },
        in_uci: true,
    },
    Def {
        id: Id::Resign,
        uci: "Resign",
        ucci: "resign",
        aliases: &[],
        kind: Kind::Check(false),
        in_uci: false,
    },
    Def {
        id: Id::ResignValue,
        uci: "Resign Value",
        ucci: "resignvalue",
        aliases: &[],
        kind: Kind::Spin {
            min: 100,
            max: 30000,
            default: 1000,
        },
        in_uci: false,
    },
    // UCCI only (UCI has no draw offers): may `bestmove` carry `draw` in a long level
    // game (see `go::flag`)?
    Def {
        id: Id::DrawOffer,
        uci: "Draw Offer",
        ucci: "drawoffer",
        aliases: &[],
        kind: Kind::Check(true),
        in_uci: false,
    },
    // A net file for the evaluation; `<embedded>` (or empty) is the compiled-in
    // net, `<hce>` the handcrafted evaluation.
    Def {
        id: Id::EvalFile,
        uci: "EvalFile",
        ucci: "evalfile",
        aliases: &[],
        kind: Kind::Text(EMBEDDED),
        in_uci: true,
    },
    Def {
        id: Id::Promotion,
        uci: "Promotion",
        ucci: "promotion",
        aliases: &[],
        kind: Kind::Check(false),
        in_uci: false,
    },
];

/// Standard UCCI/UCI options we accept and ignore (no book, no tablebases, no
/// personality knobs), so that GUIs that send them from their own settings work.
const IGNORED: &[&str] = &[
    "usebook",
    "useegtb",
    "bookfiles",
    "egtbpaths",
    "evalapi",
    "idle",
    "pruning",
    "knowledge",
    "randomness",
    "selectivity",
    "style",
    "usehash",
    "repetition",
    "ucianalysemode",
    "ucishowwdl",
    "ucilimitstrength",
    "ucielo",
    "ownbook",
    "skilllevel",
    "ucichess960",
    "ucivariant",
    "syzygypath",
    "slowmover",
    "nodestime",
];

/// Current option values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    pub usemillisec: bool,
    pub batch: bool,
    pub debug: bool,
    pub ponder: bool,
    pub hash_mb: usize,
    pub threads: usize,
    pub rules: RuleSet,
    pub natural_limit: u32,
    /// Checks of each side that count toward the natural limit; 0 = all.
    pub natural_checks: u32,
    /// Value of a draw for the engine, centipawns (contempt when negative).
    pub draw_value: i32,
    pub move_overhead_ms: u64,
    pub multipv: usize,
    pub resign: bool,
    pub resign_value: i32,
    /// Offer draws in long level games (UCCI).
    pub draw_offer: bool,
    /// Net file of the evaluation, `EMBEDDED` for the compiled-in net, or `HCE`
    /// for the handcrafted evaluation.
    pub eval_file: String,
}

impl Default for Settings {
    fn default() -> Self {
        let mut s = Settings {
            usemillisec: true,
            batch: false,
            debug: false,
            ponder: false,
            hash_mb: 0,
            threads: 0,
            rules: RuleSet::Axf,
            natural_limit: 0,
            natural_checks: 0,
            draw_value: 0,
            move_overhead_ms: 0,
            multipv: 0,
            resign: false,
            resign_value: 0,
            draw_offer: false,
            eval_file: EMBEDDED.to_string(),
        };
        for d in DEFS {
            match d.kind {
                Kind::Check(v) => s.set_check(d.id, v),
                Kind::Spin { default, .. } => s.set_spin(d.id, default),
                Kind::Combo(_, v) => {
                    let _ = s.set_combo(d.id, v);
                }
                Kind::Button | Kind::Text(_) => {}
            }
        }
        s
    }
}

/// What a successful `setoption` asks the session to do besides storing the value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    /// A value changed (the engine may need reconfiguring).
    Changed(Id),
    NewGame,
    ClearHash,
    /// A standard option we do not implement; accepted and ignored.
    Ignored,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionError {
    Unknown(String),
    NeedsValue(&'static str),
    NotBool(&'static str, String),
    NotNumber(&'static str, String),
    OutOfRange {
        name: &'static str,
        value: i64,
        min: i64,
        max: i64,
    },
    NotChoice {
        name: &'static str,
        value: String,
        choices: &'static [&'static str],
    },
    /// The promotion variant (advisors and elephants promoting) is not played.
    Unsupported(&'static str),
    /// A hash table larger than half the machine's memory.
    TooMuchMemory {
        requested_mb: u64,
        total_mb: u64,
    },
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionError::Unknown(n) => write!(f, "no such option '{n}'"),
            OptionError::NeedsValue(n) => write!(f, "option '{n}' needs a value"),
            OptionError::NotBool(n, v) => write!(f, "option '{n}': '{v}' is not true or false"),
            OptionError::NotNumber(n, v) => write!(f, "option '{n}': '{v}' is not a number"),
            OptionError::OutOfRange {
                name,
                value,
                min,
                max,
            } => {
                write!(f, "option '{name}': {value} is outside {min}..{max}")
            }
            OptionError::NotChoice {
                name,
                value,
                choices,
            } => {
                write!(
                    f,
                    "option '{name}': '{value}' is not one of {}",
                    choices.join(", ")
                )
            }
            OptionError::Unsupported(n) => write!(f, "option '{n}': only false is supported"),
            OptionError::TooMuchMemory {
                requested_mb,
                total_mb,
            } => write!(
                f,
                "hash of {requested_mb} MB is more than half of this machine's {total_mb} MB"
            ),
        }
    }
}

fn normalise(name: &str) -> String {
    name.chars()
        .filter(|c| !matches!(c, ' ' | '_' | '-'))
        .flat_map(|c| c.to_lowercase())
        .collect()
}

fn find(name: &str) -> Option<&'static Def> {
    let n = normalise(name);
    DEFS.iter()
        .find(|d| normalise(d.uci) == n || d.ucci == n || d.aliases.iter().any(|a| *a == n))
}

/// Physical memory in MB where the system tells (Linux), else `None`.
fn physical_memory_mb() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024)
}

fn parse_bool(text: &str) -> Option<bool> {
    match text.to_ascii_lowercase().as_str() {
        "true" | "on" | "yes" | "1" => Some(true),
        "false" | "off" | "no" | "0" => Some(false),
        _ => None,
    }
}

impl Settings {
    fn set_check(&mut self, id: Id, v: bool) {
        match id {
            Id::UseMillisec => self.usemillisec = v,
            Id::Batch => self.batch = v,
            Id::Debug => self.debug = v,
            Id::Ponder => self.ponder = v,
            Id::Resign => self.resign = v,
            Id::DrawOffer => self.draw_offer = v,
            _ => {}
        }
    }

    fn set_spin(&mut self, id: Id, v: i64) {
        // Callers have range-checked `v` against the table, so these fit.
        match id {
            Id::Hash if v == 0 => self.hash_mb = DEFAULT_HASH_MB as usize,
            Id::Hash => self.hash_mb = v as usize,
            Id::Threads if v == 0 => {
                self.threads = std::thread::available_parallelism().map_or(1, |n| n.get())
            }
            Id::Threads => self.threads = v as usize,
            Id::NaturalLimit => self.natural_limit = v as u32,
            Id::NaturalChecks => self.natural_checks = v as u32,
            Id::DrawValue => self.draw_value = v as i32,
            Id::MoveOverhead => self.move_overhead_ms = v as u64,
            Id::MultiPv => self.multipv = v as usize,
            Id::ResignValue => self.resign_value = v as i32,
            _ => {}
        }
    }

    fn set_combo(&mut self, id: Id, v: &str) -> bool {
        if id == Id::Rules {
            self.rules = match v.to_ascii_lowercase().as_str() {
                "axf" | "asian" | "asia" => RuleSet::Axf,
                "cn" | "chinese" | "china" => RuleSet::Chinese,
                _ => return false,
            };
        }
        true
    }

    /// Apply `setoption`. On error nothing changes.
    pub fn set(&mut self, name: &str, value: Option<&str>) -> Result<Effect, OptionError> {
        let Some(def) = find(name) else {
            let n = normalise(name);
            if IGNORED.contains(&n.as_str()) || n.starts_with("uci") {
                return Ok(Effect::Ignored);
            }
            return Err(OptionError::Unknown(super::command::clip(name)));
        };
        let label = def.uci;
        let value = value.map(str::trim).filter(|v| !v.is_empty());
        match def.kind {
            Kind::Text(default) => {
                // Names may hold blanks; the parser joined the words with one.
                self.eval_file = value.unwrap_or(default).to_string();
            }
            Kind::Button => {
                return Ok(match def.id {
                    Id::NewGame => Effect::NewGame,
                    _ => Effect::ClearHash,
                })
            }
            Kind::Check(_) => {
                let v = value.ok_or(OptionError::NeedsValue(label))?;
                let b = parse_bool(v)
                    .ok_or_else(|| OptionError::NotBool(label, super::command::clip(v)))?;
                if def.id == Id::Promotion && b {
                    return Err(OptionError::Unsupported(label));
                }
                self.set_check(def.id, b);
            }
            Kind::Spin { min, max, .. } => {
                let v = value.ok_or(OptionError::NeedsValue(label))?;
                let n: i64 = v
                    .parse()
                    .map_err(|_| OptionError::NotNumber(label, super::command::clip(v)))?;
                if n < min || n > max {
                    return Err(OptionError::OutOfRange {
                        name: label,
                        value: n,
                        min,
                        max,
                    });
                }
                if def.id == Id::Hash {
                    if let Some(total) = physical_memory_mb() {
                        // A table the machine cannot hold would abort the process.
                        if n as u64 > total / 2 {
                            return Err(OptionError::TooMuchMemory {
                                requested_mb: n as u64,
                                total_mb: total,
                            });
                        }
                    }
                }
                self.set_spin(def.id, n);
            }
            Kind::Combo(choices, _) => {
                let v = value.ok_or(OptionError::NeedsValue(label))?;
                if !self.set_combo(def.id, v) {
                    return Err(OptionError::NotChoice {
                        name: label,
                        value: super::command::clip(v),
                        choices,
                    });
                }
            }
        }
        Ok(Effect::Changed(def.id))
    }

    /// The `option …` lines of the handshake.
    pub fn option_lines(dialect: Dialect) -> Vec<String> {
        let mut out = Vec::new();
        for d in DEFS {
            let name = match dialect {
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
    fn defaults_come_from_the_table() {
        let s = Settings::default();
        assert!(s.usemillisec && !s.ponder && !s.resign);
        assert_eq!((s.hash_mb, s.threads, s.multipv), (64, 1, 1));
        assert_eq!((s.natural_limit, s.move_overhead_ms), (60, 50));
    }

    #[test]
    fn names_match_in_either_dialect_and_case() {
        let mut s = Settings::default();
        assert_eq!(
            s.set("Move Overhead", Some("120")),
            Ok(Effect::Changed(Id::MoveOverhead))
        );
        assert_eq!(
            s.set("moveoverhead", Some("130")),
            Ok(Effect::Changed(Id::MoveOverhead))
        );
        assert_eq!(s.set("HASHSIZE", Some("32")), Ok(Effect::Changed(Id::Hash)));
        assert_eq!(s.set("hash", Some("16")), Ok(Effect::Changed(Id::Hash)));
        assert_eq!(s.set("rules", Some("cn")), Ok(Effect::Changed(Id::Rules)));
        assert_eq!(s.set("ponder", Some("on")), Ok(Effect::Changed(Id::Ponder)));
        assert_eq!(
            (s.move_overhead_ms, s.hash_mb, s.rules),
            (130, 16, RuleSet::Chinese)
        );
        assert!(s.ponder);
        // UCCI's 0 = automatic.
        assert_eq!(s.set("hashsize", Some("0")), Ok(Effect::Changed(Id::Hash)));
        assert_eq!(s.hash_mb, 64);
        assert_eq!(
            s.set("threads", Some("0")),
            Ok(Effect::Changed(Id::Threads))
        );
        assert!(s.threads >= 1);
        assert_eq!(
            s.set("EvalFile", Some("nets/a b.qnn")),
            Ok(Effect::Changed(Id::EvalFile))
        );
        assert_eq!(s.eval_file, "nets/a b.qnn");
        assert_eq!(s.set("evalfile", None), Ok(Effect::Changed(Id::EvalFile)));
        assert_eq!(s.eval_file, EMBEDDED);
        assert_eq!(s.set("newgame", None), Ok(Effect::NewGame));
        assert_eq!(s.set("Clear Hash", None), Ok(Effect::ClearHash));
        assert_eq!(s.set("usebook", Some("true")), Ok(Effect::Ignored));
        assert_eq!(s.set("UCI_AnalyseMode", Some("true")), Ok(Effect::Ignored));
    }

    #[test]
    fn bad_values_change_nothing() {
        let mut s = Settings::default();
        let before = s.clone();
        if let Some(total) = physical_memory_mb() {
            let too_much = (total / 2 + 1).min(MAX_HASH_MB as u64).to_string();
            if total / 2 < MAX_HASH_MB as u64 {
                assert!(matches!(
                    s.set("Hash", Some(&too_much)),
                    Err(OptionError::TooMuchMemory { .. })
                ));
            }
        }
        assert!(matches!(
            s.set("threads", Some("-1")),
            Err(OptionError::OutOfRange { .. })
        ));
        assert!(matches!(
            s.set("Threads", Some("257")),
            Err(OptionError::OutOfRange { .. })
        ));
        assert!(matches!(
            s.set("Hash", Some("lots")),
            Err(OptionError::NotNumber(..))
        ));
        assert!(matches!(
            s.set("ponder", Some("maybe")),
            Err(OptionError::NotBool(..))
        ));
        assert!(matches!(
            s.set("ponder", None),
            Err(OptionError::NeedsValue(_))
        ));
        assert!(matches!(
            s.set("rules", Some("fide")),
            Err(OptionError::NotChoice { .. })
        ));
        assert!(matches!(
            s.set("promotion", Some("true")),
            Err(OptionError::Unsupported(_))
        ));
        assert!(matches!(
            s.set("frobnicate", Some("1")),
            Err(OptionError::Unknown(_))
        ));
        assert_eq!(s, before);
        assert_eq!(
            s.set("promotion", Some("false")),
            Ok(Effect::Changed(Id::Promotion))
        );
    }

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
            .any(|l| l.starts_with("option name Move Overhead type spin default 50")));
        assert!(uci
            .iter()
            .any(|l| l == "option name Rules type combo default axf var axf var cn"));
        assert!(uci.iter().all(|l| !l.contains("usemillisec")));
    }
}
