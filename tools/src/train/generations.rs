//! Training the Sugoroku network in generations, as GNU Backgammon and wildbg
//! improved theirs: positions are sampled from self-play with the current
//! networks, labelled by a deeper look (every roll of the next turn, or two
//! turns), and the networks are fitted to the labels (supervised, the
//! cross-entropy of the five outputs); the next generation labels with the
//! fitted networks.
//!
//! - **Sampling** ([`label_game`]): game `g` of a run draws its house rules,
//!   dice and exploring moves from `(seed, g)` alone, so a shard of games is
//!   the same whoever runs it. Every position waiting for a roll is valued at
//!   0 ply and at one turn of look-ahead; it is kept when the two disagree by
//!   `keep_above` points or more, otherwise with probability `keep_rest`.
//! - **Labels** ([`Labels`]): the probabilities of the five results after
//!   `plies` turns of look-ahead ([`lookahead`]), every roll weighed, each
//!   roll's turn the one the look-ahead values most (at two turns, the best
//!   few at 0 ply are looked at deeper, GNU Backgammon's move filter); or
//!   truncated rollouts ([`rollout`]): games played on at 0 ply for some
//!   turns and valued there by the networks, the luck of every roll taken
//!   off, as GNU Backgammon's variance reduction does.
//! - **Data** ([`Header`], [`encode`]): a file of fixed-size records after a
//!   header that says how they were made, so that shards of one run join and
//!   shards of different runs do not.
//! - **Fitting** ([`fit_epoch`]): stochastic gradient descent over the union of
//!   the data, in a seeded order, the race network on race positions.

use crate::train::{game_rng, learn, training_rules};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use yomi_engine::core::{Game, MoveList, Seat};
use yomi_engine::search::ChanceGame;
use yomi_engine::session::Playable;
use yomi_engine::sugoroku::duel::roll;
use yomi_engine::sugoroku::net::{self, Networks, Outcomes, OUTPUTS};
use yomi_engine::sugoroku::race::{self, RaceTables};
use yomi_engine::sugoroku::{Closeout, Finish, Sugoroku, SugorokuMove, SugorokuRules, ROLLS};

pub const DATA_MAGIC: &[u8; 8] = b"YOMISGD1";
pub const HEADER_BYTES: usize = 64;
/// Both sides' stones (2 × 26), the side to roll, the rules, five targets
/// as u16 fractions of 65535.
pub const RECORD_BYTES: usize = 64;
/// Turns after which a sampling game is abandoned (never reached in practice).
const MAX_TURNS: usize = 1_000;
/// At two turns of look-ahead, the turns of each roll looked at deeper.
const DEEP_CANDIDATES: usize = 3;

/// How the kept positions are labelled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Labels {
    /// Every roll of this many turns (1 or 2), each roll's best turn.
    LookAhead(u32),
    /// `trials` games on from the position, cut after `turns` turns.
    Rollout { trials: u16, turns: u8 },
}

impl Labels {
    /// The header's four bytes: look-ahead as the turns (a u32, as the first
    /// files wrote it), a rollout as 0, the turns, the trials (u16).
    fn to_bytes(self) -> [u8; 4] {
        match self {
            Labels::LookAhead(plies) => plies.to_le_bytes(),
            Labels::Rollout { trials, turns } => {
                let [lo, hi] = trials.to_le_bytes();
                [0, turns, lo, hi]
            }
        }
    }

    fn from_bytes(bytes: [u8; 4]) -> Option<Self> {
        match bytes {
            [0, turns, lo, hi] if turns > 0 && (lo, hi) != (0, 0) => Some(Labels::Rollout {
                trials: u16::from_le_bytes([lo, hi]),
                turns,
            }),
            _ => match u32::from_le_bytes(bytes) {
                plies @ 1..=2 => Some(Labels::LookAhead(plies)),
                _ => None,
            },
        }
    }
}

/// How a data file was made; shards of one run differ only in their games.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Header {
    pub seed: u64,
    pub labels: Labels,
    pub keep_above: f32,
    pub keep_rest: f32,
    /// The probability of an exploring move (a random legal turn) in sampling.
    pub explore: f32,
    /// The FNV-1a checksum of the networks file that played and labelled.
    pub networks: u64,
    /// The games of the whole run, `0..games`, and of this file, `first..end`.
    pub games: u64,
    pub first: u64,
    pub end: u64,
}

