//! Hasami evaluation and the hooks alpha-beta needs.

use super::movegen::HasamiMove;
use super::position::Hasami;
use super::rules::WinCondition;
use crate::core::board9::Bitboard;
use crate::core::{Game, MoveList};
use crate::profile::{Levels, Profile};
use crate::search::alphabeta::AlphaBetaParams;
use crate::search::{TwoPlayerGame, Value};
use crate::session::Playable;
use crate::tune::{Params, Tunable};

/// A stone on the board: the unit.
const STONE: Value = 100;

// The evaluation's tunables (docs/protocol.md, "Tunables"). Tuned by `match
// tune --game hasami --iterations 250 --games 8 --nodes 30000 --seed 9304
// --concurrency 2 --a 30 --params tools/tune/hasami-threats.params` (from the
// hand-set values, 0 for the edges and corners; 2 000 games). Verified at
// 100 ms a move against the engine before the threat, edge and corner terms
// (200 games, seed 51617): +86.9 ± 27.9 Elo (60-11-129), LOS 100 %
// (docs/match.md, "Tuning runs").
/// The evaluator: its weights.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HasamiEval {
    /// Each capture still missing toward the win condition costs this much
    /// more the closer the side is to it (captures near the goal matter more).
    pub near_win: i32,
    /// Per move more than the opponent has.
    pub mobility: i32,
    /// Per stone of the side to move that the opponent could take with its next move.
    pub hanging: i32,
    /// When the opponent has captures on two or more squares (one move parries
    /// one threat, seldom two).
    pub fork: i32,
    /// Per stone on an edge, but a corner, more than the opponent has (an edge
    /// stone can be enclosed along the edge only).
    pub edge: i32,
    /// Per stone in a corner more than the opponent has (two stones take it).
    pub corner: i32,
}

impl Default for HasamiEval {
    fn default() -> Self {
        HasamiEval {
            near_win: 26,
            mobility: 0,
            hanging: 36,
            fork: 17,
            edge: 5,
            corner: -13,
        }
    }
}

impl Params for HasamiEval {
    const TUNABLES: &'static [Tunable<Self>] = &[
        Tunable::new("Tune_HasamiNearWin", 0, 200, |e| &mut e.near_win),
        Tunable::new("Tune_HasamiMobility", 0, 50, |e| &mut e.mobility),
        Tunable::new("Tune_HasamiHanging", 0, 400, |e| &mut e.hanging),
        Tunable::new("Tune_HasamiFork", 0, 400, |e| &mut e.fork),
        Tunable::new("Tune_HasamiEdge", -100, 100, |e| &mut e.edge),
        Tunable::new("Tune_HasamiCorner", -200, 200, |e| &mut e.corner),
    ];
}

/// The corners, and the other squares of the edge.
const CORNERS: Bitboard = edge_squares(true);
const EDGES: Bitboard = edge_squares(false);

const fn edge_squares(corners: bool) -> Bitboard {
    let mut squares = 0u128;
    let mut sq = 0;
    while sq < 81 {
        let (row_on_edge, col_on_edge) = (sq / 9 % 8 == 0, sq % 9 % 8 == 0);
        if (row_on_edge || col_on_edge) && (row_on_edge && col_on_edge) == corners {
            squares |= 1 << sq;
        }
        sq += 1;
    }
    Bitboard(squares)
}

impl TwoPlayerGame for Hasami {
    type Eval = HasamiEval;
    /// Measured on top of late move reductions, at 100 ms a move: +45 ± 50,
    /// +85 ± 47 and +35 ± 62 Elo in runs of 100, 100 and 50 games.
    const NULL_MOVE: bool = true;
    const SEARCH: AlphaBetaParams = AlphaBetaParams::UNTUNED;

    fn evaluate(&self, eval: &HasamiEval) -> Value {
        let (us, them) = (self.side_to_move(), self.side_to_move().other());
        let material =
            (self.stones(us).count() as Value - self.stones(them).count() as Value) * STONE;
        let race = match self.rules().win {
            WinCondition::Five => {
                let ours = self.captured_by(us).min(5) as Value;
                let theirs = self.captured_by(them).min(5) as Value;
                (ours * ours - theirs * theirs) * eval.near_win
            }
            WinCondition::Lead3 | WinCondition::All => 0,
        };
        // Tuned to nothing: not counted unless asked for.
        let mobility = match eval.mobility {
            0 => 0,
            weight => self.mobility_balance(us) as Value * weight,
        };
        let (landings, hanging) = self.threats();
        let threats = -(hanging.count() as Value) * eval.hanging
            - Value::from(landings.has_several()) * eval.fork;
        let balance = |squares: Bitboard| {
            (self.stones(us) & squares).count() as Value
                - (self.stones(them) & squares).count() as Value
        };
        let shape = balance(EDGES) * eval.edge + balance(CORNERS) * eval.corner;
        material + race + mobility + threats + shape
    }

