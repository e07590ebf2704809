//! A game behind an object-safe interface: what the protocol talks to.
//!
//! [`GameSession`] speaks in notation strings only, so the protocol never sees a
//! game's types; [`Session`] implements it once for every [`Playable`] game.

use crate::clock::Instant;
use crate::core::error::truncate;
use crate::core::game::GameResult;
use crate::core::options::{find_spec, OptionValue};
use crate::core::sfen::MAX_MOVE_NUMBER;
use crate::core::Notation;
use crate::core::Outcome;
use crate::core::{
    Game, HouseRules, MoveError, MoveList, OptionError, OptionSpec, ParseError, PerSeat, Seat,
};
use crate::perft;
use crate::profile::Profile;
use crate::review::ReviewScale;
use crate::search::tables::Scratch;
use crate::search::TimeParams;
use crate::search::{
    smp, DelayEstimate, Limits, Margin, Odds, Score, SearchConfig, SearchControl, SearchInfo,
    Searcher,
};
use crate::strength::{self, StrengthParams};
use crate::tune::{self, Params, Spec, Tunable, Tuned};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::fmt;

/// A game the engine can play: its rules plus the searcher that plays it (at
/// full strength or weakened, [`Searcher::weaken`]).
pub trait Playable: Game + Notation {
    type Searcher: Searcher<Self>;
    /// The game's facts that are not rules: name, seats, dice, bench and
    /// perft bench data, levels ([`Profile`]).
    const PROFILE: Profile;
    /// The start position under `rules`: the profile's, read; a game whose
    /// start depends on its rules says how.
    fn start(rules: &Self::Rules) -> Self {
        Self::from_sfen(Self::PROFILE.start, rules).expect("the profile's start position reads")
    }
    /// What a one-ply greedy player (the `baseline` tool) maximises, by the
    /// game's own measure, for the side that plays `mv`: the material it wins
    /// at once in the shogi games (the values the searchers order captures by;
    /// in Hasami the stones captured), and in Sugoroku what it gains in the
    /// race; nothing by default (the baseline then plays the first move that
    /// wins at once, or any).
    fn immediate_gain(&self, mv: Self::Move) -> i64 {
        let _ = mv;
        0
    }
    /// Options of the game's searcher (e.g. the choice of algorithm), announced
    /// after the house rules.
    fn search_options() -> &'static [OptionSpec] {
        &[]
    }
    /// Perft leaves on one thread as docs/notation.md counts them: the last
    /// ply counted without being made (`bulk`) or every move made. Games with
    /// chance count their own way, the same either way.
    fn perft(&self, depth: u32, bulk: bool) -> u64 {
        let mut pos = self.clone();
        if bulk {
            perft::perft(&mut pos, depth)
        } else {
            perft::perft_full(&mut pos, depth)
        }
    }
    /// Per-entry perft counts as docs/notation.md defines them for this game.
    fn divide(&self, depth: u32) -> Vec<(String, u64)> {
        perft::divide(self, depth)
            .into_iter()
            .map(|(mv, n)| (self.format_move(mv), n))
            .collect()
    }
    /// The result probabilities after the move `mv` heading a line, where
    /// the evaluation gives them (Sugoroku); none by default.
    fn odds_after(&self, mv: Self::Move, params: &ParamsOf<Self>) -> Option<Odds> {
        let _ = (mv, params);
        None
    }
    /// Starts the heavy set-up of the evaluation `params` choose for `rules`
    /// (Sugoroku's race tables) in the background, and says whether the
    /// evaluation is to wait for it (`wait`: the same play at any load) or do
    /// without until it is ready (a timed search); nothing by default.
    fn prepare_evaluation(rules: &Self::Rules, params: &mut ParamsOf<Self>, wait: bool) {
        let _ = (rules, params, wait);
    }
    /// Options of the game's evaluator (Sugoroku's evaluation and network),
    /// announced after the house rules; none by default.
    fn eval_options() -> &'static [OptionSpec] {
        &[]
    }
    /// Sets one of [`Playable::eval_options`] in the searcher's `params`:
    /// `Ok(false)` when none has that name.
    fn set_eval_option(
        params: &mut ParamsOf<Self>,
        name: &str,
        value: &str,
    ) -> Result<bool, OptionError> {
        let _ = (params, name, value);
        Ok(false)
    }
    /// Each seat's expected place points in thousandths, for a review (games
    /// with places: Yonin); none by default.
    fn place_shares(&self) -> Option<PerSeat<i32>> {
        None
    }
    /// `go mate`: a mate for the side to move within the `movetime` or
    /// `nodes` of `limits` (`infinite`: until `control` stops it), as `goal`
    /// asks, its memory taken from `scratch` and given back. Games without a
    /// mate solver keep the default.
    fn mate(
        &self,
        limits: &Limits<Self::Move>,
        control: &SearchControl,
        scratch: &Scratch,
        goal: MateGoal,
    ) -> MateAnswer<Self::Move> {
        let _ = (limits, control, scratch, goal);
        MateAnswer::NotImplemented
    }
}

/// The parameters of `G`'s searcher: its own and its evaluator's.
pub type ParamsOf<G> = <<G as Playable>::Searcher as Searcher<G>>::Params;

/// The mate solver's tunables in play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MateParams {
    /// Games with a mate solver first ask it for a mate within this many
    /// nodes (0: never) and a tenth of the move's time, and play a mate it
    /// finds at once. Two matches of 100 games (Annan, 100 ms a move, against
    /// 0): +42 ± 67 and +14 ± 55 Elo, +28 ± 48 together.
    pub probe_nodes: i32,
    /// Games with a mate solver ask it, within this many nodes (0: never),
    /// whether the opponent mates after the move the search chose; a move
    /// that loses so is replaced by the next root move that does not
    /// ([`Session::threat_guard`]).
    pub threat_nodes: i32,
    /// From this iteration on (0: never), the search's first move is checked
    /// so at the end of each iteration (not in `go infinite`, pondering or
    /// MultiPV); a move proven lost ends the search, and the other moves are
    /// searched again in the time left ([`ThreatChecks`]).
    pub threat_check_depth: i32,
}

impl Default for MateParams {
    fn default() -> Self {
        MateParams {
            probe_nodes: 5_000,
            threat_nodes: 20_000,
            threat_check_depth: 2,
        }
    }
}

impl Params for MateParams {
    const TUNABLES: &'static [Tunable<Self>] = &[
        Tunable::new("Tune_MateProbeNodes", 0, 10_000_000, |p| &mut p.probe_nodes),
        Tunable::new("Tune_MateThreatNodes", 0, 10_000_000, |p| {
            &mut p.threat_nodes
        }),
        Tunable::new("Tune_MateThreatCheckDepth", 0, 64, |p| {
            &mut p.threat_check_depth
        }),
    ];
}

/// A game's tunables, wherever they live: its searcher's (the search's and
/// the evaluator's), time management's, the levels' and, in games with a
/// mate solver, the solver's; in the order of the option list.
struct SessionTunables<'a> {
    searcher: &'a mut dyn Tuned,
    time: &'a mut TimeParams,
    strength: &'a mut StrengthParams,
    mate: Option<&'a mut MateParams>,
}

impl Tuned for SessionTunables<'_> {
    fn visit(&mut self, visit: &mut dyn FnMut(Spec, &mut i32)) {
        self.searcher.visit(visit);
        self.time.visit(visit);
        self.strength.visit(visit);
        if let Some(mate) = &mut self.mate {
            mate.visit(visit);
        }
    }
}

/// Every tunable of `G` as the option list shows it, with its default.
pub fn tunable_specs<G: Playable>() -> Vec<OptionSpec> {
    let mut searcher = <G::Searcher as Searcher<G>>::default_params();
    let (mut time, mut strength, mut mate) = Default::default();
    tune::specs(&mut SessionTunables {
        searcher: &mut searcher,
        time: &mut time,
        strength: &mut strength,
        mate: G::PROFILE.mate_solver.then_some(&mut mate),
    })
}

/// Root moves the threat guard checks at most for one answer.
pub const THREAT_CANDIDATES: usize = 8;

/// The threat guard's choice among the other root moves, best first, after
/// the search's was proven lost.
#[derive(Debug, PartialEq, Eq)]
struct Replacement<M, S> {
    /// The move to play instead, if any.
    safe: Option<(M, S)>,
    /// The moves proven lost too.
    lost: usize,
    /// Whether `safe` was taken unchecked, the time being up.
    unchecked: bool,
}

/// The first of `others` that `mated` does not prove lost; once `out_of_time`,
/// the next one unchecked, as still better than one proven lost.
fn replacement<M, S>(
    others: impl Iterator<Item = (M, S)>,
    mut out_of_time: impl FnMut() -> bool,
    mut mated: impl FnMut(M) -> bool,
) -> Replacement<M, S>
where
    M: Copy,
{
    let mut lost = 0;
    for (mv, score) in others {
        let unchecked = out_of_time();
        if unchecked || !mated(mv) {
            return Replacement {
                safe: Some((mv, score)),
                lost,
                unchecked,
            };
        }
        lost += 1;
    }
    Replacement {
        safe: None,
        lost,
        unchecked: false,
    }
}

