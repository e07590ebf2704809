//! What `go` asks for.

use crate::core::{Game, MoveError};
use std::time::Duration;

/// Clock state from `go btime … wtime … binc … winc … byoyomi …`, per seat.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    pub time_left: [Option<Duration>; 4],
    pub increment: [Duration; 4],
    /// Per-move allowance after the main time is gone (also the site's per-turn limit).
    pub byoyomi: Duration,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub movetime: Option<Duration>,
    pub clock: Option<Clock>,
    /// Search until `stop` (also set while pondering).
    pub infinite: bool,
    /// `go searchmoves`: only these root moves (in the game's notation) are
    /// searched; empty means all.
    pub searchmoves: Vec<String>,
}

impl Limits {
    pub fn depth(depth: u32) -> Self {
        Limits {
            depth: Some(depth),
            ..Limits::default()
        }
    }
    pub fn nodes(nodes: u64) -> Self {
        Limits {
            nodes: Some(nodes),
            ..Limits::default()
        }
    }
    pub fn movetime(time: Duration) -> Self {
        Limits {
            movetime: Some(time),
            ..Limits::default()
        }
    }

    /// The `searchmoves` as moves of `pos`, or the first that is not legal there.
    pub fn searchmoves_in<G: Game>(&self, pos: &G) -> Result<Vec<G::Move>, MoveError> {
        self.searchmoves
            .iter()
            .map(|text| pos.parse_move(text))
            .collect()
    }
}

/// The root moves a search may play: all of them, or those `go searchmoves`
/// named. Searchers skip the others when they list the root, keeping each
/// move's index in the full list (the transposition table stores that index).
#[derive(Clone, Debug, Default)]
pub struct RootChoice<M>(Vec<M>);

impl<M: Copy + Eq> RootChoice<M> {
    /// The choice `limits` makes at `pos`; names that are not legal there
    /// (which the session refuses before searching) are left out.
    pub fn new<G: Game<Move = M>>(limits: &Limits, pos: &G) -> Self {
        RootChoice(
            limits
                .searchmoves
                .iter()
                .filter_map(|text| pos.parse_move(text).ok())
                .collect(),
        )
    }

    #[inline]
    pub fn allows(&self, mv: M) -> bool {
        self.0.is_empty() || self.0.contains(&mv)
    }
}