impl Header {
    pub fn to_bytes(&self) -> [u8; HEADER_BYTES] {
        let mut out = [0u8; HEADER_BYTES];
        out[..8].copy_from_slice(DATA_MAGIC);
        out[8..16].copy_from_slice(&self.seed.to_le_bytes());
        out[16..20].copy_from_slice(&self.labels.to_bytes());
        out[20..24].copy_from_slice(&self.keep_above.to_le_bytes());
        out[24..28].copy_from_slice(&self.keep_rest.to_le_bytes());
        out[28..32].copy_from_slice(&self.explore.to_le_bytes());
        out[32..40].copy_from_slice(&self.networks.to_le_bytes());
        out[40..48].copy_from_slice(&self.first.to_le_bytes());
        out[48..56].copy_from_slice(&self.end.to_le_bytes());
        out[56..64].copy_from_slice(&self.games.to_le_bytes());
        out
    }

    pub fn from_bytes(bytes: &[u8]) -> Result<Self, String> {
        if bytes.len() < HEADER_BYTES || &bytes[..8] != DATA_MAGIC {
            return Err("not a Yomi Sugoroku data file (wrong magic or too short)".into());
        }
        let u64_at = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8"));
        let u32_at = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4"));
        let f32_at = |at: usize| f32::from_bits(u32_at(at));
        let labels = Labels::from_bytes(bytes[16..20].try_into().expect("4"))
            .ok_or_else(|| format!("damaged labels {:?}", &bytes[16..20]))?;
        let header = Header {
            seed: u64_at(8),
            labels,
            keep_above: f32_at(20),
            keep_rest: f32_at(24),
            explore: f32_at(28),
            networks: u64_at(32),
            first: u64_at(40),
            end: u64_at(48),
            games: u64_at(56),
        };
        if header.first > header.end || header.end > header.games {
            return Err(format!("a damaged header: {header:?}"));
        }
        Ok(header)
    }

    /// Whether `other` is a shard of the same run.
    pub fn same_run(&self, other: &Header) -> bool {
        Header {
            first: 0,
            end: 0,
            ..*self
        } == Header {
            first: 0,
            end: 0,
            ..*other
        }
    }
}

/// A labelled position: waiting for the roll of its side to move.
#[derive(Clone, Copy, Debug)]
pub struct Sample {
    pub pos: Sugoroku,
    pub target: Outcomes,
}

fn rules_code(rules: &SugorokuRules) -> u8 {
    let finish = (rules.finish == Finish::BearOff) as u8;
    let closeout = match rules.closeout {
        Closeout::Multiplier => 0,
        Closeout::Instant => 1,
        Closeout::Off => 2,
    };
    finish | closeout << 1
}

fn rules_from_code(code: u8) -> Result<SugorokuRules, String> {
    let closeout = match code >> 1 {
        0 => Closeout::Multiplier,
        1 => Closeout::Instant,
        2 => Closeout::Off,
        _ => return Err(format!("rules code {code}")),
    };
    let finish = if code & 1 == 1 {
        Finish::BearOff
    } else {
        Finish::AllHome
    };
    Ok(SugorokuRules { finish, closeout })
}

pub fn encode(sample: &Sample) -> [u8; RECORD_BYTES] {
    let mut out = [0u8; RECORD_BYTES];
    let board = sample.pos.board();
    out[..26].copy_from_slice(&board[0]);
    out[26..52].copy_from_slice(&board[1]);
    out[52] = sample.pos.side_to_move().index() as u8;
    out[53] = rules_code(sample.pos.rules());
    for (k, p) in sample.target.to_array().into_iter().enumerate() {
        let q = (p.clamp(0.0, 1.0) * 65535.0).round() as u16;
        out[54 + 2 * k..56 + 2 * k].copy_from_slice(&q.to_le_bytes());
    }
    out
}

pub fn decode(bytes: &[u8]) -> Result<Sample, String> {
    let mut board = [[0u8; 26]; 2];
    board[0].copy_from_slice(&bytes[..26]);
    board[1].copy_from_slice(&bytes[26..52]);
    let rules = rules_from_code(bytes[53])?;
    if bytes[52] > 1 {
        return Err(format!("side {}", bytes[52]));
    }
    let pos = Sugoroku::from_board(&board, Seat::new(bytes[52] as usize), &rules)?;
    let target: [f32; OUTPUTS] = std::array::from_fn(|k| {
        u16::from_le_bytes([bytes[54 + 2 * k], bytes[55 + 2 * k]]) as f32 / 65535.0
    });
    Ok(Sample {
        pos,
        target: Outcomes::from_array(target),
    })
}

