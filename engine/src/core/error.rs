//! One error type per boundary; each hands back the rejected input and says why.

use std::fmt;

/// A position string (SFEN or a game's own notation) that could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    pub input: String,
    pub reason: String,
}

impl ParseError {
    pub fn new(input: &str, reason: impl Into<String>) -> Self {
        ParseError {
            input: truncate(input),
            reason: reason.into(),
        }
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid position '{}': {}", self.input, self.reason)
    }
}

impl std::error::Error for ParseError {}

/// A move that is garbled or not legal in the position it was given for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveError {
    pub text: String,
    pub reason: String,
}

impl MoveError {
    pub fn new(text: &str, reason: impl Into<String>) -> Self {
        MoveError {
            text: truncate(text),
            reason: reason.into(),
        }
    }
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "move '{}': {}", self.text, self.reason)
    }
}

impl std::error::Error for MoveError {}

/// An option name or value that is unknown or out of range.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionError {
    pub name: String,
    pub value: String,
    pub reason: String,
}

impl OptionError {
    pub fn new(name: &str, value: &str, reason: impl Into<String>) -> Self {
        OptionError {
            name: truncate(name),
            value: truncate(value),
            reason: reason.into(),
        }
    }
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "option {} = '{}': {}",
            self.name, self.value, self.reason
        )
    }
}

impl std::error::Error for OptionError {}

/// Echoed input is cut short so that one bad megabyte does not come back as one.
pub(crate) fn truncate(s: &str) -> String {
    const KEEP: usize = 80;
    if s.len() <= KEEP {
        return s.to_string();
    }
    let mut end = KEEP;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &s[..end])
}
