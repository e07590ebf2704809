//! The record of a finished game: one JSON line in the results file and a
//! readable block in the text record.

use crate::runner::schedule::Opening;
use std::fmt::Write;

/// Whether a game's wins are worth more than one point, so that records and
/// reports give the points (Sugoroku's double and triple wins).
pub fn scores_points(game: &str) -> bool {
    yomi_engine::registry::find(game).is_ok_and(|entry| entry.profile.max_points > 1)
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    pub id: u64,
    pub pair: u64,
    pub seed: u64,
    pub dice_seed: u64,
    pub game: String,
    /// Engine names, by engine index (engine 0 is the one the score is for).
    pub engines: Vec<String>,
    /// Engine index at each seat.
    pub seats: Vec<usize>,
    pub opening: Opening,
    pub tc: String,
    /// Moves played by the engines after the opening, and who played them.
    pub moves: Vec<String>,
    pub movers: Vec<usize>,
    /// The seat of each move (Yonin's order follows the rules, and an engine
    /// may hold two seats).
    pub mover_seats: Vec<usize>,
    /// Milliseconds from `go` to `bestmove`, per move (the last entry may be a
    /// rejected move's: `times_ms` can be one longer than `moves`).
    pub times_ms: Vec<u64>,
    /// Winning seat: the only seat in first place (`None`: a draw, or a shared
    /// first place).
    pub winner: Option<usize>,
    /// Place of each seat, competition ranking (1 = first; shared places as in
    /// `1,1,3,4`). Two players: `[1, 2]`, `[2, 1]` or a draw `[1, 1]`.
    pub places: Vec<u32>,
    /// Points the game was worth (Sugoroku 1–3; the referee's figure for other
    /// games; 0 for a draw).
    pub points: u32,
    pub reason: String,
    pub detail: String,
    /// Score of each engine by engine index: its place points (see
    /// [`place_points`]), averaged over its seats.
    pub scores: Vec<f64>,
}

/// Place points of each seat: the share of the other seats it finished ahead
/// of, a tie counting half. Two players: 1, ½, 0. Four: 1st 1, 2nd ⅔, 3rd ⅓,
/// 4th 0, and a shared place the average of the places it spans (`1,1,3,4`:
/// ⅚, ⅚, ⅓, 0).
pub fn place_points(places: &[u32]) -> Vec<f64> {
    let others = places.len().saturating_sub(1).max(1) as f64;
    places
        .iter()
        .map(|&mine| {
            let ahead = places.iter().filter(|&&p| p > mine).count() as f64;
            let tied = places.iter().filter(|&&p| p == mine).count() as f64 - 1.0;
            (ahead + tied / 2.0) / others
        })
        .collect()
}

/// Score of each of `engines` engines: the mean place points of its seats.
pub fn engine_scores(seats: &[usize], places: &[u32], engines: usize) -> Vec<f64> {
    let points = place_points(places);
    let mut sum = vec![0.0; engines];
    let mut count = vec![0u32; engines];
    for (&engine, &p) in seats.iter().zip(&points) {
        if engine < engines {
            sum[engine] += p;
            count[engine] += 1;
        }
    }
    sum.iter()
        .zip(&count)
        .map(|(s, &n)| if n > 0 { s / n as f64 } else { 0.0 })
        .collect()
}

/// Competition ranking (1, 1, 3, 4) of the seats by a value, the highest first.
pub fn competition_ranking(values: &[f64]) -> Vec<u32> {
    values
        .iter()
        .map(|v| 1 + values.iter().filter(|&&o| o > *v).count() as u32)
        .collect()
}

/// `1st`, `2nd`, `3rd`, `4th`.
pub fn ordinal(place: u32) -> String {
    let suffix = match place {
        1 => "st",
        2 => "nd",
        3 => "rd",
        _ => "th",
    };
    format!("{place}{suffix}")
}

/// A seat as the protocol names it: `b`/`w` at two seats, `0` … `3` at four.
pub fn seat_name(seat: usize, seats: usize) -> String {
    match (seats, seat) {
        (2, 0) => "b".into(),
        (2, 1) => "w".into(),
        (_, n) => n.to_string(),
    }
}

pub fn seat_of_name(name: &str) -> Option<usize> {
    match name {
        "b" => Some(0),
        "w" => Some(1),
        n => n.parse().ok(),
    }
}

impl GameRecord {
    /// `1-0`, `0-1`, `1/2-1/2` (two players), else `places 1,3,2,4`.
    pub fn result_text(&self) -> String {
        match (self.seats.len(), self.winner) {
            (2, Some(0)) => "1-0".into(),
            (2, Some(1)) => "0-1".into(),
            (2, None) => "1/2-1/2".into(),
            _ => format!("places {}", self.places_text()),
        }
    }

