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
    quote(s, 80)
}

/// Input as it may be quoted in a reply: control characters as `?` and other
/// non-ASCII characters escaped as `\u{..}`, so that a reply is one ASCII line
/// whatever the input was (some clients read replies as Shift-JIS or ASCII),
/// cut with `...` once the quote is `keep` characters long.
pub fn quote(text: &str, keep: usize) -> String {
    let mut out = String::new();
    for c in text.chars() {
        if out.len() >= keep {
            out.push_str("...");
            break;
        }
        match c {
            c if c.is_control() => out.push('?'),
            c if c.is_ascii() => out.push(c),
            c => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::quote;

    #[test]
    fn quotes_are_short_ascii_lines() {
        assert_eq!(quote("9i9h", 80), "9i9h");
        assert_eq!(quote("abcdef", 3), "abc...");
        assert_eq!(quote("a\nb\u{1b}", 80), "a?b?");
        assert_eq!(quote("９ｉ歩", 80), "\\u{ff19}\\u{ff49}\\u{6b69}");
        assert!(quote(&"歩".repeat(1000), 80).is_ascii());
    }
}
