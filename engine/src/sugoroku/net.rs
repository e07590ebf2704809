//! A neural-network evaluation, as the strong backgammon programs have
//! (TD-Gammon, GNU Backgammon, wildbg): the position, seen by the side about to
//! roll, goes in as a few hundred inputs ([`super::features`]); out come the
//! probabilities of the results, from which the equity in points follows.
//!
//! - **Two networks**, as GNU Backgammon and wildbg keep: one for positions
//!   with contact, one for races (no stone can meet an opposing one again),
//!   chosen by the position ([`Networks`]). A file may hold one network for
//!   both.
//! - **One hidden layer** (rectified-linear units; the first networks had
//!   sigmoid units), **five sigmoid outputs**: the probability of a win, of a
//!   win worth 2 or more, of one worth 3, of a loss worth 2 or more and of one
//!   worth 3 (the closed-home multipliers), for the side to roll. Equity =
//!   2·win − 1 + win2 + win3 − lose2 − lose3.
//! - **Inference** allocates nothing: most inputs are 0, so the hidden sums add
//!   up only the rows of the inputs that are set (the first layer is stored
//!   input-major); the rows are added with AVX-512 or AVX2 where the
//!   processor has it (chosen at run time), with the same arithmetic in the
//!   same order as the plain code, so all give the same bits. The engine's
//!   networks add their first layer in 16-bit integers, made from the f32
//!   weights when they are loaded ([`IntegerLayer`]); training keeps f32.
//!
//! The weights ship inside the binary ([`embedded`], `net.bin`, made by the
//! tools in `tools/src/bin/train_sugoroku.rs`; the commands and seeds are in
//! docs/rules/sugoroku.md); another file of the same format can be read with
//! [`Networks::from_bytes`].

pub use super::features::{
    contact, features, Features, DENOMINATORS, FULL_INPUTS, HANDMADE_PER_SIDE, MAX_ACTIVE,
    MAX_NUMERATOR, RAW_INPUTS,
};
use super::position::Sugoroku;
use super::rules::{Closeout, Finish};
use crate::core::Game;
use std::cell::RefCell;
use std::sync::OnceLock;

/// win, win ≥ 2, win = 3, loss ≥ 2, loss = 3.
pub const OUTPUTS: usize = 5;
/// The largest hidden layer a file may have (inference keeps a buffer of
/// it per thread).
pub const MAX_HIDDEN: usize = 1024;
/// The file format of the first networks: one sigmoid network of the raw
/// inputs. Magic, inputs, hidden, outputs (u32 LE), then the f32 LE weights
/// (first layer input-major, its biases, second layer output-major, its
/// biases), then an FNV-1a checksum (u64 LE) of all the bytes before it.
pub const MAGIC_V1: &[u8; 8] = b"YOMISGN1";
/// The file format now written: magic, the number of networks (u32 LE: 1, or
/// 2 for contact then race), then per network its inputs, hidden, outputs and
/// activation (u32 LE: 0 sigmoid, 1 rectified linear) and its weights as in
/// [`MAGIC_V1`]; then one FNV-1a checksum (u64 LE) of all the bytes before it.
pub const MAGIC: &[u8; 8] = b"YOMISGN2";

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
pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// What the hidden units compute from their sums.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Activation {
    /// The first networks' units.
    Sigmoid,
    /// max(0, x): cheap, and what the larger networks are trained with.
    Relu,
}

impl Activation {
    fn code(self) -> u32 {
        match self {
            Activation::Sigmoid => 0,
            Activation::Relu => 1,
        }
    }

    fn from_code(code: u32) -> Option<Self> {
        match code {
            0 => Some(Activation::Sigmoid),
            1 => Some(Activation::Relu),
            _ => None,
        }
    }

    /// The unit's output from its sum.
    #[inline]
    pub fn apply(self, sum: f32) -> f32 {
        match self {
            Activation::Sigmoid => sigmoid(sum),
            Activation::Relu => sum.max(0.0),
        }
    }

    /// The derivative at a unit whose output is `out`.
    #[inline]
    pub fn slope(self, out: f32) -> f32 {
        match self {
            Activation::Sigmoid => out * (1.0 - out),
            Activation::Relu => (out > 0.0) as u32 as f32,
        }
    }
}

/// A network of one hidden layer.
#[derive(Clone, Debug, PartialEq)]
pub struct Network {
    /// [`RAW_INPUTS`] or [`FULL_INPUTS`] (with the hand-made features).
    pub inputs: usize,
    pub hidden: usize,
    pub activation: Activation,
    /// `inputs × hidden`, input-major: row `i` holds input `i`'s weights.
    pub w1: Vec<f32>,
    pub b1: Vec<f32>,
    /// `OUTPUTS × hidden`, output-major.
    pub w2: Vec<f32>,
    pub b2: [f32; OUTPUTS],
    /// The first layer in integers, which the evaluation uses when present
    /// ([`Network::quantised`]; the engine's networks have it, training's
    /// not: learning drops it, as it would no longer match).
    pub integer: Option<Box<IntegerLayer>>,
}

