//! Ban-Sugoroku: old Japanese backgammon with two dice, a double played as two
//! moves, and a win as soon as all fifteen stones are home (or borne off).
//! The rules as implemented are in docs/rules/sugoroku.md.

mod dice;
pub mod duel;
mod eval;
mod features;
mod movegen;
pub mod net;
mod notation;
mod perft;
mod position;
pub mod race;
mod rules;

#[cfg(test)]
mod net_tests;
#[cfg(test)]
mod race_tests;
#[cfg(test)]
mod tests;

pub use dice::{Dice, Roll, ROLLS};
pub use eval::{Evaluation, Handmade, SugorokuEval};
pub use movegen::{Step, SugorokuMove};
pub use perft::{divide, perft};
pub use position::{Sugoroku, BAR, HOME, OFF};
pub use race::RaceTables;
pub use rules::{Closeout, Finish, SugorokuRules};
mod play;