/// The records of a data file after its header (a record cut short by an
/// interrupted write is left out).
pub fn read_records(bytes: &[u8]) -> Result<Vec<Sample>, String> {
    bytes[HEADER_BYTES..]
        .chunks_exact(RECORD_BYTES)
        .enumerate()
        .map(|(i, r)| decode(r).map_err(|e| format!("record {i}: {e}")))
        .collect()
}

/// The results for the side to roll in `pos` as the engine's evaluation
/// gives them at 0 ply: exact in a race the tables hold, else the networks'.
fn at_zero_ply(networks: &Networks, pos: &Sugoroku) -> Outcomes {
    race::outcomes(networks, pos, RaceTables::Wait)
}

/// Whether no look-ahead can change `pos`'s value: the game is decided, or
/// it is a race the tables hold.
fn settled(pos: &Sugoroku) -> bool {
    pos.outcome().is_some() || race::exact(pos, RaceTables::Wait).is_some()
}

/// The outcomes for the side that has just played to reach `after`.
fn for_mover(networks: &Networks, after: &Sugoroku) -> Outcomes {
    at_zero_ply(networks, after).flipped()
}

/// The best turn of `rolled` (dice to play) at 0 ply, the first of equal
/// ones: the position after it and its results for the side that played it.
fn best_turn(
    networks: &Networks,
    rolled: &Sugoroku,
    moves: &mut MoveList<SugorokuMove>,
) -> (Sugoroku, Outcomes) {
    moves.clear();
    rolled.generate_moves(moves);
    let mut best: Option<(Sugoroku, Outcomes)> = None;
    for &mv in moves.iter() {
        let mut after = *rolled;
        after.make(mv);
        let value = for_mover(networks, &after);
        if best.is_none_or(|(_, b)| value.equity() > b.equity()) {
            best = Some((after, value));
        }
    }
    best.expect("a roll has a turn")
}

/// The probabilities of the results for the side to roll in `pos` after
/// `plies` turns of look-ahead (0: the evaluation itself; a race the tables
/// hold is exact at any depth).
pub fn lookahead(networks: &Networks, pos: &Sugoroku, plies: u32) -> Outcomes {
    if plies == 0 || settled(pos) {
        return at_zero_ply(networks, pos);
    }
    let mut sum = [0.0f32; OUTPUTS];
    let mut moves: MoveList<SugorokuMove> = MoveList::new();
    let mut rated: Vec<(f32, Sugoroku, Outcomes)> = Vec::with_capacity(64);
    for &(roll, weight) in ROLLS.iter() {
        let mut rolled = *pos;
        rolled.apply_chance(roll);
        let chosen = if plies == 1 {
            best_turn(networks, &rolled, &mut moves).1
        } else {
            moves.clear();
            rolled.generate_moves(&mut moves);
            rated.clear();
            for &mv in moves.iter() {
                let mut after = rolled;
                after.make(mv);
                let o = for_mover(networks, &after);
                rated.push((o.equity(), after, o));
            }
            rated.sort_by(|a, b| b.0.total_cmp(&a.0));
            rated
                .iter()
                .take(DEEP_CANDIDATES)
                .map(|(_, after, _)| lookahead(networks, after, plies - 1).flipped())
                .max_by(|a, b| a.equity().total_cmp(&b.equity()))
                .expect("a roll has a turn")
        };
        for (s, p) in sum.iter_mut().zip(chosen.to_array()) {
            *s += weight as f32 * p;
        }
    }
    Outcomes::from_array(sum.map(|s| s / 36.0))
}

