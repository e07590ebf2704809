//! Totals over game records: wins/draws/losses of the first engine, the
//! pentanomial counts of complete pairings, Elo, SPRT, reasons, move times;
//! for four seats (Yonin) a standings table by places; for Sugoroku the points
//! per game.

use crate::runner::record::{place_points, GameRecord};
use crate::stats::{elo_estimate, llr, Distribution, EloEstimate, Sprt, SprtDecision, Z95};
use std::collections::BTreeMap;
use std::fmt::Write;

#[derive(Clone, Debug, Default)]
pub struct Totals {
    pub games: u64,
    /// From the first engine's point of view.
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    /// Complete pairs by the first engine's pair total 0, ½, 1, 1½, 2.
    pub pentanomial: [u64; 5],
    pub reasons: BTreeMap<String, u64>,
    /// Per engine index: moves, total and max ms.
    pub moves: Vec<(u64, u64, u64)>,
    /// Seats at the table (the most any record has): 2 or 4.
    pub seats: usize,
    /// Sugoroku: points per game are reported.
    pub dice: bool,
    /// Games per complete pairing.
    pub per_pair: u64,
    /// Per engine index: places and scores.
    pub standings: Vec<Standing>,
    /// Per engine index, per pairing: the engine's score in each game.
    pub pair_scores: Vec<BTreeMap<u64, Vec<f64>>>,
    /// Per engine index, per pairing: points won (+) or lost (−) in each game.
    pub pair_points: Vec<BTreeMap<u64, Vec<f64>>>,
    /// Sugoroku: the first engine's points per game less the dice's luck,
    /// with its 95 % half-width and units ([`crate::runner::luck`]), or why
    /// there are none.
    pub luck_adjusted: Option<Result<(f64, f64, &'static str), String>>,
}

/// One engine's line of the standings.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Standing {
    pub games: u64,
    /// Seats played (an engine with two seats per game counts both).
    pub seat_games: u64,
    /// Seats finished 1st, 2nd, 3rd, 4th (a shared place counts as that place:
    /// `1,1,3,4` is two firsts).
    pub places: [u64; 4],
    /// Sum over seats of the mean place a shared place spans (1,1 → 1.5 each).
    pub place_sum: f64,
    /// Sum over games of the engine's score (its mean place points).
    pub score_sum: f64,
}

impl Standing {
    pub fn average_place(&self) -> f64 {
        if self.seat_games == 0 {
            return 0.0;
        }
        self.place_sum / self.seat_games as f64
    }

    /// Mean score per game, 0–1 (½ is the field's average).
    pub fn score(&self) -> f64 {
        if self.games == 0 {
            return 0.5;
        }
        self.score_sum / self.games as f64
    }
}

/// The units a mean is taken over: the pairing means when every pairing is
/// complete (seats and dice balanced inside each) and there are two or more,
/// else the single games.
pub(crate) fn units(pairs: &BTreeMap<u64, Vec<f64>>, per_pair: u64) -> (Vec<f64>, &'static str) {
    let complete = pairs.len() >= 2 && pairs.values().all(|v| v.len() as u64 == per_pair);
    if complete && per_pair > 1 {
        let means = pairs
            .values()
            .map(|v| v.iter().sum::<f64>() / v.len() as f64)
            .collect();
        (means, "pairings")
    } else {
        (pairs.values().flatten().copied().collect(), "games")
    }
}

/// Mean and half-width of its 95 % interval (normal approximation).
pub fn mean_interval(values: &[f64]) -> Option<(f64, f64)> {
    if values.is_empty() {
        return None;
    }
    let n = values.len() as f64;
    let mean = values.iter().sum::<f64>() / n;
    let variance = values.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / n;
    Some((mean, Z95 * (variance / n).sqrt()))
}

/// Elo from per-unit scores (each 0–1, ½ even): the unit means as a
/// distribution of equally weighted outcomes.
fn elo_of_units(values: &[f64]) -> Option<EloEstimate> {
    elo_estimate(&Distribution {
        values: values.to_vec(),
        counts: vec![1.0; values.len()],
    })
}