/// The threat checks during a search take at most 1/n of its hard limit, all
/// together.
const CHECKS_SHARE: u32 = 8;

/// The threat guard's verdicts on root moves, made during the search (at the
/// ends of its iterations) or after it: the opponent's mating line where the
/// solver proved one, `None` where it did not within its budget. A move is
/// asked once.
struct ThreatChecks<M> {
    verdicts: Vec<(M, Option<Vec<M>>)>,
    /// The time the checks during the search took.
    spent: std::time::Duration,
}

impl<M: Copy + Eq> ThreatChecks<M> {
    fn new() -> Self {
        ThreatChecks {
            verdicts: Vec::new(),
            spent: std::time::Duration::ZERO,
        }
    }

    fn verdict(&self, mv: M) -> Option<&Option<Vec<M>>> {
        self.verdicts.iter().find(|(m, _)| *m == mv).map(|(_, v)| v)
    }

    /// The moves proven lost so far, in the order they were checked.
    fn lost(&self) -> impl Iterator<Item = M> + '_ {
        self.verdicts
            .iter()
            .filter(|(_, line)| line.is_some())
            .map(|&(mv, _)| mv)
    }

    fn is_lost(&self, mv: M) -> bool {
        self.verdict(mv).is_some_and(Option::is_some)
    }

    /// Whether the opponent mates after `mv` of `pos`, asked of the solver
    /// within `limits` unless known.
    fn lost_after<G: Playable<Move = M>>(
        &mut self,
        pos: &G,
        mv: M,
        limits: &Limits<M>,
        scratch: &Scratch,
    ) -> bool {
        if let Some(verdict) = self.verdict(mv) {
            return verdict.is_some();
        }
        let mut after = pos.clone();
        after.make(mv);
        let probe = SearchControl::new(false);
        let line = match after.mate(limits, &probe, scratch, MateGoal::Any) {
            MateAnswer::Mate(line) => Some(line),
            _ => None,
        };
        let lost = line.is_some();
        self.verdicts.push((mv, line));
        lost
    }

    /// At the end of an iteration of a search under `control`, whose first
    /// move is `mv`: whether it is proven lost, within `nodes` and, under a
    /// clock, what is left of the checks' share of the search's time.
    fn check_during<G: Playable<Move = M>>(
        &mut self,
        pos: &G,
        mv: M,
        nodes: u64,
        control: &SearchControl,
        scratch: &Scratch,
    ) -> bool {
        let now = Instant::now();
        let mut movetime = None;
        if let Some(deadline) = control.deadline() {
            let hard = deadline.saturating_duration_since(control.started());
            let left = (hard / CHECKS_SHARE)
                .saturating_sub(self.spent)
                .min(deadline.saturating_duration_since(now));
            if self.verdict(mv).is_none() && left.is_zero() {
                return false;
            }
            movetime = Some(left);
        }
        let limits = Limits {
            nodes: Some(nodes),
            movetime,
            ..Limits::default()
        };
        let lost = self.lost_after(pos, mv, &limits, scratch);
        let took = now.elapsed();
        self.spent += took;
        control.held_for(took);
        lost
    }
}

/// What a mate search found (`checkmate …` in the protocol).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MateAnswer<M> {
    /// The mating line, the side to move's moves and the replies.
    Mate(Vec<M>),
    /// There is no mate.
    NoMate,
    /// Neither found within the time.
    Timeout,
    /// The game has no mate solver.
    NotImplemented,
}

/// What a mate search is asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MateGoal {
    /// The shortest mate (`go mate`, a mate to play).
    Shortest,
    /// Whether there is one: the first proof's line, the rest of the budget
    /// not spent on shorter ones (the threat guard).
    Any,
}

/// The option choosing among a game's search algorithms.
pub const SEARCH_ALGORITHM: &str = "SearchAlgorithm";

/// The largest hash table offered (32 GiB); a size the machine cannot give is
/// refused at `isready` or `go` and the previous table kept.
pub const MAX_HASH_MB: i64 = 32_768;

/// The names of the options every game shares. A protocol may announce some
/// under names of its own (USI's `USI_Hash` for [`HASH`]).
pub const THREADS: &str = "Threads";
pub const HASH: &str = "Hash";
pub const MULTI_PV: &str = "MultiPV";
pub const PONDER: &str = "Ponder";
pub const TIME_MARGIN: &str = "TimeMargin";
pub const SEED: &str = "Seed";
pub const SKILL: &str = "Skill";
pub const LEVEL: &str = "Level";
/// The switch to strength by Elo; [`ELO`] follows it in the list.
pub const LIMIT_STRENGTH: &str = "LimitStrength";
pub const ELO: &str = "Elo";
pub const VARIETY: &str = "Variety";

/// Options every game shares, listed after the game's own rules.
pub const ENGINE_OPTIONS: &[OptionSpec] = &[
    OptionSpec::spin(THREADS, 1, 1, 256),
    OptionSpec::spin(HASH, 64, 1, MAX_HASH_MB),
    OptionSpec::spin(MULTI_PV, 1, 1, 64),
    OptionSpec::check(PONDER, false),
    OptionSpec::spin(TIME_MARGIN, 300, 0, 60_000),
    OptionSpec::spin(SEED, 0, 0, i64::MAX),
    // Below 20: a weaker player (crate::strength), the game's `Level` of the
    // same share; LimitStrength with Elo picks the level by its measured Elo
    // instead.
    OptionSpec::spin(
        SKILL,
        strength::MAX_SKILL as i64,
        0,
        strength::MAX_SKILL as i64,
    ),
    OptionSpec::check(LIMIT_STRENGTH, false),
    // Centipawns: in the opening, any root move this close to the best may be played.
    OptionSpec::spin(VARIETY, 0, 0, 1000),
    // Lists the game's `Tune_` options (they are settable either way).
    OptionSpec::check(tune::SHOW_TUNABLES, false),
];

/// A `position` command that could not be applied; the previous position stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    Parse(ParseError),
    /// The move at `index` (0-based) of the move list.
    Move {
        index: usize,
        error: MoveError,
    },
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::Parse(e) => write!(f, "{e}"),
            PositionError::Move { index, error } => {
                write!(f, "{error} (move {} of the list)", index + 1)
            }
        }
    }
}

/// Where a game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameState {
    pub to_move: Seat,
    /// Plies played, counting the move number the position was set up with.
    pub ply: u32,
    /// The side to move must roll the dice before it moves.
    pub awaits_chance: bool,
    /// How the game ended, if it did.
    pub outcome: Option<Outcome>,
}

/// Why a search cannot start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The side to move has not rolled its dice yet (Sugoroku).
    AwaitsChance,
    /// A move the search was limited to is not legal here.
    SearchMoves(MoveError),
}

/// What `go` ends with.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BestMove {
    /// `None`: no legal move, or the game is over (the protocol answers
    /// `bestmove resign`).
    pub best: Option<String>,
    pub ponder: Option<String>,
    /// Why the move was chosen where the search alone did not choose it,
    /// said before it as `info string` lines.
    pub notes: Vec<String>,
}

pub struct BenchReport {
    pub positions: usize,
    pub depth: u32,
    pub nodes: u64,
    pub elapsed: std::time::Duration,
}

