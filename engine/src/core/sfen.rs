//! SFEN-like position text shared by the 9×9 games: `board side hands [number]`.
//! The board is nine rows from rank a, each a run of piece tokens (an optional
//! `+` and a letter) and digits for empty squares. What the tokens and the hands
//! mean is each game's business.

use crate::core::Notation;

use super::board9::Square;
use super::error::{truncate, ParseError};
use super::seat::Seat;

/// A position's text split into its fields and the board into tokens.
pub struct Fields<'a> {
    /// Each occupied square with its token (`P`, `+r`, …), rank a first.
    pub pieces: Vec<(Square, &'a str)>,
    pub side: Seat,
    pub hands: &'a str,
    /// Plies before this position: the move number − 1 (1 when it is missing).
    pub ply: u32,
}

/// The largest move number (Sugoroku: turn number) a position may carry, read
/// or reached by the moves played from it.
pub const MAX_MOVE_NUMBER: u32 = 1_000_000;

/// Reads a move number field (`what` names it): 1 to [`MAX_MOVE_NUMBER`].
pub fn read_move_number(what: &str, field: &str) -> Result<u32, String> {
    match field.parse::<u32>() {
        Ok(n) if (1..=MAX_MOVE_NUMBER).contains(&n) => Ok(n),
        _ => Err(format!(
            "{what} '{}', expected 1 to {MAX_MOVE_NUMBER}",
            truncate(field)
        )),
    }
}

/// Splits `text`, checking the shape every game shares: three or four fields,
/// nine rows of nine squares, side `b` or `w`, a move number from 1 to 1 000 000.
pub fn split(text: &str) -> Result<Fields<'_>, ParseError> {
    let err = |reason: String| ParseError::new(text, reason);
    let fields: Vec<&str> = text.split_whitespace().collect();
    if !(3..=4).contains(&fields.len()) {
        return Err(err(format!(
            "expected 'board side hands [move-number]', found {} fields",
            fields.len()
        )));
    }
    let rows: Vec<&str> = fields[0].split('/').collect();
    if rows.len() != 9 {
        return Err(err(format!(
            "the board has {} rows, expected 9",
            rows.len()
        )));
    }
    let mut pieces = Vec::new();
    for (row, cells) in rows.iter().enumerate() {
        let mut col = 0u32;
        let mut start = None;
        for (i, c) in cells.char_indices() {
            match c {
                '+' if start.is_none() => start = Some(i),
                '+' => return Err(err(format!("row {}: '++'", row + 1))),
                '1'..='9' if start.is_some() => {
                    return Err(err(format!("row {}: '+' before a digit", row + 1)))
                }
                '1'..='9' => col += c as u32 - '0' as u32,
                _ => {
                    let token = &cells[start.take().unwrap_or(i)..i + c.len_utf8()];
                    if col < 9 {
                        pieces.push((Square::new(row as u8, col as u8), token));
                    }
                    col += 1;
                }
            }
        }
        if start.is_some() {
            return Err(err(format!("row {}: '+' at the end", row + 1)));
        }
        if col != 9 {
            return Err(err(format!(
                "row {} covers {col} squares, expected 9",
                row + 1
            )));
        }
    }
    let side = match fields[1] {
        "b" => Seat::FIRST,
        "w" => Seat::SECOND,
        other => {
            return Err(err(format!(
                "side to move '{}', expected b or w",
                truncate(other)
            )))
        }
    };
    let move_number = match fields.get(3) {
        None => 1,
        Some(n) => read_move_number("move number", n).map_err(err)?,
    };
    Ok(Fields {
        pieces,
        side,
        hands: fields[2],
        ply: move_number - 1,
    })
}

/// `b` or `w`.
pub fn side_letter(side: Seat) -> char {
    if side == Seat::FIRST {
        'b'
    } else {
        'w'
    }
}

/// The whole text from each square's token (`None` for empty), the side, the
/// hands and the ply count.
pub fn write(
    token: impl Fn(Square) -> Option<String>,
    side: Seat,
    hands: &str,
    ply: u32,
) -> String {
    let mut board = String::new();
    for row in 0..9 {
        if row > 0 {
            board.push('/');
        }
        let mut empty = 0;
        for col in 0..9 {
            match token(Square::new(row, col)) {
                None => empty += 1,
                Some(text) => {
                    if empty > 0 {
                        board.push_str(&empty.to_string());
                        empty = 0;
                    }
                    board.push_str(&text);
                }
            }
        }
        if empty > 0 {
            board.push_str(&empty.to_string());
        }
    }
    format!("{board} {} {hands} {}", side_letter(side), ply + 1)
}

/// A board drawn from each square's token (`.` for empty) in cells of `width`,
/// followed by the SFEN, key, side to move and the game's status details.
pub fn diagram<G: Notation>(
    pos: &G,
    token: impl Fn(Square) -> Option<String>,
    width: usize,
) -> String {
    let mut out = String::from(" ");
    for file in (1..=9).rev() {
        out.push_str(&format!("{file:>width$}"));
    }
    out.push('\n');
    for row in 0..9u8 {
        out.push(' ');
        for col in 0..9 {
            let text = token(Square::new(row, col)).unwrap_or_else(|| ".".to_string());
            out.push_str(&format!("{text:>width$}"));
        }
        out.push_str(&format!(" {}\n", (b'a' + row) as char));
    }
    out.push_str(&format!(
        "sfen {}\nkey {:016x}\nside {}\n{}",
        pos.sfen(),
        pos.key(),
        side_letter(pos.side_to_move()),
        pos.status_details()
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_and_shape() {
        let fields = split("4k4/9/9/9/9/9/9/1+B7/4K4 w 2P 9").unwrap();
        let tokens: Vec<(String, &str)> = fields
            .pieces
            .iter()
            .map(|(sq, t)| (sq.to_string(), *t))
            .collect();
        assert_eq!(
            tokens,
            [
                ("5a".to_string(), "k"),
                ("8h".to_string(), "+B"),
                ("5i".to_string(), "K")
            ]
        );
        assert_eq!(
            (fields.side, fields.hands, fields.ply),
            (Seat::SECOND, "2P", 8)
        );
        for (text, why) in [
            ("9/9/9/9/9/9/9/9 b - 1", "8 rows"),
            ("9/9/9/9/9/9/9/9/8 b - 1", "covers 8"),
            ("9/9/9/9/9/9/9/9/+9 b - 1", "before a digit"),
            ("9/9/9/9/9/9/9/9/8+ b - 1", "at the end"),
            ("9/9/9/9/9/9/9/9/9 x - 1", "side to move"),
            ("9/9/9/9/9/9/9/9/9 b - 0", "move number"),
            ("9/9/9/9/9/9/9/9/9 b", "fields"),
        ] {
            let err = split(text).err().expect(text);
            assert!(err.reason.contains(why), "{text}: {}", err.reason);
        }
    }

    #[test]
    fn writing_runs_empty_squares_together() {
        let text = write(
            |sq| (sq.row() == 8 && sq.col() < 2).then(|| "P".to_string()),
            Seat::FIRST,
            "-",
            0,
        );
        assert_eq!(text, "9/9/9/9/9/9/9/9/PP7 b - 1");
    }
}
