//! Exact races: the one-sided play generator against the engine's, the
//! tables against hand-worked races and a brute-force expectimax over the
//! real game, and the evaluation using them in races only.

use crate::core::Notation;
use crate::session::Playable;

use super::net::{self, contact};
use super::race::{self, plays, state, Side, STATES};
use super::*;
use crate::core::{Game, MoveList, Seat};
use crate::search::ChanceGame;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::collections::HashMap;

fn rules(finish: Finish) -> SugorokuRules {
    SugorokuRules {
        finish,
        ..SugorokuRules::default()
    }
}

/// A board from (point, stones) lists, each side in its own numbering; the
/// stones not listed are borne off (`bearoff`) or on point 1 (`allhome`).
fn race(finish: Finish, mover: &[(usize, u8)], other: &[(usize, u8)]) -> Sugoroku {
    let rest = if finish == Finish::BearOff { OFF } else { 1 } as usize;
    let mut board = [[0u8; 26]; 2];
    for (side, stones) in [mover, other].into_iter().enumerate() {
        for &(point, n) in stones {
            board[side][point] += n;
        }
        board[side][rest] += 15 - board[side].iter().sum::<u8>();
    }
    let pos = Sugoroku::from_board(&board, Seat::FIRST, &rules(finish)).expect("a valid race");
    assert!(!contact(&pos) && pos.outcome().is_none());
    pos
}

/// A race at random: the mover's stones on points up to some reach, the
/// other side's where they cannot meet them (some borne off under `bearoff`
/// when all are home); the side to roll at random.
fn random_race(rng: &mut Xoshiro256PlusPlus, finish: Finish) -> Sugoroku {
    loop {
        let reach = rng.gen_range(1..=17);
        let mut board = [[0u8; 26]; 2];
        for (side, limit) in [(0, reach), (1, 24 - reach)] {
            for _ in 0..15 {
                board[side][rng.gen_range(1..=limit)] += 1;
            }
            if finish == Finish::BearOff && limit <= 6 {
                for _ in 0..rng.gen_range(0..15) {
                    let point = rng.gen_range(1..=limit);
                    if board[side][point] > 0 {
                        board[side][point] -= 1;
                        board[side][OFF as usize] += 1;
                    }
                }
            }
        }
        let to_move = Seat::new(rng.gen_range(0..2u8) as usize);
        if to_move == Seat::SECOND {
            board.swap(0, 1);
        }
        let Ok(pos) = Sugoroku::from_board(&board, to_move, &rules(finish)) else {
            continue;
        };
        if pos.outcome().is_none() {
            assert!(!contact(&pos));
            return pos;
        }
    }
}

fn sorted(mut boards: Vec<Side>) -> Vec<Side> {
    boards.sort_unstable();
    boards.dedup();
    boards
}

/// The one-sided generator leaves the same boards as the engine's turns, for
/// every roll of many random races under both finish rules.
#[test]
fn one_sided_plays_are_the_engines_turns() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
    let mut results = Vec::new();
    let mut singles = 0;
    for finish in [Finish::AllHome, Finish::BearOff] {
        for _ in 0..400 {
            let pos = random_race(&mut rng, finish);
            let mover = pos.side_to_move().index();
            for &(roll, _) in ROLLS.iter() {
                let mut rolled = pos;
                rolled.apply_chance(roll);
                let mut moves = MoveList::new();
                rolled.generate_moves(&mut moves);
                singles += moves.iter().filter(|mv| mv.steps().len() == 1).count();
                let engine = moves.iter().map(|&mv| {
                    let mut after = rolled;
                    after.make(mv);
                    after.board()[mover]
                });
                plays(&pos.board()[mover], roll.hi, roll.lo, finish, &mut results);
                assert_eq!(
                    sorted(results.clone()),
                    sorted(engine.collect()),
                    "{} roll {roll}",
                    pos.sfen()
                );
            }
        }
    }
    assert!(singles > 0, "the sample has turns of one step");
}

/// Every way to lay `left` more stones on points `point..=last` of `board`.
fn every_layout(board: &mut Side, point: usize, last: usize, left: u8, out: &mut Vec<Side>) {
    if point > last {
        out.push(*board);
        return;
    }
    for n in 0..=left {
        board[point] = n;
        every_layout(board, point + 1, last, left - n, out);
    }
    board[point] = 0;
}

