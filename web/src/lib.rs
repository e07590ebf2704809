//! Yomi in WebAssembly: the protocol of docs/protocol.md, handled synchronously.
//!
//! [`WebEngine`] is a [`Protocol::synchronous`]: every command, `go` included,
//! is applied before the call returns, and its reply lines go to a writer. In
//! the wasm build that writer is the host's `yomi_host_line`, the clock is the
//! host's `yomi_host_now_ms` (`yomi_engine::clock`), and the host speaks
//! through two exports (docs/web.md):
//!
//! - `yomi_input_buffer(len) -> ptr`: room for `len` bytes of input, to fill;
//! - `yomi_input(len) -> quit`: applies those bytes (one or more lines) and
//!   returns 1 after `quit`, 0 otherwise.
//!
//! The host must not call back into the engine from inside `yomi_host_line`.

use std::io::Write;
use yomi_protocol::{serve_lines, Flow, Output, Protocol};

/// The protocol state of one engine, answering into a writer.
pub struct WebEngine {
    protocol: Protocol,
}

impl WebEngine {
    pub fn new(writer: impl Write + Send + 'static) -> Self {
        WebEngine {
            protocol: Protocol::synchronous(Output::new(writer)),
        }
    }

    /// Applies the protocol lines in `input` (a last line without its newline
    /// counts); `true` once `quit` has been read, the lines after it unread.
    pub fn input(&mut self, input: &[u8]) -> bool {
        serve_lines(&mut self.protocol, input) == Flow::Quit
    }
}

/// Cuts what is written into lines without their newline, each handed to `emit`.
pub struct LineWriter<F: FnMut(&[u8])> {
    pending: Vec<u8>,
    emit: F,
}

impl<F: FnMut(&[u8])> LineWriter<F> {
    pub fn new(emit: F) -> Self {
        LineWriter {
            pending: Vec::new(),
            emit,
        }
    }
}

impl<F: FnMut(&[u8])> Write for LineWriter<F> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.pending.extend_from_slice(buf);
        while let Some(end) = self.pending.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = self.pending.drain(..=end).collect();
            (self.emit)(&line[..end]);
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[cfg(target_arch = "wasm32")]
mod exports {
    use super::{LineWriter, WebEngine};
    use std::sync::Mutex;

    #[link(wasm_import_module = "env")]
    extern "C" {
        /// One reply line (UTF-8, in fact ASCII), without its newline.
        fn yomi_host_line(ptr: *const u8, len: usize);
    }

    static ENGINE: Mutex<Option<WebEngine>> = Mutex::new(None);
    static INPUT: Mutex<Vec<u8>> = Mutex::new(Vec::new());

    fn host_line(line: &[u8]) {
        // SAFETY: the pointer and length describe a live slice for the call.
        unsafe { yomi_host_line(line.as_ptr(), line.len()) }
    }

    /// Room for `len` bytes of input; the pointer is valid until the next call
    /// into the engine.
    #[no_mangle]
    pub extern "C" fn yomi_input_buffer(len: usize) -> *mut u8 {
        let mut input = INPUT.lock().unwrap_or_else(|e| e.into_inner());
        input.clear();
        input.resize(len, 0);
        input.as_mut_ptr()
    }

    /// Applies the first `len` bytes of the input buffer; 1 after `quit`.
    #[no_mangle]
    pub extern "C" fn yomi_input(len: usize) -> u32 {
        let input = std::mem::take(&mut *INPUT.lock().unwrap_or_else(|e| e.into_inner()));
        let input = &input[..len.min(input.len())];
        let mut engine = ENGINE.lock().unwrap_or_else(|e| e.into_inner());
        let engine =
            engine.get_or_insert_with(|| WebEngine::new(LineWriter::new(host_line as fn(&[u8]))));
        engine.input(input) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::{Arc, Mutex};

    fn engine() -> (WebEngine, Arc<Mutex<Vec<String>>>) {
        let lines = Arc::new(Mutex::new(Vec::new()));
        let sink = lines.clone();
        let writer = LineWriter::new(move |line: &[u8]| {
            sink.lock()
                .unwrap()
                .push(String::from_utf8(line.to_vec()).unwrap())
        });
        (WebEngine::new(writer), lines)
    }

    fn take(lines: &Mutex<Vec<String>>) -> Vec<String> {
        std::mem::take(&mut *lines.lock().unwrap())
    }

    #[test]
    fn every_game_answers_a_bounded_go_within_the_call() {
        let (mut engine, lines) = engine();
        for (game, position) in [
            ("hasami", "position startpos moves 9i9h"),
            ("annan", "position startpos moves 7g7f"),
            ("yonin", "position startpos"),
            ("sugoroku", "position startpos moves 52"),
        ] {
            let input =
                format!("setoption name USI_Variant value {game}\n{position}\ngo depth 2\n");
            assert!(!engine.input(input.as_bytes()));
            let got = take(&lines);
            assert_eq!(got[0], format!("info string variant {game}"));
            let best = got.last().unwrap();
            let best = best.strip_prefix("bestmove ").expect(best);
            engine.input(b"moves");
            let legal = take(&lines);
            assert!(
                legal.iter().any(|m| m == best),
                "{game}: {best} in {legal:?}"
            );
        }
    }

    #[test]
    fn bad_input_gets_one_error_line_and_changes_nothing() {
        let (mut engine, lines) = engine();
        engine.input(b"position startpos moves 9i9h\nstatus\n");
        let status = take(&lines);
        for bad in [
            &b"go infinite"[..],
            b"go",
            b"go ponder",
            b"position startpos moves 9i9z",
            b"\xff\xfe",
            b"setoption name Nope value 1",
        ] {
            assert!(!engine.input(bad));
            let got = take(&lines);
            assert_eq!(got.len(), 1, "{got:?}");
            assert!(got[0].starts_with("info string error: "), "{got:?}");
            engine.input(b"status");
            assert_eq!(take(&lines), status);
        }
        assert!(engine.input(b"quit\nstatus\n"));
        assert!(take(&lines).is_empty());
    }

    #[test]
    fn a_review_and_a_record_answer_within_the_call() {
        let (mut engine, lines) = engine();
        engine.input(b"setoption name USI_Variant value annan\nposition sfen 7lk/7pB/9/9/9/9/9/9/4K4 b L 1 moves 5i4h\n");
        take(&lines);
        engine.input(b"review nodes 20000\nrecord\n");
        let got = take(&lines);
        assert_eq!(got.len(), 3, "{got:?}");
        assert!(
            got[0].starts_with("review ply 1 seat b played 5i4h best L*1c "),
            "{got:?}"
        );
        assert!(got[1].starts_with("review end plies 1 "), "{got:?}");
        assert_eq!(
            got[2],
            "record annan position sfen 7lk/7pB/9/9/9/9/9/9/4K4 b L 1 moves 5i4h"
        );
    }
}
