//! Multi-player searchers over [`MultiPlayerGame`]: paranoid, max-n and best-reply
//! search (BRS), chosen by [`SearchConfig::algorithm`] (names in [`ALGORITHMS`]; an
//! empty or unknown name means [`DEFAULT_ALGORITHM`]).
//!
//! # The algorithms and what they assume
//! - **paranoid**: the root seat (the side to move at the root) against a
//!   coalition of all others. A node is MAX when [`Game::side_to_move`] is the
//!   root seat and MIN otherwise, whatever order the rules give; alpha-beta
//!   (fail-soft) over root-relative values. Assumes the others play against us.
//! - **maxn** (Luckhardt & Irani, shallow pruning by Korf): every node returns one
//!   value per seat and the mover maximises its own. Ties go to the vector greater
//!   by (mover's value, then the whole vector lexicographically), so the value is
//!   independent of move order. No quiescence; the TT orders moves only.
//! - **brs** (Schadd & Winands 2011): MAX layers are the root seat's moves; a MIN
//!   layer searches the moves of *every* live opponent (handing the turn over with
//!   [`MultiPlayerGame::make_pass`] to an opponent not due, skipping those the
//!   rules refuse) and keeps the single best reply; then the turn goes back to the
//!   root seat with `make_pass(root)` unless the rules already gave it back or a
//!   seat in check must answer (then that seat moves: a MIN layer of its moves
//!   only, as the rules force). Alpha-beta on root-relative values.
//! - **brsplus** (Esser et al. 2013): as BRS, but no passes: in a MIN layer each
//!   live opponent in turn is the replier; the moves go in the rules' order, the
//!   replier trying every move and the other opponents, when due, playing their
//!   first move by *static* order (the tactical move of largest gain, else the
//!   first generated: static so that a node's value depends on the position
//!   only), until the root seat is due again (after [`MAX_SEQUENCE`] moves the
//!   turn is handed back with a pass if the rules allow). An opponent not due
//!   before the root seat does not reply; a game ending on the way counts.
//!   Background moves are not counted as nodes.
//!
//! Paranoid, BRS and BRS+ share a quiescence over [`MultiPlayerGame::is_tactical`]
//! moves in the rules' real move order (stand pat for whoever moves, at most
//! [`MultiParams::qs_max_plies`] plies deep: in a toy game where a third of the moves are
//! tactical, 4 plies cost 15 times the nodes of none, 2 plies 4 times).
//!
//! Every searcher: iterative deepening, the TT (paranoid and BRS: values and
//! bounds, cutoffs at equal or greater depth; max-n: move only), ordering by TT
//! move, tactical moves by `gain`, two killers per ply, history per seat; late
//! move reductions in paranoid and BRS nodes as in alpha-beta (BRS with them
//! against without, Yonin, at 100 ms a move: +45 ± 34 and +36 ± 32 Elo in
//! 60 and 80 games); MultiPV
//! (the best lines get exact values; max-n cuts below the last line). A
//! position with no legal move that `decided` called open is scored by
//! `outcome()`, or else statically.
//!
//! # Values
//! Root-relative values (paranoid, BRS) are centipawns of
//! `evaluate_all()[root]`; a finished game is valued by the root seat's place
//! ([`place_value`]): sole 1st = `MATE - ply`, sole last = `-(MATE - ply)`, and
//! otherwise the average of the flat table `[FLAT_WIN, P, …, -P, -FLAT_WIN]`
//! over the places a tie shares (4 seats: `[20000, 10000, -10000, -20000]`;
//! 3 seats: `[20000, 0, -20000]`). A position repeated inside the tree is a
//! draw-like 0 (max-n: equal shares), not the places the game would give.
//!
//! Max-n works on *shares*: every component ≥ `SHARE_FLOOR` (L) and the
//! components sum to at most `S = seats × SHARE_UNIT`: the bounds Korf's
//! shallow pruning needs. A node whose mover is sure of `x` leaves the parent's
//! seat at most `S − x − (seats − 2)·L`; when that is below what the parent's
//! seat already has, the node is cut. Static values are clamped to
//! ±`share_clamp` and shifted to `uᵢ ∈ [1, 2·share_clamp + 1]`; seat `i` gets
//! `L + 200 + spread·uᵢ / Σu` (4 seats: 2200 … 19000, level 6400; the sum is at
//! most 25600 of S = 32000). A finished game gives sole 1st `W − ply`
//! (W = L + ¾(S − seats·L) = 20000), sole last `L + ply`, the middle places
//! 6000 and 4000 (3 seats: W = 15500, middle 6500), tied places the average, so
//! every vector sums to S; a win beats, and a last place loses to, every static
//! share. Pruning therefore fires mostly where some line is decided (a win
//! elsewhere) or very lopsided: with four seats shallow pruning is weak, as
//! Sturtevant and Korf found. The reported score and `scores` map a share back:
//! win or last place as mate distances, otherwise `share − 6400` (0 = level).
//! `SearchInfo::scores` is `None` for paranoid and BRS (they have one value).
//!
//! The transposition table key mixes in the algorithm and the root seat, since
//! paranoid and BRS values are root-relative.
//!
//! # The principal variation
//! Moves of all seats in the order played. BRS lines stop before a move that
//! needed a pass (it could not be replayed with [`Game::make`]); BRS+ lines stop
//! where the turn was handed back by a pass.
//!
//! # Parallel search
//! [`super::driver`]'s Lazy SMP, as in [`super::alphabeta`]: helper threads on a
//! dedicated rayon pool of `threads − 1` run the same iterative deepening (the
//! depths of [`super::smp::helper_lead`]) and share the transposition table and
//! the moves being searched: the root and nodes `DEFER_MIN_DEPTH` from the
//! horizon put off a move another thread is on ([`super::smp`]; not max-n below
//! the root or BRS+ MIN layers). The main thread's result is the one reported,
//! unless a helper completes the target depth first (one line asked): its line
//! is then the answer.

