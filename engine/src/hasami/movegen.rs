//! Slides and captures on bitboards.
//!
//! A slide along a row is looked up from that row's nine occupancy bits; a slide
//! along a column from the column's nine bits of a transposed occupancy that the
//! position keeps alongside the row-major one.

use crate::core::board9::{Bitboard, Square};

/// A board move, from → to.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct HasamiMove {
    pub from: Square,
    pub to: Square,
}

/// `SLIDES[i][occ]`: the cells of a nine-cell line reachable from cell `i` when
/// `occ` marks the occupied cells (cell `i` itself ignored).
static SLIDES: [[u16; 512]; 9] = slide_table();

const fn slide_table() -> [[u16; 512]; 9] {
    let mut table = [[0u16; 512]; 9];
    let mut i = 0;
    while i < 9 {
        let mut occ = 0;
        while occ < 512 {
            let mut reach = 0u16;
            let mut j = i + 1;
            while j < 9 && occ >> j & 1 == 0 {
                reach |= 1 << j;
                j += 1;
            }
            let mut j = i as i32 - 1;
            while j >= 0 && occ >> j & 1 == 0 {
                reach |= 1 << j;
                j -= 1;
            }
            table[i][occ] = reach;
            occ += 1;
        }
        i += 1;
    }
    table
}

/// `COLUMN_SPREAD[bits]`: nine line bits placed on column 0 of a board (row r → bit 9r).
static COLUMN_SPREAD: [u128; 512] = column_spread();

const fn column_spread() -> [u128; 512] {
    let mut table = [0u128; 512];
    let mut bits = 0;
    while bits < 512 {
        let mut r = 0;
        while r < 9 {
            if bits >> r & 1 != 0 {
                table[bits] |= 1u128 << (9 * r);
            }
            r += 1;
        }
        bits += 1;
    }
    table
}

/// Index of a square in the transposed (column-major) occupancy.
#[inline]
pub const fn transposed(sq: Square) -> u32 {
    sq.col() as u32 * 9 + sq.row() as u32
}

#[inline]
fn line_bits(board: u128, line: u8) -> usize {
    (board >> (line as u32 * 9)) as usize & 0x1FF
}

/// Squares a stone on `sq` can slide to.
#[inline]
pub fn slides(sq: Square, occ: Bitboard, occ_t: u128) -> Bitboard {
    let (row, col) = (sq.row(), sq.col());
    let along_row = (SLIDES[col as usize][line_bits(occ.0, row)] as u128) << (row as u32 * 9);
    let along_col = COLUMN_SPREAD[SLIDES[row as usize][line_bits(occ_t, col)] as usize] << col;
    Bitboard(along_row | along_col)
}

/// How many squares a stone on `sq` can slide to.
#[inline]
pub fn slide_count(sq: Square, occ: Bitboard, occ_t: u128) -> u32 {
    let (row, col) = (sq.row(), sq.col());
    SLIDES[col as usize][line_bits(occ.0, row)].count_ones()
        + SLIDES[row as usize][line_bits(occ_t, col)].count_ones()
}

const NOT_LEFT_COLUMN: u128 = {
    let mut mask = Bitboard::FULL.0;
    let mut row = 0;
    while row < 9 {
        mask &= !(1u128 << (row * 9));
        row += 1;
    }
    mask
};
const NOT_RIGHT_COLUMN: u128 = NOT_LEFT_COLUMN >> 1 | 1u128 << 80 & Bitboard::FULL.0;

/// The squares orthogonally next to any square of `set`.
#[inline]
pub fn neighbours(set: Bitboard) -> Bitboard {
    let b = set.0;
    let sideways = (b & NOT_RIGHT_COLUMN) << 1 | (b & NOT_LEFT_COLUMN) >> 1;
    Bitboard((sideways | b << 9 | b >> 9) & Bitboard::FULL.0)
}

/// For a square next to a corner: that corner and the corner's other neighbour.
static CORNER_NEIGHBOURS: [Option<(Square, Square)>; 81] = corner_neighbours();

