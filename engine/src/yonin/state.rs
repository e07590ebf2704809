//! The board and the four hands as a small `Copy` value: pieces with owners and
//! facings, flipped kings, who is still playing, and the key of all of it.

use super::piece::{
    piece_attacks, rook_attacks, Kind, Piece, GOLD_STEPS, KING_STEPS, PAWN_STEPS, SILVER_STEPS,
};
use crate::core::board9::{Bitboard, Square};
use crate::core::shogi_move::{DropKind, ShogiMove};
use crate::core::zobrist::key_table;
use crate::core::{PerSeat, Seat};

/// A move: a board move (from, to, promotion) or a drop (kind, to).
pub type YoninMove = ShogiMove<Kind>;

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

/// Per piece code and square; the empty code is keyed 0.
static PIECE_KEYS: [u64; Piece::CODES * 81] = {
    let mut keys = key_table(0x594F_4E49_4E00);
    let mut sq = 0;
    while sq < 81 {
        keys[sq] = 0;
        sq += 1;
    }
    keys
};
/// Per seat, hand kind and count (at most 16 pawns exist).
static HAND_KEYS: [u64; 4 * 4 * 17] = key_table(0x594F_4E49_4E01);
/// Per seat whose king lies flipped.
static FLIP_KEYS: PerSeat<u64> = PerSeat::new(key_table(0x594F_4E49_4E02));

#[inline]
fn piece_key(piece: Piece, sq: Square) -> u64 {
    PIECE_KEYS[piece.code() * 81 + sq.index()]
}

