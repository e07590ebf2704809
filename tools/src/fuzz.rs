//! A seeded protocol fuzzer: drives the real engine binary through pipes in
//! every game with valid sessions (positions reached by legal moves, from the
//! engine library), every option at and beyond the ends of its range, bad
//! weight files, takeovers and mutated lines, and checks what a client relies
//! on (see docs/protocol.md, "Fuzzing the protocol").

use crate::runner::engine::{EngineProcess, EngineSpec, Fault};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::path::PathBuf;
use std::time::{Duration, Instant};
use yomi_engine::registry::{self, GAMES};
use yomi_engine::session::GameSession;

/// No output line may be longer (the longest real ones, `usi`'s option lines
/// and `info … pv`, stay far below it).
pub const MAX_OUTPUT_LINE: usize = 4096;
/// How long any reply that is not a search may take.
const REPLY_TIMEOUT: Duration = Duration::from_secs(20);
/// What a bounded `go` may take beyond its own limit.
const SEARCH_MARGIN: Duration = Duration::from_secs(5);

pub struct FuzzConfig {
    pub seed: u64,
    pub max_lines: Option<u64>,
    pub max_seconds: Option<f64>,
    pub engine: PathBuf,
    /// The resident memory the engine may reach (MiB).
    pub max_rss_mib: u64,
    /// Steps in one engine process before a fresh one is started.
    pub steps_per_session: usize,
    /// A progress line on stderr every ten seconds or so (between sessions).
    pub progress: bool,
}

#[derive(Debug, Default)]
pub struct FuzzReport {
    pub lines_sent: u64,
    pub sessions: u64,
    pub searches: u64,
    pub refused: u64,
    pub peak_rss_kib: u64,
    pub last_rss_kib: u64,
}

/// A broken promise, with everything sent to the engine process that broke it.
pub struct Failure {
    pub seed: u64,
    pub session: u64,
    pub game: &'static str,
    pub what: String,
    pub sent: Vec<Vec<u8>>,
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(
            f,
            "fuzz: FAILED (seed {}, session {}, game {}): {}",
            self.seed, self.session, self.game, self.what
        )?;
        writeln!(
            f,
            "the {} lines sent to this engine process, from its start:",
            self.sent.len()
        )?;
        for line in &self.sent {
            let shown = line.escape_ascii().to_string();
            if shown.len() > 300 {
                writeln!(f, "> {}... ({} bytes)", &shown[..300], line.len())?;
            } else {
                writeln!(f, "> {shown}")?;
            }
        }
        Ok(())
    }
}

/// One option as `usi` announced it.
#[derive(Clone, Debug)]
enum OptionKind {
    Spin { min: i64, max: i64 },
    Combo(Vec<String>),
    Check,
    Text,
    Button,
}

#[derive(Clone, Debug)]
struct AnnouncedOption {
    name: String,
    kind: OptionKind,
}

/// Reads `option name N type T …` lines.
fn parse_option(line: &str) -> Option<AnnouncedOption> {
    let words: Vec<&str> = line.split_whitespace().collect();
    if words.first() != Some(&"option") || words.get(1) != Some(&"name") {
        return None;
    }
    let name = words.get(2)?.to_string();
    let after = |key: &str| {
        let at = words.iter().position(|w| *w == key)?;
        words.get(at + 1).copied()
    };
    let kind = match after("type")? {
        "spin" => OptionKind::Spin {
            min: after("min")?.parse().ok()?,
            max: after("max")?.parse().ok()?,
        },
        "combo" => OptionKind::Combo(
            words
                .windows(2)
                .filter(|w| w[0] == "var")
                .map(|w| w[1].to_string())
                .collect(),
        ),
        "check" => OptionKind::Check,
        "button" => OptionKind::Button,
        _ => OptionKind::Text,
    };
    Some(AnnouncedOption { name, kind })
}

/// The engine's resident memory (KiB), from /proc.
fn resident_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// A `setoption` the engine took, and the position it was taken at.
type TakenOption = (String, String, String);

