//! The Yonin position: the state, the seat due, eliminations and their order,
//! who moved when, the key, the history that make and unmake walk and the keys
//! repetition is counted on.

use super::movegen::{
    after_move, after_played, for_each_legal, has_legal_move, legal_moves, next_due, part,
};
use super::piece::Piece;
use super::rules::YoninRules;
use super::state::{State, YoninMove};
use crate::core::game::GameResult;
use crate::core::zobrist::key_table;
use crate::core::Notation;
use crate::core::{Game, KeyHistory, MoveError, MoveList, Outcome, ParseError, PerSeat, Seat};

static SIDE_KEYS: PerSeat<u64> = PerSeat::new(key_table(0x594F_4E49_4E03));

/// Eliminations in order: (seat, credited seat).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Eliminations {
    pub list: [(Seat, Seat); 4],
    pub len: u8,
}

impl Eliminations {
    #[inline]
    pub fn as_slice(&self) -> &[(Seat, Seat)] {
        &self.list[..self.len as usize]
    }
    #[inline]
    pub fn push(&mut self, seat: Seat, by: Seat) {
        self.list[self.len as usize] = (seat, by);
        self.len += 1;
    }
    /// Checkmates made by `seat`.
    pub fn mates_by(&self, seat: Seat) -> u32 {
        self.as_slice().iter().filter(|e| e.1 == seat).count() as u32
    }
    /// 1 + the index of `seat`'s last checkmate, 0 when it made none.
    pub fn last_mate_by(&self, seat: Seat) -> usize {
        self.as_slice()
            .iter()
            .rposition(|e| e.1 == seat)
            .map_or(0, |i| i + 1)
    }
}

/// The seats in the order they last moved, most recent first.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Recency {
    pub order: [Seat; 4],
    pub len: u8,
}

impl Recency {
    #[inline]
    pub fn as_slice(&self) -> &[Seat] {
        &self.order[..self.len as usize]
    }
    #[inline]
    pub fn touch(&mut self, seat: Seat) {
        let len = self.len as usize;
        let at = self.order[..len]
            .iter()
            .position(|&s| s == seat)
            .unwrap_or_else(|| {
                self.len += 1;
                len
            });
        self.order.copy_within(0..at, 1);
        self.order[0] = seat;
    }
}

/// What make changed, kept to take it back: the move is undone on the state,
/// the rest restored. An elimination changes too much to undo by hand: the
/// state before it is kept whole (see `before_eliminations`).
#[derive(Clone, Copy, Debug)]
struct Turn {
    /// What was done from this position: a move (or a pass) by `mover`.
    mover: Seat,
    pass: bool,
    captured: Piece,
    due: Seat,
    recent: Recency,
    checked: u8,
    eliminated_before: u8,
    /// Rule 15: the move left a piece of the mover attacking another live king.
    gave_check: bool,
}

#[derive(Clone, Debug)]
pub struct Yonin {
    state: State,
    due: Seat,
    out: Eliminations,
    recent: Recency,
    /// A bit per seat in check.
    checked: u8,
    key: u64,
    base_ply: u32,
    passes: u32,
    history: Vec<Turn>,
    /// The state just before each move's eliminations, for the moves in
    /// `history` that eliminated, oldest first.
    before_eliminations: Vec<State>,
    /// Stride 1: check priority and eliminations decide who moves, not the
    /// rotation. An elimination is irreversible (a king never turns back up);
    /// nothing else is (captured pieces can be dropped back).
    keys: KeyHistory<1>,
    rules: YoninRules,
}

impl Yonin {
    /// A position from its parts; eliminations the seat due owes (no legal move)
    /// are resolved at once, as after a move.
    pub(super) fn from_parts(
        state: State,
        due: Seat,
        out: Eliminations,
        recent: Recency,
        ply: u32,
        rules: &YoninRules,
    ) -> Yonin {
        let mut pos = Yonin {
            state,
            due,
            out,
            recent,
            checked: state.checked_seats(),
            key: 0,
            base_ply: ply,
            passes: 0,
            history: Vec::with_capacity(512),
            before_eliminations: Vec::new(),
            keys: KeyHistory::with_capacity(512),
            rules: rules.clone(),
        };
        pos.key = pos.compute_key();
        if !pos.is_over() && !has_legal_move(&pos.state, due, pos.checked & due.bit() != 0) {
            pos.eliminate_due_and_resolve();
        }
        pos
    }

