//! A hand-made evaluation in expected points (thousandths) for the side to move.
//!
//! The race decides most of it: each side's remaining turns from its pip count
//! and stones still outside, and a winning chance from the difference. Contact
//! terms shift that chance as if they were turns gained or lost: exposed blots
//! (by the rolls of 36 that hit them), made points and primes, home-board points,
//! stones on the bar. The closed home adds the chance of a 2-point win under the
//! multiplier rule. No allocation: it runs at every leaf.

use super::dice::ROLLS;
use super::net::Networks;
use super::position::{Sugoroku, BAR, HOME, OFF};
use super::race::RaceTables;
use super::rules::{Closeout, Finish};
use crate::core::options::OptionValue;
use crate::core::{Game, HouseRules, OptionSpec, Seat};
use crate::search::Value;
use crate::tune::{Params, Spec, Tunable, Tuned};
use std::sync::Arc;

/// Pips a turn moves on average: two dice, a double is two moves as well.
const PIPS_PER_TURN: f32 = 7.0;

/// The evaluation's weights, from [`Handmade`]'s tunables.
#[derive(Clone, Copy, Debug)]
pub(super) struct Weights {
    /// Pips lost on average to overshooting the target with a stone's last move.
    pub waste_per_stone: f32,
    /// The spread of a race's length, in turns, per square root of the turns left.
    pub race_spread: f32,
    pub race_spread_min: f32,
    /// Turns' worth of a point made in the opponent's way outside the home.
    pub made_point: f32,
    /// Turns' worth of each home point made (blocks entry, grows toward the closed home).
    pub home_point: f32,
    /// Extra per point of a prime longer than two.
    pub prime_step: f32,
    /// Turns' worth of a stone on the bar, plus so much per opponent home point.
    pub bar_base: f32,
    pub bar_per_home_point: f32,
    /// How much of the pips a hit blot loses counts (contact games are less
    /// certain than the pip loss suggests).
    pub hit_loss_share: f32,
    /// The chance that a stone on the bar against a home with so many points
    /// (0..=6) made ends in the closed-home condition at the win.
    pub closeout_chance: [f32; 7],
}

/// The hand-made evaluation's tunables (docs/protocol.md, "Tunables"), in
/// thousandths of the [`Weights`] of the same names. Tuned by one-ply
/// self-play (allhome/multiplier, 4000 games with paired dice): these beat the
/// first guesses by about 0.36 points a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Handmade {
    pub waste_per_stone: i32,
    pub race_spread: i32,
    pub race_spread_min: i32,
    pub made_point: i32,
    pub home_point: i32,
    pub prime_step: i32,
    pub bar_base: i32,
    pub bar_per_home_point: i32,
    pub hit_loss_share: i32,
    /// Against a home of 2..=6 points made (none and one never close out).
    pub closeout_chance: [i32; 5],
}

impl Default for Handmade {
    fn default() -> Self {
        Handmade {
            waste_per_stone: 1000,
            race_spread: 800,
            race_spread_min: 500,
            made_point: 200,
            home_point: 700,
            prime_step: 500,
            bar_base: 400,
            bar_per_home_point: 250,
            hit_loss_share: 700,
            closeout_chance: [20, 50, 120, 300, 900],
        }
    }
}

impl Params for Handmade {
    const TUNABLES: &'static [Tunable<Self>] = &[
        Tunable::new("Tune_SugorokuWastePerStone", 0, 5000, |h| {
            &mut h.waste_per_stone
        }),
        Tunable::new("Tune_SugorokuRaceSpread", 0, 5000, |h| &mut h.race_spread),
        Tunable::new("Tune_SugorokuRaceSpreadMin", 0, 5000, |h| {
            &mut h.race_spread_min
        }),
        Tunable::new("Tune_SugorokuMadePoint", 0, 5000, |h| &mut h.made_point),
        Tunable::new("Tune_SugorokuHomePoint", 0, 5000, |h| &mut h.home_point),
        Tunable::new("Tune_SugorokuPrimeStep", 0, 5000, |h| &mut h.prime_step),
        Tunable::new("Tune_SugorokuBarBase", 0, 5000, |h| &mut h.bar_base),
        Tunable::new("Tune_SugorokuBarPerHomePoint", 0, 5000, |h| {
            &mut h.bar_per_home_point
        }),
        Tunable::new("Tune_SugorokuHitLossShare", 0, 1000, |h| {
            &mut h.hit_loss_share
        }),
        Tunable::new("Tune_SugorokuCloseout2", 0, 1000, |h| {
            &mut h.closeout_chance[0]
        }),
        Tunable::new("Tune_SugorokuCloseout3", 0, 1000, |h| {
            &mut h.closeout_chance[1]
        }),
        Tunable::new("Tune_SugorokuCloseout4", 0, 1000, |h| {
            &mut h.closeout_chance[2]
        }),
        Tunable::new("Tune_SugorokuCloseout5", 0, 1000, |h| {
            &mut h.closeout_chance[3]
        }),
        Tunable::new("Tune_SugorokuCloseout6", 0, 1000, |h| {
            &mut h.closeout_chance[4]
        }),
    ];
}

