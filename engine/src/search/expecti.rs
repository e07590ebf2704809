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
//! least `STATIC_ORDER_MIN_DEPTH` turns from the horizon, by
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
//! # Time
//! [`TimeManager`]: no new iteration after the soft limit; the hard limit, the node
//! limit and `stop` are looked at every [`CHECK_EVERY`] nodes. An interrupted
//! iteration is thrown away unless it already proved a move better than the first.
//! `go infinite` and pondering wait for `stop` / `ponderhit` as in alpha-beta.

use super::budget::{Budget, NodeCounter};
use super::ordering::History;
use super::tables::{hold_answer, SearchTables};
use super::tt::{Bound, TranspositionTable, TtEntry};
use super::*;
use crate::core::movelist::MAX_MOVES;
use crate::tune::Tunable;
use std::sync::atomic::AtomicUsize;

/// Deepest iteration searched, in turns.
pub const MAX_DEPTH: u32 = 64;
/// Nodes between looks at the stop flags, the node limit and the clock (a
/// sugoroku node generates a whole turn's moves: expensive).
pub const CHECK_EVERY: u64 = 256;
/// Mixed into the key of a chance node so that it never shares an entry with a
/// decision node of the same board.
const CHANCE_KEY_SALT: u64 = 0x6A09_E667_F3BC_C908;
/// Outcomes per chance node the Star2 bounds are preallocated for (21 for two dice).
const OUTCOMES_RESERVED: usize = 64;
/// History table: per side, moves hashed to 2^HISTORY_BITS slots.
const HISTORY_BITS: u32 = 14;
/// Expectimax adds cut-off bonuses capped here (not the self-limiting update
/// of `ordering::HISTORY_MAX`), far below the TT move's score.
const CUTOFF_HISTORY_CAP: Value = 1 << 20;
/// Above every static ordering score: the TT move.
const TT_MOVE_SCORE: Value = Value::MAX;

/// The names [`SearchConfig::algorithm`] accepts; the first is the default.
pub const ALGORITHMS: &[&str] = &["star2", "star1", "expectimax"];

// The tunables of the expectimax search (docs/protocol.md, "Tunables").
/// Star2 probes chance nodes this many turns or more from the horizon.
static PROBE_MIN_DEPTH: Tunable = Tunable::new("Tune_ProbeMinDepth", 2, 1, 16);
/// Chance nodes one turn from the horizon are probed too, but only this deep in
/// the tree: in shallow iterations a probe there (a move generated twice, a leaf
/// evaluated twice) costs more than it saves; from depth 4 on it halves the nodes.
static LAST_TURN_PROBE_MIN_PLY: Tunable = Tunable::new("Tune_LastTurnProbeMinPly", 5, 0, 64);
/// Decision nodes this many turns or more from the horizon order their moves by
/// static value (a make and an evaluation per move); nearer, by history.
static STATIC_ORDER_MIN_DEPTH: Tunable = Tunable::new("Tune_StaticOrderMinDepth", 2, 1, 16);
/// The root move filter, as GNU Backgammon's: every turn is rated at 0 ply
/// when the root is listed, and only the best `ROOT_CANDIDATES` within
/// `ROOT_MARGIN` (thousandths of a point) of the best are searched deeper.
/// `ROOT_CANDIDATES` 0 searches them all.
static ROOT_CANDIDATES: Tunable = Tunable::new("Tune_RootCandidates", 8, 0, 64);
static ROOT_MARGIN: Tunable = Tunable::new("Tune_RootMargin", 200, 0, 3000);

/// Every tunable the expectimax search reads.
pub static TUNABLES: &[&Tunable] = &[
    &PROBE_MIN_DEPTH,
    &LAST_TURN_PROBE_MIN_PLY,
    &STATIC_ORDER_MIN_DEPTH,
    &ROOT_CANDIDATES,
    &ROOT_MARGIN,
];

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

