//! Training the Sugoroku network by self-play (`train_sugoroku`): TD(λ) as
//! TD-Gammon learned, in its offline form. Each game is played by the network
//! itself choosing the turn whose result it values most (no search); when the
//! game ends, every position the side to roll met gets as its target the
//! λ-return — (1 − λ) × the network's value of the next position plus λ × the
//! next position's own target, the result at the end — and the weights move
//! toward it by one step of gradient descent on the cross-entropy of the five
//! sigmoid outputs.
//!
//! The benchmark against the hand-made evaluation is
//! `yomi_engine::sugoroku::duel` (duplicate dice, both at 0 ply).
//!
//! Game `g` draws its dice and its house rules from `(seed, g)` alone, so a
//! run is reproducible, and resuming from a checkpoint at game `g` gives the
//! same network as an uninterrupted run.
//!
//! [`generations`] trains in generations of positions labelled by look-ahead.

pub mod generations;

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use yomi_engine::core::{Game, MoveList};
use yomi_engine::search::ChanceGame;
use yomi_engine::session::Playable;
use yomi_engine::sugoroku::duel::{best_at_zero_ply, roll};
use yomi_engine::sugoroku::net::{
    self, Activation, Features, Network, Networks, Outcomes, FULL_INPUTS, MAX_HIDDEN, OUTPUTS,
};
use yomi_engine::sugoroku::{Closeout, Finish, Sugoroku, SugorokuRules};

/// Turns after which a game is abandoned (it never happens in practice:
/// stones only move forward, save those hit).
const MAX_TURNS: usize = 1_000;

/// The settings of a training run.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    pub seed: u64,
    /// Hidden units of the contact network.
    pub hidden: usize,
    /// Hidden units of the race network; 0: the contact network plays races too.
    pub race_hidden: usize,
    /// The learning rate.
    pub alpha: f32,
    pub lambda: f32,
}

/// The derived stream of game `game` of a run seeded `seed`.
pub fn game_rng(seed: u64, game: u64) -> Xoshiro256PlusPlus {
    Xoshiro256PlusPlus::seed_from_u64(seed ^ game.wrapping_mul(0x9E37_79B9_7F4A_7C15))
}

/// The house rules of a training game: half the games the default rules,
/// the others spread over the other five combinations, so that one network
/// serves them all.
pub fn training_rules(rng: &mut impl Rng) -> SugorokuRules {
    let all = [
        (Finish::AllHome, Closeout::Multiplier),
        (Finish::AllHome, Closeout::Instant),
        (Finish::AllHome, Closeout::Off),
        (Finish::BearOff, Closeout::Multiplier),
        (Finish::BearOff, Closeout::Instant),
        (Finish::BearOff, Closeout::Off),
    ];
    let (finish, closeout) = if rng.gen_bool(0.5) {
        all[0]
    } else {
        all[rng.gen_range(1..all.len())]
    };
    SugorokuRules { finish, closeout }
}

impl Settings {
    /// The networks a run starts from: random, of the hand-made inputs and
    /// rectified-linear units.
    pub fn initial_networks(&self) -> Networks {
        let make = |hidden, seed| Network::random(FULL_INPUTS, hidden, Activation::Relu, seed);
        Networks {
            contact: make(self.hidden, self.seed),
            race: (self.race_hidden > 0).then(|| make(self.race_hidden, self.seed ^ 0x5243)),
        }
    }
}

/// The network of `networks` that values `pos`, to learn from it.
fn network_for<'a>(networks: &'a mut Networks, pos: &Sugoroku) -> &'a mut Network {
    match &mut networks.race {
        Some(race) if !net::contact(pos) => race,
        _ => &mut networks.contact,
    }
}

/// The gradient step of one position toward `target`.
pub fn learn(network: &mut Network, f: &Features, target: &Outcomes, alpha: f32) {
    network.integer = None;
    let h = network.hidden;
    let mut hidden = [0.0; MAX_HIDDEN];
    let out = network.forward(f, &mut hidden);
    let target = target.to_array();
    // Sigmoid outputs under cross-entropy: the error itself is the gradient.
    let delta: [f32; OUTPUTS] = std::array::from_fn(|o| target[o] - out[o]);
    let mut back = [0.0; MAX_HIDDEN];
    for (o, d) in delta.iter().enumerate() {
        let row = &mut network.w2[o * h..(o + 1) * h];
        for j in 0..h {
            back[j] += d * row[j];
            row[j] += alpha * d * hidden[j];
        }
        network.b2[o] += alpha * d;
    }
    for j in 0..h {
        back[j] *= network.activation.slope(hidden[j]);
        network.b1[j] += alpha * back[j];
    }
    for k in 0..f.len {
        let (i, x) = (f.index[k] as usize, f.value(k));
        let row = &mut network.w1[i * h..(i + 1) * h];
        for j in 0..h {
            row[j] += alpha * back[j] * x;
        }
    }
}

