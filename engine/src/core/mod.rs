//! Vocabulary shared by every game: the game trait, move lists, outcomes, options,
//! errors, Zobrist keys and the 9×9 board geometry of the shogi games.

pub mod board9;
#[cfg(test)]
pub mod conformance;
pub mod error;
pub mod game;
pub mod movelist;
pub mod options;
pub mod sfen;
pub mod shogi_move;
pub mod zobrist;

pub use error::{MoveError, OptionError, ParseError};
pub use game::{Game, GameResult, Outcome, Seat};
pub use movelist::MoveList;
pub use options::{HouseRules, OptionKind, OptionSpec};