pub struct Expectimax {
    tables: SearchTables,
    algorithm: ChanceAlgorithm,
    use_tt: bool,
    root_filter: bool,
}

impl Expectimax {
    pub fn algorithm(&self) -> ChanceAlgorithm {
        self.algorithm
    }

    /// Overrides the algorithm (until the next `configure`, which reads
    /// [`SearchConfig::algorithm`] again).
    pub fn set_algorithm(&mut self, algorithm: ChanceAlgorithm) {
        self.algorithm = algorithm;
    }

    /// Switches the transposition table off or on (for tests and comparisons).
    pub fn set_tt_enabled(&mut self, enabled: bool) {
        self.use_tt = enabled;
    }

    /// Switches the root move filter ([`ROOT_CANDIDATES`]) off or on: off, the
    /// search is full width, as the comparisons of algorithms need.
    pub fn set_root_filter(&mut self, enabled: bool) {
        self.root_filter = enabled;
    }
}

impl<G: ChanceGame> Searcher<G> for Expectimax {
    fn tunables() -> &'static [&'static Tunable] {
        TUNABLES
    }

    fn new(config: &SearchConfig) -> Self {
        Expectimax {
            tables: SearchTables::new(config, "expecti"),
            algorithm: ChanceAlgorithm::from_name(config.algorithm).unwrap_or_default(),
            use_tt: true,
            root_filter: true,
        }
    }

    fn tables(&self) -> &SearchTables {
        &self.tables
    }

    fn tables_mut(&mut self) -> &mut SearchTables {
        &mut self.tables
    }

    fn configure(&mut self, config: &SearchConfig) {
        self.tables.configure(config);
        self.algorithm = ChanceAlgorithm::from_name(config.algorithm).unwrap_or_default();
    }

    fn search(
        &mut self,
        pos: &G,
        limits: &Limits,
        control: &SearchControl,
        report: &mut dyn FnMut(&SearchInfo<G::Move>),
    ) -> SearchResult<G::Move> {
        let config = self.tables.config().clone();
        let algorithm = self.algorithm;
        let use_tt = self.use_tt;
        let (tt, pool) = self.tables.for_search();
        let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        let shared = Shared {
            tt: use_tt.then_some(tt),
            budget: Budget::new(limits, control, pos.side_to_move(), config.time_margin_ms),
            algorithm,
            root: Mutex::new(Vec::new()),
            next: AtomicUsize::new(0),
            root_choice: RootChoice::new(limits, pos),
        };
        let mut main = Worker::<G>::new(&shared, pos, max_depth);
        let result = if pos.at_chance() || pos.decided().is_some() {
            None
        } else {
            // Moves named by `searchmoves` are all searched.
            let filter = (self.root_filter && limits.searchmoves.is_empty())
                .then_some(config.multipv.max(1));
            main.order_root_moves(filter)
        };
        let result = match result {
            None => SearchResult {
                best: None,
                ponder: None,
                score: Score::Points(
                    terminal(pos, pos.side_to_move()).unwrap_or_else(|| leaf(pos)),
                ),
                depth: 0,
                nodes: 0,
            },
            Some(()) => {
                let mut helpers: Vec<Worker<G>> = (1..config.threads.max(1))
                    .map(|_| Worker::new(&shared, pos, max_depth))
                    .collect();
                let lines = config.multipv.max(1);
                let pool = pool.filter(|_| !helpers.is_empty());
                run(
                    &mut main,
                    &mut helpers,
                    pool,
                    max_depth,
                    lines,
                    limits,
                    report,
                )
            }
        };

        hold_answer(limits, &shared.budget.time, control);
        SearchResult {
            nodes: shared.budget.nodes(),
            ..result
        }
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
    let mut searcher = <Expectimax as Searcher<G>>::new(config);
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

/// One root move and what the current and last iterations made of it.
#[derive(Clone, Copy, Debug)]
struct RootLine<M> {
    mv: M,
    /// Its index in the root's generated move list (for the TT).
    index: u16,
    /// This iteration's value: exact, or an upper bound when it failed low.
    score: Value,
    exact: bool,
    done: bool,
}

/// What every search thread reads.
struct Shared<'a, G: ChanceGame> {
    tt: Option<&'a TranspositionTable>,
    budget: Budget<'a>,
    algorithm: ChanceAlgorithm,
    /// The root moves in search order, with this iteration's results.
    root: Mutex<Vec<RootLine<G::Move>>>,
    /// The next root move to hand out in this iteration.
    next: AtomicUsize,
    root_choice: RootChoice<G::Move>,
}

