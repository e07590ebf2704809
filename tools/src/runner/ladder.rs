//! The ladder: strength levels calibrated by matches between neighbours.
//!
//! Each neighbouring pair of levels (and with `two_apart` each pair two
//! apart) plays a match through the runner, all into one results file (a
//! `ladder` header, then the games, each naming its two levels), resumable
//! and shardable like a match; then one Elo per level is fitted to every game
//! at once ([`crate::stats::fit`]), the first level fixed at 0. See docs/match.md,
//! "Ladder".

use crate::json;
use crate::results::{commands, header_fields as match_fields, header_text, open_results, Merged};
use crate::runner::config::MatchConfig;
use crate::runner::engine::EngineSpec;
use crate::runner::play_rest;
use crate::runner::record::GameRecord;
use crate::runner::report::Totals;
use crate::runner::{game_list, RunOptions};
use crate::stats::fit::{fit, Game};
use std::fmt::Write;

/// Virtual draws the fit adds between every two levels that met (see
/// [`crate::stats::fit`]): what keeps a clean sweep finite.
pub const PRIOR_DRAWS: f64 = 1.0;

/// A ladder: the levels and what every pair's match shares.
#[derive(Clone, Debug)]
pub struct LadderConfig {
    /// The match settings of every pair (game, rules, time control, games per
    /// pair, seed, openings, limits, shard); its engines are each pair's two
    /// levels.
    pub base: MatchConfig,
    /// The levels in order, the anchor (Elo 0) first.
    pub levels: Vec<EngineSpec>,
    /// Also play the levels two apart.
    pub two_apart: bool,
}

/// Whether `levels` make a ladder: two or more, the names distinct.
pub fn check_levels(levels: &[EngineSpec]) -> Result<(), String> {
    if levels.len() < 2 {
        return Err(format!(
            "a ladder needs two --level or more (got {})",
            levels.len()
        ));
    }
    for (i, level) in levels.iter().enumerate() {
        if levels[..i].iter().any(|other| other.name == level.name) {
            return Err(format!(
                "two levels are named '{}': give them name=…",
                level.name
            ));
        }
    }
    Ok(())
}

impl LadderConfig {
    pub fn new(
        base: MatchConfig,
        levels: Vec<EngineSpec>,
        two_apart: bool,
    ) -> Result<LadderConfig, String> {
        check_levels(&levels)?;
        Ok(LadderConfig {
            base,
            levels,
            two_apart,
        })
    }

    pub fn names(&self) -> Vec<String> {
        self.levels.iter().map(|l| l.name.clone()).collect()
    }

    /// The pairs played, in order: every two neighbours from the bottom, then
    /// (`two_apart`) every two levels two apart. The lower level comes first
    /// (the one each match scores).
    pub fn pairs(&self) -> Vec<(usize, usize)> {
        let n = self.levels.len();
        let mut pairs: Vec<(usize, usize)> = (0..n - 1).map(|k| (k, k + 1)).collect();
        if self.two_apart {
            pairs.extend((0..n.saturating_sub(2)).map(|k| (k, k + 2)));
        }
        pairs
    }

    /// The match of one pair.
    pub fn pair_config(&self, (a, b): (usize, usize)) -> MatchConfig {
        MatchConfig {
            engines: vec![self.levels[a].clone(), self.levels[b].clone()],
            ..self.base.clone()
        }
    }

    /// The header fields a resume must find unchanged: the match's, with the
    /// levels and the pairs in place of the engines.
    fn header_fields(&self) -> Vec<(&'static str, String)> {
        let names = self.names();
        let pairs: Vec<String> = self
            .pairs()
            .iter()
            .map(|&(a, b)| json::str_array(&[&names[a], &names[b]]))
            .collect();
        let mut fields = Vec::new();
        for (key, value) in match_fields(&self.base) {
            match key {
                "engines" => {
                    fields.push(("levels", json::str_array(&names)));
                    fields.push(("pairs", format!("[{}]", pairs.join(","))));
                }
                "commands" => fields.push((key, commands(&self.levels))),
                _ => fields.push((key, value)),
            }
        }
        fields
    }

