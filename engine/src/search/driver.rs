//! The skeleton every searcher shares: iterative deepening on the main thread,
//! Lazy SMP helpers beside it, the root moves and their lines, the reports and
//! the answer. A searcher says only what one iteration does ([`Iterate`]).
//!
//! - **Main thread**: iterations 1, 2, … up to the depth limit, none started
//!   after the soft time limit; after each completed one the root's table entry
//!   is stored and every line (MultiPV) reported. A mate (or a decided place)
//!   within the searched depth ends it, and so does a forced move when only the
//!   clock limits the search.
//! - **Helpers** ([`helper_lead`]): the same iterations with one line, level
//!   with the main thread or one depth ahead. A helper that completes the
//!   target depth first (with one line asked) ends the search, and the main
//!   thread adopts its line as the answer.
//! - **The answer**: the best line of the last completed iteration, or what
//!   an interrupted one settled (the chance searcher: the first move's value
//!   at that depth, or a move proven better there; reported as its line);
//!   before any, the first root move of the initial order (TT move, then the
//!   one-ply rating), its score that rating, at depth 0: no line searched.

use super::budget::{Budget, NodeCounter};
use super::smp::{beside_helpers, helper_lead, BusyMoves};
use super::tables::Scratch;
use super::tt::TranspositionTable;
use super::tt::{Bound, TtEntry};
use super::{
    Game, Limits, MoveList, RootChoice, Score, SearchControl, SearchInfo, SearchResult, Value,
    INFINITE, MATE, MATE_BOUND,
};
use crate::core::PerSeat;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Mutex;
use std::time::Duration;

/// Deepest iteration any searcher goes to (depths are stored in a byte).
pub const MAX_DEPTH: u32 = 64;
/// How often a held answer looks for `stop` or `ponderhit`.
const WAIT_POLL: Duration = Duration::from_millis(1);

/// One root move and what the iterations made of it.
#[derive(Clone, Debug)]
pub struct RootMove<M> {
    pub mv: M,
    /// Its index in the root's generated move list (what the TT stores).
    pub index: u16,
    /// This iteration's score; `-INFINITE` until searched, or when it failed
    /// low (the chance searcher keeps the bound).
    pub score: Value,
    pub previous_score: Value,
    /// Its static value after the move (the first order's rating), as
    /// reported: the answer's score before any iteration completes.
    pub rating: Value,
    /// Max-n: the vector of shares `score` is one component of.
    pub shares: PerSeat<Value>,
    pub pv: Vec<M>,
}

/// A helper's line at the target depth, completed before the main thread's.
struct Finished<M> {
    depth: u32,
    seldepth: u32,
    line: RootMove<M>,
}

/// What every thread of one search reads.
pub struct Shared<'a, M> {
    pub tt: &'a TranspositionTable,
    /// The threads' working memory, kept from one search to the next.
    pub scratch: &'a Scratch,
    pub budget: Budget<'a>,
    pub max_depth: i32,
    /// The root's ply: positions repeated since are draws.
    pub root_ply: u32,
    /// The main thread's last completed depth (helpers keep ahead of it).
    pub main_depth: AtomicU32,
    pub busy: BusyMoves,
    pub multipv: usize,
    pub root_choice: RootChoice<M>,
    /// Only the clock limits the search (a forced move is then played at once).
    clock_only: bool,
    /// `go infinite`: the answer waits for `stop`.
    infinite: bool,
    finished: Mutex<Option<Finished<M>>>,
}

impl<M> Shared<'_, M> {
    /// Only the clock limits the search: a move that alone is worth a
    /// search may be played at once.
    pub fn clock_only(&self) -> bool {
        self.clock_only
    }
}

impl<'a, M: Copy + Eq> Shared<'a, M> {
    pub fn new<G: Game<Move = M>>(
        tt: &'a TranspositionTable,
        scratch: &'a Scratch,
        pos: &G,
        limits: &Limits<M>,
        control: &'a SearchControl,
        config: &super::SearchConfig,
    ) -> Self {
        Shared {
            tt,
            scratch,
            budget: Budget::new(
                limits,
                control,
                pos.side_to_move(),
                config.time_margin_ms,
                &config.time,
            ),
            max_depth: limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH) as i32,
            root_ply: pos.ply(),
            main_depth: AtomicU32::new(0),
            busy: BusyMoves::new(config.threads, scratch),
            multipv: config.multipv.max(1),
            root_choice: RootChoice::new(limits),
            clock_only: limits.depth.is_none() && limits.nodes.is_none() && !limits.infinite,
            infinite: limits.infinite,
            finished: Mutex::new(None),
        }
    }
}

