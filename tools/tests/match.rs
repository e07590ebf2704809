//! The match runner end to end: tiny matches of the engine against itself,
//! resume, shards and merge, and deliberately broken engines (the `test_engine`
//! binary of this package) that must lose with the right reason while the match
//! goes on.
//!
//! The engine is the `yomi` binary of the root package, found next to the
//! `match` binary (the same target directory: `cargo test --workspace` builds
//! it with every other test target before any test runs). When it is absent
//! (`cargo test -p yomi-tools` on a clean tree) `test_engine ok`, which searches
//! through the same engine library, stands in for it.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};

const MATCH: &str = env!("CARGO_BIN_EXE_match");
const TEST_ENGINE: &str = env!("CARGO_BIN_EXE_test_engine");

/// The engine command and its extra arguments.
fn engine() -> (String, Vec<String>) {
    let dir = Path::new(MATCH).parent().expect("bin dir");
    let yomi = dir.join(format!("yomi{}", std::env::consts::EXE_SUFFIX));
    if yomi.is_file() {
        (yomi.to_string_lossy().into_owned(), Vec::new())
    } else {
        eprintln!(
            "note: {} not built; test_engine ok stands in",
            yomi.display()
        );
        (TEST_ENGINE.to_string(), vec!["ok".to_string()])
    }
}

/// `--engine name=NAME cmd=… [arg=…] extra…` for the real engine.
fn yomi_engine(name: &str, extra: &[&str]) -> Vec<String> {
    let (cmd, args) = engine();
    let mut words = vec![
        "--engine".to_string(),
        format!("name={name}"),
        format!("cmd={cmd}"),
    ];
    words.extend(args.iter().map(|a| format!("arg={a}")));
    words.push("option.Threads=1".into());
    words.extend(extra.iter().map(|s| s.to_string()));
    words
}

fn test_engine(name: &str, mode: &str) -> Vec<String> {
    vec![
        "--engine".to_string(),
        format!("name={name}"),
        format!("cmd={TEST_ENGINE}"),
        format!("arg={mode}"),
    ]
}

/// A fresh directory for one test's files.
fn scratch(name: &str) -> PathBuf {
    static COUNTER: AtomicUsize = AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!(
        "yomi-match-{}-{}-{name}",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::SeqCst)
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn run_match(args: &[String]) -> Output {
    let output = Command::new(MATCH)
        .args(args)
        .output()
        .expect("run the match binary");
    output
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn ok(args: &[String]) -> (String, String) {
    let output = run_match(args);
    let (stdout, stderr) = (text(&output.stdout), text(&output.stderr));
    assert!(
        output.status.success(),
        "match {args:?} failed\nstdout:\n{stdout}\nstderr:\n{stderr}"
    );
    (stdout, stderr)
}

fn strings(words: &[&str]) -> Vec<String> {
    words.iter().map(|s| s.to_string()).collect()
}

/// (wins, losses, draws, games) from `Score of A vs B: W - L - D  [..]  N games`.
fn score(stdout: &str) -> (u64, u64, u64, u64) {
    let line = stdout
        .lines()
        .find(|l| l.starts_with("Score of"))
        .unwrap_or_else(|| panic!("no score line in\n{stdout}"));
    let after = line.split_once(": ").unwrap().1;
    let numbers: Vec<u64> = after
        .split(|c: char| !c.is_ascii_digit())
        .filter(|s| !s.is_empty())
        .filter_map(|s| s.parse().ok())
        .collect();
    // W, L, D, score digits ("0.500" → 0, 500), games.
    (numbers[0], numbers[1], numbers[2], *numbers.last().unwrap())
}

fn line_starting<'a>(stdout: &'a str, prefix: &str) -> &'a str {
    stdout
        .lines()
        .find(|l| l.starts_with(prefix))
        .unwrap_or_else(|| panic!("no '{prefix}' line in\n{stdout}"))
}

/// The game lines of a results file, as (id, reason, whole line).
fn games_in(path: &Path) -> Vec<(u64, String, String)> {
    let content = std::fs::read_to_string(path).unwrap();
    let mut lines = content.lines();
    let header = lines.next().expect("header line");
    assert!(header.starts_with("{\"type\":\"run\""), "{header}");
    lines
        .map(|line| {
            assert!(line.starts_with("{\"type\":\"game\""), "{line}");
            let id = field(line, "id").parse().unwrap();
            (id, field(line, "reason"), line.to_string())
        })
        .collect()
}

/// A scalar field of a JSON line (our own writer's layout: no spaces).
fn field(line: &str, key: &str) -> String {
    let start = line
        .find(&format!("\"{key}\":"))
        .unwrap_or_else(|| panic!("no {key} in {line}"))
        + key.len()
        + 3;
    let rest = &line[start..];
    if let Some(stripped) = rest.strip_prefix('"') {
        stripped[..stripped.find('"').unwrap()].to_string()
    } else {
        rest[..rest.find([',', '}']).unwrap()].to_string()
    }
}

fn self_play_args(game: &str, games: u32, dir: &Path, extra: &[&str]) -> Vec<String> {
    let mut args = strings(&[
        "--game",
        game,
        "--games",
        &games.to_string(),
        "--nodes",
        "300",
        "--seed",
        "7",
        "--max-plies",
        "60",
        "--quiet",
    ]);
    args.extend(yomi_engine("A", &[]));
    args.extend(yomi_engine("B", &["option.Skill=12"]));
    args.extend(strings(extra));
    let _ = dir;
    args
}

