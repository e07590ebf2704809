//! A neural-network evaluation, as the strong backgammon programs have
//! (TD-Gammon, GNU Backgammon, wildbg): the position, seen by the side about to
//! roll, goes in as a few hundred inputs; out come the probabilities of the
//! results, from which the equity in points follows.
//!
//! - **Inputs** ([`INPUTS`]): for each side and each of its points 1–24 four
//!   units in TD-Gammon's truncated unary code (one stone, two, three, and half
//!   of the stones beyond three); the bar in the same code (three units); the
//!   stones home and borne off (/15); the pip count (/100); whether the sides
//!   can still meet; and the house rules that change values (bear-off finish,
//!   instant or no closeout).
//! - **One hidden layer** of sigmoid units, **five sigmoid outputs**: the
//!   probability of a win, of a win worth 2 or more, of one worth 3, of a loss
//!   worth 2 or more and of one worth 3 (the closed-home multipliers), for the
//!   side to roll. Equity = 2·win − 1 + win2 + win3 − lose2 − lose3.
//! - **Inference** allocates nothing: most inputs are 0, so the hidden sums add
//!   up only the rows of the inputs that are set (the first layer is stored
//!   input-major), about a tenth of a dense product.
//!
//! The weights ship inside the binary ([`embedded`], `net.bin`, made by
//! `tools/src/bin/train_sugoroku.rs`; the command and seed are in
//! docs/rules/sugoroku.md); another file of the same format can be read with
//! [`Network::from_bytes`].

use super::position::{mirror, Sugoroku, BAR, OFF, STONES};
use super::rules::{Closeout, Finish};
use crate::core::Game;
use std::sync::OnceLock;

/// Units per point in the truncated unary code.
const UNITS: usize = 4;
const POINT_INPUTS: usize = 2 * 24 * UNITS;
const BAR_INPUTS: usize = 2 * 3;
/// Per side: home, off, pips; then contact and three rule flags.
pub const INPUTS: usize = POINT_INPUTS + BAR_INPUTS + 2 * 3 + 1 + 3;
/// win, win ≥ 2, win = 3, loss ≥ 2, loss = 3.
pub const OUTPUTS: usize = 5;
/// The largest hidden layer a file may have (inference keeps it on the stack).
pub const MAX_HIDDEN: usize = 512;
/// Inputs that can be set at once: a point or the bar sets at most as many
/// units as it holds stones (15 a side), then the six per-side scalars,
/// contact and the rules.
pub const MAX_ACTIVE: usize = 2 * 15 + 2 * 3 + 4;
/// The file format: magic, inputs, hidden, outputs (u32 LE), then the f32 LE
/// weights (first layer input-major, its biases, second layer output-major,
/// its biases), then an FNV-1a checksum (u64 LE) of all the bytes before it.
pub const MAGIC: &[u8; 8] = b"YOMISGN1";

/// The set inputs of a position: (index, value) pairs.
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
            self.index[self.len] = index as u16;
            self.value[self.len] = value;
            self.len += 1;
        }
    }

    /// The inputs as a dense vector (the reference implementation and training).
    pub fn dense(&self) -> [f32; INPUTS] {
        let mut x = [0.0; INPUTS];
        for k in 0..self.len {
            x[self.index[k] as usize] = self.value[k];
        }
        x
    }
}

/// The truncated unary code of a count: 1 from one, 1 from two, 1 from three
/// (only the first `units − 1`), and half of what is beyond.
#[inline]
fn unary(out: &mut Features, base: usize, units: usize, count: u8) {
    let n = count as f32;
    for u in 0..units - 1 {
        out.set(base + u, (count as usize > u) as u32 as f32);
    }
    out.set(base + units - 1, ((n - (units - 1) as f32) / 2.0).max(0.0));
}

/// The inputs of `pos` from the side to move's view (the side about to roll).
pub fn features(pos: &Sugoroku) -> Features {
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
        unary(&mut f, POINT_INPUTS + k * 3, 3, pos.count(side, BAR));
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
    f
}

