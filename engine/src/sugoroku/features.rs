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
use super::position::{Sugoroku, BAR, HOME, OFF, STONES};
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

/// Per input, the denominator its values are whole multiples of (the
/// unary units' last holds halves; the scalars are counts over 15, 100, 36…),
/// so that an integer forward pass multiplies by exact whole numbers.
pub const DENOMINATORS: [u8; FULL_INPUTS] = {
    let mut d = [1u8; FULL_INPUTS];
    let mut i = UNITS - 1;
    while i < POINT_INPUTS {
        d[i] = 2;
        i += UNITS;
    }
    d[POINT_INPUTS + 2] = 2;
    d[POINT_INPUTS + 5] = 2;
    let mut k = 0;
    while k < 2 {
        let scalars = POINT_INPUTS + BAR_INPUTS + k * 3;
        d[scalars] = STONES;
        d[scalars + 1] = STONES;
        d[scalars + 2] = 100;
        let mut u = 0;
        while u < HANDMADE_PER_SIDE {
            d[RAW_INPUTS + k * HANDMADE_PER_SIDE + u] = HANDMADE_DENOMINATORS[u];
            u += 1;
        }
        k += 1;
    }
    d
};

/// The largest value times its denominator: a pip count, 15 stones × 25.
pub const MAX_NUMERATOR: i32 = STONES as i32 * 25;

/// The slots of [`Features`]: [`MAX_ACTIVE`] rounded up to a power of two,
/// so that a slot `len % SLOTS` is within the arrays without a test (it is
/// `len`, never past [`MAX_ACTIVE`]).
pub const SLOTS: usize = MAX_ACTIVE.next_power_of_two();

/// The set inputs of a position: (index, numerator) pairs, in increasing
/// index, the first `len` of the arrays; an input's value is its numerator
/// over its denominator ([`DENOMINATORS`]), so that an integer forward pass
/// takes the numerator as it is, and no division is made unless a value is
/// asked for.
#[derive(Clone, Copy, Debug)]
pub struct Features {
    pub index: [u16; SLOTS],
    pub numerator: [u16; SLOTS],
    pub len: usize,
}

impl Features {
    /// Written whether or not it is 0 and kept only if not (no branch to
    /// mispredict): the slot is free, as fewer than [`MAX_ACTIVE`] inputs
    /// are set before the last one.
    #[inline]
    fn set(&mut self, index: usize, numerator: u32) {
        let at = self.len % SLOTS;
        self.index[at] = index as u16;
        self.numerator[at] = numerator as u16;
        self.len = at + (numerator != 0) as usize;
    }

    /// Sets an input known not to be 0.
    #[inline]
    fn push(&mut self, index: usize, numerator: u16) {
        let at = self.len % SLOTS;
        self.index[at] = index as u16;
        self.numerator[at] = numerator;
        self.len = at + 1;
    }

    /// The value of the `k`th input set.
    #[inline]
    pub fn value(&self, k: usize) -> f32 {
        self.numerator[k] as f32 / DENOMINATORS[self.index[k] as usize] as f32
    }

    /// The inputs as a dense vector of `inputs` values (references and tests).
    pub fn dense(&self, inputs: usize) -> Vec<f32> {
        let mut x = vec![0.0; inputs];
        for k in 0..self.len {
            x[self.index[k] as usize] = self.value(k);
        }
        x
    }
}

/// The truncated unary code of a count: 1 from one, 1 from two, 1 from three
/// (only the first `units − 1`), and half of what is beyond (the last unit's
/// denominator is 2). Written without testing each unit: most counts are 0
/// and set nothing.
#[inline]
fn unary(out: &mut Features, base: usize, units: usize, count: u8) {
    let count = count as usize;
    for u in 0..count.min(units - 1) {
        out.push(base + u, 1);
    }
    if count >= units {
        out.push(base + units - 1, (count - (units - 1)) as u16);
    }
}