/// Plays training game `game` and learns from it; returns the number of turns.
pub fn train_game(networks: &mut Networks, settings: &Settings, game: u64) -> usize {
    let mut rng = game_rng(settings.seed, game);
    let rules = training_rules(&mut rng);
    let mut pos = Sugoroku::start(&rules);
    let mut moves = MoveList::new();
    // The positions met by the side to roll, with the networks' value then.
    let mut seen: Vec<(Sugoroku, Outcomes)> = Vec::with_capacity(128);
    while pos.outcome().is_none() && seen.len() < MAX_TURNS {
        seen.push((pos, networks.outcomes(&pos)));
        pos.apply_chance(roll(&mut rng));
        moves.clear();
        pos.generate_moves(&mut moves);
        let mv = best_at_zero_ply(&pos, &moves, |after| -networks.outcomes(after).equity());
        pos.make(mv);
    }
    let Some(outcome) = pos.outcome() else {
        return seen.len();
    };
    // The result from the view of the side that rolled last.
    let mut target = Outcomes::decided(-outcome.value_for(pos.side_to_move()));
    let lambda = settings.lambda;
    for t in (0..seen.len()).rev() {
        let (pos, value) = seen[t];
        let network = network_for(networks, &pos);
        let features = net::features(&pos, network.inputs);
        learn(network, &features, &target, settings.alpha);
        // The target of the position before, from its roller's view.
        let mixed: [f32; OUTPUTS] = {
            let (v, g) = (value.to_array(), target.to_array());
            std::array::from_fn(|o| (1.0 - lambda) * v[o] + lambda * g[o])
        };
        target = Outcomes::from_array(mixed).flipped();
    }
    seen.len()
}

/// The mean of networks of one shape: how the shards of a round (each trained
/// from the same checkpoint on its own games) are merged.
pub fn average_sets(sets: &[Networks]) -> Result<Networks, String> {
    let contacts: Vec<Network> = sets.iter().map(|s| s.contact.clone()).collect();
    let races: Vec<Network> = sets.iter().filter_map(|s| s.race.clone()).collect();
    if !races.is_empty() && races.len() != sets.len() {
        return Err("some networks to merge have a race network and some not".into());
    }
    Ok(Networks {
        contact: average(&contacts)?,
        race: (!races.is_empty()).then(|| average(&races)).transpose()?,
    })
}

/// The mean of networks of one shape.
pub fn average(networks: &[Network]) -> Result<Network, String> {
    let first = networks.first().ok_or("no network to merge")?;
    let shape = |n: &Network| (n.inputs, n.hidden, n.activation);
    if networks.iter().any(|n| shape(n) != shape(first)) {
        return Err("the networks to merge have different shapes".into());
    }
    let k = networks.len() as f32;
    let mean = |field: fn(&Network) -> &[f32]| -> Vec<f32> {
        (0..field(first).len())
            .map(|i| networks.iter().map(|n| field(n)[i]).sum::<f32>() / k)
            .collect()
    };
    Ok(Network {
        inputs: first.inputs,
        hidden: first.hidden,
        activation: first.activation,
        w1: mean(|n| &n.w1),
        b1: mean(|n| &n.b1),
        w2: mean(|n| &n.w2),
        b2: mean(|n| &n.b2).try_into().expect("five outputs"),
        integer: None,
    })
}

/// The games shard `index` of `count` trains in a round of `games` that
/// starts after `done`.
pub fn shard_games(done: u64, games: u64, index: u64, count: u64) -> std::ops::Range<u64> {
    done + games * index / count..done + games * (index + 1) / count
}

/// Where a shard's checkpoint comes from: shard `index` of `count` of the
/// round that starts at game `from_games` from the checkpoint `from_id`
/// ([`checkpoint_id`]). A merge checks that every shard of one round is there.
#[derive(Clone, Debug, PartialEq)]
pub struct ShardOf {
    pub index: u64,
    pub count: u64,
    pub from_games: u64,
    pub from_id: String,
}

/// What names a checkpoint's weights: the checksum that ends the file (the
/// network format's, over every byte before it).
pub fn checkpoint_id(bytes: &[u8]) -> String {
    let tail: [u8; 8] = bytes[bytes.len().saturating_sub(8)..]
        .try_into()
        .unwrap_or([0; 8]);
    format!("{:016x}", u64::from_le_bytes(tail))
}

/// What a checkpoint records beside the weights: the settings, the games
/// trained and, for a shard, which one of which round; one `key value` per
/// line.
pub fn state_text(settings: &Settings, games: u64, shard: Option<&ShardOf>) -> String {
    let mut text = format!(
        "games {games}\nseed {}\nhidden {}\nrace_hidden {}\nalpha {}\nlambda {}\n",
        settings.seed, settings.hidden, settings.race_hidden, settings.alpha, settings.lambda
    );
    if let Some(shard) = shard {
        text.push_str(&format!(
            "shard {}/{}\nfrom_games {}\nfrom_id {}\n",
            shard.index, shard.count, shard.from_games, shard.from_id
        ));
    }
    text
}

