//! An engine process spoken to over the protocol: spawned with piped
//! stdin/stdout, its output read line by line on a thread (each line stamped
//! with its arrival time), waited for with deadlines, killed when it misbehaves.

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

/// How to start an engine and what to set in it.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineSpec {
    pub name: String,
    pub cmd: String,
    pub args: Vec<String>,
    pub dir: Option<PathBuf>,
    /// `setoption` pairs, in the order given.
    pub options: Vec<(String, String)>,
}

impl EngineSpec {
    /// Parses `name=A cmd=./yomi arg=--x dir=/tmp option.Threads=1` (words may
    /// also come as one string separated by spaces).
    pub fn parse(words: &[String]) -> Result<EngineSpec, String> {
        let mut spec = EngineSpec {
            name: String::new(),
            cmd: String::new(),
            args: Vec::new(),
            dir: None,
            options: Vec::new(),
        };
        for word in words.iter().flat_map(|w| w.split_whitespace()) {
            let (key, value) = word
                .split_once('=')
                .ok_or_else(|| format!("engine: '{word}': expected key=value"))?;
            match key {
                "name" => spec.name = value.to_string(),
                "cmd" => spec.cmd = value.to_string(),
                "arg" => spec.args.push(value.to_string()),
                "dir" => spec.dir = Some(PathBuf::from(value)),
                _ => match key.strip_prefix("option.") {
                    Some(option) if !option.is_empty() => {
                        spec.options.push((option.to_string(), value.to_string()))
                    }
                    _ => {
                        return Err(format!(
                            "engine: unknown key '{key}' (name, cmd, arg, dir, option.NAME)"
                        ))
                    }
                },
            }
        }
        if spec.cmd.is_empty() {
            return Err("engine: cmd=… is required".into());
        }
        if spec.name.is_empty() {
            spec.name = std::path::Path::new(&spec.cmd)
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_else(|| spec.cmd.clone());
        }
        Ok(spec)
    }
}

/// Why an engine was given up on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    /// The process ended or closed its output, or could not be written to.
    Crash(String),
    /// No expected reply within the deadline.
    Hang(String),
    /// A line that is not a protocol reply.
    Garbage(String),
}

impl Fault {
    /// The result reason word.
    pub fn reason(&self) -> &'static str {
        match self {
            Fault::Crash(_) => "crash",
            Fault::Hang(_) => "hang",
            Fault::Garbage(_) => "garbage",
        }
    }
    pub fn detail(&self) -> &str {
        match self {
            Fault::Crash(d) | Fault::Hang(d) | Fault::Garbage(d) => d,
        }
    }
}

enum Event {
    Line(String, Instant),
    Eof,
}

/// Is this line one an engine may print? (The first word decides.)
pub fn is_protocol_reply(line: &str) -> bool {
    let first = line.split_whitespace().next().unwrap_or("");
    matches!(
        first,
        "" | "id" | "option" | "usiok" | "readyok" | "info" | "bestmove"
    )
}

/// Cuts a line for a log message.
pub fn clip(line: &str) -> String {
    let mut out: String = line
        .chars()
        .take(80)
        .map(|c| if c.is_control() { '?' } else { c })
        .collect();
    if line.chars().count() > 80 {
        out.push('…');
    }
    out
}

pub struct EngineProcess {
    pub name: String,
    child: Child,
    stdin: Option<ChildStdin>,
    events: Receiver<Event>,
    /// `info string error:` lines seen, for warnings.
    pub errors: Vec<String>,
    /// The last lines read, for fault reports.
    pub tail: Vec<String>,
    pub dead: bool,
}

/// A `bestmove` answer.
pub struct BestMove {
    pub text: String,
    pub at: Instant,
}

