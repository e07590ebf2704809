//! The results file, the one owner of its format: JSON lines, a header line
//! first (`type` `run`, `ladder` or `tune`, `version` 1, then the settings a
//! resume or a merge compares), then one line per game (`type` `game`) or,
//! in a tuning trajectory, one per iteration (`type` `iteration`). Read back
//! to resume a run, merge shards and summarise; written as each game ends.

use crate::json::{self, Json, ObjectWriter};
use crate::runner::config::{parse_shard, shard_text, MatchConfig};
use crate::runner::engine::EngineSpec;
use crate::runner::record::{seat_name, seat_of_name, GameRecord};
use crate::runner::schedule::Opening;
use crate::runner::RunOptions;
use crate::tune::spsa::{Iteration, Param};
use std::collections::BTreeSet;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

/// The fields of the header line that must agree between a run and its resume
/// (all of them) or between shards (all but `shard`): the whole configuration,
/// each engine's command and options included, so that shards of two
/// differently set up matches never pass for one.
pub fn header_fields(config: &MatchConfig) -> Vec<(&'static str, String)> {
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
    let mut timeouts = ObjectWriter::new();
    timeouts
        .num("handshake_ms", config.handshake_timeout.as_millis())
        .num("hang_ms", config.hang_timeout.as_millis())
        .num("margin_ms", config.timeout_margin.as_millis());
    vec![
        ("game", json::quote(config.game.name())),
        ("engines", json::str_array(&names)),
        ("commands", commands(&config.engines)),
        ("tc", json::quote(&config.tc.describe())),
        ("games", config.games.to_string()),
        ("seed", config.seed.to_string()),
        ("openings", json::quote(&openings)),
        ("max_plies", config.max_plies.to_string()),
        ("rules", json::str_array(&rules)),
        ("timeouts", timeouts.finish()),
        ("shard", json::quote(&shard_text(config.shard))),
    ]
}

/// How each engine is started and set up, as a header records it: an object
/// per engine (keys in the order a reader sorts them, so that the text
/// compares equal to the file's).
pub fn commands(engines: &[EngineSpec]) -> String {
    let objects: Vec<String> = engines
        .iter()
        .map(|engine| {
            let options: Vec<String> = engine
                .options
                .iter()
                .map(|(n, v)| format!("{n}={v}"))
                .collect();
            let dir = engine.dir.as_ref().map(|d| d.to_string_lossy());
            ObjectWriter::new()
                .raw("args", &json::str_array(&engine.args))
                .str("cmd", &engine.cmd)
                .opt_str("dir", dir.as_deref())
                .str("name", &engine.name)
                .raw("options", &json::str_array(&options))
                .finish()
        })
        .collect();
    format!("[{}]", objects.join(","))
}

pub fn header_line(config: &MatchConfig) -> String {
    header_text("run", &header_fields(config))
}

