//! Perft speed for every registered game, on its profile's `perft_bench` positions:
//! leaves per second with bulk counting (the last ply counted, not made) and,
//! on the first position, making every move; for games with chance (Sugoroku)
//! distinct turns generated per second over all rolls. Prints figures only.
//!
//! Run: `cargo bench --bench perft [-- [GAME]… [--quick]]` (default: every game;
//! `--quick` for one ply less).

use std::time::Instant;
use yomi_engine::registry::{self, for_each_game, GameEntry, GameVisitor};
use yomi_engine::session::Playable;

struct PerftBench {
    /// The games named on the command line; empty for all.
    wanted: Vec<String>,
    quick: bool,
}

impl GameVisitor for PerftBench {
    fn visit<G: Playable>(&mut self, entry: &'static GameEntry) {
        if !self.wanted.is_empty() && !self.wanted.iter().any(|w| w == entry.name()) {
            return;
        }
        for (index, &(sfen, depth)) in G::PROFILE.perft_bench.iter().enumerate() {
            let pos = G::from_sfen(sfen, &Default::default()).expect("perft bench positions");
            let depth = if self.quick { depth - 1 } else { depth };
            let label = if index == 0 { "start" } else { "midgame" };
            if G::PROFILE.has_chance {
                measure(
                    &format!("{} {label}, all rolls", entry.name()),
                    "turns",
                    || (depth, pos.perft(depth, true)),
                );
                continue;
            }
            measure(&format!("{} {label}, bulk", entry.name()), "leaves", || {
                (depth, pos.perft(depth, true))
            });
            if index == 0 {
                measure(
                    &format!("{} {label}, make all", entry.name()),
                    "leaves",
                    || (depth, pos.perft(depth, false)),
                );
            }
        }
    }
}

fn measure(label: &str, unit: &str, count: impl FnOnce() -> (u32, u64)) {
    let started = Instant::now();
    let (depth, leaves) = count();
    let secs = started.elapsed().as_secs_f64();
    println!(
        "{label:<28} depth {depth}  leaves {leaves:>14}  {secs:>7.3} s  {:>8.1} M {unit}/s",
        leaves as f64 / secs / 1e6
    );
}

fn main() {
    let words: Vec<String> = std::env::args().skip(1).collect();
    for_each_game(&mut PerftBench {
        wanted: words
            .iter()
            .filter(|w| registry::find(w).is_ok())
            .cloned()
            .collect(),
        quick: words.iter().any(|a| a == "--quick"),
    });
}
