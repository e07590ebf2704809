//! Exact races: one-sided databases, as GNU Backgammon keeps for the bear-off.
//!
//! Once no stone can meet an opposing one ([`contact`] is false) each side's
//! future depends on its own dice alone, save who finishes first. A table
//! holds, for every one-sided state, the distribution of the number of turns
//! the side needs to finish when each turn it plays the roll the way that
//! needs the fewest turns on average; two distributions give the chance that
//! the side to roll finishes first, which is its winning chance (no result of
//! a race is worth more than 1).
//!
//! - `bearoff`: the side's stones on points 1–6, the rest borne off.
//! - `allhome`: the side's stones on points 7–12, the rest home (points 1–6;
//!   where in the home does not matter, since the game ends the moment the last
//!   stone arrives). A stone beyond 12 leaves the position to the network.
//!
//! Either way a state is how at most fifteen stones lie on six points:
//! C(21, 6) = 54 264 states. A table is built on first use, one per finish
//! rule, or in the background from `isready` (docs/rules/sugoroku.md has the
//! build times and why the tables are not shipped in the binary).

use super::dice::ROLLS;
use super::net::{contact, Networks, Outcomes};
use super::position::{Sugoroku, HOME, OFF, STONES};
use super::rules::Finish;
use crate::core::Game;
use std::sync::OnceLock;

/// One side's stones per point in its own numbering (0 off, 1–24, 25 bar).
pub type Side = [u8; 26];

/// The points a state holds.
const SLOTS: usize = 6;
/// Turn counts a distribution can reach while building: the slowest state
/// (fifteen stones 6 points from the goal, rolling double 1 every turn)
/// needs 45 turns.
const MAX_TURNS: usize = 48;
/// Probabilities below this at either end of a distribution are not kept.
const NEGLIGIBLE: f32 = 1e-9;

/// The first point of a state's slots under `finish`.
fn first_slot(finish: Finish) -> usize {
    match finish {
        Finish::BearOff => 1,
        Finish::AllHome => HOME as usize + 1,
    }
}

/// `SETS[n][k]`: the ways to lay at most `n` stones on `k` points, C(n + k, k).
const SETS: [[u32; SLOTS + 1]; STONES as usize + 1] = {
    let mut table = [[0; SLOTS + 1]; STONES as usize + 1];
    let mut n = 0;
    while n <= STONES as usize {
        let mut k = 0;
        while k <= SLOTS {
            table[n][k] = if k == 0 || n == 0 {
                1
            } else {
                table[n - 1][k] + table[n][k - 1]
            };
            k += 1;
        }
        n += 1;
    }
    table
};

/// States in a table.
pub const STATES: usize = SETS[STONES as usize][SLOTS] as usize;

/// `SKIPPED[left][k][count]`: the states that come before those with `count`
/// stones on a slot when `left` stones remain for it and the `k` slots after
/// it: Σ over fewer stones `taken` of SETS[left − taken][k].
const SKIPPED: [[[u32; STONES as usize + 1]; SLOTS]; STONES as usize + 1] = {
    let mut table = [[[0; STONES as usize + 1]; SLOTS]; STONES as usize + 1];
    let mut left = 0;
    while left <= STONES as usize {
        let mut k = 0;
        while k < SLOTS {
            let mut count = 1;
            while count <= left {
                table[left][k][count] = table[left][k][count - 1] + SETS[left - count + 1][k];
                count += 1;
            }
            k += 1;
        }
        left += 1;
    }
    table
};

/// The index of a state (its stones per slot): lexicographic order.
fn rank(slots: &[u8; SLOTS]) -> usize {
    let mut left = STONES as usize;
    let mut index = 0;
    for (i, &count) in slots.iter().enumerate() {
        index += SKIPPED[left][SLOTS - 1 - i][count as usize] as usize;
        left -= count as usize;
    }
    index
}