    fn gain(&self, mv: HasamiMove, _: &HasamiEval) -> Value {
        self.captures_of(mv).count() as Value * STONE
    }

    fn make_null(&mut self) -> bool {
        self.make_pass();
        true
    }

    fn unmake_null(&mut self) {
        self.unmake_pass();
    }

    #[inline]
    fn is_tactical(&self, mv: HasamiMove) -> bool {
        // A legal move lands on an empty square: a target exactly when it captures.
        self.cached_capture_targets().has(mv.to)
    }

    fn generate_tactical(&self, moves: &mut MoveList<HasamiMove>) {
        moves.clear();
        if self.capture_winner().is_some() {
            return;
        }
        let targets = self.cached_capture_targets();
        if targets.is_empty() {
            return;
        }
        for from in self.stones(self.side_to_move()) {
            for to in self.destinations(from) & targets {
                moves.push(HasamiMove { from, to });
            }
        }
    }
}

impl Playable for Hasami {
    fn immediate_gain(&self, mv: Self::Move) -> i64 {
        crate::search::TwoPlayerGame::gain(self, mv, &HasamiEval::default()).into()
    }
    type Searcher = crate::search::alphabeta::AlphaBeta<HasamiEval>;

    const PROFILE: Profile = Profile {
        bench: &[
            "ppppppppp/9/9/9/9/9/9/9/PPPPPPPPP b - 1",
            "pppp1pppp/9/4p4/9/9/4P4/9/9/PPPP1PPPP b - 3",
            "1pp1pp1pp/p8/4p4/2P3p2/9/3P1P3/8P/9/PP2P1PP1 w - 20",
            "p7p/2pp1pp2/9/1p2P2p1/9/1P2p2P1/9/2PP1PP2/P7P b - 40",
        ],
        bench_depth: 6,
        perft_bench: &[
            ("ppppppppp/9/9/9/9/9/9/9/PPPPPPPPP b - 1", 5),
            ("1pp1pp1pp/p8/4p4/2P3p2/9/3P1P3/8P/9/PP2P1PP1 w - 20", 5),
        ],
        review: crate::review::ReviewScale::HASAMI,
        levels: Levels {
            // Hasami's strength grows fast with the nodes searched, and unevenly (a
            // step of 18 Elo and one of 239 in its evenly spaced 30-level ladder): 36
            // levels, placed by inverting that ladder's curve, smoothed over
            // neighbouring steps, so that each step is worth about 88 Elo.
            count: 36,
            // Measured: docs/cpu-seats.md (`match ladder`, 200 games a pair, 2026-12-03).
            elo: &[
                1088, 1136, 1196, 1237, 1315, 1385, 1388, 1499, 1558, 1611, 1649, 1752, 1874, 1871,
                1967, 2001, 2112, 2215, 2307, 2399, 2448, 2540, 2589, 2677, 2776, 2825, 2851, 2950,
                3077, 3163, 3287, 3333, 3449, 3556, 3615, 3696, 3779,
            ],
            spacing: &[
                0.000, 0.041, 0.086, 0.144, 0.193, 0.240, 0.337, 0.373, 0.406, 0.437, 0.461, 0.481,
                0.498, 0.515, 0.536, 0.561, 0.594, 0.633, 0.663, 0.685, 0.702, 0.718, 0.734, 0.752,
                0.771, 0.793, 0.813, 0.832, 0.851, 0.870, 0.891, 0.914, 0.938, 0.960, 0.980, 1.000,
            ],
            ..Levels::UNMEASURED
        },
        ..Profile::new("hasami", "ppppppppp/9/9/9/9/9/9/9/PPPPPPPPP b - 1")
    };
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::board9::Square;

    #[test]
    fn the_edge_is_28_squares_and_the_4_corners() {
        for sq in Square::all() {
            let on_edge = [sq.row(), sq.col()].map(|i| i == 0 || i == 8);
            assert_eq!(CORNERS.has(sq), on_edge[0] && on_edge[1], "{sq}");
            assert_eq!(EDGES.has(sq), on_edge[0] != on_edge[1], "{sq}");
        }
        assert_eq!((EDGES.count(), CORNERS.count()), (28, 4));
    }
}