/// A session of the library under the house rules and options set so far,
/// each set at the position the engine had then (a rule that replays the
/// start to another position, such as Yonin's first seat, is taken only where
/// a position was given).
fn library_session(game: &str, options: &[TakenOption]) -> Box<dyn GameSession> {
    let mut session = registry::new_session(game).expect("a registered game");
    for (name, value, sfen) in options {
        let _ = session.set_position(Some(sfen), &[]);
        let _ = yomi_protocol::usi::set_option(&mut *session, name, value);
    }
    session.new_game();
    session
}

/// What a line sent and its reply up to `readyok` came to.
struct Reply {
    lines: Vec<String>,
}

impl Reply {
    fn errors(&self) -> usize {
        self.lines
            .iter()
            .filter(|l| l.starts_with("info string error"))
            .count()
    }
    fn has(&self, first_word: &str) -> usize {
        self.lines
            .iter()
            .filter(|l| l.split_whitespace().next() == Some(first_word))
            .count()
    }
}

/// How a step ends when it does not go on: a broken promise, or a session
/// whose state the fuzzer can no longer follow (a new one is started).
enum Stop {
    Failed(String),
    Restart,
}

impl From<Fault> for Stop {
    fn from(fault: Fault) -> Stop {
        Stop::Failed(format!("{}: {}", fault.reason(), fault.detail()))
    }
}

struct Driver<'a> {
    engine: EngineProcess,
    rng: &'a mut Xoshiro256PlusPlus,
    report: &'a mut FuzzReport,
    config: &'a FuzzConfig,
    game: &'static str,
    sent: Vec<Vec<u8>>,
    announced: Vec<AnnouncedOption>,
    /// `setoption` pairs the engine took, in order (the library follows them).
    accepted: Vec<TakenOption>,
    /// The library's view of the engine's rules, rebuilt when they change.
    judge: Box<dyn GameSession>,
    /// The last `d` printed.
    diagram: Vec<String>,
    /// Valid lines sent, the material of mutations.
    valid_lines: Vec<String>,
    scratch_dir: PathBuf,
}

