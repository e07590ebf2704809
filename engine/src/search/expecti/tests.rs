//! Expectimax, Star1 and Star2 against a naive expectimax on a toy dice race.

use super::*;
use crate::core::options::NoHouseRules;
use crate::core::Notation;
use crate::core::{MoveError, Outcome, ParseError};
use crate::search::contract;
use crate::search::tables::Scratch;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

// ---------------------------------------------------------------------------
// The toy game: a race with hits and blocks, one die of 1–3 (weights 1, 2, 1).
// Each side has four tokens on its own path: progress 0 (start, off the board),
// 1–8 (the board, shared: side 0's progress p is square p, side 1's is 9 − p),
// 9 (home). A turn moves one token by the die (past home it stops at home); a
// square with two or more opposing tokens is closed, a lone opposing token there
// is hit back to its start. With no token able to move the turn is a pass. The
// first to bring three tokens home wins: 2 points when the last one lands home
// exactly, else 1.
// ---------------------------------------------------------------------------

const TOKENS: usize = 4;
const HOME: u8 = 9;
const NEEDED_HOME: usize = 3;
const DIE: &[(u8, u32)] = &[(1, 1), (2, 2), (3, 1)];
const PASS: u8 = u8::MAX;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct RaceMove(u8);

impl Default for RaceMove {
    fn default() -> Self {
        RaceMove(PASS)
    }
}

#[derive(Clone, Copy, Debug)]
struct Undo {
    from: u8,
    die: u8,
    hit: Option<u8>,
}

#[derive(Clone, Debug)]
struct Race {
    tokens: [[u8; TOKENS]; 2],
    side: Seat,
    die: Option<u8>,
    /// Set by the winning move: (winner, points).
    won: Option<(Seat, u8)>,
    ply: u32,
    history: Vec<Undo>,
}

fn square(side: Seat, progress: u8) -> u8 {
    if side == Seat::FIRST {
        progress
    } else {
        HOME - progress
    }
}

