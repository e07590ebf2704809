//! A position that plays like a weaker player: it overlooks some moves and
//! misjudges positions by a bounded noise. Any searcher searches it as it
//! searches the game itself, so the weakness needs nothing of the searchers.
//!
//! Both are functions of the position's key, the move and a seed, so that a
//! search sees one consistent game (the table stays sound) and a position
//! looks the same however it is reached.

use crate::core::{Game, GameResult, MoveList, Outcome, Seat};
use crate::search::{ChanceGame, MultiPlayerGame, TwoPlayerGame, Value};

/// How a weak player misjudges.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Weakness {
    /// Evaluations are off by up to this much either way (the game's units).
    pub noise: Value,
    /// Of a position's moves, this many in a thousand are overlooked (never all).
    pub blind_permille: u32,
    /// Which moves are overlooked and which way the noise goes.
    pub seed: u64,
}

/// `G` as a player with [`Weakness`] sees it.
#[derive(Clone, Debug)]
pub struct Weak<G: Game> {
    pub pos: G,
    pub weakness: Weakness,
    /// The root's key and the moves the player was asked to choose among
    /// there (`go searchmoves`): it never overlooks all of those.
    root_choices: Option<(u64, Vec<G::Move>)>,
}

/// A well-mixed 64-bit hash of `x` (SplitMix64's finaliser).
#[inline]
fn mix(mut x: u64) -> u64 {
    x ^= x >> 30;
    x = x.wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x ^= x >> 27;
    x = x.wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

impl<G: Game> Weak<G> {
    pub fn new(pos: G, weakness: Weakness) -> Self {
        Weak {
            pos,
            weakness,
            root_choices: None,
        }
    }

    /// The same player asked to choose among `moves` only, here (all when empty).
    pub fn choosing_among(mut self, moves: Vec<G::Move>) -> Self {
        self.root_choices = (!moves.is_empty()).then(|| (self.pos.key(), moves));
        self
    }

    /// Whether the player overlooks `mv` here.
    #[inline]
    fn overlooks(&self, mv: G::Move) -> bool {
        let salt = self.pos.key() ^ self.weakness.seed ^ fxhash::hash64(&mv);
        mix(salt) % 1000 < self.weakness.blind_permille as u64
    }

    /// Drops the overlooked moves; when every move it may play would go,
    /// none does (a player always sees that it has a move).
    fn filter(&self, moves: &mut MoveList<G::Move>) {
        if self.weakness.blind_permille == 0 || moves.is_empty() {
            return;
        }
        let choices = match &self.root_choices {
            Some((key, choices)) if *key == self.pos.key() => Some(choices),
            _ => None,
        };
        let may_play = |mv: &G::Move| choices.is_none_or(|choices| choices.contains(mv));
        if moves
            .iter()
            .filter(|mv| may_play(mv))
            .all(|&mv| self.overlooks(mv))
        {
            return;
        }
        moves.retain(|mv| !self.overlooks(mv));
    }

    /// The misjudgement of this position (for `salt`'s seat), within ±noise.
    #[inline]
    fn noise(&self, salt: u64) -> Value {
        let noise = self.weakness.noise;
        if noise <= 0 {
            return 0;
        }
        let h = mix(self.pos.key() ^ self.weakness.seed.rotate_left(17) ^ salt);
        (h % (2 * noise as u64 + 1)) as Value - noise
    }
}

impl<G: Game> Game for Weak<G> {
    type Move = G::Move;
    type Rules = G::Rules;
    const SEATS: usize = G::SEATS;

    fn side_to_move(&self) -> Seat {
        self.pos.side_to_move()
    }
    fn ply(&self) -> u32 {
        self.pos.ply()
    }
    fn generate_moves(&self, moves: &mut MoveList<Self::Move>) {
        self.pos.generate_moves(moves);
        self.filter(moves);
    }
    fn make(&mut self, mv: Self::Move) {
        self.pos.make(mv);
    }
    fn unmake(&mut self, mv: Self::Move) {
        self.pos.unmake(mv);
    }
    fn key(&self) -> u64 {
        self.pos.key()
    }
    fn outcome(&self) -> Option<Outcome> {
        self.pos.outcome()
    }
    fn at_chance(&self) -> bool {
        self.pos.at_chance()
    }
    fn forfeit(&self, seat: Seat) -> GameResult {
        self.pos.forfeit(seat)
    }
    fn decided(&self) -> Option<Outcome> {
        self.pos.decided()
    }
    fn repeats_since(&self, since_ply: u32) -> bool {
        self.pos.repeats_since(since_ply)
    }
}

impl<G: TwoPlayerGame> TwoPlayerGame for Weak<G> {
    type Eval = G::Eval;
    const LATE_MOVE_REDUCTIONS: bool = G::LATE_MOVE_REDUCTIONS;
    const NULL_MOVE: bool = G::NULL_MOVE;
    const SEARCH: crate::search::alphabeta::AlphaBetaParams = G::SEARCH;
    fn evaluate(&self, eval: &G::Eval) -> Value {
        self.pos.evaluate(eval) + self.noise(0)
    }
    fn is_tactical(&self, mv: Self::Move) -> bool {
        self.pos.is_tactical(mv)
    }
    fn gain(&self, mv: Self::Move, eval: &G::Eval) -> Value {
        self.pos.gain(mv, eval)
    }
    fn in_check(&self) -> bool {
        self.pos.in_check()
    }
    fn generate_tactical(&self, moves: &mut MoveList<Self::Move>) {
        self.pos.generate_tactical(moves);
        if self.weakness.blind_permille > 0 {
            moves.retain(|mv| !self.overlooks(mv));
        }
    }
    fn make_null(&mut self) -> bool {
        self.pos.make_null()
    }
    fn unmake_null(&mut self) {
        self.pos.unmake_null();
    }
}

impl<G: MultiPlayerGame> MultiPlayerGame for Weak<G> {
    type Eval = G::Eval;
    fn evaluate_all(&self, eval: &G::Eval) -> [Value; 4] {
        let mut values = self.pos.evaluate_all(eval);
        for (seat, value) in values.iter_mut().enumerate().take(G::SEATS) {
            *value += self.noise(seat as u64 + 1);
        }
        values
    }
    fn is_alive(&self, seat: Seat) -> bool {
        self.pos.is_alive(seat)
    }
    fn is_tactical(&self, mv: Self::Move) -> bool {
        self.pos.is_tactical(mv)
    }
    fn gain(&self, mv: Self::Move, eval: &G::Eval) -> Value {
        self.pos.gain(mv, eval)
    }
    fn make_pass(&mut self, seat: Seat) -> bool {
        self.pos.make_pass(seat)
    }
    fn unmake_pass(&mut self) {
        self.pos.unmake_pass();
    }
}

impl<G: ChanceGame> ChanceGame for Weak<G> {
    type Eval = G::Eval;
    type Chance = G::Chance;
    const CHANCE_WEIGHT: u32 = G::CHANCE_WEIGHT;
    const VALUE_BOUND: Value = G::VALUE_BOUND;
    fn chance_outcomes(&self) -> &'static [(Self::Chance, u32)] {
        self.pos.chance_outcomes()
    }
    fn apply_chance(&mut self, outcome: Self::Chance) {
        self.pos.apply_chance(outcome);
    }
    fn undo_chance(&mut self, outcome: Self::Chance) {
        self.pos.undo_chance(outcome);
    }
    fn evaluate(&self, eval: &G::Eval) -> Value {
        (self.pos.evaluate(eval) + self.noise(0)).clamp(-G::VALUE_BOUND, G::VALUE_BOUND)
    }
    // The noise may break the game's own bounds: only the widest are sure.
    fn value_bounds(&self) -> (Value, Value) {
        if self.weakness.noise > 0 {
            (-G::VALUE_BOUND, G::VALUE_BOUND)
        } else {
            self.pos.value_bounds()
        }
    }
}
