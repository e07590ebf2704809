//! The searchers and what they share: limits, time, the transposition table,
//! scores and the reports they make while searching.

pub mod alphabeta;
pub mod budget;
#[cfg(test)]
mod contract;
pub mod driver;
pub mod expecti;
pub mod limits;
pub mod multi;
pub mod node;
pub mod ordering;
pub mod picker;
pub mod smp;
pub mod tables;
pub mod time;
pub mod tt;

pub use limits::{Clock, Limits, RootChoice};
pub use time::{DelayEstimate, Margin, TimeManager, TimeParams};

use crate::clock::Instant;
use crate::core::{Game, MoveList, PerSeat, Seat};
use crate::strength::Weakness;
use crate::tune::Tuned;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Duration;

/// Scores are from the side to move's point of view, in hundredths of a pawn
/// (or the game's own unit); wins and losses are `MATE` minus the distance in plies.
pub type Value = i32;
pub const MATE: Value = 32_000;
pub const INFINITE: Value = 32_500;
/// Scores beyond this are mate scores.
pub const MATE_BOUND: Value = MATE - 1_000;
pub const DRAW: Value = 0;

/// A score as reported: centipawns, a signed mate distance in plies, or the
/// expected points of a dice game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    Cp(i32),
    /// Plies to the end; positive when the side to move wins.
    Mate(i32),
    /// Expected points for the side to move in thousandths (sugoroku: −3000 … +3000).
    Points(i32),
}

impl Score {
    pub fn from_value(v: Value) -> Score {
        if v >= MATE_BOUND {
            Score::Mate(MATE - v)
        } else if v <= -MATE_BOUND {
            Score::Mate(-(MATE + v))
        } else {
            Score::Cp(v)
        }
    }
}

/// What a two-player alternating game adds for alpha-beta search.
pub trait TwoPlayerGame: Game {
    /// Whether the alpha-beta searcher reduces late quiet moves: on where a
    /// match showed it gains for the game.
    const LATE_MOVE_REDUCTIONS: bool = true;
    /// Whether the alpha-beta searcher tries null moves
    /// ([`TwoPlayerGame::make_null`]): on where a match showed it gains.
    const NULL_MOVE: bool = false;
    /// The evaluator: its weights and tunables, a value the searcher owns.
    type Eval: Evaluator;
    /// The game's own alpha-beta tunables (its tuned defaults): the shared
    /// untuned ones unless the game has tuned its own.
    const SEARCH: alphabeta::AlphaBetaParams = alphabeta::AlphaBetaParams::UNTUNED;
    /// Static evaluation from the side to move's point of view, by `eval`.
    fn evaluate(&self, eval: &Self::Eval) -> Value;
    /// Whether `mv` changes material (searched in quiescence, ordered early);
    /// no move does by default (a game without captures: quiescence stands
    /// pat).
    fn is_tactical(&self, mv: Self::Move) -> bool {
        let _ = mv;
        false
    }
    /// The material `mv` wins at once (captures, promotion) as `eval` values
    /// it, for ordering captures most-valuable-victim first.
    fn gain(&self, mv: Self::Move, eval: &Self::Eval) -> Value {
        let _ = (mv, eval);
        0
    }
    /// Whether the side to move must answer a threat to its king: quiescence
    /// then searches every move instead of standing pat. Games without checks
    /// keep the default.
    fn in_check(&self) -> bool {
        false
    }
    /// Whether the side to move has a move that ends the game in its favour
    /// at once (a mate in one), looked for where the search would not see it
    /// otherwise; games that do not look keep the default.
    fn mates_in_one(&self) -> bool {
        false
    }
    /// The tactical moves only; by default filtered from all legal moves.
    fn generate_tactical(&self, moves: &mut MoveList<Self::Move>) {
        self.generate_moves(moves);
        moves.retain(|mv| self.is_tactical(mv));
    }
    /// Hands the move to the opponent without moving, for null-move pruning
    /// (never while in check; only with `NULL_MOVE`); `false`, changing
    /// nothing, in games without it. The pass counts as a ply; the key changes
    /// as for any move of the side.
    fn make_null(&mut self) -> bool {
        false
    }
    /// Takes back [`TwoPlayerGame::make_null`].
    fn unmake_null(&mut self) {}
}

