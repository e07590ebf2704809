//! What `go` asks for.

use std::time::Duration;

/// Clock state from `go btime … wtime … binc … winc … byoyomi …`, per seat.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    pub time_left: [Option<Duration>; 4],
    pub increment: [Duration; 4],
    /// Per-move allowance after the main time is gone (also the site's per-turn limit).
    pub byoyomi: Duration,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub movetime: Option<Duration>,
    pub clock: Option<Clock>,
    /// Search until `stop` (also set while pondering).
    pub infinite: bool,
}

impl Limits {
    pub fn depth(depth: u32) -> Self {
        Limits {
            depth: Some(depth),
            ..Limits::default()
        }
    }
    pub fn nodes(nodes: u64) -> Self {
        Limits {
            nodes: Some(nodes),
            ..Limits::default()
        }
    }
    pub fn movetime(time: Duration) -> Self {
        Limits {
            movetime: Some(time),
            ..Limits::default()
        }
    }
}