impl EngineProcess {
    pub fn spawn(spec: &EngineSpec) -> Result<EngineProcess, Fault> {
        let mut command = Command::new(&spec.cmd);
        command
            .args(&spec.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        if let Some(dir) = &spec.dir {
            command.current_dir(dir);
        }
        let mut child = command
            .spawn()
            .map_err(|e| Fault::Crash(format!("cannot start '{}': {e}", spec.cmd)))?;
        let stdout = child.stdout.take().expect("piped stdout");
        let stdin = child.stdin.take();
        let (tx, events) = mpsc::channel();
        thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match reader.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => {
                        let _ = tx.send(Event::Eof);
                        break;
                    }
                    Ok(_) => {
                        let line = String::from_utf8_lossy(&buf)
                            .trim_end_matches(['\n', '\r'])
                            .to_string();
                        if tx.send(Event::Line(line, Instant::now())).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        Ok(EngineProcess {
            name: spec.name.clone(),
            child,
            stdin,
            events,
            errors: Vec::new(),
            tail: Vec::new(),
            dead: false,
        })
    }

    /// Starts the engine and runs the handshake: `usi`/`usiok`, the variant,
    /// house rules and options, `isready`/`readyok`.
    pub fn start(
        spec: &EngineSpec,
        setup: &[(String, String)],
        timeout: Duration,
    ) -> Result<EngineProcess, Fault> {
        let mut engine = EngineProcess::spawn(spec)?;
        let result = (|| {
            engine.send("usi")?;
            engine.wait_for("usiok", Instant::now() + timeout)?;
            for (name, value) in setup.iter().chain(&spec.options) {
                engine.send(&format!("setoption name {name} value {value}"))?;
            }
            engine.sync(timeout)
        })();
        match result {
            Ok(()) => Ok(engine),
            Err(fault) => {
                engine.kill();
                Err(fault)
            }
        }
    }

    pub fn send(&mut self, line: &str) -> Result<(), Fault> {
        self.send_bytes(line.as_bytes())
    }

    /// Sends one line given as bytes (which need not be UTF-8), then a newline.
    pub fn send_bytes(&mut self, line: &[u8]) -> Result<(), Fault> {
        let stdin = self
            .stdin
            .as_mut()
            .ok_or_else(|| Fault::Crash("input closed".into()))?;
        stdin
            .write_all(line)
            .and_then(|_| stdin.write_all(b"\n"))
            .and_then(|_| stdin.flush())
            .map_err(|e| {
                let shown = clip(&String::from_utf8_lossy(line));
                Fault::Crash(format!("cannot write '{shown}': {e}"))
            })
    }

    /// The operating system's process id (to read its memory use, or to kill it).
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// The next line as printed (bytes that are not UTF-8 read as U+FFFD), not
    /// checked for being a protocol reply, or why there is none before `deadline`.
    pub fn read_line(&mut self, deadline: Instant, waiting_for: &str) -> Result<String, Fault> {
        let limit = deadline.saturating_duration_since(Instant::now());
        self.next_raw_line(deadline, limit, waiting_for)
            .map(|(line, _)| line)
    }

    fn next_raw_line(
        &mut self,
        deadline: Instant,
        limit: Duration,
        waiting_for: &str,
    ) -> Result<(String, Instant), Fault> {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.events.recv_timeout(wait) {
            Ok(Event::Line(line, at)) => {
                if self.tail.len() >= 8 {
                    self.tail.remove(0);
                }
                self.tail.push(clip(&line));
                Ok((line, at))
            }
            Ok(Event::Eof) | Err(RecvTimeoutError::Disconnected) => {
                self.dead = true;
                Err(Fault::Crash(format!(
                    "engine exited (end of output) while waiting for {waiting_for}"
                )))
            }
            Err(RecvTimeoutError::Timeout) => Err(Fault::Hang(format!(
                "no {waiting_for} within {} ms",
                (limit.as_secs_f64() * 1000.0).round()
            ))),
        }
    }

    /// `isready`, then waits for `readyok`.
    pub fn sync(&mut self, timeout: Duration) -> Result<(), Fault> {
        self.send("isready")?;
        self.wait_for("readyok", Instant::now() + timeout)
    }

    /// The next line, or why there is none before `deadline`. Lines that are not
    /// protocol replies are faults.
    fn next_line(
        &mut self,
        deadline: Instant,
        limit: Duration,
        waiting_for: &str,
    ) -> Result<(String, Instant), Fault> {
        let (line, at) = self.next_raw_line(deadline, limit, waiting_for)?;
        if !is_protocol_reply(&line) {
            return Err(Fault::Garbage(format!(
                "unexpected output '{}' while waiting for {waiting_for}",
                clip(&line)
            )));
        }
        if line.starts_with("info string error") {
            self.errors.push(line.clone());
        }
        Ok((line, at))
    }

    /// Reads lines until one whose first word is `token`.
    pub fn wait_for(&mut self, token: &str, deadline: Instant) -> Result<(), Fault> {
        self.read_until(token, deadline).map(|_| ())
    }

    /// Reads lines until one whose first word is `token`; returns the lines
    /// before it.
    pub fn read_until(&mut self, token: &str, deadline: Instant) -> Result<Vec<String>, Fault> {
        let limit = deadline.saturating_duration_since(Instant::now());
        let mut lines = Vec::new();
        loop {
            let (line, _) = self.next_line(deadline, limit, token)?;
            if line.split_whitespace().next() == Some(token) {
                return Ok(lines);
            }
            lines.push(line);
        }
    }

    /// Reads lines until `bestmove …`; returns the move word (`resign`, …) and
    /// the arrival time. A `bestmove` without a move is garbage.
    pub fn wait_bestmove(&mut self, deadline: Instant) -> Result<BestMove, Fault> {
        let limit = deadline.saturating_duration_since(Instant::now());
        loop {
            let (line, at) = self.next_line(deadline, limit, "bestmove")?;
            let mut words = line.split_whitespace();
            if words.next() == Some("bestmove") {
                return match words.next() {
                    Some(mv) => Ok(BestMove {
                        text: mv.to_string(),
                        at,
                    }),
                    None => Err(Fault::Garbage("'bestmove' without a move".into())),
                };
            }
        }
    }

    /// Asks the engine to quit, then kills it if it has not gone after `grace`.
    pub fn quit(mut self, grace: Duration) {
        let _ = self.send("quit");
        self.stdin = None;
        let until = Instant::now() + grace;
        while Instant::now() < until {
            if let Ok(Some(_)) = self.child.try_wait() {
                self.dead = true;
                return;
            }
            thread::sleep(Duration::from_millis(5));
        }
        self.kill();
    }

    pub fn kill(&mut self) {
        self.stdin = None;
        let _ = self.child.kill();
        let _ = self.child.wait();
        self.dead = true;
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        if !self.dead {
            self.kill();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engine_specs() {
        let spec = EngineSpec::parse(&[
            "name=A".into(),
            "cmd=./yomi".into(),
            "option.Threads=2 option.USI_Hash=16".into(),
            "arg=--x".into(),
        ])
        .unwrap();
        assert_eq!(spec.name, "A");
        assert_eq!(spec.cmd, "./yomi");
        assert_eq!(spec.args, vec!["--x"]);
        assert_eq!(
            spec.options,
            vec![
                ("Threads".to_string(), "2".to_string()),
                ("USI_Hash".to_string(), "16".to_string())
            ]
        );
        let spec = EngineSpec::parse(&["cmd=/bin/yomi".into()]).unwrap();
        assert_eq!(spec.name, "yomi");
        assert!(EngineSpec::parse(&["name=A".into()]).is_err());
        assert!(EngineSpec::parse(&["cmd=x bogus".into()]).is_err());
        assert!(EngineSpec::parse(&["cmd=x colour=red".into()]).is_err());
    }

    #[test]
    fn protocol_replies() {
        assert!(is_protocol_reply("bestmove 7g7f"));
        assert!(is_protocol_reply("info depth 1"));
        assert!(is_protocol_reply(""));
        assert!(!is_protocol_reply("hello world"));
    }
}
