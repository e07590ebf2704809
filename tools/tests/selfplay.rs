//! The in-process self-play tool (`tools/src/bin/selfplay.rs`): two engines of
//! one game in one process, each with its own options, tunables included.

use std::process::Command;

const SELFPLAY: &str = env!("CARGO_BIN_EXE_selfplay");

/// The tool's output for engines A and B set by `a` and `b`.
fn selfplay(a: &[&str], b: &[&str]) -> String {
    let mut command = Command::new(SELFPLAY);
    command.args([
        "--game", "hasami", "--games", "6", "--nodes", "400", "--seed", "5",
    ]);
    for option in a {
        command.args(["--a", option]);
    }
    for option in b {
        command.args(["--b", option]);
    }
    let output = command.output().expect("run selfplay");
    assert!(output.status.success(), "{output:?}");
    String::from_utf8(output.stdout).unwrap()
}

/// A's score per game, in the order played.
fn scores(output: &str) -> Vec<String> {
    output
        .lines()
        .filter(|line| line.starts_with("pair "))
        .map(|line| line.split(" : ").nth(1).unwrap().to_string())
        .collect()
}

#[test]
fn two_tunings_play_each_other_in_one_process() {
    // The same tuning on both sides: each opening won or drawn alike by
    // either colour, so A scores exactly half.
    let even = selfplay(&["Tune_HasamiHanging=0"], &["Tune_HasamiHanging=0"]);
    assert!(even.contains("score 0.500"), "{even}");
    // Blind to threats against one that weighs them heavily: other games,
    // which the tuning alone decides (a process-wide value would make both
    // engines play alike again).
    let blind = ["Tune_HasamiHanging=0", "Tune_HasamiFork=0"];
    let uneven = selfplay(&blind, &["Tune_HasamiHanging=200", "Tune_HasamiFork=200"]);
    assert_eq!(scores(&uneven).len(), 6, "{uneven}");
    assert_ne!(scores(&uneven), scores(&even), "{uneven}");
    assert!(!uneven.contains("score 0.500"), "{uneven}");
    // Swapped, the same games: A's wins are B's.
    let swapped = selfplay(&["Tune_HasamiHanging=200", "Tune_HasamiFork=200"], &blind);
    let (wins, draws, losses) = tally(&uneven);
    assert_eq!(tally(&swapped), (losses, draws, wins), "{swapped}");
}

/// A's wins, draws and losses from the summary line `A vs B: +w =d -l …`.
fn tally(output: &str) -> (u32, u32, u32) {
    let line = output.lines().find(|l| l.starts_with("A vs B:")).unwrap();
    let count = |prefix: char| -> u32 {
        line.split_whitespace()
            .find_map(|w| w.strip_prefix(prefix).and_then(|n| n.parse().ok()))
            .unwrap()
    };
    (count('+'), count('='), count('-'))
}
