//! The site's way of running CPU seats: many engine processes on few cores. 16
//! games at once (32 engine processes, 16 of them searching) under each of the
//! site's kinds of clock, and not one move may come late: the runner tolerates
//! no lateness at all (`--timeout-margin 0`), so a late move loses its game.
//!
//! On demand, on an otherwise quiet machine (about a quarter of an hour on 2
//! cores):
//!
//! ```text
//! cargo build --release
//! cargo test --release -p yomi-tools --test busy_server -- --ignored --nocapture
//! ```
//!
//! `BUSY_ENGINE=/path/to/yomi` measures another build the same way (an earlier
//! commit's, to compare); `BUSY_GAMES` sets the games per clock.

#[allow(dead_code)] // the refusal helpers serve the other suites
mod common;

use common::{ok, scratch, MATCH};
use std::path::{Path, PathBuf};
use yomi_tools::json;
use yomi_tools::runner::record::GameRecord;

/// Games played at once: each its own two engine processes.
const AT_ONCE: usize = 16;
/// Moves each clock must be kept through.
const MOVES_NEEDED: usize = 2_000;
/// Long enough for the clocks to run low, short enough to be played in minutes.
const MAX_PLIES: &str = "120";

/// (what is shown, game, the runner's clock, games: enough for 2 000 moves,
/// Annan's and Sugoroku's games being shorter).
const CLOCKS: &[(&str, &str, &[&str], usize)] = &[
    ("byoyomi 1 s", "hasami", &["--byoyomi", "1000"], 40),
    ("Fischer 10 s + 1 s", "annan", &["--clock", "10s+1s"], 48),
    ("sudden death 60 s", "sugoroku", &["--clock", "60s"], 48),
];

fn engine() -> PathBuf {
    match std::env::var_os("BUSY_ENGINE") {
        Some(path) => PathBuf::from(path),
        None => Path::new(MATCH).with_file_name(format!("yomi{}", std::env::consts::EXE_SUFFIX)),
    }
}

#[test]
#[ignore = "a quarter of an hour of 16 games at once: run on demand on a quiet machine"]
fn sixteen_games_at_once_on_two_cores_lose_no_move_on_time() {
    let engine = engine();
    assert!(
        engine.is_file(),
        "{} not built: cargo build --release first",
        engine.display()
    );
    let games_wanted = std::env::var("BUSY_GAMES")
        .ok()
        .map(|n| n.parse().expect("BUSY_GAMES"));
    let dir = scratch("busy", "clocks");
    let mut failures = Vec::new();
    for (i, &(shown, game, clock, games)) in CLOCKS.iter().enumerate() {
        let games: usize = games_wanted.unwrap_or(games);
        let out = dir.join(format!("{game}-{i}.jsonl"));
        let mut args: Vec<String> = [
            "--game",
            game,
            "--games",
            &games.to_string(),
            "--concurrency",
            &AT_ONCE.to_string(),
            "--timeout-margin",
            "0",
            "--max-plies",
            MAX_PLIES,
            "--seed",
            "41",
            "--quiet",
            "--each",
            "option.Threads=1",
            "--out",
            &out.to_string_lossy(),
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        args.extend(clock.iter().map(|s| s.to_string()));
        for name in ["A", "B"] {
            args.extend([
                "--engine".to_string(),
                format!("name={name}"),
                format!("cmd={}", engine.display()),
            ]);
        }
        ok(&args);
        let records: Vec<GameRecord> = std::fs::read_to_string(&out)
            .unwrap()
            .lines()
            .filter_map(|line| json::parse(line).ok())
            .filter(|value| value.str_field("type") == Some("game"))
            .map(|value| GameRecord::from_json(&value).unwrap())
            .collect();
        let moves: usize = records.iter().map(|r| r.times_ms.len()).sum();
        let longest = records
            .iter()
            .flat_map(|r| r.times_ms.iter())
            .max()
            .copied();
        let late: Vec<&str> = records
            .iter()
            .filter(|r| r.reason == "timeout")
            .map(|r| r.detail.as_str())
            .collect();
        println!(
            "{shown} ({game}): {} games, {moves} moves, longest {} ms, {} late",
            records.len(),
            longest.unwrap_or(0),
            late.len()
        );
        for detail in &late {
            println!("  late: {detail}");
        }
        if moves < MOVES_NEEDED || !late.is_empty() {
            failures.push(format!("{shown}: {moves} moves, {} late", late.len()));
        }
    }
    assert!(failures.is_empty(), "{failures:?}");
}