/// Whether a stone can still meet an opposing one (a stone on the bar, or the
/// rearmost stones not yet past each other).
fn contact(pos: &Sugoroku) -> bool {
    if pos.count(0, BAR) > 0 || pos.count(1, BAR) > 0 {
        return true;
    }
    let b_back = (1..=24u8).rev().find(|&p| pos.count(0, p) > 0);
    let w_back = (1..=24u8).find(|&p| pos.count(1, mirror(p)) > 0);
    matches!((b_back, w_back), (Some(b), Some(w)) if w < b)
}

/// The probabilities of the results for the side to roll.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Outcomes {
    pub win: f32,
    pub win2: f32,
    pub win3: f32,
    pub lose2: f32,
    pub lose3: f32,
}

impl Outcomes {
    pub fn from_array(p: [f32; OUTPUTS]) -> Self {
        Outcomes {
            win: p[0],
            win2: p[1],
            win3: p[2],
            lose2: p[3],
            lose3: p[4],
        }
    }

    pub fn to_array(self) -> [f32; OUTPUTS] {
        [self.win, self.win2, self.win3, self.lose2, self.lose3]
    }

    /// A decided game worth `points` (positive: the side to roll won).
    pub fn decided(points: i32) -> Self {
        let (won, lost) = (points.max(0), (-points).max(0));
        Outcomes {
            win: (points > 0) as u32 as f32,
            win2: (won >= 2) as u32 as f32,
            win3: (won >= 3) as u32 as f32,
            lose2: (lost >= 2) as u32 as f32,
            lose3: (lost >= 3) as u32 as f32,
        }
    }

    /// The same from the other side's view.
    pub fn flipped(self) -> Self {
        Outcomes {
            win: 1.0 - self.win,
            win2: self.lose2,
            win3: self.lose3,
            lose2: self.win2,
            lose3: self.win3,
        }
    }

    /// Made consistent (a 3-point win is a 2-point win is a win) and, where
    /// no result can be worth more than 1, without the multiplier terms.
    pub fn sanitized(self, multipliers: bool) -> Self {
        let win = self.win.clamp(0.0, 1.0);
        if !multipliers {
            return Outcomes {
                win,
                ..Outcomes::default()
            };
        }
        let win2 = self.win2.clamp(0.0, win);
        let lose2 = self.lose2.clamp(0.0, 1.0 - win);
        Outcomes {
            win,
            win2,
            win3: self.win3.clamp(0.0, win2),
            lose2,
            lose3: self.lose3.clamp(0.0, lose2),
        }
    }

    /// Expected points for the side to roll.
    pub fn equity(&self) -> f32 {
        2.0 * self.win - 1.0 + self.win2 + self.win3 - self.lose2 - self.lose3
    }
}

#[inline]
fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// A network of one hidden layer.
#[derive(Clone, Debug, PartialEq)]
pub struct Network {
    pub hidden: usize,
    /// `INPUTS × hidden`, input-major: row `i` holds input `i`'s weights.
    pub w1: Vec<f32>,
    pub b1: Vec<f32>,
    /// `OUTPUTS × hidden`, output-major.
    pub w2: Vec<f32>,
    pub b2: [f32; OUTPUTS],
}

fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

impl Network {
    /// Small random weights from `seed` (the start of training).
    pub fn random(hidden: usize, seed: u64) -> Self {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut draw = |n: usize, scale: f32| -> Vec<f32> {
            (0..n).map(|_| rng.gen_range(-scale..scale)).collect()
        };
        let w1 = draw(INPUTS * hidden, 0.1);
        let w2 = draw(OUTPUTS * hidden, 0.1);
        Network {
            hidden,
            w1,
            b1: vec![0.0; hidden],
            w2,
            b2: [0.0; OUTPUTS],
        }
    }