/// The engine as the protocol sees it: one game, its options, the current
/// position and a searcher.
pub trait GameSession: Send {
    fn game(&self) -> &'static str;
    /// The game's house rules, then the engine options.
    fn option_specs(&self) -> Vec<OptionSpec>;
    /// `Ok(false)`: no option has that name.
    fn set_option(&mut self, name: &str, value: &str) -> Result<bool, OptionError>;
    /// Heavy initialisation (tables), so that the first search starts at once;
    /// an error (a hash size that cannot be allocated) keeps the previous table
    /// and its size.
    fn prepare(&mut self) -> Result<(), String>;
    /// The hash size (MiB) in use once prepared: after a refused size, the one kept.
    fn hash_mb(&self) -> usize;
    /// A new game: tables cleared, the start position set.
    fn new_game(&mut self);
    /// Sets the position (start when `sfen` is `None`) and plays `moves`; on any
    /// error nothing changes.
    fn set_position(&mut self, sfen: Option<&str>, moves: &[&str]) -> Result<(), PositionError>;
    /// Plays one more entry of the move list on the current position, as
    /// `set_position` with the list so far and `mv` after it would, with the
    /// same checks and error (its index the list's length); on an error
    /// nothing changes. A referee follows a game this way at the cost of one
    /// move, not of the whole game again.
    fn play(&mut self, mv: &str) -> Result<(), PositionError>;
    fn sfen(&self) -> String;
    fn key(&self) -> u64;
    fn seats(&self) -> usize;
    /// Whether chance events (dice) are part of the game.
    fn has_chance(&self) -> bool;
    /// How `seat` is written (`b`/`w` for two players, `0`–`3` for four).
    fn seat_name(&self, seat: Seat) -> &'static str;
    /// The moves the side to move may play: none once the game is over.
    fn legal_moves(&self) -> Vec<String>;
    /// Per-move leaf counts and the total.
    fn perft(&self, depth: u32) -> (Vec<(String, u64)>, u64);
    /// Where the game stands: who is to move, whether the dice are due, how it ended.
    fn state(&self) -> GameState;
    /// The game's own facts for `status` (captures, checks, dice, …) as
    /// `key value` words.
    fn status_details(&self) -> String;
    /// The result if `seat` forfeits now (a fault, a resignation, a loss on
    /// time), ranked by the game's rules.
    fn forfeit(&self, seat: Seat) -> GameResult;
    fn diagram(&self) -> String;
    fn ponder_enabled(&self) -> bool;
    /// Why a search with `limits` cannot start from the current position, if so.
    fn search_refusal(&self, limits: &Limits) -> Option<Refusal>;
    /// Whether the game has a mate solver (otherwise `go mate` answers
    /// `checkmate notimplemented` at once).
    fn has_mate_solver(&self) -> bool;
    /// `go mate`: see [`Playable::mate`]; the line as notation.
    fn mate(&mut self, limits: &Limits, control: &SearchControl) -> MateAnswer<String>;
    /// Searches the current position until a limit or `control` stops it.
    fn search(
        &mut self,
        limits: &Limits,
        control: &SearchControl,
        report: &mut dyn FnMut(&SearchInfo<String>),
    ) -> BestMove;
    /// The fixed bench positions at the fixed depth, from fresh tables.
    fn bench(&mut self, depth: Option<u32>) -> BenchReport;
    /// Analysis: searches play at full strength whatever `Skill`, `Level`,
    /// `LimitStrength` and `Variety` say (a review's searches).
    fn set_analysis(&mut self, on: bool);
    /// How a review of this game values moves (its profile's `review`).
    fn review_scale(&self) -> ReviewScale;
    /// [`Playable::place_shares`] of the current position.
    fn place_shares(&self) -> Option<PerSeat<i32>>;
    /// The game's house rules (the options a record carries).
    fn rule_specs(&self) -> &'static [OptionSpec];
    /// The game set by the last position, one entry per move, as people read
    /// it ([`Playable::readable_move`]).
    fn readable_record(&self, kanji: bool) -> Vec<RecordEntry>;
}

/// One move of a readable record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordEntry {
    /// The ply the move plays (1 for the first move of a game from the start).
    pub ply: u32,
    /// Who plays it, as [`GameSession::seat_name`] writes it.
    pub seat: &'static str,
    pub text: String,
}

/// A root line reported: its iteration's depth, its score and its moves.
type Line<M> = (u32, crate::search::Score, Vec<M>);

/// What the search stage leaves for the stages after it.
struct Searched<G: Playable> {
    result: crate::search::SearchResult<G::Move>,
    /// The margin of a loose choice among `lines`, if one is to be made.
    margin: Option<crate::search::Value>,
    /// The root lines of the deepest iteration reported (for a loose choice).
    lines: Vec<Line<G::Move>>,
    /// The last first line reported: (depth, seldepth, its first move).
    shown: Option<(u32, u32, G::Move)>,
    /// The searcher's parameters, for the words a line's first move adds.
    params: ParamsOf<G>,
}

/// The move chosen to play, the reply expected and the score shown.
struct Chosen<M> {
    best: Option<M>,
    reply: Option<M>,
    score: crate::search::Score,
}

pub struct Session<G: Playable> {
    rules: G::Rules,
    pos: G,
    /// How `pos` was set: replayed when a house rule changes, so that the game's
    /// history (repetitions) survives.
    setup: Option<String>,
    moves: Vec<String>,
    config: SearchConfig,
    ponder: bool,
    /// `Level` (or `Skill`, scaled): the level when strength is not limited by Elo.
    level: u32,
    /// `LimitStrength` and `Elo`: the level is the game's strongest
    /// measured not above this Elo.
    limit_strength: bool,
    elo: i64,
    /// `Variety`: the margin of the opening's loose choice (0: off).
    variety: i32,
    /// Every choice below full strength or by `Variety` draws from here;
    /// seeded by `Seed` at every new game.
    rng: Xoshiro256PlusPlus,
    /// How long this machine has lately kept searches from running: it widens
    /// the time margin (kept across games, since the machine stays the same).
    delays: DelayEstimate,
    show_tunables: bool,
    /// [`GameSession::set_analysis`]: full strength whatever the options say.
    analysis: bool,
    /// The levels' and the mate solver's tunables (the searcher holds its
    /// own and its evaluator's, `config` time management's).
    strength: StrengthParams,
    mate: MateParams,
    /// The threat guard's solver memory (the searcher's is busy while the
    /// guard checks during a search).
    threat_scratch: Scratch,
    searcher: G::Searcher,
}

impl<G: Playable> Session<G> {
    pub fn new() -> Self {
        let rules = G::Rules::default();
        let config = SearchConfig::default();
        Session {
            pos: G::start(&rules),
            setup: None,
            moves: Vec::new(),
            searcher: <G::Searcher as Searcher<G>>::new(&config),
            rules,
            config,
            ponder: false,
            level: G::PROFILE.levels.count,
            limit_strength: false,
            elo: G::PROFILE.levels.elo.last().map_or(0, |&elo| elo as i64),
            variety: 0,
            rng: Xoshiro256PlusPlus::seed_from_u64(0),
            delays: DelayEstimate::default(),
            show_tunables: false,
            analysis: false,
            strength: StrengthParams::default(),
            mate: MateParams::default(),
            threat_scratch: Scratch::default(),
        }
    }

    pub fn position(&self) -> &G {
        &self.pos
    }

    /// The game set by `sfen` (the start if none) and `moves`, under `rules`.
    fn build(rules: &G::Rules, sfen: Option<&str>, moves: &[&str]) -> Result<G, PositionError> {
        let mut pos = match sfen {
            None => G::start(rules),
            Some(text) => G::from_sfen(text, rules).map_err(PositionError::Parse)?,
        };
        for (index, text) in moves.iter().enumerate() {
            let played = pos
                .play_text(text)
                .and_then(|()| Self::readable_move_number(&pos, text));
            played.map_err(|error| PositionError::Move { index, error })?;
        }
        Ok(pos)
    }

    /// What `d` prints must read back: the move number after `text` stays readable.
    fn readable_move_number(pos: &G, text: &str) -> Result<(), MoveError> {
        if pos.ply() >= MAX_MOVE_NUMBER {
            let reason = format!("the move number would pass {MAX_MOVE_NUMBER}");
            return Err(MoveError::new(text, reason));
        }
        Ok(())
    }

    /// The strength level this search plays at: `None` at full strength
    /// (and in analysis).
    fn level_in_play(&self) -> Option<strength::Level> {
        let levels = &G::PROFILE.levels;
        let index = if self.limit_strength && !levels.elo.is_empty() {
            strength::level_for_elo(levels.elo, self.elo)
        } else {
            self.level
        };
        (index < levels.count && !self.analysis).then(|| {
            self.strength.level(
                index,
                levels.count,
                levels.spacing,
                levels.noise,
                levels.blind_permille,
            )
        })
    }

    /// The margin of a loose choice among the best root lines, if any: the
    /// level's, or the variety's in the first plies of a game.
    fn loose_margin(
        &self,
        level: Option<strength::Level>,
        limits: &Limits<G::Move>,
    ) -> Option<crate::search::Value> {
        match level {
            Some(level) => Some(level.margin),
            None if self.variety > 0
                && !self.analysis
                && self.pos.ply() < strength::VARIETY_PLIES
                && limits.searchmoves.is_empty() =>
            {
                Some(self.variety)
            }
            None => None,
        }
    }