/// The results for the side to roll in `pos` by truncated rollouts: `trials`
/// games played on, each turn the best at 0 ply, cut after `turns` turns or
/// where a race the tables hold begins, valued there (by the result, if the
/// game ended), and averaged. Each roll's luck (what its best turn is worth
/// to the mover, less the mean over all rolls) is taken off the trial's
/// value: the dice that make a trial lucky cancel, which keeps the mean and
/// cuts its variance (GNU Backgammon's variance reduction).
pub fn rollout(
    networks: &Networks,
    pos: &Sugoroku,
    trials: u16,
    turns: u8,
    rng: &mut Xoshiro256PlusPlus,
) -> Outcomes {
    if settled(pos) {
        return at_zero_ply(networks, pos);
    }
    let root = pos.side_to_move();
    let mut moves: MoveList<SugorokuMove> = MoveList::new();
    let mut sum = [0.0f64; OUTPUTS];
    // Every trial's first turn is from `pos`: its rolls are valued once.
    let first_turn = rolls_best_turns(networks, pos, root, &mut moves);
    for _ in 0..trials {
        let mut at = *pos;
        let mut luck = [0.0f32; OUTPUTS];
        for turn in 0..turns {
            if settled(&at) {
                break;
            }
            let drawn = roll(rng);
            let later;
            let (best, mean) = if turn == 0 {
                &first_turn
            } else {
                later = rolls_best_turns(networks, &at, root, &mut moves);
                &later
            };
            let (after, value) = ROLLS
                .iter()
                .zip(best)
                .find(|((dice, _), _)| *dice == drawn)
                .map(|(_, played)| *played)
                .expect("the drawn roll is one of the 21");
            for ((l, v), m) in luck.iter_mut().zip(value).zip(mean) {
                *l += v - m;
            }
            at = after;
        }
        let end = at_zero_ply(networks, &at);
        let end = if at.side_to_move() == root {
            end
        } else {
            end.flipped()
        };
        for ((s, e), l) in sum.iter_mut().zip(end.to_array()).zip(luck) {
            *s += (e - l) as f64;
        }
    }
    Outcomes::from_array(sum.map(|s| (s / trials as f64) as f32)).sanitized(true)
}

/// Each roll's best turn at 0 ply from `at` (in the order of [`ROLLS`]) with
/// its results in `root`'s view, and their mean over the rolls.
#[allow(clippy::type_complexity)]
fn rolls_best_turns(
    networks: &Networks,
    at: &Sugoroku,
    root: Seat,
    moves: &mut MoveList<SugorokuMove>,
) -> ([(Sugoroku, [f32; OUTPUTS]); ROLLS.len()], [f32; OUTPUTS]) {
    let ours = at.side_to_move() == root;
    let mut mean = [0.0f32; OUTPUTS];
    let best = ROLLS.map(|(dice, weight)| {
        let mut rolled = *at;
        rolled.apply_chance(dice);
        let (after, value) = best_turn(networks, &rolled, moves);
        let value = if ours { value } else { value.flipped() }.to_array();
        for (m, v) in mean.iter_mut().zip(value) {
            *m += weight as f32 * v / 36.0;
        }
        (after, value)
    });
    (best, mean)
}

/// The sampling settings of a run (everything in [`Header`] but the games).
#[derive(Clone, Copy, Debug)]
pub struct Sampling {
    pub seed: u64,
    pub labels: Labels,
    pub keep_above: f32,
    pub keep_rest: f32,
    pub explore: f32,
}

/// Plays sampling game `game` with `networks` and returns its kept positions,
/// labelled.
pub fn label_game(networks: &Networks, sampling: &Sampling, game: u64) -> Vec<Sample> {
    let mut rng = game_rng(sampling.seed, game);
    let rules = training_rules(&mut rng);
    let mut pos = Sugoroku::start(&rules);
    let mut moves: MoveList<SugorokuMove> = MoveList::new();
    let mut kept = Vec::new();
    for _ in 0..MAX_TURNS {
        if pos.outcome().is_some() {
            break;
        }
        let quick = at_zero_ply(networks, &pos);
        let one = lookahead(networks, &pos, 1);
        let keep_draw: f32 = rng.gen();
        if (one.equity() - quick.equity()).abs() >= sampling.keep_above
            || keep_draw < sampling.keep_rest
        {
            let target = match sampling.labels {
                Labels::LookAhead(1) => one,
                Labels::LookAhead(plies) => lookahead(networks, &pos, plies),
                Labels::Rollout { trials, turns } => {
                    rollout(networks, &pos, trials, turns, &mut rng)
                }
            };
            kept.push(Sample { pos, target });
        }
        pos.apply_chance(roll(&mut rng));
        moves.clear();
        pos.generate_moves(&mut moves);
        let mv = if rng.gen::<f32>() < sampling.explore {
            moves[rng.gen_range(0..moves.len())]
        } else {
            yomi_engine::sugoroku::duel::best_at_zero_ply(&pos, &moves, |after| {
                for_mover(networks, after).equity()
            })
        };
        pos.make(mv);
    }
    kept
}

