//! The Hasami position: two bitboards, a transposed occupancy, the key, the
//! captures needed to unmake moves and the keys repetition is counted on.

use super::movegen::{
    capture_targets, captures, mobility_balance, push_slides, slide_count, slides, transposed_bit,
    HasamiMove,
};
use super::rules::{HasamiRules, WinCondition};
use crate::core::board9::{Bitboard, Square};
use crate::core::zobrist::key_table;
use crate::core::Notation;
use crate::core::{Game, KeyHistory, MoveError, MoveList, Outcome, ParseError, Seat};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

pub const BLACK: Seat = Seat::FIRST;
pub const WHITE: Seat = Seat::SECOND;
/// Stones each side starts with; captured counts are derived from it.
pub const STONES: u32 = 9;

static STONE_KEYS: [u64; 2 * 81] = key_table(0x4841_5341_4D49);
const SIDE_KEY: u64 = 0xD1B5_4A32_D192_ED03;

#[inline]
fn stone_key(side: Seat, sq: Square) -> u64 {
    STONE_KEYS[side.index() * 81 + sq.index()]
}

/// The capture targets of the position last asked about, tagged with its key:
/// move ordering asks once per move of a node. Atomics only because `Hasami`
/// must be `Sync`; every search thread has its own position, so they are never
/// contended (relaxed loads and stores are plain moves).
#[derive(Debug, Default)]
struct TargetCache {
    valid: AtomicBool,
    key: AtomicU64,
    low: AtomicU64,
    high: AtomicU64,
}

impl Clone for TargetCache {
    fn clone(&self) -> Self {
        TargetCache::default()
    }
}

#[derive(Clone, Debug)]
pub struct Hasami {
    stones: [Bitboard; 2],
    /// Each side's stones in column-major order, for slides and captures along files.
    stones_t: [u128; 2],
    side: Seat,
    key: u64,
    /// Plies played before this position's history starts (from the SFEN move number).
    base_ply: u32,
    /// Per ply, the stones it captured (to unmake it).
    captures: Vec<Bitboard>,
    /// A capture is irreversible: stones never come back.
    keys: KeyHistory<2>,
    rules: HasamiRules,
    targets: TargetCache,
}

impl Hasami {
    /// An empty board with `side` to move at `ply`.
    fn empty(side: Seat, ply: u32, rules: &HasamiRules) -> Self {
        Hasami {
            stones: [Bitboard::EMPTY; 2],
            stones_t: [0; 2],
            side,
            key: if side == WHITE { SIDE_KEY } else { 0 },
            base_ply: ply,
            captures: Vec::with_capacity(256),
            keys: KeyHistory::with_capacity(256),
            rules: rules.clone(),
            targets: TargetCache::default(),
        }
    }

    pub(super) fn put(&mut self, side: Seat, sq: Square) {
        self.stones[side.index()] |= sq.bit();
        self.stones_t[side.index()] ^= transposed_bit(sq);
        self.key ^= stone_key(side, sq);
    }

    fn remove(&mut self, side: Seat, sq: Square) {
        self.stones[side.index()] ^= sq.bit();
        self.stones_t[side.index()] ^= transposed_bit(sq);
        self.key ^= stone_key(side, sq);
    }