/// The table state of one side, if the table holds it.
pub fn state(side: &Side, finish: Finish) -> Option<usize> {
    let first = first_slot(finish);
    let beyond = first + SLOTS;
    if side[beyond..].iter().any(|&n| n > 0) {
        return None;
    }
    if finish == Finish::AllHome && side[OFF as usize] > 0 {
        return None;
    }
    Some(rank(side[first..beyond].try_into().expect("six slots")))
}

/// Whether `side` has finished under `finish`.
fn finished(side: &Side, finish: Finish) -> bool {
    match finish {
        Finish::AllHome => side[1..=HOME as usize].iter().sum::<u8>() == STONES,
        Finish::BearOff => side[OFF as usize] == STONES,
    }
}

/// Where a stone on `from` goes with `die`, if it may: no opposing stone is in
/// the way in a race; nothing moves below 1 under `allhome` (rule 2); under
/// `bearoff` a stone leaves by the exact number, or from the highest point,
/// once all are home (rule 5).
fn target(side: &Side, from: usize, die: usize, finish: Finish) -> Option<usize> {
    if side[from] == 0 {
        return None;
    }
    if from > die {
        return Some(from - die);
    }
    if finish != Finish::BearOff || side[HOME as usize + 1..].iter().any(|&n| n > 0) {
        return None;
    }
    let higher = side[from + 1..=HOME as usize].iter().any(|&n| n > 0);
    (from == die || !higher).then_some(OFF as usize)
}

fn moved(side: &Side, from: usize, to: usize) -> Side {
    let mut after = *side;
    after[from] -= 1;
    after[to] += 1;
    after
}

/// The boards a roll can leave one side with in a race, as the dice rule
/// allows (rule 3): the plays that use both dice (or finish part-way); else
/// those of the larger die alone; else of the smaller; else the board as it
/// is. A double is two moves of its number. `out` may hold repeats.
pub fn plays(side: &Side, hi: u8, lo: u8, finish: Finish, out: &mut Vec<Side>) {
    out.clear();
    let (hi, lo) = (hi as usize, lo as usize);
    let orders: &[[usize; 2]] = if hi == lo {
        &[[hi, lo]]
    } else {
        &[[hi, lo], [lo, hi]]
    };
    // Plays of one die, when no second die could follow: [larger, smaller].
    let mut single: [Vec<Side>; 2] = [Vec::new(), Vec::new()];
    let top = (1..=24).rev().find(|&p| side[p] > 0).unwrap_or(0);
    for &[first, second] in orders {
        for from in 1..=top {
            let Some(to) = target(side, from, first, finish) else {
                continue;
            };
            let one = moved(side, from, to);
            if finished(&one, finish) {
                out.push(one);
                continue;
            }
            let before = out.len();
            for from2 in 1..=top {
                if let Some(to2) = target(&one, from2, second, finish) {
                    out.push(moved(&one, from2, to2));
                }
            }
            if out.len() == before {
                single[(first != hi) as usize].push(one);
            }
        }
    }
    if out.is_empty() {
        let [larger, smaller] = single;
        *out = if larger.is_empty() { smaller } else { larger };
    }
    if out.is_empty() {
        out.push(*side);
    }
}

/// One finish rule's table: per state, the chances of finishing in exactly
/// `first`, `first + 1`, … turns.
pub struct RaceTable {
    /// The smallest turn count kept, per state.
    first: Vec<u8>,
    /// Where each state's chances start in `chances` (one more entry at the end).
    start: Vec<u32>,
    chances: Vec<f32>,
    /// Expected turns, per state.
    expected: Vec<f32>,
}

