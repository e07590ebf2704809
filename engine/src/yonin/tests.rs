//! Yonin rule tests on hand-built positions.

use super::*;
use crate::core::Game;
use crate::perft::perft;

#[test]
fn perft_from_start() {
    let mut pos = Yonin::start(&YoninRules::default());
    for (depth, count) in [(1, 9), (2, 81), (3, 729), (4, 6_561)] {
        assert_eq!(perft(&mut pos, depth), count, "depth {depth}");
    }
}

#[test]
fn perft_depth_5() {
    let mut pos = Yonin::start(&YoninRules::default());
    assert_eq!(perft(&mut pos, 5), 82_134);
}