impl<M> Drop for Shared<'_, M> {
    fn drop(&mut self) {
        self.busy.give_back(self.scratch);
    }
}

/// A search thread's part of the skeleton: its root moves and its counters.
pub struct Thread<'a, M> {
    /// 0 for the main thread.
    pub id: usize,
    pub shared: &'a Shared<'a, M>,
    pub root_moves: Vec<RootMove<M>>,
    pub counter: NodeCounter,
    pub seldepth: usize,
    pub completed_depth: u32,
    /// Set when the search must unwind (stopped, out of time or nodes).
    pub stop: bool,
}

impl<'a, M: Copy + Eq> Thread<'a, M> {
    /// Thread `id`; the main thread enforces the node and time limits, helpers
    /// follow the stop flags (unless `every_thread_enforces`).
    pub fn new(id: usize, shared: &'a Shared<'a, M>, every_thread_enforces: bool) -> Self {
        Thread {
            id,
            shared,
            root_moves: Vec::new(),
            counter: NodeCounter::new(&shared.budget, id == 0 || every_thread_enforces),
            seldepth: 0,
            completed_depth: 0,
            stop: false,
        }
    }

    #[inline]
    pub fn count_node(&mut self) {
        if self.counter.count(&self.shared.budget) {
            self.stop = true;
        }
    }

    /// A node entered: counted; `true` when the search must unwind.
    #[inline]
    pub fn enter_node(&mut self) -> bool {
        self.count_node();
        self.stop
    }

    pub fn settle_nodes(&mut self) -> u64 {
        self.counter.settle(&self.shared.budget)
    }

    pub fn should_stop(&self) -> bool {
        self.stop || self.shared.budget.stopping()
    }

    /// Root lines searched exactly: MultiPV on the main thread, one on helpers.
    pub fn lines(&self) -> usize {
        let wanted = if self.id == 0 { self.shared.multipv } else { 1 };
        wanted.clamp(1, self.root_moves.len().max(1))
    }

    /// The `lines`-th best score of this iteration so far (the root moves not
    /// yet searched are `-INFINITE`): below it a root move is of no interest.
    pub fn line_bound(&self) -> Value {
        let mut scores: Vec<Value> = self.root_moves.iter().map(|m| m.score).collect();
        scores.sort_unstable_by(|a, b| b.cmp(a));
        scores[self.lines() - 1]
    }

    /// Stores the root's entry keyed `key` after a completed iteration to
    /// `depth`: the best line's move, `value` as `bound`.
    pub fn store_root(
        &self,
        tt: &TranspositionTable,
        key: u64,
        depth: i32,
        value: Value,
        bound: Bound,
    ) {
        let index = Some(self.root_moves[0].index as usize);
        tt.store(key, TtEntry::of_node(value, 0, depth, bound, index));
    }

    /// Root move `k`'s line: `mv`, then the line below it in a triangular PV
    /// table (`child_line`, from ply 1).
    pub fn record_line(&mut self, k: usize, score: Value, child_line: &[M]) {
        let line = &mut self.root_moves[k];
        line.score = score;
        line.pv.clear();
        line.pv.push(line.mv);
        line.pv.extend_from_slice(child_line);
    }
}

/// The root moves in a first order that is also the fallback answer: the TT
/// move, then by `rate` (the one-ply value for the root's side), best first,
/// ties in generation order; only those `searchmoves` allows.
pub fn rate_root_moves<M: Copy + Eq + Default>(
    moves: &MoveList<M>,
    tt_move: Option<u16>,
    choice: &RootChoice<M>,
    mut rate: impl FnMut(M) -> Value,
) -> Vec<RootMove<M>> {
    let mut rated: Vec<(bool, Value, usize)> = moves
        .iter()
        .enumerate()
        .filter(|&(_, &mv)| choice.allows(mv))
        .map(|(index, &mv)| (tt_move == Some(index as u16), rate(mv), index))
        .collect();
    rated.sort_by_key(|&(first, value, _)| std::cmp::Reverse((first, value)));
    rated
        .into_iter()
        .map(|(_, rating, index)| RootMove {
            mv: moves[index],
            index: index as u16,
            score: -INFINITE,
            previous_score: -INFINITE,
            rating,
            shares: PerSeat::splat(0),
            pv: Vec::new(),
        })
        .collect()
}

