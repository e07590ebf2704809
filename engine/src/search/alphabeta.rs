//! The generic alpha-beta searcher for two-player games.
//!
//! Iterative deepening over a principal-variation search with aspiration windows,
//! a shared lockless transposition table, move ordering (TT move, tactical moves,
//! killers, history) and a quiescence search over tactical moves. The game's own
//! rules end a node ([`Game::outcome`]: wins, losses, draws, the move limit) and a
//! position repeated inside the search tree is a draw. Wins and losses are mate
//! distances in plies from the root.
//!
//! Reductions and pruning are kept only where a match showed a gain, so each
//! game switches them on (matches of 100 games at 100 ms a move):
//! - late move reductions ([`TwoPlayerGame::LATE_MOVE_REDUCTIONS`]: plain quiet
//!   moves late in a node are searched less deep first): Hasami +104 ± 51 Elo;
//!   Annan +0 ± 62, so off there;
//! - null-move pruning ([`TwoPlayerGame::NULL_MOVE`]: where the side to move
//!   passes and still holds beta, the node is cut): Hasami about +60 on top of
//!   the reductions (250 games); Annan −28 ± 47, so off there.
//!
//! Parallel search is Lazy SMP: helper threads run the same iterative deepening,
//! half of them level with the main thread and half one depth ahead
//! ([`helper_lead`]), and share only the transposition table and the moves being
//! searched: the root and every node `DEFER_MIN_DEPTH` from the horizon put off a
//! move another thread is on ([`super::smp`]), so that threads level with each
//! other spread out. The main thread's result is the one reported, unless a
//! helper completes the target depth first: its line is then the answer.
//! Helpers run on a dedicated rayon pool of `threads - 1` threads so that every
//! helper really runs next to the main thread.

use super::budget::{Budget, NodeCounter};
use super::ordering::{
    late_move_reduction, order_score, History, Killers, HISTORY_MAX, LMR_MIN_DEPTH, SCORE_KILLER,
    SCORE_TACTICAL,
};
use super::smp::{beside_helpers, busy_key, helper_lead, BusyMoves, Deferred};
use super::tables::{hold_answer, SearchTables};
use super::tt::{value_from_tt, value_to_tt, Bound, TranspositionTable, TtEntry};
use super::*;
use crate::core::movelist::MAX_MOVES;
use crate::core::Seat;
use crate::tune::Tunable;
use std::sync::atomic::AtomicU32;
use std::sync::Mutex;

/// Deepest iteration searched.
pub const MAX_DEPTH: u32 = 127;
/// Plies from the root the stacks hold (main search plus quiescence).
const MAX_PLY: usize = 192;
/// Nodes between looks at the stop flags, the node limit and the clock.
const CHECK_EVERY: u64 = 1024;
/// History table: per side, moves hashed to 2^HISTORY_BITS slots.
const HISTORY_BITS: u32 = 14;
/// A move already tried (below every real ordering score).
const TRIED: i32 = i32::MIN;
/// Picks by a scan over the scores before the rest of a node's moves is sorted
/// once (a cut node rarely needs more than the first few).
const SCANNED_PICKS: usize = 3;
/// Quiet moves remembered per node for the history malus.
const MAX_QUIETS: usize = 64;
/// With several threads, a node this deep defers a move (other than its first)
/// that another thread is searching right now (ABDADA-style), so threads spread out.
const DEFER_MIN_DEPTH: i32 = 3;

// The tunables of the alpha-beta search (docs/protocol.md, "Tunables").
/// Iterations from this depth on start with an aspiration window.
static ASPIRATION_MIN_DEPTH: Tunable = Tunable::new("Tune_AspirationMinDepth", 4, 1, 20);
/// Half-width of the first aspiration window (a third of a stone in Hasami).
static ASPIRATION_DELTA: Tunable = Tunable::new("Tune_AspirationDelta", 30, 1, 1000);
/// Null-move pruning from this depth, searching `NULL_REDUCTION + depth /
/// NULL_DEPTH_DIVISOR` plies less than a move would (never twice in a row).
static NULL_MIN_DEPTH: Tunable = Tunable::new("Tune_NullMinDepth", 3, 1, 20);
static NULL_REDUCTION: Tunable = Tunable::new("Tune_NullReduction", 2, 0, 10);
static NULL_DEPTH_DIVISOR: Tunable = Tunable::new("Tune_NullDepthDivisor", 4, 1, 64);
/// Quiescence answers a check with every move only this close to the horizon:
/// deeper, chains of checks and interposing drops (Annan) explode the tree.
static QS_EVASION_PLIES: Tunable = Tunable::new("Tune_QsEvasionPlies", 1, 0, 16);

