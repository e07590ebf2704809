//! Standard SFEN and USI moves (`7g7f`, `8h2b+`, `P*5e`), and the board diagram.

use super::piece::{Kind, Piece, HAND_KINDS};
use super::position::Annan;
use super::rules::AnnanRules;
use super::state::{AnnanMove, State, BLACK, WHITE};
use crate::core::board9::Square;
use crate::core::{Game, MoveError, ParseError, Seat};

/// Most pieces of each kind (pawn … king) in a set, board and hands together.
const SET: [u8; 8] = [18, 4, 4, 4, 4, 2, 2, 2];

pub fn parse_sfen(text: &str, rules: &AnnanRules) -> Result<Annan, ParseError> {
    let err = |reason: String| ParseError::new(text, reason);
    let fields: Vec<&str> = text.split_whitespace().collect();
    if !(3..=4).contains(&fields.len()) {
        return Err(err(format!(
            "expected 'board side hands [move-number]', found {} fields",
            fields.len()
        )));
    }
    let mut state = State::EMPTY;
    let mut totals = [0u8; 8];
    let rows: Vec<&str> = fields[0].split('/').collect();
    if rows.len() != 9 {
        return Err(err(format!(
            "the board has {} rows, expected 9",
            rows.len()
        )));
    }
    for (row, cells) in rows.iter().enumerate() {
        let mut col = 0u32;
        let mut promoted = false;
        for c in cells.chars() {
            if let Some(n) = c.to_digit(10).filter(|n| (1..=9).contains(n)) {
                if promoted {
                    return Err(err(format!("row {}: '+' before a digit", row + 1)));
                }
                col += n;
                continue;
            }
            if c == '+' {
                if promoted {
                    return Err(err(format!("row {}: '++'", row + 1)));
                }
                promoted = true;
                continue;
            }
            let kind = Kind::from_letter(c)
                .ok_or_else(|| err(format!("row {}: unknown piece '{c}'", row + 1)))?;
            let kind = if promoted {
                if !kind.can_promote() {
                    return Err(err(format!("row {}: '+{c}' cannot be promoted", row + 1)));
                }
                kind.promoted()
            } else {
                kind
            };
            promoted = false;
            let color = if c.is_ascii_uppercase() { BLACK } else { WHITE };
            if col < 9 {
                let sq = Square::new(row as u8, col as u8);
                state.put(sq, Piece::new(color, kind));
                if kind == Kind::King {
                    if state.kings[color as usize].is_some() {
                        return Err(err(format!(
                            "two {} kings",
                            if color == BLACK { "black" } else { "white" }
                        )));
                    }
                    state.kings[color as usize] = Some(sq);
                }
            }
            totals[kind.unpromoted().index()] += 1;
            col += 1;
        }
        if promoted {
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
        "b" => BLACK,
        "w" => WHITE,
        other => return Err(err(format!("side to move '{other}', expected b or w"))),
    };
    if fields[2] != "-" {
        let mut count = 0u32;
        for c in fields[2].chars() {
            if let Some(d) = c.to_digit(10) {
                count = count * 10 + d;
                if count > 18 {
                    return Err(err(format!("hand count above 18 in '{}'", fields[2])));
                }
                continue;
            }
            let kind = Kind::from_letter(c)
                .filter(|k| *k != Kind::King)
                .ok_or_else(|| err(format!("hands: unknown piece '{c}'")))?;
            let n = if count == 0 { 1 } else { count as u8 };
            let color = if c.is_ascii_uppercase() { BLACK } else { WHITE };
            state.hands[color as usize][kind.index()] += n;
            totals[kind.index()] += n;
            count = 0;
        }
        if count != 0 {
            return Err(err(format!("hands '{}' end with a number", fields[2])));
        }
    }
    for (i, &total) in totals.iter().enumerate() {
        if total > SET[i] {
            return Err(err(format!(
                "{} pieces of kind {}, at most {}",
                total,
                Kind::from_index(i).letter(),
                SET[i]
            )));
        }
    }
    let move_number = match fields.get(3) {
        None => 1,
        Some(n) => match n.parse::<u32>() {
            Ok(n) if (1..=1_000_000).contains(&n) => n,
            _ => return Err(err(format!("move number '{n}', expected 1 to 1000000"))),
        },
    };
    if state.in_check(side ^ 1) {
        return Err(err("the side not to move is in check".to_string()));
    }
    Ok(Annan::from_parts(state, side, move_number - 1, rules))
}

fn piece_text(piece: Piece) -> String {
    let kind = piece.kind();
    let letter = kind.letter();
    let letter = if piece.color() == BLACK {
        letter
    } else {
        letter.to_ascii_lowercase()
    };
    if kind.is_promoted() {
        format!("+{letter}")
    } else {
        letter.to_string()
    }
}

pub fn sfen(state: &State, side: Seat, ply: u32) -> String {
    let mut board = String::new();
    for row in 0..9 {
        if row > 0 {
            board.push('/');
        }
        let mut empty = 0;
        for col in 0..9 {
            let piece = state.at(Square::new(row, col));
            if piece.is_none() {
                empty += 1;
                continue;
            }
            if empty > 0 {
                board.push_str(&empty.to_string());
                empty = 0;
            }
            board.push_str(&piece_text(piece));
        }
        if empty > 0 {
            board.push_str(&empty.to_string());
        }
    }
    // SFEN hand order: rook, bishop, gold, silver, knight, lance, pawn; black first.
    let mut hands = String::new();
    for color in [BLACK, WHITE] {
        for &kind in HAND_KINDS.iter().rev() {
            let n = state.hands[color as usize][kind.index()];
            if n > 1 {
                hands.push_str(&n.to_string());
            }
            if n > 0 {
                let letter = kind.letter();
                hands.push(if color == BLACK {
                    letter
                } else {
                    letter.to_ascii_lowercase()
                });
            }
        }
    }
    if hands.is_empty() {
        hands.push('-');
    }
    format!(
        "{board} {} {hands} {}",
        if side == BLACK { 'b' } else { 'w' },
        ply + 1
    )
}

pub fn format_move(mv: AnnanMove) -> String {
    match mv.from() {
        Some(from) => format!("{from}{}{}", mv.to(), if mv.promotes() { "+" } else { "" }),
        None => format!("{}*{}", mv.dropped().map_or('?', Kind::letter), mv.to()),
    }
}

/// Reads a move's text; legality is the position's business.
pub fn parse_move(text: &str) -> Result<AnnanMove, MoveError> {
    let garbled = || MoveError::new(text, "expected a move such as 7g7f, 8h2b+ or P*5e");
    if !text.is_ascii() {
        return Err(garbled());
    }
    let bytes = text.as_bytes();
    if bytes.len() == 4 && bytes[1] == b'*' {
        let kind = Kind::from_letter(bytes[0] as char)
            .filter(|k| *k != Kind::King && bytes[0].is_ascii_uppercase())
            .ok_or_else(garbled)?;
        let to = Square::parse(&text[2..]).ok_or_else(garbled)?;
        return Ok(AnnanMove::drop(kind, to));
    }
    let promote = match bytes.len() {
        4 => false,
        5 if bytes[4] == b'+' => true,
        _ => return Err(garbled()),
    };
    let from = Square::parse(&text[..2]).ok_or_else(garbled)?;
    let to = Square::parse(&text[2..4]).ok_or_else(garbled)?;
    Ok(AnnanMove::board(from, to, promote))
}

/// A short reason why a well-formed move is not legal here.
pub fn why_illegal(pos: &Annan, mv: AnnanMove) -> String {
    let state = pos.state();
    let us = pos.side_to_move();
    match (mv.from(), mv.dropped()) {
        (Some(from), _) if !state.at(from).is(us) => {
            format!("no piece of the side to move on {from}")
        }
        (None, Some(kind)) if state.hands[us as usize][kind.index()] == 0 => {
            format!("no {} in hand", kind.letter())
        }
        _ if pos.in_check() => "not legal here (the side to move is in check)".to_string(),
        _ => "not a legal move here".to_string(),
    }
}

pub fn diagram(pos: &Annan) -> String {
    let state = pos.state();
    let mut out = String::from("   9  8  7  6  5  4  3  2  1\n");
    for row in 0..9u8 {
        out.push(' ');
        for col in 0..9 {
            let piece = state.at(Square::new(row, col));
            let text = if piece.is_none() {
                " .".to_string()
            } else {
                format!("{:>2}", piece_text(piece))
            };
            out.push(' ');
            out.push_str(&text);
        }
        out.push_str(&format!(" {}\n", (b'a' + row) as char));
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
