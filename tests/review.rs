//! Reviews of hand-built games whose blunders are known, and records: through
//! the protocol (`review`, `record`) and the command line (`yomi review`,
//! `yomi record`).

mod common;

use common::{assert_one_error, cli, Engine};
use std::time::Duration;

const REVIEW_TIME: Duration = Duration::from_secs(120);

/// The `review ply …` lines of `review <budget>` on the game of `setup`
/// (lines sent first), and its `review end …` line.
fn review(setup: &[&str], budget: &str) -> (Vec<String>, String) {
    let mut engine = Engine::start();
    for line in setup {
        engine.send(line);
    }
    engine.sync();
    engine.send(&format!("review {budget}"));
    let mut lines = engine.read_until(REVIEW_TIME, |l| {
        l.starts_with("review end") || l.starts_with("info string error")
    });
    engine.quit_cleanly();
    let end = lines.pop().unwrap();
    assert!(end.starts_with("review end plies "), "{end}: {lines:?}");
    assert!(
        lines.iter().all(|l| l.starts_with("review ply ")),
        "{lines:?}"
    );
    (lines, end)
}

/// The value of `key` in a `review ply …` line.
fn field<'a>(line: &'a str, key: &str) -> &'a str {
    let words: Vec<&str> = line.split(' ').collect();
    let at = words
        .iter()
        .position(|w| *w == key)
        .unwrap_or_else(|| panic!("no {key} in {line}"));
    words[at + 1]
}

#[test]
fn a_hanging_rook_is_a_blunder_and_taking_it_the_best_move() {
    let (lines, end) = review(
        &[
            "setoption name USI_Variant value annan",
            "position sfen 4k4/9/9/9/5R3/9/9/9/4K4 b - 1 moves 4e4b 5a4b",
        ],
        "nodes 20000",
    );
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert_eq!(field(&lines[0], "played"), "4e4b");
    assert_eq!(field(&lines[0], "verdict"), "blunder", "{}", lines[0]);
    assert!(field(&lines[0], "loss").parse::<i32>().unwrap() >= 400);
    assert_eq!(field(&lines[1], "seat"), "w");
    assert_eq!(field(&lines[1], "verdict"), "best", "{}", lines[1]);
    assert_eq!(field(&lines[1], "loss"), "0");
    assert!(
        end.ends_with(" best 1 good 0 inaccuracy 0 mistake 0 blunder 1"),
        "{end}"
    );
}

#[test]
fn a_missed_mate_in_one_is_a_blunder() {
    let (lines, _) = review(
        &[
            "setoption name USI_Variant value annan",
            "position sfen 7lk/7pB/9/9/9/9/9/9/4K4 b L 1 moves 5i4h",
        ],
        "nodes 20000",
    );
    assert_eq!(lines.len(), 1, "{lines:?}");
    let line = &lines[0];
    assert!(line.contains(" best L*1c bestscore mate 1 "), "{line}");
    assert_eq!(field(line, "verdict"), "blunder", "{line}");
}

#[test]
fn a_blot_left_to_a_double_shot_is_a_blunder_in_points() {
    // b's 21: 6/4,4/3 leaves no blot; 9/7,9/8 leaves a blot on 7 that w's
    // stones on 1 and 2 hit with any 6 or 5.
    let sfen = "2w/2w/2b/2b/3b/4b/0/2b/2b/0/0/0/0/0/0/0/0/0/3w/3w/3w/2w/0/0 0/0 0/0 b 21 1";
    for (played, verdicts) in [("9/7,9/8", ["blunder"; 2]), ("6/4,4/3", ["best", "good"])] {
        let (lines, _) = review(
            &[
                "setoption name USI_Variant value sugoroku",
                &format!("position sfen {sfen} moves {played}"),
            ],
            "nodes 4000",
        );
        assert_eq!(lines.len(), 1, "{lines:?}");
        assert!(
            verdicts.contains(&field(&lines[0], "verdict")),
            "{}",
            lines[0]
        );
        assert!(field(&lines[0], "bestscore") == "points", "{}", lines[0]);
    }
    // Rolls alone, and a turn in two parts, are one move each with its dice.
    let (lines, _) = review(
        &[
            "setoption name USI_Variant value sugoroku",
            "position startpos moves 31:8/5,6/5 64 24/18,18/14 52:13/8 8/6",
        ],
        "nodes 1000",
    );
    let turns: Vec<(&str, &str)> = lines
        .iter()
        .map(|l| (field(l, "dice"), field(l, "played")))
        .collect();
    assert_eq!(
        turns,
        [("31", "8/5,6/5"), ("64", "24/18,18/14"), ("52", "13/8,8/6")]
    );
}

#[test]
fn yonin_gives_every_seat_its_share_of_the_place_points() {
    let (lines, _) = review(
        &[
            "setoption name USI_Variant value yonin",
            "position startpos moves 5g5f",
        ],
        "nodes 3000",
    );
    assert_eq!(lines.len(), 1, "{lines:?}");
    let shares: Vec<f64> = field(&lines[0], "shares")
        .split(',')
        .map(|s| s.parse().unwrap())
        .collect();
    assert_eq!(shares.len(), 4);
    let total: f64 = shares.iter().sum();
    assert!((total - 2.0).abs() < 0.01, "{shares:?}");
    let value: f64 = field(&lines[0], "playedvalue").parse().unwrap();
    assert!((0.0..=1.0).contains(&value), "{}", lines[0]);
}

