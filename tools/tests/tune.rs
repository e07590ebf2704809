//! `match tune` end to end on the toy whose optimum is known: `test_engine
//! peak:60` plays the more random moves the farther its option `Tune_Toy` is
//! from 60, and SPSA from 20 must find 60 (it does not with the sign of the
//! update flipped: it runs to 0). Then the trajectory file: the
//! schedule and the update as documented, a resume from a cut file that
//! replays the same trajectory, a resume with other settings refused; the
//! iterations of Yonin (partners opposite) and Sugoroku (duplicate dice)
//! through the runner; bad command lines refused with one message.

mod common;

use common::{ok, refused};
use std::path::{Path, PathBuf};
use yomi_tools::json::{self, Json};

const TEST_ENGINE: &str = env!("CARGO_BIN_EXE_test_engine");

/// Where the toy's strength peaks.
const PEAK: f64 = 60.0;

fn scratch(name: &str) -> PathBuf {
    common::scratch("tune", name)
}

/// `match tune` of the toy in `game` at 50 nodes a move, then `extra`.
fn tune_args(game: &str, iterations: u32, extra: &[&str]) -> Vec<String> {
    let mut args: Vec<String> = [
        "tune", "--game", game, "--games", "2", "--nodes", "50", "--seed", "1", "--engine",
    ]
    .map(String::from)
    .to_vec();
    args.push(format!("cmd={TEST_ENGINE}"));
    args.push(format!("arg=peak:{PEAK}"));
    args.extend(["--iterations".to_string(), iterations.to_string()]);
    args.extend(extra.iter().map(|s| s.to_string()));
    args
}

/// The toy's one parameter, started 40 (eight steps) below the peak.
const TOY: [&str; 2] = ["--param", "Tune_Toy=20,0,100,5"];

