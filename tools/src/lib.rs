//! The tools' library: the match runner (engines as processes speaking the
//! protocol, refereed by the engine library's rules), its statistics, the
//! ladder that calibrates strength levels with it, and the SPSA tuner that
//! moves engine parameters by playing the engine against itself, and the seat
//! pool that serves many games' moves from a few engine processes.

pub mod config;
pub mod engine;
pub mod fit;
pub mod fuzz;
pub mod game;
pub mod generations;
pub mod json;
pub mod ladder;
pub mod pool;
pub mod record;
pub mod report;
pub mod results;
pub mod runner;
pub mod schedule;
pub mod spsa;
pub mod stats;
pub mod train;