#[test]
fn hasami_self_play_counts_and_records() {
    let dir = scratch("hasami");
    let out = dir.join("results.jsonl");
    let record = dir.join("games.txt");
    let mut args = self_play_args("hasami", 4, &dir, &["--concurrency", "2"]);
    args.extend(strings(&[
        "--out",
        out.to_str().unwrap(),
        "--record",
        record.to_str().unwrap(),
    ]));
    let (stdout, _) = ok(&args);
    let (w, l, d, n) = score(&stdout);
    assert_eq!((w + l + d, n), (4, 4), "{stdout}");
    let games = games_in(&out);
    let mut ids: Vec<u64> = games.iter().map(|g| g.0).collect();
    ids.sort();
    assert_eq!(ids, vec![0, 1, 2, 3]);
    for (_, reason, line) in &games {
        assert!(!reason.is_empty());
        assert!(line.contains("\"times_ms\":["), "{line}");
        assert!(line.contains("\"engines\":[\"A\",\"B\"]"), "{line}");
        let id: u64 = field(line, "id").parse().unwrap();
        // Colours swapped within each pair.
        let seats = if id.is_multiple_of(2) {
            "[\"A\",\"B\"]"
        } else {
            "[\"B\",\"A\"]"
        };
        assert!(line.contains(&format!("\"seats\":{seats}")), "{line}");
    }
    // Both games of a pair start from the same opening.
    let opening = |id: u64| {
        let line = &games.iter().find(|g| g.0 == id).unwrap().2;
        line[line.find("\"opening\"").unwrap()..line.find("\"tc\"").unwrap()].to_string()
    };
    assert_eq!(opening(0), opening(1));
    assert_eq!(opening(2), opening(3));
    let pent = line_starting(&stdout, "Pentanomial");
    assert!(pent.ends_with("2 pairs"), "{pent}");
    assert!(stdout.contains("Elo difference"), "{stdout}");
    let readable = std::fs::read_to_string(&record).unwrap();
    assert_eq!(readable.matches("[Game ").count(), 4, "{readable}");
    assert!(readable.contains("[Result]"));
}

#[test]
fn annan_self_play() {
    let dir = scratch("annan");
    let out = dir.join("results.jsonl");
    let mut args = self_play_args("annan", 2, &dir, &[]);
    args.extend(strings(&["--out", out.to_str().unwrap()]));
    let (stdout, _) = ok(&args);
    let (w, l, d, n) = score(&stdout);
    assert_eq!((w + l + d, n), (2, 2), "{stdout}");
    let games = games_in(&out);
    assert_eq!(games.len(), 2);
    for (_, _, line) in &games {
        assert_eq!(field(line, "game"), "annan");
    }
}

#[test]
fn resume_and_shards_give_the_totals_of_one_run() {
    let dir = scratch("resume");
    let full = dir.join("full.jsonl");
    let mut args = self_play_args("hasami", 4, &dir, &[]);
    args.extend(strings(&["--out", full.to_str().unwrap()]));
    let (stdout_full, _) = ok(&args);
    let totals = line_starting(&stdout_full, "Score of").to_string();
    let pentanomial = line_starting(&stdout_full, "Pentanomial").to_string();

    // The same run into the same file (a rerun shard, a requeued job) carries
    // it on: nothing left to play, nothing appended.
    let before = std::fs::read_to_string(&full).unwrap();
    let (stdout_again, stderr) = ok(&args);
    assert_eq!(line_starting(&stdout_again, "Score of"), totals, "{stderr}");
    assert_eq!(std::fs::read_to_string(&full).unwrap(), before);

    // Another configuration into it is refused, the file left as it was: a
    // seed, or an engine's option under the same name.
    for (from, to) in [("7", "8"), ("option.Skill=12", "option.Skill=11")] {
        let other: Vec<String> = args
            .iter()
            .map(|a| if a == from { to.to_string() } else { a.clone() })
            .collect();
        assert_ne!(other, args);
        let refused = run_match(&other);
        let stderr = text(&refused.stderr);
        assert_eq!(refused.status.code(), Some(2), "{stderr}");
        assert!(
            stderr.contains("other settings") && stderr.contains("--force"),
            "{stderr}"
        );
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert_eq!(std::fs::read_to_string(&full).unwrap(), before);
    }

    // An interrupted run: the header and the first two games (and a torn line).
    let partial = dir.join("partial.jsonl");
    let content = std::fs::read_to_string(&full).unwrap();
    let kept: Vec<&str> = content.lines().take(3).collect();
    std::fs::write(&partial, format!("{}\n{{\"type\":\"ga", kept.join("\n"))).unwrap();
    // Given as --out, as a scheduler's rerun gives it: carried on.
    let mut resume = self_play_args("hasami", 4, &dir, &[]);
    resume.extend(strings(&["--out", partial.to_str().unwrap()]));
    let (stdout_resumed, stderr) = ok(&resume);
    assert!(stderr.contains("unreadable"), "{stderr}");
    assert_eq!(line_starting(&stdout_resumed, "Score of"), totals);
    assert_eq!(line_starting(&stdout_resumed, "Pentanomial"), pentanomial);
    let mut ids: Vec<u64> = games_in_lenient(&partial);
    ids.sort();
    assert_eq!(ids, vec![0, 1, 2, 3]);

    // Resuming with other settings is refused.
    let mut other_args = self_play_args("hasami", 4, &dir, &[]);
    let seed = other_args.iter().position(|a| a == "--seed").unwrap();
    other_args[seed + 1] = "8".into();
    other_args.extend(strings(&["--resume", partial.to_str().unwrap()]));
    let refused = run_match(&other_args);
    assert!(!refused.status.success(), "{}", text(&refused.stdout));
    assert!(
        text(&refused.stderr).contains("seed"),
        "{}",
        text(&refused.stderr)
    );

    // Two shards, merged: the same totals.
    let mut shard_files = Vec::new();
    for shard in ["0/2", "1/2"] {
        let file = dir.join(format!("shard{}.jsonl", &shard[..1]));
        let mut args = self_play_args("hasami", 4, &dir, &["--shard", shard]);
        args.extend(strings(&["--out", file.to_str().unwrap()]));
        ok(&args);
        assert_eq!(games_in(&file).len(), 2);
        shard_files.push(file);
    }
    let merged = dir.join("merged.jsonl");
    let mut merge = strings(&["merge"]);
    merge.extend(shard_files.iter().map(|f| f.to_string_lossy().into_owned()));
    merge.extend(strings(&["--out", merged.to_str().unwrap()]));
    let (stdout_merged, _) = ok(&merge);
    assert_eq!(line_starting(&stdout_merged, "Score of"), totals);
    assert_eq!(line_starting(&stdout_merged, "Pentanomial"), pentanomial);
    let ids: Vec<u64> = games_in(&merged).iter().map(|g| g.0).collect();
    assert_eq!(ids, vec![0, 1, 2, 3]);
    // Shards of another match do not merge.
    let mut bad = strings(&["merge", full.to_str().unwrap()]);
    let other_match = dir.join("other.jsonl");
    let mut args = self_play_args("hasami", 2, &dir, &[]);
    args.extend(strings(&["--out", other_match.to_str().unwrap()]));
    ok(&args);
    bad.push(other_match.to_string_lossy().into_owned());
    assert!(!run_match(&bad).status.success());
}

