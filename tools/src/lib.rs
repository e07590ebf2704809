//! The tools' library: the match runner (engines as processes speaking the
//! protocol, refereed by the engine library's rules) and its statistics.

pub mod config;
pub mod engine;
pub mod game;
pub mod json;
pub mod record;
pub mod report;
pub mod runner;
pub mod schedule;
pub mod stats;
pub mod train;
