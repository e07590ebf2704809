//! Runs a match: the game list of this shard minus the games already recorded,
//! played by worker threads that each own their engine processes; results are
//! appended to the JSON lines file as they finish, the SPRT can stop the match
//! early, and shard outputs merge into one result.

use crate::config::MatchConfig;
use crate::game::{play_game, Engines};
use crate::json::{self, ObjectWriter};
use crate::record::GameRecord;
use crate::report::Totals;
use crate::schedule::{games_of, games_per_pair, shard_pairs, GameSpec, Openings};
use crate::stats::{Sprt, SprtDecision};
use std::collections::BTreeSet;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
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

/// The fields of the header line that must agree between a run and its resume
/// (all of them) or between shards (all but `shard`).
pub(crate) fn header_fields(config: &MatchConfig) -> Vec<(&'static str, String)> {
    let names: Vec<&str> = config.engines.iter().map(|e| e.name.as_str()).collect();
    let rules: Vec<String> = config
        .rules
        .iter()
        .map(|(n, v)| format!("{n}={v}"))
        .collect();
    let openings = format!(
        "{}+{}",
        config.openings.file.as_deref().unwrap_or("startpos"),
        config.openings.random_plies
    );
    vec![
        ("game", json::quote(config.game.name)),
        ("engines", json::str_array(&names)),
        ("tc", json::quote(&config.tc.describe())),
        ("games", config.games.to_string()),
        ("seed", config.seed.to_string()),
        ("openings", json::quote(&openings)),
        ("max_plies", config.max_plies.to_string()),
        ("rules", json::str_array(&rules)),
        (
            "shard",
            json::quote(&format!("{}/{}", config.shard.0 + 1, config.shard.1)),
        ),
    ]
}

pub fn header_line(config: &MatchConfig) -> String {
    header_text("run", &header_fields(config))
}

/// A header line: its `type` (`run`, `ladder`, `tune`), version 1, then the
/// fields (each value JSON text).
pub(crate) fn header_text(kind: &str, fields: &[(&str, String)]) -> String {
    let mut w = ObjectWriter::new();
    w.str("type", kind).num("version", 1);
    for (key, value) in fields {
        w.raw(key, value);
    }
    w.finish()
}

/// A results file read back: its header (as JSON text per field) and games.
pub struct ResultsFile {
    /// The header's `type`: `run` (a match) or `ladder`.
    pub kind: String,
    pub header: Vec<(String, String)>,
    pub records: Vec<GameRecord>,
    /// Lines that could not be read (a run killed mid-write leaves one).
    pub skipped: usize,
    pub ends_with_newline: bool,
}

/// Re-serialises a parsed JSON value in the writer's canonical form, to compare
/// header fields.
pub(crate) fn canonical(value: &json::Json) -> String {
    match value {
        json::Json::Null => "null".into(),
        json::Json::Bool(b) => b.to_string(),
        json::Json::Num(n) => {
            if n.fract() == 0.0 && n.abs() < 1e18 {
                format!("{}", *n as i64)
            } else {
                n.to_string()
            }
        }
        json::Json::Str(s) => json::quote(s),
        json::Json::Arr(items) => {
            let items: Vec<String> = items.iter().map(canonical).collect();
            format!("[{}]", items.join(","))
        }
        json::Json::Obj(map) => {
            let mut w = ObjectWriter::new();
            for (k, v) in map {
                w.raw(k, &canonical(v));
            }
            w.finish()
        }
    }
}

/// The fields of a header line but `type` and `version`, each as canonical
/// JSON text, to compare with [`differences`].
pub(crate) fn header_of(value: &json::Json) -> Vec<(String, String)> {
    match value {
        json::Json::Obj(map) => map
            .iter()
            .filter(|(k, _)| k.as_str() != "type" && k.as_str() != "version")
            .map(|(k, v)| (k.clone(), canonical(v)))
            .collect(),
        _ => Vec::new(),
    }
}