/// A state number for every layout of up to fifteen stones on the table's six
/// points, each number once; none for a stone beyond them.
#[test]
fn a_table_numbers_every_way_to_lay_fifteen_stones_on_six_points() {
    assert_eq!(STATES, 54_264);
    for (finish, first, rest) in [(Finish::BearOff, 1, OFF as usize), (Finish::AllHome, 7, 1)] {
        let mut layouts = Vec::new();
        every_layout(&mut [0; 26], first, first + 5, 15, &mut layouts);
        let mut numbers: Vec<usize> = layouts
            .iter_mut()
            .map(|board| {
                board[rest] = 15 - board.iter().sum::<u8>();
                state(board, finish).expect("in the table")
            })
            .collect();
        numbers.sort_unstable();
        assert!(numbers.iter().copied().eq(0..STATES), "{finish:?}");
        let mut beyond = [0u8; 26];
        beyond[rest] = 14;
        beyond[first + 6] = 1;
        assert_eq!(state(&beyond, finish), None);
    }
}

fn exact_win(pos: &Sugoroku) -> f32 {
    race::exact(pos, RaceTables::Wait)
        .expect("a race in the table")
        .win
}

#[test]
fn hand_worked_races() {
    let bearoff = Finish::BearOff;
    // One stone each on point 1: the side to roll bears off first.
    assert_eq!(exact_win(&race(bearoff, &[(1, 1)], &[(1, 1)])), 1.0);
    // Three stones take two turns (at most two dice a turn); one takes one.
    assert_eq!(exact_win(&race(bearoff, &[(1, 3)], &[(1, 1)])), 0.0);
    // Two stones on 1 go in one turn; the other side then has no turn.
    assert_eq!(exact_win(&race(bearoff, &[(1, 2)], &[(6, 15)])), 1.0);
    // allhome: a stone on 12 needs six pips in one turn (a 6; two dice
    // summing 6 or more; 33, 44, 55, 66): 26 rolls of 36. The other stone,
    // on 7, gets home on any roll.
    let allhome = Finish::AllHome;
    let p = exact_win(&race(allhome, &[(12, 1)], &[(7, 1)]));
    assert!((p - 26.0 / 36.0).abs() < 1e-6, "{p}");
    // Two stones on 7 take one roll; so does the other side's.
    assert_eq!(exact_win(&race(allhome, &[(7, 2)], &[(7, 2)])), 1.0);
    let table = race::table(allhome);
    let mut one = [0u8; 26];
    one[1] = 14;
    one[12] = 1;
    let e = table.expected_turns(state(&one, allhome).unwrap());
    // 26/36 in one turn; otherwise ≥ 2 moved (22, 11, 21...), then ≤ 4 to go.
    assert!(e > 1.0 + 10.0 / 36.0 - 1e-6 && e < 1.5, "{e}");
}

/// The chance that the side to roll wins, by expectimax over every turn of
/// the real game, each side playing for the win.
fn brute_force_win(pos: &Sugoroku, memo: &mut HashMap<u64, f64>) -> f64 {
    if let Some(&p) = memo.get(&pos.key()) {
        return p;
    }
    let mut total = 0.0;
    let mut moves = MoveList::new();
    for &(roll, weight) in ROLLS.iter() {
        let mut rolled = *pos;
        rolled.apply_chance(roll);
        rolled.generate_moves(&mut moves);
        let best = moves
            .iter()
            .map(|&mv| {
                let mut after = rolled;
                after.make(mv);
                match after.outcome() {
                    Some(_) => 1.0,
                    None => 1.0 - brute_force_win(&after, memo),
                }
            })
            .fold(0.0, f64::max);
        total += weight as f64 / 36.0 * best;
    }
    memo.insert(pos.key(), total);
    total
}

/// Small races, both finish rules: the tables' winning chance is the
/// brute-force one (under `allhome` with stones in the home that may move
/// instead of the ones outside).
#[test]
fn tables_agree_with_brute_force() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
    let mut compared = 0;
    while compared < 24 {
        let finish = [Finish::BearOff, Finish::AllHome][compared % 2];
        let (low, high, count) = match finish {
            Finish::BearOff => (1, 6, 4),
            Finish::AllHome => (7, 11, 2),
        };
        let mut sides = [vec![], vec![]];
        for side in &mut sides {
            for _ in 0..rng.gen_range(1..=count) {
                side.push((rng.gen_range(low..=high), 1));
            }
            if finish == Finish::AllHome {
                side.push((2, rng.gen_range(1..=2)));
            }
        }
        let pos = race(finish, &sides[0], &sides[1]);
        let table = exact_win(&pos) as f64;
        let brute = brute_force_win(&pos, &mut HashMap::new());
        assert!(
            (table - brute).abs() < 1e-5,
            "{}: table {table}, brute force {brute}",
            pos.sfen()
        );
        compared += 1;
    }
}