/// Every tunable the alpha-beta search reads, move ordering's included.
pub static TUNABLES: &[&Tunable] = &[
    &ASPIRATION_MIN_DEPTH,
    &ASPIRATION_DELTA,
    &NULL_MIN_DEPTH,
    &NULL_REDUCTION,
    &NULL_DEPTH_DIVISOR,
    &QS_EVASION_PLIES,
    &ordering::LMR_MIN_DEPTH,
    &ordering::LMR_MIN_MOVES,
    &ordering::LMR_DIVISOR_PERCENT,
];

pub struct AlphaBeta {
    tables: SearchTables,
}

impl<G: TwoPlayerGame> Searcher<G> for AlphaBeta {
    fn tunables() -> &'static [&'static Tunable] {
        TUNABLES
    }

    fn new(config: &SearchConfig) -> Self {
        AlphaBeta {
            tables: SearchTables::new(config, "search"),
        }
    }

    fn tables(&self) -> &SearchTables {
        &self.tables
    }

    fn tables_mut(&mut self) -> &mut SearchTables {
        &mut self.tables
    }

    fn search(
        &mut self,
        pos: &G,
        limits: &Limits,
        control: &SearchControl,
        report: &mut dyn FnMut(&SearchInfo<G::Move>),
    ) -> SearchResult<G::Move> {
        let config = self.tables.config().clone();
        let (tt, pool) = self.tables.for_search();
        let multipv = config.multipv.max(1);
        let shared = Shared {
            tt,
            budget: Budget::new(limits, control, pos.side_to_move(), config.time_margin_ms),
            max_depth: limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH) as i32,
            root_ply: pos.ply(),
            main_depth: AtomicU32::new(0),
            busy: BusyMoves::new(config.threads),
            answer_first_finish: multipv == 1,
            finished: Mutex::new(None),
            root_choice: RootChoice::new(limits, pos),
        };
        let mut main = Worker::new(0, &shared, pos);
        if !main.root_moves.is_empty() {
            beside_helpers(
                pool,
                config.threads,
                &shared.budget,
                |id| Worker::new(id, &shared, pos).run_helper(),
                || main.run_main(multipv, report),
            );
            main.adopt_finished(report);
        }
        shared.budget.abort();
        main.settle_nodes();

        hold_answer(limits, &shared.budget.time, control);
        main.result()
    }
}

/// A helper's iteration at the target depth, completed before the main thread's.
struct Finished<M> {
    depth: u32,
    seldepth: u32,
    score: Value,
    pv: Vec<M>,
}

/// What every search thread reads.
struct Shared<'a, M> {
    tt: &'a TranspositionTable,
    budget: Budget<'a>,
    max_depth: i32,
    /// The root's ply: positions repeated since are draws.
    root_ply: u32,
    /// The main thread's last completed depth (helpers keep ahead of it).
    main_depth: AtomicU32,
    busy: BusyMoves,
    /// Whether a helper that completes the target depth first ends the search
    /// with its line as the answer (not with MultiPV: helpers search one line).
    answer_first_finish: bool,
    finished: Mutex<Option<Finished<M>>>,
    root_choice: RootChoice<M>,
}

/// Per-ply scratch space, allocated once per search.
struct Frame<M: Copy + Default> {
    moves: MoveList<M>,
    /// Ordering score per move (same index), `TRIED` once searched.
    scores: [i32; MAX_MOVES],
    /// Indices of the quiet moves searched, for the history malus.
    quiets: [u16; MAX_QUIETS],
    quiet_count: usize,
    deferred: Deferred<MAX_MOVES>,
    /// Picks made since the scores were set.
    picks: usize,
    /// After `SCANNED_PICKS` picks: the untried moves by score, and the next one.
    order: [u16; MAX_MOVES],
    order_len: usize,
    order_next: usize,
}

