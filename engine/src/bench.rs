//! `bench`: the search's signature. Fixed positions at a fixed depth give one node
//! count per game; a functional change that moves it says so and why.

use crate::registry::GAMES;
use crate::session::BenchReport;

/// Bench reports for every registered game.
pub fn all(depth: Option<u32>) -> Vec<(&'static str, BenchReport)> {
    GAMES
        .iter()
        .map(|game| (game.name(), (game.new_session)().bench(depth)))
        .collect()
}
