//! Yomi's engine: the rules of each game, their evaluations and the generic searchers.
//!
//! Crate graph: `engine` knows nothing of text protocols, stdin/stdout or command-line
//! parsing; `protocol` knows the games only through [`session::GameSession`] and the
//! notation strings it hands back; `tools` and the `yomi` binary sit on both.

pub mod annan;
pub mod bench;
pub mod clock;
pub mod core;
pub mod hasami;
pub mod perft;
pub mod profile;
pub mod registry;
pub mod review;
pub mod search;
pub mod session;
pub mod strength;
pub mod sugoroku;
pub mod tune;
pub mod yonin;

pub use crate::core::{Game, MoveList, Outcome, Seat};
