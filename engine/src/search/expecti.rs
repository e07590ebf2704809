//! Expectimax with Star1/Star2 pruning over [`super::ChanceGame`] (Ban-Sugoroku).
//!
//! # Values
//! Negamax throughout: every node's value is for its side to move (at a chance
//! node, the seat about to roll). A decision node takes the best of its moves; a
//! chance node the weighted mean of its outcomes, `Σ weight × value / CHANCE_WEIGHT`
//! rounded to the nearest integer (halves up). A decided game is
//! `outcome.value_for(side) × 1000`, a leaf is [`ChanceGame::evaluate`]; every value
//! lies within ±`G::VALUE_BOUND`. A decision node without a legal move that the
//! game does not call decided is a leaf too (a game that passes generates a pass).
//!
//! # Depth
//! Depth counts turns (decision plies). Depth *n* at a decision node searches its
//! moves at depth *n − 1* at the chance node after each; a chance node at depth
//! *n > 0* averages its outcomes' decision nodes at depth *n*, and a chance node at
//! depth 0 is a leaf. So depth 1 is the root's moves judged by the static value of
//! the position after each (the dice not rolled yet), and each further depth adds
//! one whole turn of the opponent's (or our) roll and reply.
//!
//! # Algorithms ([`ChanceAlgorithm`])
//! - `expectimax`: the full tree, no pruning (for comparison and tests).
//! - `star1` (Ballard 1983): alpha-beta at decision nodes, and at a chance node
//!   the window is carried into each outcome using what is known of the others:
//!   the exact values of the outcomes searched, and the bounds `(L, U)` of
//!   [`ChanceGame::value_bounds`] at the chance node (±`VALUE_BOUND` unless the
//!   game knows better) for the rest. An outcome whose value would push the mean
//!   below alpha (above beta) whatever the rest do cuts the node off.
//! - `star2` (Ballard; Hauk, Buro & Schaeffer 2004): Star1 preceded by a probing
//!   phase: each outcome's decision node searches only its first move (TT move or
//!   best by static value), which is a lower bound for that outcome. The lower
//!   bounds may already prove a fail-high, and they tighten Star1's windows after.
//!   Chance nodes two or more turns from the horizon are probed, and those one
//!   turn from it at ply 5 or deeper (from iteration 4 on, where it pays).
//!
//! The pruning is exact: Star1 and Star2 return the expectimax value whenever it
//! lies inside the window (always at the root, searched with the full window);
//! outside it they return a bound (fail-soft).
//!
//! # Transposition table
//! Keyed by [`Game::key`] (which includes the dice to play) at decision nodes and
//! by the key with a fixed salt at chance nodes; an entry holds the value with its
//! bound, the depth and, at decision nodes, the best move's index (ordered first).
//! A stored value only cuts a node searched to exactly the same depth: the result
//! of a search then depends on the depth alone, not on the table or the number of
//! threads (a deeper entry would change the value, a shallower one is no bound).
//!
//! # Move ordering
//! At decision nodes the TT move first (whatever depth it was stored at); then, at
//! least `static_order_min_depth` turns ([`ExpectiParams`]) from the horizon, by
//! the static value of the position after each move, nearer by a history of
//! cut-offs. Root moves: the
//! previous iteration's values. Plain expectimax orders nothing. A static value
//! computed for ordering costs about what a leaf does, so it counts as a node.
//!
//! # Parallel search
//! Root splitting with a shared TT: each iteration the main thread searches the
//! first root move with the full window, then every thread (the caller's plus
//! `threads − 1` on a dedicated rayon pool) takes the next unsearched root move
//! from a shared counter and searches it with alpha = the best value (the
//! `multipv`-th best) proven so far. A move searched with a stale alpha is only
//! less pruned, so the best value is the same as with one thread.
//!
//! # The root move filter chain
//! As GNU Backgammon's (0 ply → 1 ply → 2 ply, [`ExpectiParams`]): every turn
//! is rated at 0 ply when the root is listed and the best few are searched
//! to depths 1 and 2; depth 3 searches the best of those by their values at
//! depth 2 (one turn of look-ahead), valued exactly within the margin for
//! that (cheap at depth 2); from depth 4 on, the best two of the depth
//! before, where a move whose upper bound falls below the best by more than
//! the margin is cut. With one move left the search ends when only the
//! clock limits it. `go searchmoves` and [`run_fixed_depth`] search every move.
//!
//! # Time
//! [`TimeManager`]: no new iteration after the soft limit, nor one that cannot
//! end before the hard limit when the time it would take is kept for later
//! moves (a clock's main time); the hard limit, the node
//! limit and `stop` are looked at every [`CHECK_EVERY`](super::budget::CHECK_EVERY) nodes (the skeleton
//! is [`super::driver`]'s, with the threads splitting each iteration's root
//! instead of running beside it as Lazy SMP helpers). An interrupted
//! iteration compares moves at its own depth: the answer is the first move
//! with its value there, or a move it proved better, reported as that
//! depth's line; one that did not finish the first move is thrown away.
//! `go infinite` and pondering wait for `stop` / `ponderhit` as in alpha-beta.