/// The FNV-1a checksum the weights files end with (also names a file in the
/// training data it labelled).
pub fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// Reads little-endian words and floats, failing on a short file.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn word(&mut self) -> Result<usize, String> {
        let end = self.at + 4;
        let chunk = self
            .bytes
            .get(self.at..end)
            .ok_or("the file is cut short")?;
        self.at = end;
        Ok(u32::from_le_bytes(chunk.try_into().expect("4 bytes")) as usize)
    }

    fn floats(&mut self, n: usize) -> Result<Vec<f32>, String> {
        let end = self.at + 4 * n;
        let chunk = self
            .bytes
            .get(self.at..end)
            .ok_or("the file is cut short")?;
        self.at = end;
        let values: Vec<f32> = chunk
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes(c.try_into().expect("4 bytes")))
            .collect();
        if values.iter().any(|v| !v.is_finite()) {
            return Err("a weight is not a finite number".into());
        }
        Ok(values)
    }
}

impl Network {
    /// Small random weights from `seed` (the start of training).
    pub fn random(inputs: usize, hidden: usize, activation: Activation, seed: u64) -> Self {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut draw = |n: usize, scale: f32| -> Vec<f32> {
            (0..n).map(|_| rng.gen_range(-scale..scale)).collect()
        };
        let w1 = draw(inputs * hidden, 0.1);
        let w2 = draw(OUTPUTS * hidden, 0.1);
        Network {
            inputs,
            hidden,
            activation,
            w1,
            b1: vec![0.0; hidden],
            w2,
            b2: [0.0; OUTPUTS],
            integer: None,
        }
    }

    /// One network's sizes and weights, after its header.
    fn read(
        r: &mut Reader,
        inputs: usize,
        hidden: usize,
        outputs: usize,
        activation: Activation,
    ) -> Result<Self, String> {
        if ![RAW_INPUTS, FULL_INPUTS].contains(&inputs)
            || outputs != OUTPUTS
            || hidden == 0
            || hidden > MAX_HIDDEN
        {
            return Err(format!(
                "network of {inputs}-{hidden}-{outputs}; this engine reads \
                 {RAW_INPUTS} or {FULL_INPUTS} inputs, 1..={MAX_HIDDEN} hidden, {OUTPUTS} outputs"
            ));
        }
        Ok(Network {
            inputs,
            hidden,
            activation,
            w1: r.floats(inputs * hidden)?,
            b1: r.floats(hidden)?,
            w2: r.floats(outputs * hidden)?,
            b2: r.floats(OUTPUTS)?.try_into().expect("five outputs"),
            integer: None,
        })
    }

    fn write(&self, out: &mut Vec<u8>) {
        for v in self
            .w1
            .iter()
            .chain(&self.b1)
            .chain(&self.w2)
            .chain(&self.b2)
        {
            out.extend(v.to_le_bytes());
        }
    }

    /// The hidden activations and the outputs for `f` (`hidden` holds at least
    /// `self.hidden` values; `f` has this network's inputs): by the integer
    /// first layer when the network has one ([`Network::quantised`]), else
    /// in f32 as trained.
    #[inline]
    pub fn forward(&self, f: &Features, hidden: &mut [f32]) -> [f32; OUTPUTS] {
        match &self.integer {
            Some(layer) => self.forward_by(&**layer, f, hidden),
            None => self.forward_by(self, f, hidden),
        }
    }

