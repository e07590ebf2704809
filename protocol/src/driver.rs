//! [`Protocol`]: owns the current game session, applies commands to it and runs
//! searches (and perft and bench) on a worker thread while the reading thread
//! goes on answering.
//!
//! While a job runs, the session lives on the worker thread; it comes back when
//! the job ends. The worker marks its result as delivered (under the output lock,
//! just before printing it), so a command sent in answer to a `bestmove` always
//! finds the session back in place.

use crate::command::{echo, Command, Go, GoClock, RecordCommand};
use crate::output::{
    bench_line, bench_total_line, bestmove_line, checkmate_line, divide_line, error_line,
    info_line, nps, review_end_line, review_line, status_words, Output,
};
use crate::record::{is_rule, rules_of, Record};
use crate::usi::{self, MAX_MOVES_TO_DRAW};
use std::any::Any;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::{self, JoinHandle};
use std::time::Duration;
use yomi_engine::clock::Instant;
use yomi_engine::core::options::MOVE_LIMIT;
use yomi_engine::core::OptionSpec;
use yomi_engine::registry::{self, new_session};
use yomi_engine::review::{self, PlyReview};
use yomi_engine::search::{Clock, Limits, SearchControl, SearchInfo};
use yomi_engine::session::{BestMove, GameSession, MateAnswer, HASH};

/// The game played until `USI_Variant` says otherwise.
pub const DEFAULT_GAME: &str = registry::NAMES[0];
/// The option that chooses the game, and its other accepted name.
pub const VARIANT_OPTION: &str = "USI_Variant";
pub const VARIANT_ALIAS: &str = "UCI_Variant";
/// How often a finished search held for `stop`/`ponderhit` looks again (it is
/// also woken at once).
const HOLD_POLL: Duration = Duration::from_millis(10);
/// Searches recurse: give the worker a roomy stack.
const WORKER_STACK: usize = 64 * 1024 * 1024;
/// How long past its own hard deadline a search may go unanswered before the
/// stand-in answers for it ([`stand_in`]).
const STAND_IN_GRACE: Duration = Duration::from_millis(5);
/// How often the stand-in looks for a deadline not yet planned (pondering, or
/// the search not yet started).
const STAND_IN_POLL: Duration = Duration::from_millis(50);

/// The refusal of a search only `stop` could end, in a [`Protocol::synchronous`].
const UNENDING_SEARCH: &str =
    "go: this build searches to its limits only (no stop can be read while it searches): \
     give depth, nodes, movetime or a clock";

/// Whether the loop goes on after a command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Quit,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum JobKind {
    /// `pondering`: a `go ponder` not yet answered by `ponderhit`; `bounded`: the
    /// limits end the search by themselves (not `infinite`, not limitless).
    Search {
        pondering: bool,
        bounded: bool,
    },
    /// `go mate`; `bounded`: it has a time or node limit.
    Mate {
        bounded: bool,
    },
    Perft,
    Bench,
    /// `review`: ends by itself; `stop` ends it after the move being searched.
    Review,
}

impl JobKind {
    /// Whether the job ends without `stop`, so that a command that needs the
    /// session may simply wait for it.
    fn ends_by_itself(self) -> bool {
        match self {
            JobKind::Search { pondering, bounded } => bounded && !pondering,
            JobKind::Mate { bounded } => bounded,
            JobKind::Perft | JobKind::Bench | JobKind::Review => true,
        }
    }
}

#[derive(Default)]
struct JobFlags {
    /// The job's last line is out (or suppressed): the session is about to come back.
    delivered: AtomicBool,
    /// Print nothing more (a search ended by `gameover`).
    discard: AtomicBool,
    /// The search has returned (its answer may still be held for `stop`/`ponderhit`).
    searched: AtomicBool,
}

/// What `d`, `status` and `moves` show while the session is away on the worker.
struct Snapshot {
    diagram: String,
    status: String,
    moves: Vec<String>,
}

struct Job {
    kind: JobKind,
    control: Arc<SearchControl>,
    flags: Arc<JobFlags>,
    handle: JoinHandle<WorkerResult>,
    snapshot: Snapshot,
}

impl Job {
    fn ends_by_itself(&self) -> bool {
        let answered = self.flags.searched.load(Ordering::SeqCst) && !self.control.waiting();
        self.kind.ends_by_itself() || answered
    }
}

struct WorkerResult {
    session: Box<dyn GameSession>,
    /// The session panicked and must be rebuilt.
    failed: bool,
}

/// The protocol's state: exactly one of `session` and `job` is present.
pub struct Protocol {
    out: Output,
    session: Option<Box<dyn GameSession>>,
    job: Option<Job>,
    game: &'static str,
    specs: Vec<OptionSpec>,
    /// Options set so far (name, value), replayed on a new session of another game.
    options: Vec<(String, String)>,
    /// The last `position` applied (`None`: the start position).
    position: (Option<String>, Vec<String>),
    /// When the command being applied arrived: `go` and `ponderhit` start the
    /// clock then, as the GUI's clock did.
    received: Instant,
    /// Jobs run on a worker thread while the reader goes on; `false`: on the
    /// caller's thread, to their limits, before the command returns
    /// ([`Protocol::synchronous`]).
    threaded: bool,
}

