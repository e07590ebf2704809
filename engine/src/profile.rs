//! A game's profile: the facts about a game that are not its rules, as one
//! value ([`crate::session::Playable::PROFILE`]): its name, its start
//! position, how its seats are written, whether dice and multi-point wins are
//! part of it, its bench and perft bench data, its strength levels and how a
//! review judges it.

use crate::review::ReviewScale;
use crate::search::Value;
use crate::strength;

#[derive(Clone, Copy, Debug)]
pub struct Profile {
    /// The name used everywhere a game is named (`hasami`, …): protocol,
    /// command line, files.
    pub name: &'static str,
    /// The start position in the game's notation (`position startpos`),
    /// read under the rules in play ([`crate::session::Playable::start`]).
    pub start: &'static str,
    /// How each seat is written in `status` and `d`, one per seat of the
    /// rules ([`crate::core::Game::SEATS`]).
    pub seat_names: &'static [&'static str],
    /// Whether chance events (dice) decide part of the play.
    pub has_chance: bool,
    /// The most points one game can be worth (Sugoroku's triple win: 3).
    pub max_points: u8,
    /// Positions (in the game's notation) for `bench`, searched to `bench_depth`.
    pub bench: &'static [&'static str],
    pub bench_depth: u32,
    /// Positions and depths for the perft bench (`cargo bench --bench perft`).
    pub perft_bench: &'static [(&'static str, u32)],
    /// The weaker players below full strength (docs/cpu-seats.md).
    pub levels: Levels,
    /// How a review values moves and judges losses ([`crate::review`]).
    pub review: ReviewScale,
    /// Whether the game has a mate solver ([`crate::session::Playable::mate`]).
    pub mate_solver: bool,
}

/// A game's strength levels: how many, how weak the weakest is, and what a
/// ladder of matches measured them at.
#[derive(Clone, Copy, Debug)]
pub struct Levels {
    /// How many levels below full strength the game has (`Level` 0 … this,
    /// which is full strength; `Skill` 0 … 20 names the same shares of the
    /// way). More levels take smaller steps, for a game whose strength grows
    /// fast with the nodes searched.
    pub count: u32,
    /// The Elo of the levels 0, 1, … as a ladder of matches measured them, a
    /// uniformly random mover being 0: the levels the Elo option can name.
    /// `count + 1` when full strength was measured too; empty where no ladder
    /// has run (then the Elo option is not offered).
    pub elo: &'static [i32],
    /// Where each level below full strength sits on the way from level 0 (0)
    /// to the evenly spaced strongest (1), fitted to a ladder so that the
    /// steps come out equal; empty spaces them evenly ([`strength::level`]).
    pub spacing: &'static [f64],
    /// How far level 0 misjudges a position at most, in the evaluation's units.
    pub noise: Value,
    /// How many moves in a thousand level 0 overlooks.
    pub blind_permille: u32,
}

impl Levels {
    /// Evenly spaced levels, not measured, with the default weakness.
    pub const UNMEASURED: Levels = Levels {
        count: strength::MAX_SKILL,
        elo: &[],
        spacing: &[],
        noise: 300,
        blind_permille: 400,
    };
}

impl Profile {
    /// A two-player game without dice, named `name`, starting at `start`,
    /// with no bench data yet: the start of a game's profile (`Profile { …,
    /// ..Profile::new("name", "<start position>") }`).
    pub const fn new(name: &'static str, start: &'static str) -> Profile {
        Profile {
            name,
            start,
            seat_names: &["b", "w"],
            has_chance: false,
            max_points: 1,
            bench: &[],
            bench_depth: 1,
            perft_bench: &[],
            levels: Levels::UNMEASURED,
            review: ReviewScale::SHOGI,
            mate_solver: false,
        }
    }
}