use super::driver::{self, rate_root_moves, Iterate, RootMove, Shared, Thread};
use super::node::{self, Weakening};
use super::ordering::History;
use super::picker::Picker;
use super::tt::{Bound, TranspositionTable, TtEntry};
use super::*;
use crate::clock::Instant;
use crate::tune::{Params, Tunable};
use std::sync::atomic::{AtomicI32, AtomicUsize};
/// Mixed into the key of a chance node so that it never shares an entry with a
/// decision node of the same board.
const CHANCE_KEY_SALT: u64 = 0x6A09_E667_F3BC_C908;
/// Outcomes per chance node the Star2 bounds are preallocated for (21 for two dice).
const OUTCOMES_RESERVED: usize = 64;
/// Expectimax adds cut-off bonuses capped here (not the self-limiting update
/// of `ordering::HISTORY_MAX`), far below the TT move's score.
const CUTOFF_HISTORY_CAP: Value = 1 << 20;
/// Above every static ordering score: the TT move.
const TT_MOVE_SCORE: Value = Value::MAX;
/// [`SplitRoot::exact_within`] when the next iteration does not narrow.
const NOT_NARROWING: Value = -1;

/// The names [`SearchConfig::algorithm`] accepts; the first is the default.
pub const ALGORITHMS: &[&str] = &["star2", "star1", "expectimax"];

/// The tunables of the expectimax search (docs/protocol.md, "Tunables").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExpectiParams {
    /// Star2 probes chance nodes this many turns or more from the horizon.
    pub probe_min_depth: i32,
    /// Chance nodes one turn from the horizon are probed too, but only this
    /// deep in the tree: in shallow iterations a probe there (a move generated
    /// twice, a leaf evaluated twice) costs more than it saves; from depth 4
    /// on it halves the nodes.
    pub last_turn_probe_min_ply: i32,
    /// Decision nodes this many turns or more from the horizon order their
    /// moves by static value (a make and an evaluation per move); nearer, by
    /// history.
    pub static_order_min_depth: i32,
    /// The root move filter, as GNU Backgammon's: every turn is rated at 0 ply
    /// when the root is listed, and only the best `root_candidates` within
    /// `root_margin` (thousandths of a point) of the best are searched deeper.
    /// `root_candidates` 0 searches them all.
    pub root_candidates: i32,
    pub root_margin: i32,
    /// The filter chain after it: from depth 3 (two turns) an iteration
    /// searches only the best `lookahead_candidates` of the iteration before
    /// (the root's moves judged with one turn of look-ahead) within
    /// `lookahead_margin` of its best, and from depth 4 on the best
    /// `deep_candidates` within `deep_margin`; 0 candidates does not narrow.
    pub lookahead_candidates: i32,
    pub lookahead_margin: i32,
    pub deep_candidates: i32,
    pub deep_margin: i32,
    /// An iteration costs at least this many times the one before (measured:
    /// 28 to 66 times, docs/rules/sugoroku.md): under a clock, one that
    /// cannot end in the time left by this estimate is not started, and the
    /// time is saved.
    pub iteration_growth: i32,
}

/// The first iteration that the filter chain narrows: its root moves were
/// judged with one turn of look-ahead.
const LOOKAHEAD_DEPTH: u32 = 3;

impl ExpectiParams {
    /// The narrowing before the iteration to `depth`: (candidates, margin).
    fn narrowing(&self, depth: u32) -> Option<(usize, Value)> {
        let (candidates, margin) = match depth {
            0..LOOKAHEAD_DEPTH => return None,
            LOOKAHEAD_DEPTH => (self.lookahead_candidates, self.lookahead_margin),
            _ => (self.deep_candidates, self.deep_margin),
        };
        (candidates > 0).then_some((candidates as usize, margin))
    }
}

impl Default for ExpectiParams {
    fn default() -> Self {
        ExpectiParams {
            probe_min_depth: 2,
            last_turn_probe_min_ply: 5,
            static_order_min_depth: 2,
            root_candidates: 8,
            root_margin: 200,
            lookahead_candidates: 3,
            lookahead_margin: 100,
            deep_candidates: 2,
            deep_margin: 50,
            iteration_growth: 20,
        }
    }
}

impl Params for ExpectiParams {
    const TUNABLES: &'static [Tunable<Self>] = &[
        Tunable::new("Tune_ProbeMinDepth", 1, 16, |p| &mut p.probe_min_depth),
        Tunable::new("Tune_LastTurnProbeMinPly", 0, 64, |p| {
            &mut p.last_turn_probe_min_ply
        }),
        Tunable::new("Tune_StaticOrderMinDepth", 1, 16, |p| {
            &mut p.static_order_min_depth
        }),
        Tunable::new("Tune_RootCandidates", 0, 64, |p| &mut p.root_candidates),
        Tunable::new("Tune_RootMargin", 0, 3000, |p| &mut p.root_margin),
        Tunable::new("Tune_LookaheadCandidates", 0, 64, |p| {
            &mut p.lookahead_candidates
        }),
        Tunable::new("Tune_LookaheadMargin", 0, 3000, |p| &mut p.lookahead_margin),
        Tunable::new("Tune_DeepCandidates", 0, 64, |p| &mut p.deep_candidates),
        Tunable::new("Tune_DeepMargin", 0, 3000, |p| &mut p.deep_margin),
        Tunable::new("Tune_IterationGrowth", 0, 1000, |p| &mut p.iteration_growth),
    ];
}

/// How chance nodes are searched.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ChanceAlgorithm {
    /// No pruning at all.
    Expectimax,
    /// Alpha-beta windows through chance nodes.
    Star1,
    /// Star1 after a probing phase.
    #[default]
    Star2,
}

impl ChanceAlgorithm {
    pub fn name(self) -> &'static str {
        match self {
            ChanceAlgorithm::Expectimax => "expectimax",
            ChanceAlgorithm::Star1 => "star1",
            ChanceAlgorithm::Star2 => "star2",
        }
    }

    /// One of [`ALGORITHMS`] (case-insensitive); the empty name is the default.
    pub fn from_name(name: &str) -> Option<Self> {
        match name.to_ascii_lowercase().as_str() {
            "" | "star2" => Some(ChanceAlgorithm::Star2),
            "star1" => Some(ChanceAlgorithm::Star1),
            "expectimax" => Some(ChanceAlgorithm::Expectimax),
            _ => None,
        }
    }
}

