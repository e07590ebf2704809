//! The multi-player searchers against naive second implementations on a toy game.
//!
//! The toy game, *Raid*: four seats with points. A move either gathers points or
//! raids a live opponent for 1–3 points; a raid of 2 or more is a "check": the
//! victim moves next, out of order. A seat below 0 points is out (eliminated) and
//! never moves again. The game ends at the second elimination or at a fixed ply,
//! in places: survivors by points (ties share), then the eliminated, the later
//! one higher. Which moves exist depends on a hash of the position, so the trees
//! are irregular.

use super::*;
use crate::core::options::NoHouseRules;
use crate::core::Notation;
use crate::core::{MoveError, Outcome, ParseError};
use crate::search::contract;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// The default clamp of static values into shares.
const CLAMP: Value = 3_000;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
struct RaidMove {
    target: Seat,
    damage: u8,
    gather: u8,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Core {
    points: PerSeat<i32>,
    /// 0 while playing, else the order of elimination (1, 2).
    out: PerSeat<u8>,
    out_count: u8,
    to_move: Seat,
    /// The seat to move was raided into moving (no pass allowed to others).
    forced: bool,
    ply: u32,
}

#[derive(Clone, Debug)]
struct Raid {
    core: Core,
    end_ply: u32,
    undo: Vec<Core>,
}

impl Raid {
    fn new(points: [i32; 4], to_move: Seat, plies_left: u32) -> Self {
        Raid {
            core: Core {
                points: points.into(),
                out: PerSeat::splat(0),
                out_count: 0,
                to_move,
                forced: false,
                ply: 0,
            },
            end_ply: plies_left,
            undo: Vec::new(),
        }
    }

    fn alive(&self, seat: Seat) -> bool {
        self.core.out[seat] == 0
    }

    fn over(&self) -> bool {
        self.core.out_count >= 2 || self.core.ply >= self.end_ply
    }

    fn places(&self) -> PerSeat<u8> {
        let c = &self.core;
        let better = |a: Seat, b: Seat| match (c.out[a], c.out[b]) {
            (0, 0) => c.points[a] > c.points[b],
            (0, _) => true,
            (_, 0) => false,
            (x, y) => x > y,
        };
        PerSeat::from_fn(|a| 1 + Seat::all(4).filter(|&b| better(b, a)).count() as u8)
    }

    fn next_alive_after(&self, seat: Seat) -> Seat {
        (1..=4)
            .map(|k| seat.after(k, 4))
            .find(|&s| self.alive(s))
            .unwrap_or(seat)
    }
}

impl Game for Raid {
    type Move = RaidMove;
    type Rules = NoHouseRules;
    const SEATS: usize = 4;

    fn side_to_move(&self) -> Seat {
        self.core.to_move
    }
    fn ply(&self) -> u32 {
        self.core.ply
    }

    fn generate_moves(&self, moves: &mut MoveList<RaidMove>) {
        moves.clear();
        if self.over() {
            return;
        }
        let me = self.core.to_move;
        let bits = fxhash::hash64(&self.core);
        moves.push(RaidMove {
            target: me,
            damage: 0,
            gather: 1,
        });
        if bits & 1 != 0 {
            moves.push(RaidMove {
                target: me,
                damage: 0,
                gather: 2,
            });
        }
        for target in Seat::all(4) {
            if target == me || !self.alive(target) {
                continue;
            }
            for damage in 1..=3u8 {
                // Raids of 1 always exist; stronger ones depend on the position.
                if damage == 1 || (bits >> (1 + 3 * target.index() as u32 + damage as u32)) & 1 != 0
                {
                    moves.push(RaidMove {
                        target,
                        damage,
                        gather: 0,
                    });
                }
            }
        }
    }

    fn make(&mut self, mv: RaidMove) {
        self.undo.push(self.core);
        let c = &mut self.core;
        let (me, target) = (c.to_move, mv.target);
        c.points[me] += mv.gather as i32;
        c.points[target] -= mv.damage as i32;
        c.ply += 1;
        if mv.damage > 0 && c.points[target] < 0 {
            c.out_count += 1;
            c.out[target] = c.out_count;
        }
        if mv.damage >= 2 && self.alive(target) {
            self.core.to_move = mv.target;
            self.core.forced = true;
        } else {
            self.core.to_move = self.next_alive_after(me);
            self.core.forced = false;
        }
    }