    /// The search proper, at `level` (weakened) or full strength: the lines
    /// reported go on to `report` as notation (as many as MultiPV asks for),
    /// and those of the deepest iteration are kept for a loose choice.
    fn root_search(
        &mut self,
        level: Option<strength::Level>,
        limits: &Limits<G::Move>,
        control: &SearchControl,
        mut threats: Option<&mut ThreatChecks<G::Move>>,
        report: &mut dyn FnMut(&SearchInfo<String>),
    ) -> Searched<G> {
        let margin = self.loose_margin(level, limits);
        let loose = margin.is_some();
        let limits = match level {
            Some(level) => level.limit(limits, &mut self.rng),
            None => limits.clone(),
        };
        if loose {
            let mut config = self.config.clone();
            let lines = level.map_or(strength::CANDIDATES, |level| {
                level.root_lines(&mut self.rng)
            });
            config.multipv = config.multipv.max(lines);
            Searcher::<G>::configure(&mut self.searcher, &config);
        }
        // What the lines reported say besides the search's words (Sugoroku:
        // the network's probabilities), while the searcher is busy.
        let params = Searcher::<G>::params_mut(&mut self.searcher).clone();
        let pos = &self.pos;
        let shown_lines = self.config.multipv;
        let (mate, scratch) = (self.mate, &self.threat_scratch);
        // Within a tenth of a node limit, as the guard after the search.
        let check_nodes = (mate.threat_nodes as u64).min(limits.nodes.map_or(u64::MAX, |n| n / 10));
        let mut lines: Vec<Line<G::Move>> = Vec::new();
        let mut shown: Option<(u32, u32, G::Move)> = None;
        let mut forward = |info: &SearchInfo<G::Move>| {
            if info.multipv <= 1 {
                if let Some(&first) = info.pv.first() {
                    shown = Some((info.depth, info.seldepth, first));
                    // A first move the opponent mates after ends the search
                    // (then searched again without it).
                    if let Some(threats) = threats.as_deref_mut() {
                        if info.depth >= mate.threat_check_depth as u32
                            && !matches!(info.score, Score::Mate(_))
                            && threats.check_during(pos, first, check_nodes, control, scratch)
                        {
                            control.interrupt();
                        }
                    }
                }
            }
            if loose {
                if lines.first().is_some_and(|line| line.0 != info.depth) {
                    lines.clear();
                }
                lines.push((info.depth, info.score, info.pv.clone()));
            }
            // More lines searched for a loose choice are not shown: a GUI sees
            // as many as MultiPV asks for.
            if info.multipv > shown_lines {
                return;
            }
            let pv = line_notation(pos, &info.pv);
            report(&SearchInfo {
                depth: info.depth,
                seldepth: info.seldepth,
                multipv: info.multipv,
                score: info.score,
                nodes: info.nodes,
                time_ms: info.time_ms,
                hashfull: info.hashfull,
                odds: info.pv.first().and_then(|&mv| pos.odds_after(mv, &params)),
                pv,
                scores: info.scores,
            });
        };
        let weakness = level.map(|level| level.weakness(self.rng.gen()));
        Searcher::<G>::weaken(&mut self.searcher, weakness);
        let result = Searcher::<G>::search(&mut self.searcher, pos, &limits, control, &mut forward);
        self.delays.observe(control.longest_gap());
        if loose {
            Searcher::<G>::configure(&mut self.searcher, &self.config);
        }
        Searched {
            result,
            margin,
            lines,
            shown,
            params,
        }
    }

    /// The move to play: the search's answer, or with a loose margin one of
    /// the deepest iteration's lines within it of the best.
    fn choose_line(&mut self, searched: &Searched<G>) -> Chosen<G::Move> {
        let result = &searched.result;
        let answer = Chosen {
            best: result.best,
            reply: result.ponder,
            score: result.score,
        };
        let Some(margin) = searched.margin else {
            return answer;
        };
        let lines: Vec<&Line<G::Move>> = searched
            .lines
            .iter()
            .filter(|line| !line.2.is_empty())
            .collect();
        if lines.is_empty() {
            return answer;
        }
        let scores: Vec<_> = lines.iter().map(|line| line.1).collect();
        let k = strength::choose(&scores, margin, &mut self.rng);
        let chosen = &lines[k].2;
        Chosen {
            best: Some(chosen[0]),
            reply: chosen.get(1).copied(),
            score: lines[k].1,
        }
    }

    /// The answer in notation. It is always the first move of the last
    /// `info` line: a search stopped inside an iteration (or a weakened or
    /// guarded choice) shows its move once more.
    fn answer(
        &self,
        chosen: Chosen<G::Move>,
        searched: &Searched<G>,
        started: Instant,
        notes: Vec<String>,
        report: &mut dyn FnMut(&SearchInfo<String>),
    ) -> BestMove {
        let pos = &self.pos;
        let played: Vec<G::Move> = [chosen.best, chosen.reply].into_iter().flatten().collect();
        let answer = match chosen.best {
            Some(_) => line_notation(pos, &played),
            None => Vec::new(),
        };
        let (result, shown) = (&searched.result, searched.shown);
        if let Some(mv) = chosen.best {
            if shown.map(|(_, _, first)| first) != Some(mv) {
                // Depth 0 before any line was searched: the move as first
                // rated, with that rating (the search's result says so).
                let (depth, seldepth) = shown.map_or((result.depth, 0), |(d, sd, _)| (d, sd));
                report(&SearchInfo {
                    depth,
                    seldepth: seldepth.max(depth),
                    multipv: 1,
                    score: chosen.score,
                    nodes: result.nodes,
                    time_ms: started.elapsed().as_millis() as u64,
                    hashfull: Searcher::<G>::hashfull(&self.searcher),
                    odds: pos.odds_after(mv, &searched.params),
                    pv: answer.clone(),
                    scores: None,
                });
            }
        }
        let mut answer = answer.into_iter();
        BestMove {
            best: answer.next(),
            ponder: answer.next(),
            notes,
        }
    }

    /// A mate the solver finds within [`MateParams::probe_nodes`], played at once
    /// (reported as one `info` line); `None` to search as usual. Not while
    /// pondering or in `go infinite` (the answer must wait), nor under
    /// `searchmoves` or `MultiPV` above 1 (analysis wants its lines).
    fn mate_probe(
        &self,
        limits: &Limits<G::Move>,
        control: &SearchControl,
        report: &mut dyn FnMut(&SearchInfo<String>),
    ) -> Option<BestMove> {
        // Within a tenth of a node limit too, so that `go nodes` means what it says.
        let budget = (self.mate.probe_nodes as u64).min(limits.nodes.map_or(u64::MAX, |n| n / 10));
        if !G::PROFILE.mate_solver
            || budget == 0
            || limits.infinite
            || control.waiting()
            || !limits.searchmoves.is_empty()
            || self.config.multipv > 1
        {
            return None;
        }
        // At most a tenth of the time the search may take, whatever the nodes.
        let margin = Margin::for_search(self.config.time_margin_ms, control);
        let side = self.pos.side_to_move();
        let plan = crate::search::TimeManager::new(limits, side, margin, &self.config.time);
        let probe_limits = Limits {
            nodes: Some(budget),
            movetime: plan.hard_limit().map(|hard| hard / 10),
            ..Limits::default()
        };
        let probe = SearchControl::new(false);
        let scratch = Searcher::<G>::tables(&self.searcher).scratch();
        let MateAnswer::Mate(line) =
            self.pos
                .mate(&probe_limits, &probe, scratch, MateGoal::Shortest)
        else {
            return None;
        };
        let pv = line_notation(&self.pos, &line);
        let elapsed = control.started().elapsed().as_millis() as u64;
        report(&SearchInfo {
            depth: line.len() as u32,
            seldepth: line.len() as u32,
            multipv: 1,
            score: Score::Mate(line.len() as i32),
            nodes: probe.nodes(),
            time_ms: elapsed,
            hashfull: 0,
            odds: None,
            pv: pv.clone(),
            scores: None,
        });
        Some(BestMove {
            best: pv.first().cloned(),
            ponder: pv.get(1).cloned(),
            notes: Vec::new(),
        })
    }

    /// The threat guard: whether the opponent has a forced mate after the
    /// search's choice, asked of the mate solver within [`MateParams::threat_nodes`]
    /// nodes a move (a tenth of a `go nodes` limit at most) and, all moves
    /// together, the time the search left before its deadline and the spare
    /// part of its margin ([`SearchControl::deadline_after_search`]), but no
    /// time of the search's own (so that under node or depth limits the
    /// answer is reproducible). A move
    /// that loses so is replaced by the first in `candidates` (the root moves,
    /// best first) that does not, of [`THREAT_CANDIDATES`] checked, or by the
    /// next unchecked one when the time is up; if every one checked loses,
    /// the choice stands. A move checked during the search is not asked
    /// again (`threats`). Returns the move to play instead with its
    /// score where the search had one, and the note that says why; `None`
    /// when the choice stands unremarked.
    fn threat_guard(
        &self,
        limits: &Limits<G::Move>,
        control: &SearchControl,
        choice: G::Move,
        score: Score,
        candidates: &[(G::Move, Option<Score>)],
        threats: &mut ThreatChecks<G::Move>,
    ) -> Option<(G::Move, Option<Score>, String)> {
        let budget = (self.mate.threat_nodes as u64).min(limits.nodes.map_or(u64::MAX, |n| n / 10));
        // A proven result needs no guard: the search's own mate, or its loss
        // whatever is played. Nor does an answer `stop` asked for, nor a
        // timed one without a deadline to keep to (a search held for
        // `ponderhit` that had finished).
        let timed = limits.timed();
        if !G::PROFILE.mate_solver
            || budget == 0
            || control.stopped()
            || (timed && control.deadline().is_none())
            || matches!(score, Score::Mate(_))
            || candidates.len() < 2
        {
            return None;
        }
        // Published for whoever answers in the search's stead.
        let now = Instant::now();
        let deadline = control.deadline_after_search();
        control.publish_deadline(deadline);
        let time = deadline.map(|deadline| deadline.saturating_duration_since(now));
        let probe_limits = Limits {
            nodes: Some(budget),
            movetime: time,
            ..Limits::default()
        };
        let scratch = &self.threat_scratch;
        if !threats.lost_after(&self.pos, choice, &probe_limits, scratch) {
            return None;
        }
        let out_of_time = || time.is_some_and(|time| now.elapsed() >= time);
        let others = candidates.iter().filter(|(mv, _)| *mv != choice);
        let found = replacement(
            others.take(THREAT_CANDIDATES - 1).copied(),
            out_of_time,
            |mv| {
                // Each check within the time left, not the whole move's.
                let left = time.map(|time| time.saturating_sub(now.elapsed()));
                let limits = Limits {
                    movetime: left,
                    ..probe_limits.clone()
                };
                threats.lost_after(&self.pos, mv, &limits, scratch)
            },
        );
        let also = match (found.lost, found.unchecked) {
            (0, false) => String::new(),
            (0, true) => ", no time to check another".to_string(),
            (n, true) => format!(", and {n} more moves, no time for another"),
            (n, false) if found.safe.is_some() => format!(", and {n} more moves checked"),
            (n, false) => format!(", and the {n} other moves checked"),
        };
        let (played, played_score) = found.safe.unwrap_or((choice, Some(score)));
        let playing = format!("{also}; playing {}", self.pos.format_move(played));
        let note = self.threat_note(choice, threats, &playing);
        Some((played, played_score, note))
    }

