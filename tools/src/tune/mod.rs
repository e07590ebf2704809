//! The tuner (`match tune`): SPSA over engine parameters, each iteration a
//! match of the engine against itself played by the runner.

pub mod spsa;