/// The evaluation is the table's in a race it holds and the network's
/// elsewhere: with contact, or with a stone beyond point 12 under `allhome`.
#[test]
fn the_evaluation_is_exact_in_races_the_tables_hold() {
    let pos = race(Finish::BearOff, &[(1, 3)], &[(1, 1)]);
    assert_eq!(pos.evaluate(&Default::default()), -1000);
    let pos = race(Finish::AllHome, &[(12, 1)], &[(7, 1)]);
    let equity = 2.0 * 26.0 / 36.0 - 1.0;
    assert_eq!(
        pos.evaluate(&Default::default()),
        (equity * 1000.0f32).round() as i32
    );
    let network = |pos: &Sugoroku| net::embedded().outcomes(pos);
    for pos in [
        race(Finish::AllHome, &[(13, 1)], &[(7, 1)]),
        Sugoroku::start(&SugorokuRules::default()),
    ] {
        assert!(race::exact(&pos, RaceTables::Wait).is_none());
        assert_eq!(
            race::outcomes(net::embedded(), &pos, RaceTables::Wait),
            network(&pos)
        );
    }
    // With dice to play the network answers (the table values a side to roll).
    let mut rolled = race(Finish::AllHome, &[(12, 1)], &[(7, 1)]);
    rolled.apply_chance(ROLLS[0].0);
    assert!(race::exact(&rolled, RaceTables::Wait).is_none());
}

/// Build time and size of the tables: `cargo test -p yomi-engine --release
/// race_table_figures -- --ignored --nocapture`.
#[test]
#[ignore]
fn race_table_figures() {
    for finish in [Finish::BearOff, Finish::AllHome] {
        let clock = std::time::Instant::now();
        let table = race::RaceTable::build(finish);
        let seconds = clock.elapsed().as_secs_f64();
        let longest = (0..STATES).map(|s| table.turns(s).1.len()).max().unwrap();
        let slowest = (0..STATES)
            .map(|s| table.expected_turns(s))
            .fold(0.0, f32::max);
        println!(
            "{finish:?}: {STATES} states built in {seconds:.3} s, {} KB; \
             longest distribution {longest} turn counts; most expected turns {slowest:.2}",
            table.bytes() / 1024
        );
    }
}

/// What the tables gain, under each finish rule (default closeout): the
/// network's error on races sampled from its own games, and duplicate-dice
/// duels from them and from the start, the network at 0 ply with exact races
/// against the network alone:
/// `cargo test -p yomi-engine --release race_table_gain -- --ignored --nocapture`.
#[test]
#[ignore]
fn race_table_gain() {
    use super::duel::{duel, duel_from, race_starts, Player};
    let network = net::embedded();
    for finish in [Finish::AllHome, Finish::BearOff] {
        let starts = race_starts(2000, 17, &rules(finish));
        let errors: Vec<f32> = starts
            .iter()
            .map(|pos| (network.outcomes(pos).win - exact_win(pos)).abs())
            .collect();
        let mean = errors.iter().sum::<f32>() / errors.len() as f32;
        let worst = errors.iter().copied().fold(0.0, f32::max);
        println!(
            "{finish:?}: {} races; the network's winning chance off by {mean:.4} on average, {worst:.3} at worst",
            starts.len()
        );
        let r = duel_from(
            Player::NetworkWithExactRaces(network),
            Player::Network(network),
            &starts,
            23,
        );
        println!(
            "{finish:?}, from races: exact races vs the network alone, 0 ply: {} games, {:+.4} ± {:.4} points/game",
            r.games, r.points, r.error95
        );
        let r = duel(
            Player::NetworkWithExactRaces(network),
            Player::Network(network),
            1000,
            29,
            &rules(finish),
        );
        println!(
            "{finish:?}, from the start: exact races vs the network alone, 0 ply: {} games, {:+.4} ± {:.4} points/game",
            r.games, r.points, r.error95
        );
    }
}