/// What a searcher does per iteration; the driver does the rest.
pub trait Iterate<'a> {
    type Move: Copy + Eq + Send + Sync + 'a;
    fn thread(&self) -> &Thread<'a, Self::Move>;
    fn thread_mut(&mut self) -> &mut Thread<'a, Self::Move>;
    /// Searches every root move to `depth`, the best `lines` of them exactly,
    /// and leaves the root moves best first (their scores reset to
    /// `-INFINITE` before). Sets `thread().stop` when interrupted; then the
    /// first root move is the answer (its score `-INFINITE` unless proven).
    fn iterate(&mut self, depth: i32, lines: usize);
    /// Stores the root's entry after a completed iteration to `depth`.
    fn store_root(&self, depth: i32);
    /// The value of a root score as reported (max-n maps a share back).
    fn reported_value(&self, score: Value) -> Value {
        score
    }
    /// The whole score vector of a line, where the searcher has one.
    fn reported_scores(&self, line: &RootMove<Self::Move>) -> Option<PerSeat<Value>> {
        let _ = line;
        None
    }
    /// A value as a reported score (centipawns and mates, or points).
    fn score(value: Value) -> Score {
        Score::from_value(value)
    }
    /// After an interrupted iteration (one line asked): whether it settled
    /// the first root move's line at its depth, to be reported.
    fn settled(&self) -> bool {
        false
    }
    /// The root's value when it has no move to search.
    fn no_move_value(&self) -> Value;
}

/// Runs the search: the main thread's iterations beside `threads - 1` helpers
/// made by `new_worker(id)` on `pool`; returns the answer, held back while
/// pondering or in `go infinite` until `stop` or `ponderhit`.
pub fn run<'a, W: Iterate<'a>>(
    shared: &'a Shared<'a, W::Move>,
    pool: Option<&rayon::ThreadPool>,
    threads: usize,
    new_worker: impl Fn(usize) -> W + Sync,
    report: &mut dyn FnMut(&SearchInfo<W::Move>),
) -> SearchResult<W::Move> {
    let mut main = new_worker(0);
    if !main.thread().root_moves.is_empty() {
        beside_helpers(
            pool,
            threads,
            &shared.budget,
            |id| run_helper(&mut new_worker(id)),
            || run_main(&mut main, report),
        );
        adopt_finished(&mut main, report);
    }
    shared.budget.abort();
    main.thread_mut().counter.finish(&shared.budget);
    hold_answer(shared);
    result(&main)
}

/// `go infinite` and pondering never answer before `stop` / `ponderhit`: a
/// search that finished early waits here.
fn hold_answer<M>(shared: &Shared<'_, M>) {
    let control = shared.budget.control;
    let unlimited = shared.infinite && shared.budget.time.hard_limit().is_none();
    while !control.stopped() && (control.waiting() || unlimited) {
        std::thread::sleep(WAIT_POLL);
    }
}

fn start_iteration<M>(root_moves: &mut [RootMove<M>]) {
    for line in root_moves {
        line.previous_score = line.score;
        line.score = -INFINITE;
    }
}

/// Iterative deepening on the main thread, reporting each completed iteration.
fn run_main<'a, W: Iterate<'a>>(worker: &mut W, report: &mut dyn FnMut(&SearchInfo<W::Move>)) {
    let shared = worker.thread().shared;
    let lines = worker.thread().lines();
    let forced = worker.thread().root_moves.len() == 1 && shared.clock_only;
    for depth in 1..=shared.max_depth {
        if worker.thread().should_stop() || (depth > 1 && shared.budget.soft_expired()) {
            break;
        }
        let thread = worker.thread_mut();
        thread.seldepth = 0;
        start_iteration(&mut thread.root_moves);
        worker.iterate(depth, lines);
        if worker.thread().stop {
            if lines == 1 && worker.settled() {
                worker.thread_mut().settle_nodes();
                let thread = worker.thread();
                let line = &thread.root_moves[0];
                report(&info(worker, depth as u32, thread.seldepth as u32, 1, line));
            }
            break;
        }
        worker.thread_mut().completed_depth = depth as u32;
        shared.main_depth.store(depth as u32, Ordering::Relaxed);
        worker.store_root(depth);
        worker.thread_mut().settle_nodes();
        let thread = worker.thread();
        for (k, line) in thread.root_moves[..lines].iter().enumerate() {
            report(&info(
                worker,
                depth as u32,
                thread.seldepth as u32,
                k + 1,
                line,
            ));
        }
        // A mate found within the searched depth is exact: deeper search changes nothing.
        let best = worker.reported_value(thread.root_moves[0].score);
        if forced || (lines == 1 && best.abs() >= MATE_BOUND && MATE - best.abs() <= depth) {
            break;
        }
    }
}

