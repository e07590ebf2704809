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
//! Iterative deepening, the threads and the answer are [`super::driver`]'s: this
//! file is one iteration. Parallel search is Lazy SMP: helper threads run the
//! same iterative deepening, half of them level with the main thread and half
//! one depth ahead ([`super::smp::helper_lead`]), and share only the
//! transposition table and the moves being searched: the root and every node
//! `DEFER_MIN_DEPTH` from the horizon put off a move another thread is on
//! ([`super::smp`]), so that threads level with each other spread out. The main
//! thread's result is the one reported, unless a helper completes the target
//! depth first: its line is then the answer. Helpers run on a dedicated rayon
//! pool of `threads - 1` threads so that every helper really runs next to the
//! main thread.

use super::driver::{rate_root_moves, Iterate, Shared, Thread, MAX_DEPTH};
use super::node::{self, PvTable, Weakening};
use super::ordering::{
    order_score, History, Killers, Lmr, LmrParams, HISTORY_MAX, SCORE_KILLER, SCORE_TACTICAL,
};
use super::picker::Picker;
use super::smp::{busy_key, Deferred};
use super::tt::{value_from_tt, Bound, TtEntry};
use super::*;
use crate::core::movelist::MAX_MOVES;
use crate::core::Seat;
use crate::tune::{visit_list, Spec, Tunable, Tuned};

/// Plies from the root the stacks hold: the main search and, beyond its
/// horizon, quiescence (whose checks are answered in full near the horizon).
const MAX_PLY: usize = MAX_DEPTH as usize + 128;
/// Quiet moves remembered per node for the history malus.
const MAX_QUIETS: usize = 64;
/// With several threads, a node this deep defers a move (other than its first)
/// that another thread is searching right now (ABDADA-style), so threads spread out.
const DEFER_MIN_DEPTH: i32 = 3;

/// The tunables of the alpha-beta search (docs/protocol.md, "Tunables"), one
/// set per game: each game declares its tuned defaults
/// ([`TwoPlayerGame::SEARCH`]) and each searcher holds its own values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AlphaBetaParams {
    /// Iterations from this depth on start with an aspiration window.
    pub aspiration_min_depth: i32,
    /// Half-width of the first aspiration window (a third of a stone in Hasami).
    pub aspiration_delta: i32,
    /// Null-move pruning from this depth, searching `null_reduction + depth /
    /// null_depth_divisor` plies less than a move would (never twice in a row).
    pub null_min_depth: i32,
    pub null_reduction: i32,
    pub null_depth_divisor: i32,
    /// Quiescence answers a check with every move only this close to the
    /// horizon: deeper, chains of checks and interposing drops (Annan) explode
    /// the tree.
    pub qs_evasion_plies: i32,
    pub lmr: LmrParams,
}

impl AlphaBetaParams {
    /// The values set by hand before any tuning.
    pub const UNTUNED: AlphaBetaParams = AlphaBetaParams {
        aspiration_min_depth: 4,
        aspiration_delta: 30,
        null_min_depth: 3,
        null_reduction: 2,
        null_depth_divisor: 4,
        qs_evasion_plies: 1,
        lmr: LmrParams {
            min_depth: 3,
            min_moves: 3,
            divisor_percent: 200,
        },
    };

    const OWN: &'static [Tunable<Self>] = &[
        Tunable::new("Tune_AspirationMinDepth", 1, 20, |p| {
            &mut p.aspiration_min_depth
        }),
        Tunable::new("Tune_AspirationDelta", 1, 1000, |p| &mut p.aspiration_delta),
        Tunable::new("Tune_NullMinDepth", 1, 20, |p| &mut p.null_min_depth),
        Tunable::new("Tune_NullReduction", 0, 10, |p| &mut p.null_reduction),
        Tunable::new("Tune_NullDepthDivisor", 1, 64, |p| {
            &mut p.null_depth_divisor
        }),
        Tunable::new("Tune_QsEvasionPlies", 0, 16, |p| &mut p.qs_evasion_plies),
    ];
}

/// Every tunable of the set, move ordering's last.
impl Tuned for AlphaBetaParams {
    fn visit(&mut self, visit: &mut dyn FnMut(Spec, &mut i32)) {
        visit_list(self, Self::OWN, visit);
        self.lmr.visit(visit);
    }
}

/// The alpha-beta searcher with its evaluator `E` and its own parameters.
pub type AlphaBeta<E> = Search<AlphaBetaKind<E>>;

/// What the alpha-beta searcher keeps of its own: the reductions for its
/// parameters, worked out at a search's start.
#[derive(Default)]
pub struct AlphaBetaKind<E> {
    lmr: Lmr,
    eval: std::marker::PhantomData<E>,
}

