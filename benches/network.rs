//! The Sugoroku network's speed: evaluations per second on one thread, over
//! the positions of random games (features and forward pass, as a search leaf
//! pays them; the features alone too), beside the hand-made evaluation. Prints
//! figures only.
//!
//! `cargo bench --bench network [-- [--positions N] WEIGHTS_FILE ...]`: the
//! embedded networks, and those of any weights files named, over N positions
//! (100 000; fewer for a run under valgrind).

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::hint::black_box;
use std::time::Instant;
use yomi_engine::core::{Game, MoveList};
use yomi_engine::search::ChanceGame;
use yomi_engine::session::Playable;
use yomi_engine::sugoroku::{net, Evaluation, Roll, Sugoroku, SugorokuEval, SugorokuRules};

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

/// The best of five passes of `each` over the positions, in seconds a position.
fn time_per_position(positions: &[Sugoroku], mut each: impl FnMut(&Sugoroku) -> f64) -> f64 {
    let mut best = f64::MAX;
    for _ in 0..5 {
        let started = Instant::now();
        let mut sum = 0.0;
        for pos in positions {
            sum += each(black_box(pos));
        }
        black_box(sum);
        best = best.min(started.elapsed().as_secs_f64());
    }
    best / positions.len() as f64
}

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut count = 100_000;
    if let Some(at) = args.iter().position(|a| a == "--positions") {
        let n = args.get(at + 1).and_then(|n| n.parse().ok());
        count = n.expect("--positions takes a number");
        args.drain(at..at + 2);
    }
    let positions = positions(count);
    // The embedded networks, and any weights files named after `--`.
    let mut sets = vec![("embedded".to_string(), net::embedded().clone())];
    for path in args.iter().filter(|a| !a.starts_with('-')) {
        let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let read = net::Networks::from_bytes(&bytes).unwrap_or_else(|e| panic!("{path}: {e}"));
        // As the engine plays a weights file: integer first layers.
        sets.push((path.clone(), read.quantised()));
    }
    for (name, networks) in &sets {
        let shape = |n: &net::Network| {
            format!(
                "{}-{}-{} {:?}",
                n.inputs,
                n.hidden,
                net::OUTPUTS,
                n.activation
            )
        };
        println!(
            "{name}: contact {}, race {}",
            shape(&networks.contact),
            networks.race.as_ref().map_or("none".into(), shape)
        );
        let inputs = networks.contact.inputs;
        let features = time_per_position(&positions, |pos| net::features(pos, inputs).len as f64);
        println!("{:>12}: {:.0} ns each", "features", features * 1e9);
        let computed: Vec<(usize, net::Features)> = positions
            .iter()
            .map(|pos| {
                let network = networks.for_position(pos);
                (network.hidden, net::features(pos, network.inputs))
            })
            .collect();
        let mut hidden = [0.0; net::MAX_HIDDEN];
        let mut at = 0;
        let forward = time_per_position(&positions, |pos| {
            // The features of this position (the passes go in order).
            let f = &computed[at].1;
            at = (at + 1) % computed.len();
            networks.for_position(pos).forward(f, &mut hidden)[0] as f64
        });
        println!("{:>12}: {:.0} ns each", "forward", forward * 1e9);
        let each = time_per_position(&positions, |pos| networks.outcomes(pos).equity() as f64);
        println!(
            "{:>12}: {:.2} M evaluations/s on one thread ({:.0} ns each, best of 5 over {} positions)",
            "network",
            1e-6 / each,
            each * 1e9,
            positions.len()
        );
    }
    let handmade = SugorokuEval {
        evaluation: Evaluation::Handmade,
        ..SugorokuEval::default()
    };
    let each = time_per_position(&positions, |pos| pos.evaluate(&handmade) as f64);
    println!(
        "hand-made: {:.2} M evaluations/s on one thread ({:.0} ns each)",
        1e-6 / each,
        each * 1e9
    );
}
