//! Annan Shogi: shogi in which a piece moves like the piece of its own side
//! directly behind it. The rules as implemented are in docs/rules/annan.md.

mod attacks;
mod eval;
mod mate;
mod movegen;
mod notation;
mod piece;
mod position;
mod rules;
mod state;

#[cfg(test)]
mod mate_tests;
#[cfg(test)]
mod tests;

pub use piece::Kind;
pub use position::{Annan, START_SFEN};
pub use rules::{AnnanRules, DeadPiece};
pub use state::AnnanMove;