impl<E: Evaluator> SearchKind for AlphaBetaKind<E> {
    type Params = Tuning<AlphaBetaParams, E>;
    const NAME: &'static str = "search";
}

impl<G: TwoPlayerGame> SearchesGame<G> for AlphaBetaKind<G::Eval> {
    fn default_params() -> Self::Params {
        Tuning::of(G::SEARCH)
    }

    fn search<'a>(
        &'a mut self,
        run: Run<'a, G, Self::Params>,
        report: &mut dyn FnMut(&SearchInfo<G::Move>),
    ) -> SearchResult<G::Move> {
        let setting = Setting::new(run.params, &mut self.lmr, run.params.search.lmr);
        let (shared, pos, weak) = (run.shared, run.pos, run.weakening());
        run.drive(|id| Worker::new(id, shared, pos, setting, weak), report)
    }
}

/// Per-ply scratch space, allocated once and kept between searches.
struct Frame<M: Copy + Default> {
    moves: MoveList<M>,
    /// Ordering scores per move (same index).
    picker: Picker,
    /// Indices of the quiet moves searched, for the history malus.
    quiets: [u16; MAX_QUIETS],
    quiet_count: usize,
    deferred: Deferred<MAX_MOVES>,
}

impl<M: Copy + Default> Frame<M> {
    fn new() -> Self {
        Frame {
            moves: MoveList::new(),
            picker: Picker::new(),
            quiets: [0; MAX_QUIETS],
            quiet_count: 0,
            deferred: Deferred::new(),
        }
    }
}

struct Worker<'a, G: TwoPlayerGame> {
    thread: Thread<'a, G::Move>,
    pos: G,
    setting: Setting<'a, AlphaBetaParams, G::Eval>,
    /// The player's weakness: `None` at full strength.
    weak: Option<Weakening<'a, G::Move>>,
    frames: Vec<Frame<G::Move>>,
    killers: Killers<G::Move>,
    history: History,
    pv: PvTable<G::Move>,
    /// Per ply: whether the move into it was a null move.
    passed: Vec<bool>,
}

/// A worker's stacks, kept between searches ([`Scratch`]).
type Stacks<M> = (Vec<Frame<M>>, Killers<M>, History, PvTable<M>, Vec<bool>);

impl<G: TwoPlayerGame> Drop for Worker<'_, G> {
    fn drop(&mut self) {
        let stacks: Stacks<G::Move> = (
            std::mem::take(&mut self.frames),
            std::mem::take(&mut self.killers),
            std::mem::take(&mut self.history),
            std::mem::take(&mut self.pv),
            std::mem::take(&mut self.passed),
        );
        self.thread.shared.scratch.give(stacks);
    }
}

impl<'a, G: TwoPlayerGame> Worker<'a, G> {
    fn new(
        id: usize,
        shared: &'a Shared<'a, G::Move>,
        root: &G,
        setting: Setting<'a, AlphaBetaParams, G::Eval>,
        weak: Option<Weakening<'a, G::Move>>,
    ) -> Self {
        let kept: Option<Stacks<G::Move>> = shared.scratch.take(|_| true);
        let (frames, killers, history, pv, passed) = match kept {
            Some(mut stacks) => {
                let (frames, killers, history, pv, passed) = &mut stacks;
                frames.iter_mut().for_each(|frame| *frame = Frame::new());
                killers.clear();
                history.clear();
                pv.reset();
                passed.fill(false);
                stacks
            }
            None => (
                (0..MAX_PLY).map(|_| Frame::new()).collect(),
                Killers::new(MAX_PLY),
                History::new(2),
                PvTable::new(MAX_PLY),
                vec![false; MAX_PLY + 1],
            ),
        };
        let mut worker = Worker {
            thread: Thread::new(id, shared, false),
            pos: root.clone(),
            setting,
            weak,
            frames,
            killers,
            history,
            pv,
            passed,
        };
        worker.order_root_moves();
        worker
    }

    /// The first order of the root moves: the TT move, then by the one-ply
    /// static value (a move that wins at once first).
    fn order_root_moves(&mut self) {
        let mut moves = MoveList::new();
        node::generate_moves(&self.pos, self.weak.as_ref(), &mut moves);
        let shared = self.thread.shared;
        let tt_move = shared.tt.probe(self.pos.key()).and_then(|e| e.move_index);
        let (pos, eval, weak) = (&mut self.pos, self.setting.eval, self.weak);
        self.thread.root_moves = rate_root_moves(&moves, tt_move, &shared.root_choice, |mv| {
            pos.make(mv);
            let value = match terminal_value(pos, 1, shared.root_ply) {
                Some(value) => -value,
                None => -evaluate(pos, eval, weak.as_ref()),
            };
            pos.unmake(mv);
            value
        });
    }