/// Per count of stones on a point (0–15): the numerators of its four units
/// in [`unary`]'s code (1, 1, 1, what is beyond three, in halves); a point of
/// `n` stones sets the first min(`n`, 4).
const POINT_UNITS: [[u16; UNITS]; 16] = {
    let mut table = [[1; UNITS]; 16];
    let mut n = UNITS;
    while n < 16 {
        table[n][UNITS - 1] = (n - (UNITS - 1)) as u16;
        n += 1;
    }
    table
};

/// Both sides' point units as [`unary`] sets them, without a branch: a
/// point's four are written and only the first min(`count`, 4) kept (the
/// count of set points would mispredict; the slots past the end are free, as
/// a side sets at most 15 units). The four indices are one word, four
/// apart from the last point's; `len % 32` is `len` (at most 30 units are
/// set here), so the compiler knows the slots are within the arrays and
/// tests none.
#[inline(always)]
fn point_units(out: &mut Features, sides: [&[u8; 26]; 2]) {
    // Units 0, 1, 2, 3 of point 1, as 16-bit lanes.
    let mut indices: u64 = 0x0003_0002_0001_0000;
    for stones in sides {
        for &count in &stones[1..25] {
            let (at, n) = (out.len % 32, count as usize & 15);
            let lanes: [u16; UNITS] = std::array::from_fn(|u| (indices >> (16 * u)) as u16);
            out.index[at..at + UNITS].copy_from_slice(&lanes);
            out.numerator[at..at + UNITS].copy_from_slice(&POINT_UNITS[n]);
            out.len = at + n.min(UNITS);
            indices += 0x0004_0004_0004_0004;
        }
    }
}

/// One side's stones in its own numbering, summed up in one pass over its
/// array (read once for both the side's and the opponent's features).
#[derive(Clone, Copy, Default)]
struct Tally {
    /// Points (1–24) holding exactly one stone.
    blots: u32,
    /// Points holding two or more.
    made: u32,
    /// Points holding any.
    occupied: u32,
    bar: u8,
    off: u8,
    /// Stones on points 1–6.
    home: u32,
    /// Stones in the opponent's home and on the bar (19–25).
    far: u32,
    pips: u32,
    /// Quadrants each stone still has to cross, summed.
    crossings: u32,
    /// Pips to bring every stone home.
    pips_home: u32,
}

impl Tally {
    /// Without a branch or a loop over the points, eight points to a word:
    /// the point sets from each byte's top bit (a count is at most 15, so
    /// adding 0x7F or 0x7E to its byte sets the top bit exactly when it is
    /// ≥ 1 or ≥ 2), the sums by multiplying a word: by 0x0101…01 its top
    /// byte becomes the sum of its bytes, by 0x0102…08 the sum of byte `i`
    /// times `i + 1`; a side has 15 stones, so no byte of either product
    /// exceeds 8 · 15 and none carries into the next.
    #[inline]
    fn of(stones: &[u8; 26]) -> Self {
        let word = |at: usize| u64::from_le_bytes(stones[at..at + 8].try_into().expect("8 points"));
        // Points 1–8, 9–16, 17–24.
        let words = [word(1), word(9), word(17)];
        let (mut made, mut occupied) = (0, 0);
        for (w, &word) in words.iter().enumerate() {
            made |= top_bits(word + 0x7E7E_7E7E_7E7E_7E7E) << (1 + 8 * w);
            occupied |= top_bits(word + 0x7F7F_7F7F_7F7F_7F7F) << (1 + 8 * w);
        }
        let stones_in = |word: u64| (word.wrapping_mul(0x0101_0101_0101_0101) >> 56) as u32;
        let rising = |word: u64| (word.wrapping_mul(0x0102_0304_0506_0708) >> 56) as u32;
        let bar = stones[BAR as usize] as u32;
        let [low, middle, high] = words.map(stones_in);
        // Points 1–6 (home), 1–12 and 19–24 (the opponent's home).
        let (home, first_half, far) = (
            stones_in(words[0] & 0xFFFF_FFFF_FFFF),
            low + stones_in(words[1] & 0xFFFF_FFFF),
            stones_in(words[2] & !0xFFFF),
        );
        let (second, third) = (first_half - home, low + middle + high - first_half - far);
        let pips = rising(words[0])
            + 8 * middle
            + rising(words[1])
            + 16 * high
            + rising(words[2])
            + BAR as u32 * bar;
        let home_pips = rising(words[0] & 0xFFFF_FFFF_FFFF);
        Tally {
            blots: occupied & !made,
            made,
            occupied,
            bar: stones[BAR as usize],
            off: stones[OFF as usize],
            home,
            far: far + bar,
            pips,
            // A stone on 7–12 has one quadrant to cross, … on the bar four.
            crossings: second + 2 * third + 3 * far + 4 * bar,
            // Pips beyond point 6 (the home).
            pips_home: pips - home_pips - HOME as u32 * (second + third + far + bar),
        }
    }