fn info<'a, W: Iterate<'a>>(
    worker: &W,
    depth: u32,
    seldepth: u32,
    multipv: usize,
    line: &RootMove<W::Move>,
) -> SearchInfo<W::Move> {
    let shared = worker.thread().shared;
    SearchInfo {
        depth,
        seldepth,
        multipv,
        score: W::score(worker.reported_value(line.score)),
        nodes: shared.budget.nodes(),
        time_ms: shared.budget.elapsed_ms(),
        hashfull: shared.tt.hashfull(),
        pv: line.pv.clone(),
        scores: worker.reported_scores(line),
        odds: None,
    }
}

/// A Lazy SMP helper: the same iterations with one line, level with the main
/// thread or one depth ahead, until the main thread is done or this helper
/// completes the target depth first.
fn run_helper<'a, W: Iterate<'a>>(worker: &mut W) {
    let shared = worker.thread().shared;
    let lead = helper_lead(worker.thread().id);
    let mut depth = 1 + lead;
    while depth <= shared.max_depth && !worker.thread().should_stop() {
        let thread = worker.thread_mut();
        thread.seldepth = 0;
        start_iteration(&mut thread.root_moves);
        worker.iterate(depth, 1);
        if worker.thread().stop {
            break;
        }
        if depth == shared.max_depth && shared.multipv == 1 {
            finish(worker.thread(), depth as u32);
            break;
        }
        let main_depth = shared.main_depth.load(Ordering::Relaxed) as i32;
        depth = (depth + 1).max(main_depth + 1 + lead);
    }
    worker.thread_mut().settle_nodes();
}

/// A helper completed the target depth first: its line is the answer.
fn finish<M: Copy + Eq>(thread: &Thread<'_, M>, depth: u32) {
    let shared = thread.shared;
    let mut finished = shared.finished.lock().unwrap_or_else(|e| e.into_inner());
    if shared.main_depth.load(Ordering::Relaxed) < depth && finished.is_none() {
        *finished = Some(Finished {
            depth,
            seldepth: thread.seldepth as u32,
            line: thread.root_moves[0].clone(),
        });
        shared.budget.abort();
    }
}

/// The main thread takes over a helper's line that completed a depth it had
/// not (and reports it).
fn adopt_finished<'a, W: Iterate<'a>>(
    worker: &mut W,
    report: &mut dyn FnMut(&SearchInfo<W::Move>),
) {
    let shared = worker.thread().shared;
    let Some(finished) = shared
        .finished
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .take()
    else {
        return;
    };
    let thread = worker.thread_mut();
    if finished.depth <= thread.completed_depth {
        return;
    }
    let Some(at) = thread
        .root_moves
        .iter()
        .position(|m| m.mv == finished.line.mv)
    else {
        return;
    };
    thread.root_moves[..=at].rotate_right(1);
    thread.root_moves[0] = finished.line;
    thread.completed_depth = finished.depth;
    thread.settle_nodes();
    let line = &worker.thread().root_moves[0];
    report(&info(worker, finished.depth, finished.seldepth, 1, line));
}

/// The answer (see the module's documentation).
fn result<'a, W: Iterate<'a>>(worker: &W) -> SearchResult<W::Move> {
    let thread = worker.thread();
    let nodes = thread.shared.budget.nodes();
    let Some(best) = thread.root_moves.first() else {
        return SearchResult {
            best: None,
            ponder: None,
            score: W::score(worker.no_move_value()),
            depth: 0,
            nodes,
            root_moves: Vec::new(),
        };
    };
    let score = if best.score > -INFINITE {
        best.score
    } else {
        best.previous_score
    };
    let value = if score > -INFINITE {
        worker.reported_value(score)
    } else {
        best.rating
    };
    let ponder = (best.pv.first() == Some(&best.mv))
        .then(|| best.pv.get(1).copied())
        .flatten();
    let root_moves = thread
        .root_moves
        .iter()
        .map(|line| {
            let value = if line.score > -INFINITE {
                line.score
            } else {
                line.previous_score
            };
            (
                line.mv,
                (value > -INFINITE).then(|| W::score(worker.reported_value(value))),
            )
        })
        .collect();
    SearchResult {
        best: Some(best.mv),
        ponder,
        score: W::score(value),
        depth: thread.completed_depth,
        nodes,
        root_moves,
    }
}