    #[inline]
    pub(super) fn state(&self) -> &State {
        &self.state
    }
    #[inline]
    pub fn eliminations(&self) -> &Eliminations {
        &self.out
    }
    #[inline]
    pub fn recency(&self) -> &Recency {
        &self.recent
    }

    /// Whether the game has ended by checkmates.
    #[inline]
    pub fn is_over(&self) -> bool {
        self.out.len as usize >= self.rules.mates_to_end()
    }

    /// Rule 17 totals of all four seats.
    pub fn totals(&self) -> PerSeat<u32> {
        PerSeat::from_fn(|s| self.state.total(s, self.out.mates_by(s)))
    }

    #[inline]
    fn set_due(&mut self, seat: Seat) {
        self.key ^= SIDE_KEYS[self.due] ^ SIDE_KEYS[seat];
        self.due = seat;
    }

    /// After `mover` moved: who is due is `next`; eliminates while that seat has
    /// no legal move (rules 6, 7, 20).
    fn resolve(&mut self, next: Seat) {
        self.set_due(next);
        if !self.due_can_move() {
            self.before_eliminations.push(self.state);
            self.eliminate_due_and_resolve();
        }
    }

    fn eliminate_due_and_resolve(&mut self) {
        loop {
            let mated = self.due;
            let heir = self.credit(mated);
            self.state.eliminate(mated, heir);
            self.key = self.state.key ^ SIDE_KEYS[self.due];
            self.out.push(mated, heir);
            self.keys.mark_irreversible();
            // Inherited pieces may give or lift checks.
            self.checked = self.state.checked_seats();
            let next = next_due(&self.state, mated);
            self.set_due(next);
            if self.is_over() || self.due_can_move() {
                return;
            }
        }
    }

    /// Rules 7 and 16: who is credited with mating `seat`.
    fn credit(&self, seat: Seat) -> Seat {
        let checkers = self
            .state
            .attackers(self.state.kings[seat], self.state.others(seat));
        let counter_clockwise = |pick: &dyn Fn(Seat) -> bool| {
            (1..4)
                .map(|i| seat.after(4 - i, 4))
                .find(|&s| pick(s))
                .unwrap_or(seat)
        };
        if !checkers.is_empty() {
            let checks = |s: Seat| !(checkers & self.state.by_owner[s]).is_empty();
            return self
                .recent
                .as_slice()
                .iter()
                .copied()
                .find(|&s| checks(s))
                .unwrap_or_else(|| counter_clockwise(&checks));
        }
        // The last mover other than the mated seat: a seat due again after
        // its own move, with no move left, mates itself no more than it checks itself.
        self.recent
            .as_slice()
            .iter()
            .copied()
            .find(|&s| s != seat && self.state.is_alive(s))
            .unwrap_or_else(|| counter_clockwise(&|s| self.state.is_alive(s)))
    }

    /// How often the current position has stood, this time included
    /// (positions reached by a pass never count).
    pub fn occurrences(&self) -> usize {
        self.keys.occurrences(self.key)
    }

    /// Where the window of `seat`'s unbroken checks starts: the position after
    /// its last move that gave no check (or the oldest position).
    fn check_window(&self, seat: Seat) -> usize {
        self.history
            .iter()
            .rposition(|s| !s.pass && s.mover == seat && !s.gave_check)
            .map_or(0, |j| j + 1)
    }

    /// Whether some position in `seat`'s check window already stood three times,
    /// so that a move of `seat` might make a fourth occurrence (rules 10, 19).
    fn perpetual_possible(&self, seat: Seat) -> bool {
        let start = self.check_window(seat);
        if self.history.len() < start + 8 {
            // Three earlier occurrences need at least eight plies between them.
            return false;
        }
        self.keys.thrice_since(self.key, start)
    }