/// Ids of the readable game lines of a file that may hold a torn line.
fn games_in_lenient(path: &Path) -> Vec<u64> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|l| l.starts_with("{\"type\":\"game\"") && l.ends_with('}'))
        .map(|l| field(l, "id").parse().unwrap())
        .collect()
}

/// Engine A (sound) against a broken B: B loses both games with `reason`.
fn broken(mode: &str, tc: &[&str], reason: &str) -> (String, String, Vec<(u64, String, String)>) {
    let dir = scratch(&mode.replace(':', "-"));
    let out = dir.join("results.jsonl");
    let mut args = strings(&[
        "--game",
        "hasami",
        "--games",
        "2",
        "--hang-timeout",
        "5000",
        "--handshake-timeout",
        "5000",
        "--timeout-margin",
        "200",
        "--max-plies",
        "40",
        "--out",
        out.to_str().unwrap(),
    ]);
    // Later flags override the generous defaults above.
    args.extend(strings(tc));
    args.extend(test_engine("A", "ok"));
    args.extend(test_engine("B", mode));
    let (stdout, stderr) = ok(&args);
    assert_eq!(score(&stdout), (2, 0, 0, 2), "{mode}\n{stdout}\n{stderr}");
    let games = games_in(&out);
    assert_eq!(games.len(), 2, "{mode}: the match goes on after a fault");
    for (_, r, line) in &games {
        assert_eq!(r, reason, "{mode}: {line}");
    }
    assert!(
        line_starting(&stdout, "Reasons").contains(&format!("{reason} 2")),
        "{stdout}"
    );
    (stdout, stderr, games)
}

#[test]
fn an_illegal_move_loses_and_is_logged_with_the_position() {
    let (_, stderr, games) = broken("illegal:2", &["--nodes", "50"], "illegal-move");
    assert!(
        stderr.contains("'1e1e'") && stderr.contains("position startpos moves"),
        "{stderr}"
    );
    for (_, _, line) in &games {
        assert!(field(line, "detail").contains("1e1e"), "{line}");
    }
}

#[test]
fn a_crash_mid_game_loses_and_the_engine_is_restarted() {
    let (_, stderr, _) = broken("crash:3", &["--nodes", "50"], "crash");
    assert_eq!(
        stderr.matches("restarted for the next game").count(),
        2,
        "{stderr}"
    );
}

#[test]
fn a_hung_engine_loses_and_is_killed() {
    broken(
        "hang:2",
        &["--nodes", "50", "--hang-timeout", "1500"],
        "hang",
    );
}

#[test]
fn garbage_output_loses() {
    broken("garbage:2", &["--nodes", "50"], "garbage");
}

#[test]
fn a_slow_handshake_loses() {
    let (_, stderr, _) = broken(
        "slow-usiok:10000",
        &["--nodes", "50", "--handshake-timeout", "1000"],
        "hang",
    );
    assert!(stderr.contains("usiok"), "{stderr}");
}

#[test]
fn an_engine_that_exits_at_once_loses() {
    broken("exit", &["--nodes", "50"], "crash");
}

