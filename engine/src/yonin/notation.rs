//! Position notation, move notation and the diagram.
//!
//! `<board> <hands> <seat due> <eliminations> <recency> <move number>`; see
//! docs/notation.md, "Yonin".

use crate::core::Notation;

use super::piece::{Kind, Piece, LAST_ROW};
use super::position::{Eliminations, Recency, Yonin};
use super::rules::YoninRules;
use super::state::{State, YoninMove};
use crate::core::board9::Square;
use crate::core::error::truncate;
use crate::core::sfen::read_move_number;
use crate::core::{Game, MoveError, ParseError, PerSeat, Seat};

pub const START_SFEN: &str = "2S2G2K2G2S22/3P2R2P23/S13P23S3/G1P15P3G3/K1R1P13P3R3K3/G1P15P3G3/S13P03S3/3P0R0P03/2S0G0K0G0S02 -/-/-/- 0 - - 1";

/// How many of each kind exist in the game (four sets).
const SUPPLY: [(Kind, u32); 5] = [
    (Kind::King, 4),
    (Kind::Rook, 4),
    (Kind::Gold, 8),
    (Kind::Silver, 8),
    (Kind::Pawn, 16),
];

fn seat_digit(c: Option<char>) -> Option<Seat> {
    match c? {
        c @ '0'..='3' => Some(Seat::new((c as u8 - b'0') as usize)),
        _ => None,
    }
}

/// Reads one row: digits for runs of empty squares, pieces `[+]X<owner>[@<facing>]`,
/// flipped kings `k<seat>`.
fn parse_row(row: u8, text: &str, cells: &mut Vec<(Square, Piece, bool)>) -> Result<(), String> {
    let mut chars = text.chars().peekable();
    let mut col = 0u8;
    let at = |col: u8| {
        format!("rank {}", (b'a' + row) as char).to_string() + &format!(" file {}", 9 - col as i32)
    };
    while let Some(c) = chars.next() {
        if col >= 9 {
            return Err(format!(
                "rank {} has more than nine squares",
                (b'a' + row) as char
            ));
        }
        match c {
            '1'..='9' => {
                col += c as u8 - b'0';
                continue;
            }
            'k' => {
                let seat = seat_digit(chars.next())
                    .ok_or_else(|| format!("{}: 'k' must be followed by a seat 0-3", at(col)))?;
                cells.push((
                    Square::new(row, col),
                    Piece::new(Kind::King, seat, seat),
                    true,
                ));
            }
            _ => {
                let promoted = c == '+';
                let letter = if promoted { chars.next() } else { Some(c) };
                let base = letter.and_then(Kind::from_letter).ok_or_else(|| {
                    format!(
                        "{}: '{}' is not a piece letter (K R G S P)",
                        at(col),
                        letter.unwrap_or(' ')
                    )
                })?;
                if promoted && !base.can_promote() {
                    return Err(format!("{}: {} cannot be promoted", at(col), base.letter()));
                }
                let owner = seat_digit(chars.next()).ok_or_else(|| {
                    format!(
                        "{}: a piece letter must be followed by its owner 0-3",
                        at(col)
                    )
                })?;
                let facing = if chars.peek() == Some(&'@') {
                    chars.next();
                    seat_digit(chars.next()).ok_or_else(|| {
                        format!("{}: '@' must be followed by a facing 0-3", at(col))
                    })?
                } else {
                    owner
                };
                let kind = if promoted { base.promoted() } else { base };
                if kind == Kind::King && facing != owner {
                    return Err(format!("{}: a king always faces its owner's way", at(col)));
                }
                cells.push((
                    Square::new(row, col),
                    Piece::new(kind, owner, facing),
                    false,
                ));
            }
        }
        col += 1;
    }
    if col > 9 {
        return Err(format!(
            "rank {} has more than nine squares",
            (b'a' + row) as char
        ));
    }
    if col != 9 {
        return Err(format!(
            "rank {} covers {col} squares, expected 9",
            (b'a' + row) as char
        ));
    }
    Ok(())
}