fn mix(x: u64) -> u64 {
    // splitmix64's finaliser.
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Race {
    fn new(tokens: [[u8; TOKENS]; 2], side: Seat, die: Option<u8>) -> Race {
        Race {
            tokens,
            side,
            die,
            won: None,
            ply: 0,
            history: Vec::new(),
        }
    }

    /// Opposing tokens of `side`'s opponent on board square `sq`, and one of them.
    fn opponents_on(&self, side: Seat, sq: u8) -> (usize, Option<u8>) {
        let opponent = side.other();
        let mut count = 0;
        let mut which = None;
        for (i, &p) in self.tokens[opponent.index()].iter().enumerate() {
            if (1..HOME).contains(&p) && square(opponent, p) == sq {
                count += 1;
                which = Some(i as u8);
            }
        }
        (count, which)
    }

    fn home_count(&self, side: Seat) -> usize {
        self.tokens[side.index()]
            .iter()
            .filter(|&&p| p == HOME)
            .count()
    }

    /// Steps to home of the `NEEDED_HOME` most advanced tokens.
    fn race_need(&self, side: Seat) -> i32 {
        let mut distances = self.tokens[side.index()].map(|p| (HOME - p) as i32);
        distances.sort_unstable();
        distances[..NEEDED_HOME].iter().sum()
    }
}

impl Race {
    pub fn compute_key(&self) -> u64 {
        // A sum, not a xor: tokens on the same progress must not cancel.
        let mut key = 0u64;
        for side in 0..2 {
            for &p in &self.tokens[side] {
                key = key.wrapping_add(mix((side * 16 + p as usize) as u64));
            }
        }
        key = key.wrapping_add(mix(100 + self.side.index() as u64));
        key = key.wrapping_add(mix(200 + self.die.map_or(0, |d| d as u64)));
        if let Some((winner, points)) = self.won {
            key = key.wrapping_add(mix(300 + winner.index() as u64 * 4 + points as u64));
        }
        key
    }
}

impl Race {
    pub fn start(_: &NoHouseRules) -> Self {
        Race::new([[0; TOKENS]; 2], Seat::FIRST, None)
    }
}

impl Game for Race {
    type Move = RaceMove;
    type Rules = NoHouseRules;

    fn side_to_move(&self) -> Seat {
        self.side
    }
    fn ply(&self) -> u32 {
        self.ply
    }

    fn generate_moves(&self, moves: &mut MoveList<RaceMove>) {
        moves.clear();
        let Some(die) = self.die else { return };
        if self.won.is_some() {
            return;
        }
        let mine = &self.tokens[self.side.index()];
        for (i, &p) in mine.iter().enumerate() {
            // Tokens on the same progress make the same move.
            if p == HOME || mine[..i].contains(&p) {
                continue;
            }
            let to = (p + die).min(HOME);
            if to < HOME && self.opponents_on(self.side, square(self.side, to)).0 >= 2 {
                continue;
            }
            moves.push(RaceMove(i as u8));
        }
        if moves.is_empty() {
            moves.push(RaceMove(PASS));
        }
    }

    fn make(&mut self, mv: RaceMove) {
        let die = self.die.take().expect("a move needs a roll");
        let side = self.side.index();
        let mut undo = Undo {
            from: 0,
            die,
            hit: None,
        };
        if mv.0 != PASS {
            let from = self.tokens[side][mv.0 as usize];
            let to = (from + die).min(HOME);
            undo.from = from;
            if to < HOME {
                let (count, which) = self.opponents_on(self.side, square(self.side, to));
                if count == 1 {
                    let hit = which.expect("counted one");
                    self.tokens[1 - side][hit as usize] = 0;
                    undo.hit = Some(hit);
                }
            }
            self.tokens[side][mv.0 as usize] = to;
            if to == HOME && self.home_count(self.side) >= NEEDED_HOME {
                self.won = Some((self.side, if from + die == HOME { 2 } else { 1 }));
            }
        }
        self.history.push(undo);
        self.side = self.side.other();
        self.ply += 1;
    }

    fn unmake(&mut self, mv: RaceMove) {
        let undo = self.history.pop().expect("a move to take back");
        self.side = self.side.other();
        self.ply -= 1;
        self.won = None;
        self.die = Some(undo.die);
        if mv.0 != PASS {
            let side = self.side.index();
            self.tokens[side][mv.0 as usize] = undo.from;
            if let Some(hit) = undo.hit {
                let to = (undo.from + undo.die).min(HOME);
                self.tokens[1 - side][hit as usize] = HOME - to;
            }
        }
    }

    fn key(&self) -> u64 {
        self.compute_key()
    }

    fn outcome(&self) -> Option<Outcome> {
        self.decided()
    }
    fn at_chance(&self) -> bool {
        self.die.is_none() && self.won.is_none()
    }
    fn decided(&self) -> Option<Outcome> {
        self.won.map(|(winner, points)| Outcome {
            result: crate::core::GameResult::Win { winner, points },
            reason: "race",
        })
    }
    fn repeats_since(&self, _: u32) -> bool {
        false
    }
}

impl Notation for Race {
    fn format_move(&self, mv: RaceMove) -> String {
        if mv.0 == PASS {
            "pass".to_string()
        } else {
            format!("t{}", mv.0)
        }
    }
    fn parse_move(&self, text: &str) -> Result<RaceMove, MoveError> {
        Err(MoveError::new(text, "not used"))
    }
    fn from_sfen(sfen: &str, _: &NoHouseRules) -> Result<Self, ParseError> {
        Err(ParseError::new(sfen, "the toy race has no notation"))
    }
    fn sfen(&self) -> String {
        format!("{:?} {} {:?}", self.tokens, self.side, self.die)
    }
    fn diagram(&self) -> String {
        self.sfen()
    }
    fn status_details(&self) -> String {
        String::new()
    }
}

impl ChanceGame for Race {
    type Eval = ();
    type Chance = u8;
    const CHANCE_WEIGHT: u32 = 4;
    const VALUE_BOUND: Value = 2000;

    fn chance_outcomes(&self) -> &'static [(u8, u32)] {
        DIE
    }
    fn apply_chance(&mut self, outcome: u8) {
        self.die = Some(outcome);
    }
    fn undo_chance(&mut self, _: u8) {
        self.die = None;
    }
    fn evaluate(&self, _: &()) -> Value {
        let lead = self.race_need(self.side.other()) - self.race_need(self.side);
        // Moving (or rolling) next is worth about a die. The small odd term from the
        // key makes means fall between integers, so that rounding is exercised.
        let noise = (self.key() % 23) as i32 - 11;
        (lead * 100 + 200 + noise).clamp(-1500, 1500)
    }
}