    /// What the guard says of `lost`, a move the opponent mates after, and
    /// then `rest` (what it does about it).
    fn threat_note(&self, lost: G::Move, threats: &ThreatChecks<G::Move>, rest: &str) -> String {
        let refutation = threats.verdict(lost).cloned().flatten().unwrap_or_default();
        let mut after = self.pos.clone();
        after.make(lost);
        format!(
            "mate threat: {} loses to mate in {} ({}){rest}",
            self.pos.format_move(lost),
            refutation.len(),
            line_notation(&after, &refutation).join(" "),
        )
    }

    /// Every tunable of this session, where it lives.
    fn tunables(&mut self) -> SessionTunables<'_> {
        SessionTunables {
            searcher: Searcher::<G>::params_mut(&mut self.searcher),
            time: &mut self.config.time,
            strength: &mut self.strength,
            mate: G::PROFILE.mate_solver.then_some(&mut self.mate),
        }
    }

    fn set_engine_option(&mut self, spec: &OptionSpec, value: OptionValue) {
        let int = |v: &OptionValue| match v {
            OptionValue::Int(i) => *i,
            _ => 0,
        };
        match spec.name {
            THREADS => self.config.threads = smp::threads_to_run(int(&value) as usize),
            HASH => self.config.hash_mb = int(&value) as usize,
            MULTI_PV => self.config.multipv = int(&value) as usize,
            TIME_MARGIN => self.config.time_margin_ms = int(&value) as u64,
            SEED => {
                self.config.seed = int(&value) as u64;
                self.rng = Xoshiro256PlusPlus::seed_from_u64(self.config.seed);
            }
            PONDER => self.ponder = value == OptionValue::Bool(true),
            SKILL => {
                self.level = strength::level_of_skill(int(&value) as u32, G::PROFILE.levels.count)
            }
            LEVEL => self.level = int(&value) as u32,
            LIMIT_STRENGTH => self.limit_strength = value == OptionValue::Bool(true),
            ELO => self.elo = int(&value),
            VARIETY => self.variety = int(&value) as i32,
            tune::SHOW_TUNABLES => self.show_tunables = value == OptionValue::Bool(true),
            _ => {}
        }
        Searcher::<G>::configure(&mut self.searcher, &self.config);
    }
}

impl<G: Playable> Default for Session<G> {
    fn default() -> Self {
        Self::new()
    }
}

