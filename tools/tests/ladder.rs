//! `match ladder` end to end with the real binaries: a tiny ladder of the
//! baseline players (`random` → `greedy`), its results file resumed, split
//! into shards and merged, and bad command lines refused.

mod common;

use common::{ok, refused};
use std::path::Path;

const BASELINE: &str = env!("CARGO_BIN_EXE_baseline");

fn scratch(name: &str) -> std::path::PathBuf {
    common::scratch("ladder", name)
}

fn level(name: &str, mode: &str, extra: &[&str]) -> Vec<String> {
    let mut words = vec![
        "--level".to_string(),
        format!("name={name}"),
        format!("cmd={BASELINE}"),
        format!("arg={mode}"),
    ];
    words.extend(extra.iter().map(|s| s.to_string()));
    words
}

/// random → greedy in Hasami: 4 games at fixed settings, then `extra`.
fn ladder_args(extra: &[&str]) -> Vec<String> {
    let mut args: Vec<String> = [
        "ladder", "--game", "hasami", "--games", "4", "--nodes", "100",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    args.extend(["--seed", "2"].map(String::from));
    args.extend(level("random", "random", &[]));
    args.extend(level("greedy", "greedy", &[]));
    args.extend(extra.iter().map(|s| s.to_string()));
    args
}

/// The words of the table line of `level`.
fn row<'a>(table: &'a str, level: &str) -> Vec<&'a str> {
    table
        .lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>())
        .find(|words| words.first() == Some(&level))
        .unwrap_or_else(|| panic!("no line for {level} in\n{table}"))
}

fn game_lines(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|l| l.contains("\"type\":\"game\""))
        .map(str::to_string)
        .collect()
}

#[test]
fn a_tiny_ladder_plays_its_pairs_and_prints_the_fitted_table() {
    let dir = scratch("tiny");
    let out = dir.join("ladder.jsonl");
    let (table, progress) = ok(&ladder_args(&["--out", out.to_str().unwrap()]));
    assert!(
        table.starts_with(
            "Ladder hasami: 2 levels, 4 games, nodes=100; Elo by maximum likelihood, random = 0\n"
        ),
        "{table}"
    );
    assert!(
        progress.contains("match hasami: random vs greedy, 4 games"),
        "{progress}"
    );
    assert_eq!(row(&table, "random")[..4], ["random", "0", "anchor", "4"]);
    let greedy = row(&table, "greedy");
    let elo: f64 = greedy[1].parse().unwrap();
    let error: f64 = greedy[2].parse().unwrap();
    assert!(elo > 0.0 && error > 0.0, "{table}");
    assert_eq!(greedy[3], "4");
    // The score column is random's against greedy, as the games say.
    let games = game_lines(&out);
    assert_eq!(games.len(), 4);
    let random_wins = games
        .iter()
        .filter(|g| g.contains("\"scores\":[1,0]"))
        .count();
    assert!(
        row(&table, "random").contains(&format!("+{random_wins}").as_str()),
        "{table}"
    );
    let header = std::fs::read_to_string(&out).unwrap();
    assert!(header.starts_with(
        "{\"type\":\"ladder\",\"version\":1,\"game\":\"hasami\",\"levels\":[\"random\",\"greedy\"],\
         \"pairs\":[[\"random\",\"greedy\"]],"
    ));

    // Resumed: nothing left to play, the same table from the file.
    let (again, progress) = ok(&ladder_args(&["--resume", out.to_str().unwrap()]));
    assert_eq!(again, table);
    assert!(progress.contains("(4 recorded, 0 to play)"), "{progress}");
    assert_eq!(game_lines(&out).len(), 4);

    // Resumed from a cut file: the missing games are played again.
    let text = std::fs::read_to_string(&out).unwrap();
    let cut: Vec<&str> = text.lines().take(3).collect();
    std::fs::write(&out, cut.join("\n") + "\n").unwrap();
    let (again, progress) = ok(&ladder_args(&["--resume", out.to_str().unwrap()]));
    assert!(progress.contains("(2 recorded, 2 to play)"), "{progress}");
    assert_eq!(again, table, "deterministic players replay the same games");

    // Another ladder cannot resume this file.
    let mut other = ladder_args(&["--resume", out.to_str().unwrap()]);
    other.extend(level("greedy2", "greedy", &["arg=--seed", "arg=9"]));
    refused(&other, "recorded with other settings");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn shards_merge_to_the_table_of_one_run() {
    let dir = scratch("shards");
    let path = |name: &str| dir.join(name).to_string_lossy().into_owned();
    let mut three = ladder_args(&["--two-apart", "--quiet"]);
    three.extend(level("greedy7", "greedy", &["option.Seed=7"]));
    let (whole, _) = ok(&[three.clone(), vec!["--out".into(), path("all.jsonl")]].concat());
    // Three pairs: two neighbours and one two apart.
    assert_eq!(game_lines(&dir.join("all.jsonl")).len(), 12);
    assert_eq!(row(&whole, "greedy")[3], "8");
    for shard in ["0/2", "1/2"] {
        let name = format!("s{}.jsonl", &shard[..1]);
        ok(&[
            three.clone(),
            vec!["--shard".into(), shard.into(), "--out".into(), path(&name)],
        ]
        .concat());
    }
    let merge = |extra: &[String]| {
        ok(&[
            vec!["merge".to_string(), path("s0.jsonl"), path("s1.jsonl")],
            extra.to_vec(),
        ]
        .concat())
        .0
    };
    assert_eq!(merge(&["--out".into(), path("merged.jsonl")]), whole);
    assert_eq!(game_lines(&dir.join("merged.jsonl")).len(), 12);
    // A ladder's files and a match's do not mix.
    let cmd = format!("cmd={BASELINE}");
    let match_out = path("match.jsonl");
    ok(&[
        "--game",
        "hasami",
        "--games",
        "2",
        "--nodes",
        "100",
        "--quiet",
        "--out",
        &match_out,
        "--engine",
        "name=a",
        &cmd,
        "arg=random",
        "--engine",
        "name=b",
        &cmd,
        "arg=greedy",
    ]
    .map(String::from));
    refused(
        &["merge".into(), path("s1.jsonl"), path("match.jsonl")],
        "not the same ladder",
    );
    refused(
        &[
            "merge".into(),
            path("s0.jsonl"),
            path("s1.jsonl"),
            "--sprt".into(),
            "elo1=5".into(),
        ],
        "--sprt is for matches",
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn bad_ladders_are_refused_with_one_message() {
    let one: Vec<String> = ["ladder", "--nodes", "10"]
        .iter()
        .map(|s| s.to_string())
        .chain(level("random", "random", &[]))
        .collect();
    refused(&one, "a ladder needs two --level or more (got 1)");
    let mut twice = ladder_args(&[]);
    twice.extend(level("random", "greedy", &[]));
    refused(&twice, "two levels are named 'random'");
    refused(
        &ladder_args(&["--level", "name=x", "cmd=./no/such/engine"]),
        "level x: no such program",
    );
    refused(&ladder_args(&["--level", "name=x"]), "cmd=… is required");
    refused(&ladder_args(&["--game", "chess"]), "unknown game 'chess'");
    refused(&ladder_args(&["--shard", "3/2"]), "--shard");
    let timeless: Vec<String> = ladder_args(&[])
        .into_iter()
        .filter(|a| a != "--nodes" && a != "100")
        .collect();
    refused(&timeless, "give a time control");
}