use super::driver::{rate_root_moves, Iterate, RootMove, Shared, Thread, MAX_DEPTH};
use super::node::{self, PvTable, Weakening};
use super::ordering::{
    order_score, History, Killers, Lmr, LmrParams, HISTORY_MAX, SCORE_KILLER, SCORE_TACTICAL,
};
use super::picker::{Picker, TRIED};
use super::smp::{busy_key, Deferred};
use super::tt::{value_from_tt, Bound, TtEntry};
use super::*;
use crate::core::movelist::MAX_MOVES;
use crate::core::{GameResult, PerSeat, Seat};
use crate::tune::{visit_list, Spec, Tunable, Tuned};

/// The algorithms offered, in the order the protocol lists them.
pub const ALGORITHMS: &[&str] = &["paranoid", "maxn", "brs", "brsplus"];
/// The default: best-reply search won most in four-seat, seat-rotated matches at
/// equal time (of the place points, 40 games at 100 ms a move: BRS 65.8 %, BRS+
/// 55.0 %, paranoid 50.8 %, max-n 28.3 %; 40 more at 200 ms: BRS 63.3 %,
/// paranoid 55.0 %, BRS+ 43.3 %, max-n 38.3 %).
pub const DEFAULT_ALGORITHM: &str = "brs";

/// Plies from the root the stacks hold: the main search, then quiescence
/// (at most `MultiParams::qs_max_plies`) and BRS+ sequences.
const MAX_PLY: usize = MAX_DEPTH as usize + 32;
/// With several threads, a node this far from the horizon puts off a move
/// another thread is on (as in alpha-beta).
const DEFER_MIN_DEPTH: i32 = 3;
/// The tunables of the multi-player searches (docs/protocol.md, "Tunables").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MultiParams {
    /// Quiescence searches at most this many plies of tactical moves (tuned
    /// with Yonin's evaluation, see yonin/eval.rs: 2 → 3 in its first round,
    /// back to 2 in its second). At most 6: each ply more multiplies the
    /// tactical tail (with MultiPV 64, depth 3 of a middlegame took 3 s at 6,
    /// over 15 s at 8 and no iteration in 150 s at 16).
    pub qs_max_plies: i32,
    /// Max-n: static values are clamped to ±this before they become shares.
    pub share_clamp: i32,
    /// Late move reductions as alpha-beta's, with the multi-player searches' own
    /// values (tuned in Yonin's second round; 3, 3, 200 before).
    pub lmr: LmrParams,
}

impl Default for MultiParams {
    fn default() -> Self {
        MultiParams {
            qs_max_plies: 2,
            share_clamp: 3_000,
            lmr: LmrParams {
                min_depth: 3,
                min_moves: 2,
                divisor_percent: 248,
            },
        }
    }
}

