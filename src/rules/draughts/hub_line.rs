//! The Hub protocol's line syntax, which both ends speak: the engine front
//! end (`crate::protocol::hub`) and the match runner's Hub client
//! (`crate::runner::external::hub`) read and write lines with it, so it
//! lives here, beside the other draughts notations, and neither imports
//! the other.
//!
//! Scan's `protocol.txt` (version 2, 2017-07-11): every line is `<command>
//! <arg>=<val> <arg>=<val> ...`; a value is quoted with `"` when it holds a
//! space or `=` or is empty; a flag is an argument without `=val`.

use std::fmt;

/// The move `done` names when the program has none: pydraughts's null
/// move (`draughts.Move(..., hub_move="0-0").is_null`). The protocol has
/// neither a null move nor a resignation; why this one is chosen is said in
/// `crate::protocol::hub` ("When the program has no move").
pub const NO_MOVE: &str = "0-0";

/// One line split as the protocol's general syntax says: the command and
/// its arguments (`None` for a flag).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HubLine {
    pub command: String,
    pub args: Vec<(String, Option<String>)>,
}

impl HubLine {
    /// The value of argument `name` (a flag's is empty).
    pub fn arg(&self, name: &str) -> Option<&str> {
        self.args
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_deref().unwrap_or(""))
    }

    /// Whether argument `name` is given, with or without a value.
    pub fn has(&self, name: &str) -> bool {
        self.args.iter().any(|(k, _)| k == name)
    }
}

/// Why a line breaks the general syntax.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SyntaxError {
    /// A quoted value with no closing quote.
    UnclosedQuote(String),
    /// Text right after a closing quote (`a="b"c`).
    AfterQuote(String),
    /// `=value` with no name before it.
    NoName,
}

impl fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SyntaxError::UnclosedQuote(arg) => write!(f, "the value of {arg} has no closing quote"),
            SyntaxError::AfterQuote(arg) => write!(f, "text after the quoted value of {arg}"),
            SyntaxError::NoName => write!(f, "an argument has a value but no name"),
        }
    }
}

impl std::error::Error for SyntaxError {}

/// Splits a line into its command and arguments; `None` for a blank line.
///
/// # Errors
/// A quoted value left open, text glued to a closing quote, or a value
/// with no name.
pub fn split(line: &str) -> Result<Option<HubLine>, SyntaxError> {
    let line = line.trim();
    let Some(command) = line.split_whitespace().next() else {
        return Ok(None);
    };
    let mut rest = line[command.len()..].trim_start();
    let mut args = Vec::new();
    while !rest.is_empty() {
        let end = rest
            .find(|c: char| c.is_whitespace() || c == '=')
            .unwrap_or(rest.len());
        let (key, after) = rest.split_at(end);
        if key.is_empty() {
            return Err(SyntaxError::NoName);
        }
        let (value, tail) = match after.strip_prefix('=') {
            Some(v) => {
                let (value, tail) = value_of(key, v)?;
                (Some(value), tail)
            }
            None => (None, after),
        };
        args.push((key.to_string(), value));
        rest = tail.trim_start();
    }
    Ok(Some(HubLine {
        command: command.to_string(),
        args,
    }))
}

/// The value at the start of `text` (quoted or up to the next space) and
/// what follows it.
fn value_of<'a>(key: &str, text: &'a str) -> Result<(String, &'a str), SyntaxError> {
    let Some(quoted) = text.strip_prefix('"') else {
        let end = text.find(char::is_whitespace).unwrap_or(text.len());
        return Ok((text[..end].to_string(), &text[end..]));
    };
    let close = quoted
        .find('"')
        .ok_or_else(|| SyntaxError::UnclosedQuote(key.to_string()))?;
    let tail = &quoted[close + 1..];
    if tail.starts_with(|c: char| !c.is_whitespace()) {
        return Err(SyntaxError::AfterQuote(key.to_string()));
    }
    Ok((quoted[..close].to_string(), tail))
}

/// A value as we send it: quoted if it holds a space or is empty, with no
/// `"` or `=` inside (pydraughts splits at `=` whatever the quotes) and no
/// line break.
pub fn value(text: &str) -> String {
    let clean: String = text
        .chars()
        .map(|c| match c {
            '"' => '\'',
            '=' => ':',
            c if c.is_control() => ' ',
            c => c,
        })
        .collect();
    if clean.is_empty() || clean.contains(char::is_whitespace) {
        format!("\"{clean}\"")
    } else {
        clean
    }
}