const fn corner_neighbours() -> [Option<(Square, Square)>; 81] {
    let mut table = [None; 81];
    let corners: [(u8, u8, u8); 4] = [(0, 1, 9), (8, 7, 17), (72, 73, 63), (80, 79, 71)];
    let mut i = 0;
    while i < 4 {
        let (corner, a, b) = corners[i];
        table[a as usize] = Some((Square(corner), Square(b)));
        table[b as usize] = Some((Square(corner), Square(a)));
        i += 1;
    }
    table
}

/// The opponent cells taken in one line of nine when a stone arrives on cell `i`:
/// a run of opponent cells next to it, closed by an own cell, on either side.
#[inline]
fn line_captures(i: u32, own: u32, opp: u32) -> u32 {
    let mut taken = 0;
    let run = (opp >> (i + 1)).trailing_ones();
    let end = i + 1 + run;
    if run > 0 && end < 9 && own >> end & 1 != 0 {
        taken |= ((1 << run) - 1) << (i + 1);
    }
    if i > 0 {
        let run = (opp << (32 - i)).leading_ones();
        if run > 0 && run < i && own >> (i - 1 - run) & 1 != 0 {
            taken |= ((1 << run) - 1) << (i - run);
        }
    }
    taken
}

/// The opponent stones captured by a stone arriving on `to`. `stones` and
/// `stones_t` are `[own, opponent]`, row- and column-major, as they stand after
/// the move (the arriving stone among the own ones).
#[inline]
pub fn captures(to: Square, stones: [Bitboard; 2], stones_t: [u128; 2]) -> Bitboard {
    let (row, col) = (to.row(), to.col());
    let [own, opp] = stones;
    let along_row = line_captures(col as u32, own.row_bits(row), opp.row_bits(row));
    let along_col = line_captures(
        row as u32,
        line_bits(stones_t[0], col) as u32,
        line_bits(stones_t[1], col) as u32,
    );
    let mut taken = Bitboard(
        (along_row as u128) << (row as u32 * 9) | COLUMN_SPREAD[along_col as usize] << col,
    );
    if let Some((corner, other)) = CORNER_NEIGHBOURS[to.index()] {
        if opp.has(corner) && own.has(other) {
            taken |= corner.bit();
        }
    }
    taken
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn neighbours_do_not_wrap_around_rows() {
        let of = |names: &[&str]| {
            names
                .iter()
                .map(|n| Square::parse(n).unwrap().bit())
                .fold(Bitboard::EMPTY, |a, b| a | b)
        };
        assert_eq!(neighbours(of(&["1a"])), of(&["2a", "1b"]));
        assert_eq!(neighbours(of(&["9e"])), of(&["9d", "9f", "8e"]));
        assert_eq!(neighbours(of(&["1e"])), of(&["1d", "1f", "2e"]));
        assert_eq!(neighbours(of(&["5i"])), of(&["4i", "6i", "5h"]));
    }

    #[test]
    fn line_captures_need_an_own_stone_beyond_the_run() {
        // Cell 4 arrives; opponents on 5, 6 closed by own 7; on 3 but open at 2.
        assert_eq!(line_captures(4, 0b1001_0000, 0b0110_1000), 0b0110_0000);
        // Leftward run 1..=3 closed by own 0.
        assert_eq!(line_captures(4, 0b0000_0001, 0b0000_1110), 0b0000_1110);
        // A run reaching the edge is not closed.
        assert_eq!(line_captures(2, 0, 0b11), 0);
        assert_eq!(line_captures(6, 0, 0b1_1000_0000), 0);
    }

    #[test]
    fn slide_table_stops_before_blockers() {
        // Cell 4 with blockers on 1 and 7 reaches 2, 3, 5, 6.
        assert_eq!(SLIDES[4][0b010_000_010], 0b001_101_100);
        // An empty line from an end reaches the other eight cells.
        assert_eq!(SLIDES[0][0].count_ones(), 8);
    }
}