impl MultiParams {
    const OWN: &'static [Tunable<Self>] = &[
        Tunable::new("Tune_QsMaxPlies", 0, 6, |p| &mut p.qs_max_plies),
        Tunable::new("Tune_ShareClamp", 100, 20_000, |p| &mut p.share_clamp),
    ];
}

/// Every tunable the multi-player searches read, move ordering's last.
impl Tuned for MultiParams {
    fn visit(&mut self, visit: &mut dyn FnMut(Spec, &mut i32)) {
        visit_list(self, Self::OWN, visit);
        self.lmr.visit(visit);
    }
}

const SCORE_TT: i32 = 1 << 30;
/// A BRS move is stored in the TT as `seat * SEAT_STRIDE + index`.
const SEAT_STRIDE: usize = 1024;
/// BRS+: at most this many moves in one MIN layer's sequence.
const MAX_SEQUENCE: usize = 12;
/// Key mixes: per algorithm, per root seat.
const ALGORITHM_MIX: [u64; 4] = [
    0x0000_0000_0000_0000,
    0x5D6A_9C1F_37E2_B84D,
    0xA3C5_1E87_F290_6B1C,
    0x3F84_D5B5_B547_0917,
];
const ROOT_MIX: PerSeat<u64> = PerSeat::new([
    0x0000_0000_0000_0000,
    0x9E37_79B9_7F4A_7C15,
    0xC2B2_AE3D_27D4_EB4F,
    0x1656_67B1_9E37_79F9,
]);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Algorithm {
    Paranoid,
    MaxN,
    Brs,
    BrsPlus,
}

impl Algorithm {
    /// The algorithm named (one of [`ALGORITHMS`]); any other name, the empty
    /// one included, is [`DEFAULT_ALGORITHM`].
    fn from_name(name: &str) -> Self {
        match name {
            "paranoid" => Algorithm::Paranoid,
            "maxn" => Algorithm::MaxN,
            "brs" => Algorithm::Brs,
            "brsplus" => Algorithm::BrsPlus,
            _ => Algorithm::Brs,
        }
    }
}

/// The multi-player searcher with its evaluator `E` and its own parameters.
pub type MultiSearch<E> = Search<MultiKind<E>>;

/// What the multi-player searcher keeps of its own: the reductions for its
/// parameters, worked out at a search's start.
#[derive(Default)]
pub struct MultiKind<E> {
    lmr: Lmr,
    eval: std::marker::PhantomData<E>,
}

impl<E: Evaluator> SearchKind for MultiKind<E> {
    type Params = Tuning<MultiParams, E>;
    const NAME: &'static str = "multi";
}

impl<G: MultiPlayerGame> SearchesGame<G> for MultiKind<G::Eval> {
    fn default_params() -> Self::Params {
        Tuning::of(MultiParams::default())
    }

    fn search<'a>(
        &'a mut self,
        run: Run<'a, G, Self::Params>,
        report: &mut dyn FnMut(&SearchInfo<G::Move>),
    ) -> SearchResult<G::Move> {
        let setting = Setting::new(run.params, &mut self.lmr, run.params.search.lmr);
        let (shared, pos) = (run.shared, run.pos);
        let algorithm = Algorithm::from_name(run.config.algorithm);
        let key_mix = ALGORITHM_MIX[algorithm as usize] ^ ROOT_MIX[pos.side_to_move()];
        let weak = run.weakening();
        let new_worker = |id| Worker::new(id, shared, pos, setting, weak, algorithm, key_mix);
        run.drive(new_worker, report)
    }
}

/// Per-ply scratch space: one move list per seat (BRS MIN layers hold the
/// moves of every opponent; the other searches use list 0).
struct Frame<M: Copy + Default> {
    lists: [MoveList<M>; 4],
    /// The lists' ordering scores.
    pickers: [Picker; 4],
    /// BRS+: the moves a MIN layer plays in a row (background moves and the reply).
    sequence: [M; MAX_SEQUENCE],
    /// Moves put off, as `list * SEAT_STRIDE + index`.
    deferred: Deferred<{ 4 * MAX_MOVES }>,
    /// A bit per list whose quiet tail ([`MultiPlayerGame::append_quiet_tail`])
    /// is not generated yet, and the seat whose moves each list holds.
    tails: u8,
    seat_of: [Seat; 4],
}

