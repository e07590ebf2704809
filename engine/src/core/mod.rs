//! Vocabulary shared by every game: the game trait and its notation, seats, move lists, outcomes, options,
//! errors, Zobrist keys, the key history repetition is counted on and the 9×9
//! board geometry of the shogi games.

pub mod board9;
#[cfg(test)]
pub mod conformance;
pub mod error;
pub mod game;
pub mod history;
pub mod movelist;
pub mod notation;
pub mod options;
pub mod readable;
pub mod seat;
pub mod sfen;
pub mod shogi_move;
pub mod zobrist;

pub use error::{MoveError, OptionError, ParseError};
pub use game::{Game, GameResult, Outcome};
pub use history::KeyHistory;
pub use movelist::MoveList;
pub use notation::Notation;
pub use options::{HouseRules, OptionKind, OptionSpec};
pub use seat::{PerSeat, Seat};
