//! A seat pool: many games served from a few engine processes.
//!
//! Every move request is one line, answered by one line; any idle process
//! takes it, and first puts back everything an earlier request may have set
//! (the game, every option at its default or the pool's setting, then the
//! request's own options, `usinewgame`, the position), so that its answer is
//! the one a fresh process would give. The format is in
//! [docs/cpu-seats.md](../../docs/cpu-seats.md#serving-many-seats-from-few-processes).
//!
//! A process that dies or hangs during a request is killed and replaced, and
//! the request goes back to the queue for the next idle process; a request
//! the engine refuses (an illegal move, an option out of range) is answered
//! with an error line, and the pool goes on.

use crate::runner::engine::{EngineProcess, EngineSpec, Fault};
use std::collections::{HashMap, VecDeque};
use std::io::{BufRead, Write};
use std::sync::{Arc, Condvar, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// The games a request may name (`USI_Variant` values): the registry's.
pub use yomi_engine::registry::NAMES as GAMES;

/// How many processes may fail on one request before it is answered with an
/// error.
pub const ATTEMPTS: u32 = 3;

/// One move request.
#[derive(Clone, Debug, PartialEq)]
pub struct Request {
    pub id: String,
    pub game: String,
    /// `setoption` pairs in the order given (shorthands expanded).
    pub options: Vec<(String, String)>,
    /// The `position …` command.
    pub position: String,
    /// The `go …` command.
    pub go: String,
}

/// A request that cannot be served: the id (`?` when the line has none) and why.
#[derive(Clone, Debug, PartialEq)]
pub struct Refusal {
    pub id: String,
    pub message: String,
}

impl Refusal {
    pub fn line(&self) -> String {
        format!("id={} error {}", self.id, self.message)
    }
}

/// The answer line to a served request.
pub fn bestmove_line(id: &str, best: &str) -> String {
    format!("id={id} bestmove {best}")
}

/// The `go` words that never end by themselves or do not search a move.
const UNSERVED_GO_WORDS: [&str; 4] = ["infinite", "ponder", "mate", "perft"];

/// Parses `id=R game=G [key=value]… position … go …`.
pub fn parse_request(line: &str) -> Result<Request, Refusal> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let id = words
        .iter()
        .take_while(|w| **w != "position")
        .find_map(|w| w.strip_prefix("id="))
        .filter(|id| !id.is_empty())
        .unwrap_or("?")
        .to_string();
    let refuse = |message: String| Refusal {
        id: id.clone(),
        message,
    };
    let position_at = words
        .iter()
        .position(|w| *w == "position")
        .ok_or_else(|| refuse("no 'position …'".into()))?;
    let go_at = words[position_at..]
        .iter()
        .position(|w| *w == "go")
        .map(|at| at + position_at)
        .ok_or_else(|| refuse("no 'go …' after the position".into()))?;
    let go_words = &words[go_at + 1..];
    if go_words.is_empty() {
        return Err(refuse(
            "'go' needs a limit (nodes, depth, movetime or a clock)".into(),
        ));
    }
    if let Some(word) = go_words.iter().find(|w| UNSERVED_GO_WORDS.contains(w)) {
        return Err(refuse(format!("'go {word}' is not served")));
    }
    let mut game = None;
    let mut options = Vec::new();
    for word in &words[..position_at] {
        let (key, value) = word
            .split_once('=')
            .ok_or_else(|| refuse(format!("'{word}': expected key=value")))?;
        if value.is_empty() {
            return Err(refuse(format!("'{word}': no value")));
        }
        let value = value.to_string();
        match key {
            "id" => {}
            "game" => {
                if !GAMES.contains(&value.as_str()) {
                    return Err(refuse(format!(
                        "unknown game '{value}' (expected one of {})",
                        GAMES.join(", ")
                    )));
                }
                game = Some(value);
            }
            "level" => options.push(("Level".to_string(), value)),
            "skill" => options.push(("Skill".to_string(), value)),
            "elo" => {
                options.push(("USI_LimitStrength".to_string(), "true".to_string()));
                options.push(("USI_Elo".to_string(), value));
            }
            "seed" => options.push(("Seed".to_string(), value)),
            "variety" => options.push(("Variety".to_string(), value)),
            _ if key.eq_ignore_ascii_case("USI_Variant") => {
                return Err(refuse("the game is chosen with game=…".into()))
            }
            _ if key.eq_ignore_ascii_case("ShowTunables") || key.starts_with("Tune_") => {
                return Err(refuse(format!("option '{key}' is not served")))
            }
            _ if key.starts_with(|c: char| c.is_ascii_uppercase()) => {
                options.push((key.to_string(), value))
            }
            _ => return Err(refuse(format!("unknown key '{key}'"))),
        }
    }
    if id == "?" {
        return Err(refuse("no id=…".into()));
    }
    let game = game.ok_or_else(|| refuse("no game=…".into()))?;
    Ok(Request {
        id: id.clone(),
        game,
        options,
        position: words[position_at..go_at].join(" "),
        go: words[go_at..].join(" "),
    })
}