/// A header line: its `type` (`run`, `ladder`, `tune`), version 1, then the
/// fields (each value JSON text).
pub fn header_text(kind: &str, fields: &[(&str, String)]) -> String {
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
pub fn canonical(value: &json::Json) -> String {
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
pub fn header_of(value: &json::Json) -> Vec<(String, String)> {
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

/// Opens `options.out` for a run: a new (or empty) file gets `header` as its
/// first line. An existing one is carried on when it holds a run of this
/// `kind` with the `fields` expected (a rerun shard, a requeued job, an
/// explicit `resume`): its games (each engine pairing's id once) come back to
/// be skipped, the file open for appending. Any other file is refused, and
/// left as it is, unless `force` (which starts it afresh).
pub fn open_results(
    options: &RunOptions,
    kind: &str,
    header: &str,
    fields: &[(&str, String)],
) -> Result<(Vec<GameRecord>, Option<File>), String> {
    let Some(path) = &options.out else {
        return Ok((Vec::new(), None));
    };
    let holds_something = path.metadata().is_ok_and(|m| m.len() > 0);
    if options.force || !holds_something {
        return Ok((Vec::new(), Some(create_results(path, true, header)?)));
    }
    let refuse = |why: String| {
        format!(
            "{}: {why}; nothing was changed (--force overwrites it, or give another --out)",
            path.display()
        )
    };
    let file = read_results(path).map_err(|e| refuse(format!("cannot be carried on: {e}")))?;
    if file.kind != kind {
        return Err(refuse(format!(
            "the results of a {}, not of a {kind}",
            file.kind
        )));
    }
    let diff = differences(&file.header, fields, &[]);
    if !diff.is_empty() {
        return Err(refuse(format!(
            "recorded with other settings: {}",
            diff.join("; ")
        )));
    }
    if file.skipped > 0 {
        eprintln!(
            "warning: {}: {} unreadable line(s) skipped",
            path.display(),
            file.skipped
        );
    }
    let mut seen = BTreeSet::new();
    let previous: Vec<GameRecord> = file
        .records
        .into_iter()
        .filter(|r| seen.insert((r.engines.clone(), r.id)))
        .collect();
    if !options.quiet && !options.resume {
        eprintln!(
            "{}: the same {kind} ({} games recorded): carried on",
            path.display(),
            previous.len()
        );
    }
    let handle = append_results(path, file.ends_with_newline)?;
    Ok((previous, Some(handle)))
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

impl GameRecord {
    /// The game line.
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
        let mover_seats: Vec<u64> = self.mover_seats.iter().map(|&m| m as u64).collect();
        let seats: Vec<u64> = self.seats.iter().map(|&m| m as u64).collect();
        let scores: Vec<String> = self.scores.iter().map(|s| format!("{s}")).collect();
        let places: Vec<u64> = self.places.iter().map(|&p| p as u64).collect();
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
            .raw("mover_seats", &nums(&mover_seats))
            .raw("times_ms", &nums(&self.times_ms))
            .str("result", &self.result_text())
            .opt_str(
                "winner",
                self.winner
                    .map(|w| seat_name(w, self.seats.len()))
                    .as_deref(),
            )
            .raw("places", &nums(&places))
            .num("points", self.points as u64)
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
        let winner = value.str_field("winner").and_then(seat_of_name);
        let seats: Vec<usize> = u64s("seat_engines")?
            .into_iter()
            .map(|s| s as usize)
            .collect();
        // Files written before places were recorded: two players only.
        let places = match value.get("places") {
            Some(_) => u64s("places")?.into_iter().map(|p| p as u32).collect(),
            None => (0..seats.len())
                .map(|seat| match winner {
                    Some(w) if w != seat => 2,
                    _ => 1,
                })
                .collect(),
        };
        let movers: Vec<usize> = u64s("movers")?.into_iter().map(|s| s as usize).collect();
        // Files written before: the first seat of the mover's engine.
        let mover_seats = match value.get("mover_seats") {
            Some(_) => u64s("mover_seats")?
                .into_iter()
                .map(|s| s as usize)
                .collect(),
            None => movers
                .iter()
                .map(|m| seats.iter().position(|e| e == m).unwrap_or(0))
                .collect(),
        };
        Ok(GameRecord {
            id: value.u64_field("id").ok_or("game record without an id")?,
            pair: value
                .u64_field("pair")
                .ok_or("game record without a pair")?,
            seed: value.u64_field("seed").unwrap_or(0),
            dice_seed: value.u64_field("dice_seed").unwrap_or(0),
            game: value.str_field("game").unwrap_or("").to_string(),
            engines: value.strings("engines"),
            seats,
            opening: Opening {
                sfen: opening.str_field("sfen").map(str::to_string),
                moves: opening.strings("moves"),
            },
            tc: value.str_field("tc").unwrap_or("").to_string(),
            moves: value.strings("moves"),
            movers,
            mover_seats,
            times_ms: u64s("times_ms")?,
            winner,
            places,
            points: value.u64_field("points").unwrap_or(0) as u32,
            reason: value.str_field("reason").unwrap_or("").to_string(),
            detail: value.str_field("detail").unwrap_or("").to_string(),
            scores,
        })
    }
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

/// What a merge may be told to let through.
#[derive(Clone, Copy, Debug, Default)]
pub struct MergeAllow {
    /// Shards missing, or unfinished (a warning names them instead).
    pub partial: bool,
    /// Shards whose configurations differ but for the game and the engine
    /// names (a warning names the differences; the first file's header is
    /// kept).
    pub mixed: bool,
}

/// The keys on which two headers differ (both as read), each with both values.
fn header_differences(first: &[(String, String)], other: &[(String, String)]) -> Vec<String> {
    let value = |header: &[(String, String)], key: &str| {
        header
            .iter()
            .find(|(k, _)| k == key)
            .map_or("nothing".to_string(), |(_, v)| v.clone())
    };
    let mut keys: Vec<&String> = first.iter().chain(other).map(|(k, _)| k).collect();
    keys.sort();
    keys.dedup();
    keys.into_iter()
        .filter(|key| value(first, key) != value(other, key))
        .map(|key| format!("{key}: {} vs {}", value(other, key), value(first, key)))
        .collect()
}

/// Reads shard outputs: checks they belong to one match or ladder (headers
/// equal but for the shard, unless `allow.mixed`) and that together they
/// hold every game of it (unless `allow.partial`), keeps each game once,
/// and with `out` writes them under one header (`"shard":"merged"`).
/// Nothing is written when a check fails.
pub fn merge_files(
    files: &[PathBuf],
    out: Option<&Path>,
    allow: MergeAllow,
) -> Result<Merged, String> {
    let mut first: Option<(String, Vec<(String, String)>)> = None;
    let mut records: Vec<GameRecord> = Vec::new();
    let mut ids = BTreeSet::new();
    // The shards the files say they are: (index, count, file).
    let mut shards: Vec<(u64, u64, &Path)> = Vec::new();
    // Said only once the merge is done: a refusal is one line.
    let mut warnings: Vec<String> = Vec::new();
    for path in files {
        let file = read_results(path)?;
        let fields: Vec<(String, String)> = file
            .header
            .iter()
            .filter(|(k, _)| k != "shard")
            .cloned()
            .collect();
        match &first {
            None => first = Some((file.kind.clone(), fields)),
            Some((kind, header)) => {
                let what = if kind == "run" {
                    "match"
                } else {
                    kind.as_str()
                };
                if file.kind != *kind {
                    return Err(format!(
                        "{}: not the same {what} as {}: the results of a {}",
                        path.display(),
                        files[0].display(),
                        file.kind
                    ));
                }
                let diff = header_differences(header, &fields);
                let names_differ = diff.iter().any(|d| {
                    ["game:", "engines:", "levels:", "pairs:"]
                        .iter()
                        .any(|key| d.starts_with(key))
                });
                if !diff.is_empty() && (names_differ || !allow.mixed) {
                    return Err(format!(
                        "{}: not the same {what} as {} ({}){}",
                        path.display(),
                        files[0].display(),
                        diff.join("; "),
                        if names_differ {
                            ""
                        } else {
                            "; --mixed merges them all the same"
                        }
                    ));
                }
                if !diff.is_empty() {
                    warnings.push(format!(
                        "{}: another configuration than {}, merged as told: {}",
                        path.display(),
                        files[0].display(),
                        diff.join("; ")
                    ));
                }
            }
        }
        let shard = file
            .header
            .iter()
            .find(|(k, _)| k == "shard")
            .and_then(|(_, v)| json::parse(v).ok())
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or_default();
        if shard != "merged" {
            let (index, count) = parse_shard(&shard).map_err(|e| {
                format!("{}: {e} (a file of an older match runner?)", path.display())
            })?;
            shards.push((index, count, path));
        }
        if file.skipped > 0 {
            warnings.push(format!(
                "{}: {} unreadable line(s) skipped",
                path.display(),
                file.skipped
            ));
        }
        for record in file.records {
            if ids.insert((record.engines.clone(), record.id)) {
                records.push(record);
            } else {
                warnings.push(format!(
                    "{}: game {} already merged, skipped",
                    path.display(),
                    record.id
                ));
            }
        }
    }
    let (kind, header) = first.ok_or("merge: no files")?;
    records.sort_by(|a, b| (&a.engines, a.id).cmp(&(&b.engines, b.id)));
    let merged = Merged {
        kind,
        header,
        records,
    };
    let lacking = lacking(&merged, &shards)?;
    if !lacking.is_empty() {
        let text = lacking.join("; ");
        if !allow.partial {
            return Err(format!(
                "incomplete: {text}; nothing merged (--partial merges what there is)"
            ));
        }
        warnings.push(format!("incomplete, merged as told: {text}"));
    }
    if let Some(path) = out {
        let mut w = ObjectWriter::new();
        w.str("type", &merged.kind).num("version", 1);
        for (key, value) in &merged.header {
            w.raw(key, value);
        }
        w.str("shard", "merged");
        let mut text = w.finish();
        text.push('\n');
        for record in &merged.records {
            text.push_str(&record.to_json());
            text.push('\n');
        }
        std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    for warning in warnings {
        eprintln!("warning: {warning}");
    }
    Ok(merged)
}

/// What the shards of `merged` lack of the whole match or ladder: each shard
/// with none of the `shards` files and games missing, and each shard with
/// a file but not all its games (unfinished, or stopped by the SPRT).
fn lacking(merged: &Merged, shards: &[(u64, u64, &Path)]) -> Result<Vec<String>, String> {
    let count = shards.first().map_or(1, |&(_, count, _)| count);
    if let Some((_, other, path)) = shards.iter().find(|&&(_, n, _)| n != count) {
        return Err(format!(
            "{}: one of {other} shards, where {} is one of {count}: merge the shards of one split",
            path.display(),
            shards[0].2.display()
        ));
    }
    let game = merged.str_field("game").unwrap_or_default();
    let seats = yomi_engine::registry::find(&game)?.seats;
    // The engine names of every match played: one, or a ladder's pairs.
    let matches: Vec<Vec<String>> = if merged.kind == "ladder" {
        merged
            .field("pairs")
            .and_then(|text| json::parse(text).ok())
            .and_then(|v| v.as_array().map(<[json::Json]>::to_vec))
            .unwrap_or_default()
            .iter()
            .map(|pair| {
                pair.as_array()
                    .unwrap_or(&[])
                    .iter()
                    .filter_map(|s| s.as_str().map(str::to_string))
                    .collect()
            })
            .collect()
    } else {
        vec![merged.strings("engines")]
    };
    let games: u64 = merged
        .field("games")
        .and_then(|g| g.parse().ok())
        .ok_or("the header has no games count")?;
    let held: BTreeSet<(&[String], u64)> = merged
        .records
        .iter()
        .map(|r| (r.engines.as_slice(), r.id))
        .collect();
    // Per shard index: games expected, games missing.
    let mut tally = vec![(0u64, 0u64); count as usize];
    for engines in &matches {
        let per_pair = crate::runner::schedule::seatings(seats, engines.len()).len() as u64;
        for pair in 0..games.div_ceil(per_pair.max(1)) {
            let shard = &mut tally[(pair % count) as usize];
            for k in 0..per_pair {
                shard.0 += 1;
                if !held.contains(&(engines.as_slice(), pair * per_pair + k)) {
                    shard.1 += 1;
                }
            }
        }
    }
    Ok(tally
        .iter()
        .enumerate()
        .filter(|(_, &(_, missing))| missing > 0)
        .map(|(index, &(expected, missing))| {
            let shard = shard_text((index as u64, count));
            match shards.iter().find(|&&(i, _, _)| i == index as u64) {
                None => format!("shard {shard} missing"),
                Some((_, _, path)) => format!(
                    "shard {shard} ({}) holds {} of its {expected} games",
                    path.display(),
                    expected - missing
                ),
            }
        })
        .collect())
}

/// `{"NAME":value,…}` in the order of `params`.
pub fn by_name<T: std::fmt::Display>(params: &[Param], values: &[T]) -> String {
    let mut w = ObjectWriter::new();
    for (param, value) in params.iter().zip(values) {
        w.num(&param.name, value);
    }
    w.finish()
}

impl Iteration {
    /// The trajectory line.
    pub fn to_json(&self, params: &[Param]) -> String {
        let mut w = ObjectWriter::new();
        w.str("type", "iteration")
            .num("iteration", self.number)
            .num("a_k", self.a_k)
            .num("c_k", self.c_k)
            .raw("delta", &by_name(params, &self.delta))
            .raw("plus", &by_name(params, &self.plus))
            .raw("minus", &by_name(params, &self.minus))
            .num("games", self.games)
            .raw("scores", &format!("[{},{}]", self.scores.0, self.scores.1))
            .num("result", self.result)
            .raw("theta", &by_name(params, &self.theta));
        w.finish()
    }
}

/// A tuning trajectory read back: its `tune` header (the fields as JSON text),
/// the iteration lines after it in order, and how many lines could not be
/// read (a run killed mid-write leaves a torn last one).
pub struct Trajectory {
    pub header: Option<Vec<(String, String)>>,
    pub iterations: Vec<Json>,
    pub skipped: usize,
}

pub fn read_trajectory(text: &str) -> Trajectory {
    let mut trajectory = Trajectory {
        header: None,
        iterations: Vec::new(),
        skipped: 0,
    };
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let Ok(value) = json::parse(line) else {
            trajectory.skipped += 1;
            continue;
        };
        match value.str_field("type") {
            Some("tune") if trajectory.header.is_none() => {
                trajectory.header = Some(header_of(&value))
            }
            Some("iteration") if trajectory.header.is_some() => trajectory.iterations.push(value),
            _ => trajectory.skipped += 1,
        }
    }
    trajectory
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn old_records_without_places() {
        let line = r#"{"type":"game","id":0,"pair":0,"seed":1,"dice_seed":2,"game":"hasami","engines":["A","B"],"seats":["B","A"],"seat_engines":[1,0],"opening":{"sfen":null,"moves":[]},"tc":"nodes=1","moves":[],"movers":[],"times_ms":[],"result":"0-1","winner":"w","reason":"crash","detail":"","scores":[1,0]}"#;
        let record = GameRecord::from_json(&json::parse(line).unwrap()).unwrap();
        assert_eq!(record.places, vec![2, 1]);
        assert_eq!(record.points, 0);
        assert!(record.mover_seats.is_empty());
    }
}