impl<M: Copy + Default> Frame<M> {
    fn new() -> Self {
        Frame {
            lists: std::array::from_fn(|_| MoveList::new()),
            pickers: std::array::from_fn(|_| Picker::new()),
            sequence: [M::default(); MAX_SEQUENCE],
            deferred: Deferred::new(),
            tails: 0,
            seat_of: [Seat::FIRST; 4],
        }
    }

    fn clear(&mut self) {
        for (list, picker) in self.lists.iter_mut().zip(&mut self.pickers) {
            list.clear();
            picker.clear();
        }
        self.deferred.clear();
        self.tails = 0;
    }

    fn is_empty(&self) -> bool {
        self.lists.iter().all(|list| list.is_empty())
    }

    /// The untried move of list `list` with the highest score (the first of
    /// equals), marked tried.
    fn pick_in(&mut self, list: usize) -> Option<usize> {
        self.pickers[list].pick().map(|(at, _)| at)
    }

    /// The untried move with the highest score (the first of equals, lists in
    /// order), as (list, index), marked tried.
    #[inline]
    fn pick(&mut self) -> Option<(usize, usize)> {
        self.pick_above(TRIED)
    }

    /// [`Frame::pick`] of the moves scored above `floor`.
    #[inline]
    fn pick_above(&mut self, floor: i32) -> Option<(usize, usize)> {
        let best = self.pickers.iter().map(Picker::best).max().unwrap_or(TRIED);
        if best <= floor {
            return None;
        }
        for (list, picker) in self.pickers.iter_mut().enumerate() {
            if let Some(at) = picker.take_first_of(best) {
                return Some((list, at));
            }
        }
        unreachable!("the best score is in a list")
    }
}

struct Worker<'a, G: MultiPlayerGame> {
    thread: Thread<'a, G::Move>,
    setting: Setting<'a, MultiParams, G::Eval>,
    /// The player's weakness: `None` at full strength.
    weak: Option<Weakening<'a, G::Move>>,
    algorithm: Algorithm,
    /// XORed into every key this search probes or stores.
    key_mix: u64,
    pos: G,
    root: Seat,
    seats: usize,
    /// The root move this iteration searches next, unless put off.
    root_next: usize,
    frames: Vec<Frame<G::Move>>,
    killers: Killers<G::Move>,
    history: History,
    pv: PvTable<G::Move>,
    /// BRS+: move generation for background moves.
    scratch: MoveList<G::Move>,
}

/// A worker's stacks, kept between searches ([`super::tables::Scratch`]).
type Stacks<M> = (Vec<Frame<M>>, Killers<M>, History, PvTable<M>);

impl<G: MultiPlayerGame> Drop for Worker<'_, G> {
    fn drop(&mut self) {
        let stacks: Stacks<G::Move> = (
            std::mem::take(&mut self.frames),
            std::mem::take(&mut self.killers),
            std::mem::take(&mut self.history),
            std::mem::take(&mut self.pv),
        );
        self.thread.shared.scratch.give(stacks);
    }
}

impl<'a, G: MultiPlayerGame> Worker<'a, G> {
    fn new(
        id: usize,
        shared: &'a Shared<'a, G::Move>,
        root: &G,
        setting: Setting<'a, MultiParams, G::Eval>,
        weak: Option<Weakening<'a, G::Move>>,
        algorithm: Algorithm,
        key_mix: u64,
    ) -> Self {
        let kept: Option<Stacks<G::Move>> = shared.scratch.take(|_| true);
        let (frames, killers, history, pv) = match kept {
            Some(mut stacks) => {
                let (frames, killers, history, pv) = &mut stacks;
                frames.iter_mut().for_each(|frame| *frame = Frame::new());
                killers.clear();
                history.clear();
                pv.reset();
                stacks
            }
            None => (
                (0..MAX_PLY).map(|_| Frame::new()).collect(),
                Killers::new(MAX_PLY),
                History::new(4),
                PvTable::new(MAX_PLY),
            ),
        };
        let mut worker = Worker {
            thread: Thread::new(id, shared, false),
            setting,
            weak,
            algorithm,
            key_mix,
            pos: root.clone(),
            root: root.side_to_move(),
            seats: G::SEATS.clamp(1, 4),
            root_next: 0,
            frames,
            killers,
            history,
            pv,
            scratch: MoveList::new(),
        };
        worker.order_root_moves();
        worker
    }

    fn key(&self) -> u64 {
        self.pos.key() ^ self.key_mix
    }

