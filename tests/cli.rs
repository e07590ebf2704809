//! The `yomi` command line: perft, moves, bench and errors.

mod common;

use common::cli;
use std::process::Output;

fn stdout_lines(output: &Output) -> Vec<String> {
    String::from_utf8(output.stdout.clone())
        .expect("UTF-8 output")
        .lines()
        .map(str::to_string)
        .collect()
}

fn ok_lines(args: &[&str]) -> Vec<String> {
    let output = cli(args);
    assert!(
        output.status.success(),
        "yomi {args:?} failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(
        output.stderr.is_empty(),
        "stderr: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    stdout_lines(&output)
}

fn perft(args: &[&str]) -> u64 {
    let lines = ok_lines(args);
    lines
        .last()
        .expect("a count")
        .parse()
        .expect("the last line is just the number")
}

#[test]
fn perft_from_the_start() {
    assert_eq!(perft(&["perft", "--game", "hasami", "--depth", "1"]), 63);
    assert_eq!(perft(&["perft", "--game", "hasami", "--depth", "2"]), 3_717);
    assert_eq!(
        perft(&["perft", "--game", "hasami", "--depth", "3"]),
        254_219
    );
    assert_eq!(
        ok_lines(&["perft", "--depth", "1"]),
        ["63"],
        "hasami is the default game; only the number"
    );
}

#[test]
fn perft_divide_lists_every_move_then_the_total() {
    let lines = ok_lines(&["perft", "--game", "hasami", "--depth", "2", "--divide"]);
    assert_eq!(lines.len(), 64);
    let sum: u64 = lines[..63]
        .iter()
        .map(|l| {
            let (mv, count) = l.split_once(": ").expect("<move>: <count>");
            assert_eq!(mv.len(), 4, "{l}");
            count.parse::<u64>().unwrap()
        })
        .sum();
    assert_eq!(sum, 3_717);
    assert_eq!(lines[63], "3717");
}

#[test]
fn perft_and_moves_from_a_position() {
    let sfen = "pppppppp1/8p/9/9/9/9/9/P8/1PPPPPPPP b - 3";
    let from_sfen = ok_lines(&["moves", "--game", "hasami", "--sfen", sfen]);
    let from_moves = ok_lines(&["moves", "--game", "hasami", "--moves", "9i9h 1a1b"]);
    assert_eq!(from_sfen, from_moves);
    let count = from_sfen.len() as u64;
    assert_eq!(
        perft(&["perft", "--game", "hasami", "--depth", "1", "--sfen", sfen]),
        count
    );
    assert_eq!(
        perft(&[
            "perft",
            "--depth",
            "1",
            "--moves",
            "9i9h 1a1b",
            "--set",
            "HasamiWin=all"
        ]),
        count
    );
    assert_eq!(perft(&["perft", "--depth", "0"]), 1);
    // A decided position has no moves.
    assert_eq!(
        ok_lines(&["moves", "--sfen", "pppp5/9/9/9/9/9/9/9/PPPPPPPPP w - 1"]),
        Vec::<String>::new()
    );
}

#[test]
fn moves_from_the_start() {
    let moves = ok_lines(&["moves", "--game", "hasami"]);
    assert_eq!(moves.len(), 63);
    let mut distinct = moves.clone();
    distinct.sort();
    distinct.dedup();
    assert_eq!(distinct.len(), 63);
    assert!(
        moves.contains(&"9i9b".to_string()) && moves.contains(&"5i5h".to_string()),
        "{moves:?}"
    );
    assert_eq!(
        ok_lines(&[
            "moves",
            "--set",
            "MaxMovesToDraw=10",
            "--set",
            "HasamiWin=lead3"
        ]),
        moves
    );
}

#[test]
fn bench_reports_every_game_and_a_total() {
    let lines = ok_lines(&["bench", "--depth", "1"]);
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("bench hasami positions ") && l.contains(" depth 1 ")),
        "{lines:?}"
    );
    let total = lines.last().unwrap();
    assert!(
        total.starts_with("bench total nodes ") && total.contains(" nps "),
        "{total}"
    );
}