    /// One iteration: each of the `lines` best root moves with an aspiration
    /// window around its previous score, excluding the lines already found.
    fn search_lines(&mut self, depth: i32, lines: usize) {
        for line in 0..lines {
            let previous = self.thread.root_moves[line].previous_score;
            let params = &self.setting.params;
            let mut delta = params.aspiration_delta;
            let (mut alpha, mut beta) =
                if depth >= params.aspiration_min_depth && previous.abs() < MATE_BOUND {
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
                self.thread.root_moves[line..].sort_by_key(|m| std::cmp::Reverse(m.score));
                if self.thread.stop {
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
            self.thread.root_moves[..=line].sort_by_key(|m| std::cmp::Reverse(m.score));
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
            let (k, replaying) = if next < self.thread.root_moves.len() {
                next += 1;
                (next - 1, false)
            } else if let Some(k) = self.frames[0].deferred.replay() {
                (k, true)
            } else {
                break;
            };
            let mv = self.thread.root_moves[k].mv;
            let busy_key = busy_key(key, &mv);
            let busy = &self.thread.shared.busy;
            if !busy.claim(busy_key, k > first && !replaying) {
                self.frames[0].deferred.push(k);
                continue;
            }
            self.pos.make(mv);
            let value = if k == first {
                -self.search(-beta, -alpha, depth - 1, 1)
            } else {
                let mut value = -self.search(-alpha - 1, -alpha, depth - 1, 1);
                if value > alpha && value < beta && !self.thread.stop {
                    value = -self.search(-beta, -alpha, depth - 1, 1);
                }
                value
            };
            self.pos.unmake(mv);
            self.thread.shared.busy.leave(busy_key);
            if self.thread.stop {
                break;
            }
            if k == first || value > alpha {
                self.thread.record_line(k, value, self.pv.below_root());
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

    /// Ordering scores for the moves of `ply` (all but `skip`, already searched).
    fn score_moves(&mut self, ply: usize, skip: Option<usize>) {
        let side = self.pos.side_to_move();
        let killers = self.killers.at(ply);
        let frame = &mut self.frames[ply];
        let scores = frame.picker.scores_mut(frame.moves.len());
        for (score, &mv) in scores.iter_mut().zip(frame.moves.iter()) {
            let gain = self
                .pos
                .is_tactical(mv)
                .then(|| self.pos.gain(mv, self.setting.eval));
            *score = order_score(mv, gain, self.history.get(side, mv), killers);
        }
        if let Some(skip) = skip {
            frame.picker.skip(skip);
        }
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
        let tt = self.thread.shared.tt.probe(key);
        if let Some(entry) = tt {
            let value = value_from_tt(entry.value, ply);
            if !pv_node && entry.settles(value, depth, alpha, beta) {
                return value;
            }
        }

        // Only the pruning below asks (Annan has none, Hasami no checks).
        let in_check = (G::NULL_MOVE || G::LATE_MOVE_REDUCTIONS) && self.pos.in_check();
        // Null move: where the side to move, passing, still holds beta with a
        // reduced search, a real move is assumed to hold it too.
        if G::NULL_MOVE
            && !pv_node
            && depth >= self.setting.params.null_min_depth
            && !in_check
            && !self.passed[ply]
            && beta.abs() < MATE_BOUND
            && self.evaluate() >= beta
            && self.pos.make_null()
        {
            let params = &self.setting.params;
            let reduction = params.null_reduction + depth / params.null_depth_divisor;
            self.passed[ply + 1] = true;
            let value = -self.search(-beta, -beta + 1, depth - 1 - reduction, ply + 1);
            self.passed[ply + 1] = false;
            self.pos.unmake_null();
            if self.thread.stop {
                return 0;
            }
            if value >= beta {
                return value.min(MATE_BOUND - 1);
            }
        }

        node::generate_moves(&self.pos, self.weak.as_ref(), &mut self.frames[ply].moves);
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
        let defer = depth >= DEFER_MIN_DEPTH && self.thread.shared.busy.enabled();
        // Moves of a node in check are never reduced.
        let reducible =
            G::LATE_MOVE_REDUCTIONS && depth >= self.setting.params.lmr.min_depth && !in_check;
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
                    let (index, score) = self.frames[ply]
                        .picker
                        .pick()
                        .expect("an untried move is left");
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
            let busy = &self.thread.shared.busy;
            if defer && !busy.claim(busy_key, searched > 0 && !replaying) {
                self.frames[ply].deferred.push(index);
                continue;
            }
            self.pos.make(mv);
            if depth > 1 {
                // Only the main search probes the table (quiescence does not).
                self.thread.shared.tt.prefetch(self.pos.key());
            }
            let value = if searched == 0 {
                -self.search(-beta, -alpha, depth - 1, ply + 1)
            } else {
                // A late plain move is searched first with less depth, and
                // again to the full depth only if it beats alpha. Not when it
                // gives check.
                let reduction = if plain && reducible && !self.pos.in_check() {
                    self.setting.lmr.reduction(depth, searched, pv_node)
                } else {
                    0
                };
                let mut value = -self.search(-alpha - 1, -alpha, depth - 1 - reduction, ply + 1);
                if reduction > 0 && value > alpha && !self.thread.stop {
                    value = -self.search(-alpha - 1, -alpha, depth - 1, ply + 1);
                }
                if value > alpha && value < beta && !self.thread.stop {
                    value = -self.search(-beta, -alpha, depth - 1, ply + 1);
                }
                value
            };
            self.pos.unmake(mv);
            if defer {
                self.thread.shared.busy.leave(busy_key);
            }
            if self.thread.stop {
                return 0;
            }
            searched += 1;

            if value > best {
                best = value;
                if value > alpha {
                    best_index = Some(index);
                    if pv_node {
                        self.pv.update(ply, mv, true);
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

        let bound = Bound::of(best, original_alpha, beta);
        let entry = TtEntry::of_node(best, ply, depth, bound, best_index);
        self.thread.shared.tt.store(key, entry);
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
    /// in check within the first `qs_evasion_plies` plies, no standing pat: every
    /// move is searched, and none means mate. `qply` counts plies below the horizon.
    /// The node is already counted and known not to be over.
    fn quiesce(&mut self, mut alpha: Value, beta: Value, ply: usize, qply: u32) -> Value {
        self.thread.seldepth = self.thread.seldepth.max(ply);
        if ply >= MAX_PLY - 1 {
            return self.evaluate();
        }
        let in_check = (qply as i32) < self.setting.params.qs_evasion_plies && self.pos.in_check();
        let mut best = if in_check {
            -MATE + ply as Value
        } else {
            self.evaluate()
        };
        if best >= beta {
            return best;
        }
        // At the horizon, a mate in one would be missed (drops are not tactical).
        // The levels do not look: they never did, and were measured so.
        if qply == 0 && self.weak.is_none() && self.pos.mates_in_one() {
            return MATE - ply as Value - 1;
        }
        alpha = alpha.max(best);
        if in_check {
            node::generate_moves(&self.pos, self.weak.as_ref(), &mut self.frames[ply].moves);
        } else {
            self.pos.generate_tactical(&mut self.frames[ply].moves);
            if let Some(weak) = &self.weak {
                weak.drop_overlooked(self.pos.key(), &mut self.frames[ply].moves);
            }
        }
        let frame = &mut self.frames[ply];
        let scores = frame.picker.scores_mut(frame.moves.len());
        for (score, &mv) in scores.iter_mut().zip(frame.moves.iter()) {
            *score = self.pos.gain(mv, self.setting.eval);
        }
        // Most valuable victim first: without it, chains of captures explode.
        while let Some((index, _)) = self.frames[ply].picker.pick() {
            let mv = self.frames[ply].moves[index];
            self.pos.make(mv);
            let value = -self.quiesce_node(-beta, -alpha, ply + 1, qply + 1);
            self.pos.unmake(mv);
            if self.thread.stop {
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

    /// The static evaluation, as the player searched for judges it.
    #[inline]
    fn evaluate(&self) -> Value {
        evaluate(&self.pos, self.setting.eval, self.weak.as_ref())
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
        self.pv.start(ply);
        if self.thread.enter_node() {
            return Some(0);
        }
        terminal_value(&self.pos, ply, self.thread.shared.root_ply)
    }
}

impl<'a, G: TwoPlayerGame> Iterate<'a> for Worker<'a, G> {
    type Move = G::Move;

    fn thread(&self) -> &Thread<'a, G::Move> {
        &self.thread
    }

    fn thread_mut(&mut self) -> &mut Thread<'a, G::Move> {
        &mut self.thread
    }

    fn iterate(&mut self, depth: i32, lines: usize) {
        self.search_lines(depth, lines);
    }

    fn store_root(&self, depth: i32) {
        let (tt, score) = (self.thread.shared.tt, self.thread.root_moves[0].score);
        self.thread
            .store_root(tt, self.pos.key(), depth, score, Bound::Exact);
    }

    fn no_move_value(&self) -> Value {
        terminal_value(&self.pos, 0, self.thread.shared.root_ply).unwrap_or(-MATE)
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

/// `pos`'s static evaluation by `eval`, as the player searched for judges it.
#[inline]
fn evaluate<G: TwoPlayerGame>(
    pos: &G,
    eval: &G::Eval,
    weak: Option<&Weakening<'_, G::Move>>,
) -> Value {
    node::judged(weak, pos, None, pos.evaluate(eval))
}

#[cfg(test)]
mod tests;