impl RaceTable {
    /// Builds the table by dynamic programming: a play never leaves a state
    /// further from the goal, so states are solved nearest first.
    pub fn build(finish: Finish) -> Self {
        let first = first_slot(finish);
        let mut states: Vec<[u8; SLOTS]> = Vec::with_capacity(STATES);
        let mut slots = [0u8; SLOTS];
        enumerate(&mut slots, 0, STONES, &mut states);
        debug_assert!(states.iter().enumerate().all(|(i, s)| rank(s) == i));
        // Pips to the goal of the slots: a play always lowers it.
        let distance = |s: &[u8; SLOTS]| -> u32 {
            s.iter()
                .enumerate()
                .map(|(i, &n)| (i as u32 + 1) * n as u32)
                .sum()
        };
        let mut order: Vec<usize> = (0..STATES).collect();
        order.sort_by_key(|&i| distance(&states[i]));

        let mut dist = vec![[0f32; MAX_TURNS]; STATES];
        let mut expected = vec![0f32; STATES];
        let mut results = Vec::with_capacity(64);
        for &index in &order {
            let board = board_of(&states[index], finish, first);
            if finished(&board, finish) {
                dist[index][0] = 1.0;
                continue;
            }
            let mut turns = [0f32; MAX_TURNS];
            let mut mean = 1.0;
            for &(roll, weight) in ROLLS.iter() {
                plays(&board, roll.hi, roll.lo, finish, &mut results);
                let best = results
                    .iter()
                    .map(|after| state(after, finish).expect("a race stays in its table"))
                    .min_by(|&a, &b| expected[a].total_cmp(&expected[b]))
                    .expect("a roll leaves some board");
                let p = weight as f32 / 36.0;
                mean += p * expected[best];
                debug_assert_eq!(dist[best][MAX_TURNS - 1], 0.0);
                for k in 0..MAX_TURNS - 1 {
                    turns[k + 1] += p * dist[best][k];
                }
            }
            dist[index] = turns;
            expected[index] = mean;
        }

        let mut table = RaceTable {
            first: Vec::with_capacity(STATES),
            start: Vec::with_capacity(STATES + 1),
            chances: Vec::new(),
            expected,
        };
        for d in &dist {
            let low = d.iter().position(|&p| p >= NEGLIGIBLE).unwrap_or(0);
            let high = d.iter().rposition(|&p| p >= NEGLIGIBLE).unwrap_or(0);
            table.first.push(low as u8);
            table.start.push(table.chances.len() as u32);
            table.chances.extend_from_slice(&d[low..=high]);
        }
        table.start.push(table.chances.len() as u32);
        table
    }

    /// The smallest turn count kept for `state` and the chances from it on.
    pub fn turns(&self, state: usize) -> (usize, &[f32]) {
        let range = self.start[state] as usize..self.start[state + 1] as usize;
        (self.first[state] as usize, &self.chances[range])
    }

    /// The expected number of turns to finish from `state`.
    pub fn expected_turns(&self, state: usize) -> f32 {
        self.expected[state]
    }

    /// The chance that the side to roll, in state `me`, finishes no later
    /// than the other side, in state `them`: Σ P_me(k) · P_them(≥ k).
    pub fn win_chance(&self, me: usize, them: usize) -> f32 {
        let (my_first, mine) = self.turns(me);
        let (their_first, theirs) = self.turns(them);
        let their_last = their_first + theirs.len();
        let mut win = 0.0;
        // P_them(≥ k), from the last turn count down.
        let mut at_least = 0.0;
        let mut k = their_last.max(my_first + mine.len());
        while k > my_first {
            k -= 1;
            if (their_first..their_last).contains(&k) {
                at_least += theirs[k - their_first];
            }
            if let Some(&p) = mine.get(k - my_first) {
                win += p * at_least;
            }
        }
        win.min(1.0)
    }

    /// The table's memory in bytes.
    pub fn bytes(&self) -> usize {
        self.first.len() + 4 * (self.start.len() + self.chances.len() + self.expected.len())
    }
}

