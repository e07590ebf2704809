//! Reads input lines with a bounded buffer: an over-long line is discarded (not
//! kept in memory) and reported once; bytes are handed on as they came, so invalid
//! UTF-8 can be reported instead of ending the loop.

use std::io::{BufRead, ErrorKind};
use yomi_engine::clock::Instant;

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
    /// Bytes left in the input's buffer after the last line: while some are,
    /// the next line came with an earlier read.
    buffered: usize,
    /// When the input's buffer was last filled from outside.
    filled_at: Instant,
    /// When the last line's end arrived.
    received: Instant,
}

impl<R: BufRead> LineReader<R> {
    pub fn new(input: R) -> Self {
        Self::with_limit(input, MAX_LINE_BYTES)
    }

    pub fn with_limit(input: R, max: usize) -> Self {
        let now = Instant::now();
        LineReader {
            input,
            max,
            buffered: 0,
            filled_at: now,
            received: now,
        }
    }

    /// When the line last returned arrived: a `go` read together with the
    /// `position` before it arrived when that did, and its clock started then.
    pub fn received(&self) -> Instant {
        self.received
    }

    /// The next line as text, or why it is ignored (too long, not UTF-8) in
    /// the words of an error line; `None` at the end of the input.
    pub fn next_text(&mut self) -> Option<Result<String, String>> {
        match self.next_line() {
            Line::Eof => None,
            Line::TooLong { bytes } => Some(Err(format!(
                "line of {bytes} bytes ignored: longer than the limit of {} bytes",
                self.max
            ))),
            Line::Bytes(bytes) => Some(String::from_utf8(bytes).map_err(|e| {
                format!(
                    "line ignored: not valid UTF-8 (bad byte at offset {})",
                    e.utf8_error().valid_up_to()
                )
            })),
        }
    }

    pub fn next_line(&mut self) -> Line {
        let mut line = Vec::new();
        let mut length = 0usize;
        let mut seen_any = false;
        loop {
            let refills = self.buffered == 0;
            let available = match self.input.fill_buf() {
                Ok(bytes) => bytes,
                Err(e) if e.kind() == ErrorKind::Interrupted => continue,
                Err(_) => &[],
            };
            if refills {
                self.filled_at = Instant::now();
            }
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
            self.buffered = available.len() - consume;
            self.input.consume(consume);
            if ends {
                break;
            }
        }
        self.received = self.filled_at;
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
    fn a_line_is_stamped_with_the_read_that_brought_it() {
        let (reading, mut writing) = std::io::pipe().unwrap();
        let writer = std::thread::spawn(move || {
            use std::io::Write;
            writing
                .write_all(b"position startpos\ngo btime 0\n")
                .unwrap();
            std::thread::sleep(std::time::Duration::from_millis(50));
            writing.write_all(b"stop\n").unwrap();
        });
        let mut reader = LineReader::new(BufReader::new(reading));
        let mut stamps = Vec::new();
        for _ in 0..3 {
            assert!(matches!(reader.next_line(), Line::Bytes(_)));
            stamps.push(reader.received());
        }
        writer.join().unwrap();
        assert_eq!(stamps[0], stamps[1], "go came with the position");
        assert!(stamps[2] - stamps[1] >= std::time::Duration::from_millis(45));
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