    fn places_text(&self) -> String {
        let places: Vec<String> = self.places.iter().map(u32::to_string).collect();
        places.join(",")
    }

    /// Points won (+) or lost (−) by each engine: the game's points to the
    /// winner's engine, minus them to the loser's (two players; Sugoroku).
    pub fn signed_points(&self) -> Vec<f64> {
        let mut points = vec![0.0; self.engines.len()];
        if let (Some(winner), 2) = (self.winner, self.seats.len()) {
            let value = self.points as f64;
            points[self.seats[winner]] += value;
            points[self.seats[1 - winner]] -= value;
        }
        points
    }

    /// The readable record: headers, then the moves with their times.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "[Game {}] {} pair {}", self.id, self.game, self.pair);
        for (seat, &engine) in self.seats.iter().enumerate() {
            let _ = writeln!(
                out,
                "[Seat {}] {}",
                seat_name(seat, self.seats.len()),
                self.engines[engine]
            );
        }
        let _ = writeln!(out, "[Opening] {}", self.opening.describe());
        let _ = writeln!(out, "[TimeControl] {}", self.tc);
        let outcome = if self.seats.len() == 2 {
            match self.winner {
                Some(seat) => format!(
                    "{} ({}) wins{}",
                    seat_name(seat, 2),
                    self.engines[self.seats[seat]],
                    if scores_points(&self.game) {
                        format!(" {} point{}", self.points, plural(self.points))
                    } else {
                        String::new()
                    }
                ),
                None => "draw".to_string(),
            }
        } else {
            let places: Vec<String> = self
                .places
                .iter()
                .enumerate()
                .map(|(seat, &place)| {
                    format!(
                        "{} {} ({})",
                        ordinal(place),
                        seat_name(seat, self.seats.len()),
                        self.engines[self.seats[seat]]
                    )
                })
                .collect();
            places.join(", ")
        };
        let _ = writeln!(
            out,
            "[Result] {} {outcome}, {}",
            self.result_text(),
            self.reason
        );
        if !self.detail.is_empty() {
            let _ = writeln!(out, "[Detail] {}", self.detail);
        }
        let first_ply = self.opening.moves.len();
        // Sugoroku entries carry their dice (`52:13/8,13/11`).
        let width = self
            .moves
            .iter()
            .map(|m| m.len())
            .max()
            .unwrap_or(0)
            .clamp(6, 24);
        let mut line = String::new();
        for (i, mv) in self.moves.iter().enumerate() {
            let seat = self
                .mover_seats
                .get(i)
                .map(|&s| seat_name(s, self.seats.len()))
                .unwrap_or_default();
            let time = self.times_ms.get(i).copied().unwrap_or(0);
            let _ = write!(
                line,
                "{:>4}.{seat} {mv:<width$} {time:>6}ms  ",
                first_ply + i + 1
            );
            if i % 4 == 3 {
                let _ = writeln!(out, "{}", line.trim_end());
                line.clear();
            }
        }
        if !line.is_empty() {
            let _ = writeln!(out, "{}", line.trim_end());
        }
        out.push('\n');
        out
    }
}