impl<M: Copy + Default> Frame<M> {
    fn new() -> Self {
        Frame {
            moves: MoveList::new(),
            scores: [0; MAX_MOVES],
            quiets: [0; MAX_QUIETS],
            quiet_count: 0,
            deferred: Deferred::new(),
            picks: 0,
            order: [0; MAX_MOVES],
            order_len: 0,
            order_next: 0,
        }
    }

    /// The untried move with the highest score (the first of equals), marked as
    /// tried. The scores must not change between picks, except by this marking,
    /// until [`Frame::scores_set`].
    #[inline]
    fn pick(&mut self) -> Option<(usize, i32)> {
        self.picks += 1;
        if self.picks <= SCANNED_PICKS {
            return self.pick_by_scan();
        }
        if self.picks == SCANNED_PICKS + 1 {
            self.sort_untried();
        }
        while self.order_next < self.order_len {
            let at = self.order[self.order_next] as usize;
            self.order_next += 1;
            let score = self.scores[at];
            if score != TRIED {
                self.scores[at] = TRIED;
                return Some((at, score));
            }
        }
        None
    }

    /// The scores were just set: picking starts over.
    #[inline]
    fn scores_set(&mut self) {
        self.picks = 0;
    }

    /// The untried moves in the order the scan would pick them.
    fn sort_untried(&mut self) {
        let mut len = 0;
        for (i, &score) in self.scores[..self.moves.len()].iter().enumerate() {
            if score != TRIED {
                self.order[len] = i as u16;
                len += 1;
            }
        }
        let scores = &self.scores;
        self.order[..len].sort_unstable_by_key(|&i| (std::cmp::Reverse(scores[i as usize]), i));
        self.order_len = len;
        self.order_next = 0;
    }

    #[inline]
    fn pick_by_scan(&mut self) -> Option<(usize, i32)> {
        let mut best = TRIED;
        let mut at = usize::MAX;
        for (i, &score) in self.scores[..self.moves.len()].iter().enumerate() {
            if score > best {
                best = score;
                at = i;
            }
        }
        (at != usize::MAX).then(|| {
            self.scores[at] = TRIED;
            (at, best)
        })
    }
}

struct RootMove<M> {
    mv: M,
    /// Index in the root's generated move list (what the TT stores).
    index: u16,
    /// This iteration's score; `-INFINITE` until searched (or when worse than alpha).
    score: Value,
    previous_score: Value,
    pv: Vec<M>,
}

struct Worker<'a, G: TwoPlayerGame> {
    id: usize,
    shared: &'a Shared<'a, G::Move>,
    pos: G,
    root_moves: Vec<RootMove<G::Move>>,
    frames: Vec<Frame<G::Move>>,
    killers: Killers<G::Move>,
    history: History,
    /// Triangular PV table: row `ply` holds the line from `ply` at `pv[ply * MAX_PLY + ply..]`.
    pv: Vec<G::Move>,
    pv_len: Vec<usize>,
    /// Per ply: whether the move into it was a null move.
    passed: Vec<bool>,
    counter: NodeCounter,
    seldepth: usize,
    completed_depth: u32,
    stop: bool,
}

impl<'a, G: TwoPlayerGame> Worker<'a, G> {
    fn new(id: usize, shared: &'a Shared<'a, G::Move>, root: &G) -> Self {
        let mut worker = Worker {
            id,
            shared,
            pos: root.clone(),
            root_moves: Vec::new(),
            frames: (0..MAX_PLY).map(|_| Frame::new()).collect(),
            killers: Killers::new(MAX_PLY),
            history: History::new(2, HISTORY_BITS),
            pv: vec![G::Move::default(); MAX_PLY * MAX_PLY],
            pv_len: vec![0; MAX_PLY + 1],
            passed: vec![false; MAX_PLY + 1],
            counter: NodeCounter::new(CHECK_EVERY, id == 0),
            seldepth: 0,
            completed_depth: 0,
            stop: false,
        };
        worker.order_root_moves();
        worker
    }

