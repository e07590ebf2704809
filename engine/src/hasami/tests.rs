//! Rule tests on hand-built positions.

use super::*;
use crate::core::Game;
use crate::perft::perft;

#[test]
fn perft_from_start() {
    let mut pos = Hasami::start(&HasamiRules::default());
    let expected = [1, 63, 3_717, 254_219, 16_599_273];
    for (depth, &count) in expected.iter().enumerate() {
        assert_eq!(perft(&mut pos, depth as u32), count, "depth {depth}");
    }
}