    fn unmake(&mut self, _: RaidMove) {
        self.core = self.undo.pop().expect("a move to take back");
    }

    fn key(&self) -> u64 {
        fxhash::hash64(&self.core) ^ self.end_ply as u64
    }

    fn outcome(&self) -> Option<Outcome> {
        self.decided()
    }
    fn decided(&self) -> Option<Outcome> {
        self.over().then(|| Outcome {
            result: GameResult::Places(self.places()),
            reason: "raid-over",
        })
    }
    fn repeats_since(&self, _: u32) -> bool {
        false // points and ply only grow or change with the ply: no repetition
    }
}

impl Notation for Raid {
    fn format_move(&self, mv: RaidMove) -> String {
        format!("{}-{}+{}", mv.target, mv.damage, mv.gather)
    }
    fn parse_move(&self, text: &str) -> Result<RaidMove, MoveError> {
        Err(MoveError::new(text, "no notation"))
    }
    fn from_sfen(sfen: &str, _: &NoHouseRules) -> Result<Self, ParseError> {
        Err(ParseError::new(sfen, "no notation"))
    }
    fn sfen(&self) -> String {
        format!("{:?} end {}", self.core, self.end_ply)
    }
    fn diagram(&self) -> String {
        self.sfen()
    }
    fn status_details(&self) -> String {
        String::new()
    }
}

impl Raid {
    fn head_len(&self, moves: &[RaidMove]) -> usize {
        moves
            .iter()
            .rposition(|&mv| self.is_tactical(mv))
            .map_or(0, |i| i + 1)
    }
}

impl MultiPlayerGame for Raid {
    type Eval = ();
    fn evaluate_all(&self, _: &()) -> PerSeat<Value> {
        let c = &self.core;
        PerSeat::from_fn(|seat| {
            let others: i32 = Seat::all(4)
                .filter(|&o| o != seat)
                .map(|o| c.points[o])
                .sum();
            // A little position-dependent spice so that ties are rare.
            let spice = ((c.ply as usize + 3 * seat.index()) % 5) as i32 * 7;
            100 * (3 * c.points[seat] - others) / 3 + spice - if self.alive(seat) { 0 } else { 400 }
        })
    }
    fn is_alive(&self, seat: Seat) -> bool {
        self.alive(seat)
    }
    /// Big raids only (the small ones are the toy's quiet moves).
    fn is_tactical(&self, mv: RaidMove) -> bool {
        mv.damage >= 2
    }
    fn gain(&self, mv: RaidMove, _: &()) -> Value {
        100 * mv.damage as Value
    }
    /// The moves up to the last tactical one: the searchers' staged
    /// generation runs on the toy too (a tail, or only a tail, or none).
    fn generate_head(&self, moves: &mut MoveList<RaidMove>) {
        self.generate_moves(moves);
        let head = self.head_len(moves);
        let mut kept = 0;
        moves.retain(|_| {
            kept += 1;
            kept <= head
        });
    }
    fn append_quiet_tail(&self, moves: &mut MoveList<RaidMove>) {
        let mut all = MoveList::new();
        self.generate_moves(&mut all);
        for &mv in &all[self.head_len(&all)..] {
            moves.push(mv);
        }
    }
    fn make_pass(&mut self, seat: Seat) -> bool {
        if self.over() || !self.alive(seat) || (self.core.forced && seat != self.core.to_move) {
            return false;
        }
        self.undo.push(self.core);
        self.core.to_move = seat;
        self.core.forced = false;
        true
    }
    fn unmake_pass(&mut self) {
        self.core = self.undo.pop().expect("a pass to take back");
    }
}

// ---- naive second implementations ---------------------------------------------

fn moves_of(pos: &Raid) -> Vec<RaidMove> {
    let mut moves = MoveList::new();
    pos.generate_moves(&mut moves);
    moves.to_vec()
}

fn terminal(pos: &Raid, root: Seat, ply: usize) -> Option<Value> {
    pos.decided().map(|o| place_value(o.result, root, 4, ply))
}

/// Full-width quiescence: whoever moves may stand pat or take any tactical move.
fn quiescence_ref(pos: &mut Raid, root: Seat, ply: usize, qply: u32) -> Value {
    let stand = pos.evaluate_all(&())[root];
    if qply >= MultiParams::default().qs_max_plies as u32 {
        return stand;
    }
    let maximizing = pos.side_to_move() == root;
    let mut best = stand;
    let tactical: Vec<RaidMove> = moves_of(pos)
        .into_iter()
        .filter(|&mv| pos.is_tactical(mv))
        .collect();
    for mv in tactical {
        pos.make(mv);
        let value = match terminal(pos, root, ply + 1) {
            Some(value) => value,
            None => quiescence_ref(pos, root, ply + 1, qply + 1),
        };
        pos.unmake(mv);
        best = if maximizing {
            best.max(value)
        } else {
            best.min(value)
        };
    }
    best
}

fn paranoid_ref(pos: &mut Raid, root: Seat, depth: u32, ply: usize) -> Value {
    if ply > 0 {
        if let Some(value) = terminal(pos, root, ply) {
            return value;
        }
    }
    if depth == 0 {
        return quiescence_ref(pos, root, ply, 0);
    }
    let maximizing = pos.side_to_move() == root;
    let mut best = if maximizing { -INFINITE } else { INFINITE };
    for mv in moves_of(pos) {
        pos.make(mv);
        let value = paranoid_ref(pos, root, depth - 1, ply + 1);
        pos.unmake(mv);
        best = if maximizing {
            best.max(value)
        } else {
            best.min(value)
        };
    }
    best
}

/// Best-reply search by its definition, no pruning.
fn brs_ref(pos: &mut Raid, root: Seat, depth: u32, ply: usize) -> Value {
    if ply > 0 {
        if let Some(value) = terminal(pos, root, ply) {
            return value;
        }
    }
    if depth == 0 {
        return quiescence_ref(pos, root, ply, 0);
    }
    let due = pos.side_to_move();
    if due == root {
        let mut best = -INFINITE;
        for mv in moves_of(pos) {
            pos.make(mv);
            best = best.max(brs_ref(pos, root, depth - 1, ply + 1));
            pos.unmake(mv);
        }
        return best;
    }
    let mut best = INFINITE;
    for seat in Seat::all(4) {
        if seat == root || !pos.is_alive(seat) {
            continue;
        }
        let passed_in = seat != due;
        if passed_in && !pos.make_pass(seat) {
            continue;
        }
        for mv in moves_of(pos) {
            pos.make(mv);
            let passed_back = pos.side_to_move() != root && pos.make_pass(root);
            best = best.min(brs_ref(pos, root, depth - 1, ply + 1));
            if passed_back {
                pos.unmake_pass();
            }
            pos.unmake(mv);
        }
        if passed_in {
            pos.unmake_pass();
        }
    }
    best
}

/// The first move by static order: the tactical move of largest gain, else the
/// first generated.
fn background(pos: &Raid) -> Option<RaidMove> {
    let moves = moves_of(pos);
    let best_tactical = moves
        .iter()
        .filter(|&&mv| pos.is_tactical(mv))
        .map(|&mv| pos.gain(mv, &()))
        .max();
    match best_tactical {
        Some(gain) => moves
            .into_iter()
            .find(|&mv| pos.is_tactical(mv) && pos.gain(mv, &()) == gain),
        None => moves.first().copied(),
    }
}

/// Plays background moves while `go_on` holds (at most `limit` in all); returns
/// the moves played.
fn play_background(
    pos: &mut Raid,
    line: &mut Vec<RaidMove>,
    limit: usize,
    go_on: impl Fn(&Raid) -> bool,
) {
    while line.len() < limit && pos.decided().is_none() && go_on(pos) {
        let Some(mv) = background(pos) else { break };
        pos.make(mv);
        line.push(mv);
    }
}

fn take_back(pos: &mut Raid, line: &mut Vec<RaidMove>, keep: usize) {
    while line.len() > keep {
        pos.unmake(line.pop().unwrap());
    }
}

/// BRS+ by its definition: one opponent replies with each of its moves, the
/// others play background moves in the rules' order.
fn brs_plus_ref(pos: &mut Raid, root: Seat, depth: u32, ply: usize) -> Value {
    if ply > 0 {
        if let Some(value) = terminal(pos, root, ply) {
            return value;
        }
    }
    if depth == 0 {
        return quiescence_ref(pos, root, ply, 0);
    }
    if pos.side_to_move() == root {
        let mut best = -INFINITE;
        for mv in moves_of(pos) {
            pos.make(mv);
            best = best.max(brs_plus_ref(pos, root, depth - 1, ply + 1));
            pos.unmake(mv);
        }
        return best;
    }
    let mut best = INFINITE;
    for seat in Seat::all(4) {
        if seat == root || !pos.is_alive(seat) {
            continue;
        }
        let mut line = Vec::new();
        play_background(pos, &mut line, MAX_SEQUENCE - 1, |p| {
            p.side_to_move() != seat && p.side_to_move() != root
        });
        if let Some(value) = terminal(pos, root, ply + line.len()) {
            best = best.min(value);
        } else if pos.side_to_move() == seat {
            let pre = line.len();
            for mv in moves_of(pos) {
                pos.make(mv);
                line.push(mv);
                play_background(pos, &mut line, MAX_SEQUENCE, |p| p.side_to_move() != root);
                let passed_back =
                    pos.side_to_move() != root && pos.decided().is_none() && pos.make_pass(root);
                best = best.min(brs_plus_ref(pos, root, depth - 1, ply + line.len()));
                if passed_back {
                    pos.unmake_pass();
                }
                take_back(pos, &mut line, pre);
            }
        }
        take_back(pos, &mut line, 0);
    }
    if best == INFINITE {
        pos.evaluate_all(&())[root]
    } else {
        best
    }
}

/// Plain max-n: every child, the same leaf vectors and tie-break.
fn maxn_ref(pos: &mut Raid, depth: u32, ply: usize) -> PerSeat<Value> {
    if ply > 0 {
        if let Some(o) = pos.decided() {
            return place_shares(o.result, 4, ply);
        }
    }
    if depth == 0 {
        return static_shares(pos.evaluate_all(&()), 4, CLAMP);
    }
    let mover = pos.side_to_move();
    let mut best: Option<PerSeat<Value>> = None;
    for mv in moves_of(pos) {
        pos.make(mv);
        let shares = maxn_ref(pos, depth - 1, ply + 1);
        pos.unmake(mv);
        if best.is_none_or(|b| maxn_prefers(&shares, &b, mover)) {
            best = Some(shares);
        }
    }
    best.expect("a move")
}

// ---- helpers -------------------------------------------------------------------

fn config(algorithm: &'static str, threads: usize) -> SearchConfig {
    SearchConfig {
        threads,
        hash_mb: 2,
        algorithm,
        ..SearchConfig::default()
    }
}

/// The result and the last report of a search.
fn search(
    pos: &Raid,
    limits: &Limits<RaidMove>,
    config: &SearchConfig,
) -> (SearchResult<RaidMove>, Option<SearchInfo<RaidMove>>) {
    let mut searcher = <MultiSearch<_> as Searcher<Raid>>::new(config);
    let mut last = None;
    let result = searcher.search(pos, limits, &SearchControl::new(false), &mut |info| {
        last = Some(info.clone())
    });
    (result, last)
}

/// Positions after random play, with the game still going on.
fn random_positions(seed: u64, count: usize) -> Vec<Raid> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut positions = Vec::new();
    while positions.len() < count {
        let points = std::array::from_fn(|_| rng.gen_range(0..6));
        let mut pos = Raid::new(
            points,
            Seat::new(rng.gen_range(0..4u8) as usize),
            rng.gen_range(4..14),
        );
        for _ in 0..rng.gen_range(0..5) {
            let moves = moves_of(&pos);
            if moves.is_empty() {
                break;
            }
            pos.make(moves[rng.gen_range(0..moves.len())]);
        }
        if !pos.over() {
            pos.undo.clear();
            positions.push(pos);
        }
    }
    positions
}