fn plural(n: u32) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    #[test]
    fn json_round_trip() {
        let record = GameRecord {
            id: 3,
            pair: 1,
            seed: 42,
            dice_seed: 7,
            game: "hasami".into(),
            engines: vec!["A".into(), "B".into()],
            seats: vec![1, 0],
            opening: Opening {
                sfen: None,
                moves: vec!["9i9c".into()],
            },
            tc: "nodes=100".into(),
            moves: vec!["1a1d".into(), "8i8c".into()],
            movers: vec![0, 1],
            mover_seats: vec![1, 0],
            times_ms: vec![3, 4, 9],
            winner: Some(1),
            places: vec![2, 1],
            points: 1,
            reason: "illegal-move".into(),
            detail: "move '1e1e' \"quoted\"".into(),
            scores: vec![1.0, 0.0],
        };
        let text = record.to_json();
        let back = GameRecord::from_json(&json::parse(&text).unwrap()).unwrap();
        assert_eq!(back, record);
        assert_eq!(record.result_text(), "0-1");
        assert!(record.to_text().contains("[Seat b] B"));
    }

    fn close(a: &[f64], b: &[f64]) -> bool {
        a.len() == b.len() && a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-12)
    }

    #[test]
    fn place_points_of_four_seats() {
        let third = 1.0 / 3.0;
        // Distinct places: 1, ⅔, ⅓, 0 wherever the seats sit.
        assert!(close(
            &place_points(&[1, 3, 2, 4]),
            &[1.0, third, 2.0 * third, 0.0]
        ));
        // A shared place averages the places it spans: 1st and 2nd → ⅚ each.
        let shared = place_points(&[1, 1, 3, 4]);
        assert!(close(
            &shared,
            &[(1.0 + 2.0 * third) / 2.0; 2]
                .iter()
                .copied()
                .chain([third, 0.0])
                .collect::<Vec<_>>()
        ));
        // Three share 1st (a fault's result): the average of 1, ⅔, ⅓.
        assert!(close(
            &place_points(&[1, 1, 1, 4]),
            &[2.0 * third, 2.0 * third, 2.0 * third, 0.0]
        ));
        // Pairs: two share 1st, two 3rd.
        assert!(close(
            &place_points(&[1, 3, 1, 3]),
            &[5.0 / 6.0, 1.0 / 6.0, 5.0 / 6.0, 1.0 / 6.0]
        ));
        // Everyone shares: ½ each. The points always sum to seats / 2.
        assert!(close(&place_points(&[1, 1, 1, 1]), &[0.5; 4]));
        for places in [
            [1, 2, 3, 4],
            [1, 1, 3, 4],
            [1, 2, 2, 4],
            [1, 2, 3, 3],
            [2, 1, 1, 4],
        ] {
            let sum: f64 = place_points(&places).iter().sum();
            assert!((sum - 2.0).abs() < 1e-12, "{places:?}");
        }
        // Two players: win, draw, loss.
        assert!(close(&place_points(&[1, 2]), &[1.0, 0.0]));
        assert!(close(&place_points(&[1, 1]), &[0.5, 0.5]));
    }

    #[test]
    fn engine_scores_average_their_seats() {
        // Two engines, partners opposite (A B A B): A 1st and 4th, B 2nd and 3rd.
        let scores = engine_scores(&[0, 1, 0, 1], &[1, 2, 4, 3], 2);
        assert!(close(&scores, &[0.5, 0.5]));
        let scores = engine_scores(&[0, 1, 0, 1], &[1, 3, 2, 4], 2);
        assert!(close(&scores, &[5.0 / 6.0, 1.0 / 6.0]));
        let scores = engine_scores(&[2, 3, 0, 1], &[1, 3, 2, 4], 4);
        assert!(close(&scores, &[2.0 / 3.0, 0.0, 1.0, 1.0 / 3.0]));
    }

    #[test]
    fn rankings() {
        assert_eq!(competition_ranking(&[3.0, 1.0, 3.0, 0.0]), vec![1, 3, 1, 4]);
        assert_eq!(competition_ranking(&[1.0, 1.0]), vec![1, 1]);
        assert_eq!(ordinal(1), "1st");
        assert_eq!(ordinal(3), "3rd");
    }

    #[test]
    fn records_of_four_seats_and_of_dice() {
        let record = GameRecord {
            id: 5,
            pair: 1,
            seed: 42,
            dice_seed: 7,
            game: "yonin".into(),
            engines: vec!["A".into(), "B".into(), "C".into(), "D".into()],
            seats: vec![1, 2, 3, 0],
            opening: Opening {
                sfen: None,
                moves: Vec::new(),
            },
            tc: "nodes=100".into(),
            moves: vec!["5g5f".into()],
            movers: vec![1],
            mover_seats: vec![0],
            times_ms: vec![3],
            winner: Some(2),
            places: vec![3, 4, 1, 2],
            points: 0,
            reason: "second-checkmate".into(),
            detail: String::new(),
            scores: engine_scores(&[1, 2, 3, 0], &[3, 4, 1, 2], 4),
        };
        let back = GameRecord::from_json(&json::parse(&record.to_json()).unwrap()).unwrap();
        assert_eq!(back, record);
        assert_eq!(record.result_text(), "places 3,4,1,2");
        let text = record.to_text();
        assert!(
            text.contains("[Seat 2] D") && text.contains("[Seat 0] B"),
            "{text}"
        );
        assert!(text.contains("1.0 5g5f"), "{text}");
        assert!(
            text.contains("1st 2 (D)") && text.contains("4th 1 (C)"),
            "{text}"
        );

        let dice = GameRecord {
            game: "sugoroku".into(),
            engines: vec!["A".into(), "B".into()],
            seats: vec![1, 0],
            moves: vec!["52:13/8,13/11".into(), "31:pass".into()],
            movers: vec![1, 0],
            mover_seats: vec![0, 1],
            times_ms: vec![3, 4],
            winner: Some(0),
            places: vec![1, 2],
            points: 2,
            reason: "all-home".into(),
            scores: vec![0.0, 1.0],
            ..record
        };
        assert_eq!(dice.signed_points(), vec![-2.0, 2.0]);
        let text = dice.to_text();
        assert!(text.contains("b (B) wins 2 points"), "{text}");
        assert!(text.contains("52:13/8,13/11"), "{text}");
        let back = GameRecord::from_json(&json::parse(&dice.to_json()).unwrap()).unwrap();
        assert_eq!(back, dice);
    }
}
