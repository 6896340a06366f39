//! How to start and set up one engine: its command line, protocol choice,
//! options and timeouts.

use crate::notation::RankBase;
use std::time::Duration;

/// The protocol an engine speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    Ucci,
    Uci,
}

/// What the user asked for: a protocol, or detection by handshake.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum ProtocolChoice {
    #[default]
    Auto,
    Ucci,
    Uci,
}

/// How to start and set up one engine.
#[derive(Clone, Debug)]
pub struct EngineConfig {
    /// Name in the PGN and the summary (defaults to the `id name` or the command).
    pub name: Option<String>,
    /// Program and arguments.
    pub argv: Vec<String>,
    pub dir: Option<std::path::PathBuf>,
    pub protocol: ProtocolChoice,
    /// `setoption` pairs, sent after the handshake in this order.
    pub options: Vec<(String, String)>,
    /// Rank numbering the engine uses in move text.
    pub ranks: RankBase,
    pub handshake_timeout: Duration,
    pub quit_timeout: Duration,
    /// Echo the protocol traffic on stderr.
    pub debug: bool,
}

impl EngineConfig {
    pub fn new(command_line: &str) -> Result<EngineConfig, String> {
        let argv = split_command(command_line)?;
        if argv.is_empty() {
            return Err("empty engine command".into());
        }
        Ok(EngineConfig {
            name: None,
            argv,
            dir: None,
            protocol: ProtocolChoice::Auto,
            options: Vec::new(),
            ranks: RankBase::Zero,
            handshake_timeout: Duration::from_secs(10),
            quit_timeout: Duration::from_secs(2),
            debug: false,
        })
    }
}

/// Split a command line into words: whitespace separates, '…' and "…" quote, \ escapes.
pub fn split_command(s: &str) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut has = false;
    let mut quote: Option<char> = None;
    let mut it = s.chars();
    while let Some(c) = it.next() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some('"'), '\\') | (None, '\\') => {
                if let Some(n) = it.next() {
                    cur.push(n);
                }
            }
            (Some(_), c) => cur.push(c),
            (None, '"') | (None, '\'') => {
                quote = Some(c);
                has = true;
            }
            (None, c) if c.is_whitespace() => {
                if has || !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                    has = false;
                }
            }
            (None, c) => cur.push(c),
        }
    }
    if quote.is_some() {
        return Err(format!("unclosed quote in engine command: {s}"));
    }
    if has || !cur.is_empty() {
        out.push(cur);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn command_splitting() {
        assert_eq!(split_command("a b  c").unwrap(), vec!["a", "b", "c"]);
        assert_eq!(
            split_command("'/x y/e' --opt \"a b\" \\\"q").unwrap(),
            vec!["/x y/e", "--opt", "a b", "\"q"]
        );
        assert_eq!(split_command("e ''").unwrap(), vec!["e", ""]);
        assert!(split_command("e 'x").is_err());
    }
}
