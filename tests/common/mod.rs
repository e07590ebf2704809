//! Drives the real `yomi` binary: piped stdin/stdout, lines read on a thread and
//! waited for with timeouts, so a hang fails the test instead of blocking CI.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Output, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

pub const BIN: &str = env!("CARGO_BIN_EXE_yomi");
/// Generous: the answer to anything but a long search.
pub const PROMPT: Duration = Duration::from_secs(10);
pub const START_SFEN: &str = "ppppppppp/9/9/9/9/9/9/9/PPPPPPPPP b - 1";

/// Runs `yomi <args>` to the end.
pub fn cli(args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("run yomi")
}

pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    stderr: Option<JoinHandle<String>>,
    /// Everything read so far, for failure messages.
    pub log: Vec<String>,
}

impl Engine {
    pub fn start() -> Engine {
        let mut child = Command::new(BIN)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start yomi");
        let stdout = child.stdout.take().unwrap();
        let mut stderr = child.stderr.take().unwrap();
        let (tx, lines) = mpsc::channel();
        thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::new();
            while let Ok(n) = reader.read_until(b'\n', &mut buf) {
                if n == 0 {
                    break;
                }
                let line = String::from_utf8_lossy(&buf)
                    .trim_end_matches(['\n', '\r'])
                    .to_string();
                buf.clear();
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let stderr = thread::spawn(move || {
            let mut text = String::new();
            let _ = stderr.read_to_string(&mut text);
            text
        });
        Engine {
            stdin: child.stdin.take(),
            child,
            lines,
            stderr: Some(stderr),
            log: Vec::new(),
        }
    }

    pub fn send(&mut self, line: &str) {
        self.send_bytes(format!("{line}\n").as_bytes());
    }

    pub fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).expect("write to yomi");
        stdin.flush().expect("flush to yomi");
    }

    /// Closes stdin (end of input).
    pub fn close_stdin(&mut self) {
        self.stdin = None;
    }

    /// The next line, or `None` after `timeout` (or at the end of output).
    pub fn recv(&mut self, timeout: Duration) -> Option<String> {
        match self.lines.recv_timeout(timeout) {
            Ok(line) => {
                self.log.push(line.clone());
                Some(line)
            }
            Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => None,
        }
    }

    /// Lines up to and including the first that satisfies `done`; fails the test
    /// if it does not come within `timeout`.
    pub fn read_until(&mut self, timeout: Duration, done: impl Fn(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + timeout;
        let mut lines = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.recv(left) {
                Some(line) => {
                    let end = done(&line);
                    lines.push(line);
                    if end {
                        return lines;
                    }
                }
                None => panic!(
                    "timed out after {timeout:?}; read so far: {lines:#?}\nfull log: {:#?}",
                    self.log
                ),
            }
        }
    }

    /// Sends `isready` and returns the lines that came before `readyok`.
    pub fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        let mut lines = self.read_until(PROMPT, |l| l == "readyok");
        lines.pop();
        lines
    }

    /// Lines printed within `window` (expected: none, usually).
    pub fn lines_within(&mut self, window: Duration) -> Vec<String> {
        let deadline = Instant::now() + window;
        let mut lines = Vec::new();
        while let Some(line) = self.recv(deadline.saturating_duration_since(Instant::now())) {
            lines.push(line);
        }
        lines
    }

    /// Sends a command and returns its output (up to the `isready` sync).
    pub fn ask(&mut self, line: &str) -> Vec<String> {
        self.send(line);
        self.sync()
    }

    /// As [`Engine::ask`], without the search's `info` lines (error lines stay).
    pub fn ask_quiet(&mut self, line: &str) -> Vec<String> {
        self.ask(line)
            .into_iter()
            .filter(|l| !l.starts_with("info ") || l.starts_with("info string error"))
            .collect()
    }

    /// `status …` without its first word (also while a search prints `info`).
    pub fn status(&mut self) -> String {
        let lines = self.ask_quiet("status");
        assert_eq!(lines.len(), 1, "{lines:?}");
        lines[0]
            .strip_prefix("status ")
            .expect("a status line")
            .to_string()
    }

    /// The `sfen …` line of `d`.
    pub fn sfen(&mut self) -> String {
        let lines = self.ask("d");
        let line = lines
            .iter()
            .find(|l| l.starts_with("sfen "))
            .unwrap_or_else(|| panic!("no sfen in {lines:?}"));
        line["sfen ".len()..].to_string()
    }

    pub fn legal_moves(&mut self) -> Vec<String> {
        self.ask("moves")
    }

    /// Sends `go …` and waits for `bestmove`; returns all lines, bestmove last.
    pub fn go(&mut self, go: &str, timeout: Duration) -> Vec<String> {
        self.send(go);
        self.read_until(timeout, |l| l.starts_with("bestmove"))
    }

    /// The process's resident memory (VmRSS of /proc/PID/status), in MiB.
    pub fn resident_mib(&self) -> u64 {
        self.status_field("VmRSS:") / 1024
    }

    /// The process's threads (Threads of /proc/PID/status).
    pub fn os_threads(&self) -> u64 {
        self.status_field("Threads:")
    }

    /// A number of /proc/PID/status, by its field name (units dropped).
    fn status_field(&self, field: &str) -> u64 {
        let path = format!("/proc/{}/status", self.child.id());
        let status = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        status
            .lines()
            .find_map(|line| line.strip_prefix(field))
            .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse().ok())
            .unwrap_or_else(|| panic!("no {field} in {path}"))
    }

    /// Waits for the process to end after `quit` or EOF; returns its status and stderr.
    pub fn wait_exit(mut self, timeout: Duration) -> (ExitStatus, String) {
        let deadline = Instant::now() + timeout;
        loop {
            if let Some(status) = self.child.try_wait().expect("wait for yomi") {
                let stderr = self.stderr.take().unwrap().join().unwrap_or_default();
                return (status, stderr);
            }
            if Instant::now() > deadline {
                panic!("yomi did not exit within {timeout:?}; log: {:#?}", self.log);
            }
            thread::sleep(Duration::from_millis(10));
        }
    }

    /// `quit`, then checks a clean exit with nothing on stderr.
    pub fn quit_cleanly(mut self) {
        self.send("quit");
        let (status, stderr) = self.wait_exit(PROMPT);
        assert!(status.success(), "exit status {status}");
        assert_eq!(stderr, "", "stderr must stay quiet");
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The one `info string error:` line expected, or a failure showing what came.
pub fn assert_one_error(lines: &[String], what: &str) -> String {
    assert_eq!(
        lines.len(),
        1,
        "{what}: expected exactly one line, got {lines:#?}"
    );
    assert!(
        lines[0].starts_with("info string error: "),
        "{what}: got {lines:?}"
    );
    lines[0].clone()
}

pub fn bestmove(lines: &[String]) -> (String, Option<String>) {
    let last = lines.last().expect("a bestmove line");
    let words: Vec<&str> = last.split_whitespace().collect();
    match words.as_slice() {
        ["bestmove", mv] => (mv.to_string(), None),
        ["bestmove", mv, "ponder", reply] => (mv.to_string(), Some(reply.to_string())),
        _ => panic!("not a bestmove line: {last}"),
    }
}

/// Every line of a search is an `info` line, then one `bestmove` with a legal move.
pub fn assert_legal_search(lines: &[String], legal: &[String]) -> String {
    for line in &lines[..lines.len() - 1] {
        assert!(
            line.starts_with("info "),
            "unexpected line during search: {line}"
        );
        assert!(
            !line.starts_with("info string error"),
            "error during search: {line}"
        );
    }
    let (mv, _) = bestmove(lines);
    assert!(
        legal.contains(&mv),
        "bestmove {mv} is not legal; legal: {legal:?}"
    );
    mv
}