impl Totals {
    /// Totals of `records` (each id once), pairs complete when they hold
    /// `per_pair` games.
    pub fn of(records: &[GameRecord], engines: usize, per_pair: u64) -> Totals {
        let mut totals = Totals {
            moves: vec![(0, 0, 0); engines],
            seats: 2,
            per_pair,
            standings: vec![Standing::default(); engines],
            pair_scores: vec![BTreeMap::new(); engines],
            pair_points: vec![BTreeMap::new(); engines],
            ..Totals::default()
        };
        let mut pairs: BTreeMap<u64, (u64, f64)> = BTreeMap::new();
        for record in records {
            totals.seats = totals.seats.max(record.seats.len());
            totals.dice |= crate::runner::record::scores_points(&record.game);
            totals.add_places(record);
            totals.games += 1;
            let score = record.scores.first().copied().unwrap_or(0.5);
            if score > 0.75 {
                totals.wins += 1;
            } else if score < 0.25 {
                totals.losses += 1;
            } else {
                totals.draws += 1;
            }
            *totals.reasons.entry(record.reason.clone()).or_default() += 1;
            let pair = pairs.entry(record.pair).or_default();
            pair.0 += 1;
            pair.1 += score;
            for (i, &mover) in record.movers.iter().enumerate() {
                if let (Some(slot), Some(&ms)) =
                    (totals.moves.get_mut(mover), record.times_ms.get(i))
                {
                    slot.0 += 1;
                    slot.1 += ms;
                    slot.2 = slot.2.max(ms);
                }
            }
        }
        for (count, score) in pairs.values() {
            if *count == per_pair && per_pair == 2 {
                totals.pentanomial[((score * 2.0).round() as usize).min(4)] += 1;
            }
        }
        totals
    }

    fn add_places(&mut self, record: &GameRecord) {
        let engines = self.standings.len();
        let points = record.signed_points();
        let mut seen = Vec::new();
        for (seat, &engine) in record.seats.iter().enumerate() {
            let Some(standing) = self.standings.get_mut(engine) else {
                continue;
            };
            let place = record.places.get(seat).copied().unwrap_or(1);
            let shared = record.places.iter().filter(|&&p| p == place).count();
            standing.seat_games += 1;
            standing.place_sum += place as f64 + (shared as f64 - 1.0) / 2.0;
            if (1..=4).contains(&place) {
                standing.places[place as usize - 1] += 1;
            }
            if !seen.contains(&engine) {
                seen.push(engine);
                let score = record.scores.get(engine).copied().unwrap_or_else(|| {
                    place_points(&record.places)
                        .get(seat)
                        .copied()
                        .unwrap_or(0.5)
                });
                standing.games += 1;
                standing.score_sum += score;
                self.pair_scores[engine]
                    .entry(record.pair)
                    .or_default()
                    .push(score);
                if engine < engines {
                    self.pair_points[engine]
                        .entry(record.pair)
                        .or_default()
                        .push(points.get(engine).copied().unwrap_or(0.0));
                }
            }
        }
    }

    /// Elo of engine 0 from its mean score (against the field at four seats),
    /// and the units its error bar is computed over.
    pub fn field_elo(&self) -> Option<(EloEstimate, &'static str, usize)> {
        let (values, unit) = units(self.pair_scores.first()?, self.per_pair);
        elo_of_units(&values).map(|e| (e, unit, values.len()))
    }

    /// Points per game of `engine` with its 95 % half-width, over pairings when
    /// all are complete.
    pub fn points_per_game(&self, engine: usize) -> Option<(f64, f64, &'static str)> {
        let (values, unit) = units(self.pair_points.get(engine)?, self.per_pair);
        // A pairing's mean is per game already: the interval stays per game.
        mean_interval(&values).map(|(m, h)| (m, h, unit))
    }

    pub fn pairs(&self) -> u64 {
        self.pentanomial.iter().sum()
    }

    /// The pentanomial when every game is in a complete pair, else the trinomial.
    pub fn distribution(&self) -> (Distribution, &'static str) {
        if self.pairs() > 0 && self.pairs() * 2 == self.games {
            (Distribution::pentanomial(self.pentanomial), "pentanomial")
        } else {
            (
                Distribution::trinomial(self.losses, self.draws, self.wins),
                "trinomial",
            )
        }
    }

    pub fn score(&self) -> f64 {
        if self.games == 0 {
            return 0.5;
        }
        (self.wins as f64 + self.draws as f64 / 2.0) / self.games as f64
    }

