//! Turns: one move is a whole turn (up to two stone steps). The generator
//! tries every stone for each die in each order on a copy of the position,
//! keeps the sequences the dice rules allow and merges those that leave the same
//! position.

use super::dice::Dice;
use super::position::{Sugoroku, BAR, OFF};
use crate::core::movelist::MAX_MOVES;
use crate::core::{Game, MoveList};

/// One stone moved by one die, in the mover's numbering (25 bar, 0 off).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Step {
    pub from: u8,
    pub to: u8,
}

impl std::fmt::Display for Step {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let name = |p: u8| match p {
            BAR => "bar".to_string(),
            OFF => "off".to_string(),
            p => p.to_string(),
        };
        write!(f, "{}/{}", name(self.from), name(self.to))
    }
}

/// A whole turn: its stone steps in the order played, which of them hit, the
/// dice it was played with (so that `unmake` restores them) and whether it
/// ends the game. No steps is `pass`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct SugorokuMove {
    steps: [Step; 2],
    len: u8,
    /// Bit i: step i hit a lone opponent stone.
    hits: u8,
    dice: Dice,
    wins: bool,
}

impl SugorokuMove {
    pub fn pass(dice: Dice) -> Self {
        SugorokuMove {
            dice,
            ..Default::default()
        }
    }

    #[inline]
    pub fn steps(&self) -> &[Step] {
        &self.steps[..self.len as usize]
    }

    #[inline]
    pub fn hits(&self) -> u8 {
        self.hits
    }

    /// Whether any step hits.
    #[inline]
    pub fn is_hit(&self) -> bool {
        self.hits != 0
    }

    #[inline]
    pub fn dice(&self) -> Dice {
        self.dice
    }

    /// Whether the turn wins the game.
    #[inline]
    pub fn wins(&self) -> bool {
        self.wins
    }

    #[inline]
    pub fn is_pass(&self) -> bool {
        self.len == 0
    }
}

impl std::fmt::Display for SugorokuMove {
    /// `24/18,13/11`, `bar/22,6/2`, `6/off,5/off`, `pass`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.len == 0 {
            return write!(f, "pass");
        }
        for (i, step) in self.steps().iter().enumerate() {
            if i > 0 {
                write!(f, ",")?;
            }
            write!(f, "{step}")?;
        }
        Ok(())
    }
}

/// Candidates of a kind the dice rules compare: a turn that uses every die (or
/// wins part-way), or one step played with a given die when no more could be.
const FULL: u8 = 0;

/// Candidates whose signatures are kept in an array; later ones (never seen in
/// play, but possible in principle) recompute theirs.
const KEPT_SIGNATURES: usize = 64;

struct Collector<'a> {
    moves: &'a mut MoveList<SugorokuMove>,
    /// The signature of each candidate's result, to find equal results.
    signatures: [u64; KEPT_SIGNATURES],
    /// Each candidate's class ([`FULL`] or the die of a single step).
    classes: [u8; MAX_MOVES],
}

/// What a turn changes, exactly and canonically: the points the mover's
/// stones leave and reach once a stone passing through a point cancels
/// (each pair sorted), and the points where it hits. Two turns from the same
/// position leave the same position exactly when their signatures are equal.
#[inline]
fn signature(mv: &SugorokuMove) -> u64 {
    const NONE: u8 = 0;
    let (mut left, mut reached, mut hit) = ([NONE; 2], [NONE; 2], [NONE; 2]);
    for (i, step) in mv.steps().iter().enumerate() {
        // Points shifted by one so that 0 means "none" (off is point 0).
        left[i] = step.from + 1;
        reached[i] = step.to + 1;
        if mv.hits >> i & 1 != 0 {
            hit[i] = step.to + 1;
        }
    }
    for l in &mut left {
        if let Some(r) = reached.iter_mut().find(|r| **r != NONE && **r == *l) {
            *r = NONE;
            *l = NONE;
        }
    }
    let sorted = |pair: [u8; 2]| (pair[0].max(pair[1]) as u64) << 8 | pair[0].min(pair[1]) as u64;
    sorted(left) << 32 | sorted(reached) << 16 | sorted(hit)
}

