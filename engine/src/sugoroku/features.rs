//! The network's inputs: the raw board in TD-Gammon's truncated unary code,
//! and hand-made features recomputed for this game's rules (a double is two
//! moves, not four; no bear-off under `allhome`), as GNU Backgammon's contact
//! nets add to the raw board.
//!
//! - **Raw** ([`RAW_INPUTS`], the first networks' whole input): for each side
//!   and each of its points 1–24 four units (one stone, two, three, half the
//!   stones beyond three); the bar in the same code (three units); stones home
//!   and borne off (/15); the pip count (/100); whether the sides can still
//!   meet; the house rules that change values (bear-off finish, instant or no
//!   closeout).
//! - **Hand-made** ([`HANDMADE_PER_SIDE`] per side, after the raw ones): the
//!   rolls of 36 on which the opponent hits one of the side's blots, the rolls
//!   on which its rearmost stone gets past the blocks in front of it, its
//!   longest prime, home points made, home points made while an opposing stone
//!   is on the bar, its rearmost point, its stones in the opponent's home,
//!   quadrant crossings to go, pips to bring every stone home, and its blots.
//!
//! Both sides are seen from the side to move: its own values first.

use super::dice::ROLLS;
use super::position::{mirror, Sugoroku, BAR, HOME, OFF, STONES};
use super::rules::{Closeout, Finish};
use crate::core::Game;

/// Units per point in the truncated unary code.
const UNITS: usize = 4;
const POINT_INPUTS: usize = 2 * 24 * UNITS;
const BAR_INPUTS: usize = 2 * 3;
/// Per side: home, off, pips; then contact and three rule flags.
pub const RAW_INPUTS: usize = POINT_INPUTS + BAR_INPUTS + 2 * 3 + 1 + 3;
pub const HANDMADE_PER_SIDE: usize = 10;
/// The raw inputs and both sides' hand-made features.
pub const FULL_INPUTS: usize = RAW_INPUTS + 2 * HANDMADE_PER_SIDE;
/// Inputs that can be set at once: a point or the bar sets at most as many
/// units as it holds stones (15 a side), then the six per-side scalars,
/// contact, the rules and the hand-made features.
pub const MAX_ACTIVE: usize = 2 * 15 + 2 * 3 + 4 + 2 * HANDMADE_PER_SIDE;

/// The set inputs of a position: (index, value) pairs, in increasing index.
#[derive(Clone, Copy, Debug)]
pub struct Features {
    pub index: [u16; MAX_ACTIVE],
    pub value: [f32; MAX_ACTIVE],
    pub len: usize,
}

impl Features {
    #[inline]
    fn set(&mut self, index: usize, value: f32) {
        if value != 0.0 {
            self.push(index, value);
        }
    }

    /// Sets an input known not to be 0.
    #[inline]
    fn push(&mut self, index: usize, value: f32) {
        self.index[self.len] = index as u16;
        self.value[self.len] = value;
        self.len += 1;
    }

    /// The inputs as a dense vector of `inputs` values (references and tests).
    pub fn dense(&self, inputs: usize) -> Vec<f32> {
        let mut x = vec![0.0; inputs];
        for k in 0..self.len {
            x[self.index[k] as usize] = self.value[k];
        }
        x
    }
}

/// The truncated unary code of a count: 1 from one, 1 from two, 1 from three
/// (only the first `units − 1`), and half of what is beyond. Written without
/// testing each unit: most counts are 0 and set nothing.
#[inline]
fn unary(out: &mut Features, base: usize, units: usize, count: u8) {
    let count = count as usize;
    for u in 0..count.min(units - 1) {
        out.push(base + u, 1.0);
    }
    if count >= units {
        out.push(base + units - 1, (count - (units - 1)) as f32 / 2.0);
    }
}

