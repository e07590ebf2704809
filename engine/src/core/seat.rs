//! Seats at the table.

use std::fmt;

/// A seat at the table: 0 is the first player (black / sente / South). A game
/// seats at most [`Seat::MAX`]. Shown as its number, as the protocol writes it.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
#[repr(transparent)]
pub struct Seat(u8);

impl Seat {
    /// The most seats a game can have.
    pub const MAX: usize = 4;
    pub const FIRST: Seat = Seat(0);
    pub const SECOND: Seat = Seat(1);

    /// Seat `n`, counting from 0; `n` must be below [`Seat::MAX`].
    #[inline]
    pub const fn new(n: usize) -> Seat {
        debug_assert!(n < Seat::MAX);
        Seat(n as u8)
    }

    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The opponent in a two-player game.
    #[inline]
    pub const fn other(self) -> Seat {
        Seat(self.0 ^ 1)
    }

    /// The seat after this one around a table of `seats`.
    #[inline]
    pub const fn next(self, seats: usize) -> Seat {
        Seat::new((self.0 as usize + 1) % seats)
    }

    /// The seat `k` places after this one around a table of `seats`.
    #[inline]
    pub const fn after(self, k: usize, seats: usize) -> Seat {
        Seat::new((self.0 as usize + k) % seats)
    }

    /// This seat's bit in a set of seats kept as a mask.
    #[inline]
    pub const fn bit(self) -> u8 {
        1 << self.0
    }

    /// Every seat of a table of `seats`, in order.
    pub fn all(seats: usize) -> impl DoubleEndedIterator<Item = Seat> + Clone {
        (0..seats.min(Seat::MAX)).map(Seat::new)
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

/// The number alone, as before seats had a type of their own (test messages
/// and logs compare it).
impl fmt::Debug for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.0, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seats_print_as_numbers_and_go_round() {
        let seat = Seat::new(3);
        assert_eq!(format!("{seat} {seat:?}"), "3 3");
        assert_eq!(seat.next(4), Seat::FIRST);
        assert_eq!(Seat::SECOND.next(2), Seat::FIRST);
        assert_eq!(Seat::FIRST.other(), Seat::SECOND);
        assert_eq!(Seat::new(1).after(3, 4), Seat::FIRST);
        assert_eq!(Seat::all(3).map(Seat::index).collect::<Vec<_>>(), [0, 1, 2]);
    }
}
