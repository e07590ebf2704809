//! The search algorithms of the games that have several, side by side at equal
//! time: for each position, the depth each one completes within the same budget,
//! its nodes and nodes/s. Sugoroku: expectimax, Star1, Star2 (the published mark:
//! in backgammon Star2 reached depth 5 where plain expectimax reached 3). Yonin:
//! paranoid, max-n, BRS, BRS+. Prints figures only; never asserts.
//!
//! `cargo bench --bench algorithms [-- [sugoroku|yonin] [BUDGET-MS]]` (default: both
//! games, 3000 ms per search).
//!
//! `cargo bench --bench algorithms -- nodes [DEPTH]…`: sugoroku's node counts and
//! root values at each fixed depth (default 3 and 4) per algorithm (all, or those
//! named) and position;
//! deterministic, unlike the timings.

use std::time::{Duration, Instant};
use yomi_engine::core::Notation;
use yomi_engine::search::expecti::{self, Expectimax};
use yomi_engine::search::multi::{self, MultiSearch};
use yomi_engine::search::{Limits, SearchConfig, SearchControl, Searcher};
use yomi_engine::session::Playable;
use yomi_engine::sugoroku::{Sugoroku, SugorokuEval};
use yomi_engine::yonin::{Yonin, YoninEval};
use yomi_engine::Game;

/// One search of `budget` from fresh tables: (deepest completed depth, nodes, elapsed).
fn search<G: Game, S: Searcher<G>>(
    pos: &G,
    algorithm: &'static str,
    budget: Duration,
) -> (u32, u64, Duration) {
    let config = SearchConfig {
        algorithm,
        time_margin_ms: 0,
        ..SearchConfig::default()
    };
    let mut searcher = S::new(&config);
    searcher.prepare().expect("the bench hash table");
    let control = SearchControl::new(false);
    let started = Instant::now();
    let mut depth = 0;
    let result = searcher.search(pos, &Limits::movetime(budget), &control, &mut |info| {
        depth = depth.max(info.depth)
    });
    (depth, result.nodes, started.elapsed())
}

fn compare<G: Playable, S: Searcher<G>>(algorithms: &[&'static str], budget: Duration) {
    println!(
        "== {}: depth completed in {} ms ==",
        G::PROFILE.name,
        budget.as_millis()
    );
    for (i, sfen) in G::PROFILE.bench.iter().enumerate() {
        let pos = G::from_sfen(sfen, &Default::default()).expect("bench positions are valid");
        let figures: Vec<String> = algorithms
            .iter()
            .map(|&algorithm| {
                let (depth, nodes, elapsed) = search::<G, S>(&pos, algorithm, budget);
                format!(
                    "{algorithm} depth {depth} ({nodes} nodes, {:.2} Mnps)",
                    nodes as f64 / elapsed.as_secs_f64() / 1e6
                )
            })
            .collect();
        println!("position {i}: {}", figures.join(", "));
    }
}

/// Sugoroku's nodes and root value at fixed depths, per algorithm and position.
fn node_counts(depths: &[u32], only: &[&'static str]) {
    let config = SearchConfig::default();
    for (i, sfen) in Sugoroku::PROFILE.bench.iter().enumerate() {
        let pos =
            Sugoroku::from_sfen(sfen, &Default::default()).expect("bench positions are valid");
        for &depth in depths {
            let figures: Vec<String> = expecti::ALGORITHMS
                .iter()
                .rev()
                .filter(|name| only.is_empty() || only.contains(name))
                .map(|&name| {
                    let algorithm = expecti::ChanceAlgorithm::from_name(name).expect("listed");
                    let started = Instant::now();
                    let run = expecti::run_fixed_depth(&pos, depth, algorithm, &config);
                    format!(
                        "{name} {} nodes value {} ({:.2} s)",
                        run.nodes,
                        run.value,
                        started.elapsed().as_secs_f64()
                    )
                })
                .collect();
            println!("position {i} depth {depth}: {}", figures.join(", "));
        }
    }
}

fn main() {
    let words: Vec<String> = std::env::args().skip(1).collect();
    if words.iter().any(|w| w == "nodes") {
        let depths: Vec<u32> = words.iter().filter_map(|w| w.parse().ok()).collect();
        let only: Vec<&'static str> = expecti::ALGORITHMS
            .iter()
            .copied()
            .filter(|name| words.iter().any(|w| w == name))
            .collect();
        node_counts(if depths.is_empty() { &[3, 4] } else { &depths }, &only);
        return;
    }
    let budget = Duration::from_millis(words.iter().find_map(|w| w.parse().ok()).unwrap_or(3_000));
    let wanted = |game: &str| {
        !words.iter().any(|w| w == "sugoroku" || w == "yonin") || words.iter().any(|w| w == game)
    };
    if wanted(Sugoroku::PROFILE.name) {
        let mut order = expecti::ALGORITHMS.to_vec();
        order.reverse();
        compare::<Sugoroku, Expectimax<SugorokuEval>>(&order, budget);
    }
    if wanted(Yonin::PROFILE.name) {
        compare::<Yonin, MultiSearch<YoninEval>>(multi::ALGORITHMS, budget);
    }
}