fn parse_hand(text: &str) -> Result<[u8; 4], String> {
    let mut hand = [0u8; 4];
    if text == "-" {
        return Ok(hand);
    }
    if text.is_empty() {
        return Err("an empty hand is written '-'".into());
    }
    let mut count: Option<u32> = None;
    for c in text.chars() {
        if let Some(d) = c.to_digit(10) {
            let n = count.unwrap_or(0) * 10 + d;
            if n > 16 {
                return Err(format!("hand '{}': count too large", truncate(text)));
            }
            count = Some(n);
            continue;
        }
        let kind = Kind::from_letter(c)
            .filter(|&k| k != Kind::King)
            .ok_or_else(|| format!("hand '{}': '{c}' is not R, G, S or P", truncate(text)))?;
        let n = count.take().unwrap_or(1);
        if n < 1 {
            return Err(format!("hand '{}': zero count", truncate(text)));
        }
        let slot = &mut hand[kind.hand_index()];
        if *slot != 0 {
            return Err(format!("hand '{}': {c} given twice", truncate(text)));
        }
        *slot = n as u8;
    }
    if count.is_some() {
        return Err(format!(
            "hand '{}': a count without a piece",
            truncate(text)
        ));
    }
    Ok(hand)
}

pub fn parse_sfen(text: &str, rules: &YoninRules) -> Result<Yonin, ParseError> {
    parse(text, rules).map_err(|reason| ParseError::new(text, reason))
}