    pub fn header_line(&self) -> String {
        header_text("ladder", &self.header_fields())
    }
}

/// What a ladder run ends with.
pub struct LadderOutcome {
    /// Every game of this shard, recorded before or played now.
    pub records: Vec<GameRecord>,
    /// The fitted table ([`table`]).
    pub table: String,
}

/// Plays the ladder's pairs one after the other (each a match of
/// `options.concurrency` games at a time), all games into `options.out`
/// (resumed with `options.resume`), and fits the table.
pub fn run(config: &LadderConfig, options: &RunOptions) -> Result<LadderOutcome, String> {
    let pairs = config.pairs();
    // Every game list first: a bad openings file fails before any file is touched.
    let lists = pairs
        .iter()
        .map(|&pair| game_list(&config.pair_config(pair)))
        .collect::<Result<Vec<_>, _>>()?;
    let (previous, out) = open_results(
        options,
        "ladder",
        &config.header_line(),
        &config.header_fields(),
    )?;
    let pair_options = RunOptions {
        out: None,
        resume: false,
        sprt: None,
        ..options.clone()
    };
    let names = config.names();
    let mut records = Vec::new();
    for (&(a, b), games) in pairs.iter().zip(lists) {
        let engines = [names[a].clone(), names[b].clone()];
        let before: Vec<GameRecord> = previous
            .iter()
            .filter(|r| r.engines == engines)
            .cloned()
            .collect();
        let handle = match &out {
            Some(file) => Some(file.try_clone().map_err(|e| format!("results file: {e}"))?),
            None => None,
        };
        let outcome = play_rest(
            &config.pair_config((a, b)),
            &pair_options,
            games,
            before,
            handle,
        )?;
        records.extend(outcome.records);
    }
    let table = table(
        config.base.game.name(),
        &names,
        &config.base.tc.describe(),
        &records,
    )?;
    Ok(LadderOutcome { records, table })
}

/// The table of merged ladder files (`match merge`).
pub fn merged_table(merged: &Merged) -> Result<String, String> {
    if merged.kind != "ladder" {
        return Err(format!("the results of a {}, not of a ladder", merged.kind));
    }
    let levels = merged.strings("levels");
    let game = merged.str_field("game").unwrap_or_default();
    let tc = merged.str_field("tc").unwrap_or_default();
    table(&game, &levels, &tc, &merged.records)
}