/// The expectimax searcher with its evaluator `E` and its own parameters.
pub type Expectimax<E> = Search<ExpectiKind<E>>;

/// What the expectimax searcher keeps of its own: its algorithm and switches.
pub struct ExpectiKind<E> {
    algorithm: ChanceAlgorithm,
    use_tt: bool,
    root_filter: bool,
    eval: std::marker::PhantomData<E>,
}

impl<E> Default for ExpectiKind<E> {
    fn default() -> Self {
        ExpectiKind {
            algorithm: ChanceAlgorithm::default(),
            use_tt: true,
            root_filter: true,
            eval: std::marker::PhantomData,
        }
    }
}

impl<E> Search<ExpectiKind<E>>
where
    ExpectiKind<E>: SearchKind,
{
    pub fn algorithm(&self) -> ChanceAlgorithm {
        self.kind().algorithm
    }

    /// Overrides the algorithm (until the next `configure`, which reads
    /// [`SearchConfig::algorithm`] again).
    pub fn set_algorithm(&mut self, algorithm: ChanceAlgorithm) {
        self.kind_mut().algorithm = algorithm;
    }

    /// Switches the transposition table off or on (for tests and comparisons).
    pub fn set_tt_enabled(&mut self, enabled: bool) {
        self.kind_mut().use_tt = enabled;
    }

    /// Switches the root move filter ([`ExpectiParams::root_candidates`]) off or on: off, the
    /// search is full width, as the comparisons of algorithms need.
    pub fn set_root_filter(&mut self, enabled: bool) {
        self.kind_mut().root_filter = enabled;
    }
}

impl<E: Evaluator> SearchKind for ExpectiKind<E> {
    type Params = Tuning<ExpectiParams, E>;
    const NAME: &'static str = "expecti";

    fn configure(&mut self, config: &SearchConfig) {
        self.algorithm = ChanceAlgorithm::from_name(config.algorithm).unwrap_or_default();
    }
}

impl<G: ChanceGame> SearchesGame<G> for ExpectiKind<G::Eval> {
    fn default_params() -> Self::Params {
        Tuning::of(ExpectiParams::default())
    }

    fn search<'a>(
        &'a mut self,
        run: Run<'a, G, Self::Params>,
        report: &mut dyn FnMut(&SearchInfo<G::Move>),
    ) -> SearchResult<G::Move> {
        let Run {
            pos,
            limits,
            config,
            params,
            shared,
            pool,
            ..
        } = run;
        let split = SplitRoot {
            params: params.search,
            eval: &params.eval,
            weak: run.weakening(),
            tt: self.use_tt.then_some(shared.tt),
            algorithm: self.algorithm,
            lines: Mutex::new(Vec::new()),
            next: AtomicUsize::new(0),
            exact_within: AtomicI32::new(NOT_NARROWING),
        };
        // Moves named by `searchmoves` are all searched.
        let filter = self.root_filter && limits.searchmoves.is_empty();
        let threads = config.threads.max(1);
        // The threads split each iteration's root: the driver sees one.
        driver::run(
            shared,
            None,
            1,
            |_| Worker::main(shared, &split, pos, filter, threads, pool),
            report,
        )
    }
}

/// What one fixed-depth search found, for benchmarks comparing the algorithms.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DepthRun<M> {
    pub nodes: u64,
    /// The root value, thousandths of a point for the side to move.
    pub value: Value,
    pub best: Option<M>,
}

/// Searches `pos` with `algorithm` to exactly `depth` turns (iterative deepening
/// from 1, as in play) with a fresh table of `config.hash_mb` and
/// `config.threads` threads; returns the nodes visited and the root value.
pub fn run_fixed_depth<G: ChanceGame>(
    pos: &G,
    depth: u32,
    algorithm: ChanceAlgorithm,
    config: &SearchConfig,
) -> DepthRun<G::Move> {
    let mut searcher = <Expectimax<G::Eval> as Searcher<G>>::new(config);
    searcher.set_algorithm(algorithm);
    searcher.set_root_filter(false);
    let result = searcher.search(
        pos,
        &Limits::depth(depth),
        &SearchControl::new(false),
        &mut |_| {},
    );
    let value = match result.score {
        Score::Points(v) | Score::Cp(v) | Score::Mate(v) => v,
    };
    DepthRun {
        nodes: result.nodes,
        value,
        best: result.best,
    }
}

/// One root move's result in the iteration the threads share.
#[derive(Clone, Copy, Debug)]
struct SplitLine<M> {
    mv: M,
    /// Exact, or an upper bound when it failed low.
    score: Value,
    exact: bool,
    done: bool,
}

/// What the threads splitting the root share besides the driver's [`Shared`].
struct SplitRoot<'a, M, E> {
    params: ExpectiParams,
    eval: &'a E,
    /// The player's weakness: `None` at full strength.
    weak: Option<Weakening<'a, M>>,
    /// `None` with the table switched off.
    tt: Option<&'a TranspositionTable>,
    algorithm: ChanceAlgorithm,
    /// The root moves in search order, with this iteration's results.
    lines: Mutex<Vec<SplitLine<M>>>,
    /// The next root move to hand out in this iteration.
    next: AtomicUsize,
    /// This iteration values exactly the root moves within this many
    /// thousandths of a point of the best, for the next one's narrowing
    /// ([`ExpectiParams::narrowing`]); [`NOT_NARROWING`] when it does not narrow.
    exact_within: AtomicI32,
}