/// What a game of more than two seats, moving in an order its rules decide
/// (yonin's check priority), adds for the multi-player searchers.
pub trait MultiPlayerGame: Game {
    /// The evaluator: its weights and tunables, a value the searcher owns.
    type Eval: Evaluator;
    /// Static evaluation by `eval`, one value per seat, each from that seat's
    /// point of view, in the game's units (centipawns); eliminated seats get
    /// what they keep.
    fn evaluate_all(&self, eval: &Self::Eval) -> PerSeat<Value>;
    /// Whether `seat` is still playing.
    fn is_alive(&self, seat: Seat) -> bool;
    /// Whether `mv` changes material (ordered early, searched in quiescence).
    fn is_tactical(&self, mv: Self::Move) -> bool;
    /// The legal moves that are [`MultiPlayerGame::is_tactical`], in the order of
    /// [`Game::generate_moves`] (games may list them without the quiet ones).
    fn generate_tactical(&self, moves: &mut MoveList<Self::Move>) {
        self.generate_moves(moves);
        moves.retain(|mv| self.is_tactical(mv));
    }
    /// [`Game::generate_moves`] in two parts: this one, then
    /// [`MultiPlayerGame::append_quiet_tail`], whose moves are all quiet (not
    /// tactical), so that a search can put the tail off until the tactical
    /// moves are tried (Yonin's drops: most of the moves with pieces in hand).
    /// By default the head is every move.
    fn generate_head(&self, moves: &mut MoveList<Self::Move>) {
        self.generate_moves(moves);
    }
    /// Appends the rest of [`Game::generate_moves`] after
    /// [`MultiPlayerGame::generate_head`] (nothing by default).
    fn append_quiet_tail(&self, moves: &mut MoveList<Self::Move>) {
        let _ = moves;
    }
    /// The material `mv` wins at once as `eval` values it, for ordering captures.
    fn gain(&self, mv: Self::Move, eval: &Self::Eval) -> Value {
        let _ = (mv, eval);
        0
    }
    /// Hands the turn to `seat` without a move, for best-reply search; `false`
    /// (and nothing changed) when the rules do not allow it here (a seat in check
    /// must answer first, `seat` is out, the game is over). A pass is a search
    /// device only: it is never a legal move and never counts for repetition.
    fn make_pass(&mut self, seat: Seat) -> bool;
    /// Takes back the last [`MultiPlayerGame::make_pass`] that returned `true`.
    fn unmake_pass(&mut self);
}

/// What a game with chance events (dice) adds for expectimax search. A position
/// either waits for a chance event (the dice of the side to move are not rolled
/// yet) or has a player to move, whose moves are [`Game::generate_moves`].
pub trait ChanceGame: Game {
    /// The evaluator: its weights and tunables (and network), a value the
    /// searcher owns.
    type Eval: Evaluator;
    /// One outcome of a chance event (a roll of the dice).
    type Chance: Copy + Eq + std::fmt::Debug + Send + Sync + 'static;
    /// The sum of the weights of [`ChanceGame::chance_outcomes`] (36 for two dice).
    const CHANCE_WEIGHT: u32;
    /// The largest |value| [`ChanceGame::evaluate`] and the game's results can
    /// take (3000 for sugoroku's triple win): the bounds Star1/Star2 prune with.
    const VALUE_BOUND: Value;
    /// The distinct outcomes of the chance event now due, each with its weight.
    fn chance_outcomes(&self) -> &'static [(Self::Chance, u32)];
    /// Applies an outcome at a chance node; the same seat is then to move.
    fn apply_chance(&mut self, outcome: Self::Chance);
    /// Takes back the last [`ChanceGame::apply_chance`].
    fn undo_chance(&mut self, outcome: Self::Chance);
    /// Static evaluation by `eval` for the side to move (the seat to roll at
    /// a chance node), as expected points in thousandths, within ±`VALUE_BOUND`.
    fn evaluate(&self, eval: &Self::Eval) -> Value;
    /// Bounds (low, high), within ±`VALUE_BOUND`, on every value a search to any
    /// depth can give this position or any position reachable from it (decided
    /// games and evaluations alike), for whichever seat is to move there: what
    /// Star1/Star2 prune with at a chance node. Must be exact by the rules.
    fn value_bounds(&self) -> (Value, Value) {
        (-Self::VALUE_BOUND, Self::VALUE_BOUND)
    }
}

