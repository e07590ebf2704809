//! The USI-like protocol (to be written).
