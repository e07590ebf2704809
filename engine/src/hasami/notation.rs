//! Hasami SFEN (`P` black, `p` white, `-` for hands), moves such as `9i9c`, and
//! the board diagram.

use super::movegen::HasamiMove;
use super::position::{Hasami, BLACK, WHITE};
use super::rules::HasamiRules;
use crate::core::board9::{Bitboard, Square};
use crate::core::error::truncate;
use crate::core::sfen;
use crate::core::{Game, MoveError, ParseError};

pub fn parse_sfen(text: &str, rules: &HasamiRules) -> Result<Hasami, ParseError> {
    let fields = sfen::split(text)?;
    let err = |reason: String| ParseError::new(text, reason);
    let mut stones = [Bitboard::EMPTY; 2];
    for &(sq, token) in &fields.pieces {
        let side = match token {
            "P" => BLACK,
            "p" => WHITE,
            _ => {
                return Err(err(format!(
                    "square {sq} has '{token}': only P, p and digits 1-9"
                )))
            }
        };
        stones[side.index()] |= sq.bit();
    }
    if fields.hands != "-" {
        return Err(err(format!(
            "hands '{}', expected '-' (hasami has no hands)",
            truncate(fields.hands)
        )));
    }
    Hasami::from_stones(stones[0], stones[1], fields.side, fields.ply, rules)
        .map_err(|reason| err(reason.to_string()))
}

fn token(pos: &Hasami, sq: Square) -> Option<String> {
    if pos.stones(BLACK).has(sq) {
        Some("P".to_string())
    } else if pos.stones(WHITE).has(sq) {
        Some("p".to_string())
    } else {
        None
    }
}

pub fn sfen(pos: &Hasami) -> String {
    sfen::write(|sq| token(pos, sq), pos.side_to_move(), "-", pos.ply())
}

/// Reads `9i9c` and checks it against the position, saying what is wrong.
pub fn parse_move(pos: &Hasami, text: &str) -> Result<HasamiMove, MoveError> {
    let squares = (text.len() == 4 && text.is_ascii())
        .then(|| (Square::parse(&text[..2]), Square::parse(&text[2..])));
    let Some((Some(from), Some(to))) = squares else {
        return Err(MoveError::new(text, "expected two squares such as 9i9c"));
    };
    if pos.capture_winner().is_some() {
        return Err(MoveError::new(text, "the game is over"));
    }
    if !pos.stones(pos.side_to_move()).has(from) {
        return Err(MoveError::new(
            text,
            format!("no stone of the side to move on {from}"),
        ));
    }
    if !pos.destinations(from).has(to) {
        return Err(MoveError::new(
            text,
            format!("a stone on {from} cannot slide to {to}"),
        ));
    }
    Ok(HasamiMove { from, to })
}

pub fn diagram(pos: &Hasami) -> String {
    sfen::diagram(pos, |sq| token(pos, sq), 2)
}
