//! Hasami Shogi: nine pawns a side, rook-like slides, custodial and corner captures.
//! The rules as implemented are in docs/rules/hasami.md.

mod eval;
mod movegen;
mod notation;
mod position;
mod rules;

#[cfg(test)]
mod tests;

pub use movegen::HasamiMove;
pub use position::Hasami;
pub use rules::{HasamiRules, WinCondition};