impl Protocol {
    pub fn new(out: Output) -> Self {
        let session = new_session(DEFAULT_GAME).expect("the default game is implemented");
        Protocol {
            out,
            game: session.game(),
            specs: session.option_specs(),
            session: Some(session),
            job: None,
            options: Vec::new(),
            position: (None, Vec::new()),
            received: Instant::now(),
            threaded: true,
        }
    }

    /// A protocol that starts no thread, for hosts without them (WebAssembly in
    /// a browser): `go`, `go mate`, `go perft` and `bench` run to their limits
    /// inside the command and print their answers before it returns. A search
    /// that only `stop` or `ponderhit` could end (`go infinite`, `go ponder`, a
    /// `go` or `go mate` without limits) is refused with one error line, since
    /// no `stop` could be read while it ran.
    pub fn synchronous(out: Output) -> Self {
        Protocol {
            threaded: false,
            ..Protocol::new(out)
        }
    }

    pub fn output(&self) -> &Output {
        &self.out
    }

    /// Parses and applies one input line; errors become one `info string error:` line.
    pub fn handle_line(&mut self, line: &str) -> Flow {
        self.handle_line_at(line, Instant::now())
    }

    /// [`Protocol::handle_line`] for a line that arrived at `received`.
    pub fn handle_line_at(&mut self, line: &str, received: Instant) -> Flow {
        match Command::parse(line) {
            Ok(None) => Flow::Continue,
            Ok(Some(command)) => self.handle_at(command, received),
            Err(e) => {
                self.out.error(&e.0);
                Flow::Continue
            }
        }
    }

    /// Applies a command. A panic inside the engine is reported, not propagated.
    pub fn handle(&mut self, command: Command) -> Flow {
        self.handle_at(command, Instant::now())
    }

    fn handle_at(&mut self, command: Command, received: Instant) -> Flow {
        self.received = received;
        let text = command.to_string();
        match catch_unwind(AssertUnwindSafe(|| self.apply(command))) {
            Ok(flow) => flow,
            Err(payload) => {
                self.out.error(&format!(
                    "internal error in '{}': {}",
                    echo(&text),
                    panic_message(&*payload)
                ));
                if self.session.is_none() && self.job.is_none() {
                    self.rebuild();
                }
                Flow::Continue
            }
        }
    }

    /// End of input: as `quit`, except that a running `go perft`, `bench` or
    /// `review` is waited for (`echo "go perft 5" | yomi` prints its count).
    pub fn finish(&mut self) {
        // A review, like perft and bench, is finished (`echo review … | yomi`).
        if !self
            .job
            .as_ref()
            .is_some_and(|job| job.kind == JobKind::Review)
        {
            self.quit();
        }
        self.reap(true);
    }

    fn apply(&mut self, command: Command) -> Flow {
        self.reap(false);
        if let Some(job) = &self.job {
            match command {
                Command::Usi
                | Command::IsReady
                | Command::Stop
                | Command::PonderHit(_)
                | Command::GameOver(_)
                | Command::Quit
                | Command::Display
                | Command::Status
                | Command::Moves => {}
                // The rest need the session: wait for a search that ends by
                // itself (its bestmove comes first); refuse while one waits for
                // `stop` or `ponderhit`, which could not be read while waiting.
                _ if job.ends_by_itself() => self.reap(true),
                _ => {
                    let word = command_word(&command);
                    self.out
                        .error(&format!("{word}: search in progress (send stop first)"));
                    return Flow::Continue;
                }
            }
        }
        match command {
            Command::Usi => self.usi(),
            Command::IsReady => {
                // Heavy initialisation belongs here, not to `usi`; during a search
                // the answer comes at once.
                if self.job.is_none() {
                    self.prepare("isready");
                }
                self.out.line("readyok")
            }
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            Command::UsiNewGame => {
                self.session_mut().new_game();
                self.position = (None, Vec::new());
            }
            Command::Position { sfen, moves } => {
                let list: Vec<&str> = moves.iter().map(String::as_str).collect();
                match self.session_mut().set_position(sfen.as_deref(), &list) {
                    Ok(()) => self.position = (sfen, moves),
                    Err(e) => self.out.error(&format!("position: {e}")),
                }
            }
            Command::Go(go) => self.go(go),
            Command::Mate { ms, nodes } => self.mate(ms, nodes),
            Command::Perft { depth } => self.perft(depth),
            Command::Bench { depth } => self.bench(depth),
            Command::Review {
                movetime,
                nodes,
                depth,
            } => self.review(Limits {
                movetime: movetime.map(Duration::from_millis),
                nodes,
                depth,
                ..Limits::default()
            }),
            Command::Record(RecordCommand::Load(text)) => self.load_record(&text),
            Command::Record(what) => {
                let record = self.record();
                match what {
                    RecordCommand::Usi => self.out.lines(record.protocol_lines()),
                    RecordCommand::Text { kanji } => {
                        self.out.lines(record.readable(self.session_ref(), kanji))
                    }
                    _ => self.out.line(&format!("record {}", record.line())),
                }
            }
            Command::Stop => self.stop(false),
            Command::PonderHit(clock) => {
                if let Some(job) = &mut self.job {
                    if let JobKind::Search {
                        pondering: true,
                        bounded,
                    } = job.kind
                    {
                        let clock = engine_clock(&clock);
                        job.kind = JobKind::Search {
                            pondering: false,
                            bounded: bounded || clock.is_some(),
                        };
                        job.control.ponderhit_at(clock, self.received);
                        job.handle.thread().unpark();
                    }
                }
            }
            Command::GameOver(_) => self.stop(true),
            Command::Quit => {
                self.quit();
                return Flow::Quit;
            }
            Command::Display => {
                let diagram = match &self.job {
                    Some(job) => job.snapshot.diagram.clone(),
                    None => self.session_ref().diagram(),
                };
                self.out.lines(diagram.lines());
            }
            Command::Status => {
                let status = match &self.job {
                    Some(job) => job.snapshot.status.clone(),
                    None => status_words(self.session_ref()),
                };
                self.out.line(&format!("status {status}"));
            }
            Command::Moves => {
                let moves = match &self.job {
                    Some(job) => job.snapshot.moves.clone(),
                    None => self.session_ref().legal_moves(),
                };
                self.out.lines(moves);
            }
        }
        Flow::Continue
    }