/// What an evaluator is: a value (weights, tunables) that the searcher
/// owns and its threads share, starting from the game's defaults.
pub trait Evaluator: Tuned + Default + Clone + Send + Sync + 'static {}

impl<E: Tuned + Default + Clone + Send + Sync + 'static> Evaluator for E {}

/// A searcher's parameters and its evaluator: all that tunes it.
#[derive(Clone, Debug, PartialEq)]
pub struct Tuning<S, E> {
    pub search: S,
    pub eval: E,
}

impl<S, E: Default> Tuning<S, E> {
    /// `search` with the evaluator's defaults.
    pub fn of(search: S) -> Self {
        Tuning {
            search,
            eval: E::default(),
        }
    }
}

/// The search's tunables, then the evaluation's.
impl<S: Tuned, E: Tuned> Tuned for Tuning<S, E> {
    fn visit(&mut self, visit: &mut dyn FnMut(crate::tune::Spec, &mut i32)) {
        self.search.visit(visit);
        self.eval.visit(visit);
    }
}

/// What a worker of an alpha-beta style searcher searches with: the
/// searcher's parameters (copied), its evaluator and its reductions (shared
/// by the threads).
pub(crate) struct Setting<'a, P, E> {
    pub params: P,
    pub eval: &'a E,
    pub lmr: &'a ordering::Lmr,
}

impl<'a, P: Copy, E> Setting<'a, P, E> {
    /// `tuning`'s, with `lmr` made to follow `reductions`.
    pub fn new(
        tuning: &'a Tuning<P, E>,
        lmr: &'a mut ordering::Lmr,
        reductions: ordering::LmrParams,
    ) -> Self {
        lmr.follow(reductions);
        Setting {
            params: tuning.search,
            eval: &tuning.eval,
            lmr,
        }
    }
}

impl<P: Copy, E> Clone for Setting<'_, P, E> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<P: Copy, E> Copy for Setting<'_, P, E> {}

/// Engine settings every searcher reads.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchConfig {
    pub threads: usize,
    pub hash_mb: usize,
    pub multipv: usize,
    /// Subtracted from every hard time limit: the margin against lag and overhead.
    pub time_margin_ms: u64,
    pub seed: u64,
    /// The search algorithm for games that offer several (the game's
    /// `SEARCH_ALGORITHMS`); empty means the game's default.
    pub algorithm: &'static str,
    /// Time management's tunables.
    pub time: TimeParams,
}

impl Default for SearchConfig {
    fn default() -> Self {
        SearchConfig {
            threads: 1,
            hash_mb: 64,
            multipv: 1,
            time_margin_ms: 300,
            seed: 0,
            algorithm: "",
            time: TimeParams::default(),
        }
    }
}

/// Shared between the searching threads and whoever controls them.
#[derive(Debug)]
pub struct SearchControl {
    stop: AtomicBool,
    /// Set by whoever watches the search's lines to end it early (not a
    /// `stop`: the answer is still theirs to make); cleared by `resume`.
    interrupt: AtomicBool,
    /// Set while pondering or in `go infinite`: the time manager must not stop the
    /// search, and the result waits for `stop` or `ponderhit`.
    waiting: AtomicBool,
    /// When the clock started (reset by `ponderhit`).
    started: Mutex<Instant>,
    /// The clock `ponderhit` brought, which replaces the one `go` gave.
    revised_clock: Mutex<Option<Clock>>,
    nodes: AtomicU64,
    /// The delay observed in earlier searches, widening this one's margin.
    carried_delay: Mutex<Duration>,
    /// What work after the search may spend beyond its deadline.
    spare: Mutex<Duration>,
    /// The longest wall-clock gap between two looks at the clock in this search.
    longest_gap: Mutex<Duration>,
    /// Time (ns) the search's own thread spent on its watcher's work since
    /// its last look at the clock: not a delay of the machine's.
    held: AtomicU64,
    /// When the search will abort at the latest, as its time manager last said;
    /// `None` while nothing expires.
    deadline: Mutex<Option<Instant>>,
}

impl Default for SearchControl {
    fn default() -> Self {
        SearchControl::started_at(false, Instant::now())
    }
}

