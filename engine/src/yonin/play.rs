//! Yonin as the session plays it: the multi-player searchers, chosen by option.

use super::Yonin;
use crate::core::{OptionSpec, Seat};
use crate::search::multi::{self, MultiSearch};
use crate::session::{Playable, SEARCH_ALGORITHM};

const SEARCH_OPTIONS: &[OptionSpec] = &[OptionSpec::combo(
    SEARCH_ALGORITHM,
    multi::DEFAULT_ALGORITHM,
    multi::ALGORITHMS,
)];

impl Playable for Yonin {
    type Searcher = MultiSearch;

    const BENCH_POSITIONS: &'static [&'static str] = &[
        super::START_SFEN,
        "8k2/8G0/7S01/9/K17K3/6P0@22/9/9/4K04 2P/-/-/- 3 2:0 0 2",
    ];
    const BENCH_DEPTH: u32 = 4;

    fn seat_name(seat: Seat) -> &'static str {
        ["0", "1", "2", "3"][seat as usize]
    }

    fn search_options() -> &'static [OptionSpec] {
        SEARCH_OPTIONS
    }
}