    /// Reads the file format of [`MAGIC`]; a file that is short, long, of other
    /// sizes or damaged is refused with the reason.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, String> {
        let header = MAGIC.len() + 12;
        if bytes.len() < header + 8 || &bytes[..MAGIC.len()] != MAGIC {
            return Err("not a Yomi Sugoroku network (wrong magic or too short)".into());
        }
        let word = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap()) as usize;
        let (inputs, hidden, outputs) = (word(8), word(12), word(16));
        if inputs != INPUTS || outputs != OUTPUTS || hidden == 0 || hidden > MAX_HIDDEN {
            return Err(format!(
                "network of {inputs}-{hidden}-{outputs}; this engine reads {INPUTS}-(1..={MAX_HIDDEN})-{OUTPUTS}"
            ));
        }
        let floats = inputs * hidden + hidden + outputs * hidden + outputs;
        let expected = header + 4 * floats + 8;
        if bytes.len() != expected {
            return Err(format!(
                "{} bytes where a {inputs}-{hidden}-{outputs} network has {expected}",
                bytes.len()
            ));
        }
        let body = &bytes[..expected - 8];
        let stored = u64::from_le_bytes(bytes[expected - 8..].try_into().unwrap());
        if fnv1a(body) != stored {
            return Err("checksum mismatch: the file is damaged".into());
        }
        let mut values = body[header..]
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes(c.try_into().unwrap()));
        let mut take = |n: usize| -> Vec<f32> { values.by_ref().take(n).collect() };
        let w1 = take(inputs * hidden);
        let b1 = take(hidden);
        let w2 = take(outputs * hidden);
        let b2: [f32; OUTPUTS] = take(outputs).try_into().expect("sizes checked");
        if w1
            .iter()
            .chain(&b1)
            .chain(&w2)
            .chain(&b2)
            .any(|v| !v.is_finite())
        {
            return Err("a weight is not a finite number".into());
        }
        Ok(Network {
            hidden,
            w1,
            b1,
            w2,
            b2,
        })
    }

    /// The file format of [`Network::from_bytes`].
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        for n in [INPUTS, self.hidden, OUTPUTS] {
            out.extend((n as u32).to_le_bytes());
        }
        for v in self
            .w1
            .iter()
            .chain(&self.b1)
            .chain(&self.w2)
            .chain(&self.b2)
        {
            out.extend(v.to_le_bytes());
        }
        let sum = fnv1a(&out);
        out.extend(sum.to_le_bytes());
        out
    }

    /// The hidden activations and the outputs for `f` (`hidden` holds at least
    /// `self.hidden` values).
    #[inline]
    pub fn forward(&self, f: &Features, hidden: &mut [f32]) -> [f32; OUTPUTS] {
        let h = self.hidden;
        let hidden = &mut hidden[..h];
        hidden.copy_from_slice(&self.b1);
        for k in 0..f.len {
            let (i, x) = (f.index[k] as usize, f.value[k]);
            let row = &self.w1[i * h..(i + 1) * h];
            for (a, w) in hidden.iter_mut().zip(row) {
                *a += w * x;
            }
        }
        for a in hidden.iter_mut() {
            *a = sigmoid(*a);
        }
        let mut out = self.b2;
        for (o, sum) in out.iter_mut().enumerate() {
            let row = &self.w2[o * h..(o + 1) * h];
            *sum += row
                .iter()
                .zip(hidden.iter())
                .map(|(w, a)| w * a)
                .sum::<f32>();
            *sum = sigmoid(*sum);
        }
        out
    }

    /// The result probabilities for the side to roll in `pos` (a decided
    /// position gives its result).
    pub fn outcomes(&self, pos: &Sugoroku) -> Outcomes {
        if let Some(outcome) = pos.outcome() {
            return Outcomes::decided(outcome.value_for(pos.side_to_move()));
        }
        let mut hidden = [0.0; MAX_HIDDEN];
        let raw = Outcomes::from_array(self.forward(&features(pos), &mut hidden));
        raw.sanitized(multipliers_possible(pos))
    }
}

/// Whether a result worth more than 1 can still happen: the all-home finish
/// with the closeout multiplier, and stones that can still meet.
pub fn multipliers_possible(pos: &Sugoroku) -> bool {
    let rules = pos.rules();
    rules.finish == Finish::AllHome && rules.closeout == Closeout::Multiplier && contact(pos)
}

/// The network built into the binary.
pub fn embedded() -> &'static Network {
    static NETWORK: OnceLock<Network> = OnceLock::new();
    NETWORK.get_or_init(|| {
        Network::from_bytes(include_bytes!("net.bin")).expect("the embedded network is valid")
    })
}
