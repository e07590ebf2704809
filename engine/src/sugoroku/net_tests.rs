//! The network: inference against a plain dense reference, the weights file
//! refused when damaged, decided positions valued by their result.

use super::net::{self, Network, Outcomes, INPUTS, MAX_ACTIVE, OUTPUTS};
use super::*;
use crate::core::{Game, HouseRules, MoveList};
use crate::search::ChanceGame;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// The forward pass written the plain way: dense inputs, row by row.
fn reference(network: &Network, pos: &Sugoroku) -> [f32; OUTPUTS] {
    let x = net::features(pos).dense();
    let h = network.hidden;
    let sigmoid = |v: f32| 1.0 / (1.0 + (-v).exp());
    let hidden: Vec<f32> = (0..h)
        .map(|j| {
            sigmoid(
                network.b1[j]
                    + (0..INPUTS)
                        .map(|i| network.w1[i * h + j] * x[i])
                        .sum::<f32>(),
            )
        })
        .collect();
    std::array::from_fn(|o| {
        sigmoid(
            network.b2[o]
                + (0..h)
                    .map(|j| network.w2[o * h + j] * hidden[j])
                    .sum::<f32>(),
        )
    })
}

/// Positions of random games under every house rule, the side to roll to move.
fn random_positions(count: usize, seed: u64) -> Vec<Sugoroku> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut found = Vec::new();
    let mut moves = MoveList::new();
    while found.len() < count {
        let mut rules = SugorokuRules::default();
        rules
            .set(
                "SugorokuFinish",
                ["allhome", "bearoff"][rng.gen_range(0..2)],
            )
            .unwrap();
        rules
            .set(
                "SugorokuCloseout",
                ["multiplier", "instant", "off"][rng.gen_range(0..3)],
            )
            .unwrap();
        let mut pos = Sugoroku::start(&rules);
        while pos.outcome().is_none() && found.len() < count {
            found.push(pos);
            pos.apply_chance(Roll::new(rng.gen_range(1..=6), rng.gen_range(1..=6)));
            moves.clear();
            pos.generate_moves(&mut moves);
            let mv = moves[rng.gen_range(0..moves.len())];
            pos.make(mv);
        }
        found.push(pos);
    }
    found
}

#[test]
fn inference_equals_the_dense_reference_on_random_positions() {
    for network in [Network::random(40, 5), net::embedded().clone()] {
        let mut hidden = [0.0; net::MAX_HIDDEN];
        for pos in random_positions(2_000, 11) {
            let f = net::features(&pos);
            assert!(f.len <= MAX_ACTIVE);
            let fast = network.forward(&f, &mut hidden);
            let slow = reference(&network, &pos);
            for o in 0..OUTPUTS {
                assert!(
                    (fast[o] - slow[o]).abs() < 1e-5,
                    "{} {fast:?} {slow:?}",
                    pos.sfen()
                );
            }
        }
    }
}

#[test]
fn every_input_unit_reads_its_own_fact() {
    let pos = Sugoroku::start(&SugorokuRules::default());
    let x = net::features(&pos).dense();
    // Start: 2 on 24, 5 on 13, 3 on 8, 5 on 6 for each side, in its numbering.
    let unary = |side: usize, point: usize| -> [f32; 4] {
        let at = (side * 24 + point - 1) * 4;
        x[at..at + 4].try_into().unwrap()
    };
    for side in 0..2 {
        assert_eq!(unary(side, 24), [1.0, 1.0, 0.0, 0.0]);
        assert_eq!(unary(side, 13), [1.0, 1.0, 1.0, 1.0]);
        assert_eq!(unary(side, 8), [1.0, 1.0, 1.0, 0.0]);
        assert_eq!(unary(side, 7), [0.0; 4]);
    }
    // Home 5/15, nothing off, 167 pips, in contact, the default rules.
    let scalars = 2 * 24 * 4 + 6;
    assert_eq!(x[scalars..scalars + 3], [5.0 / 15.0, 0.0, 1.67]);
    assert_eq!(x[scalars + 6..], [1.0, 0.0, 0.0, 0.0]);
}

#[test]
fn the_weights_file_round_trips_and_damage_is_refused() {
    let network = Network::random(8, 3);
    let bytes = network.to_bytes();
    assert_eq!(Network::from_bytes(&bytes).unwrap(), network);
    let refused = |bytes: &[u8], says: &str| {
        let error = Network::from_bytes(bytes).expect_err(says);
        assert!(error.contains(says), "{error}");
    };
    refused(&bytes[..bytes.len() - 1], "bytes where");
    refused(&bytes[..10], "wrong magic or too short");
    refused(b"", "too short");
    let mut flipped = bytes.clone();
    flipped[40] ^= 1;
    refused(&flipped, "checksum");
    let mut magic = bytes.clone();
    magic[0] = b'X';
    refused(&magic, "magic");
    let mut other = network.clone();
    other.w1[0] = f32::NAN;
    refused(&other.to_bytes(), "not a finite number");
    let mut inputs = bytes.clone();
    inputs[8] ^= 1;
    refused(&inputs, "this engine reads");
    let mut longer = bytes;
    longer.push(0);
    refused(&longer, "bytes where");
}

#[test]
fn decided_positions_evaluate_to_their_result() {
    let network = net::embedded();
    let mut checked = 0;
    for pos in random_positions(20_000, 4) {
        let Some(outcome) = pos.outcome() else {
            continue;
        };
        let points = outcome.value_for(pos.side_to_move());
        assert_eq!(network.outcomes(&pos), Outcomes::decided(points));
        assert_eq!(pos.evaluate(), points * 1000, "{}", pos.sfen());
        checked += 1;
    }
    assert!(checked > 50, "{checked} decided positions");
}

#[test]
fn network_values_stay_within_the_rules_bounds_and_are_consistent() {
    for pos in random_positions(5_000, 9) {
        let o = net::embedded().outcomes(&pos);
        assert!(
            o.win2 <= o.win && o.win3 <= o.win2 && o.lose2 <= 1.0 - o.win && o.lose3 <= o.lose2
        );
        if !net::multipliers_possible(&pos) {
            assert_eq!((o.win2, o.win3, o.lose2, o.lose3), (0.0, 0.0, 0.0, 0.0));
        }
        let (low, high) = pos.value_bounds();
        assert!((low..=high).contains(&pos.evaluate()), "{}", pos.sfen());
        // From the other side the same position is worth the opposite.
        let flipped = o.flipped();
        assert!((flipped.equity() + o.equity()).abs() < 1e-5);
    }
}

#[test]
fn the_hand_made_evaluation_stays_selectable() {
    let mut rules = SugorokuRules::default();
    let pos = Sugoroku::start(&rules);
    rules.set("SugorokuEval", "handmade").unwrap();
    let handmade = Sugoroku::start(&rules);
    assert_eq!(rules.evaluation, Evaluation::Handmade);
    assert_ne!(pos.evaluate(), handmade.evaluate());
    assert_eq!(
        pos.key(),
        handmade.key(),
        "the evaluation is not part of the position"
    );
    assert!(rules.set("SugorokuEval", "oracle").is_err());
}