    /// The LLR on complete pairs (pentanomial).
    pub fn llr(&self, sprt: &Sprt) -> f64 {
        llr(
            &Distribution::pentanomial(self.pentanomial),
            sprt.elo0,
            sprt.elo1,
        )
    }

    /// One short line for the progress display.
    pub fn short(&self, sprt: Option<&Sprt>) -> String {
        if self.seats == 4 {
            let standing = self.standings.first().cloned().unwrap_or_default();
            let mut text = format!(
                "score {:.1}% avg place {:.2}",
                standing.score() * 100.0,
                standing.average_place()
            );
            if let Some((est, _, _)) = self.field_elo() {
                if est.elo.is_finite() && est.error.is_finite() {
                    let _ = write!(text, " elo {:+.0}±{:.0}", est.elo, est.error);
                }
            }
            return text;
        }
        let mut text = format!("+{} ={} -{}", self.wins, self.draws, self.losses);
        if let Some(est) = elo_estimate(&self.distribution().0) {
            if est.error.is_finite() {
                let _ = write!(text, " elo {:+.0}±{:.0}", est.elo, est.error);
            } else {
                let _ = write!(text, " elo {:+.0}", est.elo);
            }
        }
        if self.dice {
            if let Some((mean, _, _)) = self.points_per_game(0) {
                let _ = write!(text, " points/game {mean:+.2}");
            }
        }
        if let Some(sprt) = sprt {
            let _ = write!(text, " llr {:.2}", self.llr(sprt));
        }
        text
    }

    /// The summary printed at the end (stdout).
    pub fn summary(&self, engines: &[String], sprt: Option<&Sprt>) -> String {
        if self.seats == 4 {
            return self.standings_summary(engines);
        }
        let mut out = String::new();
        let (a, b) = (
            engines.first().map(String::as_str).unwrap_or("A"),
            engines.get(1).map(String::as_str).unwrap_or("B"),
        );
        let _ = writeln!(
            out,
            "Score of {a} vs {b}: {} - {} - {}  [{:.3}]  {} games (W - L - D)",
            self.wins,
            self.losses,
            self.draws,
            self.score(),
            self.games
        );
        let (dist, model) = self.distribution();
        match elo_estimate(&dist) {
            Some(est) if !est.elo.is_finite() => {
                let _ = writeln!(
                    out,
                    "Elo difference: {}inf (95% interval unbounded: no {})",
                    if est.elo > 0.0 { "+" } else { "-" },
                    if est.elo > 0.0 {
                        "losses or draws"
                    } else {
                        "wins or draws"
                    }
                );
            }
            Some(est) => {
                let _ = writeln!(
                    out,
                    "Elo difference: {}  LOS {:.1}%",
                    est.describe(model),
                    est.los * 100.0
                );
            }
            None => {
                let _ = writeln!(out, "Elo difference: none (no games)");
            }
        }
        let p = self.pentanomial;
        let _ = writeln!(
            out,
            "Pentanomial [0, 0.5, 1, 1.5, 2]: [{}, {}, {}, {}, {}]  {} pairs",
            p[0],
            p[1],
            p[2],
            p[3],
            p[4],
            self.pairs()
        );
        if let Some(sprt) = sprt {
            let llr = self.llr(sprt);
            let decision = match sprt.decide(llr) {
                SprtDecision::Continue => "continue",
                SprtDecision::H0 => "H0 accepted",
                SprtDecision::H1 => "H1 accepted",
            };
            let _ = writeln!(
                out,
                "SPRT elo0={} elo1={} alpha={} beta={}: LLR {:.2} ({:.2}, {:.2}) {decision}",
                sprt.elo0,
                sprt.elo1,
                sprt.alpha,
                sprt.beta,
                llr,
                sprt.lower_bound(),
                sprt.upper_bound()
            );
        }
        if self.dice {
            self.write_points(&mut out, engines);
        }
        self.write_reasons_and_times(&mut out, engines);
        out
    }

