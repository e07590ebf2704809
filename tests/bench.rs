//! The `bench` node counts recorded in tests/bench.txt: the search's signature.
//! Ignored in the suite (seconds of searching); run with
//! `cargo test --release --test bench -- --ignored`.

mod common;

use common::cli;

/// `(game, nodes)` per line of tests/bench.txt, `#` comments.
fn recorded() -> Vec<(String, u64)> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/bench.txt");
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .map(|line| {
            let (game, nodes) = line.split_once(' ').expect("<game> <nodes>");
            (
                game.to_string(),
                nodes.trim().parse().expect("a node count"),
            )
        })
        .collect()
}

#[test]
#[ignore = "seconds of searching; run with --ignored"]
fn bench_node_counts_are_the_recorded_ones() {
    let output = cli(&["bench"]);
    assert!(output.status.success(), "yomi bench failed");
    let text = String::from_utf8(output.stdout).expect("UTF-8 output");
    // `bench <game> positions … nodes <n> …`, one line per game.
    let measured: Vec<(String, u64)> = text
        .lines()
        .filter_map(|line| {
            let words: Vec<&str> = line.split_whitespace().collect();
            let game = words.get(1).filter(|&&game| game != "total")?;
            let at = words.iter().position(|&word| word == "nodes")?;
            Some((game.to_string(), words.get(at + 1)?.parse().ok()?))
        })
        .collect();
    assert_eq!(measured, recorded(), "bench output:\n{text}");
}