    /// The first order of the root moves: the TT move, then by the one-ply
    /// static value for the root seat (a move that ends the game well first).
    fn order_root_moves(&mut self) {
        let mut moves = MoveList::new();
        node::generate_moves(&self.pos, self.weak.as_ref(), &mut moves);
        let shared = self.thread.shared;
        let tt_move = shared.tt.probe(self.key()).and_then(|e| e.move_index);
        let root_moves = rate_root_moves(&moves, tt_move, &shared.root_choice, |mv| {
            self.pos.make(mv);
            let value = match self.terminal_value(1) {
                Some(value) => value,
                None => self.static_value(),
            };
            self.pos.unmake(mv);
            value
        });
        self.thread.root_moves = root_moves;
    }

    fn search_root(&mut self, depth: i32) {
        match self.algorithm {
            Algorithm::MaxN => self.maxn_root(depth),
            _ => self.alphabeta_root(depth),
        }
        // Stable: moves that tie keep the previous order.
        if self.algorithm == Algorithm::MaxN {
            self.thread
                .root_moves
                .sort_by_key(|m| std::cmp::Reverse((m.score, m.shares)));
        } else {
            self.thread
                .root_moves
                .sort_by_key(|m| std::cmp::Reverse(m.score));
        }
    }

    /// Paranoid and BRS at the root: the root seat maximises over a full window.
    fn alphabeta_root(&mut self, depth: i32) {
        self.start_root();
        let mut alpha = -INFINITE;
        while let Some((k, busy)) = self.next_root_move() {
            let mv = self.thread.root_moves[k].mv;
            self.pos.make(mv);
            let value = self.child(alpha, INFINITE, depth - 1, 1);
            self.pos.unmake(mv);
            self.thread.shared.busy.leave(busy);
            if self.thread.stop {
                break;
            }
            if value > alpha || k < self.thread.lines() {
                self.record_root(k, value, PerSeat::splat(0));
                alpha = self.thread.line_bound();
            }
        }
    }

    fn maxn_root(&mut self, depth: i32) {
        self.start_root();
        while let Some((k, busy)) = self.next_root_move() {
            let mv = self.thread.root_moves[k].mv;
            self.pos.make(mv);
            // Children the root seat values below the lines it has are cut.
            let bound = (k >= self.thread.lines()).then(|| (self.root, self.thread.line_bound()));
            let shares = self.maxn_child(depth - 1, 1, bound);
            self.pos.unmake(mv);
            self.thread.shared.busy.leave(busy);
            if self.thread.stop {
                break;
            }
            self.record_root(k, shares[self.root], shares);
        }
    }

    fn start_root(&mut self) {
        self.root_next = 0;
        self.frames[0].deferred.clear();
    }

    /// The next root move of this iteration and its busy key: in order, except
    /// that with several threads a move past the lines searched exactly that
    /// another thread is on waits until the others are done.
    fn next_root_move(&mut self) -> Option<(usize, u64)> {
        let key = self.key();
        let lines = self.thread.lines();
        loop {
            let (k, replaying) = if self.root_next < self.thread.root_moves.len() {
                self.root_next += 1;
                (self.root_next - 1, false)
            } else {
                (self.frames[0].deferred.replay()?, true)
            };
            let busy = busy_key(key, &self.thread.root_moves[k].mv);
            if k >= lines && !replaying && self.thread.shared.busy.is_busy(busy) {
                self.frames[0].deferred.push(k);
                continue;
            }
            self.thread.shared.busy.enter(busy);
            return Some((k, busy));
        }
    }

    fn record_root(&mut self, k: usize, score: Value, shares: PerSeat<Value>) {
        self.thread.record_line(k, score, self.pv.below_root());
        self.thread.root_moves[k].shares = shares;
    }

    /// A root-relative node of the chosen algorithm.
    fn child(&mut self, alpha: Value, beta: Value, depth: i32, ply: usize) -> Value {
        match self.algorithm {
            Algorithm::Brs | Algorithm::BrsPlus => self.brs(alpha, beta, depth, ply),
            _ => self.paranoid(alpha, beta, depth, ply),
        }
    }

    // ---- shared node bookkeeping -------------------------------------------

    /// Counts the node and empties its PV; `true` when the search must unwind.
    #[inline]
    fn enter(&mut self, ply: usize) -> bool {
        self.pv.start(ply);
        self.thread.seldepth = self.thread.seldepth.max(ply);
        self.thread.enter_node()
    }

