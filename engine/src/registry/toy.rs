//! A throw-away fifth game, registered with one line in a registry of its
//! own, passes the suite every registered game passes: nothing but the game's
//! own code and that line is needed (docs/adding-a-game.md).
//!
//! The game is Nim with one pile: each move takes one, two or three stones,
//! and whoever takes the last stone wins. Its notation is `<stones> <b|w>
//! <move number>`, a move the count it takes.

use crate::core::options::NoHouseRules;
use crate::core::Notation;
use crate::core::{Game, MoveError, MoveList, Outcome, ParseError, Seat};
use crate::profile::Profile;
use crate::search::alphabeta::AlphaBeta;
use crate::search::{TwoPlayerGame, Value};
use crate::session::Playable;
use crate::tune::{Params, Tunable};

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
struct Take(u8);

#[derive(Clone, Debug)]
struct Nim {
    stones: u8,
    to_move: Seat,
    ply: u32,
}

impl Nim {
    pub fn compute_key(&self) -> u64 {
        (u64::from(self.stones) << 1 | self.to_move.index() as u64)
            .wrapping_mul(0x9e37_79b9_7f4a_7c15)
    }
}

impl Game for Nim {
    type Move = Take;
    type Rules = NoHouseRules;

    fn side_to_move(&self) -> Seat {
        self.to_move
    }

    fn ply(&self) -> u32 {
        self.ply
    }

    fn generate_moves(&self, moves: &mut MoveList<Take>) {
        moves.clear();
        for take in 1..=self.stones.min(3) {
            moves.push(Take(take));
        }
    }

    fn make(&mut self, mv: Take) {
        self.stones -= mv.0;
        self.to_move = self.to_move.other();
        self.ply += 1;
    }

    fn unmake(&mut self, mv: Take) {
        self.stones += mv.0;
        self.to_move = self.to_move.other();
        self.ply -= 1;
    }

    fn key(&self) -> u64 {
        self.compute_key()
    }

    fn outcome(&self) -> Option<Outcome> {
        (self.stones == 0).then(|| Outcome::win(self.to_move.other(), "last-stone"))
    }
}

impl Notation for Nim {
    fn format_move(&self, mv: Take) -> String {
        mv.0.to_string()
    }

    fn parse_move(&self, text: &str) -> Result<Take, MoveError> {
        let mut moves = MoveList::new();
        self.generate_moves(&mut moves);
        moves
            .iter()
            .copied()
            .find(|mv| self.format_move(*mv) == text)
            .ok_or_else(|| MoveError::new(text, "take 1, 2 or 3 stones, at most the pile"))
    }
    fn from_sfen(sfen: &str, _: &NoHouseRules) -> Result<Self, ParseError> {
        let refuse = |why: &str| ParseError::new(sfen, why);
        let words: Vec<&str> = sfen.split(' ').collect();
        let [stones, side, ply] = words[..] else {
            return Err(refuse("expected <stones> <b|w> <move number>"));
        };
        let stones = stones
            .parse()
            .ok()
            .filter(|&n: &u8| n <= 99)
            .ok_or_else(|| refuse("stones: 0 to 99"))?;
        let to_move = Seat::new(
            ["b", "w"]
                .iter()
                .position(|&s| s == side)
                .ok_or_else(|| refuse("side: b or w"))?,
        );
        let ply = ply
            .parse()
            .ok()
            .filter(|n: &u32| (1..=9999).contains(n))
            .ok_or_else(|| refuse("move number: 1 to 9999"))?;
        Ok(Nim {
            stones,
            to_move,
            ply,
        })
    }
    fn sfen(&self) -> String {
        let side = ["b", "w"][self.to_move.index()];
        format!("{} {side} {}", self.stones, self.ply)
    }
    fn diagram(&self) -> String {
        "o".repeat(self.stones as usize)
    }
    fn status_details(&self) -> String {
        format!("stones {}", self.stones)
    }
}

/// No weights: a pile that is a multiple of four loses for the side to move.
#[derive(Clone, Debug, Default)]
struct NimEval;

impl Params for NimEval {
    const TUNABLES: &'static [Tunable<Self>] = &[];
}

impl TwoPlayerGame for Nim {
    type Eval = NimEval;

    fn evaluate(&self, _: &NimEval) -> Value {
        match self.stones % 4 {
            0 => -100,
            _ => 100,
        }
    }
}

impl Playable for Nim {
    type Searcher = AlphaBeta<NimEval>;

    const PROFILE: Profile = Profile {
        bench: &["10 b 1", "7 w 4"],
        bench_depth: 6,
        perft_bench: &[("10 b 1", 5)],
        ..Profile::new("nim", "10 b 1")
    };
}

/// The toy's registry: the one line.
mod toy_registry {
    crate::register_games! {
        super::Nim => "Nim",
    }
}

#[test]
fn a_game_registered_with_one_line_passes_the_generic_suite() {
    assert_eq!(toy_registry::GAMES.len(), 1);
    toy_registry::for_each_game(&mut crate::core::conformance::Suite);
}

#[test]
fn the_toy_searches_to_the_won_move() {
    // 7 stones: taking 3 leaves a multiple of four.
    let entry = &toy_registry::GAMES[0];
    let mut session = (entry.new_session)();
    session.set_position(Some("7 b 1"), &[]).unwrap();
    let limits = crate::search::Limits {
        depth: Some(4),
        ..Default::default()
    };
    let control = crate::search::SearchControl::new(false);
    let best = session.search(&limits, &control, &mut |_| {});
    assert_eq!(best.best.as_deref(), Some("3"));
}
