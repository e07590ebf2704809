//! The Sugoroku position: stones per point for each side (each in its own
//! numbering), the side to move, the dice still to play, the key and the result.
//! It holds no heap memory, so copying it is cheap (the turn generator works on
//! a copy).

use super::dice::{Dice, Roll, ROLLS};
use super::movegen::{Step, SugorokuMove};
use super::rules::{Closeout, Finish, SugorokuRules};
use super::Evaluation;
use crate::core::zobrist::key_table;
use crate::core::Notation;
use crate::core::{Game, MoveError, MoveList, Outcome, ParseError, Seat};
use crate::search::{ChanceGame, Value};

/// Borne-off stones, in every side's numbering.
pub const OFF: u8 = 0;
/// The bar: a die d enters on point 25 − d.
pub const BAR: u8 = 25;
/// Stones per side.
pub const STONES: u8 = 15;
/// The home is points 1..=HOME.
pub const HOME: u8 = 6;

/// Seat `s`'s point `p` is the other seat's point `25 − p`.
#[inline]
pub const fn mirror(point: u8) -> u8 {
    25 - point
}

static STONE_KEYS: [u64; 2 * 26 * 16] = key_table(0x5355_474F_524F_4B55);
static DICE_KEYS: [u64; 49] = key_table(0x4449_4345_5355_474F);
const SIDE_KEY: u64 = 0x6A09_E667_F3BC_C908;

#[inline]
fn stone_key(side: Seat, point: u8, count: u8) -> u64 {
    STONE_KEYS[(side.index() * 26 + point as usize) * 16 + count as usize]
}

#[derive(Clone, Copy, Debug)]
pub struct Sugoroku {
    /// `stones[side][point]` in that side's numbering: 0 off, 1–24, 25 bar.
    stones: [[u8; 26]; 2],
    side: Seat,
    dice: Dice,
    /// Whole turns played before this position (the turn counter − 1).
    ply: u32,
    key: u64,
    outcome: Option<Outcome>,
    rules: SugorokuRules,
}

impl Sugoroku {
    /// An empty board, `side` waiting to roll at `ply`; the notation parser's start.
    pub(super) fn empty(side: Seat, ply: u32, rules: &SugorokuRules) -> Self {
        let mut pos = Sugoroku {
            stones: [[0; 26]; 2],
            side,
            dice: Dice::NONE,
            ply,
            key: 0,
            outcome: None,
            rules: *rules,
        };
        pos.key = pos.compute_key();
        pos
    }

    /// Sets the count on one point (building positions only; keeps the key).
    pub(super) fn set_count(&mut self, side: Seat, point: u8, count: u8) {
        self.change(side, point, count);
    }

    pub(super) fn set_dice(&mut self, dice: Dice) {
        self.key ^= DICE_KEYS[self.dice.index()] ^ DICE_KEYS[dice.index()];
        self.dice = dice;
    }