impl Collector<'_> {
    /// Adds a turn unless an earlier turn of the same class leaves the same
    /// position.
    #[inline]
    fn add(&mut self, mv: SugorokuMove, class: u8) {
        let sig = signature(&mv);
        let n = self.moves.len();
        for i in 0..n {
            let other = if i < KEPT_SIGNATURES {
                self.signatures[i]
            } else {
                signature(&self.moves[i])
            };
            if other == sig && self.classes[i] == class {
                return;
            }
        }
        if n < KEPT_SIGNATURES {
            self.signatures[n] = sig;
        }
        self.classes[n] = class;
        self.moves.push(mv);
    }
}

/// The points the side to move may move a stone from, as a bit set: only the
/// bar while a stone is on it.
#[inline]
fn sources(pos: &Sugoroku) -> u32 {
    let side = pos.side_to_move();
    if pos.count(side, BAR) > 0 {
        return 1 << BAR;
    }
    let mut set = 0;
    for point in 1..BAR {
        if pos.count(side, point) > 0 {
            set |= 1 << point;
        }
    }
    set
}

/// The sources after `step` was played from `before`.
#[inline]
fn sources_after(pos: &Sugoroku, before: u32, step: Step) -> u32 {
    if step.from == BAR {
        // Entered: the rest of the board may move once the bar is empty.
        return sources(pos);
    }
    let mut set = before;
    if pos.count(pos.side_to_move(), step.from) == 0 {
        set &= !(1 << step.from);
    }
    if step.to != OFF {
        set |= 1 << step.to;
    }
    set
}

/// Points of a bit set, highest first.
#[inline]
fn points_down(mut set: u32) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        (set != 0).then(|| {
            let point = 31 - set.leading_zeros();
            set &= !(1 << point);
            point as u8
        })
    })
}

pub fn generate_turns(pos: &Sugoroku, moves: &mut MoveList<SugorokuMove>) {
    moves.clear();
    let dice = pos.dice();
    if pos.outcome().is_some() || dice.is_none() {
        return;
    }
    let mut out = Collector {
        moves,
        signatures: [0; KEPT_SIGNATURES],
        classes: [0; MAX_MOVES],
    };
    let orders: [[u8; 2]; 2] = [[dice.hi(), dice.lo()], [dice.lo(), dice.hi()]];
    let order_count = if dice.is_split() { 2 } else { 1 };
    let mut scratch = *pos;
    let base = SugorokuMove::pass(dice);
    let first_sources = sources(pos);
    for &[first, second] in &orders[..order_count] {
        for from in points_down(first_sources) {
            let Some(to) = scratch.target(from, first) else {
                continue;
            };
            let step1 = Step { from, to };
            let hit1 = scratch.apply_step(step1);
            let mut one = base;
            one.steps[0] = step1;
            one.len = 1;
            one.hits = hit1 as u8;
            if scratch.mover_won() {
                one.wins = true;
                out.add(one, FULL);
            } else if second == 0 {
                out.add(one, FULL);
            } else {
                let mut any_second = false;
                for from2 in points_down(sources_after(&scratch, first_sources, step1)) {
                    let Some(to2) = scratch.target(from2, second) else {
                        continue;
                    };
                    any_second = true;
                    let step2 = Step {
                        from: from2,
                        to: to2,
                    };
                    let hit2 = scratch.apply_step(step2);
                    let mut two = one;
                    two.steps[1] = step2;
                    two.len = 2;
                    two.hits |= (hit2 as u8) << 1;
                    two.wins = scratch.mover_won();
                    out.add(two, FULL);
                    scratch.revert_step(step2, hit2);
                }
                if !any_second {
                    out.add(one, first);
                }
            }
            scratch.revert_step(step1, hit1);
        }
    }
    if out.moves.is_empty() {
        out.moves.push(base);
        return;
    }
    // Most dice first; then, with one die playable, the larger.
    let count = out.moves.len();
    let classes = &out.classes[..count];
    let keep = if classes.contains(&FULL) {
        FULL
    } else if classes.contains(&dice.hi()) {
        dice.hi()
    } else {
        dice.lo()
    };
    if classes.iter().all(|&c| c == keep) {
        return;
    }
    let mut index = 0;
    let classes = out.classes;
    out.moves.retain(|_| {
        index += 1;
        classes[index - 1] == keep
    });
}
