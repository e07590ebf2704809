//! The USI-like text protocol over the Yomi engine (see docs/protocol.md).
//!
//! The protocol knows the games only through
//! [`yomi_engine::session::GameSession`] and the notation strings it hands back:
//! [`command`] parses lines into typed commands, [`driver::Protocol`] applies them
//! to the current session and runs searches on a worker thread, [`output`] is the
//! one locked writer and the reply formats, [`reader`] reads bounded lines, and
//! [`usi`] gives the engine's options their USI names and `option` lines.

pub mod command;
pub mod driver;
pub mod output;
pub mod reader;
pub mod record;
pub mod usi;

pub use command::{Command, CommandError, GameOverResult, Go, RecordCommand};
pub use driver::{Flow, Protocol};
pub use output::Output;

use reader::LineReader;
use std::io::{BufRead, Write};

/// Runs the protocol until `quit` or the end of `input`.
///
/// Nothing is written anywhere but `output`: panics are caught and reported as
/// `info string error:` lines, and the default panic message on stderr is
/// silenced (some GUIs never read stderr, and a full pipe would block the engine).
pub fn run(input: impl BufRead, output: impl Write + Send + 'static) {
    std::panic::set_hook(Box::new(|_| {}));
    let mut protocol = Protocol::new(Output::new(output));
    serve(&mut protocol, input);
}

/// The reading loop over an existing protocol state.
pub fn serve(protocol: &mut Protocol, input: impl BufRead) {
    if serve_lines(protocol, input) == Flow::Continue {
        protocol.finish();
    }
}

/// Applies every line of `input` in turn, as [`serve`] does, and says whether a
/// `quit` came; at the end of the input nothing more is done (a host that hands
/// over its input a piece at a time calls this for each piece).
pub fn serve_lines(protocol: &mut Protocol, input: impl BufRead) -> Flow {
    let mut reader = LineReader::new(input);
    loop {
        let flow = match reader.next_text() {
            None => return Flow::Continue,
            Some(Err(ignored)) => {
                protocol.output().error(&ignored);
                Flow::Continue
            }
            Some(Ok(line)) => protocol.handle_line_at(&line, reader.received()),
        };
        if flow == Flow::Quit {
            return Flow::Quit;
        }
    }
}
