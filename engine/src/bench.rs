//! `bench`: the search's signature. Fixed positions at a fixed depth give one node
//! count per game; a functional change that moves it says so and why.

use crate::session::{new_session, BenchReport, GAMES};

/// Bench reports for every implemented game.
pub fn all(depth: Option<u32>) -> Vec<(&'static str, BenchReport)> {
    GAMES
        .iter()
        .filter_map(|&game| {
            new_session(game)
                .ok()
                .map(|mut session| (game, session.bench(depth)))
        })
        .collect()
}