/// Why a request was not answered with a move.
#[derive(Debug)]
pub enum Failure {
    /// The request's own fault: answered with an error line.
    Refused(String),
    /// The process failed: it is replaced and the request tried again.
    Process(Fault),
}

impl From<Fault> for Failure {
    fn from(fault: Fault) -> Failure {
        Failure::Process(fault)
    }
}

/// One engine process of the pool.
pub struct PoolEngine {
    process: EngineProcess,
    game: String,
    /// Each game's options and their defaults, as its `usi` announces them.
    defaults: HashMap<String, Vec<(String, String)>>,
    handshake: Duration,
}

impl PoolEngine {
    pub fn start(spec: &EngineSpec, handshake: Duration) -> Result<PoolEngine, Fault> {
        Ok(PoolEngine {
            process: EngineProcess::start(spec, &[], handshake)?,
            game: GAMES[0].to_string(),
            defaults: HashMap::new(),
            handshake,
        })
    }

    pub fn pid(&self) -> u32 {
        self.process.pid()
    }

    pub fn kill(&mut self) {
        self.process.kill();
    }

    /// Switches to `game` (when another) and learns its options' defaults
    /// (once).
    fn enter(&mut self, game: &str) -> Result<Vec<(String, String)>, Fault> {
        if self.game != game {
            self.process
                .send(&format!("setoption name USI_Variant value {game}"))?;
            self.game = game.to_string();
        }
        if !self.defaults.contains_key(game) {
            self.process.send("usi")?;
            let lines = self
                .process
                .read_until("usiok", Instant::now() + self.handshake)?;
            let options = lines.iter().filter_map(|l| announced_default(l)).collect();
            self.defaults.insert(game.to_string(), options);
        }
        Ok(self.defaults[game].clone())
    }

    /// Sends lines, then `isready`; the first error line the engine printed
    /// for them, if any.
    fn apply(&mut self, lines: &[String]) -> Result<Option<String>, Fault> {
        self.process.errors.clear();
        for line in lines {
            self.process.send(line)?;
        }
        self.process.sync(self.handshake)?;
        Ok(self.process.errors.first().map(|e| {
            e.trim_start_matches("info string error:")
                .trim()
                .to_string()
        }))
    }

    /// Serves one request with the pool's settings `baseline` (the options
    /// every request starts from): its best move.
    pub fn serve(
        &mut self,
        request: &Request,
        baseline: &[(String, String)],
        timeout: Duration,
    ) -> Result<String, Failure> {
        let defaults = self.enter(&request.game)?;
        let canonical = |name: &str| {
            defaults
                .iter()
                .find(|(known, _)| known.eq_ignore_ascii_case(name))
                .map(|(known, _)| known.clone())
        };
        let mut own = Vec::new();
        for (name, value) in &request.options {
            let name = canonical(name).ok_or_else(|| {
                Failure::Refused(format!("unknown option '{name}' in {}", request.game))
            })?;
            own.push((name, value.clone()));
        }
        // Every option the request does not set goes back to the pool's
        // setting or the engine's default; then the request's, in its order.
        let mut setup: Vec<String> = defaults
            .iter()
            .filter(|(name, _)| !own.iter().any(|(set, _)| set == name))
            .map(|(name, default)| {
                let value = baseline
                    .iter()
                    .rev()
                    .find(|(set, _)| set.eq_ignore_ascii_case(name))
                    .map_or(default, |(_, value)| value);
                format!("setoption name {name} value {value}")
            })
            .collect();
        setup.extend(
            own.iter()
                .map(|(name, value)| format!("setoption name {name} value {value}")),
        );
        if let Some(error) = self.apply(&setup)? {
            return Err(Failure::Refused(error));
        }
        let start = ["usinewgame".to_string(), request.position.clone()];
        if let Some(error) = self.apply(&start)? {
            return Err(Failure::Refused(error));
        }
        self.process.send(&request.go)?;
        let best = self.process.wait_bestmove(Instant::now() + timeout)?;
        Ok(best.text)
    }
}