/// The evaluation the engine's search uses (`SugorokuEval`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Evaluation {
    /// The trained network ([`super::net`]); races the tables hold are
    /// valued exactly ([`super::race`]).
    #[default]
    Network,
    /// The hand-made evaluation, kept for comparison.
    Handmade,
}

/// The evaluator: which evaluation, the network (the embedded one unless a
/// file was read) and the hand-made evaluation's weights.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SugorokuEval {
    pub evaluation: Evaluation,
    /// A network read from `SugorokuWeights`; `None`: the embedded one.
    pub network: Option<Arc<Networks>>,
    pub handmade: Handmade,
    /// Whether the evaluation waits for a race table still being built.
    pub race_tables: RaceTables,
}

impl SugorokuEval {
    /// The network the evaluation uses.
    #[inline]
    pub fn network(&self) -> &Networks {
        self.network
            .as_deref()
            .unwrap_or_else(|| super::net::embedded())
    }
}

/// The evaluator's options, announced after the house rules.
const SPECS: &[OptionSpec] = &[
    OptionSpec::combo("SugorokuEval", "network", &["network", "handmade"]),
    OptionSpec::text("SugorokuWeights", ""),
];

/// Not rules of the game, but options set as rules are (by name, validated,
/// a file that cannot be read refused with the reason).
impl HouseRules for SugorokuEval {
    fn specs() -> &'static [OptionSpec] {
        SPECS
    }

    /// `SugorokuWeights`: a network file to read (empty or `<empty>`: the
    /// embedded network); a file that cannot be read or is not a valid network
    /// is refused and the network in use stays.
    fn try_apply(&mut self, spec: &OptionSpec, value: OptionValue) -> Result<(), String> {
        let OptionValue::Text(path) = &value else {
            self.apply(spec, value);
            return Ok(());
        };
        if path.is_empty() || path == "<empty>" {
            self.network = None;
            return Ok(());
        }
        let bytes = std::fs::read(path).map_err(|e| format!("cannot read the file: {e}"))?;
        self.network = Some(Arc::new(Networks::from_bytes(&bytes)?.quantised()));
        Ok(())
    }

    fn apply(&mut self, spec: &OptionSpec, value: OptionValue) {
        match (spec.name, value) {
            ("SugorokuEval", OptionValue::Choice(choice)) => {
                self.evaluation = if choice == "handmade" {
                    Evaluation::Handmade
                } else {
                    Evaluation::Network
                }
            }
            _ => unreachable!("validated option {} reached SugorokuEval", spec.name),
        }
    }
}

impl Tuned for SugorokuEval {
    fn visit(&mut self, visit: &mut dyn FnMut(Spec, &mut i32)) {
        self.handmade.visit(visit);
    }
}

impl Weights {
    /// The weights `handmade` sets.
    pub(super) fn of(handmade: &Handmade) -> Weights {
        let w = |thousandths: i32| thousandths as f32 / 1000.0;
        let mut closeout_chance = [0.0; 7];
        for (chance, &tunable) in closeout_chance[2..]
            .iter_mut()
            .zip(&handmade.closeout_chance)
        {
            *chance = w(tunable);
        }
        Weights {
            waste_per_stone: w(handmade.waste_per_stone),
            race_spread: w(handmade.race_spread),
            race_spread_min: w(handmade.race_spread_min),
            made_point: w(handmade.made_point),
            home_point: w(handmade.home_point),
            prime_step: w(handmade.prime_step),
            bar_base: w(handmade.bar_base),
            bar_per_home_point: w(handmade.bar_per_home_point),
            hit_loss_share: w(handmade.hit_loss_share),
            closeout_chance,
        }
    }
}