#[test]
fn a_late_move_loses_on_time() {
    let (_, stderr, games) = broken("slow:1000", &["--movetime", "100"], "timeout");
    assert!(stderr.contains("allowed 100 + margin 200"), "{stderr}");
    for (_, _, line) in &games {
        assert_eq!(field(line, "tc"), "movetime=100");
    }
    // The per-turn byoyomi as on the site, and a clock with increment.
    broken("slow:1000", &["--byoyomi", "100"], "timeout");
    broken("slow:1000", &["--clock", "150+10"], "timeout");
}

#[test]
fn resignation_loses() {
    broken("resign:1", &["--nodes", "50"], "resign");
}

#[test]
fn the_sprt_stops_a_one_sided_match_early() {
    let dir = scratch("sprt");
    let out = dir.join("results.jsonl");
    let mut args = strings(&[
        "--game",
        "hasami",
        "--games",
        "200",
        "--nodes",
        "20",
        "--quiet",
        "--sprt",
        "elo0=0",
        "elo1=50",
        "--out",
        out.to_str().unwrap(),
    ]);
    args.extend(test_engine("A", "ok"));
    args.extend(test_engine("B", "resign:1"));
    let (stdout, _) = ok(&args);
    assert!(stdout.contains("H1 accepted"), "{stdout}");
    assert!(stdout.contains("Stopped early"), "{stdout}");
    let played = games_in(&out).len();
    assert!(played < 200 && played.is_multiple_of(2), "{played}");
}