// ---- tests ---------------------------------------------------------------------

#[test]
fn the_toy_game_is_sound() {
    for pos in random_positions(9, 50) {
        let mut walk = pos.clone();
        for mv in moves_of(&pos) {
            walk.make(mv);
            walk.unmake(mv);
            assert_eq!(walk.core, pos.core);
        }
        let places = walk.places();
        assert!(places.iter().all(|&p| (1..=4).contains(&p)));
        assert!(places.iter().any(|&p| p == 1));
    }
}

#[test]
fn values_of_places_are_ordered_and_bounded() {
    let sole = place_value(GameResult::Places([1, 2, 3, 4].into()), Seat::new(0), 4, 3);
    assert_eq!(sole, MATE - 3);
    assert_eq!(Score::from_value(sole), Score::Mate(3));
    assert_eq!(
        place_value(GameResult::Places([1, 2, 3, 4].into()), Seat::new(3), 4, 3),
        -(MATE - 3)
    );
    let second = place_value(GameResult::Places([1, 2, 3, 4].into()), Seat::new(1), 4, 3);
    let third = place_value(GameResult::Places([1, 2, 3, 4].into()), Seat::new(2), 4, 3);
    let shared_first = place_value(GameResult::Places([1, 1, 3, 4].into()), Seat::new(0), 4, 3);
    assert!(sole > shared_first && shared_first > second && second > third);
    assert!(shared_first < MATE_BOUND && third > -MATE_BOUND);
    // All four share: neutral.
    assert_eq!(
        place_value(GameResult::Places([1; 4].into()), Seat::new(2), 4, 0),
        0
    );

    // Three seats: the middle place is level, the ends are mates.
    assert_eq!(
        place_value(GameResult::Places([2, 1, 3, 0].into()), Seat::new(0), 3, 2),
        0
    );
    assert_eq!(
        place_value(GameResult::Places([2, 1, 3, 0].into()), Seat::new(1), 3, 2),
        MATE - 2
    );
    assert_eq!(
        place_value(GameResult::Places([2, 1, 3, 0].into()), Seat::new(2), 3, 2),
        -(MATE - 2)
    );
    let three = place_shares(GameResult::Places([2, 1, 3, 0].into()), 3, 2).into_array();
    assert_eq!(three.iter().sum::<Value>(), share_total(3));
    assert_eq!(share_to_value(three[1], 3), MATE - 2);
    assert_eq!(share_to_value(three[2], 3), -(MATE - 2));
    let level = static_shares([50, 50, 50, 0].into(), 3, CLAMP).into_array();
    assert!(level[0] == level[1] && level[1] == level[2] && level[3] == 0);
    assert_eq!(share_to_value(level[0], 3), 0);
    assert!(three[1] > static_shares([9_000, -9_000, -9_000, 0].into(), 3, CLAMP)[Seat::FIRST]);

    // Max-n vectors: non-negative, summing to at most S; a win beats and a last
    // place loses to every static vector.
    let total = share_total(4);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
    for _ in 0..1000 {
        let values = PerSeat::from_fn(|_| rng.gen_range(-20_000..20_000));
        let shares = static_shares(values, 4, CLAMP).into_array();
        assert!(shares.iter().all(|&s| s >= 0) && shares.iter().sum::<Value>() <= total);
        let ply = rng.gen_range(0..MAX_PLY);
        for places in [
            [1, 2, 3, 4],
            [2, 1, 4, 3],
            [1, 1, 3, 4],
            [1, 1, 1, 1],
            [3, 1, 1, 4],
        ] {
            let end = place_shares(GameResult::Places(places.into()), 4, ply);
            assert!(end.iter().all(|&s| s >= 0) && end.iter().sum::<Value>() <= total);
        }
        let end = place_shares(GameResult::Places([4, 1, 3, 2].into()), 4, ply).into_array();
        assert!(end[1] > shares.iter().copied().max().unwrap());
        assert!(end[0] < shares.iter().copied().min().unwrap());
        assert_eq!(share_to_value(end[1], 4), MATE - ply as Value);
        assert_eq!(share_to_value(end[0], 4), -(MATE - ply as Value));
        assert!(share_to_value(shares[0], 4).abs() < MATE_BOUND);
    }
}

