//! Why a `setoption` was refused, in words the GUI can show.

use std::fmt;

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
