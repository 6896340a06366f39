//! Outside engines on the command line (`qili match`, `qili suite`): an engine's
//! command and its `KEY=VALUE` settings.

use bench::{EngineConfig, ProtocolChoice, RankBase};
use std::path::PathBuf;

/// An engine command line and its `KEY=VALUE` settings (`name=`, `proto=`,
/// `ranks=`, `dir=`, `option.NAME=`) and `NAME=VALUE` options, as `qili match
/// --e1`/`--option1` and `qili suite --e` take them.
pub fn engine_settings(
    cmd: &str,
    settings: &[String],
    options: &[String],
) -> Result<EngineConfig, String> {
    let mut e = EngineConfig::new(cmd)?;
    for s in settings {
        let (k, v) = s
            .split_once('=')
            .ok_or_else(|| format!("engine setting '{s}' is not KEY=VALUE"))?;
        match k {
            "name" => e.name = Some(v.to_string()),
            "proto" | "protocol" => {
                e.protocol = match v {
                    "auto" => ProtocolChoice::Auto,
                    "ucci" => ProtocolChoice::Ucci,
                    "uci" => ProtocolChoice::Uci,
                    _ => return Err(format!("proto must be auto, ucci or uci, not '{v}'")),
                }
            }
            "ranks" => {
                e.ranks = match v {
                    "0" => RankBase::Zero,
                    "1" => RankBase::One,
                    _ => return Err(format!("ranks must be 0 or 1, not '{v}'")),
                }
            }
            "dir" => e.dir = Some(PathBuf::from(v)),
            _ => match k.strip_prefix("option.") {
                Some(name) if !name.is_empty() => e.options.push((name.into(), v.into())),
                _ => return Err(format!("unknown engine setting '{k}'")),
            },
        }
    }
    for o in options {
        let (k, v) = o
            .split_once('=')
            .ok_or_else(|| format!("engine option '{o}' is not NAME=VALUE"))?;
        e.options.push((k.into(), v.into()));
    }
    Ok(e)
}