    /// Makes the session's tables (a new hash size); what cannot be had is
    /// reported and the previous table kept.
    fn prepare(&mut self, word: &str) {
        if let Err(e) = self.session_mut().prepare() {
            self.out.error(&format!("{word}: {e}"));
            // The size kept, not the one refused, carries over to another game.
            let kept = self.session_ref().hash_mb().to_string();
            // (the hash size option, whose refusal comes at `isready` or `go`)
            self.options
                .retain(|(name, _)| !name.eq_ignore_ascii_case(HASH));
            self.options.push((HASH.to_string(), kept));
        }
    }

    fn session_ref(&self) -> &dyn GameSession {
        self.session
            .as_deref()
            .expect("no job runs, so the session is here")
    }

    fn session_mut(&mut self) -> &mut Box<dyn GameSession> {
        self.session
            .as_mut()
            .expect("no job runs, so the session is here")
    }

    /// The `usi` answer: identity, options, `usiok`.
    pub fn usi_lines(&self) -> Vec<String> {
        let mut lines = vec![
            format!("id name Yomi {}", env!("CARGO_PKG_VERSION")),
            "id author the Yomi developers".to_string(),
            usi::option_line(&OptionSpec::combo(
                VARIANT_OPTION,
                DEFAULT_GAME,
                &registry::NAMES,
            )),
        ];
        for spec in &self.specs {
            lines.push(usi::option_line(spec));
            if spec.name == MOVE_LIMIT.name {
                lines.push(usi::option_line(&MAX_MOVES_TO_DRAW));
            }
        }
        lines.push("usiok".to_string());
        lines
    }

    fn usi(&self) {
        self.out.lines(self.usi_lines());
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        if name.eq_ignore_ascii_case(VARIANT_OPTION) || name.eq_ignore_ascii_case(VARIANT_ALIAS) {
            return self.switch_game(value.unwrap_or("").trim());
        }
        let value = value.unwrap_or("");
        match usi::set_option(&mut **self.session_mut(), name, value) {
            Ok(true) => {
                // Kept under the engine's name, which every session answers to.
                let name = usi::engine_name(name);
                self.options.retain(|(n, _)| !n.eq_ignore_ascii_case(name));
                self.options.push((name.to_string(), value.to_string()));
                // Some options change the list (ShowTunables).
                self.specs = self.session_ref().option_specs();
            }
            Ok(false) => self
                .out
                .error(&format!("setoption: unknown option '{}'", echo(name))),
            Err(e) => self.out.error(&format!("setoption: {e}")),
        }
    }

    fn switch_game(&mut self, game: &str) {
        if game.is_empty() {
            return self.out.error(&format!(
                "setoption: {VARIANT_OPTION} needs a value: one of {}",
                registry::NAMES.join(", ")
            ));
        }
        let mut session = match new_session(game) {
            Ok(session) => session,
            Err(e) => return self.out.error(&format!("setoption: {VARIANT_OPTION}: {e}")),
        };
        if session.game() != self.game {
            // Options the new game knows carry over (Threads, USI_Hash, MoveLimit, …);
            // its other tunables start from their defaults (the new session's).
            self.options.retain(|(name, value)| {
                matches!(usi::set_option(&mut *session, name, value), Ok(true))
            });
            self.game = session.game();
            self.specs = session.option_specs();
            self.session = Some(session);
            self.position = (None, Vec::new());
        }
        self.out.line(&format!("info string variant {}", self.game));
    }

    /// A fresh session of the current game with the options and position replayed
    /// (after a panic left the old one in doubt).
    fn rebuild(&mut self) {
        let mut session = new_session(self.game).expect("this game was created before");
        for (name, value) in &self.options {
            let _ = usi::set_option(&mut *session, name, value);
        }
        let (sfen, moves) = &self.position;
        let moves: Vec<&str> = moves.iter().map(String::as_str).collect();
        if session.set_position(sfen.as_deref(), &moves).is_err() {
            self.position = (None, Vec::new());
        }
        self.session = Some(session);
    }