#[test]
fn bad_arguments_fail_with_a_message() {
    let cases: &[&[&str]] = &[
        &["perft"],
        &["perft", "--depth", "x"],
        &["perft", "--depth", "-1"],
        &["perft", "--game", "chess", "--depth", "1"],
        &["perft", "--game", "", "--depth", "1"],
        &["perft", "--depth", "1", "--sfen", "ppppppppp/9/9 b - 1"],
        &["perft", "--depth", "1", "--moves", "9i9h 9i9h"],
        &["moves", "--moves", "zz"],
        &["moves", "--set", "NoSuchOption=1"],
        &["moves", "--set", "Threads"],
        &["moves", "--set", "HasamiWin=six"],
        &["bench", "--depth", "deep"],
        &["frobnicate"],
        &["--no-such-flag"],
    ];
    for args in cases {
        let output = cli(args);
        assert!(!output.status.success(), "yomi {args:?} should fail");
        assert!(
            !output.stderr.is_empty(),
            "yomi {args:?}: no message on stderr"
        );
        assert!(
            output.stdout.is_empty(),
            "yomi {args:?}: printed {}",
            String::from_utf8_lossy(&output.stdout)
        );
    }
}

#[test]
fn a_position_with_characters_of_several_bytes_is_refused_in_every_game() {
    for (game, sfen) in [
        ("hasami", "ppppppppp/9/9/9/9/9/9/9/PPPPPPPP\u{e9} b - 1"),
        (
            "annan",
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSN\u{e9} b \u{e9} 1",
        ),
        (
            "yonin",
            "4k24/9/9/9/K17k3/9/9/9/4K0\u{e9} \u{e9}/-/-/- 0 - - 1",
        ),
        (
            "sugoroku",
            "2\u{e9}/0/0/0/0/5b/0/3b/0/0/0/5w/5b/0/0/0/3w/0/5w/0/0/0/0/2b 0/0 0/0 b - 1",
        ),
        (
            "sugoroku",
            "0/0/0/0/0/5b/0/3b/0/0/0/5w/5b/0/0/0/3w/0/5w/0/0/0/0/2b 0/\u{ff10} 0/0 \u{e9} \u{e9} 1",
        ),
    ] {
        let output = cli(&["moves", "--game", game, "--sfen", sfen]);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "{game} {sfen}: {stderr}");
        assert!(
            stderr.starts_with("yomi: error: invalid position") && stderr.lines().count() == 1,
            "{game} {sfen}: {stderr}"
        );
    }
}

#[test]
fn every_game_lists_its_first_moves() {
    // Sugoroku's start waits for a roll: no move until the dice are given.
    for (game, dice, count) in [
        ("hasami", None, 63),
        ("annan", None, 32),
        ("yonin", None, 9),
        ("sugoroku", None, 0),
        ("sugoroku", Some("31"), 16),
        ("sugoroku", Some("55"), 3),
    ] {
        let mut args = vec!["moves", "--game", game];
        args.extend(dice.iter().flat_map(|d| ["--dice", *d]));
        assert_eq!(ok_lines(&args).len(), count, "{args:?}");
    }
    let output = cli(&["moves", "--game", "sugoroku", "--dice", "7"]);
    assert!(!output.status.success());
    assert!(!output.stderr.is_empty());
}

#[test]
fn version_and_help() {
    let version = ok_lines(&["--version"]);
    assert!(version[0].starts_with("yomi "), "{version:?}");
    let help = ok_lines(&["--help"]);
    assert!(help.iter().any(|l| l.contains("perft")), "{help:?}");
}

#[test]
fn a_reader_that_stops_reading_ends_the_output_quietly() {
    // As `yomi moves … | head -1`: the pipe is closed before the lines come.
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_yomi"))
        .args(["perft", "--game", "annan", "--depth", "2", "--divide"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("yomi starts");
    drop(child.stdout.take());
    let output = child.wait_with_output().expect("yomi ends");
    assert!(output.status.success(), "{:?}", output.status);
    assert!(
        output.stderr.is_empty(),
        "stderr: {}",
        String::from_utf8_lossy(&output.stderr)
    );
}