    /// Rules 10, 19: the move just made (by `mover`) gave check, made the fourth
    /// occurrence, and every move of `mover` since the first occurrence gave check.
    fn last_move_forbidden(&self, mover: Seat) -> bool {
        let last = self.history.last().expect("a move was made");
        if !last.gave_check {
            return false;
        }
        // Exactly three earlier occurrences, the oldest first of the four.
        let mut earlier = self.keys.earlier(self.key, 0);
        let (Some(first), None) = (earlier.nth(2), earlier.next()) else {
            return false;
        };
        self.history[first..]
            .iter()
            .all(|s| s.pass || s.mover != mover || s.gave_check)
    }

    /// Whether the seat due has a legal move, the continuous-check rule included.
    fn due_can_move(&mut self) -> bool {
        let seat = self.due;
        if !self.perpetual_possible(seat) {
            return has_legal_move(&self.state, seat, self.checked & seat.bit() != 0);
        }
        let mut moves = MoveList::new();
        for_each_legal(&self.state, seat, &mut |mv| {
            moves.push(mv);
            false
        });
        moves.iter().any(|&mv| !self.forbidden(mv))
    }

    /// Whether the continuous-check rule forbids `mv` for the seat due.
    fn forbidden(&mut self, mv: YoninMove) -> bool {
        let mover = self.due;
        self.make(mv);
        let forbidden = self.last_move_forbidden(mover);
        self.unmake(mv);
        forbidden
    }

    fn push_turn(&mut self, pass: bool, captured: Piece) {
        self.history.push(Turn {
            mover: self.due,
            pass,
            captured,
            due: self.due,
            recent: self.recent,
            checked: self.checked,
            eliminated_before: self.out.len,
            gave_check: false,
        });
        if pass {
            self.keys.push_pass(self.key);
        } else {
            self.keys.push(self.key);
        }
    }

    /// Restores what the last turn changed, eliminations included, but the
    /// move itself on the board and hands, which the caller takes back.
    fn pop_turn(&mut self) -> Turn {
        let turn = self.history.pop().expect("unmake without a move");
        self.due = turn.due;
        self.recent = turn.recent;
        self.checked = turn.checked;
        if self.out.len != turn.eliminated_before {
            self.state = self
                .before_eliminations
                .pop()
                .expect("saved at the elimination");
            for entry in &mut self.out.list[turn.eliminated_before as usize..] {
                *entry = Default::default();
            }
            self.out.len = turn.eliminated_before;
        }
        self.key = self.keys.pop();
        turn
    }

    /// Appends the legal moves of `PART` (see [`part`]) of the seat due, less
    /// those the continuous-check rule forbids.
    fn append_moves<const PART: u8>(&self, moves: &mut MoveList<YoninMove>) {
        if self.is_over() {
            return;
        }
        if !self.perpetual_possible(self.due) {
            legal_moves::<PART>(&self.state, self.due, &mut |mv| {
                moves.push(mv);
                false
            });
            return;
        }
        let mut scratch = self.clone();
        legal_moves::<PART>(&self.state, self.due, &mut |mv| {
            if !scratch.forbidden(mv) {
                moves.push(mv);
            }
            false
        });
    }

