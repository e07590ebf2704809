//! 9×9 geometry shared by the shogi games: squares, USI square names, bitboards.
//!
//! Square index = row × 9 + column, where row 0 is rank `a` (top, as the first
//! seat sees it) and column 0 is file 9 (left). So index 0 is `9a`, 8 is `1a`,
//! 80 is `1i`; a row occupies nine consecutive bits of a [`Bitboard`].

use std::fmt;

pub const SQUARES: usize = 81;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(pub u8);

impl Square {
    #[inline]
    pub const fn new(row: u8, col: u8) -> Self {
        Square(row * 9 + col)
    }
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
    #[inline]
    pub const fn row(self) -> u8 {
        self.0 / 9
    }
    #[inline]
    pub const fn col(self) -> u8 {
        self.0 % 9
    }
    /// USI file digit, 1 (right) … 9 (left).
    #[inline]
    pub const fn file(self) -> u8 {
        9 - self.col()
    }
    #[inline]
    pub const fn bit(self) -> Bitboard {
        Bitboard(1u128 << self.0)
    }

    /// The neighbour `(drow, dcol)` away, if it is on the board.
    #[inline]
    pub fn offset(self, drow: i8, dcol: i8) -> Option<Square> {
        let row = self.row() as i8 + drow;
        let col = self.col() as i8 + dcol;
        ((0..9).contains(&row) && (0..9).contains(&col)).then(|| Square::new(row as u8, col as u8))
    }

    /// Reads a USI square such as `7g`.
    pub fn parse(text: &str) -> Option<Square> {
        let bytes = text.as_bytes();
        if bytes.len() != 2 {
            return None;
        }
        let file = bytes[0].wrapping_sub(b'0');
        let rank = bytes[1].wrapping_sub(b'a');
        ((1..=9).contains(&file) && rank < 9).then(|| Square::new(rank, 9 - file))
    }

    pub fn all() -> impl Iterator<Item = Square> {
        (0..SQUARES as u8).map(Square)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file(), (b'a' + self.row()) as char)
    }
}

/// A set of squares, one bit each.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Bitboard(pub u128);

impl Bitboard {
    pub const EMPTY: Bitboard = Bitboard(0);
    pub const FULL: Bitboard = Bitboard((1u128 << SQUARES) - 1);

    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }
    #[inline]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }
    /// Whether more than one square is set (cheaper than [`Bitboard::count`]).
    #[inline]
    pub const fn has_several(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }
    #[inline]
    pub const fn has(self, sq: Square) -> bool {
        self.0 >> sq.0 & 1 != 0
    }
    /// The nine bits of one row, column 0 lowest.
    #[inline]
    pub const fn row_bits(self, row: u8) -> u32 {
        (self.0 >> (row as u32 * 9)) as u32 & 0x1FF
    }
}

impl Iterator for Bitboard {
    type Item = Square;
    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let sq = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Some(Square(sq))
    }
}

macro_rules! bit_op {
    ($tr:ident, $f:ident, $atr:ident, $af:ident, $op:tt) => {
        impl std::ops::$tr for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $f(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl std::ops::$atr for Bitboard {
            #[inline]
            fn $af(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}
bit_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bit_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bit_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl std::ops::Not for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0 & Self::FULL.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usi_squares_round_trip() {
        for sq in Square::all() {
            assert_eq!(Square::parse(&sq.to_string()), Some(sq));
        }
        assert_eq!(Square::parse("9a"), Some(Square(0)));
        assert_eq!(Square::parse("1a"), Some(Square(8)));
        assert_eq!(Square::parse("1i"), Some(Square(80)));
        assert_eq!(Square::parse("0a"), None);
        assert_eq!(Square::parse("1j"), None);
        assert_eq!(Square::parse("1"), None);
    }
}