    /// Takes the session back from a finished job; with `wait`, waits for it.
    fn reap(&mut self, wait: bool) {
        let Some(job) = &self.job else { return };
        if !(wait || job.flags.delivered.load(Ordering::SeqCst) || job.handle.is_finished()) {
            return;
        }
        let job = self.job.take().expect("checked above");
        match job.handle.join() {
            Ok(WorkerResult { session, failed }) => {
                self.session = Some(session);
                if failed {
                    self.rebuild();
                }
            }
            Err(payload) => {
                self.rebuild();
                let delivered = job.flags.delivered.load(Ordering::SeqCst);
                let discard = job.flags.discard.load(Ordering::SeqCst);
                if matches!(job.kind, JobKind::Mate { .. }) && !delivered && !discard {
                    self.out.lines([
                        error_line(&format!("mate search failed: {}", panic_message(&*payload))),
                        checkmate_line(&MateAnswer::Timeout),
                    ]);
                } else if matches!(job.kind, JobKind::Search { .. }) && !delivered && !discard {
                    let best = BestMove {
                        best: self.session_ref().legal_moves().into_iter().next(),
                        ponder: None,
                        ..BestMove::default()
                    };
                    self.out.lines([
                        error_line(&format!("search failed: {}", panic_message(&*payload))),
                        bestmove_line(&best, false),
                    ]);
                } else {
                    self.out
                        .error(&format!("worker failed: {}", panic_message(&*payload)));
                }
            }
        }
    }

    /// `stop` (or `gameover` with `discard`): ends a running search and waits for
    /// it. Perft and bench cannot be interrupted and go on.
    fn stop(&mut self, discard: bool) {
        let Some(job) = &self.job else { return };
        if !matches!(
            job.kind,
            JobKind::Search { .. } | JobKind::Mate { .. } | JobKind::Review
        ) {
            return;
        }
        if discard {
            job.flags.discard.store(true, Ordering::SeqCst);
        }
        job.control.stop();
        job.handle.thread().unpark();
        self.reap(true);
    }

    fn quit(&mut self) {
        // A search is stopped and answered; perft and bench are left to the end of
        // the process.
        self.stop(false);
    }

    /// Moves the session to a worker running `work`, whose lines are printed as
    /// one delivered block at the end.
    fn spawn(
        &mut self,
        kind: JobKind,
        control: SearchControl,
        work: impl FnOnce(&mut dyn GameSession, &SearchControl, &JobFlags, &Output) -> (Vec<String>, bool)
            + Send
            + 'static,
    ) {
        let mut session = self
            .session
            .take()
            .expect("no job runs, so the session is here");
        if !self.threaded {
            let flags = JobFlags::default();
            let (lines, failed) = work(&mut *session, &control, &flags, &self.out);
            self.out.lines(lines);
            self.session = Some(session);
            if failed {
                self.rebuild();
            }
            return;
        }
        let snapshot = Snapshot {
            diagram: session.diagram(),
            status: status_words(&*session),
            moves: session.legal_moves(),
        };
        let control = Arc::new(control);
        let flags = Arc::new(JobFlags::default());
        let (worker_control, worker_flags, out) =
            (control.clone(), flags.clone(), self.out.clone());
        let spawned = thread::Builder::new()
            .name("yomi-worker".to_string())
            .stack_size(WORKER_STACK)
            .spawn(move || {
                let (lines, failed) = work(&mut *session, &worker_control, &worker_flags, &out);
                let mut locked = out.lock();
                let answered = worker_flags.delivered.swap(true, Ordering::SeqCst);
                if !answered && !worker_flags.discard.load(Ordering::SeqCst) {
                    for line in &lines {
                        locked.line(line);
                    }
                }
                WorkerResult { session, failed }
            });
        match spawned {
            Ok(handle) => {
                self.job = Some(Job {
                    kind,
                    control,
                    flags,
                    handle,
                    snapshot,
                })
            }
            Err(e) => {
                // The session went down with the closure: start again from the replay.
                self.rebuild();
                self.out.error(&format!("cannot start a thread: {e}"));
                match kind {
                    JobKind::Search { .. } => {
                        let best = BestMove {
                            best: snapshot.moves.into_iter().next(),
                            ponder: None,
                            ..BestMove::default()
                        };
                        self.out.line(&bestmove_line(&best, false));
                    }
                    JobKind::Mate { .. } => self.out.line(&checkmate_line(&MateAnswer::Timeout)),
                    JobKind::Perft | JobKind::Bench | JobKind::Review => {}
                }
            }
        }
    }