/// The mean cross-entropy of the five outputs and the mean squared equity
/// error of `networks` over `samples`.
pub fn loss(networks: &Networks, samples: &[Sample]) -> (f64, f64) {
    let mut entropy = 0.0;
    let mut squared = 0.0;
    for s in samples {
        let mut hidden = [0.0; net::MAX_HIDDEN];
        let network = networks.for_position(&s.pos);
        let out = network.forward(&net::features(&s.pos, network.inputs), &mut hidden);
        for (p, t) in out.iter().zip(s.target.to_array()) {
            let p = p.clamp(1e-6, 1.0 - 1e-6) as f64;
            entropy -= t as f64 * p.ln() + (1.0 - t as f64) * (1.0 - p).ln();
        }
        let e = networks.outcomes(&s.pos).equity() - s.target.equity();
        squared += (e * e) as f64;
    }
    let n = samples.len().max(1) as f64;
    (entropy / n, squared / n)
}

/// One pass of gradient descent over `samples` in the order seeded by
/// `(seed, epoch)`.
pub fn fit_epoch(networks: &mut Networks, samples: &[Sample], alpha: f32, seed: u64, epoch: u64) {
    let mut order: Vec<u32> = (0..samples.len() as u32).collect();
    order.shuffle(&mut Xoshiro256PlusPlus::seed_from_u64(
        seed ^ epoch.wrapping_mul(0xA24B_AED4_963E_E407),
    ));
    for i in order {
        let s = &samples[i as usize];
        let network = match &mut networks.race {
            Some(race) if !net::contact(&s.pos) => race,
            _ => &mut networks.contact,
        };
        let f = net::features(&s.pos, network.inputs);
        learn(network, &f, &s.target, alpha);
    }
}

/// Whether sample `index` is held out of fitting to measure it (one in twenty).
pub fn held_out(index: usize) -> bool {
    yomi_engine::core::zobrist::splitmix64(index as u64)
        .1
        .is_multiple_of(20)
}

#[cfg(test)]
mod tests {
    use super::*;
    use yomi_engine::sugoroku::net::{Activation, Network, FULL_INPUTS};

    fn small() -> Networks {
        Networks {
            contact: Network::random(FULL_INPUTS, 16, Activation::Relu, 1),
            race: Some(Network::random(FULL_INPUTS, 8, Activation::Relu, 2)),
        }
    }

    #[test]
    fn records_and_headers_read_back() {
        let networks = small();
        let sampling = Sampling {
            seed: 3,
            labels: Labels::LookAhead(1),
            keep_above: 0.0,
            keep_rest: 1.0,
            explore: 0.1,
        };
        let samples = label_game(&networks, &sampling, 0);
        assert!(samples.len() > 20);
        for s in &samples {
            let back = decode(&encode(s)).unwrap();
            assert_eq!(back.pos.board(), s.pos.board());
            assert_eq!(back.pos.rules(), s.pos.rules());
            for (a, b) in back.target.to_array().iter().zip(s.target.to_array()) {
                assert!((a - b).abs() < 1e-4);
            }
        }
        let header = Header {
            seed: 3,
            labels: Labels::LookAhead(2),
            keep_above: 0.05,
            keep_rest: 0.25,
            explore: 0.1,
            networks: 77,
            games: 40,
            first: 10,
            end: 20,
        };
        assert_eq!(Header::from_bytes(&header.to_bytes()).unwrap(), header);
        let other = Header {
            first: 20,
            end: 30,
            ..header
        };
        assert!(header.same_run(&other));
        assert!(!header.same_run(&Header { seed: 4, ..other }));
        assert!(!header.same_run(&Header { games: 50, ..other }));
        assert!(Header::from_bytes(b"YOMISGN2........").is_err());
    }

    #[test]
    fn sampling_a_game_is_a_function_of_seed_and_game() {
        let networks = small();
        let sampling = Sampling {
            seed: 5,
            labels: Labels::LookAhead(1),
            keep_above: 0.02,
            keep_rest: 0.3,
            explore: 0.1,
        };
        let a = label_game(&networks, &sampling, 7);
        let b = label_game(&networks, &sampling, 7);
        let c = label_game(&networks, &sampling, 8);
        let boards = |s: &[Sample]| s.iter().map(|x| *x.pos.board()).collect::<Vec<_>>();
        assert_eq!(boards(&a), boards(&b));
        assert_ne!(boards(&a), boards(&c));
    }