fn parse(text: &str, rules: &YoninRules) -> Result<Yonin, String> {
    let fields: Vec<&str> = text.split_whitespace().collect();
    if fields.len() != 6 {
        return Err(format!(
            "expected 'board hands seat eliminations recency move-number', found {} fields",
            fields.len()
        ));
    }
    let rows: Vec<&str> = fields[0].split('/').collect();
    if rows.len() != 9 {
        return Err(format!("the board has {} ranks, expected 9", rows.len()));
    }
    let mut cells = Vec::new();
    for (row, cells_text) in rows.iter().enumerate() {
        parse_row(row as u8, cells_text, &mut cells)?;
    }

    let hands: Vec<&str> = fields[1].split('/').collect();
    if hands.len() != 4 {
        return Err(format!(
            "expected four hands separated by '/', found {}",
            hands.len()
        ));
    }
    let mut state = State::EMPTY;
    for (seat, hand) in hands.iter().enumerate() {
        for (h, &n) in parse_hand(hand)?.iter().enumerate() {
            state.set_hand(Seat::new(seat), h, n);
        }
    }

    let due = match fields[2] {
        s if s.len() == 1 => seat_digit(s.chars().next()),
        _ => None,
    }
    .ok_or_else(|| format!("seat to move '{}': expected 0-3", truncate(fields[2])))?;

    let mut out = Eliminations::default();
    if fields[3] != "-" {
        for entry in fields[3].split(',') {
            let b = entry.as_bytes();
            let (seat, by) = match b {
                [s, b':', by] => (seat_digit(Some(*s as char)), seat_digit(Some(*by as char))),
                _ => (None, None),
            };
            let (Some(seat), Some(by)) = (seat, by) else {
                return Err(format!(
                    "elimination '{}': expected seat:by, seats 0-3",
                    truncate(entry)
                ));
            };
            if seat == by {
                return Err(format!("elimination '{entry}': a seat cannot mate itself"));
            }
            if out.as_slice().iter().any(|e| e.0 == seat) {
                return Err(format!("seat {seat} eliminated twice"));
            }
            if out.as_slice().iter().any(|e| e.0 == by) {
                return Err(format!("elimination '{entry}': seat {by} was already out"));
            }
            if out.len as usize >= rules.mates_to_end() {
                return Err(format!(
                    "more eliminations than the game allows ({})",
                    rules.mates_to_end()
                ));
            }
            out.push(seat, by);
        }
    }
    let is_out = |s: Seat| out.as_slice().iter().any(|e| e.0 == s);
    if is_out(due) && (out.len as usize) < rules.mates_to_end() {
        return Err(format!("seat {due} is to move but is out"));
    }

    let mut recent = Recency::default();
    if fields[4] != "-" {
        for c in fields[4].chars() {
            let seat = seat_digit(Some(c)).ok_or_else(|| {
                format!("recency '{}': '{c}' is not a seat 0-3", truncate(fields[4]))
            })?;
            if recent.as_slice().contains(&seat) {
                return Err(format!(
                    "recency '{}': seat {seat} twice",
                    truncate(fields[4])
                ));
            }
            recent.order[recent.len as usize] = seat;
            recent.len += 1;
        }
    }

    let move_number = read_move_number("move number", fields[5])?;

    // The board: kings, owners and the supply.
    let mut kings = PerSeat::splat(0u8);
    for &(sq, piece, flipped) in &cells {
        let owner = piece.owner();
        if flipped != is_out(owner) && piece.kind() == Kind::King {
            return Err(if flipped {
                format!("{sq}: seat {owner}'s king is flipped but the seat is not out")
            } else {
                format!("{sq}: seat {owner} is out but its king is not flipped")
            });
        }
        if piece.kind() == Kind::King {
            kings[owner] += 1;
        } else if is_out(owner) {
            return Err(format!("{sq}: a piece of seat {owner}, which is out"));
        }
        if piece.kind() == Kind::Pawn && LAST_ROW[piece.facing()].has(sq) {
            return Err(format!(
                "{sq}: an unpromoted pawn on the last row of its facing"
            ));
        }
        state.put(sq, piece);
        if flipped {
            state.flip_king(owner);
        }
    }
    if let Some(seat) = Seat::all(4).find(|&s| kings[s] != 1) {
        return Err(format!("seat {seat} has {} kings, expected 1", kings[seat]));
    }
    for (kind, supply) in SUPPLY {
        let on_board = cells
            .iter()
            .filter(|c| c.1.kind().unpromoted() == kind)
            .count() as u32;
        let in_hand: u32 = if kind == Kind::King {
            0
        } else {
            Seat::all(4)
                .map(|s| state.hands[s][kind.hand_index()] as u32)
                .sum()
        };
        if on_board + in_hand > supply {
            return Err(format!(
                "{} {} pieces, only {supply} exist",
                on_board + in_hand,
                kind.letter()
            ));
        }
    }
    for &(seat, _) in out.as_slice() {
        if state.hands[seat] != [0; 4] {
            return Err(format!("seat {seat} is out but holds pieces in hand"));
        }
    }
    if (out.len as usize) < rules.mates_to_end() && !state.is_alive(due) {
        return Err(format!("seat {due} is to move but is out"));
    }
    // A seat due without a legal move is eliminated at once, as after a move.
    let pos = Yonin::from_parts(state, due, out, recent, move_number - 1, rules);
    Ok(pos)
}

fn piece_token(piece: Piece, flipped: bool) -> String {
    if flipped {
        return format!("k{}", piece.owner());
    }
    let mut token = String::new();
    if piece.kind().is_promoted() {
        token.push('+');
    }
    token.push(piece.kind().letter());
    token.push((b'0' + piece.owner().index() as u8) as char);
    if piece.facing() != piece.owner() {
        token.push('@');
        token.push((b'0' + piece.facing().index() as u8) as char);
    }
    token
}

fn hand_text(hand: &[u8; 4]) -> String {
    let mut text = String::new();
    for kind in Kind::HAND {
        match hand[kind.hand_index()] {
            0 => {}
            1 => text.push(kind.letter()),
            n => text.push_str(&format!("{n}{}", kind.letter())),
        }
    }
    if text.is_empty() {
        text.push('-');
    }
    text
}