    /// The root-relative value of a finished game or an in-tree repetition.
    #[inline]
    fn terminal_value(&self, ply: usize) -> Option<Value> {
        if let Some(outcome) = self.pos.decided() {
            return Some(place_value(outcome.result, self.root, self.seats, ply));
        }
        self.pos
            .repeats_since(self.thread.shared.root_ply)
            .then_some(DRAW)
    }

    fn terminal_shares(&self, ply: usize) -> Option<PerSeat<Value>> {
        if let Some(outcome) = self.pos.decided() {
            return Some(place_shares(outcome.result, self.seats, ply));
        }
        self.pos
            .repeats_since(self.thread.shared.root_ply)
            .then(|| neutral_shares(self.seats))
    }

    #[inline]
    fn static_value(&self) -> Value {
        self.evaluate_all()[self.root]
    }

    /// Max-n: the shares of the static values.
    fn static_shares(&self) -> PerSeat<Value> {
        let values = self.evaluate_all();
        static_shares(values, self.seats, self.setting.params.share_clamp)
    }

    /// The static values, as the player searched for judges them.
    #[inline]
    fn evaluate_all(&self) -> PerSeat<Value> {
        let mut values = self.pos.evaluate_all(self.setting.eval);
        if self.weak.is_some() {
            for seat in Seat::all(G::SEATS) {
                values[seat] =
                    node::judged(self.weak.as_ref(), &self.pos, Some(seat), values[seat]);
            }
        }
        values
    }

    /// `pos`'s moves into list `list` of `ply` as the player searched for
    /// sees them.
    #[inline]
    fn generate_moves(&mut self, ply: usize, list: usize) {
        node::generate_moves(
            &self.pos,
            self.weak.as_ref(),
            &mut self.frames[ply].lists[list],
        );
    }

    /// No legal move although `decided` said play goes on: the game's own
    /// `outcome`, or else the static value.
    fn no_move_value(&self, ply: usize) -> Value {
        match self.pos.outcome() {
            Some(outcome) => place_value(outcome.result, self.root, self.seats, ply),
            None => self.static_value(),
        }
    }

    // ---- move ordering -----------------------------------------------------

    /// Ordering scores for list `list` of `ply`, whose moves belong to `seat`.
    fn score_list(&mut self, ply: usize, list: usize, seat: Seat, tt_move: Option<usize>) {
        self.score_list_from(ply, list, seat, tt_move, 0);
    }

    /// [`Worker::score_list`] of the moves from `start` on.
    fn score_list_from(
        &mut self,
        ply: usize,
        list: usize,
        seat: Seat,
        tt_move: Option<usize>,
        start: usize,
    ) {
        let killers = self.killers.at(ply);
        let frame = &mut self.frames[ply];
        let len = frame.lists[list].len();
        let scores = if start == 0 {
            frame.pickers[list].scores_mut(len)
        } else {
            frame.pickers[list].extend(start, len)
        };
        for (i, score) in (start..).zip(scores.iter_mut()) {
            let mv = frame.lists[list][i];
            *score = if tt_move == Some(list * SEAT_STRIDE + i) {
                SCORE_TT
            } else {
                let gain = self
                    .pos
                    .is_tactical(mv)
                    .then(|| self.pos.gain(mv, self.setting.eval));
                order_score(mv, gain, self.history.get(seat, mv), killers)
            };
        }
    }

    /// Generates the head of `seat`'s moves ([`MultiPlayerGame::generate_head`])
    /// into list `list` of `ply`, its quiet tail put off; `seat` must be due.
    /// A weak player's lists are whole (the tails empty): which of its moves
    /// it overlooks, never all, is a choice among them all.
    fn generate_head(&mut self, ply: usize, list: usize, seat: Seat) {
        debug_assert_eq!(seat, self.pos.side_to_move());
        if self.weak.is_some() {
            self.generate_moves(ply, list);
        } else {
            self.pos.generate_head(&mut self.frames[ply].lists[list]);
        }
        let frame = &mut self.frames[ply];
        frame.seat_of[list] = seat;
        frame.tails |= 1 << list;
    }

