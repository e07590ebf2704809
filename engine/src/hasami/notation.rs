//! Hasami SFEN (`P` black, `p` white, `-` for hands), moves such as `9i9c`, and
//! the board diagram.

use super::movegen::HasamiMove;
use super::position::{Hasami, BLACK, WHITE};
use super::rules::HasamiRules;
use crate::core::board9::{Bitboard, Square};
use crate::core::{Game, MoveError, ParseError};

pub fn parse_sfen(text: &str, rules: &HasamiRules) -> Result<Hasami, ParseError> {
    let fields: Vec<&str> = text.split_whitespace().collect();
    let err = |reason: String| ParseError::new(text, reason);
    if !(3..=4).contains(&fields.len()) {
        return Err(err(format!(
            "expected 'board side hand [move-number]', found {} fields",
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
    let mut stones = [Bitboard::EMPTY; 2];
    for (row, cells) in rows.iter().enumerate() {
        let mut col = 0u32;
        for c in cells.chars() {
            let side = match c {
                '1'..='9' => {
                    col += c as u32 - '0' as u32;
                    continue;
                }
                'P' => BLACK,
                'p' => WHITE,
                _ => {
                    return Err(err(format!(
                        "row {} has '{c}': only P, p and digits 1-9",
                        row + 1
                    )))
                }
            };
            if col < 9 {
                stones[side as usize] |= Square::new(row as u8, col as u8).bit();
            }
            col += 1;
        }
        if col != 9 {
            return Err(err(format!(
                "row {} covers {col} squares, expected 9",
                row + 1
            )));
        }
    }
    let side = match fields[1] {
        "b" => BLACK,
        "w" => WHITE,
        other => return Err(err(format!("side to move '{other}', expected b or w"))),
    };
    if fields[2] != "-" {
        return Err(err(format!(
            "hands '{}', expected '-' (hasami has no hands)",
            fields[2]
        )));
    }
    let move_number = match fields.get(3) {
        None => 1,
        Some(n) => match n.parse::<u32>() {
            Ok(n) if (1..=1_000_000).contains(&n) => n,
            _ => return Err(err(format!("move number '{n}', expected 1 to 1000000"))),
        },
    };
    Hasami::from_stones(stones[0], stones[1], side, move_number - 1, rules)
        .map_err(|reason| err(reason.to_string()))
}

pub fn sfen(pos: &Hasami) -> String {
    let mut board = String::new();
    for row in 0..9 {
        if row > 0 {
            board.push('/');
        }
        let mut empty = 0;
        for col in 0..9 {
            let sq = Square::new(row, col);
            let stone = if pos.stones(BLACK).has(sq) {
                'P'
            } else if pos.stones(WHITE).has(sq) {
                'p'
            } else {
                empty += 1;
                continue;
            };
            if empty > 0 {
                board.push_str(&empty.to_string());
                empty = 0;
            }
            board.push(stone);
        }
        if empty > 0 {
            board.push_str(&empty.to_string());
        }
    }
    let side = if pos.side_to_move() == BLACK {
        'b'
    } else {
        'w'
    };
    format!("{board} {side} - {}", pos.ply() + 1)
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
    let mut out = String::from("  9 8 7 6 5 4 3 2 1\n");
    for row in 0..9u8 {
        out.push(' ');
        for col in 0..9 {
            let sq = Square::new(row, col);
            out.push(' ');
            out.push(if pos.stones(BLACK).has(sq) {
                'P'
            } else if pos.stones(WHITE).has(sq) {
                'p'
            } else {
                '.'
            });
        }
        out.push(' ');
        out.push((b'a' + row) as char);
        out.push('\n');
    }
    out.push_str(&format!(
        "sfen {}\nkey {:016x}\nside {}\n{}",
        pos.sfen(),
        pos.key(),
        if pos.side_to_move() == BLACK {
            "b"
        } else {
            "w"
        },
        pos.status_details()
    ));
    out
}