    /// The root moves in a first order that is also the fallback answer: the TT
    /// move, then by the one-ply static value (a move that wins at once first).
    fn order_root_moves(&mut self) {
        let moves = &mut self.frames[0].moves;
        self.pos.generate_moves(moves);
        let tt_index = self
            .shared
            .tt
            .probe(self.pos.key())
            .and_then(|e| e.move_index);
        let mut rated = Vec::with_capacity(moves.len());
        for (index, &mv) in moves.iter().enumerate() {
            if !self.shared.root_choice.allows(mv) {
                continue;
            }
            self.pos.make(mv);
            let value = match terminal_value(&self.pos, 1, self.shared.root_ply) {
                Some(value) => -value,
                None => -self.pos.evaluate(),
            };
            self.pos.unmake(mv);
            let first = tt_index == Some(index as u16);
            rated.push((first, value, index));
        }
        rated.sort_by_key(|&(first, value, _)| std::cmp::Reverse((first, value)));
        self.root_moves = rated
            .into_iter()
            .map(|(_, _, index)| RootMove {
                mv: moves[index],
                index: index as u16,
                score: -INFINITE,
                previous_score: -INFINITE,
                pv: Vec::with_capacity(MAX_PLY),
            })
            .collect();
    }

    /// Iterative deepening on the main thread, reporting each completed iteration.
    fn run_main(&mut self, multipv: usize, report: &mut dyn FnMut(&SearchInfo<G::Move>)) {
        let lines = multipv.min(self.root_moves.len());
        for depth in 1..=self.shared.max_depth {
            if self.should_stop() || (depth > 1 && self.shared.budget.soft_expired()) {
                break;
            }
            self.seldepth = 0;
            self.iterate(depth, lines);
            if self.stop {
                break;
            }
            self.completed_depth = depth as u32;
            self.shared
                .main_depth
                .store(depth as u32, Ordering::Relaxed);
            self.store_root(depth);
            self.settle_nodes();
            let nodes = self.shared.budget.nodes();
            let time_ms = self.shared.budget.elapsed_ms();
            let hashfull = self.shared.tt.hashfull();
            for (k, line) in self.root_moves[..lines].iter().enumerate() {
                report(&SearchInfo {
                    depth: depth as u32,
                    seldepth: self.seldepth as u32,
                    multipv: k + 1,
                    score: Score::from_value(line.score),
                    nodes,
                    time_ms,
                    hashfull,
                    pv: line.pv.clone(),
                    scores: None,
                    details: String::new(),
                });
            }
            // A mate found within the searched depth is exact: deeper search changes nothing.
            let best = self.root_moves[0].score;
            if lines == 1 && best.abs() >= MATE_BOUND && MATE - best.abs() <= depth {
                break;
            }
        }
    }

    /// Lazy SMP helper: the same iterations level with the main thread (odd
    /// helpers, so the only helper of two threads) or one depth ahead (even
    /// ones), until the main thread is done or this helper completes the target
    /// depth first.
    fn run_helper(&mut self) {
        let offset = helper_lead(self.id);
        let mut depth = 1 + offset;
        while depth <= self.shared.max_depth && !self.should_stop() {
            self.seldepth = 0;
            self.iterate(depth, 1);
            if self.stop {
                break;
            }
            if depth == self.shared.max_depth && self.shared.answer_first_finish {
                self.finish(depth);
                break;
            }
            let main_depth = self.shared.main_depth.load(Ordering::Relaxed) as i32;
            depth = (depth + 1).max(main_depth + 1 + offset);
        }
        self.settle_nodes();
    }

    /// This helper completed the target depth first: its line is the answer.
    fn finish(&mut self, depth: i32) {
        let mut finished = self
            .shared
            .finished
            .lock()
            .expect("no thread panics holding it");
        if self.shared.main_depth.load(Ordering::Relaxed) < depth as u32 && finished.is_none() {
            let best = &self.root_moves[0];
            *finished = Some(Finished {
                depth: depth as u32,
                seldepth: self.seldepth as u32,
                score: best.score,
                pv: best.pv.clone(),
            });
            self.shared.budget.abort();
        }
    }