    /// Appends the quiet tail of list `list` of `ply` (its seat handed the
    /// turn by a pass if it is not due); returns where the tail starts.
    fn append_tail(&mut self, ply: usize, list: usize) -> usize {
        let seat = self.frames[ply].seat_of[list];
        let passed = seat != self.pos.side_to_move();
        if passed {
            let handed = self.pos.make_pass(seat);
            debug_assert!(handed, "make_pass({seat}) worked during generation");
        }
        let frame = &mut self.frames[ply];
        let start = frame.lists[list].len();
        if self.weak.is_none() {
            self.pos.append_quiet_tail(&mut frame.lists[list]);
        }
        frame.tails &= !(1 << list);
        if passed {
            self.pos.unmake_pass();
        }
        start
    }

    /// Before scoring a node generated by heads: the tails that cannot wait,
    /// all of them when no head has a move (so that "no move" is true) and the
    /// tail the TT move points into.
    fn append_tails_needed_now(&mut self, ply: usize, tt_move: Option<usize>) {
        if self.frames[ply].is_empty() {
            self.append_tails(ply);
        } else if let Some(code) = tt_move {
            let (list, index) = (code / SEAT_STRIDE, code % SEAT_STRIDE);
            let frame = &self.frames[ply];
            if list < 4 && frame.tails >> list & 1 != 0 && index >= frame.lists[list].len() {
                self.append_tail(ply, list);
            }
        }
    }

    /// Appends and scores every tail still put off at `ply` (none holds the
    /// TT move: that tail came at once).
    fn append_tails(&mut self, ply: usize) {
        for list in 0..4 {
            if self.frames[ply].tails >> list & 1 != 0 {
                let start = self.append_tail(ply, list);
                let seat = self.frames[ply].seat_of[list];
                self.score_list_from(ply, list, seat, None, start);
            }
        }
    }

    /// [`Frame::pick`] of `ply`, the quiet tails generated and scored once
    /// only killers and quiet moves are left: every tail move scores as one of
    /// those, so the order is that of whole lists.
    fn pick(&mut self, ply: usize) -> Option<(usize, usize)> {
        if self.frames[ply].tails != 0 {
            if let Some(picked) = self.frames[ply].pick_above(SCORE_KILLER[0]) {
                return Some(picked);
            }
            self.append_tails(ply);
        }
        self.frames[ply].pick()
    }

    /// The next move of `ply` as (list, index, busy key): the untried one with
    /// the best score, then those put off. With several threads, a node
    /// `DEFER_MIN_DEPTH` or more from the horizon puts off a move that another
    /// thread is on, unless it is the first; the move returned is marked busy
    /// until the caller leaves it.
    fn next_move(
        &mut self,
        ply: usize,
        key: u64,
        depth: i32,
        searched: usize,
    ) -> Option<(usize, usize, Option<u64>)> {
        if depth < DEFER_MIN_DEPTH || !self.thread.shared.busy.enabled() {
            return self.pick(ply).map(|(list, index)| (list, index, None));
        }
        loop {
            let picked = self.pick(ply);
            let frame = &mut self.frames[ply];
            let (list, index, replaying) = match picked {
                Some((list, index)) => (list, index, false),
                None => {
                    let code = frame.deferred.replay()?;
                    (code / SEAT_STRIDE, code % SEAT_STRIDE, true)
                }
            };
            let busy = busy_key(key ^ list as u64, &frame.lists[list][index]);
            if searched > 0 && !replaying && self.thread.shared.busy.is_busy(busy) {
                frame.deferred.push(list * SEAT_STRIDE + index);
                continue;
            }
            self.thread.shared.busy.enter(busy);
            return Some((list, index, Some(busy)));
        }
    }

    /// Late move reductions (as in alpha-beta) for move `index` of list `list`
    /// of `ply`, searched after `searched` others: plain quiet moves only.
    fn reduction(
        &self,
        ply: usize,
        depth: i32,
        searched: usize,
        list: usize,
        index: usize,
        tt_move: Option<usize>,
    ) -> i32 {
        if depth < self.setting.params.lmr.min_depth {
            return 0;
        }
        let mv = self.frames[ply].lists[list][index];
        let plain = tt_move != Some(list * SEAT_STRIDE + index)
            && !self.killers.at(ply).contains(&mv)
            && !self.pos.is_tactical(mv);
        if plain {
            self.setting.lmr.reduction(depth, searched, false)
        } else {
            0
        }
    }

    /// A quiet move refuted the node.
    fn reward_quiet(&mut self, ply: usize, seat: Seat, mv: G::Move, depth: i32) {
        if self.pos.is_tactical(mv) {
            return;
        }
        self.killers.insert(ply, mv);
        self.history
            .update(seat, mv, (depth * depth).min(HISTORY_MAX / 2));
    }

