//! Moves of the 9×9 games as people write them in a game record: western
//! (`P7g-7f`, `Bx2b+`, `P*5e`) or with kanji (`７六歩(77)`, `２二角成(88)`,
//! `５五歩打`), as in a KIF record. docs/notation.md, "Readable records".

use super::board9::Square;
use super::shogi_move::{DropKind, ShogiMove};

/// One move of a shogi-like game, as a record shows it.
#[derive(Clone, Copy, Debug)]
pub struct ReadableMove {
    /// The piece moved (or dropped) as a USI letter, `+` before a promoted one
    /// (`P`, `+R`): the piece before the move.
    pub piece: &'static str,
    /// `None` for a drop.
    pub from: Option<Square>,
    pub to: Square,
    pub promotes: bool,
    /// Whether a piece stood on `to` (western records mark it `x`).
    pub captures: bool,
}

/// The kanji of a piece given as a USI letter with an optional `+`.
fn kanji_piece(piece: &str) -> &'static str {
    match piece {
        "P" => "歩",
        "L" => "香",
        "N" => "桂",
        "S" => "銀",
        "G" => "金",
        "B" => "角",
        "R" => "飛",
        "K" => "玉",
        "+P" => "と",
        "+L" => "成香",
        "+N" => "成桂",
        "+S" => "成銀",
        "+B" => "馬",
        "+R" => "龍",
        _ => "?",
    }
}

const FILES: [&str; 9] = ["１", "２", "３", "４", "５", "６", "７", "８", "９"];
const RANKS: [&str; 9] = ["一", "二", "三", "四", "五", "六", "七", "八", "九"];

impl ReadableMove {
    /// A shogi move as text: `on` is the kind on a square (none when empty),
    /// `letter` its USI letter (`+` before a promoted one).
    pub fn shogi<K: DropKind>(
        mv: ShogiMove<K>,
        on: impl Fn(Square) -> Option<K>,
        letter: impl Fn(K) -> &'static str,
        kanji: bool,
    ) -> String {
        let kind = match mv.from() {
            Some(from) => on(from).expect("a piece to move"),
            None => mv.dropped().expect("a drop"),
        };
        ReadableMove {
            piece: letter(kind),
            from: mv.from(),
            to: mv.to(),
            promotes: mv.promotes(),
            captures: on(mv.to()).is_some(),
        }
        .text(kanji)
    }

    /// `P7g-7f`, `Bx2b+`, `P*5e`: the piece, the origin, `-` or `x`, the square.
    pub fn western(&self) -> String {
        match self.from {
            None => format!("{}*{}", self.piece, self.to),
            Some(from) => format!(
                "{}{from}{}{}{}",
                self.piece,
                if self.captures { 'x' } else { '-' },
                self.to,
                if self.promotes { "+" } else { "" }
            ),
        }
    }

    /// `７六歩(77)`, `２二角成(88)`, `５五歩打`: the square in full-width digit
    /// and kanji numeral, the piece, 成 or 打, the origin as two digits.
    pub fn kanji(&self) -> String {
        let square = format!(
            "{}{}",
            FILES[self.to.file() as usize - 1],
            RANKS[self.to.row() as usize]
        );
        let piece = kanji_piece(self.piece);
        match self.from {
            None => format!("{square}{piece}打"),
            Some(from) => format!(
                "{square}{piece}{}({}{})",
                if self.promotes { "成" } else { "" },
                from.file(),
                from.row() + 1
            ),
        }
    }

    pub fn text(&self, kanji: bool) -> String {
        if kanji {
            self.kanji()
        } else {
            self.western()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(text: &str) -> Square {
        Square::parse(text).unwrap()
    }

    #[test]
    fn moves_read_as_records_write_them() {
        let pawn = ReadableMove {
            piece: "P",
            from: Some(sq("7g")),
            to: sq("7f"),
            promotes: false,
            captures: false,
        };
        assert_eq!(pawn.western(), "P7g-7f");
        assert_eq!(pawn.kanji(), "７六歩(77)");
        let bishop = ReadableMove {
            piece: "B",
            from: Some(sq("8h")),
            to: sq("2b"),
            promotes: true,
            captures: true,
        };
        assert_eq!(bishop.western(), "B8hx2b+");
        assert_eq!(bishop.kanji(), "２二角成(88)");
        let drop = ReadableMove {
            piece: "P",
            from: None,
            to: sq("5e"),
            promotes: false,
            captures: false,
        };
        assert_eq!(drop.text(false), "P*5e");
        assert_eq!(drop.text(true), "５五歩打");
    }
}