fn lines(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

fn number(value: &Json, key: &str) -> f64 {
    value
        .get(key)
        .and_then(Json::as_f64)
        .unwrap_or_else(|| panic!("no {key} in {value:?}"))
}

/// The toy's value in an iteration line's object `key` (theta, plus, …).
fn toy(value: &Json, key: &str) -> f64 {
    number(value.get(key).expect(key), "Tune_Toy")
}

/// The final θ of the summary's table line.
fn final_theta(stdout: &str) -> f64 {
    let row = stdout
        .lines()
        .find(|l| l.trim_start().starts_with("Tune_Toy"))
        .unwrap_or_else(|| panic!("no Tune_Toy row in\n{stdout}"));
    row.split_whitespace().nth(2).unwrap().parse().unwrap()
}

#[test]
fn the_tuner_finds_the_toys_peak_and_resumes_to_the_same_trajectory() {
    let dir = scratch("peak");
    let out = dir.join("toy.jsonl");
    let out_text = out.to_str().unwrap();
    let args = tune_args("hasami", 16, &[&TOY[..], &["--out", out_text]].concat());
    let (stdout, progress) = ok(&args);

    // Converged: from 40 away to within one step of the peak.
    let theta = final_theta(&stdout);
    assert!((theta - PEAK).abs() <= 5.0, "θ {theta}\n{stdout}{progress}");
    let summary: Vec<&str> = stdout.lines().collect();
    assert_eq!(
        summary[0],
        "Tuned hasami: 16 iterations, 32 games, nodes=50 (a 10, c 2, A 1.6, alpha 0.602, gamma 0.101)"
    );
    assert_eq!(
        *summary.last().unwrap(),
        format!("option.Tune_Toy={}", theta.round())
    );

    // The trajectory: a header, then one line per iteration, as the progress says.
    let file = lines(&out);
    assert_eq!(file.len(), 17);
    let header = json::parse(&file[0]).unwrap();
    assert_eq!(header.str_field("type"), Some("tune"));
    assert_eq!(header.strings("params"), ["Tune_Toy=20,0,100,5"]);
    assert_eq!(number(&header, "A"), 1.6);
    assert_eq!(number(&header, "games_per_iteration"), 2.0);
    let steps: Vec<Json> = file[1..].iter().map(|l| json::parse(l).unwrap()).collect();
    let progress: Vec<&str> = progress.lines().filter(|l| l.starts_with('[')).collect();
    assert_eq!(progress.len(), 16);
    let mut before = 20.0;
    for (k, (step, line)) in steps.iter().zip(&progress).enumerate() {
        assert_eq!(step.u64_field("iteration"), Some(k as u64 + 1));
        // The documented schedule and update, with step 5.
        let (a_k, c_k) = (number(step, "a_k"), number(step, "c_k"));
        let k = k as f64;
        assert!((a_k - 10.0 / (1.6 + k + 1.0).powf(0.602)).abs() < 1e-9);
        assert!((c_k - 2.0 / (k + 1.0).powf(0.101)).abs() < 1e-9);
        let d = toy(step, "delta");
        let side = |sign: f64| (before + sign * c_k * 5.0 * d).clamp(0.0, 100.0).round();
        assert_eq!(
            (toy(step, "plus"), toy(step, "minus")),
            (side(1.0), side(-1.0))
        );
        let scores = step.get("scores").and_then(Json::as_array).unwrap();
        let (plus, minus) = (scores[0].as_f64().unwrap(), scores[1].as_f64().unwrap());
        assert_eq!(plus + minus, 2.0);
        let result = number(step, "result");
        assert_eq!(result, (plus - minus) / 2.0);
        let after = (before + 5.0 * a_k * result / (2.0 * c_k * d)).clamp(0.0, 100.0);
        assert!((toy(step, "theta") - after).abs() < 1e-9, "{step:?}");
        before = toy(step, "theta");
        assert!(
            line.ends_with(&format!("| theta Tune_Toy={before:.2}")),
            "{line}"
        );
    }
    assert!((before - theta).abs() < 0.005, "{before} {theta}");

    // Cut after 10 iterations and a torn line: the resume plays 11-16 again,
    // the same games, the same trajectory.
    let cut = format!("{}\n{}", file[..11].join("\n"), &file[11][..30]);
    std::fs::write(&out, cut).unwrap();
    let resume = tune_args("hasami", 16, &[&TOY[..], &["--resume", out_text]].concat());
    let (again, progress) = ok(&resume);
    assert_eq!(again, stdout);
    assert!(
        progress.contains("1 unreadable line(s) skipped"),
        "{progress}"
    );
    assert!(
        progress.contains("16 iterations of 2 games (10 done)"),
        "{progress}"
    );
    assert_eq!(progress.lines().filter(|l| l.starts_with('[')).count(), 6);
    // The torn line stays, on a line of its own, and is skipped.
    let mut resumed = lines(&out);
    assert_eq!(resumed.remove(11), file[11][..30]);
    assert_eq!(resumed, file);

    // Other settings cannot continue it; --A kept, more iterations can.
    let other = tune_args(
        "hasami",
        16,
        &[&TOY[..], &["--resume", out_text, "--a", "5"]].concat(),
    );
    refused(
        &other,
        "recorded with other settings: a: file has 10, this run 5",
    );
    let longer = tune_args("hasami", 20, &[&TOY[..], &["--resume", out_text]].concat());
    refused(&longer, "A: file has 1.6, this run 2");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_params_file_and_concurrency_play_the_same_iterations() {
    let dir = scratch("file");
    let params = dir.join("params.txt");
    std::fs::write(&params, "# the toy\n\nTune_Toy=20,0,100,5  # far below\n").unwrap();
    let out = dir.join("toy.jsonl");
    let extra = [
        "--params",
        params.to_str().unwrap(),
        "--A",
        "1.6",
        "--concurrency",
        "2",
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ];
    let (stdout, progress) = ok(&tune_args("hasami", 4, &extra));
    assert_eq!(progress, "");
    assert!(
        stdout.starts_with("Tuned hasami: 4 iterations, 8 games"),
        "{stdout}"
    );
    // The first four iterations of the serial run with the same schedule.
    let serial = dir.join("serial.jsonl");
    let serial_args = [&TOY[..], &["--quiet", "--out", serial.to_str().unwrap()]].concat();
    ok(&tune_args(
        "hasami",
        4,
        &[&serial_args[..], &["--A", "1.6"]].concat(),
    ));
    assert_eq!(lines(&out)[1..], lines(&serial)[1..]);
    // A file that exists is not overwritten without --force.
    refused(&tune_args("hasami", 4, &extra), "exists: use --resume");
    let _ = std::fs::remove_dir_all(dir);
}

/// The rolls of each game of a readable record, in order.
fn rolls(record: &str) -> Vec<Vec<String>> {
    record
        .split("[Game ")
        .skip(1)
        .map(|game| {
            game.split_whitespace()
                .filter_map(|w| w.split_once(':').map(|(roll, _)| roll))
                .filter(|roll| roll.len() == 2 && roll.bytes().all(|b| b.is_ascii_digit()))
                .map(str::to_string)
                .collect()
        })
        .collect()
}

/// The engines by seat of each game of a readable record.
fn seats(record: &str) -> Vec<Vec<String>> {
    record
        .split("[Game ")
        .skip(1)
        .map(|game| {
            game.lines()
                .filter_map(|l| l.strip_prefix("[Seat "))
                .map(|l| l.split_once("] ").unwrap().1.to_string())
                .collect()
        })
        .collect()
}

#[test]
fn yonin_seats_partners_opposite_and_sugoroku_duplicates_the_dice() {
    let dir = scratch("games");
    // Yonin: --games 3 is two pairings of two games, the sides opposite.
    let record = dir.join("yonin.txt");
    let extra = [
        &TOY[..],
        &["--games", "3", "--record", record.to_str().unwrap()],
    ]
    .concat();
    let (stdout, progress) = ok(&tune_args("yonin", 1, &extra));
    assert!(
        stdout.starts_with("Tuned yonin: 1 iterations, 4 games"),
        "{stdout}"
    );
    assert!(progress.contains("1 iterations of 4 games"), "{progress}");
    let text = std::fs::read_to_string(&record).unwrap();
    let (plus, minus) = ("test_engine+", "test_engine-");
    assert_eq!(
        seats(&text),
        [[plus, minus, plus, minus], [minus, plus, minus, plus]].repeat(2)
    );
    // Sugoroku: the two games of the pairing roll the same dice.
    let record = dir.join("sugoroku.txt");
    let extra = [&TOY[..], &["--record", record.to_str().unwrap()]].concat();
    ok(&tune_args("sugoroku", 1, &extra));
    let text = std::fs::read_to_string(&record).unwrap();
    assert_eq!(seats(&text), [[plus, minus], [minus, plus]]);
    let games = rolls(&text);
    let shared = games[0].len().min(games[1].len());
    assert!(shared >= 10, "{games:?}");
    assert_eq!(games[0][..shared], games[1][..shared]);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn bad_tuning_command_lines_are_refused_with_one_message() {
    let dir = scratch("bad");
    let bad_file = dir.join("bad.txt");
    std::fs::write(&bad_file, "Tune_Toy=20,0,100,5\nTune_Toy2=1,0\n").unwrap();
    let bad_file = bad_file.to_str().unwrap();
    let engine = format!("cmd={TEST_ENGINE}");
    for (extra, message) in [
        (vec![], "give the parameters to tune"),
        (
            vec!["--param", "Tune_Toy=1,0,2"],
            "expected NAME=START,MIN,MAX,STEP",
        ),
        (
            vec!["--param", "Tune_Toy=5,0,2,1"],
            "start 5 is outside 0..2",
        ),
        (
            vec!["--params", bad_file],
            "bad.txt:2: parameter 'Tune_Toy2=1,0'",
        ),
        (vec!["--params", "/no/such/file"], "--params /no/such/file:"),
        (
            vec!["--param", "Tune_Bogus=1,0,2,1"],
            "engine test_engine refuses the parameters: setoption: unknown option 'Tune_Bogus'",
        ),
        (
            vec!["--param", "Tune_Toy=1,0,5000,1"],
            "out of range -1000..=1000",
        ),
        (
            [&TOY[..], &["--param", "tune_toy=1,0,2,1"]].concat(),
            "parameter tune_toy is given twice",
        ),
        (
            [&TOY[..], &["--iterations", "0"]].concat(),
            "--iterations must be 1 or more",
        ),
        (
            [&TOY[..], &["--c", "-1"]].concat(),
            "--c -1: must be above 0",
        ),
        (
            [&TOY[..], &["--gamma", "-0.1"]].concat(),
            "--gamma -0.1: must be 0 or more",
        ),
        (
            [&TOY[..], &["--shard", "1/2"]].concat(),
            "--shard is not for tune",
        ),
        (
            [&TOY[..], &["--engine", &engine]].concat(),
            "tune takes one --engine (the engine tuned, which plays itself); got 2",
        ),
        (
            [&TOY[..], &["--game", "chess"]].concat(),
            "unknown game 'chess'",
        ),
    ] {
        refused(&tune_args("hasami", 2, &extra), message);
    }
    let mut tuned_twice = tune_args("hasami", 2, &TOY);
    tuned_twice.insert(
        tuned_twice
            .iter()
            .position(|a| a == "--iterations")
            .unwrap(),
        "option.Tune_Toy=3".into(),
    );
    refused(
        &tuned_twice,
        "option.Tune_Toy is tuned: leave it out of --engine",
    );
    let timeless: Vec<String> = tune_args("hasami", 2, &TOY)
        .into_iter()
        .filter(|a| a != "--nodes" && a != "50")
        .collect();
    refused(&timeless, "give a time control");
    let _ = std::fs::remove_dir_all(dir);
}