    /// The forward pass with first layer `layer`, as wide as the processor
    /// allows (chosen at run time; all give the same bits).
    #[inline]
    fn forward_by<L: FirstLayer>(
        &self,
        layer: &L,
        f: &Features,
        hidden: &mut [f32],
    ) -> [f32; OUTPUTS] {
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx512f")
                && std::arch::is_x86_feature_detected!("avx512bw")
            {
                if std::arch::is_x86_feature_detected!("avx512vnni") {
                    // SAFETY: the processor has just been found to have
                    // AVX-512 with its multiply-add-accumulate.
                    return unsafe { self.forward_avx512_vnni(layer, f, hidden) };
                }
                // SAFETY: the processor has just been found to have AVX-512.
                return unsafe { self.forward_avx512(layer, f, hidden) };
            }
            if std::arch::is_x86_feature_detected!("avx2") {
                // SAFETY: the processor has just been found to have AVX2.
                return unsafe { self.forward_avx2(layer, f, hidden) };
            }
        }
        self.forward_plain::<L, BLOCK, { BLOCK / 2 }, PLAIN>(layer, f, hidden)
    }

    /// The hidden sums 256 units at a time (sixteen registers, half of
    /// AVX-512's), so that each input's row of weights is read once, from
    /// start to end, while the next row is fetched.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,avx512bw")]
    unsafe fn forward_avx512<L: FirstLayer>(
        &self,
        layer: &L,
        f: &Features,
        hidden: &mut [f32],
    ) -> [f32; OUTPUTS] {
        self.forward_plain::<L, { 4 * BLOCK }, { 2 * BLOCK }, AVX512>(layer, f, hidden)
    }

    /// The same with VNNI's multiply-add-accumulate: one instruction where
    /// [`Network::forward_avx512`] multiplies and then adds (the integer
    /// sums, bound by those two on the same ports, take half the
    /// instructions; the same sums, so the same bits).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,avx512bw,avx512vnni")]
    unsafe fn forward_avx512_vnni<L: FirstLayer>(
        &self,
        layer: &L,
        f: &Features,
        hidden: &mut [f32],
    ) -> [f32; OUTPUTS] {
        self.forward_plain::<L, { 4 * BLOCK }, { 2 * BLOCK }, AVX512_VNNI>(layer, f, hidden)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn forward_avx2<L: FirstLayer>(
        &self,
        layer: &L,
        f: &Features,
        hidden: &mut [f32],
    ) -> [f32; OUTPUTS] {
        self.forward_plain::<L, BLOCK, { BLOCK / 2 }, AVX2>(layer, f, hidden)
    }

    /// The forward pass at every width this processor runs (32 units at a
    /// time without wide instructions first, then AVX2, AVX-512): the
    /// outputs and hidden units of each, which must be the same bits.
    #[cfg(test)]
    pub(super) fn forward_every_width(&self, f: &Features) -> Vec<([f32; OUTPUTS], Vec<f32>)> {
        fn widths<L: FirstLayer>(
            n: &Network,
            layer: &L,
            f: &Features,
        ) -> Vec<([f32; OUTPUTS], Vec<f32>)> {
            let mut runs = Vec::new();
            let mut run = |pass: &dyn Fn(&mut [f32]) -> [f32; OUTPUTS]| {
                let mut hidden = vec![0.0; MAX_HIDDEN];
                let out = pass(&mut hidden);
                hidden.truncate(n.hidden);
                runs.push((out, hidden));
            };
            run(&|hidden| n.forward_plain::<L, GROUP, GROUP, PLAIN>(layer, f, hidden));
            #[cfg(target_arch = "x86_64")]
            {
                if std::arch::is_x86_feature_detected!("avx2") {
                    // SAFETY: the processor has AVX2.
                    run(&|hidden| unsafe { n.forward_avx2(layer, f, hidden) });
                }
                if std::arch::is_x86_feature_detected!("avx512f")
                    && std::arch::is_x86_feature_detected!("avx512bw")
                {
                    // SAFETY: the processor has AVX-512.
                    run(&|hidden| unsafe { n.forward_avx512(layer, f, hidden) });
                    if std::arch::is_x86_feature_detected!("avx512vnni") {
                        // SAFETY: and VNNI.
                        run(&|hidden| unsafe { n.forward_avx512_vnni(layer, f, hidden) });
                    }
                }
            }
            runs
        }
        match &self.integer {
            Some(layer) => widths(self, &**layer, f),
            None => widths(self, self, f),
        }
    }

    /// The forward pass as written; inlined into the vector copies, where the
    /// compiler turns the f32 row loops into wide instructions (the integer
    /// ones are written with them, [`IntegerLayer::add_times`]). The hidden
    /// sums are made `N` units at a time (then `M`, 32, 8, 1) over every
    /// input, so that they stay in registers; each adds its inputs in one
    /// order, so every block size gives the same bits. `ISA`: the
    /// instructions the copy may use.
    #[inline(always)]
    fn forward_plain<L: FirstLayer, const N: usize, const M: usize, const ISA: u8>(
        &self,
        layer: &L,
        f: &Features,
        hidden: &mut [f32],
    ) -> [f32; OUTPUTS] {
        // The layer's units: an integer layer's are whole groups.
        let width = layer.biases().len();
        let hidden = &mut hidden[..width];
        let rows = L::rows(f);
        let mut start = 0;
        while start + N <= width {
            hidden_block::<L, N, ISA>(layer, &rows, start, hidden);
            start += N;
        }
        while start + M <= width {
            hidden_block::<L, M, ISA>(layer, &rows, start, hidden);
            start += M;
        }
        while start + GROUP <= width {
            hidden_block::<L, GROUP, ISA>(layer, &rows, start, hidden);
            start += GROUP;
        }
        while start + 8 <= width {
            hidden_block::<L, 8, ISA>(layer, &rows, start, hidden);
            start += 8;
        }
        while start < width {
            hidden_block::<L, 1, PLAIN>(layer, &rows, start, hidden);
            start += 1;
        }
        let h = self.hidden;
        let hidden = &mut hidden[..h];
        match self.activation {
            Activation::Relu => hidden.iter_mut().for_each(|a| *a = a.max(0.0)),
            Activation::Sigmoid => hidden.iter_mut().for_each(|a| *a = sigmoid(*a)),
        }
        let lanes = output_lanes::<ISA>(&self.w2, hidden);
        let whole = h / 8 * 8;
        let mut out = self.b2;
        for (o, sum) in out.iter_mut().enumerate() {
            let mut dot = lanes[o].iter().sum::<f32>();
            for (j, a) in hidden.iter().enumerate().skip(whole) {
                dot += self.w2[o * h + j] * a;
            }
            *sum = sigmoid(*sum + dot);
        }
        out
    }

    /// This network with its first layer also in 16-bit integers, which its
    /// evaluation then uses (half the bytes of f32 to read per input;
    /// [`IntegerLayer`]).
    pub fn quantised(mut self) -> Self {
        self.integer = Some(Box::new(IntegerLayer::of(&self)));
        self
    }

    /// The result probabilities for the side to roll in `pos`, undecided.
    fn raw_outcomes(&self, pos: &Sugoroku) -> Outcomes {
        let f = features(pos, self.inputs);
        // The hidden layer in the thread's buffer: the forward pass writes
        // every unit before it reads it, so nothing is cleared per call (a
        // buffer on the stack had to be: 1 KB or 4 KB an evaluation).
        thread_local! {
            static HIDDEN: RefCell<[f32; MAX_HIDDEN]> = const { RefCell::new([0.0; MAX_HIDDEN]) };
        }
        Outcomes::from_array(HIDDEN.with_borrow_mut(|hidden| self.forward(&f, hidden)))
    }
}