impl<G: ChanceGame> Shared<'_, G> {
    fn root(&self) -> std::sync::MutexGuard<'_, Vec<RootLine<G::Move>>> {
        self.root.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The alpha for the next root move: the `lines`-th best exact value so far.
    fn root_alpha(&self, lines: usize) -> Value {
        let root = self.root();
        let mut exact: Vec<Value> = root
            .iter()
            .filter(|line| line.done && line.exact)
            .map(|line| line.score)
            .collect();
        if exact.len() < lines {
            return -G::VALUE_BOUND - 1;
        }
        exact.sort_unstable_by(|a, b| b.cmp(a));
        exact[lines - 1]
    }

    fn record(&self, k: usize, score: Value, exact: bool) {
        let mut root = self.root();
        root[k].score = score;
        root[k].exact = exact;
        root[k].done = true;
    }
}

/// Iterative deepening; returns the answer.
fn run<G: ChanceGame>(
    main: &mut Worker<'_, G>,
    helpers: &mut [Worker<'_, G>],
    pool: Option<&rayon::ThreadPool>,
    max_depth: u32,
    lines: usize,
    limits: &Limits,
    report: &mut dyn FnMut(&SearchInfo<G::Move>),
) -> SearchResult<G::Move> {
    let shared = main.shared;
    let (first_move, first_score) = {
        let root = shared.root();
        (root[0].mv, root[0].score)
    };
    let mut best = (first_move, first_score);
    let mut completed = 0;
    let move_count = shared.root().len();
    let lines = lines.min(move_count);
    // A forced move needs no thought when the clock is what limits the search.
    let forced =
        move_count == 1 && limits.depth.is_none() && limits.nodes.is_none() && !limits.infinite;
    for depth in 1..=max_depth {
        if main.should_stop() || (depth > 1 && shared.budget.soft_expired()) {
            break;
        }
        let finished = iterate(main, helpers, pool, depth, lines);
        let mut root = shared.root();
        if !finished {
            // Keep a move this iteration already proved better than the old best.
            if root[0].done {
                let first = root[0].score;
                if let Some(line) = root
                    .iter()
                    .filter(|line| line.done && line.exact && line.score > first)
                    .max_by_key(|line| line.score)
                {
                    best = (line.mv, line.score);
                }
            }
            break;
        }
        // Stable: ties keep the search order; exact values before bounds.
        root.sort_by_key(|line| (std::cmp::Reverse(line.score), !line.exact));
        best = (root[0].mv, root[0].score);
        completed = depth;
        let reported: Vec<RootLine<G::Move>> = root[..lines].to_vec();
        drop(root);
        if let Some(tt) = shared.tt {
            tt.store(
                main.pos.key(),
                TtEntry {
                    move_index: Some(reported[0].index),
                    value: reported[0].score as i16,
                    depth: depth as u8,
                    bound: Bound::Exact,
                },
            );
        }
        let nodes = shared.budget.nodes();
        let time_ms = shared.budget.elapsed_ms();
        let hashfull = shared.tt.map_or(0, TranspositionTable::hashfull);
        for (k, line) in reported.iter().enumerate() {
            report(&SearchInfo {
                depth,
                seldepth: depth,
                multipv: k + 1,
                score: Score::Points(line.score),
                nodes,
                time_ms,
                hashfull,
                pv: vec![line.mv],
                scores: None,
                details: String::new(),
            });
        }
        if forced {
            break;
        }
    }
    SearchResult {
        best: Some(best.0),
        ponder: None,
        score: Score::Points(best.1),
        depth: completed,
        nodes: 0,
    }
}

/// One iteration over the root moves; `false` when it was interrupted.
fn iterate<G: ChanceGame>(
    main: &mut Worker<'_, G>,
    helpers: &mut [Worker<'_, G>],
    pool: Option<&rayon::ThreadPool>,
    depth: u32,
    lines: usize,
) -> bool {
    let shared = main.shared;
    for line in shared.root().iter_mut() {
        line.done = false;
    }
    // The first move alone with the full window: the others get its value as alpha.
    let value = main.search_root_move(0, depth, -G::VALUE_BOUND - 1);
    if main.stop {
        main.settle_nodes();
        return false;
    }
    shared.record(0, value, true);
    shared.next.store(1, Ordering::Relaxed);
    match pool {
        Some(pool) if !helpers.is_empty() => pool.in_place_scope(|scope| {
            for helper in helpers.iter_mut() {
                scope.spawn(move |_| helper.split_root(depth, lines));
            }
            main.split_root(depth, lines);
        }),
        _ => main.split_root(depth, lines),
    }
    !shared.budget.stopping() && shared.root().iter().all(|line| line.done)
}

/// Per-ply scratch space, allocated once per search.
struct Frame<M: Copy + Default> {
    moves: MoveList<M>,
    /// (ordering score, move index), best first.
    order: Vec<(Value, u16)>,
    /// Star2: a lower bound per chance outcome.
    lower: Vec<Value>,
    /// The chance outcomes' indices, heaviest first.
    outcome_order: Vec<u16>,
}

impl<M: Copy + Default> Frame<M> {
    fn new() -> Self {
        Frame {
            moves: MoveList::new(),
            order: Vec::with_capacity(MAX_MOVES),
            lower: Vec::with_capacity(OUTCOMES_RESERVED),
            outcome_order: Vec::with_capacity(OUTCOMES_RESERVED),
        }
    }
}

/// One search thread: its own copy of the position and its stacks.
struct Worker<'a, G: ChanceGame> {
    shared: &'a Shared<'a, G>,
    pos: G,
    frames: Vec<Frame<G::Move>>,
    /// Cut-offs per (side, hashed move), for ordering where static values cost too much.
    history: History,
    counter: NodeCounter,
    stop: bool,
}

impl<'a, G: ChanceGame> Worker<'a, G> {
    fn new(shared: &'a Shared<'a, G>, root: &G, max_depth: u32) -> Self {
        // A turn is at most a decision and a chance ply.
        let plies = 2 * max_depth as usize + 2;
        Worker {
            shared,
            pos: root.clone(),
            frames: (0..plies).map(|_| Frame::new()).collect(),
            history: History::new(2, HISTORY_BITS),
            // Threads split the root: each enforces the limits.
            counter: NodeCounter::new(CHECK_EVERY, true),
            stop: false,
        }
    }

    /// Fills the shared root list: TT move first, then by static value. `None`
    /// when there is no legal move. With `keep` (at least so many lines, for
    /// MultiPV) the root move filter applies.
    fn order_root_moves(&mut self, keep: Option<usize>) -> Option<()> {
        let side = self.pos.side_to_move();
        let mut moves = MoveList::new();
        self.pos.generate_moves(&mut moves);
        if !moves.iter().any(|&mv| self.shared.root_choice.allows(mv)) {
            return None;
        }
        let tt_index = self
            .shared
            .tt
            .and_then(|tt| tt.probe(self.pos.key()))
            .and_then(|e| e.move_index);
        let mut lines: Vec<(bool, RootLine<G::Move>)> = moves
            .iter()
            .enumerate()
            .filter(|&(_, &mv)| self.shared.root_choice.allows(mv))
            .map(|(index, &mv)| {
                let score = self.static_value_after(mv, side);
                let line = RootLine {
                    mv,
                    index: index as u16,
                    score,
                    exact: false,
                    done: false,
                };
                (tt_index == Some(index as u16), line)
            })
            .collect();
        lines.sort_by_key(|&(first, line)| std::cmp::Reverse((first, line.score)));
        let mut root: Vec<RootLine<G::Move>> = lines.into_iter().map(|(_, line)| line).collect();
        let candidates = ROOT_CANDIDATES.get() as usize;
        if candidates > 0 && keep.is_some() {
            // Rated at 0 ply: the TT move, listed first, may not be the best rated.
            let best = root.iter().map(|line| line.score).max().expect("moves");
            let lines = keep.unwrap_or(1);
            let mut kept = 0;
            root.retain(|line| {
                let stays = kept < lines.max(candidates)
                    && (kept < lines || line.score >= best - ROOT_MARGIN.get());
                kept += stays as usize;
                stays
            });
        }
        *self.shared.root() = root;
        Some(())
    }

    /// The static value for `side` of the position after `mv`.
    fn static_value_after(&mut self, mv: G::Move, side: Seat) -> Value {
        // As costly as a leaf: counted as a node, so that the algorithms compare fairly.
        self.count_node();
        self.pos.make(mv);
        let value = match terminal(&self.pos, side) {
            Some(value) => value,
            None => from_side(&self.pos, side, leaf(&self.pos)),
        };
        self.pos.unmake(mv);
        value
    }

    /// Takes root moves from the shared counter until none is left.
    fn split_root(&mut self, depth: u32, lines: usize) {
        let count = self.shared.root().len();
        loop {
            let k = self.shared.next.fetch_add(1, Ordering::Relaxed);
            if k >= count || self.should_stop() {
                break;
            }
            let alpha = self.shared.root_alpha(lines);
            let value = self.search_root_move(k, depth, alpha);
            if self.stop {
                break;
            }
            self.shared.record(k, value, value > alpha);
        }
        self.settle_nodes();
    }

    /// The value of root move `k` searched to `depth` with the window (alpha, U + 1).
    fn search_root_move(&mut self, k: usize, depth: u32, alpha: Value) -> Value {
        let mv = self.shared.root()[k].mv;
        let side = self.pos.side_to_move();
        self.pos.make(mv);
        let value = self.child(side, depth - 1, alpha, G::VALUE_BOUND + 1, 1, false);
        self.pos.unmake(mv);
        value
    }

    fn should_stop(&self) -> bool {
        self.stop || self.shared.budget.stopping()
    }

    fn settle_nodes(&mut self) -> u64 {
        self.counter.settle(&self.shared.budget)
    }

    #[inline]
    fn count_node(&mut self) {
        if self.counter.count(&self.shared.budget) {
            self.stop = true;
        }
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
        self.count_node();
        if self.stop {
            return 0;
        }
        if let Some(value) = terminal(&self.pos, self.pos.side_to_move()) {
            return value;
        }
        if depth == 0 || ply + 1 >= self.frames.len() {
            return leaf(&self.pos);
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
        let Some(entry) = self.shared.tt.and_then(|tt| tt.probe(key)) else {
            return (None, None);
        };
        let value = entry.value as Value;
        let usable = entry.depth as u32 == depth
            && value.abs() <= G::VALUE_BOUND
            && match entry.bound {
                Bound::Exact => true,
                Bound::Lower => value >= beta,
                Bound::Upper => value <= alpha,
            };
        (usable.then_some(value), entry.move_index)
    }

    #[inline]
    fn store_tt(&self, key: u64, depth: u32, value: Value, bound: Bound, move_index: Option<u16>) {
        if let Some(tt) = self.shared.tt {
            tt.store(
                key,
                TtEntry {
                    move_index,
                    value: value as i16,
                    depth: depth as u8,
                    bound,
                },
            );
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
        self.pos.generate_moves(&mut self.frames[ply].moves);
        let count = self.frames[ply].moves.len();
        if count == 0 {
            return leaf(&self.pos);
        }
        let probe = probe && count > 1;
        self.order_moves(ply, depth, tt_move, side);
        let original_alpha = alpha;
        let mut best = -G::VALUE_BOUND - 1;
        let mut best_index = 0;
        for k in 0..count {
            let index = self.frames[ply].order[k].1;
            let mv = self.frames[ply].moves[index as usize];
            self.pos.make(mv);
            let value = self.child(side, depth - 1, alpha, beta, ply + 1, false);
            self.pos.unmake(mv);
            if self.stop {
                return 0;
            }
            if value > best {
                best = value;
                best_index = index;
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
        } else if best >= beta {
            Some(Bound::Lower)
        } else if best > original_alpha {
            Some(Bound::Exact)
        } else {
            Some(Bound::Upper)
        };
        if let Some(bound) = bound {
            let move_index = (bound != Bound::Upper).then_some(best_index);
            self.store_tt(key, depth, best, bound, move_index);
        }
        best
    }

    /// Fills `frames[ply].order`: the TT move, then (two or more turns from the
    /// horizon, where it pays) by static value after the move.
    fn order_moves(&mut self, ply: usize, depth: u32, tt_move: Option<u16>, side: Seat) {
        let count = self.frames[ply].moves.len();
        let static_min_depth = match self.shared.algorithm {
            ChanceAlgorithm::Expectimax => u32::MAX,
            _ => STATIC_ORDER_MIN_DEPTH.get() as u32,
        };
        self.frames[ply].order.clear();
        for index in 0..count {
            let score = if tt_move == Some(index as u16) {
                TT_MOVE_SCORE
            } else if depth >= static_min_depth {
                let mv = self.frames[ply].moves[index];
                self.static_value_after(mv, side)
            } else {
                let mv = self.frames[ply].moves[index];
                self.history.get(side, mv)
            };
            self.frames[ply].order.push((score, index as u16));
        }
        self.frames[ply]
            .order
            .sort_unstable_by_key(|&(score, index)| (std::cmp::Reverse(score), index));
    }

    fn chance(&mut self, depth: u32, alpha: Value, beta: Value, ply: usize) -> Value {
        let key = self.pos.key() ^ CHANCE_KEY_SALT;
        if let (Some(value), _) = self.probe_tt(key, depth, alpha, beta) {
            return value;
        }
        let (value, bound) = match self.shared.algorithm {
            ChanceAlgorithm::Expectimax => (self.chance_full(depth, ply), Bound::Exact),
            ChanceAlgorithm::Star1 => self.chance_star(depth, alpha, beta, ply, false),
            ChanceAlgorithm::Star2 => self.chance_star(depth, alpha, beta, ply, true),
        };
        if !self.stop {
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
            if self.stop {
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
        let (low, high) = self.pos.value_bounds();
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

        let probe_here = depth >= PROBE_MIN_DEPTH.get() as u32
            || (depth == 1 && ply >= LAST_TURN_PROBE_MIN_PLY.get() as usize);
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
                if self.stop {
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
            if value <= narrowed && narrowed > a && !self.stop {
                // Only a stale or colliding table entry makes a lower bound lie.
                value = self.child(side, depth, a, b, ply + 1, false);
            }
            self.pos.undo_chance(outcome);
            if self.stop {
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

/// The static value for the side to move, within the value bound.
#[inline]
fn leaf<G: ChanceGame>(pos: &G) -> Value {
    pos.evaluate().clamp(-G::VALUE_BOUND, G::VALUE_BOUND)
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
