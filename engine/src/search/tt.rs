//! Transposition table (to be written).
