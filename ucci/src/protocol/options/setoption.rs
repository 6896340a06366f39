//! `setoption`: finding the option a line names (in either dialect, or as UCCI's
//! several-word form, or a search constant), checking the value against the
//! table and storing it, or saying why not.

use super::spelling::{find, normalise};
use super::table::{Id, Kind, NOT_SUPPORTED, NO_EFFECT};
use super::{OptionError, Settings};
use crate::protocol::command;

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

/// Physical memory in MB where the system tells (Linux), else `None`.
pub(super) fn physical_memory_mb() -> Option<u64> {
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
            return Err(OptionError::Unknown(command::clip(&format!("SP {param}"))));
        };
        let v = value.ok_or(OptionError::NeedsValue(t.name))?;
        let n: i64 = v
            .trim()
            .parse()
            .map_err(|_| OptionError::NotNumber(t.name, command::clip(v)))?;
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
            return Err(OptionError::Unknown(command::clip(name)));
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
                let b =
                    parse_bool(v).ok_or_else(|| OptionError::NotBool(label, command::clip(v)))?;
                if def.id == Id::Promotion && b {
                    return Err(OptionError::Unsupported(label));
                }
                self.set_check(def.id, b);
            }
            Kind::Spin { min, max, .. } => {
                let v = value.ok_or(OptionError::NeedsValue(label))?;
                let n: i64 = v
                    .parse()
                    .map_err(|_| OptionError::NotNumber(label, command::clip(v)))?;
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
                self.variant = Some(command::clip(v).to_ascii_lowercase());
            }
            Kind::Combo(choices, _) => {
                let v = value.ok_or(OptionError::NeedsValue(label))?;
                if !self.set_combo(def.id, v) {
                    return Err(OptionError::NotChoice {
                        name: label,
                        value: command::clip(v),
                        choices,
                    });
                }
            }
        }
        Ok(Effect::Changed(def.id))
    }
}