    fn go(&mut self, go: Go) {
        let limits = limits(&go);
        if let Some(refusal) = self.session_ref().search_refusal(&limits) {
            self.out
                .error(&format!("go: {}", usi::refusal_text(&refusal)));
            return;
        }
        let bounded = !limits.infinite
            && (limits.depth.is_some()
                || limits.nodes.is_some()
                || limits.movetime.is_some()
                || limits.clock.is_some());
        if !self.threaded && (go.ponder || !bounded) {
            return self.out.error(UNENDING_SEARCH);
        }
        self.prepare("go");
        // In `go infinite` and `go ponder` the answer waits for `stop` / `ponderhit`.
        let control = SearchControl::started_at(go.infinite || go.ponder, self.received);
        let timed = limits.movetime.is_some() || limits.clock.is_some() || go.ponder;
        let ponder_enabled = self.session_ref().ponder_enabled();
        // The first two moves of the last first line shown: the stand-in's answer.
        let shown = Arc::new(Mutex::new(None::<BestMove>));
        let shown_by_search = shown.clone();
        self.spawn(
            JobKind::Search {
                pondering: go.ponder,
                bounded,
            },
            control,
            move |session, control, flags, out| {
                let mut report = |info: &SearchInfo<String>| {
                    let mut locked = out.lock();
                    // Nothing after a bestmove the stand-in gave.
                    if flags.delivered.load(Ordering::SeqCst) {
                        return;
                    }
                    if info.multipv <= 1 {
                        if let Some(first) = info.pv.first() {
                            *shown_by_search.lock().unwrap_or_else(|e| e.into_inner()) =
                                Some(BestMove {
                                    best: Some(first.clone()),
                                    ponder: info.pv.get(1).cloned(),
                                    ..BestMove::default()
                                });
                        }
                    }
                    locked.line(&info_line(info));
                };
                let searched = catch_unwind(AssertUnwindSafe(|| {
                    session.search(&limits, control, &mut report)
                }));
                let mut lines = Vec::new();
                let best = match searched {
                    Ok(best) => best,
                    Err(payload) => {
                        lines.push(error_line(&format!(
                            "search failed: {}; playing the first legal move",
                            panic_message(&*payload)
                        )));
                        let first = catch_unwind(AssertUnwindSafe(|| {
                            session.legal_moves().into_iter().next()
                        }));
                        BestMove {
                            best: first.ok().flatten(),
                            ponder: None,
                            ..BestMove::default()
                        }
                    }
                };
                flags.searched.store(true, Ordering::SeqCst);
                while control.waiting() && !control.stopped() {
                    thread::park_timeout(HOLD_POLL);
                }
                let failed = !lines.is_empty();
                // Why the move differs from the search's, if it does.
                lines.extend(best.notes.iter().map(|note| format!("info string {note}")));
                lines.push(bestmove_line(&best, session.ponder_enabled()));
                (lines, failed)
            },
        );
        if let Some(job) = self.job.as_ref().filter(|_| timed) {
            let (control, flags, out) = (job.control.clone(), job.flags.clone(), self.out.clone());
            let first_legal = job.snapshot.moves.first().cloned();
            // Without a thread the search still answers, only without a stand-in.
            let _ = thread::Builder::new()
                .name("yomi-stand-in".to_string())
                .spawn(move || {
                    stand_in(&control, &flags, &out, &shown, first_legal, ponder_enabled)
                });
        }
    }

    /// `go mate`: always answered by one `checkmate …` line.
    fn mate(&mut self, ms: Option<u64>, nodes: Option<u64>) {
        if !self.session_ref().has_mate_solver() {
            return self.out.line(&checkmate_line(&MateAnswer::NotImplemented));
        }
        let limits = Limits {
            movetime: ms.map(Duration::from_millis),
            nodes,
            infinite: ms.is_none() && nodes.is_none(),
            ..Limits::default()
        };
        if !self.threaded && limits.infinite {
            return self.out.error(UNENDING_SEARCH);
        }
        self.prepare("go mate");
        self.spawn(
            JobKind::Mate {
                bounded: !limits.infinite,
            },
            SearchControl::new(false),
            move |session, control, flags, _| {
                let answer = catch_unwind(AssertUnwindSafe(|| session.mate(&limits, control)));
                flags.searched.store(true, Ordering::SeqCst);
                match answer {
                    Ok(answer) => (vec![checkmate_line(&answer)], false),
                    Err(payload) => (
                        vec![
                            error_line(&format!(
                                "mate search failed: {}",
                                panic_message(&*payload)
                            )),
                            checkmate_line(&MateAnswer::Timeout),
                        ],
                        true,
                    ),
                }
            },
        );
    }

    /// `review`: the game of the last `position`, a `review ply …` line per
    /// move as it is judged, then `review end …`.
    fn review(&mut self, limits: Limits) {
        self.prepare("review");
        let (sfen, moves) = self.position.clone();
        self.spawn(
            JobKind::Review,
            SearchControl::new(false),
            move |session, control, flags, out| {
                let moves: Vec<&str> = moves.iter().map(String::as_str).collect();
                let scale = session.review_scale();
                let mut each = |review: &PlyReview, _: usize, _: usize| {
                    if !flags.discard.load(Ordering::SeqCst) {
                        out.line(&review_line(review, &scale));
                    }
                    !control.stopped()
                };
                let reviewed = catch_unwind(AssertUnwindSafe(|| {
                    review::review(session, sfen.as_deref(), &moves, &limits, &mut each)
                }));
                flags.searched.store(true, Ordering::SeqCst);
                match reviewed {
                    Ok(Ok(reviews)) => (vec![review_end_line(&reviews, control.stopped())], false),
                    Ok(Err(e)) => (vec![error_line(&format!("review: {e}"))], false),
                    Err(payload) => (
                        vec![error_line(&format!(
                            "review failed: {}",
                            panic_message(&*payload)
                        ))],
                        true,
                    ),
                }
            },
        );
    }

