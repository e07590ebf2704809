//! Reads input lines with a bounded buffer: an over-long line is discarded (not
//! kept in memory) and reported once; bytes are handed on as they came, so invalid
//! UTF-8 can be reported instead of ending the loop.

use std::io::{BufRead, ErrorKind};

/// Longest line accepted: 1 MiB and a bit, enough for a `position … moves` list of
/// a very long game.
pub const MAX_LINE_BYTES: usize = 1024 * 1024 + 64 * 1024;

#[derive(Debug, PartialEq, Eq)]
pub enum Line {
    /// One line without its `\n` or `\r\n`.
    Bytes(Vec<u8>),
    /// A line longer than the limit, discarded; `bytes` is its length.
    TooLong { bytes: usize },
    /// End of input (or an input error, which ends it too).
    Eof,
}

pub struct LineReader<R> {
    input: R,
    max: usize,
}

impl<R: BufRead> LineReader<R> {
    pub fn new(input: R) -> Self {
        Self::with_limit(input, MAX_LINE_BYTES)
    }

    pub fn with_limit(input: R, max: usize) -> Self {
        LineReader { input, max }
    }

    pub fn next_line(&mut self) -> Line {
        let mut line = Vec::new();
        let mut length = 0usize;
        let mut seen_any = false;
        loop {
            let available = match self.input.fill_buf() {
                Ok(bytes) => bytes,
                Err(e) if e.kind() == ErrorKind::Interrupted => continue,
                Err(_) => &[],
            };
            if available.is_empty() {
                if !seen_any {
                    return Line::Eof;
                }
                break;
            }
            seen_any = true;
            let (take, consume, ends) = match available.iter().position(|&b| b == b'\n') {
                Some(at) => (at, at + 1, true),
                None => (available.len(), available.len(), false),
            };
            length += take;
            if length <= self.max {
                line.extend_from_slice(&available[..take]);
            } else if !line.is_empty() {
                line = Vec::new();
            }
            self.input.consume(consume);
            if ends {
                break;
            }
        }
        if length > self.max {
            return Line::TooLong { bytes: length };
        }
        if line.last() == Some(&b'\r') {
            line.pop();
        }
        Line::Bytes(line)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{BufReader, Cursor};

    fn lines(input: &[u8], max: usize) -> Vec<Line> {
        // A tiny buffer makes lines arrive in many pieces.
        let mut reader = LineReader::with_limit(
            BufReader::with_capacity(3, Cursor::new(input.to_vec())),
            max,
        );
        let mut out = Vec::new();
        loop {
            let line = reader.next_line();
            let end = line == Line::Eof;
            out.push(line);
            if end {
                return out;
            }
        }
    }

    fn bytes(s: &str) -> Line {
        Line::Bytes(s.as_bytes().to_vec())
    }

    #[test]
    fn splits_lines_and_strips_carriage_returns() {
        assert_eq!(
            lines(b"usi\r\nisready\n\nquit", 100),
            vec![
                bytes("usi"),
                bytes("isready"),
                bytes(""),
                bytes("quit"),
                Line::Eof
            ]
        );
        assert_eq!(lines(b"", 100), vec![Line::Eof]);
    }

    #[test]
    fn over_long_lines_are_dropped_and_reading_goes_on() {
        let mut input = vec![b'x'; 25];
        input.extend_from_slice(b"\nshort\n");
        input.extend_from_slice(&[b'y'; 11]);
        assert_eq!(
            lines(&input, 10),
            vec![
                Line::TooLong { bytes: 25 },
                bytes("short"),
                Line::TooLong { bytes: 11 },
                Line::Eof
            ]
        );
        assert_eq!(
            lines(b"0123456789\n", 10),
            vec![bytes("0123456789"), Line::Eof]
        );
    }

    #[test]
    fn invalid_utf8_is_passed_on() {
        assert_eq!(
            lines(b"\xff\xfe\n", 10),
            vec![Line::Bytes(vec![0xff, 0xfe]), Line::Eof]
        );
    }
}