impl<M: Copy, E> SplitRoot<'_, M, E> {
    fn lines(&self) -> std::sync::MutexGuard<'_, Vec<SplitLine<M>>> {
        self.lines.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The alpha for the next root move: the `lines`-th best exact value so
    /// far, and no more than [`Self::exact_within`] below the best.
    fn alpha(&self, lines: usize, floor: Value) -> Value {
        let mut exact: Vec<Value> = self
            .lines()
            .iter()
            .filter(|line| line.done && line.exact)
            .map(|line| line.score)
            .collect();
        exact.sort_unstable_by(|a, b| b.cmp(a));
        let alpha = if exact.len() < lines {
            floor
        } else {
            exact[lines - 1]
        };
        let within = self.exact_within.load(Ordering::Relaxed);
        match exact.first() {
            Some(&best) if within != NOT_NARROWING => alpha.min(best - within - 1).max(floor),
            _ => alpha,
        }
    }

    fn record(&self, k: usize, score: Value, exact: bool) {
        let mut lines = self.lines();
        lines[k].score = score;
        lines[k].exact = exact;
        lines[k].done = true;
    }
}

/// Per-ply scratch space, allocated once and kept between searches.
struct Frame<M: Copy + Default> {
    moves: MoveList<M>,
    /// The moves' ordering scores.
    picker: Picker,
    /// Star2: a lower bound per chance outcome.
    lower: Vec<Value>,
    /// The chance outcomes' indices, heaviest first.
    outcome_order: Vec<u16>,
}

impl<M: Copy + Default> Frame<M> {
    fn new() -> Self {
        Frame {
            moves: MoveList::new(),
            picker: Picker::new(),
            lower: Vec::with_capacity(OUTCOMES_RESERVED),
            outcome_order: Vec::with_capacity(OUTCOMES_RESERVED),
        }
    }

    /// As new, keeping the memory.
    fn clear(&mut self) {
        self.moves.clear();
        self.picker.clear();
        self.lower.clear();
        self.outcome_order.clear();
    }
}

/// One search thread: its own copy of the position and its stacks.
struct Worker<'a, G: ChanceGame> {
    thread: Thread<'a, G::Move>,
    split: &'a SplitRoot<'a, G::Move, G::Eval>,
    /// The main thread's: the other threads, and the pool they run on.
    helpers: Vec<Worker<'a, G>>,
    pool: Option<&'a rayon::ThreadPool>,
    pos: G,
    /// The split's, copied.
    params: ExpectiParams,
    eval: &'a G::Eval,
    /// The player's weakness: `None` at full strength.
    weak: Option<Weakening<'a, G::Move>>,
    /// Per ply, `plies` of them in use; kept between searches with `history`.
    frames: Vec<Frame<G::Move>>,
    plies: usize,
    /// Cut-offs per (side, hashed move), for ordering where static values cost too much.
    history: History,
    /// The main thread's: the root move filter and its chain apply.
    narrow: bool,
    /// The last iteration, interrupted, settled the first root move's line
    /// (the best of the moves it compared, with its value at that depth).
    settled: bool,
    /// When the iteration under way started, and how long the one before took.
    iteration_started: Option<Instant>,
    last_iteration: Option<Duration>,
}

impl<G: ChanceGame> Drop for Worker<'_, G> {
    fn drop(&mut self) {
        let stacks = (
            std::mem::take(&mut self.frames),
            std::mem::take(&mut self.history),
        );
        self.thread.shared.scratch.give(stacks);
    }
}

impl<'a, G: ChanceGame> Worker<'a, G> {
    fn new(
        id: usize,
        shared: &'a Shared<'a, G::Move>,
        split: &'a SplitRoot<'a, G::Move, G::Eval>,
        root: &G,
    ) -> Self {
        // A turn is at most a decision and a chance ply.
        let plies = 2 * shared.max_depth as usize + 2;
        let (mut frames, mut history): (Vec<Frame<G::Move>>, History) = shared
            .scratch
            .take(|_| true)
            .unwrap_or_else(|| (Vec::new(), History::new(2)));
        for frame in &mut frames {
            frame.clear();
        }
        if frames.len() < plies {
            frames.resize_with(plies, Frame::new);
        }
        history.clear();
        Worker {
            // Threads split the root: each enforces the limits.
            thread: Thread::new(id, shared, true),
            split,
            helpers: Vec::new(),
            pool: None,
            pos: root.clone(),
            params: split.params,
            eval: split.eval,
            weak: split.weak,
            frames,
            plies,
            history,
            narrow: false,
            settled: false,
            iteration_started: None,
            last_iteration: None,
        }
    }

    /// The main thread, with its `threads - 1` helpers and the root moves: none
    /// when the dice are due or the game is over; with `filter`, those worth a
    /// search (at least the MultiPV lines).
    fn main(
        shared: &'a Shared<'a, G::Move>,
        split: &'a SplitRoot<'a, G::Move, G::Eval>,
        root: &G,
        filter: bool,
        threads: usize,
        pool: Option<&'a rayon::ThreadPool>,
    ) -> Self {
        let mut main = Worker::new(0, shared, split, root);
        main.narrow = filter;
        if !root.at_chance() && root.decided().is_none() {
            main.order_root_moves(filter.then_some(shared.multipv));
        }
        main.helpers = (1..threads)
            .map(|id| Worker::new(id, shared, split, root))
            .collect();
        main.pool = pool.filter(|_| threads > 1);
        main
    }