    /// Builds a position from stones; the notation parser's back door.
    pub(super) fn from_stones(
        black: Bitboard,
        white: Bitboard,
        side: Seat,
        ply: u32,
        rules: &HasamiRules,
    ) -> Result<Self, &'static str> {
        if !(black & white).is_empty() {
            return Err("two stones on one square");
        }
        if black.count() > STONES || white.count() > STONES {
            return Err("more than 9 stones of one side");
        }
        let mut pos = Hasami::empty(side, ply, rules);
        for sq in black {
            pos.put(BLACK, sq);
        }
        for sq in white {
            pos.put(WHITE, sq);
        }
        Ok(pos)
    }

    #[inline]
    pub fn stones(&self, side: Seat) -> Bitboard {
        self.stones[side.index()]
    }

    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.stones[0] | self.stones[1]
    }

    /// Opponent stones `side` has captured (derived from the board).
    #[inline]
    pub fn captured_by(&self, side: Seat) -> u32 {
        STONES - self.stones[side.other().index()].count()
    }

    /// Squares a stone of the side to move on `sq` may slide to.
    #[inline]
    pub fn destinations(&self, sq: Square) -> Bitboard {
        slides(sq, self.occupied(), self.occupied_t())
    }

    /// Number of moves `side` would have if it were to move (mobility).
    pub fn mobility(&self, side: Seat) -> u32 {
        let (occ, occ_t) = (self.occupied(), self.occupied_t());
        self.stones(side)
            .map(|sq| slide_count(sq, occ, occ_t))
            .sum()
    }

    /// `mobility(side) - mobility(side ^ 1)`, computed line by line.
    #[inline]
    pub fn mobility_balance(&self, side: Seat) -> i32 {
        let (us, them) = (side.index(), side.index() ^ 1);
        mobility_balance(
            self.stones[us],
            self.stones[them],
            self.stones_t[us],
            self.stones_t[them],
        )
    }

    /// The squares a stone of `side` could slide to, were it `side`'s turn.
    #[inline]
    pub fn reach(&self, side: Seat) -> Bitboard {
        let (occ, occ_t) = (self.occupied(), self.occupied_t());
        self.stones(side)
            .fold(Bitboard::EMPTY, |reach, sq| reach | slides(sq, occ, occ_t))
    }

    /// What the opponent of the side to move threatens, were it its turn: the
    /// squares its capturing moves land on, and the stones they would take.
    pub fn threats(&self) -> (Bitboard, Bitboard) {
        let (us, them) = (self.stones(self.side), self.stones(self.side.other()));
        let landings = capture_targets(them, us);
        if landings.is_empty() {
            return (landings, landings);
        }
        // The stone closing a run cannot be the one arriving (it stands beyond
        // the run), so any stone that reaches a landing square captures there.
        let landings = landings & self.reach(self.side.other());
        let taken = landings.fold(Bitboard::EMPTY, |taken, to| taken | captures(to, them, us));
        (landings, taken)
    }

    /// The empty squares where a stone of the side to move would capture on arrival.
    #[inline]
    pub fn capture_targets(&self) -> Bitboard {
        capture_targets(self.stones(self.side), self.stones(self.side.other()))
    }

    /// [`Hasami::capture_targets`], computed once per position however often asked.
    #[inline]
    pub fn cached_capture_targets(&self) -> Bitboard {
        let cache = &self.targets;
        if cache.valid.load(Ordering::Relaxed) && cache.key.load(Ordering::Relaxed) == self.key {
            let (low, high) = (
                cache.low.load(Ordering::Relaxed),
                cache.high.load(Ordering::Relaxed),
            );
            return Bitboard(low as u128 | (high as u128) << 64);
        }
        let targets = self.capture_targets();
        cache.low.store(targets.0 as u64, Ordering::Relaxed);
        cache
            .high
            .store((targets.0 >> 64) as u64, Ordering::Relaxed);
        cache.key.store(self.key, Ordering::Relaxed);
        cache.valid.store(true, Ordering::Relaxed);
        targets
    }

    /// The opponent stones `mv` would capture.
    #[inline]
    pub fn captures_of(&self, mv: HasamiMove) -> Bitboard {
        captures(
            mv.to,
            self.stones(self.side),
            self.stones(self.side.other()),
        )
    }

    /// Both sides' stones in column-major order.
    #[inline]
    fn occupied_t(&self) -> u128 {
        self.stones_t[0] | self.stones_t[1]
    }

    fn meets_win_condition(&self, side: Seat) -> bool {
        let opponent_left = self.stones(side.other()).count();
        match self.rules.win {
            WinCondition::Five => self.captured_by(side) >= 5,
            WinCondition::Lead3 => self.stones(side).count() >= opponent_left + 3,
            WinCondition::All => opponent_left == 0,
        }
    }

    /// The winner by captures: the player who moved last, or (in a set-up
    /// position only) the player to move.
    pub fn capture_winner(&self) -> Option<Seat> {
        [self.side.other(), self.side]
            .into_iter()
            .find(|&side| self.meets_win_condition(side))
    }

    /// How often the current position has stood, this time included.
    pub fn occurrences(&self) -> u32 {
        self.keys.occurrences(self.key) as u32
    }
}

impl Hasami {
    pub fn rules(&self) -> &HasamiRules {
        &self.rules
    }
    pub fn compute_key(&self) -> u64 {
        let mut key = if self.side == WHITE { SIDE_KEY } else { 0 };
        for side in [BLACK, WHITE] {
            for sq in self.stones(side) {
                key ^= stone_key(side, sq);
            }
        }
        key
    }
}

impl Game for Hasami {
    type Move = HasamiMove;
    type Rules = HasamiRules;

    #[inline]
    fn side_to_move(&self) -> Seat {
        self.side
    }

