//! The record of a finished game: one JSON line in the results file and a
//! readable block in the text record.

use crate::json::{self, Json, ObjectWriter};
use crate::schedule::Opening;
use std::fmt::Write;

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
    /// Milliseconds from `go` to `bestmove`, per move (the last entry may be a
    /// rejected move's: `times_ms` can be one longer than `moves`).
    pub times_ms: Vec<u64>,
    /// Winning seat, `None` for a draw.
    pub winner: Option<usize>,
    pub reason: String,
    pub detail: String,
    /// Score of each engine (1, ½, 0), by engine index.
    pub scores: Vec<f64>,
}

pub fn seat_name(seat: usize) -> String {
    match seat {
        0 => "b".into(),
        1 => "w".into(),
        n => n.to_string(),
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
    /// `1-0`, `0-1`, `1/2-1/2` (two players), else `winner <seat>` / `draw`.
    pub fn result_text(&self) -> String {
        match (self.seats.len(), self.winner) {
            (2, Some(0)) => "1-0".into(),
            (2, Some(1)) => "0-1".into(),
            (2, None) => "1/2-1/2".into(),
            (_, Some(seat)) => format!("winner {}", seat_name(seat)),
            (_, None) => "draw".into(),
        }
    }

    pub fn to_json(&self) -> String {
        let seat_names: Vec<&str> = self
            .seats
            .iter()
            .map(|&e| self.engines[e].as_str())
            .collect();
        let nums = |v: &[u64]| {
            let items: Vec<String> = v.iter().map(u64::to_string).collect();
            format!("[{}]", items.join(","))
        };
        let movers: Vec<u64> = self.movers.iter().map(|&m| m as u64).collect();
        let seats: Vec<u64> = self.seats.iter().map(|&m| m as u64).collect();
        let scores: Vec<String> = self.scores.iter().map(|s| format!("{s}")).collect();
        let mut opening = ObjectWriter::new();
        opening
            .opt_str("sfen", self.opening.sfen.as_deref())
            .raw("moves", &json::str_array(&self.opening.moves));
        ObjectWriter::new()
            .str("type", "game")
            .num("id", self.id)
            .num("pair", self.pair)
            .num("seed", self.seed)
            .num("dice_seed", self.dice_seed)
            .str("game", &self.game)
            .raw("engines", &json::str_array(&self.engines))
            .raw("seats", &json::str_array(&seat_names))
            .raw("seat_engines", &nums(&seats))
            .raw("opening", &opening.finish())
            .str("tc", &self.tc)
            .raw("moves", &json::str_array(&self.moves))
            .raw("movers", &nums(&movers))
            .raw("times_ms", &nums(&self.times_ms))
            .str("result", &self.result_text())
            .opt_str("winner", self.winner.map(seat_name).as_deref())
            .str("reason", &self.reason)
            .str("detail", &self.detail)
            .raw("scores", &format!("[{}]", scores.join(",")))
            .finish()
    }

    pub fn from_json(value: &Json) -> Result<GameRecord, String> {
        let need = |key: &str| {
            value
                .get(key)
                .ok_or_else(|| format!("game record without '{key}'"))
        };
        let u64s = |key: &str| -> Result<Vec<u64>, String> {
            need(key)?
                .as_array()
                .ok_or_else(|| format!("'{key}' is not an array"))?
                .iter()
                .map(|v| v.as_u64().ok_or_else(|| format!("'{key}': not a count")))
                .collect()
        };
        let opening = need("opening")?;
        let scores = need("scores")?
            .as_array()
            .ok_or("'scores' is not an array")?
            .iter()
            .map(|v| v.as_f64().ok_or("'scores': not a number"))
            .collect::<Result<Vec<f64>, _>>()?;
        Ok(GameRecord {
            id: value.u64_field("id").ok_or("game record without an id")?,
            pair: value
                .u64_field("pair")
                .ok_or("game record without a pair")?,
            seed: value.u64_field("seed").unwrap_or(0),
            dice_seed: value.u64_field("dice_seed").unwrap_or(0),
            game: value.str_field("game").unwrap_or("").to_string(),
            engines: value.strings("engines"),
            seats: u64s("seat_engines")?
                .into_iter()
                .map(|s| s as usize)
                .collect(),
            opening: Opening {
                sfen: opening.str_field("sfen").map(str::to_string),
                moves: opening.strings("moves"),
            },
            tc: value.str_field("tc").unwrap_or("").to_string(),
            moves: value.strings("moves"),
            movers: u64s("movers")?.into_iter().map(|s| s as usize).collect(),
            times_ms: u64s("times_ms")?,
            winner: value.str_field("winner").and_then(seat_of_name),
            reason: value.str_field("reason").unwrap_or("").to_string(),
            detail: value.str_field("detail").unwrap_or("").to_string(),
            scores,
        })
    }

    /// The readable record: headers, then the moves with their times.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "[Game {}] {} pair {}", self.id, self.game, self.pair);
        for (seat, &engine) in self.seats.iter().enumerate() {
            let _ = writeln!(out, "[Seat {}] {}", seat_name(seat), self.engines[engine]);
        }
        let _ = writeln!(out, "[Opening] {}", self.opening.describe());
        let _ = writeln!(out, "[TimeControl] {}", self.tc);
        let winner = match self.winner {
            Some(seat) => format!(
                "{} ({}) wins",
                seat_name(seat),
                self.engines[self.seats[seat]]
            ),
            None => "draw".to_string(),
        };
        let _ = writeln!(
            out,
            "[Result] {} {winner}, {}",
            self.result_text(),
            self.reason
        );
        if !self.detail.is_empty() {
            let _ = writeln!(out, "[Detail] {}", self.detail);
        }
        let first_ply = self.opening.moves.len();
        let mut line = String::new();
        for (i, mv) in self.moves.iter().enumerate() {
            let seat = self
                .seats
                .iter()
                .position(|&e| Some(&e) == self.movers.get(i))
                .map(seat_name)
                .unwrap_or_default();
            let time = self.times_ms.get(i).copied().unwrap_or(0);
            let _ = write!(
                line,
                "{:>4}.{seat} {mv:<6} {time:>6}ms  ",
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

#[cfg(test)]
mod tests {
    use super::*;

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
            times_ms: vec![3, 4, 9],
            winner: Some(1),
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
}