/// The rolls (a 21-bit set over [`ROLLS`]) that hit at each distance mask
/// (bit k − 1: an opponent stone k points away, k = 1..=12), ignoring blocks.
static HITTING_ROLLS: [u32; 1 << 12] = hitting_rolls();

const fn hitting_rolls() -> [u32; 1 << 12] {
    let mut table = [0u32; 1 << 12];
    let mut mask = 0;
    while mask < 1 << 12 {
        let mut set = 0u32;
        let mut i = 0;
        while i < 21 {
            let (roll, _) = ROLLS[i];
            if at(mask, roll.hi) || at(mask, roll.lo) || at(mask, roll.hi + roll.lo) {
                set |= 1 << i;
            }
            i += 1;
        }
        table[mask] = set;
        mask += 1;
    }
    table
}

/// Whether the distance mask has a stone `k` points away.
const fn at(mask: usize, k: u8) -> bool {
    k >= 1 && k <= 12 && mask >> (k - 1) & 1 != 0
}

/// The weight out of 36 of a set of rolls.
#[inline]
fn weight(set: u32) -> u32 {
    const DOUBLES: u32 = {
        let mut set = 0;
        let mut i = 0;
        while i < 21 {
            if ROLLS[i].0.is_double() {
                set |= 1 << i;
            }
            i += 1;
        }
        set
    };
    2 * (set & !DOUBLES).count_ones() + (set & DOUBLES).count_ones()
}

/// Turns `side` needs to finish if nothing stood in the way.
fn race_turns(pos: &Sugoroku, side: Seat, w: &Weights) -> f32 {
    let target = match pos.rules().finish {
        Finish::AllHome => HOME as u32,
        Finish::BearOff => OFF as u32,
    };
    let (mut pips, mut stones) = (0u32, 0u32);
    for point in target as u8 + 1..=BAR {
        let n = pos.count(side, point) as u32;
        pips += n * (point as u32 - target);
        stones += n;
    }
    let by_pips = (pips as f32 + w.waste_per_stone * stones as f32) / PIPS_PER_TURN;
    by_pips.max(stones as f32 / 2.0)
}

/// Each side's stones as bit sets over its own points 1..=24 (bit p: point p), read
/// once per evaluation.
struct Board {
    occupied: [u32; 2],
    /// Two or more stones.
    made: [u32; 2],
    /// Exactly one stone.
    blots: [u32; 2],
    on_bar: [u8; 2],
}

/// Bits 1..=24.
const POINTS_MASK: u32 = 0x1FF_FFFE;

impl Board {
    #[inline]
    fn read(pos: &Sugoroku) -> Self {
        let mut board = Board {
            occupied: [0; 2],
            made: [0; 2],
            blots: [0; 2],
            on_bar: [pos.count(Seat::FIRST, BAR), pos.count(Seat::SECOND, BAR)],
        };
        for side in 0..2 {
            for point in 1..=24u8 {
                let n = pos.count(Seat::new(side), point);
                let bit = 1u32 << point;
                if n > 0 {
                    board.occupied[side] |= bit;
                }
                if n >= 2 {
                    board.made[side] |= bit;
                } else if n == 1 {
                    board.blots[side] |= bit;
                }
            }
        }
        board
    }

    /// The other side's stones on points 1..=24 in `side`'s numbering
    /// (`side`'s point r is their point 25 − r).
    #[inline]
    fn theirs_seen_by(&self, side: Seat) -> u32 {
        (self.occupied[side.other().index()].reverse_bits() >> 6) & POINTS_MASK
    }

    /// Points of `side`'s home (1..=6) holding two or more stones.
    #[inline]
    fn home_points(&self, side: Seat) -> u32 {
        (self.made[side.index()] >> 1 & 0x3F).count_ones()
    }
}

