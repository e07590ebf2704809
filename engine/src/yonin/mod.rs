//! Yonin Shogi: four players, check priority, elimination and inheritance.
//! The rules as implemented are in docs/rules/yonin.md.

mod eval;
mod movegen;
mod notation;
mod piece;
mod position;
mod rules;
mod state;

#[cfg(test)]
mod tests;

pub use eval::YoninEval;
pub use notation::START_SFEN;
pub use piece::Kind;
pub use position::{Eliminations, Recency, Yonin};
pub use rules::YoninRules;
pub use state::YoninMove;
mod play;
