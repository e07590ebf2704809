//! The trait every game implements; searchers, perft and the protocol session are
//! generic over it.

use super::movelist::MoveList;
use super::options::HouseRules;
use super::seat::{PerSeat, Seat};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    /// `winner` takes `points` (1 for the shogi games; 1–3 in sugoroku).
    Win {
        winner: Seat,
        points: u8,
    },
    Draw,
    /// Places per seat, 1 = first, competition ranking (yonin).
    Places(PerSeat<u8>),
}

/// How a game ended and why, in words the protocol can print (`five-captures`,
/// `repetition`, `no-legal-move`, …).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub result: GameResult,
    pub reason: &'static str,
}

impl Outcome {
    pub const fn win(winner: Seat, reason: &'static str) -> Self {
        Outcome {
            result: GameResult::Win { winner, points: 1 },
            reason,
        }
    }

    pub const fn draw(reason: &'static str) -> Self {
        Outcome {
            result: GameResult::Draw,
            reason,
        }
    }

    /// +1 win, 0 draw, −1 loss for `seat` in a two-player game (scaled by points).
    pub fn value_for(&self, seat: Seat) -> i32 {
        match self.result {
            GameResult::Win { winner, points } if winner == seat => points as i32,
            GameResult::Win { points, .. } => -(points as i32),
            GameResult::Draw => 0,
            GameResult::Places(places) => {
                let mine = places[seat];
                let better = places.iter().filter(|&&p| p < mine).count() as i32;
                let worse = places.iter().filter(|&&p| p > mine).count() as i32;
                (worse - better).signum()
            }
        }
    }
}

/// A game position with its history: the rules, nothing of text protocols or
/// time. How positions and moves are written and shown to people is
/// [`super::Notation`]'s.
///
/// Two doors for a move: [`super::Notation::parse_move`] checks text against
/// the legal moves and never changes the position; [`Game::make`] /
/// [`Game::unmake`] are the fast, unchecked pair used by search, which keeps
/// the undo information inside.
pub trait Game: Clone + Send + Sync + 'static {
    type Move: Copy + Default + Eq + std::hash::Hash + std::fmt::Debug + Send + Sync + 'static;
    type Rules: HouseRules;

    /// How many seats the rules seat: two unless the game says (the game's
    /// name and other facts that are not rules are its profile,
    /// [`crate::profile::Profile`]).
    const SEATS: usize = 2;

    fn side_to_move(&self) -> Seat;
    /// Plies played since the position was set up, counting its move number.
    fn ply(&self) -> u32;

    /// The legal moves; none when the game is decided (a win or loss; repetition and
    /// the move limit do not stop move generation, as perft defines).
    fn generate_moves(&self, moves: &mut MoveList<Self::Move>);
    /// The number of legal moves, for bulk-counting perft; games override it with
    /// something faster than generating.
    fn count_moves(&self) -> u64 {
        let mut moves = MoveList::new();
        self.generate_moves(&mut moves);
        moves.len() as u64
    }

    /// Plays a legal move (unchecked).
    fn make(&mut self, mv: Self::Move);
    /// Takes back `mv`, which must be the last move made.
    fn unmake(&mut self, mv: Self::Move);

    /// The incremental Zobrist key of the position (board, hands, side to
    /// move): what the same position read from its notation has
    /// ([`super::conformance`] checks it at every node it visits).
    fn key(&self) -> u64;

    /// The end of the game by every rule, repetition and move limit included.
    fn outcome(&self) -> Option<Outcome>;
    /// Whether the position waits for a chance event (the dice of the side to
    /// move are not rolled yet) rather than for a move: never in games without
    /// chance.
    fn at_chance(&self) -> bool {
        false
    }
    /// The result when `seat` forfeits here (resigns, loses on time, plays an
    /// illegal move): in two-player games the other seat wins one point;
    /// games of more seats rank the rest by their own rules.
    fn forfeit(&self, seat: Seat) -> GameResult {
        debug_assert_eq!(Self::SEATS, 2, "games of more seats override forfeit");
        GameResult::Win {
            winner: seat.other(),
            points: 1,
        }
    }
    /// The end of the game as far as it can be told without generating moves:
    /// what searchers ask at every node. A position whose side to move has no
    /// legal move may be reported as going on; the searcher learns that from move
    /// generation. By default the outcome itself, for games where it is cheap.
    fn decided(&self) -> Option<Outcome> {
        self.outcome()
    }
    /// Whether the current position already stood at some ply ≥ `since_ply`; search
    /// treats a repetition inside its own tree as a draw. Never, by default:
    /// games whose positions can repeat keep their keys
    /// ([`super::KeyHistory`]) and say.
    fn repeats_since(&self, since_ply: u32) -> bool {
        let _ = since_ply;
        false
    }
}