/// Every state with `left` stones still to lay on slots `i..`, in rank order.
fn enumerate(slots: &mut [u8; SLOTS], i: usize, left: u8, out: &mut Vec<[u8; SLOTS]>) {
    if i == SLOTS {
        out.push(*slots);
        return;
    }
    for count in 0..=left {
        slots[i] = count;
        enumerate(slots, i + 1, left - count, out);
    }
    slots[i] = 0;
}

/// A board in `state`: the slots, and the other stones borne off (`bearoff`)
/// or on point 1 (`allhome`, where they cannot move: moving a stone inside
/// the home instead of one outside never finishes sooner).
fn board_of(slots: &[u8; SLOTS], finish: Finish, first: usize) -> Side {
    let mut board = [0; 26];
    board[first..first + SLOTS].copy_from_slice(slots);
    let rest = STONES - slots.iter().sum::<u8>();
    board[if finish == Finish::BearOff {
        OFF as usize
    } else {
        1
    }] = rest;
    board
}

static TABLES: [OnceLock<RaceTable>; 2] = [OnceLock::new(), OnceLock::new()];

/// Where the table of `finish` is kept in [`TABLES`].
fn slot(finish: Finish) -> usize {
    (finish == Finish::BearOff) as usize
}

/// The table of `finish`, built on first use (or waited for, if
/// [`prepare`] is building it).
pub fn table(finish: Finish) -> &'static RaceTable {
    TABLES[slot(finish)].get_or_init(|| RaceTable::build(finish))
}

/// Whether an evaluation waits for a race table still to be built.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RaceTables {
    /// Waits: the same answer at any load (searches bounded by depth or nodes,
    /// the training tools).
    #[default]
    Wait,
    /// Uses the network until the table is built, begun in the background:
    /// a timed search must not stall for seconds on its first race.
    IfBuilt,
}

/// The table of `finish` as `tables` allows: `None` while it is being built
/// and `IfBuilt` will not wait (WebAssembly, without threads, builds it).
fn table_if(finish: Finish, tables: RaceTables) -> Option<&'static RaceTable> {
    if tables == RaceTables::Wait || cfg!(target_arch = "wasm32") {
        return Some(table(finish));
    }
    let built = TABLES[slot(finish)].get();
    if built.is_none() {
        prepare(finish);
    }
    built
}

/// Starts building the table of `finish` on a thread of its own, unless it
/// is built or begun: an engine readies it at `isready`, long before its
/// first race. (WebAssembly has no threads: there it is built on first use.)
pub fn prepare(finish: Finish) {
    #[cfg(not(target_arch = "wasm32"))]
    {
        use std::sync::atomic::{AtomicBool, Ordering};
        static STARTED: [AtomicBool; 2] = [AtomicBool::new(false), AtomicBool::new(false)];
        let i = slot(finish);
        if TABLES[i].get().is_none() && !STARTED[i].swap(true, Ordering::Relaxed) {
            std::thread::spawn(move || table(finish));
        }
    }
    #[cfg(target_arch = "wasm32")]
    let _ = finish;
}

/// The exact results for the side to roll in a race both of whose sides the
/// table holds; `None` elsewhere (contact, stones beyond the table, dice to
/// play, or a decided game) and while the table is being built, if `tables`
/// does not wait.
pub fn exact(pos: &Sugoroku, tables: RaceTables) -> Option<Outcomes> {
    if !pos.at_chance() || contact(pos) {
        return None;
    }
    let finish = pos.rules().finish;
    let us = pos.side_to_move().index();
    let me = state(&pos.board()[us], finish)?;
    let them = state(&pos.board()[us ^ 1], finish)?;
    Some(Outcomes {
        win: table_if(finish, tables)?.win_chance(me, them),
        ..Outcomes::default()
    })
}

/// The evaluation's results: exact in a race the tables hold, else the network's.
pub fn outcomes(networks: &Networks, pos: &Sugoroku, tables: RaceTables) -> Outcomes {
    exact(pos, tables).unwrap_or_else(|| networks.outcomes(pos))
}
