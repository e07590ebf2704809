//! Time manager (to be written).
pub struct TimeManager;