    /// The root moves: TT move first, then by static value; with `keep` (at
    /// least so many lines, for MultiPV) the root move filter applies.
    fn order_root_moves(&mut self, keep: Option<usize>) {
        let side = self.pos.side_to_move();
        let mut moves = MoveList::new();
        node::generate_moves(&self.pos, self.weak.as_ref(), &mut moves);
        let shared = self.thread.shared;
        let tt_move = self
            .split
            .tt
            .and_then(|tt| tt.probe(self.pos.key()))
            .and_then(|e| e.move_index);
        let mut rating = Vec::with_capacity(moves.len());
        let mut root = rate_root_moves(&moves, tt_move, &shared.root_choice, |mv| {
            let value = self.static_value_after(mv, side);
            rating.push((mv, value));
            value
        });
        let candidates = self.split.params.root_candidates as usize;
        if let (true, Some(lines)) = (candidates > 0 && !root.is_empty(), keep) {
            // Rated at 0 ply: the TT move, listed first, may not be the best rated.
            let value_of = |mv| {
                rating
                    .iter()
                    .find(|&&(m, _)| m == mv)
                    .map_or(0, |&(_, v)| v)
            };
            let best = rating.iter().map(|&(_, value)| value).max().expect("moves");
            let mut kept = 0;
            root.retain(|line| {
                let stays = kept < lines.max(candidates)
                    && (kept < lines || value_of(line.mv) >= best - self.split.params.root_margin);
                kept += stays as usize;
                stays
            });
        }
        self.thread.root_moves = root;
    }

    /// The static value for the side to move, within the value bound, as the
    /// player searched for judges it.
    #[inline]
    fn leaf(&self) -> Value {
        node::judged(
            self.weak.as_ref(),
            &self.pos,
            None,
            self.pos.evaluate(self.eval),
        )
        .clamp(-G::VALUE_BOUND, G::VALUE_BOUND)
    }

    /// [`ChanceGame::value_bounds`], for the player searched for: its noise
    /// may break the game's own bounds, so that only the widest are sure.
    #[inline]
    fn value_bounds(&self) -> (Value, Value) {
        match self.weak {
            Some(weak) if weak.weakness.noise > 0 => (-G::VALUE_BOUND, G::VALUE_BOUND),
            _ => self.pos.value_bounds(),
        }
    }

    /// The static value for `side` of the position after `mv`.
    fn static_value_after(&mut self, mv: G::Move, side: Seat) -> Value {
        // As costly as a leaf: counted as a node, so that the algorithms compare fairly.
        self.thread.count_node();
        self.pos.make(mv);
        let value = match terminal(&self.pos, side) {
            Some(value) => value,
            None => from_side(&self.pos, side, self.leaf()),
        };
        self.pos.unmake(mv);
        value
    }

    /// Takes root moves from the shared counter until none is left.
    fn split_root(&mut self, depth: u32, lines: usize) {
        let count = self.split.lines().len();
        loop {
            let k = self.split.next.fetch_add(1, Ordering::Relaxed);
            if k >= count || self.thread.should_stop() {
                break;
            }
            let alpha = self.split.alpha(lines, -G::VALUE_BOUND - 1);
            let mv = self.split.lines()[k].mv;
            let value = self.search_root_move(mv, depth, alpha, G::VALUE_BOUND + 1);
            if self.thread.stop {
                break;
            }
            self.split.record(k, value, value > alpha);
        }
        self.thread.settle_nodes();
    }

    /// The value of root move `mv` searched to `depth` with the window (alpha, beta).
    fn search_root_move(&mut self, mv: G::Move, depth: u32, alpha: Value, beta: Value) -> Value {
        let side = self.pos.side_to_move();
        self.pos.make(mv);
        let value = self.child(side, depth - 1, alpha, beta, 1, false);
        self.pos.unmake(mv);
        value
    }

    /// The filter chain ([`ExpectiParams::narrowing`]) before the iteration
    /// to `depth`: the best root moves of the iteration before, which left
    /// them best first (exact within the margin before the look-ahead step,
    /// upper bounds for the moves that failed low). One left is played at
    /// once when the clock alone limits the search.
    fn narrow_root(&mut self, depth: u32, lines: usize) {
        let Some((candidates, margin)) = self.params.narrowing(depth) else {
            return;
        };
        let root = &mut self.thread.root_moves;
        let best = root[0].previous_score;
        let kept = root
            .iter()
            .enumerate()
            .take_while(|&(k, line)| {
                k < lines || (k < candidates && line.previous_score >= best - margin)
            })
            .count();
        root.truncate(kept.max(1));
        if root.len() == 1 && self.thread.shared.clock_only() {
            self.thread.stop = true;
        }
    }

    /// Notes when the iteration about to start starts (and so how long the
    /// one before took).
    fn start_clock(&mut self) {
        let now = Instant::now();
        if let Some(started) = self.iteration_started.replace(now) {
            self.last_iteration = Some(now.duration_since(started));
        }
    }

    /// Whether the iteration about to start should not: it cannot end before
    /// the deadline (it costs at least [`ExpectiParams::iteration_growth`]
    /// times the one before), and the time it would spend is saved for the
    /// moves to come (a clock's main time; a `movetime` or a byoyomi is lost
    /// unspent, and an iteration cut short may still settle a better move).
    fn cannot_finish(&self) -> bool {
        let budget = &self.thread.shared.budget;
        let saved = budget.time.soft_limit() < budget.time.hard_limit();
        match (
            self.last_iteration,
            budget.time.hard_deadline(budget.control),
        ) {
            (Some(last), Some(deadline)) if saved => {
                Instant::now() + last * self.params.iteration_growth as u32 > deadline
            }
            _ => false,
        }
    }