#[test]
fn paranoid_agrees_with_minimax() {
    for (depth, count) in [(1, 60), (2, 40), (3, 30)] {
        for pos in random_positions(depth as u64, count) {
            let root = pos.side_to_move();
            let expected = paranoid_ref(&mut pos.clone(), root, depth, 0);
            let (result, _) = search(&pos, &Limits::depth(depth), &config("paranoid", 1));
            assert_eq!(result.score, Score::from_value(expected), "{}", pos.sfen());
            // Iterations stop early only at a decided first or last place.
            assert!(result.depth == depth || matches!(result.score, Score::Mate(_)));
            let mut after = pos.clone();
            after.make(result.best.unwrap());
            let value = terminal(&after, root, 1)
                .unwrap_or_else(|| paranoid_ref(&mut after, root, depth - 1, 1));
            assert_eq!(value, expected, "the best move's value, {}", pos.sfen());
        }
    }
}

#[test]
fn deeper_paranoid_with_table_agrees() {
    // Iterative deepening with the table (and its cutoffs) against the full tree.
    for pos in random_positions(44, 6) {
        let root = pos.side_to_move();
        let expected = paranoid_ref(&mut pos.clone(), root, 4, 0);
        let (result, _) = search(&pos, &Limits::depth(4), &config("paranoid", 1));
        assert_eq!(result.score, Score::from_value(expected), "{}", pos.sfen());
    }
}

