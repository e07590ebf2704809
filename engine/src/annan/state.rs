//! The board and hands as a small `Copy` value, with the Annan movement rule:
//! a piece moves like the piece of its own side directly behind it.
//!
//! Legality is judged by applying a move to a copy of this state and asking
//! whether the mover's king is attacked there, since any move can change how
//! other pieces move.

use super::piece::{Kind, Piece, HAND_KINDS};
use crate::core::board9::Square;
use crate::core::Seat;
use std::sync::LazyLock;

pub const BLACK: Seat = 0;
pub const WHITE: Seat = 1;

/// A move: a board move (from, to, promotion) or a drop (kind, to).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct AnnanMove(u16);

const DROP_BASE: u16 = 81;

impl AnnanMove {
    #[inline]
    pub fn board(from: Square, to: Square, promote: bool) -> Self {
        AnnanMove(to.0 as u16 | (from.0 as u16) << 7 | (promote as u16) << 14)
    }
    #[inline]
    pub fn drop(kind: Kind, to: Square) -> Self {
        AnnanMove(to.0 as u16 | (DROP_BASE + kind as u16) << 7)
    }
    #[inline]
    pub fn to(self) -> Square {
        Square((self.0 & 0x7F) as u8)
    }
    /// The origin square of a board move.
    #[inline]
    pub fn from(self) -> Option<Square> {
        let from = self.0 >> 7 & 0x7F;
        (from < DROP_BASE).then_some(Square(from as u8))
    }
    #[inline]
    pub fn dropped(self) -> Option<Kind> {
        let from = self.0 >> 7 & 0x7F;
        (from >= DROP_BASE).then(|| Kind::from_index((from - DROP_BASE) as usize))
    }
    #[inline]
    pub fn promotes(self) -> bool {
        self.0 >> 14 & 1 != 0
    }
}

/// Step directions for black: the eight king steps, then the two knight jumps.
pub const STEP_DIRS: [(i8, i8); 10] = [
    (-1, -1),
    (-1, 0),
    (-1, 1),
    (0, -1),
    (0, 1),
    (1, -1),
    (1, 0),
    (1, 1),
    (-2, -1),
    (-2, 1),
];

/// Per kind: which of `STEP_DIRS` it steps in, and which of the first eight it slides in.
struct Movement {
    steps: [u16; 14],
    slides: [u8; 14],
}

static MOVEMENT: LazyLock<Movement> = LazyLock::new(|| {
    let mut m = Movement {
        steps: [0; 14],
        slides: [0; 14],
    };
    for kind in Kind::ALL {
        for (i, dir) in STEP_DIRS.iter().enumerate() {
            if kind.steps().contains(dir) {
                m.steps[kind.index()] |= 1 << i;
            }
            if kind.slides().contains(dir) {
                m.slides[kind.index()] |= 1 << i;
            }
        }
    }
    m
});

#[inline]
pub fn step_mask(kind: Kind) -> u16 {
    MOVEMENT.steps[kind.index()]
}

#[inline]
pub fn slide_mask(kind: Kind) -> u8 {
    MOVEMENT.slides[kind.index()]
}

/// Forward is up the board (row − 1) for black, down for white.
#[inline]
pub const fn forward(color: Seat) -> i8 {
    if color == BLACK {
        -1
    } else {
        1
    }
}

/// Whether `sq` is in `color`'s promotion zone (the farthest three ranks).
#[inline]
pub const fn in_zone(sq: Square, color: Seat) -> bool {
    if color == BLACK {
        sq.row() <= 2
    } else {
        sq.row() >= 6
    }
}