    #[test]
    fn one_turn_of_lookahead_is_the_rolls_mean_of_the_best_turn() {
        // By hand for the start position: every roll's best turn at 0 ply.
        let networks = small();
        let pos = Sugoroku::start(&SugorokuRules::default());
        let mut expected = 0.0;
        for &(roll, weight) in ROLLS.iter() {
            let mut rolled = pos;
            rolled.apply_chance(roll);
            let mut moves = MoveList::new();
            rolled.generate_moves(&mut moves);
            let best = moves
                .iter()
                .map(|&mv| {
                    let mut after = rolled;
                    after.make(mv);
                    -networks.outcomes(&after).equity()
                })
                .fold(f32::NEG_INFINITY, f32::max);
            expected += weight as f32 * best / 36.0;
        }
        let got = lookahead(&networks, &pos, 1).equity();
        assert!((got - expected).abs() < 1e-4, "{got} {expected}");
        // Two turns look at least as far: a different value.
        assert_ne!(lookahead(&networks, &pos, 2), lookahead(&networks, &pos, 1));
    }

    #[test]
    fn a_rollout_of_one_turn_is_the_one_turn_lookahead_whatever_the_dice() {
        // The luck taken off leaves the mean over the rolls, exactly.
        let networks = small();
        let pos = Sugoroku::start(&SugorokuRules::default());
        let one = lookahead(&networks, &pos, 1).to_array();
        for seed in 0..3 {
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
            let rolled = rollout(&networks, &pos, 2, 1, &mut rng).to_array();
            for (a, b) in rolled.iter().zip(one) {
                assert!((a - b).abs() < 1e-5, "{rolled:?} {one:?}");
            }
        }
        // Longer ones look further: another value, the same for the same dice.
        let mut a = Xoshiro256PlusPlus::seed_from_u64(1);
        let mut b = Xoshiro256PlusPlus::seed_from_u64(1);
        let far = rollout(&networks, &pos, 4, 6, &mut a);
        assert_eq!(far, rollout(&networks, &pos, 4, 6, &mut b));
        assert_ne!(far.to_array(), one);
    }

    #[test]
    fn races_the_tables_hold_are_labelled_exactly() {
        let networks = small();
        for finish in [Finish::AllHome, Finish::BearOff] {
            let rules = SugorokuRules {
                finish,
                ..SugorokuRules::default()
            };
            for pos in yomi_engine::sugoroku::duel::race_starts(3, 11, &rules) {
                let exact = race::exact(&pos, RaceTables::Wait).expect("a race the tables hold");
                let mut rng = Xoshiro256PlusPlus::seed_from_u64(2);
                assert_eq!(rollout(&networks, &pos, 3, 5, &mut rng), exact);
                assert_eq!(lookahead(&networks, &pos, 2), exact);
                assert_ne!(networks.outcomes(&pos), exact, "the small networks guess");
            }
        }
    }

    #[test]
    fn rollout_labels_are_written_and_read_as_such() {
        let labels = Labels::Rollout {
            trials: 300,
            turns: 9,
        };
        assert_eq!(Labels::from_bytes(labels.to_bytes()), Some(labels));
        // The look-ahead files of before read as they were written.
        assert_eq!(
            Labels::from_bytes(2u32.to_le_bytes()),
            Some(Labels::LookAhead(2))
        );
        for damaged in [[0, 0, 5, 0], [0, 9, 0, 0], [3, 0, 0, 0]] {
            assert_eq!(Labels::from_bytes(damaged), None);
        }
        // Rollout labels are a function of seed and game, as the sampling.
        let networks = small();
        let sampling = Sampling {
            seed: 4,
            labels: Labels::Rollout {
                trials: 2,
                turns: 3,
            },
            keep_above: 0.0,
            keep_rest: 0.2,
            explore: 0.1,
        };
        let a = label_game(&networks, &sampling, 1);
        let b = label_game(&networks, &sampling, 1);
        assert!(!a.is_empty());
        let targets = |s: &[Sample]| s.iter().map(|x| x.target).collect::<Vec<_>>();
        assert_eq!(targets(&a), targets(&b));
    }

    #[test]
    fn fitting_lowers_the_loss_on_the_data() {
        let mut networks = small();
        let sampling = Sampling {
            seed: 9,
            labels: Labels::LookAhead(1),
            keep_above: 0.0,
            keep_rest: 1.0,
            explore: 0.0,
        };
        let samples: Vec<Sample> = (0..10)
            .flat_map(|g| label_game(&networks, &sampling, g))
            .collect();
        let before = loss(&networks, &samples);
        for epoch in 0..5 {
            fit_epoch(&mut networks, &samples, 0.01, 1, epoch);
        }
        let after = loss(&networks, &samples);
        assert!(
            after.0 < before.0 && after.1 < before.1,
            "{before:?} {after:?}"
        );
    }
}