impl SearchControl {
    pub fn new(waiting: bool) -> Self {
        SearchControl::started_at(waiting, Instant::now())
    }

    /// A search whose clock started at `started`: when its `go` arrived.
    pub fn started_at(waiting: bool, started: Instant) -> Self {
        SearchControl {
            stop: AtomicBool::new(false),
            interrupt: AtomicBool::new(false),
            waiting: AtomicBool::new(waiting),
            started: Mutex::new(started),
            revised_clock: Mutex::new(None),
            nodes: AtomicU64::new(0),
            carried_delay: Mutex::new(Duration::ZERO),
            spare: Mutex::new(Duration::ZERO),
            longest_gap: Mutex::new(Duration::ZERO),
            held: AtomicU64::new(0),
            deadline: Mutex::new(None),
        }
    }
    pub fn stop(&self) {
        self.stop.store(true, Ordering::SeqCst);
        self.waiting.store(false, Ordering::SeqCst);
    }
    /// Whether the search is to end: `stop`, or an interrupt.
    #[inline]
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed) || self.interrupt.load(Ordering::Relaxed)
    }
    /// Ends the search at its next look, as `stop` does, for the session to
    /// answer otherwise (Annan's threat guard, a root move proven lost).
    pub fn interrupt(&self) {
        self.interrupt.store(true, Ordering::SeqCst);
    }
    /// Clears an interrupt; whether there was one.
    pub fn resume(&self) -> bool {
        self.interrupt.swap(false, Ordering::SeqCst)
    }
    /// `ponderhit`: the pondered move was played; the clock starts now, and a
    /// clock sent with it (YaneuraOu's early ponder: `go ponder` without one,
    /// then `ponderhit btime … byoyomi …`) replaces the one `go` gave.
    pub fn ponderhit(&self, clock: Option<Clock>) {
        self.ponderhit_at(clock, Instant::now());
    }

    /// `ponderhit`, its clock started at `at`: when the line arrived.
    pub fn ponderhit_at(&self, clock: Option<Clock>, at: Instant) {
        if clock.is_some() {
            *lock(&self.revised_clock) = clock;
        }
        *lock(&self.started) = at;
        self.waiting.store(false, Ordering::SeqCst);
    }
    /// The clock `ponderhit` sent, if it sent one.
    pub fn revised_clock(&self) -> Option<Clock> {
        *lock(&self.revised_clock)
    }
    #[inline]
    pub fn waiting(&self) -> bool {
        self.waiting.load(Ordering::Relaxed)
    }
    pub fn started(&self) -> Instant {
        *lock(&self.started)
    }
    /// Before the search: the delay earlier searches observed ([`DelayEstimate`]).
    pub fn carry_delay(&self, delay: Duration) {
        *lock(&self.carried_delay) = delay;
    }
    pub fn carried_delay(&self) -> Duration {
        *lock(&self.carried_delay)
    }
    /// A gap of `gap` between two looks at the clock, less the time the
    /// search was held by its watcher meanwhile ([`SearchControl::held_for`]).
    pub fn note_gap(&self, gap: Duration) {
        let held = Duration::from_nanos(self.held.swap(0, Ordering::Relaxed));
        let gap = gap.saturating_sub(held);
        let mut longest = lock(&self.longest_gap);
        *longest = gap.max(*longest);
    }
    /// Work done on the search's thread between its looks at the clock (the
    /// lines it reports, watched), which the next gap noted leaves out.
    pub fn held_for(&self, time: Duration) {
        self.held
            .fetch_add(time.as_nanos() as u64, Ordering::Relaxed);
    }
    /// After the search: the longest gap it saw, for the next searches' margin.
    pub fn longest_gap(&self) -> Duration {
        *lock(&self.longest_gap)
    }
    pub fn publish_deadline(&self, deadline: Option<Instant>) {
        *lock(&self.deadline) = deadline;
    }
    /// The search's time manager: what work after the search (Annan's threat
    /// guard) may spend beyond [`SearchControl::deadline`], from the margin.
    pub fn publish_spare(&self, spare: Duration) {
        *lock(&self.spare) = spare;
    }
    /// When work after the search must be done: the deadline and the spare
    /// time beyond it; `None` while nothing expires.
    pub fn deadline_after_search(&self) -> Option<Instant> {
        self.deadline()
            .map(|deadline| deadline + *lock(&self.spare))
    }
    /// When the search means to have answered at the latest (its hard deadline),
    /// for whoever answers in its stead if it does not; `None` while nothing
    /// expires (pondering) or before the search has planned its time.
    pub fn deadline(&self) -> Option<Instant> {
        *lock(&self.deadline)
    }
    pub fn add_nodes(&self, n: u64) {
        self.nodes.fetch_add(n, Ordering::Relaxed);
    }
    pub fn nodes(&self) -> u64 {
        self.nodes.load(Ordering::Relaxed)
    }
}

