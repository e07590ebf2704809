//! Seats at the table, and values kept one per seat.

use std::fmt;
use std::ops::{Index, IndexMut};

/// A seat at the table: 0 is the first player (black / sente / South). A game
/// seats at most [`Seat::MAX`]. Shown as its number, as the protocol writes it.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
#[repr(transparent)]
pub struct Seat(u8);

impl Seat {
    /// The most seats a game can have: the capacity of [`PerSeat`].
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
    pub fn all(seats: usize) -> impl Iterator<Item = Seat> {
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

/// One value per seat, room for [`Seat::MAX`] seats whatever the game seats
/// (the ones past its seats unused), indexed by [`Seat`]. Ordered as the array
/// of values in seat order (max-n's fixed tie-break).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
#[repr(transparent)]
pub struct PerSeat<T>([T; Seat::MAX]);

impl<T> PerSeat<T> {
    pub const fn new(values: [T; Seat::MAX]) -> Self {
        PerSeat(values)
    }

    pub fn from_fn(mut f: impl FnMut(Seat) -> T) -> Self {
        PerSeat(std::array::from_fn(|i| f(Seat::new(i))))
    }

    /// The values in seat order, every slot.
    pub fn iter(&self) -> std::slice::Iter<'_, T> {
        self.0.iter()
    }

    pub fn iter_mut(&mut self) -> std::slice::IterMut<'_, T> {
        self.0.iter_mut()
    }

    pub fn map<U>(self, f: impl FnMut(T) -> U) -> PerSeat<U> {
        PerSeat(self.0.map(f))
    }

    pub fn into_array(self) -> [T; Seat::MAX] {
        self.0
    }
}

impl<T: Copy> PerSeat<T> {
    /// The same value for every seat.
    pub const fn splat(value: T) -> Self {
        PerSeat([value; Seat::MAX])
    }
}

impl<T> From<[T; Seat::MAX]> for PerSeat<T> {
    fn from(values: [T; Seat::MAX]) -> Self {
        PerSeat(values)
    }
}

impl<T> Index<Seat> for PerSeat<T> {
    type Output = T;
    #[inline]
    fn index(&self, seat: Seat) -> &T {
        &self.0[seat.index()]
    }
}

impl<T> IndexMut<Seat> for PerSeat<T> {
    #[inline]
    fn index_mut(&mut self, seat: Seat) -> &mut T {
        &mut self.0[seat.index()]
    }
}

impl<T> IntoIterator for PerSeat<T> {
    type Item = T;
    type IntoIter = std::array::IntoIter<T, { Seat::MAX }>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

impl<'a, T> IntoIterator for &'a PerSeat<T> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

/// The array's form, `[a, b, c, d]`, as before.
impl<T: fmt::Debug> fmt::Debug for PerSeat<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seats_print_as_numbers_and_go_round() {
        let seat = Seat::new(3);
        assert_eq!(format!("{seat} {seat:?}"), "3 3");
        assert_eq!(seat.after(1, 4), Seat::FIRST);
        assert_eq!(Seat::SECOND.after(1, 2), Seat::FIRST);
        assert_eq!(Seat::FIRST.other(), Seat::SECOND);
        assert_eq!(Seat::new(1).after(3, 4), Seat::FIRST);
        assert_eq!(Seat::all(3).map(Seat::index).collect::<Vec<_>>(), [0, 1, 2]);
    }

    #[test]
    fn per_seat_is_indexed_by_seat() {
        let mut places = PerSeat::new([1u8, 2, 3, 4]);
        places[Seat::new(2)] = 9;
        assert_eq!(format!("{places:?}"), "[1, 2, 9, 4]");
        assert_eq!(places.iter().sum::<u8>(), 16);
        assert_eq!(PerSeat::from_fn(Seat::index), PerSeat::new([0, 1, 2, 3]));
        assert_eq!(std::mem::size_of::<PerSeat<u8>>(), 4);
    }
}