    /// One iteration: the first root move alone with the full window, then
    /// the rest shared out among the threads with its value as alpha (lower
    /// by the next narrowing's margin). An interrupted iteration keeps the
    /// first move's value at this depth, or a move it proved better.
    fn split_iteration(&mut self, depth: u32, lines: usize) {
        self.thread.seldepth = depth as usize;
        self.settled = false;
        self.start_clock();
        if self.narrow {
            self.narrow_root(depth, lines);
        }
        if self.thread.stop || self.cannot_finish() {
            self.thread.stop = true;
            return;
        }
        // Exact values within the margin cost little at depth 2 (1.5 % of
        // depth 3); deeper they cost more than narrowing saves, and the upper
        // bounds alone cut the moves outside the margin.
        let within = match self.params.narrowing(depth + 1) {
            Some((_, margin)) if self.narrow && depth + 1 == LOOKAHEAD_DEPTH => margin,
            _ => NOT_NARROWING,
        };
        self.split.exact_within.store(within, Ordering::Relaxed);
        *self.split.lines() = self
            .thread
            .root_moves
            .iter()
            .map(|line| SplitLine {
                mv: line.mv,
                score: -INFINITE,
                exact: false,
                done: false,
            })
            .collect();
        let first = self.thread.root_moves[0].mv;
        let value = self.search_root_move(first, depth, -G::VALUE_BOUND - 1, G::VALUE_BOUND + 1);
        if self.thread.stop {
            self.thread.settle_nodes();
            return;
        }
        self.split.record(0, value, true);
        self.split.next.store(1, Ordering::Relaxed);
        let mut helpers = std::mem::take(&mut self.helpers);
        match self.pool {
            Some(pool) => pool.in_place_scope(|scope| {
                for helper in helpers.iter_mut() {
                    scope.spawn(move |_| helper.split_root(depth, lines));
                }
                self.split_root(depth, lines);
            }),
            None => self.split_root(depth, lines),
        }
        self.helpers = helpers;
        let results = self.split.lines().clone();
        if self.thread.shared.budget.stopping() || !results.iter().all(|line| line.done) {
            self.thread.stop = true;
            // Compared at this depth: the first move and those proven better.
            let k = (1..results.len())
                .filter(|&k| results[k].done && results[k].exact && results[k].score > value)
                .max_by_key(|&k| results[k].score)
                .unwrap_or(0);
            self.thread.root_moves.swap(0, k);
            let line = &mut self.thread.root_moves[0];
            line.score = results[k].score;
            line.pv = vec![results[k].mv];
            self.settled = true;
            return;
        }
        let mut order: Vec<usize> = (0..results.len()).collect();
        // Stable: ties keep the search order; exact values before bounds.
        order.sort_by_key(|&k| (std::cmp::Reverse(results[k].score), !results[k].exact));
        let mut root: Vec<RootMove<G::Move>> = order
            .iter()
            .map(|&k| RootMove {
                score: results[k].score,
                pv: vec![results[k].mv],
                ..self.thread.root_moves[k].clone()
            })
            .collect();
        std::mem::swap(&mut root, &mut self.thread.root_moves);
    }

    /// The value for `side` of the node now on the board, with the window
    /// (alpha, beta) for `side`; negated when the node's side to move is the other.
    #[inline]
    fn child(
        &mut self,
        side: Seat,
        depth: u32,
        alpha: Value,
        beta: Value,
        ply: usize,
        probe: bool,
    ) -> Value {
        if self.pos.side_to_move() == side {
            self.node(depth, alpha, beta, ply, probe)
        } else {
            -self.node(depth, -beta, -alpha, ply, false)
        }
    }

    /// Any node: a decided game, a chance node or a decision node. `probe` asks a
    /// decision node for its first move only (Star2).
    fn node(&mut self, depth: u32, alpha: Value, beta: Value, ply: usize, probe: bool) -> Value {
        if self.thread.enter_node() {
            return 0;
        }
        if let Some(value) = terminal(&self.pos, self.pos.side_to_move()) {
            return value;
        }
        if depth == 0 || ply + 1 >= self.plies {
            return self.leaf();
        }
        if self.pos.at_chance() {
            self.chance(depth, alpha, beta, ply)
        } else {
            self.decision(depth, alpha, beta, ply, probe)
        }
    }

    /// A TT hit usable at this depth and window, and the stored move index.
    #[inline]
    fn probe_tt(
        &self,
        key: u64,
        depth: u32,
        alpha: Value,
        beta: Value,
    ) -> (Option<Value>, Option<u16>) {
        let Some(entry) = self.split.tt.and_then(|tt| tt.probe(key)) else {
            return (None, None);
        };
        let value = entry.value as Value;
        let usable = entry.depth as u32 == depth
            && value.abs() <= G::VALUE_BOUND
            && entry.bound.settles(value, alpha, beta);
        (usable.then_some(value), entry.move_index)
    }

    #[inline]
    fn store_tt(&self, key: u64, depth: u32, value: Value, bound: Bound, move_index: Option<u16>) {
        if let Some(tt) = self.split.tt {
            let index = move_index.map(usize::from);
            tt.store(key, TtEntry::of_node(value, 0, depth as i32, bound, index));
        }
    }