    fn probe(&self, key: u64, ply: usize) -> Option<(TtEntry, Value)> {
        self.thread
            .shared
            .tt
            .probe(key)
            .map(|e| (e, value_from_tt(e.value, ply)))
    }

    fn store(
        &self,
        key: u64,
        best: Value,
        bounds: (Value, Value),
        depth: i32,
        index: Option<usize>,
        ply: usize,
    ) {
        let bound = Bound::of(best, bounds.0, bounds.1);
        let entry = TtEntry::of_node(best, ply, depth, bound, index);
        self.thread.shared.tt.store(key, entry);
    }

    /// What every root-relative node (paranoid, BRS) does first: stop, the
    /// game's end, the horizon, a TT cut-off. `Err` is the node's value when one
    /// of them ends it; `Ok` the key and the TT entry to search with.
    fn open_node(
        &mut self,
        alpha: Value,
        beta: Value,
        depth: i32,
        ply: usize,
    ) -> Result<(u64, Option<(TtEntry, Value)>), Value> {
        if self.enter(ply) {
            return Err(0);
        }
        if let Some(value) = self.terminal_value(ply) {
            return Err(value);
        }
        if depth <= 0 || ply >= MAX_PLY - 1 {
            return Err(self.quiesce(alpha, beta, ply, 0));
        }
        let key = self.key();
        let tt = self.probe(key, ply);
        match tt {
            Some((entry, value)) if entry.settles(value, depth, alpha, beta) => Err(value),
            _ => Ok((key, tt)),
        }
    }
}

impl<'a, G: MultiPlayerGame> Iterate<'a> for Worker<'a, G> {
    type Move = G::Move;

    fn thread(&self) -> &Thread<'a, G::Move> {
        &self.thread
    }

    fn thread_mut(&mut self) -> &mut Thread<'a, G::Move> {
        &mut self.thread
    }

    fn iterate(&mut self, depth: i32, _lines: usize) {
        self.search_root(depth);
    }

    fn store_root(&self, depth: i32) {
        // Max-n stores its move only (a value of 0 as an upper bound).
        let (value, bound) = match self.algorithm {
            Algorithm::MaxN => (0, Bound::Upper),
            _ => (self.thread.root_moves[0].score, Bound::Exact),
        };
        let tt = self.thread.shared.tt;
        self.thread.store_root(tt, self.key(), depth, value, bound);
    }

    fn reported_value(&self, score: Value) -> Value {
        match self.algorithm {
            Algorithm::MaxN => share_to_value(score, self.seats),
            _ => score,
        }
    }

    fn reported_scores(&self, line: &RootMove<G::Move>) -> Option<PerSeat<Value>> {
        (self.algorithm == Algorithm::MaxN).then(|| {
            let mut scores = PerSeat::splat(0);
            for (score, &share) in scores.iter_mut().zip(&line.shares).take(self.seats) {
                *score = share_to_value(share, self.seats);
            }
            scores
        })
    }

    fn no_move_value(&self) -> Value {
        match self.pos.outcome() {
            Some(outcome) => place_value(outcome.result, self.root, self.seats, 0),
            None => -MATE,
        }
    }
}

/// Narrows the window (alpha, beta) by `value` on the mover's side (alpha when
/// maximizing, beta otherwise); `true` when the window closes: a cut-off.
#[inline]
fn narrow(maximizing: bool, value: Value, alpha: &mut Value, beta: &mut Value) -> bool {
    if maximizing {
        *alpha = (*alpha).max(value);
    } else {
        *beta = (*beta).min(value);
    }
    *alpha >= *beta
}

/// Whether a child's `value` would raise the node's window on its side (for a
/// reduced search: then it is searched again to the full depth).
#[inline]
fn improves(maximizing: bool, value: Value, alpha: Value, beta: Value) -> bool {
    if maximizing {
        value > alpha
    } else {
        value < beta
    }
}

mod brs;
mod maxn;
mod paranoid;
mod places;
mod quiesce;
#[cfg(test)]
mod tests;

use places::neutral_shares;
pub use places::{
    maxn_prefers, place_shares, place_value, share_to_value, share_total, static_shares, FLAT_WIN,
    PLACE_MIDDLE, SHARE_FLOOR, SHARE_UNIT,
};