// ---------------------------------------------------------------------------
// A naive expectimax with the documented conventions.
// ---------------------------------------------------------------------------

fn legal_moves(pos: &Race) -> Vec<RaceMove> {
    let mut moves = MoveList::new();
    pos.generate_moves(&mut moves);
    moves.to_vec()
}

/// The value for the side to move: full width, no table, no windows.
fn naive(pos: &mut Race, depth: u32) -> Value {
    if let Some(outcome) = pos.decided() {
        return outcome.value_for(pos.side_to_move()) * 1000;
    }
    if depth == 0 {
        return pos.evaluate(&());
    }
    if pos.at_chance() {
        let mut sum = 0i64;
        for &(die, weight) in DIE {
            pos.apply_chance(die);
            sum += weight as i64 * naive(pos, depth) as i64;
            pos.undo_chance(die);
        }
        // Nearest, halves up.
        let total = Race::CHANCE_WEIGHT as i64;
        return (2 * sum + total).div_euclid(2 * total) as Value;
    }
    legal_moves(pos)
        .into_iter()
        .map(|mv| naive_after(pos, mv, depth))
        .max()
        .expect("a move or a pass")
}

/// The naive value for the side to move of playing `mv` with `depth` turns.
fn naive_after(pos: &mut Race, mv: RaceMove, depth: u32) -> Value {
    pos.make(mv);
    let value = -naive(pos, depth - 1);
    pos.unmake(mv);
    value
}

/// Positions after random play, each with its die rolled (a decision node).
fn random_positions(seed: u64, count: usize) -> Vec<Race> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut positions = Vec::new();
    while positions.len() < count {
        let mut pos = Race::start(&NoHouseRules);
        let turns = rng.gen_range(0..24);
        for _ in 0..turns {
            if pos.decided().is_some() {
                break;
            }
            pos.apply_chance(rng.gen_range(1..=3));
            let moves = legal_moves(&pos);
            pos.make(moves[rng.gen_range(0..moves.len())]);
        }
        if pos.decided().is_none() {
            pos.apply_chance(rng.gen_range(1..=3));
            positions.push(pos);
        }
    }
    positions
}

fn config(threads: usize) -> SearchConfig {
    SearchConfig {
        threads,
        hash_mb: 2,
        ..SearchConfig::default()
    }
}

fn points(score: Score) -> Value {
    match score {
        Score::Points(v) => v,
        other => panic!("expected points, got {other:?}"),
    }
}

const ALL: [ChanceAlgorithm; 3] = [
    ChanceAlgorithm::Expectimax,
    ChanceAlgorithm::Star1,
    ChanceAlgorithm::Star2,
];

// ---------------------------------------------------------------------------

#[test]
fn toy_make_unmake_restores_the_position() {
    for pos in random_positions(7, 30) {
        let mut copy = pos.clone();
        for mv in legal_moves(&pos) {
            copy.make(mv);
            copy.unmake(mv);
            assert_eq!(copy.tokens, pos.tokens);
            assert_eq!(copy.key(), pos.key());
        }
    }
}

#[test]
fn every_algorithm_finds_the_naive_expectimax_value() {
    let positions = random_positions(1, 100);
    for depth in 1..=3 {
        for pos in &positions {
            let expected = naive(&mut pos.clone(), depth);
            for algorithm in ALL {
                let run = run_fixed_depth(pos, depth, algorithm, &config(1));
                assert_eq!(
                    run.value,
                    expected,
                    "{} depth {depth} at {}",
                    algorithm.name(),
                    pos.sfen()
                );
                let best = run.best.expect("a move");
                assert_eq!(
                    naive_after(&mut pos.clone(), best, depth),
                    expected,
                    "{} chose a worse move at depth {depth} at {}",
                    algorithm.name(),
                    pos.sfen()
                );
            }
        }
    }
}