#[test]
fn brs_agrees_with_its_definition() {
    for (depth, count) in [(1, 40), (2, 30), (3, 25), (4, 4)] {
        for pos in random_positions(100 + depth as u64, count) {
            let root = pos.side_to_move();
            let expected = brs_ref(&mut pos.clone(), root, depth, 0);
            let (result, _) = search(&pos, &Limits::depth(depth), &config("brs", 1));
            assert_eq!(result.score, Score::from_value(expected), "{}", pos.sfen());
            let mut after = pos.clone();
            after.make(result.best.unwrap());
            let value = terminal(&after, root, 1)
                .unwrap_or_else(|| brs_ref(&mut after, root, depth - 1, 1));
            assert_eq!(value, expected, "the best move's value, {}", pos.sfen());
        }
    }
}

#[test]
fn brs_plus_agrees_with_its_definition() {
    for (depth, count) in [(1, 40), (2, 30), (3, 25), (4, 6)] {
        for pos in random_positions(150 + depth as u64, count) {
            let root = pos.side_to_move();
            let expected = brs_plus_ref(&mut pos.clone(), root, depth, 0);
            let (result, _) = search(&pos, &Limits::depth(depth), &config("brsplus", 1));
            assert_eq!(result.score, Score::from_value(expected), "{}", pos.sfen());
            let mut after = pos.clone();
            after.make(result.best.unwrap());
            let value = terminal(&after, root, 1)
                .unwrap_or_else(|| brs_plus_ref(&mut after, root, depth - 1, 1));
            assert_eq!(value, expected, "the best move's value, {}", pos.sfen());
        }
    }
}