    /// The game as it stands: the game, the house rules set, the last `position`.
    fn record(&self) -> Record {
        Record {
            game: self.game.to_string(),
            rules: rules_of(self.session_ref(), &self.options),
            sfen: self.position.0.clone(),
            moves: self.position.1.clone(),
        }
    }

    /// `record load`: the game, its house rules (the others at their
    /// defaults) and its position from a record, all or nothing; the engine
    /// options carry over.
    fn load_record(&mut self, text: &str) {
        let record = match Record::parse(text) {
            Ok(record) => record,
            Err(e) => return self.out.error(&format!("record load: {e}")),
        };
        let current = self.session_ref();
        let engine_options: Vec<(String, String)> = self
            .options
            .iter()
            .filter(|(name, _)| !is_rule(current, name))
            .cloned()
            .collect();
        let mut session = match record.session(&engine_options) {
            Ok(session) => session,
            Err(e) => return self.out.error(&format!("record load: {e}")),
        };
        // As at a switch of game, a new session's tunables start from their
        // defaults, then take the options the new game knows.
        let switched = session.game() != self.game;
        let mut options: Vec<(String, String)> = engine_options
            .into_iter()
            .filter(|(name, value)| matches!(usi::set_option(&mut *session, name, value), Ok(true)))
            .collect();
        options.extend(record.rules);
        self.options = options;
        self.game = session.game();
        self.specs = session.option_specs();
        self.session = Some(session);
        self.position = (record.sfen, record.moves);
        if switched {
            self.out.line(&format!("info string variant {}", self.game));
        }
    }

    fn perft(&mut self, depth: u32) {
        self.spawn(
            JobKind::Perft,
            SearchControl::new(false),
            move |session, _, _, _| {
                let started = Instant::now();
                let (divide, total) = session.perft(depth);
                let elapsed = started.elapsed();
                let mut lines: Vec<String> =
                    divide.iter().map(|(mv, n)| divide_line(mv, *n)).collect();
                lines.push(format!(
                    "perft depth {depth} nodes {total} time {} nps {}",
                    elapsed.as_millis(),
                    nps(total, elapsed)
                ));
                (lines, false)
            },
        );
    }

    fn bench(&mut self, depth: Option<u32>) {
        self.spawn(
            JobKind::Bench,
            SearchControl::new(false),
            move |session, _, _, _| {
                let report = session.bench(depth);
                (
                    vec![
                        bench_line(session.game(), &report),
                        bench_total_line([&report]),
                    ],
                    false,
                )
            },
        );
    }
}

/// `go` parameters as engine limits: seat 0 is `b`, seat 1 is `w`. While
/// pondering the limits are the real ones; the control's waiting flag keeps the
/// time manager from stopping the search until `ponderhit`.
/// Answers for a timed search that has not answered [`STAND_IN_GRACE`] after
/// its own hard deadline, with the move of its last `info` line and the reply
/// after it (or the first legal move if none was shown), and stops it. On a machine with too little
/// CPU the search thread, having used its share, may wait long for a core; a
/// sleeping thread that wakes is let run at once.
fn stand_in(
    control: &SearchControl,
    flags: &JobFlags,
    out: &Output,
    shown: &Mutex<Option<BestMove>>,
    first_legal: Option<String>,
    ponder_enabled: bool,
) {
    loop {
        if flags.delivered.load(Ordering::SeqCst) || flags.discard.load(Ordering::SeqCst) {
            return;
        }
        let now = Instant::now();
        match control.deadline().map(|deadline| deadline + STAND_IN_GRACE) {
            Some(due) if now >= due => break,
            Some(due) => thread::sleep((due - now).min(STAND_IN_POLL)),
            None => thread::sleep(STAND_IN_POLL),
        }
    }
    let last_shown = shown.lock().unwrap_or_else(|e| e.into_inner()).clone();
    let Some(answer) = last_shown.or(first_legal.map(|best| BestMove {
        best: Some(best),
        ponder: None,
        ..BestMove::default()
    })) else {
        return;
    };
    let mut locked = out.lock();
    if flags.delivered.swap(true, Ordering::SeqCst) || flags.discard.load(Ordering::SeqCst) {
        return;
    }
    // For the operator's logs: the machine is too busy for this clock.
    locked.line("info string the search overran its deadline: the last line's move is played");
    locked.line(&bestmove_line(&answer, ponder_enabled));
    drop(locked);
    control.stop();
}

pub fn limits(go: &Go) -> Limits {
    Limits {
        depth: go.depth,
        nodes: go.nodes,
        movetime: go.movetime.map(Duration::from_millis),
        clock: engine_clock(&go.clock),
        infinite: go.infinite,
        searchmoves: go.searchmoves.clone(),
    }
}