/// Contact terms for `side` in turns gained (positive is good for `side`).
fn contact(board: &Board, side: Seat, w: &Weights) -> f32 {
    let them = side.other();
    // The opponent's stones in `side`'s numbering: bit r set when a stone stands on
    // `side`'s point r (bit 0 for the opponent's bar), moving up toward 24.
    let theirs = board.theirs_seen_by(side) | (board.on_bar[them.index()] > 0) as u32;
    let made = board.made[side.index()];
    let mut score = 0.0;
    let home_points = board.home_points(side);
    score += w.home_point * home_points as f32;
    // Points outside the home count while opponent stones are still behind them.
    let behind = theirs.trailing_zeros();
    let outside = made & !0x7F & u32::MAX.checked_shl(behind).unwrap_or(0);
    score += w.made_point * outside.count_ones() as f32;
    let mut run = made;
    let mut prime = 0;
    while run != 0 {
        run &= run >> 1;
        prime += 1;
    }
    if prime > 2 {
        score += w.prime_step * (prime - 2) as f32;
    }
    // Blots: the rolls that hit at least one, weighted by what the worst loses.
    let mut shots = 0u32;
    let mut worst_loss = 0u32;
    let mut blots = board.blots[side.index()];
    while blots != 0 {
        let point = blots.trailing_zeros();
        blots &= blots - 1;
        let low = point.saturating_sub(12);
        let window = theirs >> low & ((1u32 << (point - low)) - 1);
        if window == 0 {
            continue;
        }
        // Distance k = point − r: reverse the window so that bit k − 1 is r = point − k.
        let width = point - low;
        let mask = window.reverse_bits() >> (32 - width);
        let rolls = HITTING_ROLLS[mask as usize & 0xFFF];
        if rolls != 0 {
            shots |= rolls;
            worst_loss = worst_loss.max(25 - point);
        }
    }
    let hit_chance = weight(shots) as f32 / 36.0;
    score -= hit_chance * worst_loss as f32 / PIPS_PER_TURN * w.hit_loss_share;
    // Stones on the bar against the opponent's home.
    let their_home = board.home_points(them) as f32;
    let on_bar = board.on_bar[side.index()] as f32;
    score -= on_bar * (w.bar_base + w.bar_per_home_point * their_home);
    score
}

/// The chance that `side` ends with a closed home against a stone on the bar.
fn closeout_chance(board: &Board, side: Seat, w: &Weights) -> f32 {
    if board.on_bar[side.other().index()] == 0 {
        return 0.0;
    }
    w.closeout_chance[board.home_points(side) as usize]
}

/// Whether some stone of either side still has an opposing stone ahead of it.
fn in_contact(board: &Board) -> bool {
    if board.on_bar[0] > 0 || board.on_bar[1] > 0 {
        return true;
    }
    // b's rearmost stone against w's rearmost, both in b's numbering.
    let b_stones = board.occupied[0];
    let w_stones = board.theirs_seen_by(Seat::FIRST);
    b_stones != 0 && w_stones != 0 && w_stones.trailing_zeros() < 31 - b_stones.leading_zeros()
}

pub fn evaluate(pos: &Sugoroku, handmade: &Handmade) -> Value {
    evaluate_with(pos, &Weights::of(handmade))
}

pub(super) fn evaluate_with(pos: &Sugoroku, w: &Weights) -> Value {
    let me = pos.side_to_move();
    if let Some(outcome) = pos.outcome() {
        return outcome.value_for(me) * 1000;
    }
    let them = me.other();
    let board = Board::read(pos);
    let mut mine = race_turns(pos, me, w);
    let theirs = race_turns(pos, them, w);
    // On roll, the side to move gains half a turn; with dice rolled, it gains
    // what they are worth and the opponent is next to roll.
    let dice = pos.dice();
    let tempo = if dice.is_none() {
        0.5
    } else {
        let pips = match dice.count() {
            2 if dice.hi() == dice.lo() => 2 * dice.hi() as u32,
            _ => dice.hi() as u32 + dice.lo() as u32,
        };
        mine -= pips as f32 / PIPS_PER_TURN;
        -0.5
    };
    let mut lead = theirs - mine + tempo;
    if in_contact(&board) {
        lead += contact(&board, me, w) - contact(&board, them, w);
    }
    let spread = (w.race_spread * (mine.max(0.0) + theirs).sqrt()).max(w.race_spread_min);
    // A logistic curve close to the normal distribution of the race's length.
    let win = 1.0 / (1.0 + (-1.7 * lead / spread).exp());
    let mut points = 2.0 * win - 1.0;
    match pos.rules().closeout {
        Closeout::Multiplier if pos.rules().finish == Finish::AllHome => {
            points += win * closeout_chance(&board, me, w)
                - (1.0 - win) * closeout_chance(&board, them, w);
        }
        Closeout::Instant => {
            // A near-closed home against a stone on the bar is close to a win.
            points += (1.0 - win) * closeout_chance(&board, me, w) * 0.5
                - win * closeout_chance(&board, them, w) * 0.5;
        }
        _ => {}
    }
    ((points * 1000.0) as Value).clamp(-3000, 3000)
}