/// `(name, default)` of an `option name N type T default D …` line (`USI_Variant`
/// left out: the game is chosen by the request).
fn announced_default(line: &str) -> Option<(String, String)> {
    let rest = line.strip_prefix("option name ")?;
    let (name, rest) = rest.split_once(" type ")?;
    if name == "USI_Variant" {
        return None;
    }
    let default = rest.split_once(" default ")?.1;
    // A combo's default is followed by its `var`s, a spin's by `min`/`max`;
    // a string's default is the rest of the line.
    let value = if rest.starts_with("string") {
        default.to_string()
    } else {
        default.split_whitespace().next()?.to_string()
    };
    Some((name.to_string(), value))
}

/// How a pool runs.
#[derive(Clone, Debug)]
pub struct PoolConfig {
    pub engine: EngineSpec,
    pub processes: usize,
    /// How long a `go` may take before its process is given up on.
    pub timeout: Duration,
    /// For starting a process and every exchange before `go`.
    pub handshake: Duration,
    /// Logs on stderr which process serves each request.
    pub verbose: bool,
}

struct QueueState {
    waiting: VecDeque<(Request, u32)>,
    busy: usize,
    closed: bool,
}

struct Queue {
    state: Mutex<QueueState>,
    changed: Condvar,
}

impl Queue {
    /// The next request for an idle process; `None` once the input has ended
    /// and every request is answered.
    fn take(&self) -> Option<(Request, u32)> {
        let mut state = self.state.lock().unwrap();
        loop {
            if let Some(item) = state.waiting.pop_front() {
                state.busy += 1;
                return Some(item);
            }
            if state.closed && state.busy == 0 {
                return None;
            }
            state = self.changed.wait(state).unwrap();
        }
    }

    /// Marks a taken request done, or puts it back for another process.
    fn finish(&self, again: Option<(Request, u32)>) {
        let mut state = self.state.lock().unwrap();
        state.busy -= 1;
        if let Some(item) = again {
            state.waiting.push_front(item);
        }
        self.changed.notify_all();
    }
}

type Output = Arc<Mutex<Box<dyn Write + Send>>>;

fn answer(output: &Output, line: &str) {
    let mut out = output.lock().unwrap();
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}

/// Reads requests from `input` until it ends, answers each on `output`, and
/// returns when all are answered.
pub fn run(config: &PoolConfig, input: impl BufRead, output: Box<dyn Write + Send>) {
    let output: Output = Arc::new(Mutex::new(output));
    let queue = Arc::new(Queue {
        state: Mutex::new(QueueState {
            waiting: VecDeque::new(),
            busy: 0,
            closed: false,
        }),
        changed: Condvar::new(),
    });
    let workers: Vec<_> = (0..config.processes.max(1))
        .map(|slot| {
            let (config, queue, output) = (config.clone(), queue.clone(), output.clone());
            thread::spawn(move || work(slot, &config, &queue, &output))
        })
        .collect();
    for line in input.lines() {
        let Ok(line) = line else { break };
        if line.trim().is_empty() {
            continue;
        }
        match parse_request(&line) {
            Ok(request) => {
                let mut state = queue.state.lock().unwrap();
                state.waiting.push_back((request, 0));
                queue.changed.notify_all();
            }
            Err(refusal) => answer(&output, &refusal.line()),
        }
    }
    queue.state.lock().unwrap().closed = true;
    queue.changed.notify_all();
    for worker in workers {
        let _ = worker.join();
    }
}

/// One process's loop: takes requests, serves them, replaces its process when
/// it fails.
fn work(slot: usize, config: &PoolConfig, queue: &Queue, output: &Output) {
    let mut engine: Option<PoolEngine> = None;
    while let Some((request, failures)) = queue.take() {
        if engine.is_none() {
            match PoolEngine::start(&config.engine, config.handshake) {
                Ok(started) => {
                    eprintln!("seat_pool: process {slot} started (pid {})", started.pid());
                    engine = Some(started);
                }
                Err(fault) => {
                    eprintln!("seat_pool: process {slot} cannot start: {}", fault.detail());
                    retry_or_fail(queue, output, request, failures, &fault);
                    thread::sleep(Duration::from_millis(200));
                    continue;
                }
            }
        }
        let running = engine.as_mut().expect("started above");
        if config.verbose {
            eprintln!(
                "seat_pool: id={} on process {slot} (pid {})",
                request.id,
                running.pid()
            );
        }
        match running.serve(&request, &config.engine.options, config.timeout) {
            Ok(best) => {
                answer(output, &bestmove_line(&request.id, &best));
                queue.finish(None);
            }
            Err(Failure::Refused(message)) => {
                answer(
                    output,
                    &Refusal {
                        id: request.id.clone(),
                        message,
                    }
                    .line(),
                );
                queue.finish(None);
            }
            Err(Failure::Process(fault)) => {
                eprintln!(
                    "seat_pool: process {slot} (pid {}) failed on id={} ({}: {}); replaced",
                    running.pid(),
                    request.id,
                    fault.reason(),
                    fault.detail()
                );
                running.kill();
                engine = None;
                retry_or_fail(queue, output, request, failures, &fault);
            }
        }
    }
    if let Some(engine) = engine {
        engine.process.quit(Duration::from_secs(2));
    }
}