    /// Works out whether a built position is already over; `Err` if both sides won.
    pub(super) fn settle(&mut self) -> Result<(), &'static str> {
        let won = [
            self.winner_check(Seat::FIRST),
            self.winner_check(Seat::SECOND),
        ];
        self.outcome = match won {
            [Some(_), Some(_)] => return Err("both sides have already won"),
            [Some(o), None] | [None, Some(o)] => Some(o),
            [None, None] => None,
        };
        Ok(())
    }

    #[inline]
    fn change(&mut self, side: Seat, point: u8, count: u8) {
        let old = self.stones[side.index()][point as usize];
        self.key ^= stone_key(side, point, old) ^ stone_key(side, point, count);
        self.stones[side.index()][point as usize] = count;
    }

    /// Stones of `side` on `point` of that side's own numbering (0 off, 25 bar).
    #[inline]
    pub fn count(&self, side: Seat, point: u8) -> u8 {
        self.stones[side.index()][point as usize]
    }

    #[inline]
    pub fn dice(&self) -> Dice {
        self.dice
    }

    /// Stones of `side` on its home points 1–6.
    #[inline]
    pub fn home_count(&self, side: Seat) -> u8 {
        self.stones[side.index()][1..=HOME as usize].iter().sum()
    }

    /// The pip count: each stone's distance to off (the bar is 25).
    pub fn pips(&self, side: Seat) -> u32 {
        (1..=25u32)
            .map(|p| p * self.stones[side.index()][p as usize] as u32)
            .sum()
    }

    /// Stones of `side` outside its home (points 7–24 and the bar).
    #[inline]
    fn outside_home(&self, side: Seat) -> u8 {
        self.stones[side.index()][HOME as usize + 1..].iter().sum()
    }

    /// The closed home of `side`: an opponent stone on the bar and each of
    /// `side`'s points 1–6 holding two or more.
    pub fn home_closed(&self, side: Seat) -> bool {
        self.stones[side.index() ^ 1][BAR as usize] > 0
            && self.stones[side.index()][1..=HOME as usize]
                .iter()
                .all(|&n| n >= 2)
    }

    /// The win value of `side`'s all-home win in the current state.
    fn all_home_points(&self, side: Seat) -> u8 {
        if self.rules.closeout != Closeout::Multiplier || !self.home_closed(side) {
            return 1;
        }
        let home = &self.stones[side.index()][1..=HOME as usize];
        if home == [2, 2, 2, 3, 3, 3] || home == [2, 3, 2, 3, 2, 3] {
            3
        } else {
            2
        }
    }

    /// Whether `side` has won in the current state.
    fn winner_check(&self, side: Seat) -> Option<Outcome> {
        let won = |points, reason| {
            Some(Outcome {
                result: crate::core::GameResult::Win {
                    winner: side,
                    points,
                },
                reason,
            })
        };
        match self.rules.finish {
            Finish::AllHome if self.home_count(side) == STONES => {
                return won(self.all_home_points(side), "all-home")
            }
            Finish::BearOff if self.count(side, OFF) == STONES => return won(1, "borne-off"),
            _ => {}
        }
        if self.rules.closeout == Closeout::Instant && self.home_closed(side) {
            return won(1, "closed-home");
        }
        None
    }

    /// Where a stone of the side to move on `from` goes with `die`, if it may.
    #[inline]
    pub(super) fn target(&self, from: u8, die: u8) -> Option<u8> {
        let us = &self.stones[self.side.index()];
        if us[from as usize] == 0 || (us[BAR as usize] > 0 && from != BAR) {
            return None;
        }
        if from > die {
            let to = from - die;
            let blockers = self.stones[self.side.index() ^ 1][mirror(to) as usize];
            return (blockers < 2).then_some(to);
        }
        // Bearing off: only under the bear-off finish with every stone home, by the
        // exact number or from the highest point.
        if self.rules.finish != Finish::BearOff || self.outside_home(self.side) > 0 {
            return None;
        }
        let higher = us[from as usize + 1..=HOME as usize].iter().any(|&n| n > 0);
        (from == die || !higher).then_some(OFF)
    }

    /// Moves one stone of the side to move; returns whether it hit.
    #[inline]
    pub(super) fn apply_step(&mut self, step: Step) -> bool {
        let (us, them) = (self.side, self.side.other());
        self.change(us, step.from, self.count(us, step.from) - 1);
        self.change(us, step.to, self.count(us, step.to) + 1);
        if step.to != OFF && self.count(them, mirror(step.to)) == 1 {
            self.change(them, mirror(step.to), 0);
            self.change(them, BAR, self.count(them, BAR) + 1);
            return true;
        }
        false
    }

    /// Takes back [`Sugoroku::apply_step`].
    #[inline]
    pub(super) fn revert_step(&mut self, step: Step, hit: bool) {
        let (us, them) = (self.side, self.side.other());
        if hit {
            self.change(them, BAR, self.count(them, BAR) - 1);
            self.change(them, mirror(step.to), 1);
        }
        self.change(us, step.to, self.count(us, step.to) - 1);
        self.change(us, step.from, self.count(us, step.from) + 1);
    }

    /// Whether the side to move has won now (checked after every stone move).
    #[inline]
    pub(super) fn mover_won(&self) -> bool {
        let side = self.side.index();
        match self.rules.finish {
            Finish::AllHome if self.home_count(self.side) == STONES => return true,
            Finish::BearOff if self.stones[side][OFF as usize] == STONES => return true,
            _ => {}
        }
        self.rules.closeout == Closeout::Instant && self.home_closed(self.side)
    }

    /// Both sides' stones, each in its own numbering (0 off, 1–24, 25 bar).
    #[inline]
    pub fn board(&self) -> &[[u8; 26]; 2] {
        &self.stones
    }

    /// The position of [`Sugoroku::board`] `board` waiting for `side`'s roll
    /// (the training data's form); refused unless each side has fifteen
    /// stones, no point holds both, and at most one side has won.
    pub fn from_board(
        board: &[[u8; 26]; 2],
        side: Seat,
        rules: &SugorokuRules,
    ) -> Result<Self, String> {
        let mut pos = Sugoroku::empty(side, 0, rules);
        for owner in Seat::all(2) {
            let total: u32 = board[owner.index()].iter().map(|&n| n as u32).sum();
            if total != STONES as u32 {
                return Err(format!("side {owner} has {total} stones, not 15"));
            }
            for point in 0..=BAR {
                pos.set_count(owner, point, board[owner.index()][point as usize]);
            }
        }
        if (1..=24).any(|p| board[0][p as usize] > 0 && board[1][mirror(p) as usize] > 0) {
            return Err("both sides have stones on one point".into());
        }
        if rules.finish == Finish::AllHome && (board[0][0] > 0 || board[1][0] > 0) {
            return Err("no stone is borne off under the all-home finish".into());
        }
        pos.settle()?;
        Ok(pos)
    }

    /// Plays stone steps of the current turn without finishing it: the steps'
    /// dice are used up and the rest stay to play (a partial turn from a record).
    pub(super) fn play_partial(&mut self, steps: &[Step], rest: Dice) {
        for &step in steps {
            self.apply_step(step);
        }
        self.set_dice(rest);
    }

    /// Hands over after a turn: the result if the mover won, else the other
    /// seat waits for its roll.
    fn hand_over(&mut self) {
        self.outcome = self.winner_check(self.side);
        self.set_dice(Dice::NONE);
        self.side = self.side.other();
        self.key ^= SIDE_KEY;
        self.ply += 1;
    }
}