/// A searcher's inner state over `tt` (used or not), to call nodes with any window.
fn split_for(
    tt: Option<&TranspositionTable>,
    algorithm: ChanceAlgorithm,
) -> SplitRoot<'_, RaceMove, ()> {
    SplitRoot {
        params: ExpectiParams::default(),
        eval: &(),
        weak: None,
        tt,
        algorithm,
        lines: Mutex::new(Vec::new()),
        next: AtomicUsize::new(0),
        exact_within: AtomicI32::new(NOT_NARROWING),
    }
}

/// Fail-soft with any window, at chance and decision nodes: inside the window the
/// exact value, below it an upper bound, above it a lower bound.
#[test]
fn nodes_are_fail_soft_with_any_window() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(8);
    let control = SearchControl::new(false);
    let tt = TranspositionTable::new(1);
    let scratch = Scratch::default();
    let bound = Race::VALUE_BOUND;
    let mut positions = random_positions(9, 60);
    // Half of them before the roll: chance nodes.
    for pos in positions.iter_mut().step_by(2) {
        pos.die = None;
    }
    for pos in &positions {
        for depth in 1..=3 {
            let exact = naive(&mut pos.clone(), depth);
            for algorithm in [ChanceAlgorithm::Star1, ChanceAlgorithm::Star2] {
                for use_tt in [false, true] {
                    let limits = Limits::depth(depth);
                    let shared = Shared::new(
                        &tt,
                        &scratch,
                        pos,
                        &limits,
                        &control,
                        &SearchConfig::default(),
                    );
                    let split = split_for(use_tt.then_some(&tt), algorithm);
                    let mut worker = Worker::new(0, &shared, &split, pos);
                    for round in 0..8 {
                        // Half anywhere, half just around the value (off-by-ones).
                        let (alpha, beta) = if round % 2 == 0 {
                            let alpha = rng.gen_range(-bound - 1..bound);
                            (alpha, rng.gen_range(alpha + 1..=bound + 1))
                        } else {
                            let alpha = (exact + rng.gen_range(-3..=2)).clamp(-bound - 1, bound);
                            (alpha, (alpha + rng.gen_range(1..=3)).min(bound + 1))
                        };
                        let value = worker.node(depth, alpha, beta, 0, false);
                        let what = format!(
                            "{} tt {use_tt} depth {depth} window ({alpha}, {beta}) at {}",
                            algorithm.name(),
                            pos.sfen()
                        );
                        assert!(value.abs() <= bound, "{what}");
                        if value <= alpha {
                            assert!(exact <= value, "{what}: {value} not above {exact}");
                        } else if value >= beta {
                            assert!(exact >= value, "{what}: {value} not below {exact}");
                        } else {
                            assert_eq!(value, exact, "{what}");
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn pruning_never_visits_more_nodes() {
    let positions = random_positions(2, 25);
    for depth in 1..=4 {
        let mut totals = [0u64; 3];
        for pos in &positions {
            for (total, algorithm) in totals.iter_mut().zip(ALL) {
                *total += run_fixed_depth(pos, depth, algorithm, &config(1)).nodes;
            }
        }
        let [expectimax, star1, star2] = totals;
        assert!(star1 <= expectimax, "depth {depth}: {totals:?}");
        assert!(star2 <= star1, "depth {depth}: {totals:?}");
        if depth >= 2 {
            assert!(star1 < expectimax, "depth {depth}: Star1 pruned nothing");
        }
    }
}

#[test]
fn prefers_a_double_win_to_a_single_one() {
    // A 2 lands the token on 7 home exactly (2 points); the one on 8 overshoots (1).
    for tokens in [[9, 9, 8, 7], [9, 7, 9, 8]] {
        let pos = Race::new([tokens, [0, 0, 1, 2]], Seat::FIRST, Some(2));
        let exact = tokens.iter().position(|&p| p == 7).unwrap() as u8;
        for depth in 1..=3 {
            for algorithm in ALL {
                let run = run_fixed_depth(&pos, depth, algorithm, &config(1));
                assert_eq!(run.best, Some(RaceMove(exact)), "{}", algorithm.name());
                assert_eq!(run.value, 2000);
            }
        }
    }
}

#[test]
fn the_table_changes_no_value() {
    for pos in random_positions(3, 20) {
        for algorithm in ALL {
            let mut values = Vec::new();
            for enabled in [true, false] {
                let mut searcher = <Expectimax<_> as Searcher<Race>>::new(&config(1));
                searcher.set_algorithm(algorithm);
                searcher.set_tt_enabled(enabled);
                let result = searcher.search(
                    &pos,
                    &Limits::depth(3),
                    &SearchControl::new(false),
                    &mut |_| {},
                );
                values.push(points(result.score));
            }
            assert_eq!(
                values[0],
                values[1],
                "{} at {}",
                algorithm.name(),
                pos.sfen()
            );
        }
    }
}

#[test]
fn two_threads_find_the_same_value() {
    for pos in random_positions(4, 12) {
        for algorithm in [ChanceAlgorithm::Star1, ChanceAlgorithm::Star2] {
            let one = run_fixed_depth(&pos, 3, algorithm, &config(1));
            let two = run_fixed_depth(&pos, 3, algorithm, &config(2));
            assert_eq!(
                one.value,
                two.value,
                "{} at {}",
                algorithm.name(),
                pos.sfen()
            );
            let best = two.best.expect("a move");
            assert_eq!(naive_after(&mut pos.clone(), best, 3), one.value);
        }
    }
}

#[test]
fn multipv_lines_are_the_best_moves_with_exact_values() {
    let lines = 3;
    for pos in random_positions(5, 15) {
        let mut values: Vec<Value> = legal_moves(&pos)
            .into_iter()
            .map(|mv| naive_after(&mut pos.clone(), mv, 2))
            .collect();
        values.sort_unstable_by(|a, b| b.cmp(a));
        values.truncate(lines);
        let mut searcher = <Expectimax<_> as Searcher<Race>>::new(&SearchConfig {
            multipv: lines,
            ..config(1)
        });
        let mut reported = Vec::new();
        searcher.search(
            &pos,
            &Limits::depth(2),
            &SearchControl::new(false),
            &mut |info| {
                if info.depth == 2 {
                    let mv = info.pv[0];
                    assert_eq!(naive_after(&mut pos.clone(), mv, 2), points(info.score));
                    reported.push(points(info.score));
                }
            },
        );
        assert_eq!(reported, values, "at {}", pos.sfen());
    }
}

/// The root moves a search to `depth` ends with, with the full search's answer.
fn searched_root(pos: &Race, depth: u32) -> (Vec<RaceMove>, SearchResult<RaceMove>) {
    let mut searcher = <Expectimax<_> as Searcher<Race>>::new(&config(1));
    let result = searcher.search(
        pos,
        &Limits::depth(depth),
        &SearchControl::new(false),
        &mut |_| {},
    );
    (
        result.root_moves.iter().map(|&(mv, _)| mv).collect(),
        result,
    )
}

/// The filter chain: depth 3 searches the best moves of depth 2 within its
/// margin, depth 4 at most two of those, never cutting the best of depth 3;
/// each answers the best of the moves it searched.
#[test]
fn the_filter_chain_keeps_the_best_moves_of_the_depth_before() {
    let params = ExpectiParams::default();
    let value = |pos: &Race, mv, depth| naive_after(&mut pos.clone(), mv, depth);
    let best = |pos: &Race, moves: &[RaceMove], depth| {
        moves.iter().map(|&mv| value(pos, mv, depth)).max().unwrap()
    };
    let mut narrowed = 0;
    for pos in random_positions(11, 60) {
        let (listed, _) = searched_root(&pos, 2);
        let (at3, result3) = searched_root(&pos, 3);
        let (at4, result4) = searched_root(&pos, 4);
        let (candidates, margin) = params.narrowing(3).unwrap();
        assert!(at3.len() <= candidates && at3.iter().all(|mv| listed.contains(mv)));
        let best2 = best(&pos, &listed, 2);
        let lowest_kept = at3.iter().map(|&mv| value(&pos, mv, 2)).min().unwrap();
        assert!(lowest_kept >= best2 - margin, "{}", pos.sfen());
        for mv in listed.iter().filter(|mv| !at3.contains(mv)) {
            // Cut by the margin, or by the count below every move kept.
            let v = value(&pos, *mv, 2);
            assert!(v < best2 - margin || (at3.len() == candidates && v <= lowest_kept));
        }
        let (candidates, _) = params.narrowing(4).unwrap();
        assert!(at4.len() <= candidates && at4.iter().all(|mv| at3.contains(mv)));
        assert_eq!(best(&pos, &at4, 3), best(&pos, &at3, 3), "{}", pos.sfen());
        assert_eq!(points(result3.score), best(&pos, &at3, 3));
        assert_eq!(points(result4.score), best(&pos, &at4, 4));
        narrowed += (at4.len() < listed.len()) as usize;
    }
    assert!(narrowed > 0);
}

/// A search cut short inside an iteration answers with what it settled
/// there, reported at that depth: the first move's exact value, or a move
/// proven better.
#[test]
fn an_interrupted_iteration_reports_the_line_it_settled() {
    let mut settled = 0;
    for pos in random_positions(12, 20) {
        for nodes in [40, 150, 600, 2500] {
            let mut searcher = <Expectimax<_> as Searcher<Race>>::new(&config(1));
            let mut reports = Vec::new();
            let result = searcher.search(
                &pos,
                &Limits::nodes(nodes),
                &SearchControl::new(false),
                &mut |info| reports.push(info.clone()),
            );
            let last = reports.last().expect("a line");
            if last.depth > result.depth {
                settled += 1;
                assert_eq!(last.depth, result.depth + 1);
                assert_eq!(Some(last.pv[0]), result.best);
                assert_eq!(result.score, last.score);
                let exact = naive_after(&mut pos.clone(), last.pv[0], last.depth);
                assert_eq!(points(last.score), exact, "{}", pos.sfen());
            }
        }
    }
    assert!(settled > 0);
}

#[test]
fn keeps_the_driver_contract() {
    let rolled = |roll| {
        let mut pos = Race::start(&NoHouseRules);
        pos.apply_chance(roll);
        pos
    };
    let seen = contract::check::<Race, Expectimax<_>>(&contract::Case {
        config: config(1),
        long: rolled(2),
        solved: rolled(3),
        // The dice are due: no move to search.
        no_move: Race::start(&NoHouseRules),
        depth: 3,
        every_thread_counts: true,
    });
    for info in &seen.reports {
        assert!(matches!(info.score, Score::Points(_)));
        assert_eq!(info.scores, None);
    }
}

#[test]
fn a_root_waiting_for_the_dice_has_no_move() {
    let pos = Race::start(&NoHouseRules);
    let mut searcher = <Expectimax<_> as Searcher<Race>>::new(&config(1));
    let result = searcher.search(
        &pos,
        &Limits::depth(2),
        &SearchControl::new(false),
        &mut |_| {},
    );
    assert_eq!(result.best, None);
    assert_eq!(result.score, Score::Points(pos.evaluate(&())));
}

#[test]
fn algorithms_are_chosen_by_name() {
    assert_eq!(ALGORITHMS[0], ChanceAlgorithm::default().name());
    for &name in ALGORITHMS {
        let algorithm = ChanceAlgorithm::from_name(name).expect("a listed name");
        assert_eq!(algorithm.name(), name);
        let mut searcher = <Expectimax<_> as Searcher<Race>>::new(&SearchConfig::default());
        <Expectimax<_> as Searcher<Race>>::configure(
            &mut searcher,
            &SearchConfig {
                algorithm: name,
                ..SearchConfig::default()
            },
        );
        assert_eq!(searcher.algorithm(), algorithm);
    }
    assert_eq!(ChanceAlgorithm::from_name(""), Some(ChanceAlgorithm::Star2));
    assert_eq!(ChanceAlgorithm::from_name("minimax"), None);
}

/// Node counts per algorithm and depth on the toy race (run with `--ignored
/// --nocapture` to see them).
#[test]
#[ignore]
fn node_counts_by_depth() {
    let positions = random_positions(2, 200);
    for depth in 1..=5 {
        let mut totals = [0u64; 3];
        for pos in &positions {
            for (total, algorithm) in totals.iter_mut().zip(ALL) {
                *total += run_fixed_depth(pos, depth, algorithm, &config(1)).nodes;
            }
        }
        eprintln!(
            "depth {depth}: expectimax {} star1 {} star2 {}",
            totals[0], totals[1], totals[2]
        );
        assert!(totals[2] <= totals[1] && totals[1] <= totals[0]);
    }
}

// ---------------------------------------------------------------------------
// Ban-Sugoroku's per-position value bounds.
// ---------------------------------------------------------------------------

mod sugoroku_bounds {
    use super::*;
    use crate::sugoroku::{Closeout, Finish, Sugoroku, SugorokuRules};

    const START: &str = "2w/0/0/0/0/5b/0/3b/0/0/0/5w/5b/0/0/0/3w/0/5w/0/0/0/0/2b 0/0 0/0 b - 1";
    /// The sides have passed each other: b on its points 7–10, w on b's 15–18.
    const RACE: &str = "0/0/0/0/0/0/4b/4b/4b/3b/0/0/0/0/3w/4w/4w/4w/0/0/0/0/0/0 0/0 0/0 b 52 1";

    fn rule_sets() -> [SugorokuRules; 4] {
        [
            SugorokuRules::default(),
            SugorokuRules {
                closeout: Closeout::Instant,
                ..Default::default()
            },
            SugorokuRules {
                closeout: Closeout::Off,
                ..Default::default()
            },
            SugorokuRules {
                finish: Finish::BearOff,
                ..Default::default()
            },
        ]
    }

    /// Every value the search can meet in `count` random games from `sfen`: the
    /// bounds of each position contain those of every later one (they only
    /// narrow), its evaluation and, at the end, the result.
    fn check_playouts(sfen: &str, rules: &SugorokuRules, count: usize, seed: u64) {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut moves = MoveList::new();
        for _ in 0..count {
            let mut pos = Sugoroku::from_sfen(sfen, rules).expect("valid");
            let mut widest = pos.value_bounds();
            for _ in 0..2000 {
                let (low, high) = pos.value_bounds();
                assert!(widest.0 <= low && high <= widest.1, "{}", pos.sfen());
                widest = (low, high);
                if let Some(outcome) = pos.decided() {
                    let value = outcome.value_for(pos.side_to_move()) * 1000;
                    assert!(low <= value && value <= high, "{}", pos.sfen());
                    break;
                }
                let value = pos.evaluate(&Default::default());
                assert!(low <= value && value <= high, "{}: {value}", pos.sfen());
                if pos.at_chance() {
                    let outcomes = pos.chance_outcomes();
                    pos.apply_chance(outcomes[rng.gen_range(0..outcomes.len())].0);
                } else {
                    pos.generate_moves(&mut moves);
                    pos.make(moves[rng.gen_range(0..moves.len())]);
                }
            }
        }
    }

    #[test]
    fn bounds_hold_along_random_games() {
        for rules in rule_sets() {
            check_playouts(START, &rules, 40, 1);
            check_playouts(RACE, &rules, 20, 2);
        }
    }

    #[test]
    fn bounds_are_one_point_unless_a_double_win_can_still_come() {
        let rules = rule_sets();
        let start = |r| Sugoroku::from_sfen(START, r).expect("valid");
        assert_eq!(start(&rules[0]).value_bounds(), (-3000, 3000));
        for r in &rules[1..] {
            assert_eq!(start(r).value_bounds(), (-1000, 1000), "{r:?}");
        }
        for r in &rules {
            let race = Sugoroku::from_sfen(RACE, r).expect("valid");
            assert_eq!(race.value_bounds(), (-1000, 1000), "{r:?}");
        }
    }

    #[test]
    fn star_values_are_exact_with_the_bounds() {
        let instant = rule_sets()[1];
        let contact = START.replace(" - 1", " 52 1");
        for (sfen, rules) in [(RACE, SugorokuRules::default()), (&contact[..], instant)] {
            let pos = Sugoroku::from_sfen(sfen, &rules).expect("valid");
            for depth in 1..=2 {
                let exact = run_fixed_depth(&pos, depth, ChanceAlgorithm::Expectimax, &config(1));
                for algorithm in [ChanceAlgorithm::Star1, ChanceAlgorithm::Star2] {
                    let run = run_fixed_depth(&pos, depth, algorithm, &config(1));
                    assert_eq!(run.value, exact.value, "{algorithm:?} depth {depth} {sfen}");
                    assert!(
                        run.nodes <= exact.nodes,
                        "{algorithm:?} depth {depth} {sfen}"
                    );
                }
            }
        }
    }
}
