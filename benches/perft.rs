//! Perft speed for every implemented game: leaves per second with bulk counting
//! (the last ply counted, not made) and making every move. Prints figures only.
//!
//! Run: `cargo bench --bench perft` (add `-- --quick` for a shorter run).

use std::time::Instant;
use yomi_engine::annan::{Annan, AnnanRules};
use yomi_engine::core::Game;
use yomi_engine::hasami::{Hasami, HasamiRules};
use yomi_engine::perft::{perft, perft_full};

fn measure<G: Game>(label: &str, pos: &G, depth: u32, bulk: bool) {
    let mut pos = pos.clone();
    let started = Instant::now();
    let leaves = if bulk {
        perft(&mut pos, depth)
    } else {
        perft_full(&mut pos, depth)
    };
    let secs = started.elapsed().as_secs_f64();
    println!(
        "{label:<28} depth {depth}  leaves {leaves:>14}  {secs:>7.3} s  {:>8.1} M leaves/s",
        leaves as f64 / secs / 1e6
    );
}

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    let hasami = Hasami::start(&HasamiRules::default());
    let (bulk_depth, full_depth) = if quick { (4, 4) } else { (5, 5) };
    measure("hasami start, bulk", &hasami, bulk_depth, true);
    measure("hasami start, make all", &hasami, full_depth, false);
    let midgame = Hasami::from_sfen(
        "1pp1pp1pp/p8/4p4/2P3p2/9/3P1P3/8P/9/PP2P1PP1 w - 20",
        &HasamiRules::default(),
    )
    .unwrap();
    measure("hasami midgame, bulk", &midgame, bulk_depth, true);
    measure("hasami midgame, make all", &midgame, full_depth - 1, false);

    let annan = Annan::start(&AnnanRules::default());
    let depth = if quick { 4 } else { 5 };
    measure("annan start, bulk", &annan, depth, true);
    measure("annan start, make all", &annan, depth, false);
    let annan_mid = Annan::from_sfen(
        "ln1g1g1nl/1ks2r3/1pppp1bpp/p4pp2/9/2P1P1P2/PP1P1P1PP/1BK1GS1R1/LNSG3NL b S 25",
        &AnnanRules::default(),
    )
    .unwrap();
    measure("annan midgame, bulk", &annan_mid, 4, true);
}