/// The inputs of `pos` from the view of the side to move (the side about to
/// roll): the raw ones, and the hand-made ones when `inputs` has room for them.
pub fn features(pos: &Sugoroku, inputs: usize) -> Features {
    let mut f = Features {
        index: [0; MAX_ACTIVE],
        value: [0.0; MAX_ACTIVE],
        len: 0,
    };
    let us = pos.side_to_move();
    for (k, side) in [us, us ^ 1].into_iter().enumerate() {
        for point in 1..=24u8 {
            let base = (k * 24 + point as usize - 1) * UNITS;
            unary(&mut f, base, UNITS, pos.count(side, point));
        }
    }
    for (k, side) in [us, us ^ 1].into_iter().enumerate() {
        unary(&mut f, POINT_INPUTS + k * 3, 3, pos.count(side, BAR));
    }
    for (k, side) in [us, us ^ 1].into_iter().enumerate() {
        let scalars = POINT_INPUTS + BAR_INPUTS + k * 3;
        f.set(scalars, pos.home_count(side) as f32 / STONES as f32);
        f.set(scalars + 1, pos.count(side, OFF) as f32 / STONES as f32);
        f.set(scalars + 2, pos.pips(side) as f32 / 100.0);
    }
    let flags = POINT_INPUTS + BAR_INPUTS + 6;
    f.set(flags, contact(pos) as u32 as f32);
    let rules = pos.rules();
    f.set(flags + 1, (rules.finish == Finish::BearOff) as u32 as f32);
    f.set(
        flags + 2,
        (rules.closeout == Closeout::Instant) as u32 as f32,
    );
    f.set(flags + 3, (rules.closeout == Closeout::Off) as u32 as f32);
    if inputs >= FULL_INPUTS {
        for (k, side) in [us, us ^ 1].into_iter().enumerate() {
            let values = handmade(&Sides::of(pos, side));
            for (i, v) in values.into_iter().enumerate() {
                f.set(RAW_INPUTS + k * HANDMADE_PER_SIDE + i, v);
            }
        }
    }
    f
}

/// Whether a stone can still meet an opposing one (a stone on the bar, or the
/// rearmost stones not yet past each other).
#[inline]
pub fn contact(pos: &Sugoroku) -> bool {
    pos.can_hit_again()
}

/// Bits 1–24: the points of the board.
const BOARD: u32 = 0x01FF_FFFE;

/// The index of a roll in [`ROLLS`].
const fn roll_index(hi: u8, lo: u8) -> u32 {
    (hi as u32 * (hi as u32 - 1)) / 2 + lo as u32 - 1
}

/// Per die 1–6: the rolls (bits by [`roll_index`]) that have it.
const WITH_DIE: [u32; 7] = {
    let mut table = [0; 7];
    let mut hi = 1;
    while hi <= 6 {
        let mut lo = 1;
        while lo <= hi {
            table[hi as usize] |= 1 << roll_index(hi, lo);
            table[lo as usize] |= 1 << roll_index(hi, lo);
            lo += 1;
        }
        hi += 1;
    }
    table
};

/// Per distance 2–12: the rolls whose two moves add up to it, as
/// (index, hi, lo), and how many there are (at most three).
const SUMS: [([(u32, u8, u8); 3], usize); 13] = {
    let mut table = [([(0, 0, 0); 3], 0); 13];
    let mut hi = 1;
    while hi <= 6 {
        let mut lo = 1;
        while lo <= hi {
            let d = (hi + lo) as usize;
            table[d].0[table[d].1] = (roll_index(hi, lo), hi, lo);
            table[d].1 += 1;
            lo += 1;
        }
        hi += 1;
    }
    table
};

/// The rolls that are doubles (weight 1 of 36; the others 2).
const DOUBLES: u32 = {
    let mut mask = 0;
    let mut d = 1;
    while d <= 6 {
        mask |= 1 << roll_index(d, d);
        d += 1;
    }
    mask
};

/// The rolls of 36 in a set of rolls.
fn rolls_of_36(rolls: u32) -> u32 {
    2 * rolls.count_ones() - (rolls & DOUBLES).count_ones()
}

/// One side's stones and the opponent's, as point sets in the side's own
/// numbering (the opponent's stones move up it, toward 24).
struct Sides {
    mine: [u8; 26],
    /// Points (1–24) holding exactly one of the side's stones.
    blots: u32,
    /// Points holding two or more of the side's stones: closed to the opponent.
    made: u32,
    /// Points the opponent holds two or more on: closed to the side.
    blocked: u32,
    /// Points the opponent has stones on.
    theirs: u32,
    their_bar: u8,
}