    fn decision(
        &mut self,
        depth: u32,
        mut alpha: Value,
        beta: Value,
        ply: usize,
        probe: bool,
    ) -> Value {
        let key = self.pos.key();
        let (hit, tt_move) = self.probe_tt(key, depth, alpha, beta);
        if let Some(value) = hit {
            return value;
        }
        let side = self.pos.side_to_move();
        node::generate_moves(&self.pos, self.weak.as_ref(), &mut self.frames[ply].moves);
        let count = self.frames[ply].moves.len();
        if count == 0 {
            return self.leaf();
        }
        let probe = probe && count > 1;
        self.order_moves(ply, depth, tt_move, side);
        let original_alpha = alpha;
        let mut best = -G::VALUE_BOUND - 1;
        let mut best_index = 0;
        while let Some((index, _)) = self.frames[ply].picker.pick() {
            let mv = self.frames[ply].moves[index];
            self.pos.make(mv);
            let value = self.child(side, depth - 1, alpha, beta, ply + 1, false);
            self.pos.unmake(mv);
            if self.thread.stop {
                return 0;
            }
            if value > best {
                best = value;
                best_index = index as u16;
                if value > alpha {
                    alpha = value;
                    if value >= beta {
                        self.history.add_capped(
                            side,
                            mv,
                            (depth * depth) as Value,
                            CUTOFF_HISTORY_CAP,
                        );
                        break;
                    }
                }
            }
            if probe {
                break;
            }
        }
        let bound = if probe {
            // One move: a lower bound on the node when it is more than an upper
            // bound on that move.
            (best > original_alpha).then_some(Bound::Lower)
        } else {
            Some(Bound::of(best, original_alpha, beta))
        };
        if let Some(bound) = bound {
            let move_index = (bound != Bound::Upper).then_some(best_index);
            self.store_tt(key, depth, best, bound, move_index);
        }
        best
    }

    /// Scores the moves of `ply`: the TT move, then (two or more turns from the
    /// horizon, where it pays) by static value after the move, else by history.
    fn order_moves(&mut self, ply: usize, depth: u32, tt_move: Option<u16>, side: Seat) {
        let count = self.frames[ply].moves.len();
        let static_min_depth = match self.split.algorithm {
            ChanceAlgorithm::Expectimax => u32::MAX,
            _ => self.params.static_order_min_depth as u32,
        };
        self.frames[ply].picker.scores_mut(count);
        for index in 0..count {
            let mv = self.frames[ply].moves[index];
            let score = if tt_move == Some(index as u16) {
                TT_MOVE_SCORE
            } else if depth >= static_min_depth {
                self.static_value_after(mv, side)
            } else {
                self.history.get(side, mv)
            };
            self.frames[ply].picker.set(index, score);
        }
    }

    fn chance(&mut self, depth: u32, alpha: Value, beta: Value, ply: usize) -> Value {
        let key = self.pos.key() ^ CHANCE_KEY_SALT;
        if let (Some(value), _) = self.probe_tt(key, depth, alpha, beta) {
            return value;
        }
        let (value, bound) = match self.split.algorithm {
            ChanceAlgorithm::Expectimax => (self.chance_full(depth, ply), Bound::Exact),
            ChanceAlgorithm::Star1 => self.chance_star(depth, alpha, beta, ply, false),
            ChanceAlgorithm::Star2 => self.chance_star(depth, alpha, beta, ply, true),
        };
        if !self.thread.stop {
            self.store_tt(key, depth, value, bound, None);
        }
        value
    }

    /// The weighted mean of every outcome, searched with the full window.
    fn chance_full(&mut self, depth: u32, ply: usize) -> Value {
        let side = self.pos.side_to_move();
        let mut sum = 0i64;
        for &(outcome, weight) in self.pos.chance_outcomes() {
            self.pos.apply_chance(outcome);
            let value = self.child(
                side,
                depth,
                -G::VALUE_BOUND - 1,
                G::VALUE_BOUND + 1,
                ply + 1,
                false,
            );
            self.pos.undo_chance(outcome);
            if self.thread.stop {
                return 0;
            }
            sum += weight as i64 * value as i64;
        }
        mean::<G>(sum)
    }

