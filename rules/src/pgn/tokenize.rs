//! The first step of reading PGN: splitting the text into tags, comments and
//! words, dropping escape lines, `;` comments, variations and white space.

use super::{PgnError, PgnErrorKind};

/// One lexical element of PGN text (escape lines, `;` comments, variations and
/// white space are dropped by the tokenizer).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Token<'a> {
    /// `[Name "value"]`.
    Tag(String, String),
    /// `{…}`, white space folded.
    Comment(String),
    /// Anything else: a move, a move number, a NAG or a result.
    Word(&'a str),
}

/// Split PGN text into tokens, each with the line (1-based) it starts on.
pub(super) fn tokenize(text: &str) -> Result<Vec<(usize, Token<'_>)>, PgnError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let err = |line: usize, kind: PgnErrorKind| PgnError { line, kind };
    let mut out = Vec::new();
    let mut chars = text.char_indices().peekable();
    let mut line = 1usize;
    let mut at_line_start = true;
    while let Some(&(i, c)) = chars.peek() {
        match c {
            '\n' => {
                line += 1;
                at_line_start = true;
                chars.next();
                continue;
            }
            c if c.is_whitespace() => {
                chars.next();
                continue;
            }
            '%' if at_line_start => {
                // Escape line: ignored to the end of the line.
                while chars.next_if(|&(_, c)| c != '\n').is_some() {}
            }
            '[' => {
                let end = text[i..].find('\n').map(|e| i + e).unwrap_or(text.len());
                let raw = text[i..end].trim_end();
                let (name, value) = parse_tag(raw).ok_or_else(|| {
                    err(line, PgnErrorKind::BadTag(raw.chars().take(60).collect()))
                })?;
                out.push((line, Token::Tag(name, value)));
                while chars.next_if(|&(j, _)| j < end).is_some() {}
            }
            '{' => {
                let first = line;
                chars.next();
                let mut body = String::new();
                let mut closed = false;
                for (_, c) in chars.by_ref() {
                    if c == '}' {
                        closed = true;
                        break;
                    }
                    if c == '\n' {
                        line += 1;
                    }
                    body.push(c);
                }
                if !closed {
                    return Err(err(line, PgnErrorKind::UnterminatedComment));
                }
                let body = body.split_whitespace().collect::<Vec<_>>().join(" ");
                out.push((first, Token::Comment(body)));
            }
            ';' => while chars.next_if(|&(_, c)| c != '\n').is_some() {},
            '(' => {
                let mut depth = 0usize;
                for (_, c) in chars.by_ref() {
                    match c {
                        '(' => depth += 1,
                        ')' => {
                            depth -= 1;
                            if depth == 0 {
                                break;
                            }
                        }
                        '\n' => line += 1,
                        _ => {}
                    }
                }
                if depth != 0 {
                    return Err(err(line, PgnErrorKind::UnbalancedVariation));
                }
            }
            ')' => return Err(err(line, PgnErrorKind::UnbalancedVariation)),
            _ => {
                chars.next(); // the first character always belongs to the word
                let mut end = text.len();
                while let Some(&(j, c)) = chars.peek() {
                    if c.is_whitespace() || "{};()[".contains(c) {
                        end = j;
                        break;
                    }
                    chars.next();
                }
                out.push((line, Token::Word(&text[i..end])));
            }
        }
        at_line_start = false;
    }
    Ok(out)
}

/// `[Name "value"]` with `\"` and `\\` escapes.
fn parse_tag(raw: &str) -> Option<(String, String)> {
    let inner = raw.strip_prefix('[')?.strip_suffix(']')?.trim();
    let sp = inner.find(|c: char| c.is_whitespace())?;
    let name = &inner[..sp];
    if name.is_empty() || !name.chars().all(|c| c.is_alphanumeric() || c == '_') {
        return None;
    }
    let rest = inner[sp..].trim();
    let body = rest.strip_prefix('"')?.strip_suffix('"')?;
    let mut value = String::new();
    let mut esc = false;
    for c in body.chars() {
        if esc {
            value.push(c);
            esc = false;
        } else if c == '\\' {
            esc = true;
        } else {
            value.push(c);
        }
    }
    Some((name.to_string(), value))
}