impl Sides {
    fn of(pos: &Sugoroku, side: u8) -> Self {
        let mut s = Sides {
            mine: [0; 26],
            blots: 0,
            made: 0,
            blocked: 0,
            theirs: 0,
            their_bar: pos.count(side ^ 1, BAR),
        };
        for p in 0..=BAR {
            s.mine[p as usize] = pos.count(side, p);
        }
        for p in 1..=24u8 {
            let (n, m) = (s.mine[p as usize], pos.count(side ^ 1, mirror(p)));
            s.blots |= ((n == 1) as u32) << p;
            s.made |= ((n >= 2) as u32) << p;
            s.blocked |= ((m >= 2) as u32) << p;
            s.theirs |= ((m > 0) as u32) << p;
        }
        s
    }

    /// The rolls (bits by [`roll_index`]) on which the opponent can hit one
    /// of the blots: [`Sides::hit_by`] for every roll, from the pairs of an
    /// opposing stone and a blot within twelve points.
    fn shots(&self) -> u32 {
        if self.blots == 0 {
            return 0;
        }
        if self.their_bar == 1 {
            return ROLLS
                .iter()
                .filter(|(roll, _)| self.hit_by(roll.hi, roll.lo))
                .fold(0, |rolls, (roll, _)| {
                    rolls | 1 << roll_index(roll.hi, roll.lo)
                });
        }
        if self.their_bar >= 2 {
            // Both dice enter: only a blot on an entering point is hit.
            return (1..=6)
                .filter(|&d| (self.blots >> d) & 1 == 1)
                .fold(0, |rolls, d| rolls | WITH_DIE[d]);
        }
        let open = BOARD & !self.made;
        let mut rolls = 0;
        let mut blots = self.blots;
        while blots != 0 {
            let p = blots.trailing_zeros();
            blots &= blots - 1;
            let within = ((1u32 << p) - 1) & !((1u32 << p.saturating_sub(12)) - 1);
            let mut from = self.theirs & within;
            while from != 0 {
                let r = from.trailing_zeros();
                from &= from - 1;
                let d = (p - r) as usize;
                if d <= 6 {
                    rolls |= WITH_DIE[d];
                }
                let (sums, n) = &SUMS[d.min(12)];
                for &(index, hi, lo) in &sums[..if d <= 12 { *n } else { 0 }] {
                    if (open >> (r + hi as u32)) & 1 == 1 || (open >> (r + lo as u32)) & 1 == 1 {
                        rolls |= 1 << index;
                    }
                }
            }
        }
        rolls
    }

    /// Whether the opponent, rolling `hi`-`lo`, can hit one of the blots.
    fn hit_by(&self, hi: u8, lo: u8) -> bool {
        let open = BOARD & !self.made;
        // The opponent enters on the side's point d, then moves up.
        let reach = |from: u32, d: u8| (from << d) & open;
        if self.their_bar >= 2 {
            return (self.blots >> hi) & 1 == 1 || (self.blots >> lo) & 1 == 1;
        }
        if self.their_bar == 1 {
            let enter_then = |first: u8, second: u8| {
                let entered = reach(1, first);
                entered != 0
                    && (entered & self.blots != 0
                        || reach(self.theirs | entered, second) & self.blots != 0)
            };
            return enter_then(hi, lo) || (hi != lo && enter_then(lo, hi));
        }
        let one = reach(self.theirs, hi) | reach(self.theirs, lo);
        let two = reach(reach(self.theirs, hi), lo) | reach(reach(self.theirs, lo), hi);
        (one | two) & self.blots != 0
    }

    /// The rearmost stone (25: on the bar), 0 with none on the board.
    fn rearmost(&self) -> u8 {
        (1..=BAR)
            .rev()
            .find(|&p| self.mine[p as usize] > 0)
            .unwrap_or(0)
    }

    /// Whether the rearmost stone, rolling `hi`-`lo`, gets below every block
    /// within twelve points in front of it.
    fn escapes_with(&self, from: u8, lowest_block: u8, hi: u8, lo: u8) -> bool {
        let open = |p: i32| p >= 1 && (self.blocked >> p) & 1 == 0;
        let past = |p: i32| open(p) && p < lowest_block as i32;
        let f = from as i32;
        let (h, l) = (hi as i32, lo as i32);
        past(f - h) || past(f - l) || ((open(f - h) || open(f - l)) && past(f - h - l))
    }
}

