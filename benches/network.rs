//! The Sugoroku network's speed: evaluations per second on one thread, over
//! the positions of random games (features and forward pass, as a search leaf
//! pays them; the features alone too), beside the hand-made evaluation. Prints
//! figures only.
//!
//! `cargo bench --bench network`

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::hint::black_box;
use std::time::Instant;
use yomi_engine::core::{Game, MoveList};
use yomi_engine::search::ChanceGame;
use yomi_engine::sugoroku::{net, Evaluation, Roll, Sugoroku, SugorokuRules};

fn positions(count: usize) -> Vec<Sugoroku> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
    let mut found = Vec::with_capacity(count);
    let mut moves = MoveList::new();
    while found.len() < count {
        let mut pos = Sugoroku::start(&SugorokuRules::default());
        while pos.outcome().is_none() && found.len() < count {
            found.push(pos);
            pos.apply_chance(Roll::new(rng.gen_range(1..=6), rng.gen_range(1..=6)));
            moves.clear();
            pos.generate_moves(&mut moves);
            pos.make(moves[rng.gen_range(0..moves.len())]);
        }
    }
    found
}

fn main() {
    let mut positions = positions(100_000);
    let network = net::embedded();
    println!(
        "network: {}-{}-{} (inputs, hidden, outputs)",
        net::INPUTS,
        network.hidden,
        net::OUTPUTS
    );
    // The two halves of a network evaluation.
    let mut best = f64::MAX;
    for _ in 0..5 {
        let started = Instant::now();
        let mut sum = 0usize;
        for pos in &positions {
            sum += net::features(black_box(pos)).len;
        }
        black_box(sum);
        best = best.min(started.elapsed().as_secs_f64());
    }
    println!(
        "{:>9}: {:.0} ns each",
        "features",
        best / positions.len() as f64 * 1e9
    );
    for (name, evaluation) in [
        ("network", Evaluation::Network),
        ("hand-made", Evaluation::Handmade),
    ] {
        for pos in &mut positions {
            pos.set_evaluation(evaluation);
        }
        let mut best = f64::MAX;
        for _ in 0..5 {
            let started = Instant::now();
            let mut sum = 0i64;
            for pos in &positions {
                sum += black_box(pos).evaluate() as i64;
            }
            black_box(sum);
            best = best.min(started.elapsed().as_secs_f64());
        }
        println!(
            "{name:>9}: {:.2} M evaluations/s on one thread ({:.0} ns each, best of 5 over {} positions)",
            positions.len() as f64 / best / 1e6,
            best / positions.len() as f64 * 1e9,
            positions.len()
        );
    }
}
