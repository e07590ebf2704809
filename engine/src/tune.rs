//! Tunables: the search and evaluation parameters a tuner may move, each named
//! once where the code that reads it lives, settable as the engine option of
//! that name (`setoption name Tune_AspirationDelta value 40`) and listed by
//! `usi` only after `setoption name ShowTunables value true`.
//!
//! Values are process-wide, like the engine they tune: one engine process plays
//! one game at a time. Code that runs two differently tuned engines in one
//! process (in-process self-play) cannot use them.

use crate::core::OptionSpec;
use std::sync::atomic::{AtomicI32, Ordering};

/// One named integer parameter with its default and range.
#[derive(Debug)]
pub struct Tunable {
    /// The option name, `Tune_` and the parameter's name.
    pub name: &'static str,
    pub default: i32,
    pub min: i32,
    pub max: i32,
    value: AtomicI32,
}

impl Tunable {
    pub const fn new(name: &'static str, default: i32, min: i32, max: i32) -> Tunable {
        Tunable {
            name,
            default,
            min,
            max,
            value: AtomicI32::new(default),
        }
    }

    /// The current value: one relaxed load, cheap enough for any hot path.
    #[inline]
    pub fn get(&self) -> i32 {
        self.value.load(Ordering::Relaxed)
    }

    /// Sets the value, or says why not (outside the range).
    pub fn set(&self, value: i32) -> Result<(), String> {
        if !(self.min..=self.max).contains(&value) {
            return Err(format!(
                "{} must be within {}..{}, not {value}",
                self.name, self.min, self.max
            ));
        }
        self.value.store(value, Ordering::Relaxed);
        Ok(())
    }

    pub fn reset(&self) {
        self.value.store(self.default, Ordering::Relaxed);
    }

    /// How `usi` announces it.
    pub fn spec(&self) -> OptionSpec {
        OptionSpec::spin(
            self.name,
            self.default as i64,
            self.min as i64,
            self.max as i64,
        )
    }
}

/// The engine option that makes `usi` list the tunables.
pub const SHOW_TUNABLES: &str = "ShowTunables";

/// The prefix every tunable's name starts with.
pub const PREFIX: &str = "Tune_";

/// The tunable of that name (any case) among `tunables`.
pub fn find(tunables: &[&'static Tunable], name: &str) -> Option<&'static Tunable> {
    tunables
        .iter()
        .copied()
        .find(|t| t.name.eq_ignore_ascii_case(name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tunable_takes_values_in_its_range_only() {
        static T: Tunable = Tunable::new("Tune_Test", 5, 1, 9);
        assert_eq!(T.get(), 5);
        assert!(T.set(10).is_err());
        assert_eq!(T.get(), 5);
        T.set(9).unwrap();
        assert_eq!(T.get(), 9);
        T.reset();
        assert_eq!(T.get(), 5);
        assert_eq!(find(&[&T], "tune_test").map(|t| t.name), Some("Tune_Test"));
    }
}