#[test]
fn maxn_with_shallow_pruning_agrees_with_plain_maxn() {
    for (depth, count) in [(1, 40), (2, 100), (3, 150), (4, 40)] {
        for pos in random_positions(200 + depth as u64, count) {
            let root = pos.side_to_move();
            let expected = maxn_ref(&mut pos.clone(), depth, 0);
            let (result, info) = search(&pos, &Limits::depth(depth), &config("maxn", 1));
            let reported = info
                .expect("a report")
                .scores
                .expect("max-n reports a vector");
            let expected_values = expected.map(|share| share_to_value(share, 4));
            assert_eq!(reported, expected_values, "{}", pos.sfen());
            assert_eq!(result.score, Score::from_value(expected_values[root]));
            // The move played leads to that vector.
            let mut after = pos.clone();
            after.make(result.best.unwrap());
            let shares = match after.decided() {
                Some(o) => place_shares(o.result, 4, 1),
                None => maxn_ref(&mut after, depth - 1, 1),
            };
            assert_eq!(shares, expected, "{}", pos.sfen());
        }
    }
}

/// Root 0 has 20 points, the others none, and the game ends within 5 plies:
/// four opponent moves can take at most 12 points from it or add 8 to one of
/// them, so every line ends with root 0 sole first.
#[test]
fn a_forced_first_place_is_a_mate() {
    let pos = Raid::new([20, 0, 0, 0], Seat::FIRST, 5);
    for algorithm in ALGORITHMS {
        let (result, info) = search(&pos, &Limits::depth(6), &config(algorithm, 1));
        let expected = paranoid_ref(&mut pos.clone(), Seat::new(0), 6, 0);
        assert!(expected >= MATE_BOUND, "the naive search agrees it is won");
        let Score::Mate(plies) = result.score else {
            panic!("{algorithm}: {:?}", result.score);
        };
        assert!((1..=5).contains(&plies), "{algorithm}: mate in {plies}");
        if *algorithm == "paranoid" {
            assert_eq!(result.score, Score::from_value(expected));
        }
        assert!(!info.unwrap().pv.is_empty());
    }
}