#[test]
fn openings_from_a_file() {
    let dir = scratch("openings");
    let book = dir.join("openings.txt");
    std::fs::write(
        &book,
        "# two positions\n\
         ppppppppp/9/9/9/9/9/9/9/PPPPPPPPP b - 1 moves 9i9c 1a1d\n\
         startpos moves 5i5e\n",
    )
    .unwrap();
    let out = dir.join("results.jsonl");
    let mut args = strings(&[
        "--games",
        "4",
        "--nodes",
        "20",
        "--max-plies",
        "30",
        "--quiet",
        "--openings",
        book.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    args.extend(test_engine("A", "ok"));
    args.extend(test_engine("B", "ok"));
    ok(&args);
    let games = games_in(&out);
    let line = |id: u64| games.iter().find(|g| g.0 == id).unwrap().2.clone();
    assert!(line(0).contains("\"opening\":{\"sfen\":\"ppppppppp/9/9/9/9/9/9/9/PPPPPPPPP b - 1\",\"moves\":[\"9i9c\",\"1a1d\"]}"), "{}", line(0));
    assert!(
        line(2).contains("\"opening\":{\"sfen\":null,\"moves\":[\"5i5e\"]}"),
        "{}",
        line(2)
    );

    // An illegal line in the file is refused before any game.
    std::fs::write(&book, "startpos moves 9i9c 9c9a\n").unwrap();
    let mut args = strings(&["--nodes", "20", "--openings", book.to_str().unwrap()]);
    args.extend(test_engine("A", "ok"));
    args.extend(test_engine("B", "ok"));
    let output = run_match(&args);
    assert!(!output.status.success());
    assert!(
        text(&output.stderr).contains("openings.txt:1"),
        "{}",
        text(&output.stderr)
    );
}

#[test]
fn bad_command_lines_are_refused() {
    let cases: Vec<(Vec<String>, &str)> = vec![
        (
            [strings(&["--nodes", "10"]), test_engine("A", "ok")].concat(),
            "exactly two --engine",
        ),
        (
            [strings(&[]), test_engine("A", "ok"), test_engine("B", "ok")].concat(),
            "time control",
        ),
        (
            [
                strings(&["--game", "yonin", "--nodes", "1"]),
                test_engine("A", "ok"),
                test_engine("B", "ok"),
                test_engine("C", "ok"),
            ]
            .concat(),
            "four seats",
        ),
        (
            [
                strings(&[
                    "--game", "yonin", "--nodes", "1", "--sprt", "elo0=0", "elo1=5",
                ]),
                test_engine("A", "ok"),
                test_engine("B", "ok"),
            ]
            .concat(),
            "--sprt is for two-player games",
        ),
        (
            [
                strings(&["--game", "sugoroku", "--nodes", "1", "--opening-plies", "2"]),
                test_engine("A", "ok"),
                test_engine("B", "ok"),
            ]
            .concat(),
            "--opening-plies must be 0",
        ),
        (
            [
                strings(&["--game", "hasami", "--nodes", "1"]),
                test_engine("A", "ok"),
                test_engine("B", "ok"),
                test_engine("C", "ok"),
                test_engine("D", "ok"),
            ]
            .concat(),
            "exactly two --engine",
        ),
        (
            [
                strings(&["--game", "hasami", "--nodes", "1"]),
                test_engine("A", "ok"),
                test_engine("A", "ok"),
            ]
            .concat(),
            "two engines are named 'A'",
        ),
        (
            [
                strings(&["--nodes", "1", "--shard", "3/2"]),
                test_engine("A", "ok"),
                test_engine("B", "ok"),
            ]
            .concat(),
            "shard",
        ),
        (
            [
                strings(&["--nodes", "1", "--sprt", "elo0=5", "elo1=0"]),
                test_engine("A", "ok"),
                test_engine("B", "ok"),
            ]
            .concat(),
            "elo1",
        ),
        (
            [
                strings(&["--nodes", "1"]),
                test_engine("A", "ok"),
                strings(&["--engine", "name=B", "cmd=./no/such/engine"]),
            ]
            .concat(),
            "no such program",
        ),
    ];
    for (args, message) in cases {
        let output = run_match(&args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(
            text(&output.stderr).contains(message),
            "{args:?}: {}",
            text(&output.stderr)
        );
    }
}

/// The game records of a results file, read with the runner's own reader.
fn records_in(path: &Path) -> Vec<yomi_tools::runner::record::GameRecord> {
    let file = yomi_tools::results::read_results(path).unwrap();
    assert_eq!(file.skipped, 0);
    let mut records = file.records;
    records.sort_by_key(|r| r.id);
    records
}

/// Yonin ends: the referee's reasons, or the runner's move limit.
const YONIN_ENDS: [&str; 5] = [
    "second-checkmate",
    "pairs-checkmate",
    "repetition",
    "move-limit",
    "max-plies",
];

/// Checks what every finished yonin game must satisfy.
fn check_yonin_record(record: &yomi_tools::runner::record::GameRecord) {
    assert_eq!(record.seats.len(), 4);
    assert_eq!(record.places.len(), 4);
    assert!(record.places.contains(&1), "{record:?}");
    // Competition ranking: a place p is taken by exactly the seats ranked p, and
    // p - 1 seats are ahead of them.
    for &p in &record.places {
        let ahead = record.places.iter().filter(|&&q| q < p).count() as u32;
        assert_eq!(ahead, p - 1, "{:?}", record.places);
    }
    // Every move was made by the engine at the seat that moved.
    assert_eq!(record.movers.len(), record.moves.len());
    assert_eq!(record.mover_seats.len(), record.moves.len());
    for (engine, &seat) in record.movers.iter().zip(&record.mover_seats) {
        assert_eq!(record.seats[seat], *engine);
    }
    // The scores of a game sum to 2 over four engines, 1 over two.
    let engines = record.engines.len() as f64;
    let sum: f64 = record.scores.iter().sum();
    assert!((sum - engines / 2.0).abs() < 1e-9, "{:?}", record.scores);
}

fn yonin_args(games: u32, dir: &Path, extra: &[&str]) -> Vec<String> {
    let mut args = strings(&[
        "--game",
        "yonin",
        "--games",
        &games.to_string(),
        "--depth",
        "1",
        "--seed",
        "5",
        "--max-plies",
        "48",
        "--quiet",
    ]);
    args.extend(strings(extra));
    let _ = dir;
    args
}

#[test]
fn yonin_four_engines_rotate_through_the_seats() {
    let dir = scratch("yonin4");
    let out = dir.join("results.jsonl");
    let record = dir.join("games.txt");
    let mut args = yonin_args(
        4,
        &dir,
        &[
            "--out",
            out.to_str().unwrap(),
            "--record",
            record.to_str().unwrap(),
        ],
    );
    for (name, algorithm) in [
        ("paranoid", "paranoid"),
        ("maxn", "maxn"),
        ("brs", "brs"),
        ("paranoid2", "paranoid"),
    ] {
        args.extend(yomi_engine(
            name,
            &[&format!("option.SearchAlgorithm={algorithm}")],
        ));
    }
    let (stdout, stderr) = ok(&args);
    let records = records_in(&out);
    assert_eq!(records.len(), 4, "{stdout}\n{stderr}");
    for record in &records {
        check_yonin_record(record);
        assert!(YONIN_ENDS.contains(&record.reason.as_str()), "{record:?}");
        assert_eq!(record.engines.len(), 4);
    }
    // One pairing: every engine at every seat once, all from one opening.
    for seat in 0..4 {
        let mut at_seat: Vec<usize> = records.iter().map(|r| r.seats[seat]).collect();
        at_seat.sort();
        assert_eq!(at_seat, vec![0, 1, 2, 3]);
    }
    assert!(records.iter().all(|r| r.opening == records[0].opening));
    // The standings: one row per engine, four games each, places adding up.
    assert!(stdout.contains("Standings: 4 games, 4 engines"), "{stdout}");
    for name in ["paranoid", "maxn", "brs", "paranoid2"] {
        let row = stdout
            .lines()
            .find(|l| l.trim_start().starts_with(&format!("{name} ")))
            .unwrap_or_else(|| panic!("no row for {name}\n{stdout}"));
        let words: Vec<&str> = row.split_whitespace().collect();
        assert_eq!(words[1], "4", "{row}");
        let placed: u64 = words[3..7].iter().map(|w| w.parse::<u64>().unwrap()).sum();
        assert_eq!(placed, 4, "{row}");
    }
    assert!(stdout.contains("Elo of paranoid vs the field"), "{stdout}");
    let readable = std::fs::read_to_string(&record).unwrap();
    assert_eq!(readable.matches("[Game ").count(), 4);
    assert!(
        readable.contains("[Seat 3]") && readable.contains("1st "),
        "{readable}"
    );
}

#[test]
fn yonin_two_engines_sit_as_partners_and_shards_merge() {
    let dir = scratch("yonin2");
    let full = dir.join("full.jsonl");
    let engines = [
        yomi_engine("A", &[]),
        yomi_engine("B", &["option.Skill=12"]),
    ]
    .concat();
    let mut args = yonin_args(4, &dir, &["--out", full.to_str().unwrap()]);
    args.extend(engines.clone());
    let (stdout, _) = ok(&args);
    let records = records_in(&full);
    assert_eq!(records.len(), 4);
    for record in &records {
        check_yonin_record(record);
        let expected = if record.id.is_multiple_of(2) {
            vec![0, 1, 0, 1]
        } else {
            vec![1, 0, 1, 0]
        };
        assert_eq!(record.seats, expected);
    }
    assert!(stdout.contains("Elo of A vs B"), "{stdout}");
    let rows = |stdout: &str| -> Vec<String> {
        stdout
            .lines()
            .filter(|l| l.starts_with("  A ") || l.starts_with("  B "))
            .map(str::to_string)
            .collect()
    };
    assert_eq!(rows(&stdout).len(), 2, "{stdout}");
    // Two shards merged give the standings of the single run.
    let mut shards = Vec::new();
    for shard in ["0/2", "1/2"] {
        let path = dir.join(format!("shard{}.jsonl", &shard[..1]));
        let mut args = yonin_args(
            4,
            &dir,
            &["--shard", shard, "--out", path.to_str().unwrap()],
        );
        args.extend(engines.clone());
        ok(&args);
        shards.push(path.to_string_lossy().into_owned());
    }
    let (merged, _) = ok(&[strings(&["merge"]), shards].concat());
    assert_eq!(rows(&merged), rows(&stdout), "{merged}\n{stdout}");
}

#[test]
fn a_broken_engine_in_yonin_places_last_and_the_match_goes_on() {
    let dir = scratch("yonin-broken");
    let out = dir.join("results.jsonl");
    let mut args = yonin_args(
        4,
        &dir,
        &["--out", out.to_str().unwrap(), "--hang-timeout", "5000"],
    );
    args.extend(yomi_engine("A", &[]));
    args.extend(yomi_engine("B", &[]));
    args.extend(test_engine("C", "illegal:2"));
    args.extend(test_engine("D", "crash:3"));
    let (stdout, stderr) = ok(&args);
    let records = records_in(&out);
    assert_eq!(records.len(), 4, "{stdout}\n{stderr}");
    for record in &records {
        check_yonin_record(record);
        // Whoever failed first sits 4th, alone; the three others are ranked
        // from the position (or share 1st).
        let (engine, reason) = match record.reason.as_str() {
            "illegal-move" => (2, "1e1e"),
            "crash" => (3, "exited"),
            other => panic!("game {} ended by {other}: {record:?}", record.id),
        };
        assert!(record.detail.contains(reason), "{}", record.detail);
        let seat = record.seats.iter().position(|&e| e == engine).unwrap();
        assert_eq!(record.places[seat], 4, "{record:?}");
        assert_eq!(record.places.iter().filter(|&&p| p == 4).count(), 1);
        assert_eq!(record.scores[engine], 0.0);
    }
    // A and B are never last; C and D take the four last places between them.
    let row = |name: &str| {
        stdout
            .lines()
            .find(|l| l.starts_with(&format!("  {name} ")))
            .unwrap_or_else(|| panic!("no row {name}\n{stdout}"))
            .split_whitespace()
            .map(str::to_string)
            .collect::<Vec<_>>()
    };
    assert_eq!(row("A")[6], "0", "{stdout}");
    assert_eq!(row("B")[6], "0", "{stdout}");
    let faults: u64 = ["C", "D"]
        .iter()
        .map(|n| row(n)[6].parse::<u64>().unwrap())
        .sum();
    assert_eq!(faults, 4, "{stdout}");
}

/// The dice of each record entry (`52:13/8,13/11` → `52`).
fn rolls_of(record: &yomi_tools::runner::record::GameRecord) -> Vec<String> {
    record
        .moves
        .iter()
        .map(|m| {
            let (dice, mv) = m
                .split_once(':')
                .unwrap_or_else(|| panic!("entry '{m}' without its dice"));
            assert!(!mv.is_empty(), "{m}");
            dice.to_string()
        })
        .collect()
}

#[test]
fn sugoroku_duplicate_dice() {
    let dir = scratch("sugoroku");
    let out = dir.join("results.jsonl");
    let mut args = strings(&[
        "--game",
        "sugoroku",
        "--games",
        "6",
        "--depth",
        "1",
        "--seed",
        "11",
        "--max-plies",
        "300",
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ]);
    args.extend(yomi_engine("A", &[]));
    args.extend(yomi_engine("B", &["option.Skill=12"]));
    let (stdout, stderr) = ok(&args);
    let records = records_in(&out);
    assert_eq!(records.len(), 6, "{stdout}\n{stderr}");
    for record in &records {
        assert_ne!(record.reason, "illegal-move", "{record:?}");
        // The rolls are the pairing's stream, drawn again here from the seed.
        let rolls = rolls_of(record);
        let mut stream = yomi_tools::runner::schedule::DiceStream::new(record.dice_seed);
        let expected: Vec<String> = (0..rolls.len()).map(|_| stream.token()).collect();
        assert_eq!(rolls, expected, "game {}", record.id);
        match record.winner {
            Some(_) => assert!((1..=3).contains(&record.points), "{record:?}"),
            None => assert_eq!(record.reason, "max-plies", "{record:?}"),
        }
    }
    for pair in records.chunks(2) {
        assert_eq!(pair[0].pair, pair[1].pair);
        assert_eq!(pair[0].dice_seed, pair[1].dice_seed);
        assert_eq!(pair[0].seats, vec![pair[1].seats[1], pair[1].seats[0]]);
    }
    assert_ne!(records[0].dice_seed, records[2].dice_seed);
    assert!(stdout.contains("Points per game: A "), "{stdout}");
    assert!(stdout.contains("Pentanomial"), "{stdout}");
    assert!(
        stdout
            .contains("Points per game less the dice's luck (valued by the embedded network): A "),
        "{stdout}"
    );

    // Resumed from the first three games, the run ends with the same totals.
    let content = std::fs::read_to_string(&out).unwrap();
    let cut: Vec<&str> = content.lines().take(4).collect();
    let resumed = dir.join("resumed.jsonl");
    std::fs::write(&resumed, cut.join("\n") + "\n").unwrap();
    let at = args.iter().position(|a| a == "--out").unwrap();
    args[at] = "--resume".into();
    args[at + 1] = resumed.to_string_lossy().into_owned();
    let (again, _) = ok(&args);
    assert_eq!(records_in(&resumed).len(), 6);
    for prefix in ["Score of", "Points per game", "Points per game less"] {
        assert_eq!(
            line_starting(&again, prefix),
            line_starting(&stdout, prefix)
        );
    }
}

/// The same engine on both sides of duplicate dice plays each pairing's two
/// games alike, seats swapped: no points and no luck left, by either measure;
/// and `match merge` gives the same summary.
#[test]
fn sugoroku_mirror_has_no_luck_left() {
    let dir = scratch("sugoroku-mirror");
    let out = dir.join("results.jsonl");
    let mut args = strings(&[
        "--game",
        "sugoroku",
        "--games",
        "4",
        "--depth",
        "1",
        "--seed",
        "12",
        "--rule",
        "SugorokuFinish=bearoff",
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ]);
    args.extend(yomi_engine("A", &[]));
    args.extend(yomi_engine("B", &[]));
    let (stdout, _) = ok(&args);
    let luck =
        "Points per game less the dice's luck (valued by the embedded network): A +0.000 +/- 0.000";
    assert!(stdout.contains(luck), "{stdout}");
    let merged = run_match(&strings(&["merge", out.to_str().unwrap()]));
    assert!(
        text(&merged.stdout).contains(luck),
        "{}",
        text(&merged.stdout)
    );
}

/// Runs `match`, which must refuse with exit status 2 and one line on stderr
/// holding every one of `messages`.
fn refused(args: &[String], messages: &[&str]) {
    let output = run_match(args);
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
    assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
    for message in messages {
        assert!(stderr.contains(message), "{args:?}: {stderr}");
    }
}

/// The shards `0/4` … `3/4` of an 8-game match as a scheduler's array runs
/// them (`--shard $SLURM_ARRAY_TASK_ID/4`), each into its own file.
fn four_shards(dir: &Path, extra: &[&str]) -> Vec<String> {
    (0..4)
        .map(|i| {
            let file = dir.join(format!("s{i}.jsonl"));
            let shard = format!("{i}/4");
            let mut args = self_play_args("hasami", 8, dir, &["--shard", &shard]);
            args.extend(strings(extra));
            args.extend(strings(&["--out", file.to_str().unwrap()]));
            ok(&args);
            file.to_string_lossy().into_owned()
        })
        .collect()
}

#[test]
fn a_merge_names_the_shards_it_lacks_and_refuses_other_configurations() {
    let dir = scratch("merge-checks");
    let files = four_shards(&dir, &[]);
    let out = dir.join("all.jsonl");
    let out_arg = out.to_string_lossy().into_owned();
    let merge = |inputs: &[String], extra: &[&str]| {
        [
            strings(&["merge"]),
            inputs.to_vec(),
            strings(&["--out", &out_arg]),
            strings(extra),
        ]
        .concat()
    };
    let header = |path: &str| {
        std::fs::read_to_string(path)
            .unwrap()
            .lines()
            .next()
            .unwrap()
            .to_string()
    };
    assert!(
        header(&files[2]).contains("\"shard\":\"2/4\""),
        "{}",
        header(&files[2])
    );
    // The header records how every engine was started.
    assert!(
        header(&files[0]).contains("\"options\":[\"Threads=1\",\"Skill=12\"]"),
        "{}",
        header(&files[0])
    );

    // Three shards of four: refused, the missing one named, nothing written.
    let three = [files[0].clone(), files[1].clone(), files[3].clone()];
    refused(&merge(&three, &[]), &["shard 2/4 missing", "--partial"]);
    assert!(!out.exists());
    // Told, it merges the six games there are and says what is missing.
    let (stdout, stderr) = ok(&merge(&three, &["--partial"]));
    assert_eq!(score(&stdout).3, 6, "{stdout}");
    assert!(stderr.contains("shard 2/4 missing"), "{stderr}");
    let (stdout, _) = ok(&merge(&files, &[]));
    assert_eq!(score(&stdout).3, 8, "{stdout}");
    assert_eq!(games_in(&out).len(), 8);

    // An unfinished shard (a job killed after one game) is named too; its
    // rerun carries it on, and then the merge goes through.
    let content = std::fs::read_to_string(&files[1]).unwrap();
    let cut: Vec<&str> = content.lines().take(2).collect();
    std::fs::write(&files[1], cut.join("\n") + "\n").unwrap();
    refused(
        &merge(&files, &[]),
        &["shard 1/4", "holds 1 of its 2 games"],
    );
    let mut rerun = self_play_args("hasami", 8, &dir, &["--shard", "1/4"]);
    rerun.extend(strings(&["--out", &files[1]]));
    let (_, stderr) = ok(&rerun);
    assert!(stderr.is_empty(), "{stderr}");
    assert_eq!(games_in(Path::new(&files[1])).len(), 2);
    let (again, _) = ok(&merge(&files, &[]));
    for line in ["Score of", "Pentanomial"] {
        assert_eq!(line_starting(&again, line), line_starting(&stdout, line));
    }

    // A shard of the same names but another engine option, or another seed:
    // refused, unless told.
    let other_dir = dir.join("other");
    std::fs::create_dir_all(&other_dir).unwrap();
    let mut other = self_play_args("hasami", 8, &other_dir, &["--shard", "3/4"]);
    for arg in other.iter_mut() {
        if arg == "option.Skill=12" {
            *arg = "option.Skill=11".into();
        }
    }
    let other_file = other_dir.join("s3.jsonl").to_string_lossy().into_owned();
    other.extend(strings(&["--out", &other_file]));
    ok(&other);
    let mixed = [
        files[0].clone(),
        files[1].clone(),
        files[2].clone(),
        other_file,
    ];
    std::fs::remove_file(&out).unwrap();
    refused(
        &merge(&mixed, &[]),
        &["not the same match", "commands", "Skill=11", "--mixed"],
    );
    assert!(!out.exists());
    let (stdout, stderr) = ok(&merge(&mixed, &["--mixed"]));
    assert_eq!(score(&stdout).3, 8, "{stdout}");
    assert!(stderr.contains("another configuration"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Bad input to the shard tools: one error line, exit status 2, no file
/// changed.
#[test]
fn bad_shard_files_change_nothing() {
    let dir = scratch("bad-shards");
    let files = four_shards(&dir, &[]);
    let out = dir.join("all.jsonl");
    std::fs::write(&out, "kept\n").unwrap();
    let out_arg = out.to_string_lossy().into_owned();
    let kept = |path: &Path, bytes: &[u8]| assert_eq!(std::fs::read(path).unwrap(), bytes);

    // A shard cut inside its header line.
    let cut = dir.join("cut.jsonl");
    let header = std::fs::read_to_string(&files[3]).unwrap();
    std::fs::write(&cut, &header[..40]).unwrap();
    let cut_arg = cut.to_string_lossy().into_owned();
    let merge_with = |last: &str| {
        [
            strings(&["merge"]),
            files[..3].to_vec(),
            strings(&[last, "--out", &out_arg]),
        ]
        .concat()
    };
    refused(&merge_with(&cut_arg), &["cut.jsonl", "no run header line"]);
    kept(&out, b"kept\n");
    // Not JSON at all, and not text.
    std::fs::write(&cut, [0xff, 0xfe, 0x00, 0x01]).unwrap();
    refused(&merge_with(&cut_arg), &["cut.jsonl"]);
    kept(&out, b"kept\n");
    // A shard of another match: another game, refused even when told to mix.
    let annan = dir.join("annan.jsonl");
    let mut args = self_play_args("annan", 8, &dir, &["--shard", "3/4"]);
    args.extend(strings(&["--out", annan.to_str().unwrap()]));
    ok(&args);
    let mut mix = merge_with(annan.to_str().unwrap());
    mix.push("--mixed".into());
    refused(&mix, &["not the same match", "game"]);
    kept(&out, b"kept\n");
    // A header naming a game no one knows.
    let unknown = dir.join("unknown.jsonl");
    std::fs::write(
        &unknown,
        std::fs::read_to_string(&files[3])
            .unwrap()
            .replace("\"game\":\"hasami\"", "\"game\":\"chess\""),
    )
    .unwrap();
    refused(
        &[strings(&[
            "merge",
            unknown.to_str().unwrap(),
            "--partial",
            "--out",
            &out_arg,
        ])]
        .concat(),
        &["chess"],
    );
    kept(&out, b"kept\n");
    // A run into a damaged results file, or one of another game: refused, the
    // file as it was.
    let mut run = self_play_args("hasami", 8, &dir, &["--shard", "3/4"]);
    run.extend(strings(&["--out", &cut_arg]));
    refused(&run, &["cut.jsonl", "--force"]);
    kept(&cut, &[0xff, 0xfe, 0x00, 0x01]);
    let annan_text = std::fs::read_to_string(&annan).unwrap();
    let mut run = self_play_args("hasami", 8, &dir, &["--shard", "3/4"]);
    run.extend(strings(&["--out", annan.to_str().unwrap()]));
    refused(&run, &["other settings", "game"]);
    kept(&annan, annan_text.as_bytes());
    // An unknown game and a shard past the last are refused before any file
    // is touched.
    let mut run = self_play_args("chess", 8, &dir, &["--out", &out_arg]);
    refused(&run, &["chess"]);
    run = self_play_args("hasami", 8, &dir, &["--shard", "4/4", "--out", &out_arg]);
    refused(&run, &["--shard", "count from 0", "3/4"]);
    kept(&out, b"kept\n");
    let _ = std::fs::remove_dir_all(&dir);
}