#[test]
fn records_go_out_and_come_back_and_a_bad_one_changes_nothing() {
    let mut engine = Engine::start();
    engine.ask("setoption name USI_Variant value annan");
    engine.ask("setoption name AnnanDeadPiece value forbid");
    engine.ask("setoption name Threads value 2");
    engine.ask("position startpos moves 7g7f 3c3d");
    let line = "annan AnnanDeadPiece=forbid position startpos moves 7g7f 3c3d";
    assert_eq!(engine.ask("record"), [format!("record {line}")]);
    assert_eq!(
        engine.ask("record usi"),
        [
            "setoption name USI_Variant value annan",
            "setoption name AnnanDeadPiece value forbid",
            "position startpos moves 7g7f 3c3d",
        ]
    );
    let text = engine.ask("record text kanji");
    assert_eq!(
        text[2..],
        [
            "start startpos",
            r"1 \u{25b2} \u{ff17}\u{516d}\u{6b69}(77)",
            r"2 \u{25b3} \u{ff13}\u{56db}\u{6b69}(33)"
        ]
    );
    assert_eq!(engine.ask("record text")[4], "2 w P3c-3d");
    // Another game loaded: its rules only, the engine options kept.
    assert_eq!(
        engine.ask("record load hasami HasamiWin=lead3 position startpos moves 9i9h"),
        ["info string variant hasami"]
    );
    assert_eq!(
        engine.ask("record"),
        ["record hasami HasamiWin=lead3 position startpos moves 9i9h"]
    );
    let before = (engine.status(), engine.ask("record"), engine.ask("usi"));
    for (bad, message) in [
        ("record load hasami", "record load: expected '<game>"),
        (
            "record load chess position startpos",
            "record load: USI_Variant: ",
        ),
        (
            "record load annan Nope=1 position startpos",
            "record load: 'Nope' is not a house rule of annan",
        ),
        (
            "record load annan AnnanDeadPiece=never position startpos",
            "record load: option AnnanDeadPiece = 'never'",
        ),
        (
            "record load annan position startpos moves 7g7f 7g7f",
            "record load: position: move '7g7f'",
        ),
        ("record load", "record load: the record is missing"),
        ("review", "review: give a budget"),
    ] {
        let error = assert_one_error(&engine.ask(bad), bad);
        assert!(error.contains(message), "{bad}: {error}");
        let after = (engine.status(), engine.ask("record"), engine.ask("usi"));
        assert_eq!(after, before, "{bad}");
    }
    engine.quit_cleanly();
}

#[test]
fn the_command_line_reviews_as_a_table_or_json_and_converts_records() {
    let args = [
        "review",
        "--game",
        "annan",
        "--sfen",
        "7lk/7pB/9/9/9/9/9/9/4K4 b L 1",
        "--moves",
        "5i4h",
        "--nodes",
        "20000",
    ];
    let output = cli(&args);
    assert!(
        output.status.success() && output.stderr.is_empty(),
        "{output:?}"
    );
    let table = String::from_utf8(output.stdout).unwrap();
    let lines: Vec<&str> = table.lines().collect();
    assert!(lines[0].starts_with(" ply seat played"), "{table}");
    assert!(
        lines[1].contains("5i4h") && lines[1].ends_with("blunder"),
        "{table}"
    );
    assert_eq!(lines[2], "seat b: inaccuracy 0, mistake 0, blunder 1");
    let json = cli(&[&args[..], &["--json"]].concat());
    let json = String::from_utf8(json.stdout).unwrap();
    let lines: Vec<&str> = json.lines().collect();
    assert_eq!(lines.len(), 2, "{json}");
    assert!(lines[0].starts_with(r#"{"ply":1,"seat":"b","dice":null,"played":"5i4h","best":"L*1c","bestScore":{"mate":1},"#), "{json}");
    assert!(
        lines[0].ends_with(r#""unit":"centipawns","verdict":"blunder","shares":null}"#),
        "{json}"
    );
    assert_eq!(
        lines[1],
        r#"{"end":true,"plies":1,"best":0,"good":0,"inaccuracy":0,"mistake":0,"blunder":1}"#
    );

    // A record in protocol lines, read back and written as one line.
    let dir = std::env::temp_dir().join(format!("yomi-review-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("game.txt");
    let usi = cli(&[
        "record",
        "--game",
        "annan",
        "--moves",
        "7g7f 3c3d",
        "--set",
        "MoveLimit=200",
        "--format",
        "usi",
    ]);
    std::fs::write(&file, &usi.stdout).unwrap();
    let path = file.to_str().unwrap();
    let line = cli(&["record", "--record", path]);
    assert_eq!(
        String::from_utf8(line.stdout).unwrap(),
        "annan MoveLimit=200 position startpos moves 7g7f 3c3d\n"
    );
    let kanji = cli(&["record", "--record", path, "--format", "text", "--kanji"]);
    assert!(String::from_utf8(kanji.stdout)
        .unwrap()
        .ends_with("1 ▲ ７六歩(77)\n2 △ ３四歩(33)\n"));
    // A malformed or illegal record: one line on stderr, status 1.
    std::fs::write(&file, "annan position startpos moves 7g7f 7g7f\n").unwrap();
    for args in [
        vec!["record", "--record", path],
        vec!["review", "--record", path, "--nodes", "100"],
    ] {
        let refused = cli(&args);
        let stderr = String::from_utf8(refused.stderr).unwrap();
        assert_eq!(refused.status.code(), Some(1), "{args:?}");
        assert!(refused.stdout.is_empty(), "{args:?}");
        assert!(
            stderr.starts_with("yomi: error: position: move '7g7f'") && stderr.lines().count() == 1,
            "{stderr}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