pub fn sfen(state: &State, due: Seat, out: &Eliminations, recent: &Recency, ply: u32) -> String {
    let mut board = String::new();
    for row in 0..9u8 {
        if row > 0 {
            board.push('/');
        }
        let mut empty = 0;
        for col in 0..9u8 {
            let sq = Square::new(row, col);
            let piece = state.at(sq);
            if piece.is_none() {
                empty += 1;
                continue;
            }
            if empty > 0 {
                board.push_str(&empty.to_string());
                empty = 0;
            }
            board.push_str(&piece_token(piece, state.flipped.has(sq)));
        }
        if empty > 0 {
            board.push_str(&empty.to_string());
        }
    }
    let hands: Vec<String> = state.hands.iter().map(hand_text).collect();
    let out_text = if out.len == 0 {
        "-".to_string()
    } else {
        out.as_slice()
            .iter()
            .map(|(s, by)| format!("{s}:{by}"))
            .collect::<Vec<_>>()
            .join(",")
    };
    let recent_text = if recent.len == 0 {
        "-".to_string()
    } else {
        recent.as_slice().iter().map(|s| s.to_string()).collect()
    };
    format!(
        "{board} {} {due} {out_text} {recent_text} {}",
        hands.join("/"),
        ply + 1
    )
}

pub fn format_move(mv: YoninMove) -> String {
    match mv.from() {
        Some(from) => format!("{from}{}{}", mv.to(), if mv.promotes() { "+" } else { "" }),
        None => format!("{}*{}", mv.dropped().expect("a drop").letter(), mv.to()),
    }
}

pub fn parse_move(text: &str) -> Result<YoninMove, MoveError> {
    let bad = || MoveError::new(text, "expected a move such as 5g5f, 5c5b+ or G*5e");
    if let Some((letter, square)) = text.split_once('*') {
        let kind = match letter {
            "R" => Kind::Rook,
            "G" => Kind::Gold,
            "S" => Kind::Silver,
            "P" => Kind::Pawn,
            _ => return Err(bad()),
        };
        let to = Square::parse(square).ok_or_else(bad)?;
        return Ok(YoninMove::drop(kind, to));
    }
    let (body, promote) = match text.strip_suffix('+') {
        Some(body) => (body, true),
        None => (text, false),
    };
    if body.len() != 4 || !body.is_ascii() {
        return Err(bad());
    }
    let from = Square::parse(&body[..2]).ok_or_else(bad)?;
    let to = Square::parse(&body[2..]).ok_or_else(bad)?;
    Ok(YoninMove::board(from, to, promote))
}

const SEAT_NAMES: PerSeat<&str> = PerSeat::new(["South", "West", "North", "East"]);

pub fn diagram(pos: &Yonin) -> String {
    let state = pos.state();
    let mut out = String::from("  ");
    for file in (1..=9).rev() {
        out.push_str(&format!("{file:>6}"));
    }
    out.push('\n');
    for row in 0..9u8 {
        out.push_str("  ");
        for col in 0..9u8 {
            let sq = Square::new(row, col);
            let piece = state.at(sq);
            let text = if piece.is_none() {
                ".".to_string()
            } else {
                piece_token(piece, state.flipped.has(sq))
            };
            out.push_str(&format!("{text:>6}"));
        }
        out.push_str(&format!(" {}\n", (b'a' + row) as char));
    }
    out.push_str("pieces: letter, owner seat, @facing when it differs; k<seat> = flipped king\n");
    for seat in Seat::all(4) {
        let status = if state.is_alive(seat) {
            "playing".to_string()
        } else {
            let by = pos
                .eliminations()
                .as_slice()
                .iter()
                .find(|e| e.0 == seat)
                .map_or(Seat::FIRST, |e| e.1);
            format!("out, mated by {by}")
        };
        out.push_str(&format!(
            "seat {seat} ({}): hand {}, {status}\n",
            SEAT_NAMES[seat],
            hand_text(&state.hands[seat])
        ));
    }
    out.push_str(&format!(
        "due {}\nsfen {}\nkey {:016x}\n{}",
        pos.side_to_move(),
        pos.sfen(),
        pos.key(),
        pos.status_details()
    ));
    out
}