impl Driver<'_> {
    fn send(&mut self, line: &[u8]) -> Result<(), Stop> {
        self.sent.push(line.to_vec());
        self.report.lines_sent += 1;
        self.engine.send_bytes(line)?;
        Ok(())
    }

    fn read(&mut self, deadline: Instant, waiting_for: &str) -> Result<String, Stop> {
        let line = self.engine.read_line(deadline, waiting_for)?;
        if !line.is_ascii() {
            return Err(Stop::Failed(format!(
                "output that is not ASCII: {}",
                line.escape_default()
            )));
        }
        if line.len() > MAX_OUTPUT_LINE {
            return Err(Stop::Failed(format!(
                "an output line of {} bytes (bound {MAX_OUTPUT_LINE}): {}...",
                line.len(),
                &line[..200]
            )));
        }
        Ok(line)
    }

    /// `isready`, and the lines before its `readyok`.
    fn sync(&mut self) -> Result<Reply, Stop> {
        self.send(b"isready")?;
        self.until_ready()
    }

    /// The lines up to the next `readyok`; `isready` may first fill a large
    /// hash table (the one taken, or one just asked for), allowed 10 s a GiB
    /// beyond the usual wait.
    fn until_ready(&mut self) -> Result<Reply, Stop> {
        let asked = self
            .sent
            .iter()
            .rev()
            .take(3)
            .filter_map(|line| hash_asked(line))
            .max();
        let filled = asked.unwrap_or(0).max(self.hash_mib());
        let deadline = Instant::now() + REPLY_TIMEOUT + Duration::from_millis(10 * filled);
        let mut lines = Vec::new();
        loop {
            let line = self.read(deadline, "readyok")?;
            if line == "readyok" {
                return Ok(Reply { lines });
            }
            lines.push(line);
        }
    }

    fn command(&mut self, line: &[u8]) -> Result<Reply, Stop> {
        self.send(line)?;
        self.sync()
    }

    fn read_diagram(&mut self) -> Result<Vec<String>, Stop> {
        let reply = self.command(b"d")?;
        if reply.errors() > 0 || !reply.lines.iter().any(|l| l.starts_with("sfen ")) {
            return Err(Stop::Failed(format!("d: no position: {:?}", reply.lines)));
        }
        Ok(reply.lines)
    }

    fn sfen(&self) -> String {
        self.diagram
            .iter()
            .find_map(|l| l.strip_prefix("sfen "))
            .unwrap_or_default()
            .to_string()
    }

    /// The hash size (MiB) the engine last took: a mutated
    /// `setoption name USI_Hash value 32` can ask for gigabytes.
    fn hash_mib(&self) -> u64 {
        self.accepted
            .iter()
            .rev()
            .find(|(name, ..)| is_hash_option(name))
            .and_then(|(_, value, _)| value.trim().parse::<u64>().ok())
            .unwrap_or(0)
    }

    fn check_memory(&mut self) -> Result<(), Stop> {
        // The hash the engine took is memory it was asked for.
        let hash_mib = self.hash_mib();
        let bound_mib = self.config.max_rss_mib + hash_mib;
        if let Some(kib) = resident_kib(self.engine.pid()) {
            self.report.last_rss_kib = kib;
            self.report.peak_rss_kib = self.report.peak_rss_kib.max(kib);
            if kib > bound_mib * 1024 {
                return Err(Stop::Failed(format!(
                    "resident memory {} MiB above the bound of {bound_mib} MiB \
                     ({} MiB and the hash of {hash_mib} MiB)",
                    kib / 1024,
                    self.config.max_rss_mib
                )));
            }
        }
        Ok(())
    }

    /// Sends a line and checks the promise about refusals: one that gets an
    /// error gets exactly one and leaves `d` as it was. Whether it was refused.
    fn checked(&mut self, line: &[u8], then_stop: bool) -> Result<bool, Stop> {
        self.send(line)?;
        if then_stop {
            self.send(b"stop")?;
        }
        let mut reply = self.sync()?;
        // A line that is (or was mutated into) `isready` is answered too.
        let is_isready =
            std::str::from_utf8(line).is_ok_and(|text| text.split_whitespace().eq(["isready"]));
        if is_isready {
            reply.lines.extend(self.until_ready()?.lines);
        }
        let shown = String::from_utf8_lossy(line);
        match reply.errors() {
            0 => {
                self.diagram = self.read_diagram()?;
                Ok(false)
            }
            1 => {
                self.report.refused += 1;
                let after = self.read_diagram()?;
                if after != self.diagram {
                    return Err(Stop::Failed(format!(
                        "a refused line changed the position: '{}'\nbefore: {:?}\nafter: {:?}",
                        crate::runner::engine::clip(&shown),
                        self.diagram,
                        after
                    )));
                }
                Ok(true)
            }
            n => Err(Stop::Failed(format!(
                "{n} error lines for one line '{}': {:?}",
                crate::runner::engine::clip(&shown),
                reply.lines
            ))),
        }
    }

    fn start(&mut self) -> Result<(), Stop> {
        self.send(b"usi")?;
        let deadline = Instant::now() + REPLY_TIMEOUT;
        while self.read(deadline, "usiok")? != "usiok" {}
        let line = format!("setoption name USI_Variant value {}", self.game);
        let reply = self.command(line.as_bytes())?;
        if reply.lines != [format!("info string variant {}", self.game)] {
            return Err(Stop::Failed(format!(
                "{line}: unexpected reply {:?}",
                reply.lines
            )));
        }
        if self.rng.gen_bool(0.5) {
            self.command(b"setoption name ShowTunables value true")?;
        }
        self.send(b"usi")?;
        let mut announced = Vec::new();
        loop {
            let line = self.read(deadline, "usiok")?;
            if line == "usiok" {
                break;
            }
            announced.extend(parse_option(&line));
        }
        self.announced = announced;
        self.diagram = self.read_diagram()?;
        Ok(())
    }

    /// A random game of legal moves from the start (Sugoroku's rolls among
    /// them): its moves, and the library session at its end.
    fn random_game(&mut self, plies: usize) -> (Vec<String>, Box<dyn GameSession>) {
        let mut session = library_session(self.game, &self.accepted);
        let mut moves: Vec<String> = Vec::new();
        for _ in 0..plies {
            let refs: Vec<&str> = moves.iter().map(String::as_str).collect();
            if session.set_position(None, &refs).is_err() {
                moves.pop();
                break;
            }
            if session.state().awaits_chance {
                let (a, b) = (self.rng.gen_range(1..=6), self.rng.gen_range(1..=6));
                moves.push(format!("{}{}", a.max(b), a.min(b)));
                continue;
            }
            let legal = session.legal_moves();
            if legal.is_empty() {
                break;
            }
            moves.push(legal[self.rng.gen_range(0..legal.len())].clone());
        }
        let refs: Vec<&str> = moves.iter().map(String::as_str).collect();
        let _ = session.set_position(None, &refs);
        (moves, session)
    }

    fn valid_position(&mut self) -> Result<(), Stop> {
        let plies = self.rng.gen_range(0..60);
        let (moves, session) = self.random_game(plies);
        let line = if self.rng.gen_bool(0.7) {
            format!("position startpos moves {}", moves.join(" "))
        } else {
            // A takeover: a CPU seat given the position of a game under way.
            let cut = self.rng.gen_range(0..=moves.len());
            let mut takeover = library_session(self.game, &self.accepted);
            let refs: Vec<&str> = moves[..cut].iter().map(String::as_str).collect();
            let _ = takeover.set_position(None, &refs);
            let _ = session;
            format!(
                "position sfen {} moves {}",
                takeover.sfen(),
                moves[cut..].join(" ")
            )
        };
        let line = line.trim_end().to_string();
        if self.checked(line.as_bytes(), false)? {
            return Err(Stop::Failed(format!(
                "a position of legal moves was refused: '{line}'"
            )));
        }
        self.valid_lines.push(line);
        Ok(())
    }

    /// `position sfen <d's sfen>` must be taken and give the same `d`.
    fn read_back(&mut self) -> Result<(), Stop> {
        let before = self.diagram.clone();
        let line = format!("position sfen {}", self.sfen());
        if self.checked(line.as_bytes(), false)? {
            return Err(Stop::Failed(format!(
                "d's position does not read back: '{line}' refused"
            )));
        }
        let before_sfen: Vec<_> = before.iter().filter(|l| l.starts_with("sfen")).collect();
        let after_sfen: Vec<_> = self
            .diagram
            .iter()
            .filter(|l| l.starts_with("sfen"))
            .collect();
        if before_sfen != after_sfen {
            return Err(Stop::Failed(format!(
                "d's position reads back to another: {before_sfen:?} -> {after_sfen:?}"
            )));
        }
        Ok(())
    }

    fn bounded_go(&mut self) -> Result<(), Stop> {
        let (line, limit) = match self.rng.gen_range(0..3) {
            0 => (
                format!("go nodes {}", self.rng.gen_range(1..=5000)),
                Duration::from_secs(10),
            ),
            // Sugoroku's depth 3 reads three turns of 21 rolls each: with
            // MultiPV 64 that is millions of nodes, seconds of honest work.
            // A depth promises no time (hundreds of threads on two cores take
            // tens of seconds to depth 3): the bound only catches a hang.
            1 => {
                let deepest = if self.judge.has_chance() { 2 } else { 3 };
                (
                    format!("go depth {}", self.rng.gen_range(1..=deepest)),
                    Duration::from_secs(60),
                )
            }
            _ => ("go movetime 50".to_string(), Duration::from_millis(50)),
        };
        let status = self.command(b"status")?;
        let over = status.lines.iter().any(|l| l.starts_with("status over"));
        let sfen = self.sfen();
        if let Err(e) = self.judge.set_position(Some(&sfen), &[]) {
            return Err(Stop::Failed(format!(
                "the library cannot read d's position '{sfen}': {e}"
            )));
        }
        let legal = self.judge.legal_moves();
        if self.judge.state().awaits_chance {
            let refused = self.checked(line.as_bytes(), false)?;
            if !refused {
                return Err(Stop::Failed(format!(
                    "'{line}' searched a position waiting for its roll"
                )));
            }
            return Ok(());
        }
        self.report.searches += 1;
        self.send(line.as_bytes())?;
        self.send(b"isready")?;
        let deadline = Instant::now() + limit + SEARCH_MARGIN;
        let (mut best, mut ready) = (None, false);
        while best.is_none() || !ready {
            let reply = self.read(deadline, "bestmove and readyok")?;
            if reply == "readyok" {
                ready = true;
            } else if let Some(mv) = reply.strip_prefix("bestmove ") {
                best = Some(mv.split_whitespace().next().unwrap_or("").to_string());
            } else if reply.starts_with("info string error") {
                return Err(Stop::Failed(format!("'{line}' refused: {reply}")));
            }
        }
        let best = best.unwrap_or_default();
        let extra = self.sync()?;
        if extra.has("bestmove") > 0 {
            return Err(Stop::Failed(format!("'{line}': more than one bestmove")));
        }
        let fine = if best == "resign" {
            legal.is_empty() || over
        } else {
            !over && legal.contains(&best)
        };
        if !fine {
            return Err(Stop::Failed(format!(
                "'{line}' on '{sfen}' ({}) answered 'bestmove {best}'; legal: {legal:?}",
                status.lines.join(" ")
            )));
        }
        self.valid_lines.push(line);
        Ok(())
    }

    /// A value for an option: at or beyond its range's ends, inside it, or
    /// garbage. Whether it must be refused.
    fn option_value(&mut self, option: &AnnouncedOption) -> (String, bool) {
        let garbage = ["", "abc", "1e3", "-", "0x10", "99999999999999999999999"];
        let junk = garbage[self.rng.gen_range(0..garbage.len())].to_string();
        match &option.kind {
            OptionKind::Spin { min, max } => {
                let (min, max) = (*min, *max);
                // Hash sizes are kept small inside the range: the machine is shared.
                let inside_max = if option.name.contains("Hash") {
                    max.min(256)
                } else {
                    max
                };
                match self.rng.gen_range(0..6) {
                    0 => (min.to_string(), false),
                    1 => (max.to_string(), false),
                    2 => ((min as i128 - 1).to_string(), true),
                    3 => ((max as i128 + 1).to_string(), true),
                    4 => (self.rng.gen_range(min..=inside_max).to_string(), false),
                    _ => (junk, true),
                }
            }
            OptionKind::Combo(vars) if option.name.eq_ignore_ascii_case("USI_Variant") => {
                if self.rng.gen_bool(0.5) {
                    (self.game.to_string(), false)
                } else {
                    ("chess".to_string(), true)
                }
            }
            OptionKind::Combo(vars) => {
                if vars.is_empty() || self.rng.gen_bool(0.3) {
                    ("nonsense".to_string(), true)
                } else {
                    (vars[self.rng.gen_range(0..vars.len())].clone(), false)
                }
            }
            OptionKind::Check => match self.rng.gen_range(0..3) {
                0 => ("true".to_string(), false),
                1 => ("false".to_string(), false),
                _ => ("maybe".to_string(), true),
            },
            OptionKind::Button => (String::new(), false),
            OptionKind::Text => {
                let missing = self.scratch_dir.join("missing.bin");
                let garbage = self.scratch_dir.join("garbage.bin");
                let _ = std::fs::write(&garbage, b"not a network at all\n\x00\xff");
                match self.rng.gen_range(0..3) {
                    0 => (missing.display().to_string(), true),
                    1 => (garbage.display().to_string(), true),
                    _ => ("<empty>".to_string(), false),
                }
            }
        }
    }

    fn set_option(&mut self) -> Result<(), Stop> {
        if self.announced.is_empty() {
            return Ok(());
        }
        let option = self.announced[self.rng.gen_range(0..self.announced.len())].clone();
        let (value, must_refuse) = self.option_value(&option);
        let line = format!("setoption name {} value {value}", option.name);
        let refused = self.checked(line.as_bytes(), false)?;
        if must_refuse && !refused {
            return Err(Stop::Failed(format!("'{line}' was not refused")));
        }
        if !refused {
            self.took_option(&option.name, &value)?;
        }
        self.valid_lines.push(line);
        Ok(())
    }

    /// The engine took an option: the library follows.
    fn took_option(&mut self, name: &str, value: &str) -> Result<(), Stop> {
        if name.eq_ignore_ascii_case("USI_Variant") || name.eq_ignore_ascii_case("UCI_Variant") {
            if value.trim().eq_ignore_ascii_case(self.game) {
                return Ok(());
            }
            return Err(Stop::Restart);
        }
        let sfen = self.sfen();
        self.accepted
            .push((name.to_string(), value.to_string(), sfen));
        self.judge = library_session(self.game, &self.accepted);
        Ok(())
    }

    fn mutated_line(&mut self) -> Result<(), Stop> {
        let base = if self.valid_lines.is_empty() {
            "position startpos".to_string()
        } else {
            self.valid_lines[self.rng.gen_range(0..self.valid_lines.len())].clone()
        };
        let mut line = base.into_bytes();
        match self.rng.gen_range(0..10) {
            0..=3 => {
                for _ in 0..self.rng.gen_range(1..=4) {
                    let at = self.rng.gen_range(0..=line.len());
                    let byte = loop {
                        let b: u8 = self.rng.gen();
                        if b != b'\n' {
                            break b;
                        }
                    };
                    match self.rng.gen_range(0..3) {
                        0 => line.insert(at, byte),
                        1 if at < line.len() => line[at] = byte,
                        _ if at < line.len() => {
                            line.remove(at);
                        }
                        _ => line.push(byte),
                    }
                }
            }
            4 | 5 => {
                let at = self.rng.gen_range(0..=line.len());
                line.truncate(at);
            }
            6 | 7 => {
                let foreign = ["９", "é", "\u{3000}", "🀄", "ｐ", "\u{202e}"];
                for _ in 0..self.rng.gen_range(1..=3) {
                    let text = foreign[self.rng.gen_range(0..foreign.len())];
                    let mut at = self.rng.gen_range(0..=line.len());
                    while !String::from_utf8_lossy(&line[..at]).is_char_boundary(at)
                        && at < line.len()
                    {
                        at += 1;
                    }
                    line.splice(at..at, text.bytes());
                }
            }
            8 => {
                // About 100 KB: the line's own words repeated, or noise.
                let words: Vec<u8> = line.clone();
                let size = if self.rng.gen_ratio(1, 50) {
                    1_200_000
                } else {
                    100_000
                };
                while line.len() < size {
                    line.push(b' ');
                    if self.rng.gen_bool(0.5) && !words.is_empty() {
                        let from = self.rng.gen_range(0..words.len());
                        line.extend_from_slice(&words[from..]);
                    } else {
                        line.push(self.rng.gen_range(b'!'..=b'~'));
                    }
                }
            }
            _ => {
                let bytes = [0x00, 0xff, 0xc3, 0x80, b'\r', b'\t', 0x1b];
                let at = self.rng.gen_range(0..=line.len());
                line.insert(at, bytes[self.rng.gen_range(0..bytes.len())]);
            }
        }
        // A mutated `go` may search without a limit: `stop` follows it.
        let refused = self.checked(&line, true)?;
        if !refused {
            let text = String::from_utf8_lossy(&line).into_owned();
            let mut words = text.split_whitespace();
            if words.next() == Some("setoption") {
                let rest = text.trim_start().trim_start_matches("setoption").trim();
                let rest = rest.strip_prefix("name").unwrap_or(rest).trim();
                let (name, value) = match rest.split_once(" value ") {
                    Some((n, v)) => (n.trim().to_string(), v.trim().to_string()),
                    None => (rest.to_string(), String::new()),
                };
                self.took_option(&name, &value)?;
            }
        }
        Ok(())
    }

    fn simple_command(&mut self) -> Result<(), Stop> {
        let commands: [&[u8]; 6] = [b"d", b"status", b"moves", b"usinewgame", b"stop", b"usi"];
        let line = commands[self.rng.gen_range(0..commands.len())];
        self.checked(line, false)?;
        self.valid_lines
            .push(String::from_utf8_lossy(line).into_owned());
        Ok(())
    }

    fn step(&mut self) -> Result<(), Stop> {
        match self.rng.gen_range(0..100) {
            0..=24 => self.valid_position()?,
            25..=34 => self.bounded_go()?,
            35..=54 => self.set_option()?,
            55..=64 => self.simple_command()?,
            65..=69 => self.read_back()?,
            _ => self.mutated_line()?,
        }
        self.check_memory()
    }
}