#[test]
fn two_threads_agree_with_one() {
    for pos in random_positions(300, 15) {
        let root = pos.side_to_move();
        let expected = paranoid_ref(&mut pos.clone(), root, 3, 0);
        let (result, _) = search(&pos, &Limits::depth(3), &config("paranoid", 2));
        assert!(moves_of(&pos).contains(&result.best.unwrap()));
        assert_eq!(result.score, Score::from_value(expected), "{}", pos.sfen());
    }
    let pos = Raid::new([3; 4], Seat::FIRST, 12);
    for algorithm in ALGORITHMS {
        let (result, _) = search(&pos, &Limits::depth(4), &config(algorithm, 2));
        assert!(
            moves_of(&pos).contains(&result.best.unwrap()),
            "{algorithm}"
        );
    }
}

#[test]
fn multipv_lines_are_the_best_moves_with_exact_values() {
    for algorithm in ["paranoid", "brs"] {
        for pos in random_positions(500, 12) {
            let root = pos.side_to_move();
            let reference = |after: &mut Raid| match terminal(after, root, 1) {
                Some(value) => value,
                None if algorithm == "brs" => brs_ref(after, root, 2, 1),
                None => paranoid_ref(after, root, 2, 1),
            };
            let mut values: Vec<Value> = moves_of(&pos)
                .into_iter()
                .map(|mv| {
                    let mut after = pos.clone();
                    after.make(mv);
                    reference(&mut after)
                })
                .collect();
            values.sort_unstable_by(|a, b| b.cmp(a));
            let mut searcher = <MultiSearch<_> as Searcher<Raid>>::new(&SearchConfig {
                multipv: 3,
                ..config(algorithm, 1)
            });
            let mut lines = Vec::new();
            searcher.search(
                &pos,
                &Limits::depth(3),
                &SearchControl::new(false),
                &mut |info| {
                    if info.depth == 3 {
                        lines.push(info.clone());
                    }
                },
            );
            let expected = values.len().min(3);
            assert_eq!(lines.len(), expected, "{algorithm} {}", pos.sfen());
            for (k, line) in lines.iter().enumerate() {
                assert_eq!(line.multipv, k + 1);
                assert_eq!(
                    line.score,
                    Score::from_value(values[k]),
                    "{algorithm} line {k}"
                );
                let mut after = pos.clone();
                after.make(line.pv[0]);
                assert_eq!(reference(&mut after), values[k], "{algorithm} line {k}");
            }
            let mut moves: Vec<RaidMove> = lines.iter().map(|l| l.pv[0]).collect();
            moves.sort_by_key(|m| (m.target, m.damage, m.gather));
            moves.dedup();
            assert_eq!(moves.len(), expected);
        }
    }
}

#[test]
fn pv_replays_legally() {
    for algorithm in ALGORITHMS {
        for pos in random_positions(400, 10) {
            let (result, info) = search(&pos, &Limits::depth(4), &config(algorithm, 1));
            let pv = info.unwrap().pv;
            assert_eq!(pv.first().copied(), result.best, "{algorithm}");
            let mut line = pos.clone();
            for mv in pv {
                assert!(moves_of(&line).contains(&mv), "{algorithm}: {}", pos.sfen());
                line.make(mv);
            }
        }
    }
}

fn long_game() -> Raid {
    Raid::new([30; 4], Seat::FIRST, 400)
}

#[test]
fn every_algorithm_keeps_the_driver_contract() {
    for algorithm in ALGORITHMS {
        let seen = contract::check::<Raid, MultiSearch<_>>(&contract::Case {
            config: config(algorithm, 1),
            long: long_game(),
            // A two-ply game is solved at once.
            solved: Raid::new([5, 0, 0, 0], Seat::FIRST, 2),
            no_move: Raid::new([1; 4], Seat::FIRST, 0),
            depth: 4,
            every_thread_counts: false,
        });
        for info in &seen.reports {
            assert_eq!(info.scores.is_some(), *algorithm == "maxn", "{algorithm}");
        }
    }
}