    /// Places when the game ends without the deciding checkmates (repetition,
    /// move limit) or with them (rules 10, 17, 22); a seat that forfeits
    /// (`faulty`) ranks below every other, its team last in pairs.
    fn places(&self, faulty: Option<Seat>) -> PerSeat<u8> {
        let totals = self.totals();
        if self.rules.pairs {
            let team = |t: usize| totals[Seat::new(t)] + totals[Seat::new(t + 2)];
            let losers = match (faulty, self.out.as_slice().first()) {
                (Some(seat), _) | (None, Some(&(seat, _))) => Some(seat.index() & 1),
                (None, None) if team(0) > team(1) => Some(1),
                (None, None) if team(1) > team(0) => Some(0),
                (None, None) => None,
            };
            return PerSeat::from_fn(|s| match losers {
                Some(l) if s.index() & 1 == l => 3,
                _ => 1,
            });
        }
        let rank_key = |s: Seat| (self.out.mates_by(s), totals[s], self.out.last_mate_by(s));
        let survivors: Vec<Seat> = Seat::all(4)
            .filter(|&s| self.state.is_alive(s) && Some(s) != faulty)
            .collect();
        let mut places = PerSeat::splat(0);
        for &s in &survivors {
            let better = survivors
                .iter()
                .filter(|&&o| rank_key(o) > rank_key(s))
                .count();
            places[s] = 1 + better as u8;
        }
        let out = self.out.as_slice();
        for (i, &(seat, _)) in out.iter().enumerate() {
            // Later eliminations rank higher.
            places[seat] = (survivors.len() + out.len() - i) as u8;
        }
        if let Some(seat) = faulty {
            places[seat] = 4;
        }
        places
    }

    fn judged(&self, reason: &'static str) -> Outcome {
        Outcome {
            result: GameResult::Places(self.places(None)),
            reason,
        }
    }

    /// The seats in check now.
    pub fn seats_in_check(&self) -> impl Iterator<Item = Seat> + '_ {
        Seat::all(4).filter(|&s| self.checked & s.bit() != 0)
    }
}

impl Yonin {
    pub fn rules(&self) -> &YoninRules {
        &self.rules
    }
    pub fn compute_key(&self) -> u64 {
        self.state.compute_key() ^ SIDE_KEYS[self.due]
    }
}

impl Game for Yonin {
    type Move = YoninMove;
    type Rules = YoninRules;
    const SEATS: usize = 4;

    #[inline]
    fn side_to_move(&self) -> Seat {
        self.due
    }

    #[inline]
    fn ply(&self) -> u32 {
        self.base_ply + self.history.len() as u32 - self.passes
    }

    fn generate_moves(&self, moves: &mut MoveList<YoninMove>) {
        moves.clear();
        self.append_moves::<{ part::ALL }>(moves);
    }

    fn make(&mut self, mv: YoninMove) {
        let mover = self.due;
        let captured = self.state.apply(mv, mover);
        self.push_turn(false, captured);
        self.key = self.state.key ^ SIDE_KEYS[mover];
        let after = after_played(&self.state, mover, mv, self.checked);
        debug_assert!({
            let full = after_move(&self.state, mover);
            (full.due, full.gave_check, full.checked)
                == (after.due, after.gave_check, after.checked)
        });
        self.history.last_mut().expect("just pushed").gave_check = after.gave_check;
        self.recent.touch(mover);
        self.checked = after.checked;
        self.resolve(after.due);
        debug_assert_eq!(self.checked, self.state.checked_seats());
        debug_assert_eq!(self.key, self.compute_key());
    }

    fn unmake(&mut self, mv: YoninMove) {
        let turn = self.pop_turn();
        debug_assert!(!turn.pass, "unmake {mv:?} after a pass");
        self.state.unapply(mv, turn.mover, turn.captured);
        debug_assert_eq!(self.state.key, self.state.compute_key());
    }

    #[inline]
    fn key(&self) -> u64 {
        self.key
    }

    fn outcome(&self) -> Option<Outcome> {
        self.decided()
    }

    fn decided(&self) -> Option<Outcome> {
        if self.is_over() {
            let reason = if self.rules.pairs {
                "pairs-checkmate"
            } else {
                "second-checkmate"
            };
            return Some(self.judged(reason));
        }
        if self.history.len() >= 8 && self.occurrences() >= 4 {
            return Some(self.judged("repetition"));
        }
        (self.rules.move_limit > 0 && self.ply() >= self.rules.move_limit)
            .then(|| self.judged("move-limit"))
    }

    fn forfeit(&self, seat: Seat) -> GameResult {
        GameResult::Places(self.places(Some(seat)))
    }

    fn repeats_since(&self, since_ply: u32) -> bool {
        // History indices count passes too; the searcher's root has none
        // before it, so its ply gives its index.
        let oldest = since_ply.saturating_sub(self.base_ply) as usize;
        self.keys.repeats_since(self.key, oldest)
    }
}

