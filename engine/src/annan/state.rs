//! The board and hands as a small `Copy` value, with the Annan movement rule:
//! a piece moves like the piece of its own side directly behind it.
//!
//! Where a move might leave the own king attacked, legality is judged by
//! applying it to a copy of this state and asking whether the king is attacked
//! there, since any move can change how other pieces move.

use super::attacks::{next_on_ray, slides_back_along, step_sources, steps_to};
use super::piece::{Kind, Piece};
use crate::core::board9::{Bitboard, Square};
use crate::core::shogi_move::{DropKind, ShogiMove};
use crate::core::Seat;

pub const BLACK: Seat = Seat::FIRST;
pub const WHITE: Seat = Seat::SECOND;

/// A move: a board move (from, to, promotion) or a drop (kind, to).
pub type AnnanMove = ShogiMove<Kind>;

impl DropKind for Kind {
    #[inline]
    fn index(self) -> u16 {
        self as u16
    }
    #[inline]
    fn from_index(index: usize) -> Self {
        Kind::from_index(index)
    }
}

/// The board, hands and kings, with occupancy by colour and unpromoted pawns
/// kept alongside the cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct State {
    pub cells: [Piece; 81],
    pub hands: [[u8; 7]; 2],
    pub kings: [Option<Square>; 2],
    pub occupied: [Bitboard; 2],
    pub pawns: [Bitboard; 2],
}

impl State {
    pub const EMPTY: State = State {
        cells: [Piece::NONE; 81],
        hands: [[0; 7]; 2],
        kings: [None; 2],
        occupied: [Bitboard::EMPTY; 2],
        pawns: [Bitboard::EMPTY; 2],
    };

    #[inline]
    pub fn at(&self, sq: Square) -> Piece {
        self.cells[sq.index()]
    }

    #[inline]
    pub fn all(&self) -> Bitboard {
        self.occupied[0] | self.occupied[1]
    }

    /// Puts `piece` on the empty square `sq` (kings are the caller's business).
    pub fn put(&mut self, sq: Square, piece: Piece) {
        debug_assert!(self.at(sq).is_none());
        self.cells[sq.index()] = piece;
        self.toggle(sq, piece);
    }

    /// Flips `sq` in the bitboards of `piece`.
    #[inline]
    fn toggle(&mut self, sq: Square, piece: Piece) {
        let color = piece.color().index();
        self.occupied[color] ^= sq.bit();
        if piece.kind() == Kind::Pawn {
            self.pawns[color] ^= sq.bit();
        }
    }

    /// The square directly behind `sq` for `color`, if any.
    #[inline]
    pub fn behind(sq: Square, color: Seat) -> Option<Square> {
        let back = if color == BLACK {
            sq.0 + 9
        } else {
            sq.0.wrapping_sub(9)
        };
        (back < 81).then_some(Square(back))
    }

    /// How the piece on `sq` moves now: like its own-side back piece, if any.
    #[inline]
    pub fn movement(&self, sq: Square) -> Kind {
        let piece = self.at(sq);
        let color = piece.color();
        match State::behind(sq, color) {
            Some(back) if self.occupied[color.index()].has(back) => self.at(back).kind(),
            _ => piece.kind(),
        }
    }

    /// Whether any piece of `by` attacks `target`.
    pub fn attacked(&self, target: Square, by: Seat) -> bool {
        let theirs = self.occupied[by.index()];
        for from in step_sources(by, target) & theirs {
            if steps_to(by, self.movement(from), from, target) {
                return true;
            }
        }
        let occupied = self.all();
        (0..8).any(|d| {
            next_on_ray(d, target, occupied).is_some_and(|from| {
                theirs.has(from) && slides_back_along(by, self.movement(from), d)
            })
        })
    }

    /// The pieces of `by` that attack `target` ([`State::attacked`] as a set).
    pub fn attackers(&self, target: Square, by: Seat) -> Bitboard {
        let theirs = self.occupied[by.index()];
        let stepping = (step_sources(by, target) & theirs)
            .filter(|&from| steps_to(by, self.movement(from), from, target))
            .fold(Bitboard::EMPTY, |set, from| set | from.bit());
        let occupied = self.all();
        (0..8)
            .filter_map(|d| next_on_ray(d, target, occupied).map(|from| (d, from)))
            .filter(|&(d, from)| theirs.has(from) && slides_back_along(by, self.movement(from), d))
            .fold(stepping, |set, (_, from)| set | from.bit())
    }

    #[inline]
    pub fn in_check(&self, color: Seat) -> bool {
        self.kings[color.index()].is_some_and(|king| self.attacked(king, color.other()))
    }

    /// Plays `mv` for `us`; returns the captured piece.
    #[inline]
    pub fn apply(&mut self, mv: AnnanMove, us: Seat) -> Piece {
        let to = mv.to();
        let Some(from) = mv.from() else {
            let kind = mv.dropped().expect("a move is a board move or a drop");
            self.hands[us.index()][kind.index()] -= 1;
            self.put(to, Piece::new(us, kind));
            return Piece::NONE;
        };
        let piece = self.cells[from.index()];
        let captured = self.cells[to.index()];
        if !captured.is_none() {
            self.hands[us.index()][captured.kind().unpromoted().index()] += 1;
            self.toggle(to, captured);
        }
        let kind = piece.kind();
        self.cells[from.index()] = Piece::NONE;
        self.cells[to.index()] = if mv.promotes() {
            Piece::new(us, kind.promoted())
        } else {
            piece
        };
        self.shift(us, kind, from, to, mv.promotes());
        if kind == Kind::King {
            self.kings[us.index()] = Some(to);
        }
        captured
    }

    /// Moves the bits of `us`'s piece of original kind `kind` between `a` and `b`
    /// (either way), promoted on `b` if `promoted`.
    #[inline]
    fn shift(&mut self, us: Seat, kind: Kind, a: Square, b: Square, promoted: bool) {
        let (a, b) = (a.bit(), b.bit());
        self.occupied[us.index()] ^= a | b;
        if kind == Kind::Pawn {
            self.pawns[us.index()] ^= if promoted { a } else { a | b };
        }
    }

    /// Takes back `mv` played by `us`, which captured `captured`.
    #[inline]
    pub fn revert(&mut self, mv: AnnanMove, us: Seat, captured: Piece) {
        let to = mv.to();
        let moved = self.cells[to.index()];
        let Some(from) = mv.from() else {
            self.cells[to.index()] = Piece::NONE;
            self.toggle(to, moved);
            self.hands[us.index()][moved.kind().index()] += 1;
            return;
        };
        let kind = if mv.promotes() {
            moved.kind().unpromoted()
        } else {
            moved.kind()
        };
        self.cells[from.index()] = Piece::new(us, kind);
        self.cells[to.index()] = captured;
        self.shift(us, kind, from, to, mv.promotes());
        if !captured.is_none() {
            self.hands[us.index()][captured.kind().unpromoted().index()] -= 1;
            self.toggle(to, captured);
        }
        if kind == Kind::King {
            self.kings[us.index()] = Some(from);
        }
    }
}