    /// The rearmost stone (25: on the bar), 0 with none on the board.
    #[inline]
    fn rearmost(&self) -> u8 {
        if self.bar > 0 {
            BAR
        } else {
            highest(self.occupied)
        }
    }
}

/// The top bits of a word's eight bytes as eight bits (byte `i`'s to bit `i`).
#[inline(always)]
fn top_bits(word: u64) -> u32 {
    (((word & 0x8080_8080_8080_8080) >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u32
}

/// The highest set bit's index of a point set, 0 for none.
#[inline]
fn highest(points: u32) -> u8 {
    (31 - (points | 1).leading_zeros()) as u8
}

/// A point set (bits 1–24) in the other side's numbering (`p` ↦ 25 − `p`).
#[inline]
fn mirror_points(points: u32) -> u32 {
    (points & BOARD).reverse_bits() >> 6
}

/// The inputs of `pos` from the view of the side to move (the side about to
/// roll): the raw ones, and the hand-made ones when `inputs` has room for them.
pub fn features(pos: &Sugoroku, inputs: usize) -> Features {
    let mut f = Features {
        index: [0; SLOTS],
        numerator: [0; SLOTS],
        len: 0,
    };
    let us = pos.side_to_move().index();
    let board = pos.board();
    let sides = [&board[us], &board[us ^ 1]];
    point_units(&mut f, sides);
    let tally = [Tally::of(sides[0]), Tally::of(sides[1])];
    for (k, t) in tally.iter().enumerate() {
        unary(&mut f, POINT_INPUTS + k * 3, 3, t.bar);
    }
    for (k, t) in tally.iter().enumerate() {
        let scalars = POINT_INPUTS + BAR_INPUTS + k * 3;
        f.set(scalars, t.home);
        f.set(scalars + 1, t.off as u32);
        f.set(scalars + 2, t.pips);
    }
    let flags = POINT_INPUTS + BAR_INPUTS + 6;
    f.set(flags, contact_of(&tally[0], &tally[1]) as u32);
    let rules = pos.rules();
    f.set(flags + 1, (rules.finish == Finish::BearOff) as u32);
    f.set(flags + 2, (rules.closeout == Closeout::Instant) as u32);
    f.set(flags + 3, (rules.closeout == Closeout::Off) as u32);
    if inputs >= FULL_INPUTS {
        for k in 0..2 {
            let (mine, theirs) = (&tally[k], &tally[k ^ 1]);
            let counts = handmade(&Sides::new(mine, theirs), mine);
            for (i, n) in counts.into_iter().enumerate() {
                f.set(RAW_INPUTS + k * HANDMADE_PER_SIDE + i, n);
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

/// [`contact`] from both sides' tallies: the rearmost stones, each in its own
/// numbering, have not passed while they add up to more than 25.
#[inline]
fn contact_of(a: &Tally, b: &Tally) -> bool {
    a.bar > 0
        || b.bar > 0
        || (a.occupied != 0 && b.occupied != 0 && highest(a.occupied) + highest(b.occupied) > 25)
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

/// Up to three rolls as (index, hi, lo).
type RollsOfSum = [(u32, u8, u8); 3];

/// Per distance 2–12: the rolls whose two moves add up to it, as
/// (index, hi, lo), and how many there are (at most three).
const SUMS: [(RollsOfSum, usize); 13] = {
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
    /// Points (1–24) holding exactly one of the side's stones.
    blots: u32,
    /// Points holding two or more of the side's stones: closed to the opponent.
    made: u32,
    /// Points the opponent holds two or more on (closed to the side), in the
    /// opponent's numbering.
    their_made: u32,
    /// Points the opponent has stones on.
    theirs: u32,
    their_bar: u8,
}

impl Sides {
    #[inline]
    fn new(mine: &Tally, theirs: &Tally) -> Self {
        Sides {
            blots: mine.blots,
            made: mine.made,
            their_made: theirs.made,
            theirs: mirror_points(theirs.occupied),
            their_bar: theirs.bar,
        }
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

    /// The rolls of 36 on which the rearmost stone, at `back`, gets below
    /// every block within twelve points in front of it.
    #[inline]
    fn escapes(&self, back: u8) -> u32 {
        if back < 2 {
            return 36;
        }
        // The blocks at distances 1–12 in front: the opponent's own point
        // 25 − (back − k) is bit 25 − back + k; its points are 1–24 only,
        // so distances past the board's edge read 0.
        let blocks = (self.their_made >> (26 - back as u32)) & 0xFFF;
        ESCAPES[(blocks | 1 << (back.min(13) - 1)) as usize] as u32
    }
}

/// Escapes of 36 by key: bits 0–11 the blocks at distances 1–12 in front of
/// the rearmost stone, and above them one bit at the distance of the board's
/// edge (point 0), bit 12 when the edge is not within twelve. The rolls are
/// those on which one die or the two in turn land past the farthest block
/// (no landing on a block or off the board); without a block, all 36.
static ESCAPES: [u8; 1 << 13] = {
    let mut table = [36u8; 1 << 13];
    let mut key = 2u32;
    while key < 1 << 13 {
        let edge = 32 - key.leading_zeros();
        let blocks = key & !(1 << (edge - 1));
        if blocks != 0 {
            let farthest = 32 - blocks.leading_zeros();
            let mut escapes = 0;
            let mut hi = 1;
            while hi <= 6 {
                let mut lo = 1;
                while lo <= hi {
                    let (open_hi, open_lo) = (
                        hi < edge && (blocks >> (hi - 1)) & 1 == 0,
                        lo < edge && (blocks >> (lo - 1)) & 1 == 0,
                    );
                    // Past: on the board and beyond the farthest block.
                    let (past_hi, past_lo, past_both) = (
                        hi < edge && hi > farthest,
                        lo < edge && lo > farthest,
                        hi + lo < edge && hi + lo > farthest,
                    );
                    if past_hi || past_lo || ((open_hi || open_lo) && past_both) {
                        escapes += if hi == lo { 1 } else { 2 };
                    }
                    lo += 1;
                }
                hi += 1;
            }
            table[key as usize] = escapes;
        }
        key += 1;
    }
    table
};

/// What [`handmade`]'s counts are divided by: rolls of 36, points of 6,
/// the rearmost point of 25, stones of 15, crossings of 60, pips of 100.
const HANDMADE_DENOMINATORS: [u8; HANDMADE_PER_SIDE] = [36, 36, 6, 6, 6, 25, 15, 60, 100, 15];

/// One side's hand-made features (see the module's list), each about 0–1
/// over its denominator: the numerators.
fn handmade(s: &Sides, t: &Tally) -> [u32; HANDMADE_PER_SIDE] {
    let hit = rolls_of_36(s.shots());
    let back = t.rearmost();
    let escapes = s.escapes(back);
    // The longest run of made points: each step keeps the points that
    // continue a run one longer.
    let mut prime = 0;
    let mut run = s.made;
    while run != 0 {
        run &= run << 1;
        prime += 1;
    }
    let home_made = (s.made & 0x7E).count_ones();
    [
        hit,
        escapes,
        prime,
        home_made,
        if s.their_bar > 0 { home_made } else { 0 },
        back as u32,
        t.far,
        t.crossings,
        t.pips_home,
        s.blots.count_ones(),
    ]
}

#[cfg(test)]
mod tests {
    use super::super::position::mirror;
    use super::*;
    use crate::core::{HouseRules, MoveList, Notation, Seat};
    use crate::search::ChanceGame;
    use crate::session::Playable;
    use crate::sugoroku::{Roll, SugorokuMove, SugorokuRules};

    /// The implementation of `features` before the per-side tallies and the
    /// escape table (commit 047bbf1), kept as the reference the faster one
    /// must equal exactly; `Sides::shots` and `hit_by` are shared, unchanged.
    fn features_reference(pos: &Sugoroku, inputs: usize) -> Reference {
        let mut f = Reference(Vec::new());
        let us = pos.side_to_move();
        for (k, side) in [us, us.other()].into_iter().enumerate() {
            for point in 1..=24u8 {
                let base = (k * 24 + point as usize - 1) * UNITS;
                f.unary(base, UNITS, pos.count(side, point));
            }
        }
        for (k, side) in [us, us.other()].into_iter().enumerate() {
            f.unary(POINT_INPUTS + k * 3, 3, pos.count(side, BAR));
        }
        for (k, side) in [us, us.other()].into_iter().enumerate() {
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
            for (k, side) in [us, us.other()].into_iter().enumerate() {
                let (sides, mine, blocked) = sides_reference(pos, side);
                let values = handmade_reference(&sides, &mine, blocked);
                for (i, v) in values.into_iter().enumerate() {
                    f.set(RAW_INPUTS + k * HANDMADE_PER_SIDE + i, v);
                }
            }
        }
        f
    }

    /// The inputs set, as (index, value) in the order set.
    struct Reference(Vec<(u16, f32)>);

    impl Reference {
        fn set(&mut self, index: usize, value: f32) {
            if value != 0.0 {
                self.0.push((index as u16, value));
            }
        }

        /// The unary code as it was written with values.
        fn unary(&mut self, base: usize, units: usize, count: u8) {
            let count = count as usize;
            for u in 0..count.min(units - 1) {
                self.set(base + u, 1.0);
            }
            if count >= units {
                self.set(base + units - 1, (count - (units - 1)) as f32 / 2.0);
            }
        }
    }

    /// The old `Sides::of`: one side's counts and point sets, read point by
    /// point (the points closed to the side apart, in its own numbering).
    fn sides_reference(pos: &Sugoroku, side: Seat) -> (Sides, [u8; 26], u32) {
        let mut mine = [0; 26];
        let mut blocked = 0;
        let mut s = Sides {
            blots: 0,
            made: 0,
            their_made: 0,
            theirs: 0,
            their_bar: pos.count(side.other(), BAR),
        };
        for p in 0..=BAR {
            mine[p as usize] = pos.count(side, p);
        }
        for p in 1..=24u8 {
            let (n, m) = (mine[p as usize], pos.count(side.other(), mirror(p)));
            s.blots |= ((n == 1) as u32) << p;
            s.made |= ((n >= 2) as u32) << p;
            blocked |= ((m >= 2) as u32) << p;
            s.their_made |= ((m >= 2) as u32) << mirror(p);
            s.theirs |= ((m > 0) as u32) << p;
        }
        (s, mine, blocked)
    }

    /// The old test of the rearmost stone, rolling `hi`-`lo`.
    fn escapes_with(blocked: u32, from: u8, lowest_block: u8, hi: u8, lo: u8) -> bool {
        let open = |p: i32| p >= 1 && (blocked >> p) & 1 == 0;
        let past = |p: i32| open(p) && p < lowest_block as i32;
        let f = from as i32;
        let (h, l) = (hi as i32, lo as i32);
        past(f - h) || past(f - l) || ((open(f - h) || open(f - l)) && past(f - h - l))
    }

    /// The old `handmade`.
    fn handmade_reference(s: &Sides, mine: &[u8; 26], blocked: u32) -> [f32; HANDMADE_PER_SIDE] {
        let hit = rolls_of_36(s.shots());
        let mut escapes = 0;
        let back = (1..=BAR).rev().find(|&p| mine[p as usize] > 0).unwrap_or(0);
        let ahead = if back > 1 {
            let low = back.saturating_sub(12).max(1);
            let window = BOARD & (((1u32 << back) - 1) & !((1u32 << low) - 1));
            let blocks = blocked & window;
            (blocks != 0).then(|| blocks.trailing_zeros() as u8)
        } else {
            None
        };
        for &(roll, weight) in ROLLS.iter() {
            match ahead {
                None => escapes += weight,
                Some(lowest) if escapes_with(blocked, back, lowest, roll.hi, roll.lo) => {
                    escapes += weight
                }
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
            range.map(|p| mine[p as usize] as u32).sum()
        };
        let crossings: u32 = (1..=BAR)
            .map(|p| mine[p as usize] as u32 * ((p as u32 - 1) / 6))
            .sum();
        let pips_home: u32 = (HOME + 1..=BAR)
            .map(|p| mine[p as usize] as u32 * (p - HOME) as u32)
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

    /// Positions of random games under every house-rule combination, each
    /// game to its end (contact, races, stones on the bar, borne off).
    fn random_positions(games: usize, seed: u64) -> Vec<Sugoroku> {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut found = Vec::new();
        for game in 0..games {
            let mut rules = SugorokuRules::default();
            rules
                .set("SugorokuFinish", ["allhome", "bearoff"][game % 2])
                .unwrap();
            rules
                .set(
                    "SugorokuCloseout",
                    ["multiplier", "instant", "off"][game / 2 % 3],
                )
                .unwrap();
            let mut pos = Sugoroku::start(&rules);
            loop {
                found.push(pos);
                if pos.outcome().is_some() {
                    break;
                }
                pos.apply_chance(Roll::new(rng.gen_range(1..=6), rng.gen_range(1..=6)));
                let mut moves = MoveList::new();
                pos.generate_moves(&mut moves);
                pos.make(moves[rng.gen_range(0..moves.len())]);
            }
        }
        found
    }

    #[test]
    fn features_equal_the_reference_exactly() {
        let positions = random_positions(600, 11);
        let count = |test: fn(&Sugoroku) -> bool| positions.iter().filter(|p| test(p)).count();
        let on_bar = count(|p| p.count(Seat::FIRST, BAR) > 0 || p.count(Seat::SECOND, BAR) > 0);
        let races = count(|p| !contact(p));
        assert!(
            positions.len() > 20_000 && on_bar > 2_000 && races > 2_000,
            "{} positions, {on_bar} with a stone on the bar, {races} races",
            positions.len()
        );
        for pos in &positions {
            for inputs in [RAW_INPUTS, FULL_INPUTS] {
                let (fast, slow) = (features(pos, inputs), features_reference(pos, inputs));
                let fast: Vec<(u16, u32)> = (0..fast.len)
                    .map(|k| (fast.index[k], fast.value(k).to_bits()))
                    .collect();
                let slow: Vec<(u16, u32)> = slow.0.iter().map(|&(i, v)| (i, v.to_bits())).collect();
                assert_eq!(fast, slow, "{}", pos.sfen());
            }
        }
    }

    /// Whether the side to move, rolling `roll`, has a turn that hits a stone
    /// (the opponent's bar count grows): the plain definition of a shot.
    fn some_turn_hits(pos: &Sugoroku, roll: Roll) -> bool {
        let mut pos = *pos;
        pos.apply_chance(roll);
        let them = pos.side_to_move().other();
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
                let (sides, mine, blocked) = sides_reference(&pos, pos.side_to_move().other());
                let mut differs = false;
                for &(roll, _) in ROLLS.iter() {
                    let (counted, truth) =
                        (sides.hit_by(roll.hi, roll.lo), some_turn_hits(&pos, roll));
                    assert!(counted || !truth, "roll {roll} hits in {}", pos.sfen());
                    differs |= counted != truth;
                }
                overstated += differs as u32;
                with_shots += (handmade_reference(&sides, &mine, blocked)[0] > 0.0) as u32;
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
