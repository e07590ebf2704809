//! Runs a match: the game list of this shard minus the games already recorded,
//! played by worker threads that each own their engine processes; results are
//! appended to the JSON lines file as they finish, the SPRT can stop the match
//! early, and shard outputs merge into one result.

pub mod config;
pub mod engine;
pub mod game;
pub mod ladder;
pub mod luck;
pub mod record;
pub mod report;
pub mod schedule;

use crate::results::{header_fields, header_line, open_results, Merged};
use crate::runner::config::MatchConfig;
use crate::runner::game::{play_game, Engines};
use crate::runner::record::GameRecord;
use crate::runner::report::Totals;
use crate::runner::schedule::{games_of, games_per_pair, shard_pairs, GameSpec, Openings};
use crate::stats::{Sprt, SprtDecision};
use std::collections::BTreeSet;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Duration;

/// How a run is carried out (none of this changes the game list).
#[derive(Clone, Debug, Default)]
pub struct RunOptions {
    /// JSON lines results file.
    pub out: Option<PathBuf>,
    /// Continue the run recorded in `out`.
    pub resume: bool,
    /// Overwrite an existing `out`.
    pub force: bool,
    /// Readable game records (appended).
    pub record: Option<PathBuf>,
    pub concurrency: usize,
    pub sprt: Option<Sprt>,
    /// No progress lines (warnings still go to stderr).
    pub quiet: bool,
}

struct Shared {
    records: Vec<GameRecord>,
    out: Option<File>,
    record: Option<File>,
    stop: bool,
    total: usize,
}

/// What a run ends with.
pub struct Outcome {
    pub totals: Totals,
    pub summary: String,
    pub stopped_early: bool,
    /// Every game, the earlier ones first (a run's in the order they ended).
    pub records: Vec<GameRecord>,
}

fn sprt_decided(totals: &Totals, sprt: Option<&Sprt>) -> bool {
    sprt.is_some_and(|s| s.decide(totals.llr(s)) != SprtDecision::Continue)
}

/// The games of this shard, in order (openings checked).
pub fn game_list(config: &MatchConfig) -> Result<Vec<GameSpec>, String> {
    let openings = Openings::load(config)?;
    games_of(config, &openings, &shard_pairs(config))
}

pub fn run(config: &MatchConfig, options: &RunOptions) -> Result<Outcome, String> {
    let games = game_list(config)?;
    let (previous, out) =
        open_results(options, "run", &header_line(config), &header_fields(config))?;
    play_rest(config, options, games, previous, out)
}

const SUGOROKU: &str =
    <yomi_engine::sugoroku::Sugoroku as yomi_engine::session::Playable>::PROFILE.name;