    /// The main thread takes over a helper's iteration that completed a depth
    /// it had not (and reports it).
    fn adopt_finished(&mut self, report: &mut dyn FnMut(&SearchInfo<G::Move>)) {
        let Some(finished) = self
            .shared
            .finished
            .lock()
            .expect("no thread panics holding it")
            .take()
        else {
            return;
        };
        if finished.depth <= self.completed_depth || finished.pv.is_empty() {
            return;
        }
        let Some(at) = self.root_moves.iter().position(|m| m.mv == finished.pv[0]) else {
            return;
        };
        self.root_moves[..=at].rotate_right(1);
        self.completed_depth = finished.depth;
        self.settle_nodes();
        let best = &mut self.root_moves[0];
        best.score = finished.score;
        best.pv = finished.pv;
        report(&SearchInfo {
            depth: finished.depth,
            seldepth: finished.seldepth,
            multipv: 1,
            score: Score::from_value(best.score),
            nodes: self.shared.budget.nodes(),
            time_ms: self.shared.budget.elapsed_ms(),
            hashfull: self.shared.tt.hashfull(),
            pv: best.pv.clone(),
            scores: None,
            details: String::new(),
        });
    }

    fn should_stop(&self) -> bool {
        self.stop || self.shared.budget.stopping()
    }

    /// One iteration: each of the `lines` best root moves with an aspiration
    /// window around its previous score, excluding the lines already found.
    fn iterate(&mut self, depth: i32, lines: usize) {
        for root_move in &mut self.root_moves {
            root_move.previous_score = root_move.score;
            root_move.score = -INFINITE;
        }
        for line in 0..lines {
            let previous = self.root_moves[line].previous_score;
            let mut delta = ASPIRATION_DELTA.get();
            let (mut alpha, mut beta) =
                if depth >= ASPIRATION_MIN_DEPTH.get() && previous.abs() < MATE_BOUND {
                    (
                        (previous - delta).max(-INFINITE),
                        (previous + delta).min(INFINITE),
                    )
                } else {
                    (-INFINITE, INFINITE)
                };
            loop {
                let value = self.search_root(depth, alpha, beta, line);
                // Stable: moves that tie keep the previous iteration's order.
                self.root_moves[line..].sort_by_key(|m| std::cmp::Reverse(m.score));
                if self.stop {
                    return;
                }
                if value <= alpha {
                    beta = (alpha + beta) / 2;
                    alpha = (value - delta).max(-INFINITE);
                } else if value >= beta {
                    beta = (value + delta).min(INFINITE);
                } else {
                    break;
                }
                delta += delta / 2;
            }
            self.root_moves[..=line].sort_by_key(|m| std::cmp::Reverse(m.score));
        }
    }

