//! Annan rule tests on hand-built positions.

use super::*;
use crate::core::Game;
use crate::perft::perft;

#[test]
fn perft_from_start() {
    let mut pos = Annan::start(&AnnanRules::default());
    for (depth, count) in [(1, 32), (2, 1_023), (3, 32_008)] {
        assert_eq!(perft(&mut pos, depth), count, "depth {depth}");
    }
}

#[test]
fn perft_depth_4_under_both_dead_piece_settings() {
    let mut pos = Annan::start(&AnnanRules::default());
    assert_eq!(perft(&mut pos, 4), 1_002_013);
    let forbid = AnnanRules {
        dead_piece: DeadPiece::Forbid,
        ..AnnanRules::default()
    };
    let mut pos = Annan::start(&forbid);
    assert_eq!(perft(&mut pos, 4), 1_002_012);
}

#[test]
#[ignore = "deep perft"]
fn perft_depth_5() {
    let mut pos = Annan::start(&AnnanRules::default());
    assert_eq!(perft(&mut pos, 5), 31_324_744);
}
