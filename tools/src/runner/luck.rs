//! Sugoroku: a match's points less the dice's luck. Each game is replayed
//! from its record and every roll's luck for its mover is valued by the
//! embedded network ([`yomi_engine::sugoroku::duel::luck`]: the drawn roll's
//! best turn at 0 ply, less the mean over the 21 rolls). Each turn's luck has
//! mean zero, so the points keep their mean and most of the dice's noise goes.

use crate::runner::record::GameRecord;
use crate::runner::report::{mean_interval, units};
use rayon::prelude::*;
use std::collections::BTreeMap;
use yomi_engine::core::{Game, HouseRules, Notation};
use yomi_engine::session::Playable;
use yomi_engine::sugoroku::{duel, net, Roll, Sugoroku, SugorokuRules};

/// The luck of `record`'s dice for engine 0 under `rules`, in points.
pub fn game_luck(record: &GameRecord, rules: &SugorokuRules) -> Result<f64, String> {
    let fail = |e: String| format!("game {}: {e}", record.id);
    let reference = net::embedded();
    let mut pos = match &record.opening.sfen {
        Some(sfen) => Sugoroku::from_sfen(sfen, rules).map_err(|e| fail(e.to_string()))?,
        None => Sugoroku::start(rules),
    };
    for entry in &record.opening.moves {
        pos.play_text(entry).map_err(|e| fail(e.to_string()))?;
    }
    let mut luck = 0.0;
    for (entry, &mover) in record.moves.iter().zip(&record.movers) {
        // `52:13/8,13/11`, or `52` alone for a roll with no turn to play.
        let dice = entry
            .split_once(':')
            .map_or(entry.as_str(), |(dice, _)| dice);
        if pos.at_chance() {
            // The roll read by the notation's own parser.
            let mut rolled = pos;
            rolled.play_text(dice).map_err(|e| fail(e.to_string()))?;
            let drawn = Roll::new(rolled.dice().hi(), rolled.dice().lo());
            let of_mover = duel::luck(reference, &pos, drawn);
            luck += if mover == 0 { of_mover } else { -of_mover };
        }
        pos.play_text(entry).map_err(|e| fail(e.to_string()))?;
    }
    Ok(luck)
}

/// Engine 0's points per game less the luck, with the 95 % half-width and
/// the units it is over (as [`crate::runner::report::Totals::points_per_game`]).
pub fn luck_adjusted_points(
    records: &[GameRecord],
    rules: &[(String, String)],
    per_pair: u64,
) -> Result<(f64, f64, &'static str), String> {
    let mut house = SugorokuRules::default();
    for (name, value) in rules {
        house
            .set(name, value)
            .map_err(|e| format!("rule {name}: {e}"))?;
    }
    let adjusted: Vec<(u64, f64)> = records
        .par_iter()
        .map(|record| {
            let points = record.signed_points().first().copied().unwrap_or(0.0);
            Ok((record.pair, points - game_luck(record, &house)?))
        })
        .collect::<Result<_, String>>()?;
    let mut pairs: BTreeMap<u64, Vec<f64>> = BTreeMap::new();
    for (pair, points) in adjusted {
        pairs.entry(pair).or_default().push(points);
    }
    let (values, unit) = units(&pairs, per_pair);
    let (mean, half) = mean_interval(&values).ok_or("no games")?;
    Ok((mean, half, unit))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runner::schedule::Opening;
    use yomi_engine::core::MoveList;
    use yomi_engine::sugoroku::race::{self, RaceTables};

    /// A record of the rolls `rolls` from `start`, each turn the first legal
    /// one; engine `i` sits at seat `i`. None if the game ends before its
    /// last roll.
    fn record(start: &Sugoroku, rolls: &[(u8, u8)]) -> Option<GameRecord> {
        let mut pos = *start;
        let (mut moves, mut movers) = (Vec::new(), Vec::new());
        let mut legal = MoveList::new();
        for &(a, b) in rolls {
            movers.push(pos.side_to_move().index());
            pos.play_text(&format!("{a}{b}")).ok()?;
            legal.clear();
            pos.generate_moves(&mut legal);
            let turn = pos.format_move(legal[0]);
            pos.play_text(&turn).expect("a legal turn");
            moves.push(format!("{a}{b}:{turn}"));
        }
        Some(GameRecord {
            id: 0,
            pair: 0,
            seed: 0,
            dice_seed: 0,
            game: "sugoroku".into(),
            engines: vec!["A".into(), "B".into()],
            seats: vec![0, 1],
            opening: Opening {
                sfen: Some(start.sfen()),
                moves: Vec::new(),
            },
            tc: String::new(),
            mover_seats: movers.clone(),
            movers,
            moves,
            times_ms: Vec::new(),
            winner: None,
            places: vec![1, 1],
            points: 0,
            reason: String::new(),
            detail: String::new(),
            scores: vec![0.5, 0.5],
        })
    }

    /// In a race, double sixes against 2-1s are luck for the side that rolls
    /// them: for engine 0 when it rolls them, against it when its opponent
    /// does; and a game's luck is its rolls', summed.
    #[test]
    fn big_doubles_in_a_race_are_luck_for_their_roller() {
        let rules = SugorokuRules::default();
        let (good, bad) = ((6, 6), (2, 1));
        // Each order of the two rolls, as engine 0's luck; None if the race
        // ends before the second roll.
        let lucks = |race: &Sugoroku| -> Option<[f64; 2]> {
            let engine0_first = race.side_to_move().index() == 0;
            let mut luck = [0.0; 2];
            for (slot, pair) in luck.iter_mut().zip([[good, bad], [bad, good]]) {
                let rolls = if engine0_first {
                    pair
                } else {
                    [pair[1], pair[0]]
                };
                *slot = game_luck(&record(race, &rolls)?, &rules).unwrap();
            }
            Some(luck)
        };
        // Races the tables hold that last the two turns: in each, the luck
        // follows the roller of the big doubles; summed, it is no trifle.
        let races: Vec<(Sugoroku, [f64; 2])> = duel::race_starts(20, 3, &rules)
            .into_iter()
            .filter_map(|race| Some((race, lucks(&race)?)))
            .collect();
        let (mut engine0_total, mut engine1_total) = (0.0, 0.0);
        for (race, [engine0_lucky, engine1_lucky]) in &races {
            assert!(*engine0_lucky >= -1e-9, "{} {engine0_lucky}", race.sfen());
            assert!(*engine1_lucky <= 1e-9, "{} {engine1_lucky}", race.sfen());
            engine0_total += engine0_lucky;
            engine1_total += engine1_lucky;
        }
        assert!(races.len() >= 5, "{} races", races.len());
        assert!(engine0_total > 1.0, "{engine0_total}");
        assert!(engine1_total < -1.0, "{engine1_total}");
        // One turn's luck is the roll's, from the closest race.
        let race = races
            .iter()
            .map(|(race, _)| race)
            .min_by(|a, b| {
                let equity = |pos: &Sugoroku| {
                    let outcomes = race::outcomes(net::embedded(), pos, RaceTables::Wait);
                    outcomes.equity().abs()
                };
                equity(a).total_cmp(&equity(b))
            })
            .expect("races");
        let engine0_first = race.side_to_move().index() == 0;
        let first = if engine0_first { good } else { bad };
        let one_turn = game_luck(&record(race, &[first]).unwrap(), &rules).unwrap();
        let luck = duel::luck(net::embedded(), race, Roll::new(first.0, first.1));
        assert_eq!(one_turn, if engine0_first { luck } else { -luck });
    }
}