fn retry_or_fail(queue: &Queue, output: &Output, request: Request, failures: u32, fault: &Fault) {
    if failures + 1 < ATTEMPTS {
        queue.finish(Some((request, failures + 1)));
    } else {
        let message = format!(
            "engine failed {ATTEMPTS} times ({}: {})",
            fault.reason(),
            fault.detail()
        );
        answer(
            output,
            &Refusal {
                id: request.id.clone(),
                message,
            }
            .line(),
        );
        queue.finish(None);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests() {
        let request = parse_request(
            "id=7 game=annan AnnanDeadPiece=forbid level=5 seed=9 position startpos moves 7g7f go nodes 20000",
        )
        .unwrap();
        assert_eq!(request.id, "7");
        assert_eq!(request.game, "annan");
        assert_eq!(
            request.options,
            vec![
                ("AnnanDeadPiece".to_string(), "forbid".to_string()),
                ("Level".to_string(), "5".to_string()),
                ("Seed".to_string(), "9".to_string()),
            ]
        );
        assert_eq!(request.position, "position startpos moves 7g7f");
        assert_eq!(request.go, "go nodes 20000");
        let elo =
            parse_request("id=a game=hasami elo=1500 position startpos go byoyomi 1000").unwrap();
        assert_eq!(
            elo.options,
            vec![
                ("USI_LimitStrength".to_string(), "true".to_string()),
                ("USI_Elo".to_string(), "1500".to_string()),
            ]
        );
        let refused = |line: &str, id: &str, message: &str| {
            let refusal = parse_request(line).unwrap_err();
            assert_eq!(refusal.id, id, "{line}");
            assert!(refusal.message.contains(message), "{line}: {refusal:?}");
        };
        refused(
            "id=1 game=chess position startpos go nodes 1",
            "1",
            "unknown game",
        );
        refused("id=2 game=hasami go nodes 1", "2", "no 'position");
        refused("id=3 game=hasami position startpos", "3", "no 'go");
        refused(
            "id=4 game=hasami position startpos go",
            "4",
            "needs a limit",
        );
        refused(
            "id=5 game=hasami position startpos go infinite",
            "5",
            "not served",
        );
        refused("game=hasami position startpos go nodes 1", "?", "no id");
        refused("id=6 position startpos go nodes 1", "6", "no game");
        refused(
            "id=7 game=hasami level position startpos go nodes 1",
            "7",
            "key=value",
        );
        refused(
            "id=8 game=hasami colour=red position startpos go nodes 1",
            "8",
            "unknown key",
        );
        refused(
            "id=9 game=hasami Tune_X=1 position startpos go nodes 1",
            "9",
            "not served",
        );
        refused(
            "id=10 game=hasami USI_Variant=annan position startpos go nodes 1",
            "10",
            "game=",
        );
        assert_eq!(
            Refusal {
                id: "3".into(),
                message: "m".into()
            }
            .line(),
            "id=3 error m"
        );
    }

    #[test]
    fn announced_defaults() {
        let read = announced_default;
        assert_eq!(
            read("option name Level type spin default 26 min 0 max 26"),
            Some(("Level".into(), "26".into()))
        );
        assert_eq!(
            read("option name AnnanDeadPiece type combo default support var support var forbid"),
            Some(("AnnanDeadPiece".into(), "support".into()))
        );
        assert_eq!(
            read("option name SugorokuWeights type string default <empty>"),
            Some(("SugorokuWeights".into(), "<empty>".into()))
        );
        assert_eq!(
            read("option name USI_Variant type combo default hasami var hasami"),
            None
        );
        assert_eq!(read("usiok"), None);
    }
}