    /// Sugoroku: points per game of each engine.
    fn write_points(&self, out: &mut String, engines: &[String]) {
        let mut parts = Vec::new();
        let mut unit = "games";
        for (i, name) in engines.iter().enumerate() {
            if let Some((mean, half, u)) = self.points_per_game(i) {
                unit = u;
                let (won, lost) =
                    self.pair_points[i]
                        .values()
                        .flatten()
                        .fold(
                            (0.0, 0.0),
                            |(w, l), &p| {
                                if p > 0.0 {
                                    (w + p, l)
                                } else {
                                    (w, l - p)
                                }
                            },
                        );
                parts.push(format!(
                    "{name} {mean:+.3} +/- {half:.3} (won {won}, lost {lost})"
                ));
            }
        }
        let _ = writeln!(
            out,
            "Points per game: {}  (95%, over {unit})",
            parts.join("; ")
        );
        match &self.luck_adjusted {
            Some(Ok((mean, half, unit))) => {
                let _ = writeln!(
                    out,
                    "Points per game less the dice's luck (valued by the embedded network): {} {mean:+.3} +/- {half:.3}  (95%, over {unit})",
                    engines.first().map(String::as_str).unwrap_or("A"),
                );
            }
            Some(Err(e)) => {
                let _ = writeln!(out, "Points per game less the dice's luck: none ({e})");
            }
            None => {}
        }
    }

    /// Four seats: the standings table and engine 0's Elo against the field.
    fn standings_summary(&self, engines: &[String]) -> String {
        let mut out = String::new();
        let width = engines.iter().map(|e| e.len()).max().unwrap_or(6).max(6);
        let _ = writeln!(
            out,
            "Standings: {} games, {} engines (place points: 1st 1, 2nd 2/3, 3rd 1/3, 4th 0)",
            self.games,
            engines.len()
        );
        let _ = writeln!(
            out,
            "  {:<width$}  {:>5}  {:>9}  {:>4} {:>4} {:>4} {:>4}  {:>7}",
            "engine", "games", "avg place", "1st", "2nd", "3rd", "4th", "score"
        );
        for (name, standing) in engines.iter().zip(&self.standings) {
            let p = standing.places;
            let _ = writeln!(
                out,
                "  {name:<width$}  {:>5}  {:>9.2}  {:>4} {:>4} {:>4} {:>4}  {:>6.1}%",
                standing.games,
                standing.average_place(),
                p[0],
                p[1],
                p[2],
                p[3],
                standing.score() * 100.0
            );
        }
        let first = engines.first().map(String::as_str).unwrap_or("A");
        let against = if engines.len() == 2 {
            engines[1].clone()
        } else {
            "the field".to_string()
        };
        match self.field_elo() {
            Some((est, _, _)) if !est.elo.is_finite() => {
                let _ = writeln!(
                    out,
                    "Elo of {first} vs {against}: {}inf (95% interval unbounded)",
                    if est.elo > 0.0 { "+" } else { "-" }
                );
            }
            Some((est, unit, n)) => {
                let _ = writeln!(
                    out,
                    "Elo of {first} vs {against}: {}  LOS {:.1}%",
                    est.describe(&format!("score over {n} {unit}")),
                    est.los * 100.0
                );
            }
            None => {
                let _ = writeln!(out, "Elo of {first} vs {against}: none (no games)");
            }
        }
        self.write_reasons_and_times(&mut out, engines);
        out
    }

