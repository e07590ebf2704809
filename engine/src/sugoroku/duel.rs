//! Duplicate-dice duels between Ban-Sugoroku players: how the engine's margin
//! over the baselines (a random player and a greedy one-turn player) is measured.
//!
//! Each pair of games shares one dice stream, seeded from (seed, pair): roll k of
//! either game is draw k of the stream, and the players swap colours between the
//! two games, so each plays the dice the other had. Pairs are the independent
//! units the error bar is computed over.

use super::net::Networks;
use super::{
    Evaluation, RaceTables, Roll, Sugoroku, SugorokuEval, SugorokuMove, SugorokuRules, ROLLS,
};
use crate::core::{Game, GameResult, MoveList, Seat};
use crate::search::expecti::Expectimax;
use crate::search::{ChanceGame, Limits, SearchConfig, SearchControl, Searcher};
use crate::session::Playable;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// A game longer than this many turns is stopped and counted as no points
/// (random players can wander a long time; real games end far sooner).
const MAX_TURNS: u32 = 2_000;
/// Table size for the searching player: small, since duels run many games.
const DUEL_HASH_MB: usize = 16;

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Player<'a> {
    /// A legal turn uniformly at random.
    Random,
    /// The turn with the best pip-count lead right after it (a hit counts as the
    /// pips it costs the opponent); an immediate win first.
    Greedy,
    /// The engine: expectimax to `depth` turns with the evaluator `eval`
    /// (the engine's own filters at the root).
    Search { depth: u32, eval: &'a SugorokuEval },
    /// The turn a network (one being trained, say) values most, at 0 ply.
    Network(&'a Networks),
    /// The same, but valuing races the tables hold exactly ([`super::race`]).
    NetworkWithExactRaces(&'a Networks),
    /// The turn the engine's own static evaluation values most, at 0 ply.
    Static(Evaluation),
}

/// Points per game for the first player, with a 95 % interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DuelResult {
    pub games: u32,
    /// Mean points per game for the first player (−3 … +3).
    pub points: f64,
    /// Half-width of the 95 % interval of `points`, over pairs.
    pub error95: f64,
    pub wins: u32,
    /// The first player's games won by 1, 2 and 3 points, then lost by 1, 2, 3.
    pub results: [u32; 6],
}

struct Contestant<'a> {
    player: Player<'a>,
    searcher: Option<Expectimax<SugorokuEval>>,
}

/// The turn whose result `value` (for the side that moved, in points) rates
/// highest; a decided result counts as its points.
pub fn best_at_zero_ply(
    pos: &Sugoroku,
    moves: &MoveList<SugorokuMove>,
    value: impl Fn(&Sugoroku) -> f32,
) -> SugorokuMove {
    let mut best = (f32::NEG_INFINITY, moves[0]);
    for &mv in moves.iter() {
        let mut after = *pos;
        after.make(mv);
        let rating = match after.outcome() {
            Some(outcome) => -outcome.value_for(after.side_to_move()) as f32,
            None => value(&after),
        };
        if rating > best.0 {
            best = (rating, mv);
        }
    }
    best.1
}

impl<'a> Contestant<'a> {
    fn new(player: Player<'a>) -> Self {
        let searcher = match player {
            Player::Search { eval, .. } => {
                let config = SearchConfig {
                    hash_mb: DUEL_HASH_MB,
                    ..SearchConfig::default()
                };
                let mut searcher = <Expectimax<SugorokuEval> as Searcher<Sugoroku>>::new(&config);
                Searcher::<Sugoroku>::params_mut(&mut searcher).eval = eval.clone();
                Some(searcher)
            }
            _ => None,
        };
        Contestant { player, searcher }
    }

    fn choose(&mut self, pos: &Sugoroku, rng: &mut Xoshiro256PlusPlus) -> SugorokuMove {
        let mut moves = MoveList::new();
        pos.generate_moves(&mut moves);
        match (self.player, &mut self.searcher) {
            (Player::Search { depth, .. }, Some(searcher)) => {
                let control = SearchControl::new(false);
                searcher
                    .search(pos, &Limits::depth(depth), &control, &mut |_| {})
                    .best
                    .unwrap_or(moves[0])
            }
            (Player::Greedy, _) => *moves
                .iter()
                .max_by_key(|&&mv| greedy_score(pos, mv))
                .expect("a position with dice has a move"),
            (Player::Network(network), _) => {
                best_at_zero_ply(pos, &moves, |after| -network.outcomes(after).equity())
            }
            (Player::NetworkWithExactRaces(network), _) => best_at_zero_ply(pos, &moves, |after| {
                -super::race::outcomes(network, after, RaceTables::Wait).equity()
            }),
            (Player::Static(evaluation), _) => {
                let eval = SugorokuEval {
                    evaluation,
                    ..SugorokuEval::default()
                };
                best_at_zero_ply(pos, &moves, |after| {
                    -(after.evaluate(&eval) as f32) / 1000.0
                })
            }
            _ => moves[rng.gen_range(0..moves.len())],
        }
    }
}