/// The fitted Elo of every level, as printed: one line per level with its
/// Elo, the half-width of its 95 % interval, its games and its score against
/// the next level. Games between levels not both in `levels` are left out.
pub fn table(
    game: &str,
    levels: &[String],
    tc: &str,
    records: &[GameRecord],
) -> Result<String, String> {
    let index = |name: &String| levels.iter().position(|l| l == name);
    let mut games = Vec::new();
    let mut counted = Vec::new();
    for record in records {
        let (Some(a), Some(b)) = (
            record.engines.first().and_then(index),
            record.engines.get(1).and_then(index),
        ) else {
            continue;
        };
        if a == b || record.engines.len() != 2 {
            continue;
        }
        games.push(Game {
            a,
            b,
            score: record
                .scores
                .first()
                .copied()
                .unwrap_or(0.5)
                .clamp(0.0, 1.0),
            // One unit per pairing of one pair of levels.
            unit: ((a * levels.len() + b) as u64) << 40 | record.pair,
        });
        counted.push(record);
    }
    let fitted = fit(levels.len(), &games, PRIOR_DRAWS)?;
    let seats = yomi_engine::registry::find(game).map_or(2, |entry| entry.seats);
    let dice = crate::runner::record::scores_points(game);
    let per_pair = crate::runner::schedule::seatings(seats, 2).len() as u64;

    let width = levels.iter().map(|l| l.len()).max().unwrap_or(5).max(5);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "Ladder {game}: {} levels, {} games, {tc}; Elo by maximum likelihood, {} = 0",
        levels.len(),
        games.len(),
        levels[0]
    );
    let _ = writeln!(
        out,
        "  {:<width$}  {:>6}  {:>6}  {:>5}  score vs next",
        "level", "Elo", "95%", "games"
    );
    for (k, name) in levels.iter().enumerate() {
        let elo = fitted.elo[k];
        let (elo_text, error_text) = if k == 0 {
            ("0".to_string(), "anchor".to_string())
        } else if elo.is_nan() {
            ("-".to_string(), "-".to_string())
        } else {
            (format!("{elo:+.0}"), format!("{:.0}", fitted.error[k]))
        };
        let mut line = format!(
            "  {name:<width$}  {elo_text:>6}  {error_text:>6}  {:>5}",
            fitted.games[k]
        );
        if let Some(next) = levels.get(k + 1) {
            let pair: Vec<GameRecord> = counted
                .iter()
                .filter(|r| r.engines[0] == *name && r.engines[1] == *next)
                .map(|r| (*r).clone())
                .collect();
            if !pair.is_empty() {
                let totals = Totals::of(&pair, 2, per_pair);
                let score = totals.standings[0].score();
                let _ = write!(line, "  {:.1}%", score * 100.0);
                if seats == 2 {
                    let _ = write!(
                        line,
                        " +{} ={} -{}",
                        totals.wins, totals.draws, totals.losses
                    );
                }
                let _ = write!(line, " vs {next}");
                if dice {
                    if let Some((mean, _, _)) = totals.points_per_game(0) {
                        let _ = write!(line, ", points/game {mean:+.2}");
                    }
                }
            }
        }
        let _ = writeln!(out, "{}", line.trim_end());
    }
    let _ = writeln!(
        out,
        "(one virtual draw between every two levels that met; 95% intervals over pairings)"
    );
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(engines: [&str; 2], id: u64, score: f64) -> GameRecord {
        GameRecord {
            engines: engines.iter().map(|e| e.to_string()).collect(),
            ..crate::runner::report::tests::game(id, score, "five-captured")
        }
    }

    #[test]
    fn the_table_has_a_line_per_level_with_the_fit_and_the_neighbour_scores() {
        let levels: Vec<String> = ["low", "mid", "high"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let mut records = Vec::new();
        // low scores 1 of 4 against mid, mid 2 of 4 (two draws) against high.
        for (id, score) in [0.0, 1.0, 0.0, 0.0].into_iter().enumerate() {
            records.push(record(["low", "mid"], id as u64, score));
        }
        for (id, score) in [1.0, 0.5, 0.0, 0.5].into_iter().enumerate() {
            records.push(record(["mid", "high"], id as u64, score));
        }
        // Not a pair of this ladder: left out.
        records.push(record(["low", "stranger"], 0, 1.0));
        let text = table("hasami", &levels, "nodes=1", &records).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines[0],
            "Ladder hasami: 3 levels, 8 games, nodes=1; Elo by maximum likelihood, low = 0"
        );
        assert_eq!(
            lines[2],
            "  low         0  anchor      4  25.0% +1 =0 -3 vs mid"
        );
        assert!(lines[3].contains("  8  50.0% +1 =2 -1 vs high"), "{text}");
        assert!(lines[4].trim_end().ends_with(" 4"), "{text}");
        // The fit itself: mid above low, high level with mid.
        let mid: f64 = lines[3].split_whitespace().nth(1).unwrap().parse().unwrap();
        let high: f64 = lines[4].split_whitespace().nth(1).unwrap().parse().unwrap();
        assert!(mid > 50.0 && (high - mid).abs() < 1.0, "{text}");
    }

    #[test]
    fn levels_without_games_have_no_rating() {
        let levels: Vec<String> = ["a", "b", "c"].iter().map(|s| s.to_string()).collect();
        let records = vec![record(["a", "b"], 0, 0.0), record(["a", "b"], 1, 0.0)];
        let text = table("hasami", &levels, "nodes=1", &records).unwrap();
        let last = text.lines().nth(4).unwrap();
        assert_eq!(
            last.split_whitespace().collect::<Vec<_>>(),
            ["c", "-", "-", "0"]
        );
    }
}
