//! The tools' library, by product: the match runner (engines as processes
//! speaking the protocol, refereed by the engine library's rules, and the
//! ladder that calibrates strength levels with it), the results file it
//! writes and reads, the statistics it reports, the SPSA tuner that moves
//! engine parameters by playing the engine against itself, the Sugoroku
//! network's trainer, the protocol fuzzer, and the seat pool that serves many
//! games' moves from a few engine processes.

pub mod fuzz;
pub mod json;
pub mod pool;
pub mod results;
pub mod runner;
pub mod stats;
pub mod train;
pub mod tune;
