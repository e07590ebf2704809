//! How a game is written and shown: its positions in SFEN (or the game's
//! extension of it), its moves, entries of a move list, boards and facts for
//! people. The rules are [`Game`]'s; searchers never read text (the session
//! reads `searchmoves` before they search).

use super::error::{MoveError, ParseError};
use super::game::Game;
use super::movelist::MoveList;

pub trait Notation: Game {
    /// A move in the game's fixed notation (docs/notation.md).
    fn format_move(&self, mv: Self::Move) -> String;
    /// Reads a move in the fixed notation and checks that it is legal here;
    /// by default the legal move [`Notation::format_move`] writes so.
    fn parse_move(&self, text: &str) -> Result<Self::Move, MoveError> {
        let mut moves = MoveList::new();
        self.generate_moves(&mut moves);
        if let Some(&mv) = moves.iter().find(|&&mv| self.format_move(mv) == text) {
            return Ok(mv);
        }
        Err(MoveError::new(
            text,
            if moves.is_empty() {
                "the game is over"
            } else {
                "not a legal move here"
            },
        ))
    }

    /// Reads the game's position notation (SFEN or its extension).
    fn from_sfen(sfen: &str, rules: &Self::Rules) -> Result<Self, ParseError>;
    fn sfen(&self) -> String;

    /// Plays one entry of a `position … moves` list or a game record. Most games
    /// write a move there exactly as [`Notation::format_move`] does; a game whose
    /// records carry more (sugoroku's dice) overrides this. On an error the
    /// position is left as it was.
    fn play_text(&mut self, text: &str) -> Result<(), MoveError> {
        let mv = self.parse_move(text)?;
        self.make(mv);
        Ok(())
    }

    /// A human-readable board; the position's notation by default.
    fn diagram(&self) -> String {
        self.sfen()
    }
    /// Game-specific facts for `status` (captured counts, checks, …), as `key
    /// value` words; none by default.
    fn status_details(&self) -> String {
        String::new()
    }
    /// A move as a game record shows it to people, western or with kanji
    /// piece names ([`crate::core::readable`]); the protocol's form by default.
    fn readable_move(&self, mv: Self::Move, kanji: bool) -> String {
        let _ = kanji;
        self.format_move(mv)
    }
}