    fn write_reasons_and_times(&self, out: &mut String, engines: &[String]) {
        let reasons: Vec<String> = self
            .reasons
            .iter()
            .map(|(r, n)| format!("{r} {n}"))
            .collect();
        let _ = writeln!(out, "Reasons: {}", reasons.join(", "));
        let times: Vec<String> = self
            .moves
            .iter()
            .enumerate()
            .map(|(i, (n, total, max))| {
                let avg = if *n > 0 {
                    *total as f64 / *n as f64
                } else {
                    0.0
                };
                let name = engines.get(i).map(String::as_str).unwrap_or("?");
                format!("{name} {n} moves avg {avg:.1} ms max {max} ms")
            })
            .collect();
        let _ = writeln!(out, "Move times: {}", times.join("; "));
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::runner::schedule::Opening;

    /// A two-player game between A and B (the seats swapped in odd games),
    /// A scoring `score_a`; for the tests of what reads records.
    pub(crate) fn game(id: u64, score_a: f64, reason: &str) -> GameRecord {
        GameRecord {
            id,
            pair: id / 2,
            seed: 1,
            dice_seed: 0,
            game: "hasami".into(),
            engines: vec!["A".into(), "B".into()],
            seats: if id.is_multiple_of(2) {
                vec![0, 1]
            } else {
                vec![1, 0]
            },
            opening: Opening {
                sfen: None,
                moves: Vec::new(),
            },
            tc: "nodes=1".into(),
            moves: vec!["9i9h".into(), "1a1b".into()],
            movers: if id.is_multiple_of(2) {
                vec![0, 1]
            } else {
                vec![1, 0]
            },
            mover_seats: vec![0, 1],
            times_ms: vec![10, 30],
            winner: None,
            places: vec![1, 1],
            points: 0,
            reason: reason.into(),
            detail: String::new(),
            scores: vec![score_a, 1.0 - score_a],
        }
    }

    #[test]
    fn totals_and_pentanomial() {
        let records = vec![
            game(0, 1.0, "five-captured"), // pair 0: W + W
            game(1, 1.0, "five-captured"),
            game(2, 0.5, "max-plies"), // pair 1: D + L
            game(3, 0.0, "timeout"),
            game(4, 1.0, "crash"), // pair 2: W + L
            game(5, 0.0, "five-captured"),
            game(6, 0.5, "repetition"), // pair 3 incomplete
        ];
        let totals = Totals::of(&records, 2, 2);
        assert_eq!((totals.wins, totals.draws, totals.losses), (3, 2, 2));
        assert_eq!(totals.pentanomial, [0, 1, 1, 0, 1]);
        assert_eq!(totals.reasons["five-captured"], 3);
        // Not every game is in a complete pair: the trinomial is used.
        assert_eq!(totals.distribution().1, "trinomial");
        let complete = Totals::of(&records[..6], 2, 2);
        assert_eq!(complete.distribution().1, "pentanomial");
        // A moved first in the even games (10 ms) and second in the odd ones (30 ms).
        assert_eq!(totals.moves[0], (7, 4 * 10 + 3 * 30, 30));
        let summary = totals.summary(&["A".into(), "B".into()], None);
        assert!(
            summary.starts_with("Score of A vs B: 3 - 2 - 2  [0.571]  7 games"),
            "{summary}"
        );
    }

    /// A yonin game of engines `seats` (by seat) finishing in `places`.
    fn yonin(
        id: u64,
        pair: u64,
        seats: Vec<usize>,
        places: Vec<u32>,
        engines: usize,
    ) -> GameRecord {
        let names = ["A", "B", "C", "D"];
        GameRecord {
            id,
            pair,
            game: "yonin".into(),
            engines: names[..engines].iter().map(|n| n.to_string()).collect(),
            scores: crate::runner::record::engine_scores(&seats, &places, engines),
            seats,
            places,
            points: 0,
            reason: "second-checkmate".into(),
            moves: Vec::new(),
            movers: Vec::new(),
            mover_seats: Vec::new(),
            times_ms: Vec::new(),
            ..game(0, 0.5, "x")
        }
    }

    #[test]
    fn yonin_standings() {
        let rotations = crate::runner::schedule::seatings(4, 4);
        // Pairing 0: A always first, B second, C third, D fourth, wherever seated.
        let mut records = Vec::new();
        for (k, seats) in rotations.iter().enumerate() {
            let places: Vec<u32> = seats.iter().map(|&e| e as u32 + 1).collect();
            records.push(yonin(k as u64, 0, seats.clone(), places, 4));
        }
        // Pairing 1, game 4: B and A share first, D third, C fourth.
        let seats = rotations[0].clone();
        records.push(yonin(4, 1, seats, vec![1, 1, 4, 3], 4));
        let totals = Totals::of(&records, 4, 4);
        assert_eq!(totals.seats, 4);
        let a = &totals.standings[0];
        assert_eq!((a.games, a.places), (5, [5, 0, 0, 0]));
        // Four clear firsts (place 1) and one shared 1st–2nd (1.5).
        assert!((a.average_place() - 5.5 / 5.0).abs() < 1e-12);
        assert!((a.score() - (4.0 + 5.0 / 6.0) / 5.0).abs() < 1e-12);
        let c = &totals.standings[2];
        assert_eq!(c.places, [0, 0, 4, 1]);
        assert!((c.score() - (4.0 / 3.0) / 5.0).abs() < 1e-12);
        // The scores of a game sum to 2 (seats / 2) over the four engines.
        let sum: f64 = totals.standings.iter().map(|s| s.score_sum).sum();
        assert!((sum - 10.0).abs() < 1e-9);
        // Pairing 1 is incomplete: the error bar is over single games.
        let (est, unit, n) = totals.field_elo().unwrap();
        assert_eq!((unit, n), ("games", 5));
        let names: Vec<String> = ["A", "B", "C", "D"].iter().map(|s| s.to_string()).collect();
        let summary = totals.summary(&names, None);
        assert!(
            summary.contains("Standings: 5 games, 4 engines"),
            "{summary}"
        );
        assert!(summary.contains("vs the field"), "{summary}");
        let row = summary
            .lines()
            .find(|l| l.trim_start().starts_with("C "))
            .unwrap();
        let words: Vec<&str> = row.split_whitespace().collect();
        assert_eq!(words[1..7], ["5", "3.20", "0", "0", "4", "1"], "{row}");
        // The Elo is the logistic of the score, and positive for a winner.
        assert!((est.elo - crate::stats::elo_of_score(a.score())).abs() < 1e-9);
        // One complete pairing is not enough for a spread: still games.
        let one = Totals::of(&records[..4], 4, 4);
        assert_eq!(one.field_elo().unwrap().1, "games");
        assert!(!one.field_elo().unwrap().0.elo.is_finite());
        // Two complete pairings: the unit is the pairing.
        let mut two = records[..4].to_vec();
        for (k, seats) in rotations.iter().enumerate() {
            two.push(yonin(4 + k as u64, 1, seats.clone(), vec![2, 1, 3, 4], 4));
        }
        let (est, unit, n) = Totals::of(&two, 4, 4).field_elo().unwrap();
        assert_eq!((unit, n), ("pairings", 2));
        assert!(est.elo.is_finite() && est.error > 0.0, "{est:?}");
    }

    #[test]
    fn yonin_with_two_engines() {
        // A B A B: A takes 1st and 3rd, B 2nd and 4th → A 2/3, B 1/3.
        let records = vec![
            yonin(0, 0, vec![0, 1, 0, 1], vec![1, 2, 3, 4], 2),
            yonin(1, 0, vec![1, 0, 1, 0], vec![1, 2, 3, 4], 2),
        ];
        let totals = Totals::of(&records, 2, 2);
        let (a, b) = (&totals.standings[0], &totals.standings[1]);
        assert_eq!((a.games, a.seat_games), (2, 4));
        assert!((a.score() + b.score() - 1.0).abs() < 1e-12);
        assert!((a.score() - 0.5).abs() < 1e-12);
        assert_eq!(a.places, [1, 1, 1, 1]);
        let summary = totals.summary(&["A".into(), "B".into()], None);
        assert!(summary.contains("Elo of A vs B: +0.0"), "{summary}");
    }

    #[test]
    fn sugoroku_points() {
        let dice = |id: u64, a_wins: bool, points: u32| {
            let mut record = game(id, if a_wins { 1.0 } else { 0.0 }, "all-home");
            record.game = "sugoroku".into();
            let a_seat = if id.is_multiple_of(2) { 0 } else { 1 };
            let winner = if a_wins { a_seat } else { 1 - a_seat };
            record.winner = Some(winner);
            record.places = if winner == 0 { vec![1, 2] } else { vec![2, 1] };
            record.points = points;
            record
        };
        // Pair 0: A +2, −1; pair 1: A +3, +1.
        let records = vec![
            dice(0, true, 2),
            dice(1, false, 1),
            dice(2, true, 3),
            dice(3, true, 1),
        ];
        let totals = Totals::of(&records, 2, 2);
        assert!(totals.dice);
        let (mean, half, unit) = totals.points_per_game(0).unwrap();
        assert_eq!(unit, "pairings");
        assert!((mean - 5.0 / 4.0).abs() < 1e-12);
        // Pair means 0.5 and 2: population sd 0.75 over 2 units.
        assert!((half - crate::stats::Z95 * 0.75 / 2f64.sqrt()).abs() < 1e-12);
        let (mean_b, _, _) = totals.points_per_game(1).unwrap();
        assert!((mean_b + mean).abs() < 1e-12);
        assert_eq!(totals.pentanomial, [0, 0, 1, 0, 1]);
        assert!(totals.short(None).ends_with("points/game +1.25"));
        let summary = totals.summary(&["A".into(), "B".into()], None);
        assert!(
            summary.contains("Points per game: A +1.250 +/- ")
                && summary.contains("(won 6, lost 1)"),
            "{summary}"
        );
    }
}