/// Node counts at fixed depth (pruning effectiveness); run with
/// `cargo test -p yomi-engine --release multi::tests::node_counts -- --ignored --nocapture`.
#[test]
#[ignore]
fn node_counts() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(777);
    let positions: Vec<Raid> = (0..20)
        .map(|_| {
            Raid::new(
                std::array::from_fn(|_| rng.gen_range(4..12)),
                Seat::FIRST,
                60,
            )
        })
        .collect();
    for depth in [3, 4, 5, 6] {
        for algorithm in ALGORITHMS {
            let total: u64 = positions
                .iter()
                .map(|pos| {
                    search(pos, &Limits::depth(depth), &config(algorithm, 1))
                        .0
                        .nodes
                })
                .sum();
            println!("depth {depth} {algorithm:9} nodes {total}");
        }
        let paranoid: usize = positions
            .iter()
            .map(|pos| count_tree(&mut pos.clone(), depth))
            .sum();
        println!("depth {depth} full tree (no quiescence) {paranoid}");
    }
}

fn count_tree(pos: &mut Raid, depth: u32) -> usize {
    if depth == 0 || pos.over() {
        return 1;
    }
    1 + moves_of(pos)
        .into_iter()
        .map(|mv| {
            pos.make(mv);
            let n = count_tree(pos, depth - 1);
            pos.unmake(mv);
            n
        })
        .sum::<usize>()
}

#[test]
fn the_default_is_what_an_empty_or_unknown_name_gives() {
    assert_eq!(
        Algorithm::from_name(""),
        Algorithm::from_name(DEFAULT_ALGORITHM)
    );
    assert_eq!(
        Algorithm::from_name("minimax"),
        Algorithm::from_name(DEFAULT_ALGORITHM)
    );
    for (i, name) in ALGORITHMS.iter().enumerate() {
        assert_eq!(Algorithm::from_name(name) as usize, i, "{name}");
    }
}

#[test]
fn frame_picks_in_the_order_of_a_plain_arg_max() {
    // The first of equal scores wins, lists in order: the order a running
    // arg-max over (list, index) gives, which the search's node counts rest on.
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
    for _ in 0..200 {
        let mut frame = Frame::<u16>::new();
        let mut plain = Vec::new();
        for list in 0..4 {
            let len = rng.gen_range(0..40usize);
            for i in 0..len {
                frame.lists[list].push(i as u16);
                // Few distinct scores, so that ties are common.
                plain.push((list, i, rng.gen_range(-3..4) * 1000));
            }
        }
        let set_scores = |frame: &mut Frame<u16>| {
            for list in 0..4 {
                let scores = frame.pickers[list].scores_mut(frame.lists[list].len());
                for (score, m) in scores.iter_mut().zip(plain.iter().filter(|m| m.0 == list)) {
                    *score = m.2;
                }
            }
        };
        let from_one_list = rng.gen_range(0..4usize);
        let mut in_list: Vec<_> = plain
            .iter()
            .filter(|m| m.0 == from_one_list)
            .copied()
            .collect();
        set_scores(&mut frame);
        let mut across = plain.clone();
        loop {
            let expected = arg_max(&mut across);
            assert_eq!(frame.pick(), expected);
            if expected.is_none() {
                break;
            }
        }
        set_scores(&mut frame);
        loop {
            let expected = arg_max(&mut in_list).map(|(_, i)| i);
            assert_eq!(frame.pick_in(from_one_list), expected);
            if expected.is_none() {
                break;
            }
        }
    }
}

/// The untried (list, index) with the highest score, the first of equals;
/// marks it tried.
fn arg_max(moves: &mut [(usize, usize, i32)]) -> Option<(usize, usize)> {
    let mut best: Option<usize> = None;
    for (k, m) in moves.iter().enumerate() {
        if m.2 != TRIED && best.is_none_or(|b| m.2 > moves[b].2) {
            best = Some(k);
        }
    }
    let k = best?;
    moves[k].2 = TRIED;
    Some((moves[k].0, moves[k].1))
}