    /// Star1, with Star2's probing phase first when `probing`; returns the value
    /// and what it is (a bound when outside the window).
    fn chance_star(
        &mut self,
        depth: u32,
        alpha: Value,
        beta: Value,
        ply: usize,
        probing: bool,
    ) -> (Value, Bound) {
        let side = self.pos.side_to_move();
        let outcomes = self.pos.chance_outcomes();
        let total = G::CHANCE_WEIGHT as i64;
        // Every outcome's value lies within the node's bounds (the same seat moves).
        let (low, high) = self.value_bounds();
        let (low, high) = (low as i64, high as i64);
        // The node's mean is ≤ alpha iff the weighted sum is ≤ `sum_max_low`, ≥ beta
        // iff it is ≥ `sum_min_high`.
        let sum_min_high = sum_at_least::<G>(beta);
        let sum_max_low = sum_at_least::<G>(alpha + 1) - 1;
        self.frames[ply].lower.clear();
        self.frames[ply].lower.resize(outcomes.len(), low as Value);
        // Σ weight × lower bound over the outcomes not searched yet.
        let mut rest_lower = total * low;
        // Heavy outcomes first: they move the bounds most.
        let order = &mut self.frames[ply].outcome_order;
        order.clear();
        order.extend(0..outcomes.len() as u16);
        order.sort_unstable_by_key(|&i| (std::cmp::Reverse(outcomes[i as usize].1), i));

        let probe_here = depth >= self.params.probe_min_depth as u32
            || (depth == 1 && ply >= self.params.last_turn_probe_min_ply as usize);
        if probing && probe_here {
            for k in 0..outcomes.len() {
                let i = self.frames[ply].outcome_order[k] as usize;
                let (outcome, weight) = outcomes[i];
                let weight = weight as i64;
                let others_lower = rest_lower - weight * low;
                let a = clamp_window::<G>(floor_div(sum_max_low - (total - weight) * high, weight));
                let b = clamp_window::<G>(ceil_div(sum_min_high - others_lower, weight));
                self.pos.apply_chance(outcome);
                let probe = (self.pos.side_to_move() == side
                    && !self.pos.at_chance()
                    && self.pos.decided().is_none())
                .then(|| self.node(depth, a, b, ply + 1, true));
                self.pos.undo_chance(outcome);
                if self.thread.stop {
                    return (0, Bound::Exact);
                }
                if let Some(value) = probe.filter(|&v| v > a) {
                    rest_lower += weight * (value as i64 - low);
                    self.frames[ply].lower[i] = value;
                    if rest_lower >= sum_min_high {
                        return (mean::<G>(rest_lower), Bound::Lower);
                    }
                }
            }
        }

        let mut exact_sum = 0i64;
        let mut rest_weight = total;
        for k in 0..outcomes.len() {
            let i = self.frames[ply].outcome_order[k] as usize;
            let (outcome, weight) = outcomes[i];
            let weight = weight as i64;
            let lower_i = self.frames[ply].lower[i];
            let upper = exact_sum + rest_weight * high;
            if upper <= sum_max_low {
                return (mean::<G>(upper), Bound::Upper);
            }
            let lower = exact_sum + rest_lower;
            if lower >= sum_min_high {
                return (mean::<G>(lower), Bound::Lower);
            }
            let others_upper = (rest_weight - weight) * high;
            let others_lower = rest_lower - weight * lower_i as i64;
            // This outcome at most `a` proves a fail-low, at least `b` a fail-high.
            let a = clamp_window::<G>(floor_div(sum_max_low - exact_sum - others_upper, weight));
            let b = clamp_window::<G>(ceil_div(sum_min_high - exact_sum - others_lower, weight));
            // The outcome is known to be at least `lower_i`: values below do not matter.
            let narrowed = a.max(lower_i - 1);
            self.pos.apply_chance(outcome);
            let mut value = self.child(side, depth, narrowed, b, ply + 1, false);
            if value <= narrowed && narrowed > a && !self.thread.stop {
                // Only a stale or colliding table entry makes a lower bound lie.
                value = self.child(side, depth, a, b, ply + 1, false);
            }
            self.pos.undo_chance(outcome);
            if self.thread.stop {
                return (0, Bound::Exact);
            }
            if value <= a {
                let bound = exact_sum + weight * value as i64 + others_upper;
                return (mean::<G>(bound), Bound::Upper);
            }
            if value >= b {
                let bound = exact_sum + weight * value.max(lower_i) as i64 + others_lower;
                return (mean::<G>(bound), Bound::Lower);
            }
            exact_sum += weight * value as i64;
            rest_weight -= weight;
            rest_lower = others_lower;
        }
        (mean::<G>(exact_sum), Bound::Exact)
    }
}

impl<'a, G: ChanceGame> Iterate<'a> for Worker<'a, G> {
    type Move = G::Move;

    fn thread(&self) -> &Thread<'a, G::Move> {
        &self.thread
    }

    fn thread_mut(&mut self) -> &mut Thread<'a, G::Move> {
        &mut self.thread
    }

    fn iterate(&mut self, depth: i32, lines: usize) {
        self.split_iteration(depth as u32, lines);
    }

    fn store_root(&self, depth: i32) {
        if let Some(tt) = self.split.tt {
            let score = self.thread.root_moves[0].score;
            self.thread
                .store_root(tt, self.pos.key(), depth, score, Bound::Exact);
        }
    }

    fn score(value: Value) -> Score {
        Score::Points(value)
    }

    fn settled(&self) -> bool {
        self.settled
    }

    fn no_move_value(&self) -> Value {
        terminal(&self.pos, self.pos.side_to_move()).unwrap_or_else(|| self.leaf())
    }
}

/// A weighted sum of outcome values as their mean, rounded to nearest (halves up).
#[inline]
fn mean<G: ChanceGame>(sum: i64) -> Value {
    let total = G::CHANCE_WEIGHT as i64;
    (2 * sum + total).div_euclid(2 * total) as Value
}

/// The least weighted sum whose [`mean`] is at least `value`.
#[inline]
fn sum_at_least<G: ChanceGame>(value: Value) -> i64 {
    let total = G::CHANCE_WEIGHT as i64;
    value as i64 * total - total / 2
}

#[inline]
fn floor_div(a: i64, b: i64) -> i64 {
    a.div_euclid(b)
}

#[inline]
fn ceil_div(a: i64, b: i64) -> i64 {
    -(-a).div_euclid(b)
}

/// A child's window bound, kept within (L − 1, U + 1).
#[inline]
fn clamp_window<G: ChanceGame>(bound: i64) -> Value {
    bound.clamp(-G::VALUE_BOUND as i64 - 1, G::VALUE_BOUND as i64 + 1) as Value
}

/// The value of a decided game for `side`, within the value bound.
#[inline]
fn terminal<G: ChanceGame>(pos: &G, side: Seat) -> Option<Value> {
    pos.decided()
        .map(|outcome| (outcome.value_for(side) * 1000).clamp(-G::VALUE_BOUND, G::VALUE_BOUND))
}

/// `value` for the side to move as seen by `side`.
#[inline]
fn from_side<G: ChanceGame>(pos: &G, side: Seat, value: Value) -> Value {
    if pos.side_to_move() == side {
        value
    } else {
        -value
    }
}

#[cfg(test)]
mod tests;