impl Sugoroku {
    pub fn rules(&self) -> &SugorokuRules {
        &self.rules
    }
    pub fn compute_key(&self) -> u64 {
        let mut key = DICE_KEYS[self.dice.index()];
        if self.side == Seat::SECOND {
            key ^= SIDE_KEY;
        }
        for side in Seat::all(2) {
            for point in 0..26u8 {
                key ^= stone_key(side, point, self.count(side, point));
            }
        }
        key
    }
}

impl Game for Sugoroku {
    type Move = SugorokuMove;
    type Rules = SugorokuRules;

    #[inline]
    fn side_to_move(&self) -> Seat {
        self.side
    }

    #[inline]
    fn ply(&self) -> u32 {
        self.ply
    }

    fn generate_moves(&self, moves: &mut MoveList<SugorokuMove>) {
        super::movegen::generate_turns(self, moves);
    }

    fn make(&mut self, mv: SugorokuMove) {
        debug_assert_eq!(mv.dice(), self.dice, "a turn for other dice");
        let mut hits = 0;
        for (i, &step) in mv.steps().iter().enumerate() {
            hits |= (self.apply_step(step) as u8) << i;
        }
        debug_assert_eq!(hits, mv.hits());
        self.hand_over();
        debug_assert_eq!(self.key, self.compute_key());
    }

    fn unmake(&mut self, mv: SugorokuMove) {
        self.ply -= 1;
        self.key ^= SIDE_KEY;
        self.side = self.side.other();
        self.outcome = None;
        self.set_dice(mv.dice());
        for (i, &step) in mv.steps().iter().enumerate().rev() {
            self.revert_step(step, mv.hits() >> i & 1 != 0);
        }
        debug_assert_eq!(self.key, self.compute_key());
    }

