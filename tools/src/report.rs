//! Totals over game records: wins/draws/losses of the first engine, the
//! pentanomial counts of complete pairings, Elo, SPRT, reasons, move times.

use crate::record::GameRecord;
use crate::stats::{elo_estimate, llr, Distribution, Sprt, SprtDecision};
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
}

impl Totals {
    /// Totals of `records` (each id once), pairs complete when they hold
    /// `per_pair` games.
    pub fn of(records: &[GameRecord], engines: usize, per_pair: u64) -> Totals {
        let mut totals = Totals {
            moves: vec![(0, 0, 0); engines],
            ..Totals::default()
        };
        let mut pairs: BTreeMap<u64, (u64, f64)> = BTreeMap::new();
        for record in records {
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
        let mut text = format!("+{} ={} -{}", self.wins, self.draws, self.losses);
        if let Some(est) = elo_estimate(&self.distribution().0) {
            if est.error.is_finite() {
                let _ = write!(text, " elo {:+.0}±{:.0}", est.elo, est.error);
            } else {
                let _ = write!(text, " elo {:+.0}", est.elo);
            }
        }
        if let Some(sprt) = sprt {
            let _ = write!(text, " llr {:.2}", self.llr(sprt));
        }
        text
    }

    /// The summary printed at the end (stdout).
    pub fn summary(&self, engines: &[String], sprt: Option<&Sprt>) -> String {
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
                    "Elo difference: {:+.1} +/- {:.1} (95%, {model})  LOS {:.1}%",
                    est.elo,
                    est.error,
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
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schedule::Opening;

    fn game(id: u64, score_a: f64, reason: &str) -> GameRecord {
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
            times_ms: vec![10, 30],
            winner: None,
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
}