    /// Searches `root_moves[first..]` in order, returns the best value (fail-soft).
    /// With several threads, a move after the first that another thread is on
    /// waits until the others are done: threads level with each other then share
    /// out the root moves instead of searching them all in the same order.
    fn search_root(&mut self, depth: i32, mut alpha: Value, beta: Value, first: usize) -> Value {
        let key = self.pos.key();
        self.frames[0].deferred.clear();
        let mut best = -INFINITE;
        let mut next = first;
        loop {
            let (k, replaying) = if next < self.root_moves.len() {
                next += 1;
                (next - 1, false)
            } else if let Some(k) = self.frames[0].deferred.replay() {
                (k, true)
            } else {
                break;
            };
            let mv = self.root_moves[k].mv;
            let busy_key = busy_key(key, &mv);
            if k > first && !replaying && self.shared.busy.is_busy(busy_key) {
                self.frames[0].deferred.push(k);
                continue;
            }
            self.shared.busy.enter(busy_key);
            self.pos.make(mv);
            let value = if k == first {
                -self.search(-beta, -alpha, depth - 1, 1)
            } else {
                let mut value = -self.search(-alpha - 1, -alpha, depth - 1, 1);
                if value > alpha && value < beta && !self.stop {
                    value = -self.search(-beta, -alpha, depth - 1, 1);
                }
                value
            };
            self.pos.unmake(mv);
            self.shared.busy.leave(busy_key);
            if self.stop {
                break;
            }
            if k == first || value > alpha {
                let root_move = &mut self.root_moves[k];
                root_move.score = value;
                root_move.pv.clear();
                root_move.pv.push(mv);
                root_move
                    .pv
                    .extend_from_slice(&self.pv[MAX_PLY + 1..MAX_PLY + self.pv_len[1]]);
            }
            if value > best {
                best = value;
                if value > alpha {
                    alpha = value;
                    if value >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    fn store_root(&self, depth: i32) {
        let best = &self.root_moves[0];
        self.shared.tt.store(
            self.pos.key(),
            TtEntry {
                move_index: Some(best.index),
                value: value_to_tt(best.score, 0),
                depth: depth as u8,
                bound: Bound::Exact,
            },
        );
    }

    #[inline]
    fn count_node(&mut self) {
        if self.counter.count(&self.shared.budget) {
            self.stop = true;
        }
    }

    fn settle_nodes(&mut self) -> u64 {
        self.counter.settle(&self.shared.budget)
    }

    /// Ordering scores for the moves of `ply` (all but `skip`, already searched).
    fn score_moves(&mut self, ply: usize, skip: Option<usize>) {
        let side = self.pos.side_to_move();
        let killers = self.killers.at(ply);
        let frame = &mut self.frames[ply];
        for i in 0..frame.moves.len() {
            let mv = frame.moves[i];
            let gain = self.pos.is_tactical(mv).then(|| self.pos.gain(mv));
            frame.scores[i] = order_score(mv, gain, self.history.get(side, mv), killers);
        }
        if let Some(skip) = skip {
            frame.scores[skip] = TRIED;
        }
        frame.scores_set();
    }

    fn update_pv(&mut self, ply: usize, mv: G::Move) {
        let child_len = self.pv_len[ply + 1].max(ply + 1);
        let (row, child) = (ply * MAX_PLY, (ply + 1) * MAX_PLY);
        self.pv[row + ply] = mv;
        self.pv
            .copy_within(child + ply + 1..child + child_len, row + ply + 1);
        self.pv_len[ply] = child_len;
    }

    /// The main search below the root (`ply >= 1`): PVS, fail-soft.
    ///
    /// 1. Count the node; end it if the game is over or the position repeats.
    /// 2. At the horizon, quiescence.
    /// 3. Mate-distance bounds; TT cutoff at non-PV nodes; the null move (where
    ///    the game has it).
    /// 4. The TT move before anything else is generated or scored.
    /// 5. The other moves by ordering score, null-window first (late plain
    ///    moves reduced), re-searched on a fail high.
    /// 6. Killers and history from a quiet cutoff; store the result.
    fn search(&mut self, mut alpha: Value, mut beta: Value, depth: i32, ply: usize) -> Value {
        // Step 1.
        if let Some(value) = self.enter_node(ply) {
            return value;
        }
        // Step 2.
        if depth <= 0 || ply >= MAX_PLY - 1 {
            return self.quiesce(alpha, beta, ply, 0);
        }
        // Step 3.
        alpha = alpha.max(-MATE + ply as Value);
        beta = beta.min(MATE - ply as Value - 1);
        if alpha >= beta {
            return alpha;
        }
        let pv_node = beta - alpha > 1;
        let key = self.pos.key();
        let tt = self.shared.tt.probe(key);
        if let Some(entry) = tt {
            let value = value_from_tt(entry.value, ply);
            if !pv_node
                && entry.depth as i32 >= depth
                && match entry.bound {
                    Bound::Exact => true,
                    Bound::Lower => value >= beta,
                    Bound::Upper => value <= alpha,
                }
            {
                return value;
            }
        }

        // Only the pruning below asks (Annan has none, Hasami no checks).
        let in_check = (G::NULL_MOVE || G::LATE_MOVE_REDUCTIONS) && self.pos.in_check();
        // Null move: where the side to move, passing, still holds beta with a
        // reduced search, a real move is assumed to hold it too.
        if G::NULL_MOVE
            && !pv_node
            && depth >= NULL_MIN_DEPTH.get()
            && !in_check
            && !self.passed[ply]
            && beta.abs() < MATE_BOUND
            && self.pos.evaluate() >= beta
            && self.pos.make_null()
        {
            let reduction = NULL_REDUCTION.get() + depth / NULL_DEPTH_DIVISOR.get();
            self.passed[ply + 1] = true;
            let value = -self.search(-beta, -beta + 1, depth - 1 - reduction, ply + 1);
            self.passed[ply + 1] = false;
            self.pos.unmake_null();
            if self.stop {
                return 0;
            }
            if value >= beta {
                return value.min(MATE_BOUND - 1);
            }
        }

        self.pos.generate_moves(&mut self.frames[ply].moves);
        let count = self.frames[ply].moves.len();
        if count == 0 {
            // `outcome` said the game goes on; treat having no move as losing.
            return -MATE + ply as Value;
        }
        let tt_index = tt
            .and_then(|e| e.move_index)
            .map(usize::from)
            .filter(|&i| i < count);
        self.frames[ply].quiet_count = 0;
        self.frames[ply].deferred.clear();
        let defer = depth >= DEFER_MIN_DEPTH && self.shared.busy.enabled();
        // Moves of a node in check are never reduced.
        let reducible = G::LATE_MOVE_REDUCTIONS && depth >= LMR_MIN_DEPTH.get() && !in_check;
        let mut picked = 0;
        let mut searched = 0;
        let original_alpha = alpha;
        let side = self.pos.side_to_move();
        let mut best = -INFINITE;
        let mut best_index = None;
        let mut scored = false;

        loop {
            // Step 4 and 5: the TT move, then the rest by score, then the deferred ones.
            // `plain`: a quiet move that is neither the TT move nor a killer.
            let (index, tactical, plain, replaying) = match (picked, tt_index) {
                _ if picked == count => {
                    let Some(index) = self.frames[ply].deferred.replay() else {
                        break;
                    };
                    let tactical = self.pos.is_tactical(self.frames[ply].moves[index]);
                    (index, tactical, !tactical, true)
                }
                (0, Some(index)) => (
                    index,
                    self.pos.is_tactical(self.frames[ply].moves[index]),
                    false,
                    false,
                ),
                _ => {
                    if !scored {
                        self.score_moves(ply, tt_index);
                        scored = true;
                    }
                    let (index, score) = self.frames[ply].pick().expect("an untried move is left");
                    (
                        index,
                        score >= SCORE_TACTICAL,
                        score < SCORE_KILLER[1],
                        false,
                    )
                }
            };
            if !replaying {
                picked += 1;
            }
            let mv = self.frames[ply].moves[index];
            let busy_key = busy_key(key, &mv);
            if defer {
                if searched > 0 && !replaying && self.shared.busy.is_busy(busy_key) {
                    self.frames[ply].deferred.push(index);
                    continue;
                }
                self.shared.busy.enter(busy_key);
            }
            self.pos.make(mv);
            if depth > 1 {
                // Only the main search probes the table (quiescence does not).
                self.shared.tt.prefetch(self.pos.key());
            }
            let value = if searched == 0 {
                -self.search(-beta, -alpha, depth - 1, ply + 1)
            } else {
                // A late plain move is searched first with less depth, and
                // again to the full depth only if it beats alpha. Not when it
                // gives check.
                let reduction = if plain && reducible && !self.pos.in_check() {
                    late_move_reduction(depth, searched, pv_node)
                } else {
                    0
                };
                let mut value = -self.search(-alpha - 1, -alpha, depth - 1 - reduction, ply + 1);
                if reduction > 0 && value > alpha && !self.stop {
                    value = -self.search(-alpha - 1, -alpha, depth - 1, ply + 1);
                }
                if value > alpha && value < beta && !self.stop {
                    value = -self.search(-beta, -alpha, depth - 1, ply + 1);
                }
                value
            };
            self.pos.unmake(mv);
            if defer {
                self.shared.busy.leave(busy_key);
            }
            if self.stop {
                return 0;
            }
            searched += 1;

            if value > best {
                best = value;
                if value > alpha {
                    best_index = Some(index);
                    if pv_node {
                        self.update_pv(ply, mv);
                    }
                    if value >= beta {
                        // Step 6.
                        if !tactical {
                            self.reward_quiet(ply, side, mv, depth);
                        }
                        break;
                    }
                    alpha = value;
                }
            }
            if !tactical {
                let frame = &mut self.frames[ply];
                if frame.quiet_count < MAX_QUIETS {
                    frame.quiets[frame.quiet_count] = index as u16;
                    frame.quiet_count += 1;
                }
            }
        }

        let bound = if best >= beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.shared.tt.store(
            key,
            TtEntry {
                move_index: best_index.map(|i| i as u16),
                value: value_to_tt(best, ply),
                depth: depth as u8,
                bound,
            },
        );
        best
    }

    /// A quiet move caused a cutoff: it becomes a killer and gains history; the
    /// quiet moves tried before it lose some.
    fn reward_quiet(&mut self, ply: usize, side: Seat, mv: G::Move, depth: i32) {
        self.killers.insert(ply, mv);
        let bonus = (depth * depth).min(HISTORY_MAX / 2);
        self.history.update(side, mv, bonus);
        for k in 0..self.frames[ply].quiet_count {
            let tried = self.frames[ply].moves[self.frames[ply].quiets[k] as usize];
            self.history.update(side, tried, -bonus);
        }
    }

    /// Quiescence: the static evaluation (stand pat) or better by tactical moves;
    /// in check within the first `QS_EVASION_PLIES` plies, no standing pat: every
    /// move is searched, and none means mate. `qply` counts plies below the horizon.
    /// The node is already counted and known not to be over.
    fn quiesce(&mut self, mut alpha: Value, beta: Value, ply: usize, qply: u32) -> Value {
        self.seldepth = self.seldepth.max(ply);
        if ply >= MAX_PLY - 1 {
            return self.pos.evaluate();
        }
        let in_check = (qply as i32) < QS_EVASION_PLIES.get() && self.pos.in_check();
        let mut best = if in_check {
            -MATE + ply as Value
        } else {
            self.pos.evaluate()
        };
        if best >= beta {
            return best;
        }
        alpha = alpha.max(best);
        if in_check {
            self.pos.generate_moves(&mut self.frames[ply].moves);
        } else {
            self.pos.generate_tactical(&mut self.frames[ply].moves);
        }
        let frame = &mut self.frames[ply];
        for i in 0..frame.moves.len() {
            frame.scores[i] = self.pos.gain(frame.moves[i]);
        }
        frame.scores_set();
        // Most valuable victim first: without it, chains of captures explode.
        while let Some((index, _)) = self.frames[ply].pick() {
            let mv = self.frames[ply].moves[index];
            self.pos.make(mv);
            let value = -self.quiesce_node(-beta, -alpha, ply + 1, qply + 1);
            self.pos.unmake(mv);
            if self.stop {
                return 0;
            }
            if value > best {
                best = value;
                if value > alpha {
                    if value >= beta {
                        break;
                    }
                    alpha = value;
                }
            }
        }
        best
    }

    fn quiesce_node(&mut self, alpha: Value, beta: Value, ply: usize, qply: u32) -> Value {
        match self.enter_node(ply) {
            Some(value) => value,
            None => self.quiesce(alpha, beta, ply, qply),
        }
    }

    /// Every node below the root starts here: counted, its PV emptied; its value
    /// when the search is stopping or the game is over (or repeats) there.
    #[inline]
    fn enter_node(&mut self, ply: usize) -> Option<Value> {
        self.pv_len[ply] = ply;
        self.count_node();
        if self.stop {
            return Some(0);
        }
        terminal_value(&self.pos, ply, self.shared.root_ply)
    }

    /// The answer: the best line of the last completed iteration, or a better move
    /// already proven in the interrupted one; before any iteration completed, the
    /// first root move of the initial order (TT move or best static reply).
    fn result(&self) -> SearchResult<G::Move> {
        let nodes = self.shared.budget.nodes();
        let Some(best) = self.root_moves.first() else {
            let score = terminal_value(&self.pos, 0, self.shared.root_ply).unwrap_or(-MATE);
            return SearchResult {
                best: None,
                ponder: None,
                score: Score::from_value(score),
                depth: 0,
                nodes,
            };
        };
        let score = if best.score > -INFINITE {
            best.score
        } else {
            best.previous_score
        };
        let ponder = (best.pv.first() == Some(&best.mv))
            .then(|| best.pv.get(1).copied())
            .flatten();
        SearchResult {
            best: Some(best.mv),
            ponder,
            score: Score::from_value(if score > -INFINITE { score } else { DRAW }),
            depth: self.completed_depth,
            nodes,
        }
    }
}

/// The value of a finished game (or an in-tree repetition) for the side to move,
/// `ply` plies from the root; `None` while play goes on (having no legal move is
/// found by move generation).
#[inline]
fn terminal_value<G: Game>(pos: &G, ply: usize, root_ply: u32) -> Option<Value> {
    if let Some(outcome) = pos.decided() {
        return Some(match outcome.value_for(pos.side_to_move()).signum() {
            1 => MATE - ply as Value,
            -1 => -MATE + ply as Value,
            _ => DRAW,
        });
    }
    pos.repeats_since(root_ply).then_some(DRAW)
}

#[cfg(test)]
mod tests;
