//! Engine options: one table serves both dialects (UCI names like `Move Overhead`,
//! UCCI one-word names like `moveoverhead`); names match case-insensitively and
//! ignoring blanks, `_` and `-`, so either spelling works in either dialect.
//!
//! This file holds the current values (`Settings`) and `setoption`: checking a
//! value against the table and storing it, or saying why not. The table itself is
//! in `table.rs`; name matching and the advertised `option` lines in `spelling.rs`.

mod spelling;
mod table;

pub use table::{Id, EMBEDDED, EMBEDDED_BOOK, HCE, XIANGQI};

use super::coords::Coords;
use rules::repetition::RuleSet;
use spelling::{find, normalise};
use std::fmt;
use table::{Kind, DEFAULT_HASH_MB, DEFS, NOT_SUPPORTED, NO_EFFECT, RANDOMNESS};

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
    /// Refuse positions no game reaches (`Strict Positions`).
    pub strict_positions: bool,
    /// `Skill Level`, 0..=20 (20: full strength).
    pub skill_level: u32,
    /// `UCI_LimitStrength`: play at `UCI_Elo` instead (it wins over Skill Level).
    pub limit_strength: bool,
    pub elo: u32,
    /// `UCI_ShowWDL`: add `wdl W D L` to the score of every `info` line.
    pub show_wdl: bool,
    /// The search constants (`setoption name SP <name> value <v>`, for tuning).
    pub params: engine::params::SearchParams,
    // The opening book and variety (see `protocol::book`).
    /// Answer from the book when it has a move (`OwnBook`, UCCI `usebook`).
    pub own_book: bool,
    /// The book file, or `EMBEDDED_BOOK` for the compiled-in book.
    pub book_file: String,
    /// Always the heaviest book move instead of a weighted random one.
    pub best_book_move: bool,
    /// Root score noise in centipawns outside the book (0: none).
    pub randomness: i32,
    /// The noise applies up to this full-move number.
    pub random_moves: u32,
    /// `UCI_Variant` as the GUI set it (lower case); `None` until it does.
    pub variant: Option<String>,
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
            strict_positions: false,
            skill_level: 0,
            limit_strength: false,
            elo: 0,
            show_wdl: false,
            params: engine::params::DEFAULT,
            own_book: false,
            book_file: EMBEDDED_BOOK.to_string(),
            best_book_move: false,
            randomness: 0,
            random_moves: 0,
            variant: None,
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
    /// A standard option this engine does not have: the GUI is told so.
    NotSupported,
    /// A standard option that changes nothing here (`UCI_AnalyseMode`).
    NoEffect,
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

/// Physical memory in MB where the system tells (Linux), else `None`.
fn physical_memory_mb() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024)
}

/// UCCI's `setoption <name> <value>` has no word that ends the name, and GUIs send
/// the UCI names there too (`setoption Skill Level 20`, `setoption Clear Hash`):
/// the longest option name the line starts with, and the words after it.
fn longer_name(first: &str, value: Option<&str>) -> Option<(String, Option<String>)> {
    let words: Vec<&str> = value?.split_whitespace().collect();
    (1..=words.len()).rev().find_map(|k| {
        let name = std::iter::once(first).chain(words[..k].iter().copied());
        let name = name.collect::<Vec<_>>().join(" ");
        find(&name)?;
        let rest = &words[k..];
        let rest = match rest {
            [kw, tail @ ..] if kw.eq_ignore_ascii_case("value") => tail,
            _ => rest,
        };
        Some((name, (!rest.is_empty()).then(|| rest.join(" "))))
    })
}

fn parse_bool(text: &str) -> Option<bool> {
    match text.to_ascii_lowercase().as_str() {
        "true" | "on" | "yes" | "1" => Some(true),
        "false" | "off" | "no" | "0" => Some(false),
        _ => None,
    }
}

impl Settings {
    /// How moves are written: Fairy-Stockfish's ranks 1–10 once `UCI_Variant` is
    /// `xiangqi`, ICCS otherwise.
    pub fn coords(&self) -> Coords {
        match self.variant.as_deref() {
            Some(XIANGQI) => Coords::OneBased,
            _ => Coords::Iccs,
        }
    }

    /// A `UCI_Variant` other than xiangqi, which no position is played under.
    pub fn foreign_variant(&self) -> Option<&str> {
        self.variant.as_deref().filter(|v| *v != XIANGQI)
    }