/// Hidden units summed together in the forward pass (eight AVX2 registers;
/// AVX-512 takes four times as many).
const BLOCK: usize = 64;
/// The instructions a copy of the forward pass may use.
const PLAIN: u8 = 0;
const AVX2: u8 = 1;
const AVX512: u8 = 2;
/// AVX-512 with VNNI's multiply-add-accumulate (the same as [`AVX512`] but
/// for the integer sums).
const AVX512_VNNI: u8 = 3;
/// An integer layer's units are stored in groups of 32 ([`IntegerLayer::w1`]).
const GROUP: usize = 32;

/// The five outputs' sums side by side, eight lanes each (lane `l` of
/// output `o` sums `w2[o][c + l] · hidden[c + l]` over `c` = 0, 8, 16, …
/// within the whole eights): five chains of additions instead of one after
/// another. The vector copies write it with AVX2 (the compiler, left to
/// itself, shuffled the lanes of 128-bit registers and spilled them: about
/// 80 instructions an eight instead of 16); a multiply then an add, as the
/// plain code, so the same bits.
#[inline(always)]
fn output_lanes<const ISA: u8>(w2: &[f32], hidden: &[f32]) -> [[f32; 8]; OUTPUTS] {
    let h = hidden.len();
    let whole = h / 8 * 8;
    let mut lanes = [[0.0f32; 8]; OUTPUTS];
    #[cfg(target_arch = "x86_64")]
    if ISA != PLAIN {
        use std::arch::x86_64::*;
        assert!(w2.len() >= OUTPUTS * h);
        // SAFETY: every copy but the plain one runs where the processor has
        // AVX2; the loads are within `hidden` and each output's row of `w2`.
        unsafe {
            let mut sums = [_mm256_setzero_ps(); OUTPUTS];
            for c in (0..whole).step_by(8) {
                let a = _mm256_loadu_ps(hidden.as_ptr().add(c));
                for (o, sum) in sums.iter_mut().enumerate() {
                    let w = _mm256_loadu_ps(w2.as_ptr().add(o * h + c));
                    *sum = _mm256_add_ps(*sum, _mm256_mul_ps(w, a));
                }
            }
            for (lanes, sum) in lanes.iter_mut().zip(sums) {
                _mm256_storeu_ps(lanes.as_mut_ptr(), sum);
            }
        }
        return lanes;
    }
    for c in (0..whole).step_by(8) {
        let a: &[f32; 8] = hidden[c..c + 8].try_into().expect("eight");
        for (o, lanes) in lanes.iter_mut().enumerate() {
            let w: &[f32; 8] = w2[o * h + c..o * h + c + 8].try_into().expect("eight");
            for l in 0..8 {
                lanes[l] += w[l] * a[l];
            }
        }
    }
    lanes
}