    #[inline]
    fn key(&self) -> u64 {
        self.key
    }

    #[inline]
    fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    #[inline]
    fn at_chance(&self) -> bool {
        self.dice.is_none() && self.outcome.is_none()
    }

    #[inline]
    fn decided(&self) -> Option<Outcome> {
        self.outcome
    }

    fn repeats_since(&self, _since_ply: u32) -> bool {
        false
    }
}

impl Notation for Sugoroku {
    fn format_move(&self, mv: SugorokuMove) -> String {
        mv.to_string()
    }

    fn parse_move(&self, text: &str) -> Result<SugorokuMove, MoveError> {
        super::notation::parse_turn(self, text)
    }
    fn from_sfen(sfen: &str, rules: &SugorokuRules) -> Result<Self, ParseError> {
        super::notation::parse_position(sfen, rules)
    }
    fn sfen(&self) -> String {
        super::notation::write_position(self)
    }
    fn play_text(&mut self, text: &str) -> Result<(), MoveError> {
        super::notation::play_text(self, text)
    }
    fn diagram(&self) -> String {
        super::notation::diagram(self)
    }
    fn status_details(&self) -> String {
        let both = |f: &dyn Fn(Seat) -> u32| format!("{},{}", f(Seat::FIRST), f(Seat::SECOND));
        format!(
            "dice {} pips {} bar {} off {} home {}",
            self.dice,
            both(&|s| self.pips(s)),
            both(&|s| self.count(s, BAR) as u32),
            both(&|s| self.count(s, OFF) as u32),
            both(&|s| self.home_count(s) as u32),
        )
    }
}

impl ChanceGame for Sugoroku {
    type Eval = super::SugorokuEval;
    type Chance = Roll;
    const CHANCE_WEIGHT: u32 = 36;
    const VALUE_BOUND: Value = 3000;

    fn chance_outcomes(&self) -> &'static [(Roll, u32)] {
        &ROLLS
    }

    #[inline]
    fn apply_chance(&mut self, roll: Roll) {
        debug_assert!(self.at_chance());
        self.set_dice(Dice::roll(roll));
    }

    #[inline]
    fn undo_chance(&mut self, roll: Roll) {
        debug_assert_eq!(self.dice, Dice::roll(roll));
        self.set_dice(Dice::NONE);
    }

    fn evaluate(&self, eval: &Self::Eval) -> Value {
        match eval.evaluation {
            Evaluation::Network => {
                let equity = super::race::outcomes(eval.network(), self, eval.race_tables).equity();
                let (low, high) = self.value_bounds();
                ((equity * 1000.0).round() as Value).clamp(low, high)
            }
            Evaluation::Handmade => super::eval::evaluate(self, &eval.handmade),
        }
    }

    /// Only a win with an opponent stone on the bar counts more than 1 (rules §4),
    /// and only under the higher-value all-home rules; once the sides have passed
    /// each other with the bar empty no stone can be hit again, so every value
    /// from here on (the evaluation's too) is within ±1.
    fn value_bounds(&self) -> (Value, Value) {
        let multipliers =
            self.rules.closeout == Closeout::Multiplier && self.rules.finish == Finish::AllHome;
        if multipliers && self.can_hit_again() {
            (-Self::VALUE_BOUND, Self::VALUE_BOUND)
        } else {
            (-1000, 1000)
        }
    }
}

impl Sugoroku {
    /// Whether a stone is on the bar or some stone still has an opposing one
    /// ahead of it: once not, stones only moving forward never meet again.
    pub(super) fn can_hit_again(&self) -> bool {
        if self.count(Seat::FIRST, BAR) > 0 || self.count(Seat::SECOND, BAR) > 0 {
            return true;
        }
        // b's rearmost stone against w's rearmost, both in b's numbering.
        let b_back = (1..=24u8).rev().find(|&p| self.count(Seat::FIRST, p) > 0);
        let w_back = (1..=24u8).find(|&p| self.count(Seat::SECOND, mirror(p)) > 0);
        matches!((b_back, w_back), (Some(b), Some(w)) if w < b)
    }
}