/// The clock fields as the engine's clock; `None` when none was given.
pub fn engine_clock(clock: &GoClock) -> Option<Clock> {
    let ms = Duration::from_millis;
    clock.is_set().then(|| Clock {
        time_left: clock.time.map(|t| t.map(ms)),
        increment: clock.inc.map(|i| ms(i.unwrap_or(0))),
        byoyomi: ms(clock.byoyomi.unwrap_or(0)),
    })
}

fn command_word(command: &Command) -> String {
    let text = command.to_string();
    let mut words = text.split(' ');
    match (words.next(), words.next()) {
        (Some("go"), Some("perft")) => "go perft".to_string(),
        (Some(word), _) => word.to_string(),
        _ => text,
    }
}

fn panic_message(payload: &(dyn Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "panic".to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;
    use yomi_engine::core::{PerSeat, Seat};

    /// An in-memory output whose lines the test can take.
    #[derive(Clone, Default)]
    struct Sink(Arc<Mutex<Vec<u8>>>);

    impl Write for Sink {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    impl Sink {
        fn take(&self) -> Vec<String> {
            let bytes = std::mem::take(&mut *self.0.lock().unwrap());
            String::from_utf8(bytes)
                .unwrap()
                .lines()
                .map(str::to_string)
                .collect()
        }
    }

    fn protocol() -> (Protocol, Sink) {
        let sink = Sink::default();
        (Protocol::new(Output::new(sink.clone())), sink)
    }

    #[test]
    fn the_stand_in_answers_once_for_a_search_past_its_deadline() {
        let sink = Sink::default();
        let out = Output::new(sink.clone());
        let control = SearchControl::new(false);
        let flags = JobFlags::default();
        let shown = Mutex::new(Some(BestMove {
            best: Some("7g7f".to_string()),
            ponder: Some("3c3d".to_string()),
            ..BestMove::default()
        }));
        control.publish_deadline(Some(Instant::now() + Duration::from_millis(20)));
        let started = Instant::now();
        stand_in(
            &control,
            &flags,
            &out,
            &shown,
            Some("1g1f".to_string()),
            true,
        );
        assert!(started.elapsed() >= Duration::from_millis(20) + STAND_IN_GRACE);
        let lines = sink.take();
        assert_eq!(
            lines.last().map(String::as_str),
            Some("bestmove 7g7f ponder 3c3d"),
            "{lines:?}"
        );
        assert_eq!(lines.len(), 2, "one info string before it: {lines:?}");
        assert!(control.stopped() && flags.delivered.load(Ordering::SeqCst));
        // The search's own answer, delivered first, is the only one.
        let control = SearchControl::new(false);
        control.publish_deadline(Some(Instant::now()));
        stand_in(&control, &flags, &out, &shown, None, false);
        assert!(sink.take().is_empty() && !control.stopped());
        // Nothing shown yet: the first legal move.
        let flags = JobFlags::default();
        stand_in(
            &control,
            &flags,
            &out,
            &Mutex::new(None),
            Some("1g1f".to_string()),
            true,
        );
        assert_eq!(
            sink.take().last().map(String::as_str),
            Some("bestmove 1g1f")
        );
    }

    #[test]
    fn a_search_answers_once_with_the_stand_in_beside_it() {
        let (mut protocol, sink) = protocol();
        let mut lines = Vec::new();
        for _ in 0..10 {
            protocol.handle_line("position startpos");
            protocol.handle_line("go movetime 30");
            while !lines
                .last()
                .is_some_and(|l: &String| l.starts_with("bestmove"))
            {
                thread::sleep(Duration::from_millis(5));
                lines.extend(sink.take());
            }
            // Time for a second answer, were one to come.
            thread::sleep(Duration::from_millis(30));
            lines.extend(sink.take());
        }
        let answers = lines.iter().filter(|l| l.starts_with("bestmove")).count();
        assert_eq!(answers, 10, "{lines:?}");
        assert!(lines.last().unwrap().starts_with("bestmove"), "{lines:?}");
    }

    #[test]
    fn usi_announces_the_variant_and_the_move_limit_alias() {
        let (protocol, _) = protocol();
        let lines = protocol.usi_lines();
        assert!(lines[0].starts_with("id name Yomi ") && lines[0].is_ascii());
        assert_eq!(lines[2], "option name USI_Variant type combo default hasami var hasami var annan var yonin var sugoroku");
        let limit = lines
            .iter()
            .position(|l| l.starts_with("option name MoveLimit "))
            .unwrap();
        assert!(lines[limit + 1].starts_with("option name MaxMovesToDraw type spin default 0 "));
        assert_eq!(lines.last().unwrap(), "usiok");
    }

    #[test]
    fn go_maps_to_limits_with_seat_0_as_b() {
        let go = Go {
            clock: GoClock {
                time: PerSeat::new([Some(1_000), Some(2_000), None, None]),
                inc: PerSeat::new([Some(10), Some(20), None, None]),
                byoyomi: Some(300),
            },
            depth: Some(4),
            ..Go::default()
        };
        let limits = limits(&go);
        let clock = limits.clock.unwrap();
        assert_eq!(
            clock.time_left[Seat::FIRST],
            Some(Duration::from_millis(1_000))
        );
        assert_eq!(
            clock.time_left[Seat::SECOND],
            Some(Duration::from_millis(2_000))
        );
        assert_eq!(clock.time_left[Seat::new(2)], None);
        assert_eq!(
            [clock.increment[Seat::FIRST], clock.increment[Seat::SECOND]],
            [Duration::from_millis(10), Duration::from_millis(20)]
        );
        assert_eq!(clock.byoyomi, Duration::from_millis(300));
        assert_eq!(limits.depth, Some(4));
        assert!(!limits.infinite);
        let infinite = limits_of("go infinite");
        assert!(infinite.infinite && infinite.clock.is_none());
        assert_eq!(
            limits_of("go movetime 50").movetime,
            Some(Duration::from_millis(50))
        );
        assert_eq!(limits_of("go nodes 7").nodes, Some(7));
        let four = limits_of("go time0 1 time1 2 time2 3 time3 4 inc3 5")
            .clock
            .unwrap();
        assert_eq!(four.time_left[Seat::new(3)], Some(Duration::from_millis(4)));
        assert_eq!(four.increment[Seat::new(3)], Duration::from_millis(5));
        // Pondering searches with the real clock; the control holds the answer.
        let ponder = limits_of("go ponder byoyomi 100");
        assert!(!ponder.infinite && ponder.clock.is_some());
    }

    fn limits_of(line: &str) -> Limits {
        match Command::parse(line) {
            Ok(Some(Command::Go(go))) => limits(&go),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn errors_are_single_lines_and_state_stays() {
        let (mut protocol, sink) = protocol();
        protocol.handle_line("position startpos moves 9i9h");
        protocol.handle_line("status");
        let before = sink.take();
        for bad in [
            "position startpos moves 1i1a",
            "setoption name Threads value 999",
            "go depth x",
            "nonsense",
        ] {
            assert_eq!(protocol.handle_line(bad), Flow::Continue);
            let lines = sink.take();
            assert_eq!(lines.len(), 1, "{bad}: {lines:?}");
            assert!(
                lines[0].starts_with("info string error: "),
                "{bad}: {lines:?}"
            );
            protocol.handle_line("status");
            assert_eq!(sink.take(), before, "{bad}");
        }
    }

    #[test]
    fn a_search_is_held_until_stop_and_then_answered() {
        let (mut protocol, sink) = protocol();
        protocol.handle_line("go infinite");
        std::thread::sleep(Duration::from_millis(50));
        assert!(sink.take().iter().all(|l| l.starts_with("info ")));
        protocol.handle_line("stop");
        let lines = sink.take();
        assert!(lines.last().unwrap().starts_with("bestmove "), "{lines:?}");
        assert_eq!(protocol.handle_line("quit"), Flow::Quit);
    }

    #[test]
    fn a_synchronous_protocol_answers_before_the_command_returns() {
        let sink = Sink::default();
        let mut protocol = Protocol::synchronous(Output::new(sink.clone()));
        protocol.handle_line("position startpos moves 9i9h");
        protocol.handle_line("go depth 2");
        let lines = sink.take();
        assert!(lines.last().unwrap().starts_with("bestmove "), "{lines:?}");
        assert!(lines[..lines.len() - 1]
            .iter()
            .all(|l| l.starts_with("info depth ")));
        let started = Instant::now();
        protocol.handle_line("go movetime 50");
        assert!(started.elapsed() < Duration::from_millis(500));
        assert!(sink.take().last().unwrap().starts_with("bestmove "));
        protocol.handle_line("go perft 2");
        assert!(sink
            .take()
            .last()
            .unwrap()
            .starts_with("perft depth 2 nodes "));
        protocol.handle_line("status");
        let status = sink.take();
        // Searches only stop could end are refused, in one line, state kept.
        for unending in ["go infinite", "go", "go ponder movetime 10"] {
            protocol.handle_line(unending);
            let lines = sink.take();
            assert_eq!(lines.len(), 1, "{unending}: {lines:?}");
            assert!(
                lines[0].starts_with("info string error: go: this build searches to its limits")
            );
            protocol.handle_line("status");
            assert_eq!(sink.take(), status, "{unending}");
        }
        protocol.handle_line("stop");
        assert!(sink.take().is_empty());
        protocol.handle_line("setoption name USI_Variant value annan");
        sink.take();
        protocol.handle_line("go mate infinite");
        let lines = sink.take();
        assert!(
            lines.len() == 1 && lines[0].starts_with("info string error: go: "),
            "{lines:?}"
        );
        protocol.handle_line("go mate 20");
        assert!(sink.take().last().unwrap().starts_with("checkmate "));
    }

    #[test]
    fn gameover_drops_the_answer() {
        let (mut protocol, sink) = protocol();
        protocol.handle_line("go ponder");
        protocol.handle_line("gameover draw");
        assert!(sink.take().iter().all(|l| !l.starts_with("bestmove")));
        protocol.handle_line("go depth 1");
        // A command that needs the session waits for a bounded search.
        protocol.handle_line("usinewgame");
        let lines = sink.take();
        assert!(lines.last().unwrap().starts_with("bestmove "), "{lines:?}");
    }
}