impl Notation for Yonin {
    fn format_move(&self, mv: YoninMove) -> String {
        super::notation::format_move(mv)
    }

    fn parse_move(&self, text: &str) -> Result<YoninMove, MoveError> {
        let mv = super::notation::parse_move(text)?;
        let mut moves = MoveList::new();
        self.generate_moves(&mut moves);
        if moves.contains(&mv) {
            Ok(mv)
        } else if moves.is_empty() {
            Err(MoveError::new(text, "the game is over"))
        } else {
            Err(MoveError::new(text, "not a legal move here"))
        }
    }
    fn from_sfen(sfen: &str, rules: &YoninRules) -> Result<Self, ParseError> {
        super::notation::parse_sfen(sfen, rules)
    }
    fn sfen(&self) -> String {
        super::notation::sfen(&self.state, self.due, &self.out, &self.recent, self.ply())
    }
    fn diagram(&self) -> String {
        super::notation::diagram(self)
    }
    fn status_details(&self) -> String {
        let list = |items: Vec<String>| {
            if items.is_empty() {
                "-".to_string()
            } else {
                items.join(",")
            }
        };
        let check = list(self.seats_in_check().map(|s| s.to_string()).collect());
        let out = list(
            self.out
                .as_slice()
                .iter()
                .map(|(s, by)| format!("{s}:{by}"))
                .collect(),
        );
        let mates: Vec<String> = Seat::all(4)
            .map(|s| self.out.mates_by(s).to_string())
            .collect();
        let totals: Vec<String> = self.totals().iter().map(|t| t.to_string()).collect();
        format!(
            "check {check} out {out} mates {} totals {}",
            mates.join(","),
            totals.join(",")
        )
    }

    fn readable_move(&self, mv: Self::Move, kanji: bool) -> String {
        const LETTERS: [&str; 8] = ["K", "R", "G", "S", "P", "+R", "+S", "+P"];
        let state = self.state();
        let on = |sq| {
            Some(state.at(sq))
                .filter(|p| !p.is_none())
                .map(|p| p.kind())
        };
        crate::core::readable::ReadableMove::shogi(mv, on, |k| LETTERS[k.index()], kanji)
    }
}

impl crate::search::MultiPlayerGame for Yonin {
    type Eval = super::eval::YoninEval;

    fn evaluate_all(&self, eval: &Self::Eval) -> PerSeat<crate::search::Value> {
        super::eval::evaluate_all(self, eval)
    }

    #[inline]
    fn is_alive(&self, seat: Seat) -> bool {
        self.state.is_alive(seat)
    }

    fn generate_tactical(&self, moves: &mut MoveList<YoninMove>) {
        moves.clear();
        self.append_moves::<{ part::TACTICAL }>(moves);
    }

    fn generate_head(&self, moves: &mut MoveList<YoninMove>) {
        moves.clear();
        self.append_moves::<{ part::BOARD }>(moves);
    }

    /// The drops.
    fn append_quiet_tail(&self, moves: &mut MoveList<YoninMove>) {
        self.append_moves::<{ part::DROPS }>(moves);
    }

    #[inline]
    fn is_tactical(&self, mv: YoninMove) -> bool {
        mv.promotes() || mv.from().is_some() && !self.state.at(mv.to()).is_none()
    }

    fn gain(&self, mv: YoninMove, eval: &Self::Eval) -> crate::search::Value {
        super::eval::gain(&self.state, mv, eval)
    }

    fn make_pass(&mut self, seat: Seat) -> bool {
        if self.is_over() || !self.state.is_alive(seat) || self.checked != 0 {
            return false;
        }
        self.push_turn(true, Piece::NONE);
        self.passes += 1;
        self.set_due(seat);
        true
    }

    fn unmake_pass(&mut self) {
        let turn = self.pop_turn();
        debug_assert!(turn.pass, "unmake_pass after a move");
        self.passes -= 1;
    }
}