pub fn read_results(path: &Path) -> Result<ResultsFile, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut file = ResultsFile {
        kind: String::new(),
        header: Vec::new(),
        records: Vec::new(),
        skipped: 0,
        ends_with_newline: text.is_empty() || text.ends_with('\n'),
    };
    for line in text.lines() {
        if line.trim().is_empty() {
            continue;
        }
        let value = match json::parse(line) {
            Ok(v) => v,
            Err(_) => {
                file.skipped += 1;
                continue;
            }
        };
        match value.str_field("type") {
            Some(kind @ ("run" | "ladder")) => {
                file.kind = kind.to_string();
                file.header = header_of(&value);
            }
            Some("game") => match GameRecord::from_json(&value) {
                Ok(record) => file.records.push(record),
                Err(_) => file.skipped += 1,
            },
            _ => file.skipped += 1,
        }
    }
    if file.header.is_empty() {
        return Err(format!(
            "{}: no run header line (not a match results file?)",
            path.display()
        ));
    }
    Ok(file)
}

/// The fields of a file's `header` (as read: JSON text per field) that
/// differ from the `expected` ones (ignoring `skip`).
pub fn differences(
    header: &[(String, String)],
    expected: &[(&str, String)],
    skip: &[&str],
) -> Vec<String> {
    expected
        .iter()
        .filter(|(key, _)| !skip.contains(key))
        .filter_map(|(key, value)| {
            let found = header
                .iter()
                .find(|(k, _)| k == key)
                .map(|(_, v)| v.as_str());
            (found != Some(value.as_str())).then(|| {
                format!(
                    "{key}: file has {}, this run {value}",
                    found.unwrap_or("nothing")
                )
            })
        })
        .collect()
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

/// Opens `options.out` for a run: a new file gets `header` as its first line
/// (an existing non-empty one is refused unless `force`); with `resume` an
/// existing file must have a header of that `kind` with the `fields`
/// expected, and its games (each engine pairing's id once) come back to be
/// skipped, the file open for appending.
pub fn open_results(
    options: &RunOptions,
    kind: &str,
    header: &str,
    fields: &[(&str, String)],
) -> Result<(Vec<GameRecord>, Option<File>), String> {
    let Some(path) = &options.out else {
        return Ok((Vec::new(), None));
    };
    if options.resume && path.exists() {
        let file = read_results(path)?;
        if file.kind != kind {
            return Err(format!(
                "{}: the results of a {}, not of a {kind}",
                path.display(),
                file.kind
            ));
        }
        let diff = differences(&file.header, fields, &[]);
        if !diff.is_empty() {
            return Err(format!(
                "{}: recorded with other settings: {}",
                path.display(),
                diff.join("; ")
            ));
        }
        if file.skipped > 0 {
            eprintln!(
                "warning: {}: {} unreadable line(s) skipped",
                path.display(),
                file.skipped
            );
        }
        let mut seen = BTreeSet::new();
        let previous = file
            .records
            .into_iter()
            .filter(|r| seen.insert((r.engines.clone(), r.id)))
            .collect();
        let handle = append_results(path, file.ends_with_newline)?;
        return Ok((previous, Some(handle)));
    }
    let handle = create_results(path, options.force || options.resume, header)?;
    Ok((Vec::new(), Some(handle)))
}

/// Creates a results file with `header` as its first line; an existing
/// non-empty one is refused unless `force`.
pub fn create_results(path: &Path, force: bool, header: &str) -> Result<File, String> {
    if !force && path.metadata().is_ok_and(|m| m.len() > 0) {
        return Err(format!(
            "{} exists: use --resume to continue it or --force to overwrite it",
            path.display()
        ));
    }
    let mut handle = File::create(path).map_err(|e| format!("{}: {e}", path.display()))?;
    writeln!(handle, "{header}").map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(handle)
}

/// Opens a results file to append to it, ending a torn last line first.
pub fn append_results(path: &Path, ends_with_newline: bool) -> Result<File, String> {
    let mut handle = OpenOptions::new()
        .append(true)
        .open(path)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    if !ends_with_newline {
        let _ = handle.write_all(b"\n");
    }
    Ok(handle)
}

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
            config.game.name,
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
                                let seat = crate::record::seat_name(seat, result.seats.len());
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
    let totals = Totals::of(&state.records, names.len(), per_pair);
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

/// Shard outputs (or runs) of one match or one ladder, merged.
pub struct Merged {
    /// `run` or `ladder`.
    pub kind: String,
    /// The header fields but `shard`, as JSON text.
    pub header: Vec<(String, String)>,
    /// Each game once (one id per engine pairing), by engines and id.
    pub records: Vec<GameRecord>,
}

impl Merged {
    /// A header field as JSON text.
    pub fn field(&self, key: &str) -> Option<&str> {
        self.header
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// A header field holding a string.
    pub fn str_field(&self, key: &str) -> Option<String> {
        json::parse(self.field(key)?)
            .ok()?
            .as_str()
            .map(str::to_string)
    }

    /// A header field holding a list of strings.
    pub fn strings(&self, key: &str) -> Vec<String> {
        self.field(key)
            .and_then(|text| json::parse(text).ok())
            .map(|v| {
                v.as_array()
                    .unwrap_or(&[])
                    .iter()
                    .filter_map(|s| s.as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default()
    }
}

/// Reads shard outputs: checks they belong to one match or ladder (headers
/// equal but for the shard), keeps each game once, and with `out` writes
/// them under one header (`"shard":"merged"`).
pub fn merge_files(files: &[PathBuf], out: Option<&Path>) -> Result<Merged, String> {
    let mut header: Option<(String, Vec<(String, String)>)> = None;
    let mut records: Vec<GameRecord> = Vec::new();
    let mut ids = BTreeSet::new();
    for path in files {
        let file = read_results(path)?;
        let fields: Vec<(String, String)> = file
            .header
            .iter()
            .filter(|(k, _)| k != "shard")
            .cloned()
            .collect();
        let this = (file.kind.clone(), fields);
        match &header {
            None => header = Some(this),
            Some(first) if *first != this => {
                return Err(format!(
                    "{}: not the same {} as {} (header {:?} vs {:?})",
                    path.display(),
                    if first.0 == "run" { "match" } else { &first.0 },
                    files[0].display(),
                    this.1,
                    first.1
                ))
            }
            Some(_) => {}
        }
        if file.skipped > 0 {
            eprintln!(
                "warning: {}: {} unreadable line(s) skipped",
                path.display(),
                file.skipped
            );
        }
        for record in file.records {
            if ids.insert((record.engines.clone(), record.id)) {
                records.push(record);
            } else {
                eprintln!(
                    "warning: {}: game {} already merged, skipped",
                    path.display(),
                    record.id
                );
            }
        }
    }
    let (kind, header) = header.ok_or("merge: no files")?;
    records.sort_by(|a, b| (&a.engines, a.id).cmp(&(&b.engines, b.id)));
    if let Some(path) = out {
        let mut w = ObjectWriter::new();
        w.str("type", &kind).num("version", 1);
        for (key, value) in &header {
            w.raw(key, value);
        }
        w.str("shard", "merged");
        let mut text = w.finish();
        text.push('\n');
        for record in &records {
            text.push_str(&record.to_json());
            text.push('\n');
        }
        std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok(Merged {
        kind,
        header,
        records,
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
    let per_pair = crate::schedule::seatings(seats, names.len()).len() as u64;
    let records = merged.records;
    let totals = Totals::of(&records, names.len().max(2), per_pair);
    let summary = totals.summary(&names, sprt);
    Ok(Outcome {
        totals,
        summary,
        stopped_early: false,
        records,
    })
}

/// Merges shard outputs of one match: [`merge_files`], then the summary.
pub fn merge(
    files: &[PathBuf],
    out: Option<&Path>,
    sprt: Option<&Sprt>,
) -> Result<Outcome, String> {
    merged_outcome(merge_files(files, out)?, sprt)
}