    #[inline]
    fn ply(&self) -> u32 {
        self.base_ply + self.keys.len() as u32
    }

    fn generate_moves(&self, moves: &mut MoveList<HasamiMove>) {
        moves.clear();
        if self.capture_winner().is_some() {
            return;
        }
        let (occ, occ_t) = (self.occupied(), self.occupied_t());
        for from in self.stones(self.side) {
            push_slides(from, occ, occ_t, moves);
        }
    }

    fn count_moves(&self) -> u64 {
        if self.capture_winner().is_some() {
            return 0;
        }
        self.mobility(self.side) as u64
    }

    fn make(&mut self, mv: HasamiMove) {
        let (us, them) = (self.side, self.side.other());
        let captured = self.captures_of(mv);
        self.captures.push(captured);
        self.keys.push(self.key);
        self.remove(us, mv.from);
        self.put(us, mv.to);
        for sq in captured {
            self.remove(them, sq);
        }
        if !captured.is_empty() {
            self.keys.mark_irreversible();
        }
        self.side = them;
        self.key ^= SIDE_KEY;
        debug_assert_eq!(self.key, self.compute_key());
    }

    fn unmake(&mut self, mv: HasamiMove) {
        let captured = self.captures.pop().expect("unmake without a move");
        let (us, them) = (self.side.other(), self.side);
        for sq in captured {
            self.put(them, sq);
        }
        self.remove(us, mv.to);
        self.put(us, mv.from);
        self.side = us;
        self.key = self.keys.pop();
        debug_assert_eq!(self.key, self.compute_key());
    }

    #[inline]
    fn key(&self) -> u64 {
        self.key
    }

    fn outcome(&self) -> Option<Outcome> {
        self.decided().or_else(|| {
            (self.count_moves() == 0).then(|| Outcome::win(self.side.other(), "no-legal-move"))
        })
    }

    fn decided(&self) -> Option<Outcome> {
        if let Some(winner) = self.capture_winner() {
            let reason = match self.rules.win {
                WinCondition::Five => "five-captured",
                WinCondition::Lead3 => "lead-of-three",
                WinCondition::All => "all-captured",
            };
            return Some(Outcome::win(winner, reason));
        }
        if self.occurrences() >= 4 {
            return Some(Outcome::draw("repetition"));
        }
        if self.rules.move_limit > 0 && self.ply() >= self.rules.move_limit {
            return Some(Outcome::draw("move-limit"));
        }
        None
    }

    fn repeats_since(&self, since_ply: u32) -> bool {
        let since = since_ply.saturating_sub(self.base_ply) as usize;
        self.keys.repeats_since(self.key, since)
    }
}

impl Notation for Hasami {
    fn format_move(&self, mv: HasamiMove) -> String {
        format!("{}{}", mv.from, mv.to)
    }

    fn parse_move(&self, text: &str) -> Result<HasamiMove, MoveError> {
        super::notation::parse_move(self, text)
    }
    fn from_sfen(sfen: &str, rules: &HasamiRules) -> Result<Self, ParseError> {
        super::notation::parse_sfen(sfen, rules)
    }
    fn sfen(&self) -> String {
        super::notation::sfen(self)
    }
    fn diagram(&self) -> String {
        super::notation::diagram(self)
    }
    fn status_details(&self) -> String {
        format!(
            "captured b {} w {}",
            self.captured_by(BLACK),
            self.captured_by(WHITE)
        )
    }

    /// `9i-9c`; with kanji the stones are 歩 (b) and と (w): `９三歩(99)`.
    fn readable_move(&self, mv: Self::Move, kanji: bool) -> String {
        if !kanji {
            return format!("{}-{}", mv.from, mv.to);
        }
        let piece = if self.side_to_move() == Seat::FIRST {
            "P"
        } else {
            "+P"
        };
        crate::core::readable::ReadableMove {
            piece,
            from: Some(mv.from),
            to: mv.to,
            promotes: false,
            captures: false,
        }
        .kanji()
    }
}

impl Hasami {
    /// The search's null move: the turn passes, nothing else changes; for
    /// repetition it is a ply like any other.
    pub(super) fn make_pass(&mut self) {
        self.captures.push(Bitboard::EMPTY);
        self.keys.push(self.key);
        self.side = self.side.other();
        self.key ^= SIDE_KEY;
    }

    pub(super) fn unmake_pass(&mut self) {
        let captured = self.captures.pop().expect("unmake_pass without a pass");
        debug_assert!(captured.is_empty());
        self.side = self.side.other();
        self.key = self.keys.pop();
    }
}
