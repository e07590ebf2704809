//! Standard SFEN and USI moves (`7g7f`, `8h2b+`, `P*5e`), and the board diagram.

use super::piece::{Kind, Piece, HAND_KINDS};
use super::position::Annan;
use super::rules::AnnanRules;
use super::state::{AnnanMove, State, BLACK, WHITE};
use crate::core::board9::Square;
use crate::core::error::truncate;
use crate::core::sfen;
use crate::core::{Game, MoveError, ParseError, Seat};

/// Most pieces of each kind (pawn … king) in a set, board and hands together.
const SET: [u8; 8] = [18, 4, 4, 4, 4, 2, 2, 2];

pub fn parse_sfen(text: &str, rules: &AnnanRules) -> Result<Annan, ParseError> {
    let fields = sfen::split(text)?;
    let err = |reason: String| ParseError::new(text, reason);
    let mut state = State::EMPTY;
    let mut totals = [0u8; 8];
    for &(sq, token) in &fields.pieces {
        let (promoted, letter) = match token.strip_prefix('+') {
            Some(rest) => (true, rest),
            None => (false, token),
        };
        let c = letter.chars().next().unwrap_or('?');
        let kind =
            Kind::from_letter(c).ok_or_else(|| err(format!("{sq}: unknown piece '{token}'")))?;
        let kind = match promoted {
            true if !kind.can_promote() => {
                return Err(err(format!("{sq}: '{token}' cannot be promoted")))
            }
            true => kind.promoted(),
            false => kind,
        };
        let color = if c.is_ascii_uppercase() { BLACK } else { WHITE };
        state.put(sq, Piece::new(color, kind));
        if kind == Kind::King {
            if state.kings[color.index()].is_some() {
                return Err(err(format!(
                    "two {} kings",
                    if color == BLACK { "black" } else { "white" }
                )));
            }
            state.kings[color.index()] = Some(sq);
        }
        totals[kind.unpromoted().index()] += 1;
    }
    if fields.hands != "-" {
        let mut count = 0u32;
        for c in fields.hands.chars() {
            if let Some(d) = c.to_digit(10) {
                count = count * 10 + d;
                if count > 18 {
                    return Err(err(format!(
                        "hand count above 18 in '{}'",
                        truncate(fields.hands)
                    )));
                }
                continue;
            }
            let kind = Kind::from_letter(c)
                .filter(|k| *k != Kind::King)
                .ok_or_else(|| err(format!("hands: unknown piece '{c}'")))?;
            let n = if count == 0 { 1 } else { count as u8 };
            let color = if c.is_ascii_uppercase() { BLACK } else { WHITE };
            state.hands[color.index()][kind.index()] += n;
            totals[kind.index()] += n;
            count = 0;
        }
        if count != 0 {
            return Err(err(format!(
                "hands '{}' end with a number",
                truncate(fields.hands)
            )));
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
    if state.in_check(fields.side.other()) {
        return Err(err("the side not to move is in check".to_string()));
    }
    Ok(Annan::from_parts(state, fields.side, fields.ply, rules))
}

fn token(state: &State, sq: Square) -> Option<String> {
    let piece = state.at(sq);
    (!piece.is_none()).then(|| piece_text(piece))
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
    // SFEN hand order: rook, bishop, gold, silver, knight, lance, pawn; black first.
    let mut hands = String::new();
    for color in [BLACK, WHITE] {
        for &kind in HAND_KINDS.iter().rev() {
            let n = state.hands[color.index()][kind.index()];
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
    sfen::write(|sq| token(state, sq), side, &hands, ply)
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
        (None, Some(kind)) if state.hands[us.index()][kind.index()] == 0 => {
            format!("no {} in hand", kind.letter())
        }
        _ if pos.in_check() => "not legal here (the side to move is in check)".to_string(),
        _ => "not a legal move here".to_string(),
    }
}

pub fn diagram(pos: &Annan) -> String {
    sfen::diagram(pos, |sq| token(pos.state(), sq), 3)
}