/// Reads [`state_text`] back: the settings, the games trained and the shard.
pub fn parse_state(text: &str) -> Result<(Settings, u64, Option<ShardOf>), String> {
    let field = |name: &str| -> Option<&str> {
        text.lines()
            .find_map(|l| l.strip_prefix(name).and_then(|v| v.strip_prefix(' ')))
            .map(str::trim)
    };
    let need =
        |name: &str| field(name).ok_or_else(|| format!("the checkpoint state has no '{name}'"));
    fn parse<T: std::str::FromStr>(name: &str, value: &str) -> Result<T, String>
    where
        T::Err: std::fmt::Display,
    {
        value
            .parse()
            .map_err(|e| format!("checkpoint '{name}': {e}"))
    }
    let settings = Settings {
        seed: parse("seed", need("seed")?)?,
        hidden: parse("hidden", need("hidden")?)?,
        race_hidden: parse("race_hidden", need("race_hidden")?)?,
        alpha: parse("alpha", need("alpha")?)?,
        lambda: parse("lambda", need("lambda")?)?,
    };
    let games = parse("games", need("games")?)?;
    let shard = match field("shard") {
        None => None,
        Some(text) => {
            let (index, count) = crate::runner::config::parse_shard(text)?;
            Some(ShardOf {
                index,
                count,
                from_games: parse("from_games", need("from_games")?)?,
                from_id: need("from_id")?.to_string(),
            })
        }
    };
    Ok((settings, games, shard))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings() -> Settings {
        Settings {
            seed: 7,
            hidden: 16,
            race_hidden: 8,
            alpha: 0.02,
            lambda: 0.7,
        }
    }

    #[test]
    fn training_is_deterministic_and_resumes_exactly() {
        let s = settings();
        let run = |from: u64, to: u64, networks: &mut Networks| {
            for game in from..to {
                train_game(networks, &s, game);
            }
        };
        let mut a = s.initial_networks();
        run(0, 200, &mut a);
        let mut b = s.initial_networks();
        run(0, 120, &mut b);
        // A checkpoint written and read back, then the rest.
        let mut b = Networks::from_bytes(&b.to_bytes()).expect("a checkpoint reads back");
        run(120, 200, &mut b);
        assert_eq!(a.to_bytes(), b.to_bytes());
        let start = s.initial_networks();
        assert_ne!(a.contact, start.contact, "the contact network learned");
        assert_ne!(a.race, start.race, "the race network learned");
        let (read, games, shard) = parse_state(&state_text(&s, 200, None)).unwrap();
        assert_eq!((read, games, shard), (s.clone(), 200, None));
        let of = ShardOf {
            index: 2,
            count: 4,
            from_games: 100,
            from_id: checkpoint_id(&a.to_bytes()),
        };
        let (_, games, shard) = parse_state(&state_text(&s, 200, Some(&of))).unwrap();
        assert_eq!((games, shard), (200, Some(of)));
        assert_ne!(
            checkpoint_id(&a.to_bytes()),
            checkpoint_id(&s.initial_networks().to_bytes())
        );
    }

    #[test]
    fn shards_cover_a_round_and_merge_to_the_mean() {
        let ranges: Vec<_> = (0..3).map(|i| shard_games(100, 10, i, 3)).collect();
        assert_eq!(ranges, [100..103, 103..106, 106..110]);
        let random = |hidden, seed| Network::random(FULL_INPUTS, hidden, Activation::Relu, seed);
        let (a, b) = (random(4, 1), random(4, 2));
        let mean = average(&[a.clone(), b.clone()]).unwrap();
        assert!((mean.w1[5] - (a.w1[5] + b.w1[5]) / 2.0).abs() < 1e-7);
        assert_eq!(average(&[a.clone(), a.clone()]).unwrap(), a);
        assert!(average(&[a.clone(), random(5, 1)]).is_err());
        assert!(average(&[]).is_err());
        let with_race = Networks {
            contact: a.clone(),
            race: Some(b.clone()),
        };
        let without = Networks {
            contact: a,
            race: None,
        };
        assert_eq!(
            average_sets(&[with_race.clone(), with_race.clone()]).unwrap(),
            with_race
        );
        assert!(average_sets(&[with_race, without]).is_err());
    }

    #[test]
    fn learning_moves_the_output_toward_the_target() {
        let s = settings();
        let mut networks = s.initial_networks();
        let pos = Sugoroku::start(&SugorokuRules::default());
        let f = net::features(&pos, FULL_INPUTS);
        let target = Outcomes::decided(2);
        let before = networks.outcomes(&pos);
        for _ in 0..50 {
            learn(&mut networks.contact, &f, &target, 0.02);
        }
        let after = networks.outcomes(&pos);
        assert!(
            after.win > before.win && after.win2 > before.win2,
            "{before:?} -> {after:?}"
        );
        assert!(after.lose2 < before.lose2 || after.lose2 == 0.0);
    }
}