/// Plays the `games` ([`game_list`]) not among `previous` (the games
/// already recorded), appending each to `out` as it ends (`options.out` is
/// not read: the caller has opened the file and written what it needs
/// first), and sums up `previous` with them. What [`run`] does once the
/// results file is open; the ladder plays several matches into one file
/// with it.
pub fn play_rest(
    config: &MatchConfig,
    options: &RunOptions,
    games: Vec<GameSpec>,
    previous: Vec<GameRecord>,
    out: Option<File>,
) -> Result<Outcome, String> {
    let per_pair = games_per_pair(config);
    let names: Vec<String> = config.engines.iter().map(|e| e.name.clone()).collect();
    let record = match &options.record {
        Some(path) => Some(
            OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .map_err(|e| format!("{}: {e}", path.display()))?,
        ),
        None => None,
    };
    let done: BTreeSet<u64> = previous.iter().map(|r| r.id).collect();
    let pending: Vec<_> = games
        .into_iter()
        .filter(|g| !done.contains(&g.id))
        .collect();
    let sprt = options.sprt.as_ref();
    let already = Totals::of(&previous, names.len(), per_pair);
    let total = previous.len() + pending.len();
    if !options.quiet {
        eprintln!(
            "match {}: {}, {} games in this shard ({} recorded, {} to play), {}, concurrency {}",
            config.game.name(),
            names.join(" vs "),
            total,
            previous.len(),
            pending.len(),
            config.tc.describe(),
            options.concurrency
        );
    }
    let shared = Mutex::new(Shared {
        stop: sprt_decided(&already, sprt),
        records: previous,
        out,
        record,
        total,
    });
    let next = AtomicUsize::new(0);
    let workers = options.concurrency.max(1).min(pending.len().max(1));
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| {
                let mut engines: Engines = (0..config.engines.len()).map(|_| None).collect();
                loop {
                    if shared.lock().unwrap().stop {
                        break;
                    }
                    let index = next.fetch_add(1, Ordering::SeqCst);
                    let Some(spec) = pending.get(index) else {
                        break;
                    };
                    let mut log = |line: String| eprintln!("warning: {line}");
                    let result = play_game(config, spec, &mut engines, &mut log);
                    let mut state = shared.lock().unwrap();
                    if let Some(out) = state.out.as_mut() {
                        if let Err(e) =
                            writeln!(out, "{}", result.to_json()).and_then(|_| out.flush())
                        {
                            eprintln!("warning: cannot write results: {e}");
                        }
                    }
                    if let Some(file) = state.record.as_mut() {
                        let _ = file
                            .write_all(result.to_text().as_bytes())
                            .and_then(|_| file.flush());
                    }
                    state.records.push(result);
                    let totals = Totals::of(&state.records, names.len(), per_pair);
                    if !options.quiet {
                        let result = state.records.last().unwrap();
                        let seats: Vec<String> = result
                            .seats
                            .iter()
                            .enumerate()
                            .map(|(seat, &e)| {
                                let seat =
                                    crate::runner::record::seat_name(seat, result.seats.len());
                                format!("{}({seat})", names[e])
                            })
                            .collect();
                        eprintln!(
                            "[{}/{}] game {} {} {} {} ply {} | {}: {}",
                            state.records.len(),
                            state.total,
                            result.id,
                            seats.join(" vs "),
                            result.result_text(),
                            result.reason,
                            result.opening.moves.len() + result.moves.len(),
                            names[0],
                            totals.short(sprt)
                        );
                    }
                    if sprt_decided(&totals, sprt) {
                        state.stop = true;
                    }
                }
                for engine in engines.into_iter().flatten() {
                    engine.quit(Duration::from_millis(500));
                }
            });
        }
    });
    let state = shared.into_inner().unwrap();
    let mut totals = Totals::of(&state.records, names.len(), per_pair);
    if config.game.name() == SUGOROKU {
        totals.luck_adjusted = Some(luck::luck_adjusted_points(
            &state.records,
            &config.rules,
            per_pair,
        ));
    }
    let stopped_early = state.records.len() < total;
    let mut summary = totals.summary(&names, sprt);
    if stopped_early {
        summary.push_str(&format!(
            "Stopped early by the SPRT after {} of {} games\n",
            state.records.len(),
            total
        ));
    }
    Ok(Outcome {
        totals,
        summary,
        stopped_early,
        records: state.records,
    })
}

/// The summary of a merged match (not a ladder: see `ladder::merged_table`).
pub fn merged_outcome(merged: Merged, sprt: Option<&Sprt>) -> Result<Outcome, String> {
    if merged.kind != "run" {
        return Err(format!("the results of a {}, not of a match", merged.kind));
    }
    let names = merged.strings("engines");
    let game = merged.str_field("game").unwrap_or_default();
    let seats = yomi_engine::registry::find(&game).map_or(2, |entry| entry.seats);
    let per_pair = crate::runner::schedule::seatings(seats, names.len()).len() as u64;
    let rules: Vec<(String, String)> = merged
        .strings("rules")
        .iter()
        .filter_map(|rule| rule.split_once('='))
        .map(|(name, value)| (name.to_string(), value.to_string()))
        .collect();
    let records = merged.records;
    let mut totals = Totals::of(&records, names.len().max(2), per_pair);
    if game == SUGOROKU {
        totals.luck_adjusted = Some(luck::luck_adjusted_points(&records, &rules, per_pair));
    }
    let summary = totals.summary(&names, sprt);
    Ok(Outcome {
        totals,
        summary,
        stopped_early: false,
        records,
    })
}