    /// `SP <name>`: a search constant (a tuning interface, not advertised).
    /// `None` when the name is no such option.
    fn set_search_param(
        &mut self,
        name: &str,
        value: Option<&str>,
    ) -> Result<Option<Effect>, OptionError> {
        let words: Vec<&str> = name.split_whitespace().collect();
        let (param, value) = match words.as_slice() {
            [sp, param] if sp.eq_ignore_ascii_case("sp") => (*param, value),
            // UCCI's form has no word between name and value: `setoption SP
            // lmr_cut 2` arrives as the name `SP` and the value `lmr_cut 2`.
            [sp] if sp.eq_ignore_ascii_case("sp") => {
                match value.and_then(|v| v.trim().split_once(char::is_whitespace)) {
                    Some((param, v)) => (param, Some(v)),
                    None => return Err(OptionError::NeedsValue("SP")),
                }
            }
            _ => return Ok(None),
        };
        let Some(t) = engine::params::find(param) else {
            return Err(OptionError::Unknown(super::command::clip(&format!(
                "SP {param}"
            ))));
        };
        let v = value.ok_or(OptionError::NeedsValue(t.name))?;
        let n: i64 = v
            .trim()
            .parse()
            .map_err(|_| OptionError::NotNumber(t.name, super::command::clip(v)))?;
        if n < i64::from(t.min) || n > i64::from(t.max) {
            return Err(OptionError::OutOfRange {
                name: t.name,
                value: n,
                min: i64::from(t.min),
                max: i64::from(t.max),
            });
        }
        (t.set)(&mut self.params, n as i32);
        Ok(Some(Effect::Changed(Id::SearchParam)))
    }

    fn set_check(&mut self, id: Id, v: bool) {
        match id {
            Id::UseMillisec => self.usemillisec = v,
            Id::Batch => self.batch = v,
            Id::Debug => self.debug = v,
            Id::Ponder => self.ponder = v,
            Id::Resign => self.resign = v,
            Id::DrawOffer => self.draw_offer = v,
            Id::StrictPositions => self.strict_positions = v,
            Id::LimitStrength => self.limit_strength = v,
            Id::ShowWdl => self.show_wdl = v,
            Id::OwnBook => self.own_book = v,
            Id::BestBookMove => self.best_book_move = v,
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
            Id::SkillLevel => self.skill_level = v as u32,
            Id::Elo => self.elo = v as u32,
            Id::RandomMoves => self.random_moves = v as u32,
            _ => {}
        }
    }