/// A lock that a panicking holder did not spoil: these hold plain values.
fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}

/// One `info` report.
#[derive(Clone, Debug)]
pub struct SearchInfo<M> {
    pub depth: u32,
    pub seldepth: u32,
    pub multipv: usize,
    pub score: Score,
    pub nodes: u64,
    pub time_ms: u64,
    pub hashfull: u32,
    pub pv: Vec<M>,
    /// The whole score vector, one value per seat, where the searcher has one
    /// (max-n); `None` for two-player searchers.
    pub scores: Option<PerSeat<Value>>,
    /// The result probabilities after the first move, where the game's
    /// evaluation gives them (Sugoroku); `None` from the searchers.
    pub odds: Option<Odds>,
}

/// A dice game's result probabilities for the side to move, in permille:
/// it wins, wins two or three points, loses two or three points (a single
/// loss is what is left).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Odds {
    pub win: i32,
    pub win2: i32,
    pub win3: i32,
    pub lose2: i32,
    pub lose3: i32,
}

#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult<M> {
    /// `None` when the side to move has no legal move.
    pub best: Option<M>,
    pub ponder: Option<M>,
    pub score: Score,
    pub depth: u32,
    pub nodes: u64,
    /// Every root move, best first as the search left them, with its score
    /// where the search valued it (the lines it searched exactly; the others
    /// failed low and keep the order of the iterations before).
    pub root_moves: Vec<(M, Option<Score>)>,
}

/// What one kind of search (alpha-beta, multi-player, expectimax) adds to
/// what every searcher keeps ([`Search`]): its parameters' type, state of its
/// own between searches, and the search itself.
pub trait SearchKind: Send + Sized + Default {
    /// Its parameters and its evaluator's: everything tunable it reads.
    type Params: Tuned + Clone + Send;
    /// Names its helper threads (`yomi-<name>-1`, …).
    const NAME: &'static str;
    /// Reads changed settings (the tables have taken them already).
    fn configure(&mut self, config: &SearchConfig) {
        let _ = config;
    }
}

/// A [`SearchKind`] that searches `G`.
pub trait SearchesGame<G: Game>: SearchKind {
    /// The game's defaults of [`SearchKind::Params`].
    fn default_params() -> Self::Params;
    fn search<'a>(
        &'a mut self,
        run: Run<'a, G, Self::Params>,
        report: &mut dyn FnMut(&SearchInfo<G::Move>),
    ) -> SearchResult<G::Move>;
}

/// One search as its kind runs it: the position, its limits and settings,
/// the searcher's parameters, the threads' common part (over the tables made
/// ready) and the helper pool (`None` with one thread).
pub struct Run<'a, G: Game, P> {
    pub pos: &'a G,
    pub limits: &'a Limits<G::Move>,
    pub config: &'a SearchConfig,
    pub params: &'a P,
    pub shared: &'a driver::Shared<'a, G::Move>,
    pub pool: Option<&'a rayon::ThreadPool>,
    /// The weakness to play with: `None` at full strength.
    pub weakness: Option<Weakness>,
}

impl<'a, G: Game, P> Run<'a, G, P> {
    /// The search's weakness, applied from its root (`None` at full strength).
    pub fn weakening(&self) -> Option<node::Weakening<'a, G::Move>> {
        let root_choice = &self.shared.root_choice;
        self.weakness
            .map(|weakness| node::Weakening::new(weakness, self.pos.key(), root_choice))
    }

    /// The driver's iterations over the workers `new_worker(id)` makes, as
    /// many as the configured threads.
    pub fn drive<W: driver::Iterate<'a, Move = G::Move>>(
        &self,
        new_worker: impl Fn(usize) -> W + Sync,
        report: &mut dyn FnMut(&SearchInfo<G::Move>),
    ) -> SearchResult<G::Move> {
        driver::run(
            self.shared,
            self.pool,
            self.config.threads,
            new_worker,
            report,
        )
    }
}