impl<G: Playable> GameSession for Session<G> {
    fn game(&self) -> &'static str {
        G::PROFILE.name
    }

    fn option_specs(&self) -> Vec<OptionSpec> {
        let mut specs: Vec<OptionSpec> = G::Rules::specs()
            .iter()
            .chain(G::eval_options())
            .chain(G::search_options())
            .copied()
            .collect();
        for &spec in ENGINE_OPTIONS {
            specs.push(spec);
            // The game's own levels beside Skill, its Elo range beside the
            // switch that enables it.
            if spec.name == SKILL {
                specs.push(level_spec::<G>());
            }
            if spec.name == LIMIT_STRENGTH {
                specs.extend(elo_spec::<G>());
            }
        }
        if self.show_tunables {
            specs.extend(tunable_specs::<G>());
        }
        specs
    }

    fn set_option(&mut self, name: &str, value: &str) -> Result<bool, OptionError> {
        let mut rules = self.rules.clone();
        if rules.set(name, value)? {
            if rules != self.rules {
                // Rules are part of the position: the current game is replayed
                // under them (its history, for repetitions, survives). A change
                // under which it does not replay to the same position is refused.
                let refused = |why: String| {
                    let reason = format!("{why}; the rule and the position are kept");
                    OptionError::new(name, value, reason)
                };
                let moves: Vec<&str> = self.moves.iter().map(String::as_str).collect();
                let pos = Self::build(&rules, self.setup.as_deref(), &moves).map_err(|error| {
                    refused(format!(
                        "the current game does not stand under it ({error})"
                    ))
                })?;
                if pos.sfen() != self.pos.sfen() {
                    return Err(refused(format!(
                        "the current game replays to another position under it ({})",
                        truncate(&pos.sfen())
                    )));
                }
                self.rules = rules;
                self.pos = pos;
            }
            return Ok(true);
        }
        if G::set_eval_option(Searcher::<G>::params_mut(&mut self.searcher), name, value)? {
            return Ok(true);
        }
        if let Some(spec) = find_spec(G::search_options(), name) {
            if let OptionValue::Choice(choice) = spec.validate(value)? {
                self.config.algorithm = choice;
                Searcher::<G>::configure(&mut self.searcher, &self.config);
            }
            return Ok(true);
        }
        if let Some((spec, _)) = tune::get(&mut self.tunables(), name) {
            if let OptionValue::Int(value) = spec.option(0).validate(value)? {
                tune::set(&mut self.tunables(), name, value as i32)
                    .and_then(Result::ok)
                    .expect("validated against its own range");
                Searcher::<G>::configure(&mut self.searcher, &self.config);
            }
            return Ok(true);
        }
        let own = [Some(level_spec::<G>()), elo_spec::<G>()];
        let own = own.iter().flatten().find(|spec| spec.answers_to(name));
        match find_spec(ENGINE_OPTIONS, name).or(own) {
            Some(spec) => {
                let value = spec.validate(value)?;
                self.set_engine_option(spec, value);
                Ok(true)
            }
            None => Ok(false),
        }
    }

    fn prepare(&mut self) -> Result<(), String> {
        // At `isready`, long before the first race; each search says again
        // whether it waits.
        G::prepare_evaluation(
            &self.rules,
            Searcher::<G>::params_mut(&mut self.searcher),
            false,
        );
        let prepared = Searcher::<G>::prepare(&mut self.searcher);
        self.config.hash_mb = Searcher::<G>::tables(&self.searcher).config().hash_mb;
        prepared
    }

    fn hash_mb(&self) -> usize {
        self.config.hash_mb
    }

    fn new_game(&mut self) {
        Searcher::<G>::clear(&mut self.searcher);
        // Each game's choices follow from the seed alone (resumed or sharded
        // matches replay it); games vary by giving each its own seed.
        self.rng = Xoshiro256PlusPlus::seed_from_u64(self.config.seed);
        self.pos = G::start(&self.rules);
        self.setup = None;
        self.moves.clear();
    }

    fn set_position(&mut self, sfen: Option<&str>, moves: &[&str]) -> Result<(), PositionError> {
        self.pos = Self::build(&self.rules, sfen, moves)?;
        self.setup = sfen.map(str::to_string);
        self.moves = moves.iter().map(|m| m.to_string()).collect();
        Ok(())
    }

    fn play(&mut self, mv: &str) -> Result<(), PositionError> {
        let index = self.moves.len();
        let error = |error| PositionError::Move { index, error };
        // `play_text` leaves the position as it was when it refuses the move.
        self.pos.play_text(mv).map_err(error)?;
        if let Err(refused) = Self::readable_move_number(&self.pos, mv) {
            // Played but past the readable move numbers: the position before
            // it is built again (once, at a million plies).
            let moves: Vec<&str> = self.moves.iter().map(String::as_str).collect();
            self.pos = Self::build(&self.rules, self.setup.as_deref(), &moves)
                .expect("the position before was built from the same list");
            return Err(error(refused));
        }
        self.moves.push(mv.to_string());
        Ok(())
    }

    fn sfen(&self) -> String {
        self.pos.sfen()
    }

    fn key(&self) -> u64 {
        self.pos.key()
    }

    fn seats(&self) -> usize {
        G::SEATS
    }

    fn has_chance(&self) -> bool {
        G::PROFILE.has_chance
    }

    fn seat_name(&self, seat: Seat) -> &'static str {
        G::PROFILE.seat_names[seat.index()]
    }

    fn legal_moves(&self) -> Vec<String> {
        // A game over by repetition or the move limit has moves left to
        // generate (perft counts them), but none to play.
        if self.pos.outcome().is_some() {
            return Vec::new();
        }
        let mut moves = MoveList::new();
        self.pos.generate_moves(&mut moves);
        moves.iter().map(|&mv| self.pos.format_move(mv)).collect()
    }

    fn perft(&self, depth: u32) -> (Vec<(String, u64)>, u64) {
        if depth == 0 {
            return (Vec::new(), 1);
        }
        let divide = self.pos.divide(depth);
        let total = divide.iter().map(|(_, n)| n).sum();
        (divide, total)
    }

    fn state(&self) -> GameState {
        GameState {
            to_move: self.pos.side_to_move(),
            ply: self.pos.ply(),
            awaits_chance: self.pos.at_chance(),
            outcome: self.pos.outcome(),
        }
    }

    fn status_details(&self) -> String {
        self.pos.status_details()
    }

    fn forfeit(&self, seat: Seat) -> GameResult {
        self.pos.forfeit(seat)
    }

    fn diagram(&self) -> String {
        format!(
            "{}\nseats {}",
            self.pos.diagram().trim_end(),
            G::PROFILE.seat_names.join(" ")
        )
    }

    fn ponder_enabled(&self) -> bool {
        self.ponder
    }

    fn search_refusal(&self, limits: &Limits) -> Option<Refusal> {
        if self.pos.at_chance() && self.pos.decided().is_none() {
            return Some(Refusal::AwaitsChance);
        }
        limits.read_in(&self.pos).err().map(Refusal::SearchMoves)
    }

    fn has_mate_solver(&self) -> bool {
        G::PROFILE.mate_solver
    }

    fn mate(&mut self, limits: &Limits, control: &SearchControl) -> MateAnswer<String> {
        let scratch = Searcher::<G>::tables(&self.searcher).scratch();
        match self.pos.mate(
            &limits.with_moves(Vec::new()),
            control,
            scratch,
            MateGoal::Shortest,
        ) {
            MateAnswer::Mate(line) => MateAnswer::Mate(line_notation(&self.pos, &line)),
            MateAnswer::NoMate => MateAnswer::NoMate,
            MateAnswer::Timeout => MateAnswer::Timeout,
            MateAnswer::NotImplemented => MateAnswer::NotImplemented,
        }
    }

    fn search(
        &mut self,
        limits: &Limits,
        control: &SearchControl,
        report: &mut dyn FnMut(&SearchInfo<String>),
    ) -> BestMove {
        control.carry_delay(self.delays.recent());
        // The searchers take moves, not text (names that are not legal here
        // were refused before: `search_refusal`).
        let limits = &limits
            .read_in(&self.pos)
            .unwrap_or_else(|_| limits.with_moves(Vec::new()));
        if self.pos.outcome().is_some() {
            return BestMove {
                best: None,
                ponder: None,
                notes: Vec::new(),
            };
        }
        // A search against a clock never stalls on the evaluation's set-up;
        // one bounded by depth or nodes waits, to play the same at any load.
        let wait = !(limits.timed() || limits.infinite);
        G::prepare_evaluation(
            &self.rules,
            Searcher::<G>::params_mut(&mut self.searcher),
            wait,
        );
        let level = self.level_in_play();
        // Stage one: a mate of our own, played at once.
        if level.is_none() {
            if let Some(best) = self.mate_probe(limits, control, report) {
                return best;
            }
        }
        // Stage two: the search, its first moves checked for a mate threat
        // at the ends of its iterations.
        let guarded = level.is_none() && G::PROFILE.mate_solver && self.mate.threat_nodes > 0;
        let mut threats = ThreatChecks::new();
        let checked = guarded
            && self.mate.threat_check_depth > 0
            && !limits.infinite
            && !control.waiting()
            && self.config.multipv == 1;
        let started = Instant::now();
        let mut notes = Vec::new();
        let mut round_limits = limits.clone();
        let searched = loop {
            let watch =
                (checked && threats.lost().count() < THREAT_CANDIDATES).then_some(&mut threats);
            let searched = self.root_search(level, &round_limits, control, watch, report);
            // Interrupted: its first move loses to a mate; the others are
            // searched again, in the time and nodes left.
            if !control.resume() || control.stopped() {
                break searched;
            }
            let Some(lost) = threats.lost().last() else {
                break searched;
            };
            let nodes_left = limits.nodes.map(|n| n.saturating_sub(control.nodes()));
            let others: Vec<G::Move> = searched
                .result
                .root_moves
                .iter()
                .map(|&(mv, _)| mv)
                .filter(|&mv| !threats.is_lost(mv))
                .collect();
            notes.push(self.threat_note(lost, &threats, "; searching the others"));
            if others.is_empty() || nodes_left == Some(0) {
                break searched;
            }
            round_limits = Limits {
                nodes: nodes_left,
                ..limits.with_moves(others)
            };
        };
        // Stage three: the choice among the root lines, for a weaker or varied play.
        let mut chosen = self.choose_line(&searched);
        // Stage four: no move the opponent mates after, where one is found.
        if let (true, Some(choice)) = (guarded, chosen.best) {
            let root_moves = &searched.result.root_moves;
            if let Some((played, played_score, note)) = self.threat_guard(
                limits,
                control,
                choice,
                chosen.score,
                root_moves,
                &mut threats,
            ) {
                if played != choice {
                    chosen = Chosen {
                        best: Some(played),
                        reply: None,
                        score: played_score.unwrap_or(chosen.score),
                    };
                }
                notes.push(note);
            }
        }
        self.answer(chosen, &searched, started, notes, report)
    }

    fn bench(&mut self, depth: Option<u32>) -> BenchReport {
        let depth = depth.unwrap_or(G::PROFILE.bench_depth);
        let mut config = self.config.clone();
        config.threads = 1;
        config.multipv = 1;
        let started = Instant::now();
        let mut nodes = 0;
        let mut searcher = <G::Searcher as Searcher<G>>::new(&config);
        // Fresh tables, this session's tunables.
        *Searcher::<G>::params_mut(&mut searcher) =
            Searcher::<G>::params_mut(&mut self.searcher).clone();
        G::prepare_evaluation(&self.rules, Searcher::<G>::params_mut(&mut searcher), true);
        for sfen in G::PROFILE.bench {
            let pos = G::from_sfen(sfen, &self.rules).expect("bench positions are valid");
            Searcher::<G>::clear(&mut searcher);
            let control = SearchControl::new(false);
            let limits = Limits {
                nodes: Some(BENCH_NODES),
                ..Limits::depth(depth)
            };
            nodes +=
                Searcher::<G>::search(&mut searcher, &pos, &limits, &control, &mut |_| {}).nodes;
        }
        BenchReport {
            positions: G::PROFILE.bench.len(),
            depth,
            nodes,
            elapsed: started.elapsed(),
        }
    }

    fn set_analysis(&mut self, on: bool) {
        self.analysis = on;
    }

    fn review_scale(&self) -> ReviewScale {
        G::PROFILE.review
    }

    fn place_shares(&self) -> Option<PerSeat<i32>> {
        self.pos.place_shares()
    }

    fn rule_specs(&self) -> &'static [OptionSpec] {
        G::Rules::specs()
    }

    fn readable_record(&self, kanji: bool) -> Vec<RecordEntry> {
        let mut pos = match &self.setup {
            None => G::start(&self.rules),
            Some(text) => G::from_sfen(text, &self.rules).expect("set before"),
        };
        let mut record = Vec::new();
        for text in &self.moves {
            let (ply, seat) = (
                pos.ply() + 1,
                G::PROFILE.seat_names[pos.side_to_move().index()],
            );
            // Games with dice keep their entries as given (the roll with its turn).
            let text = match pos.parse_move(text) {
                Ok(mv) if !G::PROFILE.has_chance => {
                    let readable = pos.readable_move(mv, kanji);
                    pos.make(mv);
                    readable
                }
                _ => {
                    pos.play_text(text).expect("played before");
                    text.clone()
                }
            };
            record.push(RecordEntry { ply, seat, text });
        }
        record
    }
}

/// Nodes a bench position is searched at most: far above any game's bench at
/// its default settings, it ends within seconds a depth that another searcher
/// (Yonin's max-n) or a depth given would take minutes to reach.
pub const BENCH_NODES: u64 = 1_000_000;

/// `Level`: the game's own levels, its count full strength.
fn level_spec<G: Playable>() -> OptionSpec {
    OptionSpec::spin(
        LEVEL,
        G::PROFILE.levels.count as i64,
        0,
        G::PROFILE.levels.count as i64,
    )
}

/// `Elo`: from the game's weakest measured level to its strongest; none
/// where no level is measured.
fn elo_spec<G: Playable>() -> Option<OptionSpec> {
    let (&weakest, &strongest) = (
        G::PROFILE.levels.elo.first()?,
        G::PROFILE.levels.elo.last()?,
    );
    Some(OptionSpec::spin(
        ELO,
        strongest as i64,
        weakest as i64,
        strongest as i64,
    ))
}