    fn set_combo(&mut self, id: Id, v: &str) -> bool {
        if id == Id::Randomness {
            let v = v.to_ascii_lowercase();
            match RANDOMNESS.iter().find(|(name, _)| *name == v) {
                Some(&(_, cp)) => self.randomness = cp,
                None => return false,
            }
        }
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
        if let Some(effect) = self.set_search_param(name, value)? {
            return Ok(effect);
        }
        if find(name).is_none() {
            if let Some((longer, rest)) = longer_name(name, value) {
                return self.set(&longer, rest.as_deref());
            }
        }
        let Some(def) = find(name) else {
            let n = normalise(name);
            if NO_EFFECT.contains(&n.as_str()) {
                return Ok(Effect::NoEffect);
            }
            if NOT_SUPPORTED.contains(&n.as_str()) || n.starts_with("uci") {
                return Ok(Effect::NotSupported);
            }
            return Err(OptionError::Unknown(super::command::clip(name)));
        };
        let label = def.uci;
        let value = value.map(str::trim).filter(|v| !v.is_empty());
        match def.kind {
            Kind::Text(default) => {
                // Names may hold blanks; the parser joined the words with one.
                let v = value.unwrap_or(default).to_string();
                match def.id {
                    Id::BookFile => self.book_file = v,
                    _ => self.eval_file = v,
                }
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
            Kind::Combo(_, _) if def.id == Id::Variant => {
                // Any variant is stored: the session refuses positions until it
                // is xiangqi, rather than keep playing under the old one.
                let v = value.ok_or(OptionError::NeedsValue(label))?;
                self.variant = Some(super::command::clip(v).to_ascii_lowercase());
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
}

#[cfg(test)]
mod tests {
    use super::table::MAX_HASH_MB;
    use super::*;

    #[test]
    fn ucci_form_takes_names_of_several_words() {
        let mut s = Settings::default();
        assert_eq!(
            s.set("Skill", Some("Level 7")),
            Ok(Effect::Changed(Id::SkillLevel))
        );
        assert_eq!(s.skill_level, 7);
        assert_eq!(
            s.set("Natural", Some("Move Limit value 50")),
            Ok(Effect::Changed(Id::NaturalLimit))
        );
        assert_eq!(s.natural_limit, 50);
        assert_eq!(s.set("Clear", Some("Hash")), Ok(Effect::ClearHash));
        assert!(matches!(
            s.set("Skill", Some("Levels 7")),
            Err(OptionError::Unknown(_))
        ));
    }

    #[test]
    fn defaults_come_from_the_table() {
        let s = Settings::default();
        assert!(s.usemillisec && !s.ponder && !s.resign);
        assert_eq!((s.hash_mb, s.threads, s.multipv), (64, 1, 1));
        assert_eq!((s.natural_limit, s.move_overhead_ms), (60, 2));
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
        // The book options are real (see `book_and_randomness_options…`).
        assert_eq!(
            s.set("usebook", Some("true")),
            Ok(Effect::Changed(Id::OwnBook))
        );
        assert_eq!(
            s.set("OwnBook", Some("false")),
            Ok(Effect::Changed(Id::OwnBook))
        );
        assert_eq!(s.set("useegtb", Some("true")), Ok(Effect::NotSupported));
        assert_eq!(
            s.set("UCI_Chess960", Some("true")),
            Ok(Effect::NotSupported)
        );
        assert_eq!(s.set("UCI_AnalyseMode", Some("true")), Ok(Effect::NoEffect));
        // The strength and WDL options are real.
        assert_eq!(
            s.set("SP razor_margin", Some("300")),
            Ok(Effect::Changed(Id::SearchParam))
        );
        assert_eq!(s.params.razor_margin, 300);
        assert!(matches!(
            s.set("SP razor_margin", Some("100000")),
            Err(OptionError::OutOfRange { .. })
        ));
        assert!(matches!(
            s.set("SP nothing", Some("1")),
            Err(OptionError::Unknown(_))
        ));
        // The UCCI form, as `qili match` sends it to a UCCI engine.
        assert_eq!(
            s.set("SP", Some("razor_margin 250")),
            Ok(Effect::Changed(Id::SearchParam))
        );
        assert_eq!(s.params.razor_margin, 250);
        assert!(s.set("SP", Some("razor_margin")).is_err());
        assert_eq!(
            s.set("Skill Level", Some("5")),
            Ok(Effect::Changed(Id::SkillLevel))
        );
        assert_eq!(
            s.set("UCI_LimitStrength", Some("true")),
            Ok(Effect::Changed(Id::LimitStrength))
        );
        assert_eq!(
            s.set("UCI_Elo", Some(&engine::strength::MIN_ELO.to_string())),
            Ok(Effect::Changed(Id::Elo))
        );
        assert_eq!(
            s.set("UCI_ShowWDL", Some("true")),
            Ok(Effect::Changed(Id::ShowWdl))
        );
        assert_eq!(
            (s.skill_level, s.limit_strength, s.elo, s.show_wdl),
            (5, true, engine::strength::MIN_ELO, true)
        );
        assert!(matches!(
            s.set("Skill Level", Some("21")),
            Err(OptionError::OutOfRange { .. })
        ));
    }

    #[test]
    fn book_and_randomness_options_in_both_spellings() {
        let mut s = Settings::default();
        assert!(!s.own_book && !s.best_book_move);
        assert_eq!(
            (s.book_file.as_str(), s.randomness, s.random_moves),
            (EMBEDDED_BOOK, 0, 10)
        );
        assert_eq!(
            s.set("usebook", Some("true")),
            Ok(Effect::Changed(Id::OwnBook))
        );
        assert!(s.own_book);
        assert_eq!(
            s.set("OwnBook", Some("false")),
            Ok(Effect::Changed(Id::OwnBook))
        );
        assert!(!s.own_book);
        assert_eq!(
            s.set("bookfiles", Some("books/main book.qbook")),
            Ok(Effect::Changed(Id::BookFile))
        );
        assert_eq!(s.book_file, "books/main book.qbook");
        assert_eq!(s.set("BookFile", None), Ok(Effect::Changed(Id::BookFile)));
        assert_eq!(s.book_file, EMBEDDED_BOOK);
        assert_eq!(s.eval_file, EMBEDDED, "BookFile leaves EvalFile alone");
        assert_eq!(
            s.set("Best Book Move", Some("true")),
            Ok(Effect::Changed(Id::BestBookMove))
        );
        assert!(s.best_book_move);
        assert_eq!(
            s.set("randomness", Some("small")),
            Ok(Effect::Changed(Id::Randomness))
        );
        assert_eq!(s.randomness, 10);
        assert_eq!(
            s.set("Randomness", Some("HUGE")),
            Ok(Effect::Changed(Id::Randomness))
        );
        assert_eq!(s.randomness, 80);
        assert_eq!(
            s.set("Random Moves", Some("3")),
            Ok(Effect::Changed(Id::RandomMoves))
        );
        assert_eq!(s.random_moves, 3);
        let before = s.clone();
        assert!(matches!(
            s.set("randomness", Some("wild")),
            Err(OptionError::NotChoice { .. })
        ));
        assert!(matches!(
            s.set("randommoves", Some("0")),
            Err(OptionError::OutOfRange { .. })
        ));
        assert_eq!(s, before);
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
}