/// One side's hand-made features (see the module's list), each about 0–1.
fn handmade(s: &Sides) -> [f32; HANDMADE_PER_SIDE] {
    let hit = rolls_of_36(s.shots());
    let mut escapes = 0;
    let back = s.rearmost();
    let ahead = if back > 1 {
        let low = back.saturating_sub(12).max(1);
        let window = BOARD & (((1u32 << back) - 1) & !((1u32 << low) - 1));
        let blocks = s.blocked & window;
        (blocks != 0).then(|| blocks.trailing_zeros() as u8)
    } else {
        None
    };
    for &(roll, weight) in ROLLS.iter() {
        match ahead {
            None => escapes += weight,
            Some(lowest) if s.escapes_with(back, lowest, roll.hi, roll.lo) => escapes += weight,
            Some(_) => {}
        }
    }
    let mut prime = 0;
    let mut run = 0;
    for p in 1..=24 {
        run = if (s.made >> p) & 1 == 1 { run + 1 } else { 0 };
        prime = prime.max(run);
    }
    let home_made = (s.made & 0x7E).count_ones() as f32;
    let stones = |range: std::ops::RangeInclusive<u8>| -> u32 {
        range.map(|p| s.mine[p as usize] as u32).sum()
    };
    let crossings: u32 = (1..=BAR)
        .map(|p| s.mine[p as usize] as u32 * ((p as u32 - 1) / 6))
        .sum();
    let pips_home: u32 = (HOME + 1..=BAR)
        .map(|p| s.mine[p as usize] as u32 * (p - HOME) as u32)
        .sum();
    [
        hit as f32 / 36.0,
        escapes as f32 / 36.0,
        prime as f32 / 6.0,
        home_made / 6.0,
        if s.their_bar > 0 {
            home_made / 6.0
        } else {
            0.0
        },
        back as f32 / 25.0,
        stones(19..=BAR) as f32 / 15.0,
        crossings as f32 / 60.0,
        pips_home as f32 / 100.0,
        s.blots.count_ones() as f32 / 15.0,
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{MoveList, Notation};
    use crate::search::ChanceGame;
    use crate::sugoroku::{Roll, SugorokuMove, SugorokuRules};

    /// Whether the side to move, rolling `roll`, has a turn that hits a stone
    /// (the opponent's bar count grows): the plain definition of a shot.
    fn some_turn_hits(pos: &Sugoroku, roll: Roll) -> bool {
        let mut pos = *pos;
        pos.apply_chance(roll);
        let them = pos.side_to_move() ^ 1;
        let before = pos.count(them, BAR);
        let mut moves: MoveList<SugorokuMove> = MoveList::new();
        pos.generate_moves(&mut moves);
        // A turn may hit with its first stone move and then win before the
        // second: the first steps are enough to tell.
        moves.iter().any(|&mv| {
            let mut after = pos;
            after.make(mv);
            after.count(them, BAR) > before
        })
    }

    #[test]
    fn the_shots_counted_are_the_rolls_on_which_some_turn_hits() {
        // Along random games: the hand-made shot count of the side that just
        // moved against the rolls on which the opponent has a turn that hits.
        // Every real shot is counted; the count overstates only where the
        // dice rule forbids the hitting play (a hit with one die after which
        // the other cannot be played, while another play uses both).
        use rand::{Rng, SeedableRng};
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(3);
        let (mut checked, mut with_shots, mut overstated) = (0, 0, 0);
        for _ in 0..150 {
            let mut pos = Sugoroku::start(&SugorokuRules::default());
            while pos.outcome().is_none() {
                let sides = Sides::of(&pos, pos.side_to_move() ^ 1);
                let mut differs = false;
                for &(roll, _) in ROLLS.iter() {
                    let (counted, truth) =
                        (sides.hit_by(roll.hi, roll.lo), some_turn_hits(&pos, roll));
                    assert!(counted || !truth, "roll {roll} hits in {}", pos.sfen());
                    differs |= counted != truth;
                }
                overstated += differs as u32;
                with_shots += (handmade(&sides)[0] > 0.0) as u32;
                checked += 1;
                let (hi, lo) = (rng.gen_range(1..=6), rng.gen_range(1..=6));
                pos.apply_chance(Roll::new(hi, lo));
                let mut moves = MoveList::new();
                pos.generate_moves(&mut moves);
                pos.make(moves[rng.gen_range(0..moves.len())]);
            }
        }
        assert!(
            checked > 5_000 && with_shots > 1_000,
            "{checked} {with_shots}"
        );
        assert!(
            overstated * 50 < checked,
            "{overstated} of {checked} overstated"
        );
    }
}