/// Ranks from `color`'s far edge: 0 on the last rank.
#[inline]
pub const fn ranks_to_go(sq: Square, color: Seat) -> u8 {
    if color == BLACK {
        sq.row()
    } else {
        8 - sq.row()
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct State {
    pub cells: [Piece; 81],
    pub hands: [[u8; 7]; 2],
    pub kings: [Option<Square>; 2],
}

impl State {
    pub const EMPTY: State = State {
        cells: [Piece::NONE; 81],
        hands: [[0; 7]; 2],
        kings: [None; 2],
    };

    #[inline]
    pub fn at(&self, sq: Square) -> Piece {
        self.cells[sq.index()]
    }

    /// The square directly behind `sq` for `color`, if any.
    #[inline]
    pub fn behind(sq: Square, color: Seat) -> Option<Square> {
        sq.offset(-forward(color), 0)
    }

    /// How the piece on `sq` moves now: like its own-side back piece, if any.
    #[inline]
    pub fn movement(&self, sq: Square) -> Kind {
        let piece = self.at(sq);
        let color = piece.color();
        match State::behind(sq, color) {
            Some(back) if self.at(back).is(color) => self.at(back).kind(),
            _ => piece.kind(),
        }
    }

    /// Whether any piece of `by` attacks `target`.
    pub fn attacked(&self, target: Square, by: Seat) -> bool {
        // A piece of `by` on `from` reaches `target` by the step d·s, s = ±1 by colour.
        let s = -forward(by);
        for (i, &(dr, dc)) in STEP_DIRS.iter().enumerate() {
            if let Some(from) = target.offset(-dr * s, -dc * s) {
                if self.at(from).is(by) && step_mask(self.movement(from)) >> i & 1 != 0 {
                    return true;
                }
            }
        }
        for (i, &(dr, dc)) in STEP_DIRS[..8].iter().enumerate() {
            let mut sq = target;
            while let Some(from) = sq.offset(-dr * s, -dc * s) {
                let piece = self.at(from);
                if !piece.is_none() {
                    if piece.is(by) && slide_mask(self.movement(from)) >> i & 1 != 0 {
                        return true;
                    }
                    break;
                }
                sq = from;
            }
        }
        false
    }

    #[inline]
    pub fn in_check(&self, color: Seat) -> bool {
        self.kings[color as usize].is_some_and(|king| self.attacked(king, color ^ 1))
    }

    /// Whether the piece on `sq` can move anywhere on the board (occupancy ignored).
    pub fn can_move_from(&self, sq: Square) -> bool {
        let kind = self.movement(sq);
        let s = -forward(self.at(sq).color());
        let (steps, slides) = (step_mask(kind), slide_mask(kind) as u16);
        STEP_DIRS.iter().enumerate().any(|(i, &(dr, dc))| {
            (steps | slides) >> i & 1 != 0 && sq.offset(dr * s, dc * s).is_some()
        })
    }

    /// Whether `color` has an unpromoted pawn on column `col`.
    #[inline]
    pub fn pawn_on_column(&self, color: Seat, col: u8) -> bool {
        let pawn = Piece::new(color, Kind::Pawn);
        (0..9).any(|row| self.at(Square::new(row, col)) == pawn)
    }

    /// Plays `mv` for `us`; returns the captured piece.
    #[inline]
    pub fn apply(&mut self, mv: AnnanMove, us: Seat) -> Piece {
        let to = mv.to();
        match mv.from() {
            Some(from) => {
                let piece = self.cells[from.index()];
                let captured = self.cells[to.index()];
                self.cells[from.index()] = Piece::NONE;
                if !captured.is_none() {
                    self.hands[us as usize][captured.kind().unpromoted().index()] += 1;
                }
                let kind = piece.kind();
                self.cells[to.index()] = if mv.promotes() {
                    Piece::new(us, kind.promoted())
                } else {
                    piece
                };
                if kind == Kind::King {
                    self.kings[us as usize] = Some(to);
                }
                captured
            }
            None => {
                let kind = mv.dropped().expect("a move is a board move or a drop");
                self.hands[us as usize][kind.index()] -= 1;
                self.cells[to.index()] = Piece::new(us, kind);
                Piece::NONE
            }
        }
    }

    /// Takes back `mv` played by `us`, which captured `captured`.
    #[inline]
    pub fn revert(&mut self, mv: AnnanMove, us: Seat, captured: Piece) {
        let to = mv.to();
        let moved = self.cells[to.index()];
        self.cells[to.index()] = captured;
        match mv.from() {
            Some(from) => {
                let kind = if mv.promotes() {
                    moved.kind().unpromoted()
                } else {
                    moved.kind()
                };
                self.cells[from.index()] = Piece::new(us, kind);
                if !captured.is_none() {
                    self.hands[us as usize][captured.kind().unpromoted().index()] -= 1;
                }
                if kind == Kind::King {
                    self.kings[us as usize] = Some(from);
                }
            }
            None => self.hands[us as usize][moved.kind().index()] += 1,
        }
    }

    /// Pieces of `color` in hand, kind by kind.
    pub fn hand(&self, color: Seat) -> impl Iterator<Item = (Kind, u8)> + '_ {
        HAND_KINDS
            .iter()
            .map(move |&k| (k, self.hands[color as usize][k.index()]))
            .filter(|&(_, n)| n > 0)
    }
}