/// The greedy player's score of `mv` for the mover: wins first, then the pip lead.
fn greedy_score(pos: &Sugoroku, mv: SugorokuMove) -> i64 {
    let me = pos.side_to_move();
    let mut after = *pos;
    after.make(mv);
    if let Some(outcome) = after.decided() {
        return 1_000_000 * outcome.value_for(me) as i64;
    }
    after.pips(me.other()) as i64 - after.pips(me) as i64
}

/// One roll drawn from a dice stream, as the dice land (either order is one roll).
pub fn roll(rng: &mut Xoshiro256PlusPlus) -> Roll {
    let (a, b) = (rng.gen_range(1..=6u8), rng.gen_range(1..=6u8));
    let (hi, lo) = (a.max(b), a.min(b));
    ROLLS
        .iter()
        .map(|&(roll, _)| roll)
        .find(|roll| (roll.hi, roll.lo) == (hi, lo))
        .expect("every pair of dice is one of the 21 rolls")
}

/// Plays one game from `start`; the points for `seats[0]`'s player (who sits
/// at seat `first`).
fn play(
    seats: &mut [Contestant<'_>; 2],
    first: Seat,
    start: &Sugoroku,
    dice: u64,
    choices: u64,
) -> i32 {
    let mut dice = Xoshiro256PlusPlus::seed_from_u64(dice);
    let mut choices = Xoshiro256PlusPlus::seed_from_u64(choices);
    for seat in seats.iter_mut() {
        if let Some(searcher) = &mut seat.searcher {
            <Expectimax<SugorokuEval> as Searcher<Sugoroku>>::clear(searcher);
        }
    }
    let mut pos = *start;
    for _ in 0..MAX_TURNS {
        if let Some(outcome) = pos.decided() {
            return match outcome.result {
                GameResult::Win { .. } => outcome.value_for(first),
                _ => 0,
            };
        }
        pos.apply_chance(roll(&mut dice));
        let mover = if pos.side_to_move() == first { 0 } else { 1 };
        let mv = seats[mover].choose(&pos, &mut choices);
        pos.make(mv);
    }
    0
}

/// `pairs` duplicate pairs of games between `a` and `b` from the start; the
/// result is `a`'s.
pub fn duel(a: Player, b: Player, pairs: u32, seed: u64, rules: &SugorokuRules) -> DuelResult {
    let starts = vec![Sugoroku::start(rules); pairs as usize];
    duel_from(a, b, &starts, seed)
}

/// One duplicate pair of games between `a` and `b` from each of `starts`; the
/// result is `a`'s.
pub fn duel_from(a: Player, b: Player, starts: &[Sugoroku], seed: u64) -> DuelResult {
    let mut seats = [Contestant::new(a), Contestant::new(b)];
    let pairs = starts.len() as u32;
    let mut pair_points = Vec::with_capacity(starts.len());
    let mut wins = 0;
    let mut results = [0; 6];
    for (pair, start) in (0..pairs as u64).zip(starts) {
        let dice = crate::core::zobrist::splitmix64(seed ^ pair.wrapping_mul(0x9E37)).1;
        let mut total = 0;
        for first in [Seat::FIRST, Seat::SECOND] {
            let choices = dice ^ (first.index() as u64 + 1);
            let points = play(&mut seats, first, start, dice, choices);
            wins += (points > 0) as u32;
            match points {
                1..=3 => results[points as usize - 1] += 1,
                -3..=-1 => results[2 + (-points) as usize] += 1,
                _ => {}
            }
            total += points;
        }
        pair_points.push(total as f64 / 2.0);
    }
    let n = pair_points.len().max(1) as f64;
    let mean = pair_points.iter().sum::<f64>() / n;
    let variance = pair_points.iter().map(|p| (p - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
    DuelResult {
        games: 2 * pairs,
        points: mean,
        error95: 1.96 * (variance / n).sqrt(),
        wins,
        results,
    }
}

/// `count` races the tables hold ([`super::race::exact`]), the side to
/// roll waiting: the first such position of games the network plays against
/// itself at 0 ply from the start, game g on dice seeded by (seed, g); games
/// won before such a race are skipped.
pub fn race_starts(count: usize, seed: u64, rules: &SugorokuRules) -> Vec<Sugoroku> {
    let network = super::net::embedded();
    let mut starts = Vec::with_capacity(count);
    let mut moves = MoveList::new();
    for game in 0u64.. {
        if starts.len() == count {
            break;
        }
        let mut dice = Xoshiro256PlusPlus::seed_from_u64(seed ^ game.wrapping_mul(0x9E37_79B9));
        let mut pos = Sugoroku::start(rules);
        for _ in 0..MAX_TURNS {
            if pos.decided().is_some() {
                break;
            }
            if super::race::exact(&pos, RaceTables::Wait).is_some() {
                starts.push(pos);
                break;
            }
            pos.apply_chance(roll(&mut dice));
            pos.generate_moves(&mut moves);
            pos.make(best_at_zero_ply(&pos, &moves, |after| {
                -network.outcomes(after).equity()
            }));
        }
    }
    starts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_duel_is_fair_and_reproducible() {
        let rules = SugorokuRules::default();
        let once = duel(Player::Random, Player::Random, 20, 7, &rules);
        assert_eq!(once, duel(Player::Random, Player::Random, 20, 7, &rules));
        assert_eq!(once.games, 40);
        // A player against itself on duplicate dice: within the error bar of 0.
        let mirror = duel(Player::Greedy, Player::Greedy, 20, 7, &rules);
        assert_eq!(
            mirror.points, 0.0,
            "identical players on shared dice cancel out"
        );
    }

    /// The engine against both baselines on 100 duplicate pairs each: a wide
    /// margin, the whole 95 % interval well above zero.
    #[test]
    fn the_engine_beats_the_random_and_the_greedy_player() {
        let rules = SugorokuRules::default();
        let network = SugorokuEval::default();
        let engine = Player::Search {
            depth: 1,
            eval: &network,
        };
        for baseline in [Player::Random, Player::Greedy] {
            let result = duel(engine, baseline, 100, 1, &rules);
            assert!(
                result.points - result.error95 > 0.3,
                "{baseline:?}: {result:?}"
            );
        }
    }

    /// The figures for the issue note: `cargo test -p yomi-engine --release
    /// duel_figures -- --ignored --nocapture`.
    #[test]
    #[ignore]
    fn duel_figures() {
        let rules = SugorokuRules::default();
        for depth in [1, 2] {
            for baseline in [Player::Random, Player::Greedy] {
                let engine = Player::Search {
                    depth,
                    eval: &SugorokuEval::default(),
                };
                let r = duel(engine, baseline, 150, 11, &rules);
                println!(
                    "engine depth {depth} vs {baseline:?}: {} games, {:+.3} ± {:.3} points/game, {} wins",
                    r.games, r.points, r.error95, r.wins
                );
            }
        }
    }

    /// The network at 0 ply against the hand-made evaluation searched to 2
    /// turns, and both at 0 ply: `cargo test -p yomi-engine --release
    /// network_figures -- --ignored --nocapture`.
    #[test]
    #[ignore]
    fn network_figures() {
        let network = Player::Network(crate::sugoroku::net::embedded());
        let rules = SugorokuRules::default();
        let handmade = SugorokuEval {
            evaluation: Evaluation::Handmade,
            ..SugorokuEval::default()
        };
        for (name, opponent) in [
            ("hand-made, 0 ply", Player::Static(Evaluation::Handmade)),
            (
                "hand-made, 2-turn search",
                Player::Search {
                    depth: 2,
                    eval: &handmade,
                },
            ),
        ] {
            let r = duel(network, opponent, 200, 5, &rules);
            println!(
                "network at 0 ply vs {name}: {} games, {:+.3} ± {:.3} points/game; won 1/2/3 {:?}, lost 1/2/3 {:?}",
                r.games, r.points, r.error95, &r.results[..3], &r.results[3..]
            );
        }
    }
}
