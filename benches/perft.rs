//! Perft speed for every game: leaves per second with bulk counting (the last
//! ply counted, not made) and making every move; for sugoroku, distinct turns
//! generated per second over all rolls. Prints figures only.
//!
//! Run: `cargo bench --bench perft` (add `-- --quick` for a shorter run).

use std::time::Instant;
use yomi_engine::annan::{Annan, AnnanRules};
use yomi_engine::core::Game;
use yomi_engine::hasami::{Hasami, HasamiRules};
use yomi_engine::perft::{perft, perft_full};
use yomi_engine::sugoroku::{self, Sugoroku, SugorokuRules};
use yomi_engine::yonin::{Yonin, YoninRules};

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

    let yonin = Yonin::start(&YoninRules::default());
    let depth = if quick { 5 } else { 6 };
    measure("yonin start, bulk", &yonin, depth, true);
    measure("yonin start, make all", &yonin, depth, false);
    let yonin_mid = Yonin::from_sfen(
        "3G2K24/2S11R2P2G22/4P2S23/G11P12S31P3G3/K12R11P31K31/G1P11P02S3P3G3/2S11P04/P21S11R0P0S02/2S0G0K01G0R31 -/P/-/- 0 - 3210 41",
        &YoninRules::default(),
    )
    .unwrap();
    measure(
        "yonin midgame, bulk",
        &yonin_mid,
        if quick { 3 } else { 4 },
        true,
    );

    // Sugoroku: a node is a position with its dice; each level sums the 21 rolls.
    let rules = SugorokuRules::default();
    for (label, sfen, depth) in [
        (
            "sugoroku start, all rolls",
            "2w/0/0/0/0/5b/0/3b/0/0/0/5w/5b/0/0/0/3w/0/5w/0/0/0/0/2b 0/0 0/0 b - 1",
            if quick { 2 } else { 3 },
        ),
        (
            "sugoroku contact, all rolls",
            "0/2b/2b/2b/1w/3b/0/2b/0/0/1w/4w/2b/0/0/0/3w/0/5w/0/0/1w/2b/0 0/0 0/0 b - 20",
            if quick { 2 } else { 3 },
        ),
    ] {
        let pos = Sugoroku::from_sfen(sfen, &rules).unwrap();
        let started = Instant::now();
        let leaves = sugoroku::perft(&pos, depth);
        let secs = started.elapsed().as_secs_f64();
        println!(
            "{label:<28} depth {depth}  leaves {leaves:>14}  {secs:>7.3} s  {:>8.1} M turns/s",
            leaves as f64 / secs / 1e6
        );
    }
}