#[inline]
fn hand_key(seat: Seat, hand: usize, count: u8) -> u64 {
    HAND_KEYS[(seat.index() * 4 + hand) * 17 + count as usize]
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct State {
    pub cells: [Piece; 81],
    pub occupied: Bitboard,
    /// Every piece a seat owns, its king (live or flipped) included.
    pub by_owner: PerSeat<Bitboard>,
    /// Every piece by the seat whose forward it moves in.
    pub by_facing: PerSeat<Bitboard>,
    pub by_kind: [Bitboard; 8],
    pub flipped: Bitboard,
    /// Board pieces per owner and kind (the evaluation's material, kept here
    /// because counting bits is slow where the CPU lacks an instruction for it).
    pub counts: PerSeat<[u8; 8]>,
    /// Counts of rook, gold, silver, pawn per seat.
    pub hands: PerSeat<[u8; 4]>,
    pub kings: PerSeat<Square>,
    /// Bit per seat still playing.
    pub alive: u8,
    /// Pieces, hands and flipped kings (the seat to move is the position's).
    pub key: u64,
}

impl State {
    pub const EMPTY: State = State {
        cells: [Piece::NONE; 81],
        occupied: Bitboard::EMPTY,
        by_owner: PerSeat::splat(Bitboard::EMPTY),
        by_facing: PerSeat::splat(Bitboard::EMPTY),
        by_kind: [Bitboard::EMPTY; 8],
        flipped: Bitboard::EMPTY,
        counts: PerSeat::splat([0; 8]),
        hands: PerSeat::splat([0; 4]),
        kings: PerSeat::splat(Square(0)),
        alive: 0b1111,
        key: 0,
    };

    #[inline]
    pub fn at(&self, sq: Square) -> Piece {
        self.cells[sq.index()]
    }

    #[inline]
    pub fn is_alive(&self, seat: Seat) -> bool {
        self.alive & seat.bit() != 0
    }

    #[inline]
    fn toggle(&mut self, sq: Square, piece: Piece) {
        let bit = sq.bit();
        self.occupied ^= bit;
        self.by_owner[piece.owner()] ^= bit;
        self.by_facing[piece.facing()] ^= bit;
        self.by_kind[piece.kind().index()] ^= bit;
        self.key ^= piece_key(piece, sq);
    }

    /// Puts `piece` on the empty square `sq`.
    #[inline]
    pub fn put(&mut self, sq: Square, piece: Piece) {
        debug_assert!(self.at(sq).is_none());
        self.cells[sq.index()] = piece;
        self.toggle(sq, piece);
        self.counts[piece.owner()][piece.kind().index()] += 1;
        if piece.kind() == Kind::King {
            self.kings[piece.owner()] = sq;
        }
    }

    #[inline]
    pub fn remove(&mut self, sq: Square) -> Piece {
        let piece = self.at(sq);
        self.cells[sq.index()] = Piece::NONE;
        self.toggle(sq, piece);
        self.counts[piece.owner()][piece.kind().index()] -= 1;
        piece
    }

    #[inline]
    pub fn set_hand(&mut self, seat: Seat, hand: usize, count: u8) {
        let old = &mut self.hands[seat][hand];
        self.key ^= hand_key(seat, hand, *old) ^ hand_key(seat, hand, count);
        *old = count;
    }

    /// Turns `seat`'s king over: the seat is out.
    pub fn flip_king(&mut self, seat: Seat) {
        self.alive &= !seat.bit();
        self.flipped |= self.kings[seat].bit();
        self.key ^= FLIP_KEYS[seat];
    }

    /// The pieces of every live seat but `seat`.
    #[inline]
    pub fn others(&self, seat: Seat) -> Bitboard {
        let mut bb = Bitboard::EMPTY;
        for s in Seat::all(4) {
            if s != seat && self.is_alive(s) {
                bb |= self.by_owner[s];
            }
        }
        bb
    }

    /// The pieces among `by` that attack `target`.
    #[inline]
    pub fn attackers(&self, target: Square, by: Bitboard) -> Bitboard {
        self.attackers_through(target, by, self.occupied)
    }

    /// The pieces among `by` that attack `target` when `occupied` blocks the
    /// rook lines (a king asking about a flight square takes itself off first).
    #[inline]
    pub fn attackers_through(&self, target: Square, by: Bitboard, occupied: Bitboard) -> Bitboard {
        (self.step_attackers(target) | self.line_attackers(target, occupied)) & by
    }

    /// Every piece that attacks `target` by a step, of any owner.
    #[inline]
    fn step_attackers(&self, target: Square) -> Bitboard {
        let t = target.index();
        let k = &self.by_kind;
        let golds = k[Kind::Gold.index()] | k[Kind::ProSilver.index()] | k[Kind::Tokin.index()];
        let silvers = k[Kind::Silver.index()];
        let pawns = k[Kind::Pawn.index()];
        let mut attackers = KING_STEPS[t] & (k[Kind::King.index()] | k[Kind::Dragon.index()]);
        for f in Seat::all(4) {
            // A piece facing f attacks t from where the opposite facing steps to.
            let o = f.after(2, 4).index();
            attackers |= (GOLD_STEPS[o][t] & golds
                | SILVER_STEPS[o][t] & silvers
                | PAWN_STEPS[o][t] & pawns)
                & self.by_facing[f];
        }
        attackers
    }

    /// Every rook and dragon that attacks `target` along a line, of any owner.
    #[inline]
    fn line_attackers(&self, target: Square, occupied: Bitboard) -> Bitboard {
        rook_attacks(target, occupied) & self.sliders()
    }

    /// Rooks and dragons, of any owner.
    #[inline]
    pub fn sliders(&self) -> Bitboard {
        self.by_kind[Kind::Rook.index()] | self.by_kind[Kind::Dragon.index()]
    }

    /// Whether `seat`'s king is attacked by a live seat (asked of live seats).
    #[inline]
    pub fn king_attacked(&self, seat: Seat) -> bool {
        !self
            .attackers(self.kings[seat], self.others(seat))
            .is_empty()
    }

    #[inline]
    pub fn in_check(&self, seat: Seat) -> bool {
        self.is_alive(seat) && self.king_attacked(seat)
    }

    /// A bit per seat in check.
    pub fn checked_seats(&self) -> u8 {
        Seat::all(4)
            .filter(|&s| self.in_check(s))
            .fold(0, |mask, s| mask | s.bit())
    }

    /// Plays `mv` for `us`; returns the piece it captured (`Piece::NONE` if none).
    #[inline]
    pub fn apply(&mut self, mv: YoninMove, us: Seat) -> Piece {
        let to = mv.to();
        let Some(from) = mv.from() else {
            let kind = mv.dropped().expect("a move is a board move or a drop");
            let h = kind.hand_index();
            self.set_hand(us, h, self.hands[us][h] - 1);
            self.put(to, Piece::new(kind, us, us));
            return Piece::NONE;
        };
        let captured = self.at(to);
        if !captured.is_none() {
            self.remove(to);
            let h = captured.kind().unpromoted().hand_index();
            self.set_hand(us, h, self.hands[us][h] + 1);
        }
        let piece = self.remove(from);
        let piece = if mv.promotes() {
            piece.with_kind(piece.kind().promoted())
        } else {
            piece
        };
        self.put(to, piece);
        captured
    }

    /// Takes back [`State::apply`] of `mv` by `us`, which captured `captured`.
    #[inline]
    pub fn unapply(&mut self, mv: YoninMove, us: Seat, captured: Piece) {
        let to = mv.to();
        let piece = self.remove(to);
        let Some(from) = mv.from() else {
            let h = piece.kind().hand_index();
            self.set_hand(us, h, self.hands[us][h] + 1);
            return;
        };
        let piece = if mv.promotes() {
            piece.with_kind(piece.kind().unpromoted())
        } else {
            piece
        };
        self.put(from, piece);
        if !captured.is_none() {
            let h = captured.kind().unpromoted().hand_index();
            self.set_hand(us, h, self.hands[us][h] - 1);
            self.put(to, captured);
        }
    }

    /// `seat` is checkmated: its king is flipped, its other pieces and its hand
    /// pass to `heir`, board pieces keeping their facing.
    pub fn eliminate(&mut self, seat: Seat, heir: Seat) {
        self.flip_king(seat);
        let king = self.kings[seat].bit();
        for sq in self.by_owner[seat] & !king {
            let piece = self.remove(sq);
            self.put(sq, piece.with_owner(heir));
        }
        for h in 0..4 {
            let n = self.hands[seat][h];
            if n > 0 {
                self.set_hand(seat, h, 0);
                self.set_hand(heir, h, self.hands[heir][h] + n);
            }
        }
    }

    /// The key from scratch (pieces, hands, flipped kings).
    pub fn compute_key(&self) -> u64 {
        let mut key = 0;
        for sq in self.occupied {
            key ^= piece_key(self.at(sq), sq);
        }
        for seat in Seat::all(4) {
            for h in 0..4 {
                key ^= hand_key(seat, h, 0) ^ hand_key(seat, h, self.hands[seat][h]);
            }
            if !self.is_alive(seat) {
                key ^= FLIP_KEYS[seat];
            }
        }
        key
    }

    /// The squares `piece` on `sq` attacks here.
    #[inline]
    pub fn attacks_of(&self, piece: Piece, sq: Square) -> Bitboard {
        piece_attacks(piece, sq, self.occupied)
    }

    /// Rule 17: own board pieces (king included), the hand and the flipped kings
    /// of the seats this one mated (`mated` is their number).
    pub fn total(&self, seat: Seat, mated: u32) -> u32 {
        let board = if self.is_alive(seat) {
            self.counts[seat].iter().map(|&n| n as u32).sum()
        } else {
            0
        };
        let hand: u32 = self.hands[seat].iter().map(|&n| n as u32).sum();
        board + hand + mated
    }
}
