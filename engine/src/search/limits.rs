//! What `go` asks for.

use crate::core::{MoveError, Notation, PerSeat};
use std::time::Duration;

/// Clock state from `go btime … wtime … binc … winc … byoyomi …`, per seat.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    pub time_left: PerSeat<Option<Duration>>,
    pub increment: PerSeat<Duration>,
    /// Per-move allowance after the main time is gone (also the site's per-turn limit).
    pub byoyomi: Duration,
}

/// What `go` asks for; `M` is how `searchmoves` names moves: text as the
/// protocol gives it, or a game's moves once read ([`Limits::read_in`]), as
/// searchers take them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limits<M = String> {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub movetime: Option<Duration>,
    pub clock: Option<Clock>,
    /// Search until `stop` (also set while pondering).
    pub infinite: bool,
    /// `go searchmoves`: only these root moves are searched; empty means all.
    pub searchmoves: Vec<M>,
}

impl<M> Default for Limits<M> {
    fn default() -> Self {
        Limits {
            depth: None,
            nodes: None,
            movetime: None,
            clock: None,
            infinite: false,
            searchmoves: Vec::new(),
        }
    }
}

impl<M> Limits<M> {
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
    /// Whether a clock bounds the search: a move time or the game's clock.
    pub fn timed(&self) -> bool {
        self.movetime.is_some() || self.clock.is_some()
    }
    pub fn movetime(time: Duration) -> Self {
        Limits {
            movetime: Some(time),
            ..Limits::default()
        }
    }

    /// The same limits with `searchmoves` in place of these.
    pub fn with_moves<N>(&self, searchmoves: Vec<N>) -> Limits<N> {
        Limits {
            depth: self.depth,
            nodes: self.nodes,
            movetime: self.movetime,
            clock: self.clock,
            infinite: self.infinite,
            searchmoves,
        }
    }
}

impl Limits {
    /// The limits with `searchmoves` read as moves of `pos`, or the first
    /// that is not legal there.
    pub fn read_in<G: Notation>(&self, pos: &G) -> Result<Limits<G::Move>, MoveError> {
        let moves = self
            .searchmoves
            .iter()
            .map(|text| pos.parse_move(text))
            .collect::<Result<_, _>>()?;
        Ok(self.with_moves(moves))
    }
}

/// The root moves a search may play: all of them, or those `go searchmoves`
/// named. Searchers skip the others when they list the root, keeping each
/// move's index in the full list (the transposition table stores that index).
#[derive(Clone, Debug, Default)]
pub struct RootChoice<M>(Vec<M>);

impl<M: Copy + Eq> RootChoice<M> {
    /// The choice `limits` makes.
    pub fn new(limits: &Limits<M>) -> Self {
        RootChoice(limits.searchmoves.clone())
    }

    #[inline]
    pub fn allows(&self, mv: M) -> bool {
        self.0.is_empty() || self.0.contains(&mv)
    }
}