/// Asks for a row of weights to be brought into the cache ahead of its use
/// (a row is 512 bytes or 1 KB for 256 hidden units, too far from the last
/// to be guessed by the processor).
#[inline(always)]
fn prefetch<W>(row: &[W]) {
    #[cfg(target_arch = "x86_64")]
    for line in row.chunks(64 / std::mem::size_of::<W>()) {
        // SAFETY: a prefetch only hints the cache; the address is in bounds.
        unsafe {
            std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(
                line.as_ptr() as *const i8
            )
        };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = row;
}

/// A first layer as the forward pass reads it: f32 weights (the network as
/// trained) or 16-bit integers ([`IntegerLayer`]), input-major, summed in
/// `Sum`s and turned into real hidden sums per unit.
trait FirstLayer {
    type Sum: Copy;
    /// The set inputs in the order their rows are added (made once for all
    /// the blocks of units).
    type Rows<'f>;
    /// One a unit (an integer layer's padded to whole groups).
    fn biases(&self) -> &[Self::Sum];
    fn rows(f: &Features) -> Self::Rows<'_>;
    /// `sums` (units `start..start + N`) plus the row of every set input
    /// times its value.
    fn add_rows<const N: usize, const ISA: u8>(
        &self,
        rows: &Self::Rows<'_>,
        start: usize,
        sums: &mut [Self::Sum; N],
    );
    /// The real sums of units `start..start + N` from theirs.
    fn real<const N: usize>(&self, start: usize, sums: &[Self::Sum; N], out: &mut [f32]);
}

/// Units `start..start + N` of input `i`'s row in an input-major layer of
/// `width` units a row.
#[inline(always)]
fn row<W, const N: usize>(w1: &[W], width: usize, i: u16, start: usize) -> &[W; N] {
    let at = i as usize * width + start;
    w1[at..at + N].try_into().expect("a block")
}

/// The f32 layer adds the rows of inputs of 1 first, as they are, then the
/// others multiplied: an order of additions that every width keeps, so all
/// give the same bits (and training the results it always had).
impl FirstLayer for Network {
    type Sum = f32;
    type Rows<'f> = Active;
    #[inline(always)]
    fn biases(&self) -> &[f32] {
        &self.b1
    }
    #[inline(always)]
    fn rows(f: &Features) -> Active {
        Active::of(f)
    }
    /// Under AVX-512 (256 units a block) the next row is asked for before
    /// this one is added (it costs AVX2 instructions).
    #[inline(always)]
    fn add_rows<const N: usize, const ISA: u8>(
        &self,
        a: &Active,
        start: usize,
        sums: &mut [f32; N],
    ) {
        let (w1, width) = (&self.w1, self.b1.len());
        let row = |i| row::<f32, N>(w1, width, i, start);
        for k in 0..a.ones_len {
            if ISA >= AVX512 {
                let next = if k + 1 < a.ones_len {
                    a.ones[k + 1]
                } else {
                    a.index[0]
                };
                prefetch(row(next));
            }
            for (s, w) in sums.iter_mut().zip(row(a.ones[k])) {
                *s += w;
            }
        }
        for k in 0..a.len {
            if ISA >= AVX512 && k + 1 < a.len {
                prefetch(row(a.index[k + 1]));
            }
            let x = a.times[k];
            for (s, w) in sums.iter_mut().zip(row(a.index[k])) {
                *s += w * x;
            }
        }
    }
    #[inline(always)]
    fn real<const N: usize>(&self, _: usize, sums: &[f32; N], out: &mut [f32]) {
        out[..N].copy_from_slice(sums);
    }
}

/// A first layer in 16-bit integers, made from the f32 weights when a
/// network is loaded to play: integer sums are exact, so every width of the
/// forward pass gives the same bits, and a row is half the bytes to read.
///
/// Hidden unit `j` has its own scale `s_j`; input `i` is a whole number
/// `m_i` over its denominator `d_i` ([`DENOMINATORS`]), so its weight is kept
/// as `q_ij = round(w_ij · s_j / d_i)` and the sum of unit `j` is
/// `B_j + Σ q_ij · m_i ≈ s_j · (b_j + Σ w_ij · x_i)` with `B_j = round(b_j ·
/// s_j)`. `s_j` is the largest with every `|q_ij| ≤ 32 767` and `|B_j| ≤
/// 2^24`; `m_i ≤` [`MAX_NUMERATOR`] (375, a pip count; clamped there), and at
/// most [`MAX_ACTIVE`] (60) inputs are set, so a sum is at most 2^24 + 60 ·
/// 32 767 · 375 < 7.6 · 10^8 in size: no 32-bit sum can overflow
/// ([`SUM_BOUND`]).
#[derive(Clone, Debug, PartialEq)]
pub struct IntegerLayer {
    /// `inputs × width`, input-major, `width` the hidden units rounded up to
    /// a multiple of 32 (the units past them 0). Within each group of 32
    /// units the weights are interleaved, 0, 16, 1, 17, … 15, 31: a 16-bit
    /// pair multiply-add then gives the group's first and second halves in
    /// order ([`IntegerLayer::weight`]).
    pub w1: Vec<i16>,
    /// `width` biases.
    pub b1: Vec<i32>,
    /// Per unit, 1 / `s_j` (0 past the hidden units).
    pub unscale: Vec<f32>,
}

/// The largest integer bias.
const BIAS_LIMIT: f64 = (1 << 24) as f64;
/// The largest size a 32-bit hidden sum can reach (see [`IntegerLayer`]).
pub const SUM_BOUND: i64 = (1 << 24) + MAX_ACTIVE as i64 * i16::MAX as i64 * MAX_NUMERATOR as i64;
const _: () = assert!(SUM_BOUND < i32::MAX as i64);

impl IntegerLayer {
    fn of(n: &Network) -> Self {
        let h = n.hidden;
        let width = h.div_ceil(GROUP) * GROUP;
        let scale: Vec<f64> = (0..h)
            .map(|j| {
                let mut largest = n.b1[j].abs() as f64 * i16::MAX as f64 / BIAS_LIMIT;
                for (i, &d) in DENOMINATORS.iter().enumerate().take(n.inputs) {
                    largest = largest.max(n.w1[i * h + j].abs() as f64 / d as f64);
                }
                // A unit of no weight at all: any scale will do.
                i16::MAX as f64 / largest.max(1e-9)
            })
            .collect();
        let mut layer = IntegerLayer {
            w1: vec![0; n.inputs * width],
            b1: vec![0; width],
            unscale: vec![0.0; width],
        };
        for (j, &s) in scale.iter().enumerate() {
            for (i, &d) in DENOMINATORS.iter().enumerate().take(n.inputs) {
                let at = layer.at(i, j);
                layer.w1[at] = (n.w1[i * h + j] as f64 * s / d as f64).round() as i16;
            }
            layer.b1[j] = (n.b1[j] as f64 * s).round() as i32;
            layer.unscale[j] = (1.0 / s) as f32;
        }
        layer
    }

    /// Where the weight of input `i` to unit `j` is kept in `w1`.
    fn at(&self, i: usize, j: usize) -> usize {
        let (group, l) = (j / GROUP * GROUP, j % GROUP);
        let half = GROUP / 2;
        i * self.b1.len() + group + 2 * (l % half) + l / half
    }

    /// The weight of input `i` to unit `j`.
    pub fn weight(&self, i: usize, j: usize) -> i16 {
        self.w1[self.at(i, j)]
    }
}

/// Integer sums are exact in any order: the rows are added as the features
/// list them, each multiplied by its numerator (a multiply by 1 costs the
/// same instructions as any other), with no list made first.
impl FirstLayer for IntegerLayer {
    type Sum = i32;
    type Rows<'f> = &'f Features;
    #[inline(always)]
    fn biases(&self) -> &[i32] {
        &self.b1
    }
    #[inline(always)]
    fn rows(f: &Features) -> &Features {
        f
    }
    /// Under AVX-512 the next row is asked for before this one is added
    /// (each row found once, as the next, then as this one).
    #[inline(always)]
    fn add_rows<const N: usize, const ISA: u8>(
        &self,
        f: &&Features,
        start: usize,
        sums: &mut [i32; N],
    ) {
        let (w1, width) = (&self.w1, self.b1.len());
        let row = |k: usize| row::<i16, N>(w1, width, f.index[k], start);
        // The numerator as it is (the rows were divided by the
        // denominators), at most MAX_NUMERATOR.
        let x = |k: usize| (f.numerator[k] as i32).min(MAX_NUMERATOR);
        if ISA < AVX512 {
            for k in 0..f.len {
                Self::add_times::<N, ISA>(sums, row(k), x(k));
            }
            return;
        }
        if f.len == 0 {
            return;
        }
        let mut next = row(0);
        for k in 0..f.len {
            let this = next;
            if k + 1 < f.len {
                next = row(k + 1);
                prefetch(next);
            }
            Self::add_times::<N, ISA>(sums, this, x(k));
        }
    }
    #[inline(always)]
    fn real<const N: usize>(&self, start: usize, sums: &[i32; N], out: &mut [f32]) {
        let unscale: &[f32; N] = self.unscale[start..start + N].try_into().expect("a block");
        for l in 0..N {
            out[l] = sums[l] as f32 * unscale[l];
        }
    }
}

impl IntegerLayer {
    /// `sums += row · x`, in the groups' interleaved order
    /// ([`IntegerLayer::w1`]): with AVX-512 or AVX2, one multiply-add of 16-bit pairs by (x, 0) and one by (0, x)
    /// give a group's 32-bit sums, without widening the weights first.
    #[inline(always)]
    fn add_times<const N: usize, const ISA: u8>(sums: &mut [i32; N], row: &[i16; N], x: i32) {
        assert!(
            N.is_multiple_of(GROUP),
            "an integer layer is summed in whole groups"
        );
        #[cfg(target_arch = "x86_64")]
        if ISA != PLAIN {
            use std::arch::x86_64::*;
            // 16-bit pairs (x, 0) and (0, x): a group's first and second halves.
            let (first, second) = (x & 0xFFFF, x << 16);
            for g in (0..N).step_by(GROUP) {
                // SAFETY: ISA names instructions the processor was found to
                // have; the loads and stores are within the arrays.
                unsafe {
                    let w = row.as_ptr().add(g);
                    let s = sums.as_mut_ptr().add(g);
                    if ISA >= AVX512 {
                        let v = _mm512_loadu_si512(w as *const _);
                        for (half, pair) in [(0, first), (16, second)] {
                            let (at, pair) = (s.add(half), _mm512_set1_epi32(pair));
                            let before = _mm512_loadu_si512(at as *const _);
                            let sum = if ISA == AVX512_VNNI {
                                _mm512_dpwssd_epi32(before, v, pair)
                            } else {
                                _mm512_add_epi32(before, _mm512_madd_epi16(v, pair))
                            };
                            _mm512_storeu_si512(at as *mut _, sum);
                        }
                    } else {
                        for (load, units) in [(0, 0), (16, 8)] {
                            let v = _mm256_loadu_si256(w.add(load) as *const __m256i);
                            for (half, pair) in [(0, first), (16, second)] {
                                let p = _mm256_madd_epi16(v, _mm256_set1_epi32(pair));
                                let at = s.add(units + half) as *mut __m256i;
                                let sum = _mm256_add_epi32(_mm256_loadu_si256(at), p);
                                _mm256_storeu_si256(at, sum);
                            }
                        }
                    }
                }
            }
            return;
        }
        for g in (0..N).step_by(GROUP) {
            for l in 0..GROUP / 2 {
                sums[g + l] += row[g + 2 * l] as i32 * x;
                sums[g + GROUP / 2 + l] += row[g + 2 * l + 1] as i32 * x;
            }
        }
    }
}

/// The set inputs as the f32 layer adds them: those of 1 (most: the unary
/// units) apart, to be added as they are.
struct Active {
    ones: [u16; MAX_ACTIVE],
    ones_len: usize,
    index: [u16; MAX_ACTIVE],
    times: [f32; MAX_ACTIVE],
    len: usize,
}

impl Active {
    #[inline(always)]
    fn of(f: &Features) -> Self {
        let mut a = Active {
            ones: [0; MAX_ACTIVE],
            ones_len: 0,
            index: [0; MAX_ACTIVE],
            times: [1.0; MAX_ACTIVE],
            len: 0,
        };
        for k in 0..f.len {
            let i = f.index[k];
            let x = f.value(k);
            // Written to both lists, kept in one (no branch to mispredict).
            a.ones[a.ones_len] = i;
            a.index[a.len] = i;
            a.times[a.len] = x;
            let one = x == 1.0;
            a.ones_len += one as usize;
            a.len += !one as usize;
        }
        a
    }
}

/// The sums of hidden units `start..start + N` over every set input, into
/// `hidden` as real numbers.
#[inline(always)]
fn hidden_block<L: FirstLayer, const N: usize, const ISA: u8>(
    layer: &L,
    rows: &L::Rows<'_>,
    start: usize,
    hidden: &mut [f32],
) {
    let mut sums: [L::Sum; N] = layer.biases()[start..start + N]
        .try_into()
        .expect("a block");
    layer.add_rows::<N, ISA>(rows, start, &mut sums);
    layer.real(start, &sums, &mut hidden[start..start + N]);
}

/// The evaluation's networks: one for positions with contact and one for
/// races (the same network serves both when a file holds only one).
#[derive(Clone, Debug, PartialEq)]
pub struct Networks {
    pub contact: Network,
    pub race: Option<Network>,
}

impl Networks {
    /// The network that values `pos`.
    #[inline]
    pub fn for_position(&self, pos: &Sugoroku) -> &Network {
        self.for_contact(contact(pos))
    }

    #[inline]
    fn for_contact(&self, contact: bool) -> &Network {
        match &self.race {
            Some(race) if !contact => race,
            _ => &self.contact,
        }
    }

    /// The result probabilities for the side to roll in `pos` (a decided
    /// position gives its result).
    pub fn outcomes(&self, pos: &Sugoroku) -> Outcomes {
        if let Some(outcome) = pos.outcome() {
            return Outcomes::decided(outcome.value_for(pos.side_to_move()));
        }
        // Contact is worked out once: it picks the network and the multipliers.
        let contact = contact(pos);
        let raw = self.for_contact(contact).raw_outcomes(pos);
        raw.sanitized(contact && multipliers_by_rules(pos))
    }

    /// Reads the file formats of [`MAGIC`] and [`MAGIC_V1`]; a file that is
    /// short, long, of other sizes or damaged is refused with the reason.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, String> {
        let magic = bytes
            .get(..8)
            .ok_or("not a Yomi Sugoroku network (too short)")?;
        if magic != MAGIC && magic != MAGIC_V1 {
            return Err("not a Yomi Sugoroku network (wrong magic)".into());
        }
        if bytes.len() < 8 + 8 {
            return Err("the file is cut short".into());
        }
        let (body, sum) = bytes.split_at(bytes.len() - 8);
        let mut r = Reader { bytes: body, at: 8 };
        let mut networks = Vec::new();
        if magic == MAGIC_V1 {
            let (inputs, hidden, outputs) = (r.word()?, r.word()?, r.word()?);
            if inputs != RAW_INPUTS {
                return Err(format!(
                    "a first-format network of {inputs} inputs; this engine reads {RAW_INPUTS}"
                ));
            }
            networks.push(Network::read(
                &mut r,
                inputs,
                hidden,
                outputs,
                Activation::Sigmoid,
            )?);
        } else {
            let count = r.word()?;
            if !(1..=2).contains(&count) {
                return Err(format!("{count} networks; a file holds 1 or 2"));
            }
            for _ in 0..count {
                let (inputs, hidden, outputs) = (r.word()?, r.word()?, r.word()?);
                let code = r.word()?;
                let activation = Activation::from_code(code as u32)
                    .ok_or(format!("unknown activation {code}"))?;
                networks.push(Network::read(&mut r, inputs, hidden, outputs, activation)?);
            }
        }
        if r.at != body.len() {
            return Err(format!(
                "{} bytes where the networks described take {}",
                bytes.len(),
                r.at + 8
            ));
        }
        if fnv1a(body) != u64::from_le_bytes(sum.try_into().expect("8 bytes")) {
            return Err("checksum mismatch: the file is damaged".into());
        }
        let mut networks = networks.into_iter();
        Ok(Networks {
            contact: networks.next().expect("one network at least"),
            race: networks.next(),
        })
    }

    /// These networks with their first layers also in integers, as the
    /// engine plays them ([`Network::quantised`]).
    pub fn quantised(self) -> Self {
        Networks {
            contact: self.contact.quantised(),
            race: self.race.map(Network::quantised),
        }
    }

    /// The file format of [`MAGIC`].
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        let all: Vec<&Network> = std::iter::once(&self.contact).chain(&self.race).collect();
        out.extend((all.len() as u32).to_le_bytes());
        for network in all {
            let header = [
                network.inputs as u32,
                network.hidden as u32,
                OUTPUTS as u32,
                network.activation.code(),
            ];
            for n in header {
                out.extend(n.to_le_bytes());
            }
            network.write(&mut out);
        }
        let sum = fnv1a(&out);
        out.extend(sum.to_le_bytes());
        out
    }
}

/// Whether a result worth more than 1 can still happen: the all-home finish
/// with the closeout multiplier, and stones that can still meet.
pub fn multipliers_possible(pos: &Sugoroku) -> bool {
    multipliers_by_rules(pos) && contact(pos)
}

/// Whether the house rules have results worth more than 1.
fn multipliers_by_rules(pos: &Sugoroku) -> bool {
    let rules = pos.rules();
    rules.finish == Finish::AllHome && rules.closeout == Closeout::Multiplier
}

/// The networks built into the binary.
pub fn embedded() -> &'static Networks {
    static NETWORKS: OnceLock<Networks> = OnceLock::new();
    NETWORKS.get_or_init(|| {
        Networks::from_bytes(include_bytes!("net.bin"))
            .expect("the embedded network is valid")
            .quantised()
    })
}