/// Every searcher: its tables, its parameters and what its kind `K` keeps.
pub struct Search<K: SearchKind> {
    tables: tables::SearchTables,
    params: K::Params,
    /// How the searches play below full strength (`None`: they do not).
    weakness: Option<Weakness>,
    kind: K,
}

impl<K: SearchKind> Search<K> {
    /// What the kind keeps (its own switches).
    pub fn kind_mut(&mut self) -> &mut K {
        &mut self.kind
    }

    pub fn kind(&self) -> &K {
        &self.kind
    }
}

impl<G: Game, K: SearchesGame<G>> Searcher<G> for Search<K> {
    type Params = K::Params;

    fn new(config: &SearchConfig) -> Self {
        Search {
            tables: tables::SearchTables::new(config, K::NAME),
            params: K::default_params(),
            weakness: None,
            kind: {
                let mut kind = K::default();
                kind.configure(config);
                kind
            },
        }
    }

    fn default_params() -> Self::Params {
        K::default_params()
    }

    fn params_mut(&mut self) -> &mut Self::Params {
        &mut self.params
    }

    fn tables(&self) -> &tables::SearchTables {
        &self.tables
    }

    fn tables_mut(&mut self) -> &mut tables::SearchTables {
        &mut self.tables
    }

    fn weaken(&mut self, weakness: Option<Weakness>) {
        self.weakness = weakness;
    }

    fn configure(&mut self, config: &SearchConfig) {
        self.tables.configure(config);
        self.kind.configure(config);
    }

    fn search(
        &mut self,
        pos: &G,
        limits: &Limits<G::Move>,
        control: &SearchControl,
        report: &mut dyn FnMut(&SearchInfo<G::Move>),
    ) -> SearchResult<G::Move> {
        let config = self.tables.config().clone();
        let (tt, pool, scratch) = self.tables.for_search();
        let shared = driver::Shared::new(tt, scratch, pos, limits, control, &config);
        let run = Run {
            pos,
            limits,
            config: &config,
            params: &self.params,
            shared: &shared,
            pool,
            weakness: self.weakness,
        };
        self.kind.search(run, report)
    }
}

/// A searcher for one kind of game; owns its [`tables::SearchTables`] between
/// searches, through which settings, preparation and clearing go. [`Search`]
/// is the one implementation.
pub trait Searcher<G: Game>: Send {
    fn new(config: &SearchConfig) -> Self
    where
        Self: Sized;
    fn tables(&self) -> &tables::SearchTables;
    /// Its parameters and its evaluator's: everything tunable it reads.
    type Params: Tuned + Clone + Send;
    /// The game's defaults of [`Searcher::Params`].
    fn default_params() -> Self::Params
    where
        Self: Sized;
    fn params_mut(&mut self) -> &mut Self::Params;
    /// Plays the searches from now on as a player with `weakness` (a
    /// strength level below full), or at full strength (`None`, as new):
    /// it overlooks moves and misjudges positions as [`Weakness`] says, and
    /// does not look for a mate in one at the horizon.
    fn weaken(&mut self, weakness: Option<Weakness>);
    fn tables_mut(&mut self) -> &mut tables::SearchTables;
    /// Applies changed settings (threads, hash size, …).
    fn configure(&mut self, config: &SearchConfig) {
        self.tables_mut().configure(config);
    }
    /// Does the heavy initialisation (tables) now rather than at the first
    /// search; an error (a hash size that cannot be allocated) keeps the
    /// previous table.
    fn prepare(&mut self) -> Result<(), String> {
        self.tables_mut().prepare()
    }
    /// Forgets everything learnt (a new game).
    fn clear(&mut self) {
        self.tables_mut().clear();
    }
    fn search(
        &mut self,
        pos: &G,
        limits: &Limits<G::Move>,
        control: &SearchControl,
        report: &mut dyn FnMut(&SearchInfo<G::Move>),
    ) -> SearchResult<G::Move>;
    /// Permille of the table in use.
    fn hashfull(&self) -> u32 {
        self.tables().hashfull()
    }
}
