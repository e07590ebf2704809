//! The network: inference against a plain dense reference, the weights file
//! refused when damaged, decided positions valued by their result.

use super::net::{
    self, Activation, Network, Networks, Outcomes, FULL_INPUTS, MAX_ACTIVE, OUTPUTS, RAW_INPUTS,
};
use super::*;
use crate::core::Notation;
use crate::core::{Game, HouseRules, MoveList};
use crate::search::ChanceGame;
use crate::session::Playable;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// The forward pass written the plain way: dense inputs, row by row.
fn reference(network: &Network, pos: &Sugoroku) -> [f32; OUTPUTS] {
    let x = net::features(pos, network.inputs).dense(network.inputs);
    let h = network.hidden;
    let sigmoid = |v: f32| 1.0 / (1.0 + (-v).exp());
    let unit = |v: f32| match network.activation {
        Activation::Sigmoid => sigmoid(v),
        Activation::Relu => v.max(0.0),
    };
    let hidden: Vec<f32> = (0..h)
        .map(|j| {
            unit(
                network.b1[j]
                    + (0..network.inputs)
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

/// The embedded networks as trained, in f32.
fn embedded_f32() -> [Network; 2] {
    let float = |n: &Network| Network {
        integer: None,
        ..n.clone()
    };
    let e = net::embedded();
    [
        float(&e.contact),
        float(e.race.as_ref().expect("a race network")),
    ]
}

/// Every width of the forward pass gives `out` and `hidden`, bit for bit.
fn assert_same_bits(network: &Network, f: &net::Features, out: &[f32; OUTPUTS], hidden: &[f32]) {
    let bits = |v: &[f32]| v.iter().map(|a| a.to_bits()).collect::<Vec<_>>();
    let runs = network.forward_every_width(f);
    assert!(runs.len() >= 2 || !cfg!(target_arch = "x86_64"));
    for (o, h) in runs {
        assert_eq!(bits(&o), bits(out));
        assert_eq!(bits(&h), bits(&hidden[..network.hidden]));
    }
}

/// The forward pass at every width gives the same bits, and the dense
/// reference within rounding.
#[test]
fn inference_equals_the_dense_reference_on_random_positions() {
    let [contact, race] = embedded_f32();
    let networks = [
        Network::random(RAW_INPUTS, 40, Activation::Sigmoid, 5),
        Network::random(FULL_INPUTS, 100, Activation::Relu, 6),
        Network::random(FULL_INPUTS, 300, Activation::Relu, 7),
        contact,
        race,
    ];
    for network in networks {
        let mut hidden = [0.0; net::MAX_HIDDEN];
        for pos in random_positions(2_000, 11) {
            let f = net::features(&pos, network.inputs);
            assert!(f.len <= MAX_ACTIVE);
            let fast = network.forward(&f, &mut hidden);
            assert_same_bits(&network, &f, &fast, &hidden);
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

/// Every input's numerator is at most [`net::MAX_NUMERATOR`], so the
/// integer sums keep within [`net::SUM_BOUND`] without the clamp.
#[test]
fn numerators_stay_within_their_bound() {
    for pos in random_positions(20_000, 12) {
        let f = net::features(&pos, FULL_INPUTS);
        for k in 0..f.len {
            assert!(
                (1..=net::MAX_NUMERATOR).contains(&(f.numerator[k] as i32)),
                "input {}: {} in {}",
                f.index[k],
                f.numerator[k],
                pos.sfen()
            );
        }
    }
}

/// The integer forward pass at every width against a plain scalar one:
/// dense numerators, 64-bit sums (checked within [`net::SUM_BOUND`]), the
/// hidden units bit for bit (the same at every width), the outputs within
/// rounding.
#[test]
fn integer_inference_equals_a_plain_integer_reference() {
    let networks = [
        Network::random(RAW_INPUTS, 40, Activation::Sigmoid, 5),
        Network::random(FULL_INPUTS, 100, Activation::Relu, 6),
        Network::random(FULL_INPUTS, 300, Activation::Relu, 7),
        net::embedded().contact.clone(),
        net::embedded().race.clone().expect("a race network"),
    ];
    for network in networks {
        let network = network.quantised();
        let layer = network.integer.as_deref().expect("quantised");
        let h = network.hidden;
        assert!(layer.b1.iter().all(|b| b.abs() <= 1 << 24));
        for pos in random_positions(2_000, 13) {
            let f = net::features(&pos, network.inputs);
            let x = f.dense(network.inputs);
            let m: Vec<i64> = (0..network.inputs)
                .map(|i| (x[i] * net::DENOMINATORS[i] as f32).round() as i64)
                .collect();
            let hidden: Vec<f32> = (0..h)
                .map(|j| {
                    let sum = layer.b1[j] as i64
                        + (0..network.inputs)
                            .map(|i| layer.weight(i, j) as i64 * m[i])
                            .sum::<i64>();
                    assert!(sum.abs() <= net::SUM_BOUND);
                    network
                        .activation
                        .apply(sum as i32 as f32 * layer.unscale[j])
                })
                .collect();
            let out = network.forward(&f, &mut [0.0; net::MAX_HIDDEN]);
            assert_same_bits(&network, &f, &out, &hidden);
            for (o, p) in out.iter().enumerate() {
                let sum = network.b2[o]
                    + (0..h)
                        .map(|j| network.w2[o * h + j] * hidden[j])
                        .sum::<f32>();
                assert!((p - net::sigmoid(sum)).abs() < 1e-5);
            }
        }
    }
}

/// The engine's integer evaluation stays within a few thousandths of the
/// f32 one it was made from.
#[test]
fn the_integer_evaluation_stays_close_to_f32() {
    let [contact, race] = embedded_f32();
    let float = Networks {
        contact,
        race: Some(race),
    };
    let (mut probability, mut equity) = (0.0f32, 0.0f32);
    for pos in random_positions(20_000, 14) {
        let (a, b) = (net::embedded().outcomes(&pos), float.outcomes(&pos));
        for (p, q) in a.to_array().into_iter().zip(b.to_array()) {
            probability = probability.max((p - q).abs());
        }
        equity = equity.max((a.equity() - b.equity()).abs());
    }
    println!("largest difference: {probability} in a probability, {equity} in equity");
    assert!(
        probability < 0.005 && equity < 0.01,
        "{probability} {equity}"
    );
}

#[test]
fn every_input_unit_reads_its_own_fact() {
    let pos = Sugoroku::start(&SugorokuRules::default());
    let x = net::features(&pos, RAW_INPUTS).dense(RAW_INPUTS);
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
    // The hand-made features only for a network that reads them.
    let full = net::features(&pos, FULL_INPUTS).dense(FULL_INPUTS);
    assert_eq!(full[..RAW_INPUTS], x[..]);
    // At the start: no blots, so no shots; one home point made (6), the
    // rearmost stones on 24, two of them in the opponent's home; quadrants to
    // cross: 2 for each stone on 13, 1 on 8, 3 on 24.
    let mine = &full[RAW_INPUTS..RAW_INPUTS + net::HANDMADE_PER_SIDE];
    assert_eq!(mine[0], 0.0, "no blot to hit");
    assert_eq!(mine[3], 1.0 / 6.0, "one home point made");
    assert_eq!(mine[5], 24.0 / 25.0, "rearmost on 24");
    assert_eq!(mine[6], 2.0 / 15.0, "two stones in the opponent's home");
    assert_eq!(mine[7], (5.0 * 2.0 + 3.0 * 1.0 + 2.0 * 3.0) / 60.0);
    assert_eq!(mine[9], 0.0, "no blots");
    assert_eq!(
        mine,
        &full[RAW_INPUTS + net::HANDMADE_PER_SIDE..],
        "the start is symmetric"
    );
}

#[test]
fn the_weights_file_round_trips_and_damage_is_refused() {
    let network = Networks {
        contact: Network::random(FULL_INPUTS, 8, Activation::Relu, 3),
        race: Some(Network::random(RAW_INPUTS, 4, Activation::Sigmoid, 4)),
    };
    let bytes = network.to_bytes();
    assert_eq!(Networks::from_bytes(&bytes).unwrap(), network);
    let refused = |bytes: &[u8], says: &str| {
        let error = Networks::from_bytes(bytes).expect_err(says);
        assert!(error.contains(says), "{error}");
    };
    refused(&bytes[..bytes.len() - 1], "cut short");
    refused(&bytes[..10], "cut short");
    refused(b"", "too short");
    let mut flipped = bytes.clone();
    flipped[40] ^= 1;
    refused(&flipped, "checksum");
    let mut magic = bytes.clone();
    magic[0] = b'X';
    refused(&magic, "magic");
    let mut other = network.clone();
    other.contact.w1[0] = f32::NAN;
    refused(&other.to_bytes(), "not a finite number");
    let mut inputs = bytes.clone();
    inputs[12] ^= 1;
    refused(&inputs, "this engine reads");
    let mut count = bytes.clone();
    count[8] = 3;
    refused(&count, "1 or 2");
    let mut longer = bytes;
    longer.extend([0; 4]);
    refused(&longer, "bytes where");
    // The first format (one sigmoid network of the raw inputs, no count, no
    // activation) still reads, as one network for every position.
    let old = Network::random(RAW_INPUTS, 6, Activation::Sigmoid, 5);
    let mut v1 = net::MAGIC_V1.to_vec();
    for n in [RAW_INPUTS, 6, OUTPUTS] {
        v1.extend((n as u32).to_le_bytes());
    }
    for v in old.w1.iter().chain(&old.b1).chain(&old.w2).chain(&old.b2) {
        v1.extend(v.to_le_bytes());
    }
    let sum = v1.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3)
    });
    v1.extend(sum.to_le_bytes());
    let read = Networks::from_bytes(&v1).unwrap();
    assert_eq!((read.contact, read.race), (old, None));
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
        assert_eq!(
            pos.evaluate(&Default::default()),
            points * 1000,
            "{}",
            pos.sfen()
        );
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
        assert!(
            (low..=high).contains(&pos.evaluate(&Default::default())),
            "{}",
            pos.sfen()
        );
        // From the other side the same position is worth the opposite.
        let flipped = o.flipped();
        assert!((flipped.equity() + o.equity()).abs() < 1e-5);
    }
}

#[test]
fn the_hand_made_evaluation_stays_selectable() {
    let pos = Sugoroku::start(&SugorokuRules::default());
    let mut eval = SugorokuEval::default();
    let network = pos.evaluate(&eval);
    assert_eq!(eval.set("SugorokuEval", "handmade"), Ok(true));
    assert_eq!(eval.evaluation, Evaluation::Handmade);
    assert_ne!(pos.evaluate(&eval), network);
    assert!(eval.set("SugorokuEval", "oracle").is_err());
}