/// A line of moves from `pos` in the game's notation (each move written in
/// the position it is played from).
fn line_notation<G: Notation>(pos: &G, line: &[G::Move]) -> Vec<String> {
    let mut pos = pos.clone();
    line.iter()
        .map(|&mv| {
            let text = pos.format_move(mv);
            pos.make(mv);
            text
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::options::OptionKind;
    use crate::registry::new_session;

    fn over(session: &dyn GameSession) -> Option<&'static str> {
        session.state().outcome.map(|outcome| outcome.reason)
    }

    /// Where a session stands, as far as a referee asks.
    fn standing(session: &dyn GameSession) -> (String, u64, GameState, String, Vec<String>) {
        (
            session.sfen(),
            session.key(),
            session.state(),
            session.status_details(),
            session.legal_moves(),
        )
    }

    #[test]
    fn the_guard_replaces_a_lost_move_by_the_first_not_proven_lost() {
        let others = [(1, 'a'), (2, 'b'), (3, 'c')];
        // Moves 1 and 2 lose too; 3 does not.
        let found = replacement(others.into_iter(), || false, |mv| mv < 3);
        let expected = Replacement {
            safe: Some((3, 'c')),
            lost: 2,
            unchecked: false,
        };
        assert_eq!(found, expected);
        // Every one loses: none to play instead.
        let found = replacement(others.into_iter(), || false, |_| true);
        assert_eq!((found.safe, found.lost), (None, 3));
        // The time is up after one check: the next move, unchecked.
        let checks = std::cell::Cell::new(0);
        let found = replacement(
            others.into_iter(),
            || checks.get() == 1,
            |_| {
                checks.set(checks.get() + 1);
                true
            },
        );
        let expected = Replacement {
            safe: Some((2, 'b')),
            lost: 1,
            unchecked: true,
        };
        assert_eq!(found, expected);
    }

    #[test]
    fn playing_move_by_move_is_setting_the_whole_list() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(37);
        for game in crate::registry::NAMES {
            for _ in 0..3 {
                let mut stepped = new_session(game).unwrap();
                let mut whole = new_session(game).unwrap();
                stepped.set_position(None, &[]).unwrap();
                let mut moves: Vec<String> = Vec::new();
                while stepped.state().outcome.is_none() && moves.len() < 300 {
                    let mv = if stepped.state().awaits_chance {
                        let (a, b) = (rng.gen_range(1..=6), rng.gen_range(1..=6));
                        format!("{}{}", a.max(b), a.min(b))
                    } else {
                        let legal = stepped.legal_moves();
                        legal[rng.gen_range(0..legal.len())].clone()
                    };
                    // A move that is not there: the same error, nothing changed.
                    let before = standing(&*stepped);
                    let list: Vec<&str> = moves.iter().map(String::as_str).collect();
                    let bad = [&list[..], &["9z9z"]].concat();
                    let refused = whole.set_position(None, &bad).unwrap_err();
                    assert_eq!(stepped.play("9z9z"), Err(refused), "{game}");
                    assert_eq!(standing(&*stepped), before, "{game}");
                    stepped.play(&mv).unwrap();
                    moves.push(mv);
                    let list: Vec<&str> = moves.iter().map(String::as_str).collect();
                    whole.set_position(None, &list).unwrap();
                    assert_eq!(standing(&*stepped), standing(&*whole), "{game} {list:?}");
                }
                // Over: every move refused, as by the whole list.
                if let Some(mv) = moves.last() {
                    let list: Vec<&str> = moves.iter().map(String::as_str).collect();
                    let after = [&list[..], &[mv.as_str()]].concat();
                    let refused = whole.set_position(None, &after);
                    if refused.is_err() {
                        assert_eq!(stepped.play(mv), refused, "{game}");
                    }
                }
            }
        }
    }

    #[test]
    fn a_move_past_the_readable_move_numbers_is_refused_with_nothing_changed() {
        let mut session = new_session("hasami").unwrap();
        let start = session.sfen();
        let (board, _) = start.rsplit_once(' ').unwrap();
        let last = format!("{board} {MAX_MOVE_NUMBER}");
        session.set_position(Some(&last), &[]).unwrap();
        let before = standing(&*session);
        let mut whole = new_session("hasami").unwrap();
        let refused = whole.set_position(Some(&last), &["9i9h"]).unwrap_err();
        assert!(refused.to_string().contains("would pass"), "{refused}");
        assert_eq!(session.play("9i9h"), Err(refused));
        assert_eq!(standing(&*session), before);
    }

    #[test]
    fn a_house_rule_change_keeps_the_game_history() {
        let mut session = new_session("hasami").unwrap();
        let cycle = ["9i9h", "9a9b", "9h9i", "9b9a"];
        let moves: Vec<&str> = cycle.iter().cycle().take(12).copied().collect();
        session.set_position(None, &moves).unwrap();
        assert_eq!(over(&*session), Some("repetition"));
        session.set_option("MoveLimit", "500").unwrap();
        assert_eq!(over(&*session), Some("repetition"), "history survives");
        session.set_option("MaxMovesToDraw", "4").unwrap();
        assert!(over(&*session).is_some());
    }

    #[test]
    fn a_search_kept_from_running_widens_the_margins_that_follow() {
        use std::time::Duration;
        let deadline_after = |session: &mut dyn GameSession, stall: Duration| {
            let control = SearchControl::new(false);
            let mut deadline = None;
            session.search(
                &Limits::movetime(Duration::from_millis(2_000)),
                &control,
                &mut |_| {
                    deadline = control.deadline();
                    std::thread::sleep(stall);
                },
            );
            deadline.expect("planned") - control.started()
        };
        for game in crate::registry::NAMES {
            let mut session = new_session(game).unwrap();
            if session.state().awaits_chance {
                session.set_position(None, &["31"]).unwrap();
            }
            // 2 s less the margin, an eighth of it: the machine has not been
            // slow yet.
            let quiet = deadline_after(&mut *session, Duration::from_millis(200));
            assert_eq!(quiet, Duration::from_millis(1_750), "{game}");
            // The reports stalled the search 200 ms at a time: three times that,
            // decayed by a sixteenth, is kept free now.
            let widened = deadline_after(&mut *session, Duration::ZERO);
            assert!(
                widened <= Duration::from_millis(2_000 - 560),
                "{game}: {widened:?}"
            );
            assert!(
                widened >= Duration::from_millis(1_000),
                "{game}: half at most"
            );
        }
    }

    /// The moves `session` chooses in `searches` searches of its position,
    /// and the most nodes one of them reported.
    fn choices(
        session: &mut dyn GameSession,
        searches: usize,
        limits: &Limits,
    ) -> (Vec<String>, u64) {
        let mut most_nodes = 0;
        let moves = (0..searches)
            .map(|_| {
                let best = session.search(limits, &SearchControl::new(false), &mut |info| {
                    most_nodes = most_nodes.max(info.nodes)
                });
                best.best.expect("a move")
            })
            .collect();
        (moves, most_nodes)
    }

    #[test]
    fn a_low_skill_reads_little_and_varies_its_legal_choice() {
        let weakest = strength::level(0, strength::MAX_SKILL, &[], 0, 0).nodes;
        for game in crate::registry::NAMES {
            let mut session = new_session(game).unwrap();
            if session.has_chance() {
                session.set_position(None, &["31"]).unwrap();
            }
            session.set_option("Skill", "0").unwrap();
            let (moves, nodes) = choices(&mut *session, 12, &Limits::depth(6));
            let legal = session.legal_moves();
            assert!(
                moves.iter().all(|mv| legal.contains(mv)),
                "{game}: {moves:?}"
            );
            assert!(nodes <= 2 * weakest, "{game}: {nodes} nodes at level 0");
            let distinct: std::collections::HashSet<_> = moves.iter().collect();
            assert!(distinct.len() > 1, "{game}: always {moves:?}");
            // The same seed replays the same choices.
            session.set_option("Seed", "0").unwrap();
            let again = choices(&mut *session, 12, &Limits::depth(6)).0;
            session.set_option("Seed", "0").unwrap();
            assert_eq!(
                choices(&mut *session, 12, &Limits::depth(6)).0,
                again,
                "{game}"
            );
        }
    }

    #[test]
    fn an_elo_limit_plays_the_level_the_table_names() {
        let mut session = new_session("hasami").unwrap();
        let weakest = crate::hasami::Hasami::PROFILE.levels.elo[0];
        session.set_option(ELO, &weakest.to_string()).unwrap();
        let (_, full) = choices(&mut *session, 1, &Limits::depth(3));
        assert!(
            full > strength::level(0, strength::MAX_SKILL, &[], 0, 0).nodes * 2,
            "not limited yet: {full}"
        );
        session.set_option(LIMIT_STRENGTH, "true").unwrap();
        let (_, limited) = choices(&mut *session, 1, &Limits::depth(3));
        assert!(
            limited <= strength::level(0, strength::MAX_SKILL, &[], 0, 0).nodes * 2,
            "{limited} nodes"
        );
        assert!(session.set_option(ELO, &(weakest - 1).to_string()).is_err());
    }

    #[test]
    fn variety_varies_the_opening_only() {
        let mut session = new_session("hasami").unwrap();
        let limits = Limits::depth(2);
        let plain = choices(&mut *session, 8, &limits).0;
        assert!(plain.iter().all(|mv| *mv == plain[0]), "{plain:?}");
        session.set_option("Variety", "100").unwrap();
        let varied: std::collections::HashSet<_> =
            choices(&mut *session, 8, &limits).0.into_iter().collect();
        assert!(varied.len() > 1, "{varied:?}");
        // Past the opening (without a repetition, which would end the game)
        // the best move is played.
        let moves: Vec<String> = (1..=9)
            .flat_map(|file| {
                [
                    format!("{file}i{file}h"),
                    format!("{}a{}b", 10 - file, 10 - file),
                ]
            })
            .take(strength::VARIETY_PLIES as usize)
            .collect();
        assert_eq!(moves.len(), strength::VARIETY_PLIES as usize);
        let moves: Vec<&str> = moves.iter().map(String::as_str).collect();
        session.set_position(None, &moves).unwrap();
        let late = choices(&mut *session, 4, &limits).0;
        assert!(late.iter().all(|mv| *mv == late[0]), "{late:?}");
    }

    #[test]
    fn every_level_table_gives_each_level_and_maybe_full_strength_in_order() {
        struct Check;
        impl crate::registry::GameVisitor for Check {
            fn visit<G: Playable>(&mut self, _: &'static crate::registry::GameEntry) {
                let (measured, levels) = (
                    G::PROFILE.levels.elo.len(),
                    G::PROFILE.levels.count as usize,
                );
                assert!(
                    measured == levels || measured == levels + 1,
                    "{}: {measured} Elo for {levels} levels",
                    G::PROFILE.name
                );
                let spacing = G::PROFILE.levels.spacing;
                if !spacing.is_empty() {
                    assert_eq!(
                        spacing.len(),
                        levels,
                        "{}: a place per level",
                        G::PROFILE.name
                    );
                    assert!(
                        spacing[0] == 0.0 && spacing[levels - 1] <= 1.0,
                        "{}",
                        G::PROFILE.name
                    );
                    assert!(
                        spacing.windows(2).all(|w| w[0] < w[1]),
                        "{}",
                        G::PROFILE.name
                    );
                }
            }
        }
        crate::registry::for_each_game(&mut Check);
    }

    #[test]
    fn every_game_names_its_tunables_once_with_the_prefix_and_a_default_in_range() {
        struct Check;
        impl crate::registry::GameVisitor for Check {
            fn visit<G: Playable>(&mut self, _: &'static crate::registry::GameEntry) {
                let tunables = tunable_specs::<G>();
                assert!(!tunables.is_empty(), "{}", G::PROFILE.name);
                let mut names: Vec<String> =
                    tunables.iter().map(|t| t.name.to_lowercase()).collect();
                names.sort();
                names.dedup();
                assert_eq!(
                    names.len(),
                    tunables.len(),
                    "{}: unique names",
                    G::PROFILE.name
                );
                for t in &tunables {
                    assert!(t.name.starts_with(tune::PREFIX), "{}", t.name);
                    let OptionKind::Spin { default, min, max } = t.kind else {
                        panic!("{t:?}");
                    };
                    assert!(min < max && (min..=max).contains(&default), "{t:?}");
                    assert!(find_spec(ENGINE_OPTIONS, t.name).is_none());
                }
            }
        }
        crate::registry::for_each_game(&mut Check);
    }

    /// The bench signature of `session`: its nodes over the bench positions.
    fn bench_nodes(session: &mut dyn GameSession) -> u64 {
        session.bench(None).nodes
    }

    #[test]
    fn two_sessions_of_a_game_keep_their_own_tunables() {
        // One tunable of each kind a session holds: the search's, the
        // evaluation's, time management's (read by the planner only) and
        // the levels'.
        for (game, tunable, value) in [
            ("hasami", "Tune_AspirationDelta", "7"),
            ("hasami", "Tune_HasamiHanging", "120"),
            ("annan", "Tune_AnnanMobility", "30"),
            ("yonin", "Tune_QsMaxPlies", "0"),
            ("yonin", "Tune_YoninKingPressure", "112"),
            ("sugoroku", "Tune_RootCandidates", "2"),
        ] {
            let mut plain = new_session(game).unwrap();
            let mut tuned = new_session(game).unwrap();
            let default = bench_nodes(&mut *plain);
            tuned.set_option(tunable, value).unwrap();
            let changed = bench_nodes(&mut *tuned);
            assert_ne!(changed, default, "{game}: {tunable} moves the search");
            assert_eq!(bench_nodes(&mut *plain), default, "{game}: untouched");
            let fresh = new_session(game).unwrap().option_specs();
            assert!(
                fresh.iter().all(|s| s.name != tunable),
                "listed on request only"
            );
        }
    }

    #[test]
    fn differently_tuned_sessions_search_side_by_side_as_each_alone() {
        // Per game, two sessions of the same game with different tunables
        // (and one at a weak level), each searched alone and then all at
        // once on their own threads: every answer and node count the same.
        let setups: [(&str, &[(&str, &str)]); 8] = [
            ("hasami", &[]),
            (
                "hasami",
                &[("Tune_HasamiNearWin", "90"), ("Tune_NullMinDepth", "5")],
            ),
            ("annan", &[("Tune_AnnanRook", "1500")]),
            (
                "annan",
                &[("Skill", "6"), ("Tune_LevelNoisePercent", "300")],
            ),
            ("yonin", &[]),
            (
                "yonin",
                &[("Tune_YoninMobility", "40"), ("Tune_LmrMinMoves", "8")],
            ),
            ("sugoroku", &[("SugorokuEval", "handmade")]),
            (
                "sugoroku",
                &[
                    ("SugorokuEval", "handmade"),
                    ("Tune_SugorokuHomePoint", "2500"),
                ],
            ),
        ];
        let session = |(game, options): (&str, &[(&str, &str)])| {
            let mut session = new_session(game).unwrap();
            for (name, value) in options {
                assert_eq!(session.set_option(name, value), Ok(true), "{name}");
            }
            if session.has_chance() {
                session.set_position(None, &["31"]).unwrap();
            }
            session
        };
        let answer = |session: &mut dyn GameSession| {
            let control = SearchControl::new(false);
            let limits = Limits {
                nodes: Some(30_000),
                ..Limits::depth(4)
            };
            let best = session.search(&limits, &control, &mut |_| {});
            (best.best, control.nodes(), bench_nodes(session))
        };
        let alone: Vec<_> = setups.iter().map(|&s| answer(&mut *session(s))).collect();
        for pair in alone.chunks(2) {
            assert_ne!(pair[0], pair[1], "the tunings differ in what they search");
        }
        let together: Vec<_> = std::thread::scope(|scope| {
            let threads: Vec<_> = setups
                .iter()
                .map(|&s| {
                    let mut session = session(s);
                    scope.spawn(move || answer(&mut *session))
                })
                .collect();
            threads.into_iter().map(|t| t.join().unwrap()).collect()
        });
        assert_eq!(together, alone);
    }

    #[test]
    fn two_sugoroku_sessions_search_side_by_side_with_their_own_networks() {
        use crate::sugoroku::net::{embedded, Network, Networks};
        let contact = &embedded().contact;
        let other = Networks {
            contact: Network::random(contact.inputs, contact.hidden, contact.activation, 7),
            race: None,
        };
        let path = std::env::temp_dir().join(format!("yomi-values-{}.bin", std::process::id()));
        std::fs::write(&path, other.to_bytes()).unwrap();
        let session = |weights: &str| {
            let mut session = new_session("sugoroku").unwrap();
            session.set_option("SugorokuWeights", weights).unwrap();
            session.set_position(None, &["31"]).unwrap();
            session
        };
        let answer = |session: &mut dyn GameSession| {
            let mut lines = Vec::new();
            let control = SearchControl::new(false);
            let best = session.search(&Limits::depth(2), &control, &mut |info| {
                lines.push((info.score, info.odds))
            });
            (best.best, lines)
        };
        let weights = ["<empty>", path.to_str().unwrap()];
        let alone: Vec<_> = weights.iter().map(|w| answer(&mut *session(w))).collect();
        assert_ne!(alone[0], alone[1], "another network, other values");
        let together: Vec<_> = std::thread::scope(|scope| {
            let threads: Vec<_> = weights
                .iter()
                .map(|w| {
                    let mut session = session(w);
                    scope.spawn(move || answer(&mut *session))
                })
                .collect();
            threads.into_iter().map(|t| t.join().unwrap()).collect()
        });
        std::fs::remove_file(&path).unwrap();
        assert_eq!(together, alone);
    }

    #[test]
    fn options_are_validated_and_unknown_names_reported() {
        let mut session = new_session("hasami").unwrap();
        assert_eq!(session.set_option("Threads", "2"), Ok(true));
        assert!(session.set_option("Threads", "0").is_err());
        assert!(session.set_option("HasamiWin", "seven").is_err());
        assert_eq!(session.set_option("NoSuchOption", "1"), Ok(false));
        assert!(new_session("chess").is_err());
    }
}