/// `USI_Hash` or its other name `Hash`, in any case.
fn is_hash_option(name: &str) -> bool {
    name.to_ascii_lowercase().ends_with("hash")
}

/// The hash size (MiB) a `setoption` line asks for, if it is one (a value
/// beyond the option's range is refused, so a few GiB at most).
fn hash_asked(line: &[u8]) -> Option<u64> {
    let text = std::str::from_utf8(line).ok()?;
    let mut words = text.split_whitespace();
    if words.next()? != "setoption" || words.next()? != "name" {
        return None;
    }
    let name = words.next()?;
    if !is_hash_option(name) || words.next()? != "value" {
        return None;
    }
    words.next()?.parse().ok()
}

/// Runs the fuzzer until its line or time budget is spent, or a promise breaks.
pub fn run(config: &FuzzConfig) -> Result<FuzzReport, Failure> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(config.seed);
    let mut report = FuzzReport::default();
    let started = Instant::now();
    let scratch_dir = std::env::temp_dir().join(format!("yomi-fuzz-{}", std::process::id()));
    let _ = std::fs::create_dir_all(&scratch_dir);
    let mut last_progress = started;
    let spent = |report: &FuzzReport| {
        config.max_lines.is_some_and(|n| report.lines_sent >= n)
            || config
                .max_seconds
                .is_some_and(|s| started.elapsed().as_secs_f64() >= s)
    };
    while !spent(&report) {
        report.sessions += 1;
        let game = GAMES[rng.gen_range(0..GAMES.len())].name();
        let spec = EngineSpec {
            name: "yomi".into(),
            cmd: config.engine.display().to_string(),
            args: Vec::new(),
            dir: None,
            options: Vec::new(),
        };
        let engine = EngineProcess::spawn(&spec).map_err(|fault| Failure {
            seed: config.seed,
            session: report.sessions,
            game,
            what: fault.detail().to_string(),
            sent: Vec::new(),
        })?;
        let session = report.sessions;
        let mut driver = Driver {
            engine,
            rng: &mut rng,
            report: &mut report,
            config,
            game,
            sent: Vec::new(),
            announced: Vec::new(),
            accepted: Vec::new(),
            judge: library_session(game, &[]),
            diagram: Vec::new(),
            valid_lines: Vec::new(),
            scratch_dir: scratch_dir.clone(),
        };
        let mut outcome = driver.start();
        let mut steps = 0;
        while outcome.is_ok() && steps < config.steps_per_session && !spent(driver.report) {
            outcome = driver.step();
            steps += 1;
        }
        if let Err(Stop::Failed(what)) = outcome {
            let sent = std::mem::take(&mut driver.sent);
            driver.engine.kill();
            let _ = std::fs::remove_dir_all(&scratch_dir);
            return Err(Failure {
                seed: config.seed,
                session,
                game,
                what,
                sent,
            });
        }
        driver.engine.quit(Duration::from_secs(5));
        if config.progress && last_progress.elapsed() >= Duration::from_secs(10) {
            last_progress = Instant::now();
            eprintln!(
                "fuzz: {} lines{} in {:.0} s, {} sessions, {} searches, rss peak {} MiB",
                report.lines_sent,
                config
                    .max_lines
                    .map_or(String::new(), |n| format!(" of {n}")),
                started.elapsed().as_secs_f64(),
                report.sessions,
                report.searches,
                report.peak_rss_kib / 1024
            );
        }
    }
    let _ = std::fs::remove_dir_all(&scratch_dir);
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hash_asked_for_is_read_from_setoption_lines() {
        assert_eq!(
            hash_asked(b"setoption name USI_Hash value 9999"),
            Some(9999)
        );
        assert_eq!(hash_asked(b"setoption name Hash value 16"), Some(16));
        assert_eq!(hash_asked(b"setoption name Threads value 9999"), None);
        assert_eq!(hash_asked(b"setoption name USI_Hash value 1e3"), None);
        assert_eq!(hash_asked(b"isready"), None);
    }

    #[test]
    fn options_are_read_from_usi_lines() {
        let spin = parse_option("option name Threads type spin default 1 min 1 max 256").unwrap();
        assert_eq!(spin.name, "Threads");
        assert!(matches!(spin.kind, OptionKind::Spin { min: 1, max: 256 }));
        let combo =
            parse_option("option name HasamiWin type combo default five var five var lead3")
                .unwrap();
        assert!(matches!(combo.kind, OptionKind::Combo(ref v) if v == &["five", "lead3"]));
        assert!(parse_option("id name Yomi").is_none());
    }
}
