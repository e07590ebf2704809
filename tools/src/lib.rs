//! Tools built on the engine.
