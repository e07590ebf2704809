//! Ban-Sugoroku as the session plays it: expectimax over the dice, perft over
//! the rolls, and no search before the side to move has rolled.

use super::{RaceTables, Sugoroku};
use crate::core::{Game, HouseRules, OptionError, OptionSpec};
use crate::profile::{Levels, Profile};
use crate::search::expecti::{self, Expectimax};
use crate::search::Odds;
use crate::session::{ParamsOf, Playable, SEARCH_ALGORITHM};

const SEARCH_OPTIONS: &[OptionSpec] = &[OptionSpec::combo(
    SEARCH_ALGORITHM,
    expecti::ALGORITHMS[0],
    expecti::ALGORITHMS,
)];

impl Playable for Sugoroku {
    /// Its own pips moved plus the pips an opponent's stone loses when hit,
    /// counted to point 6 under `SugorokuFinish=allhome` (a stone home is
    /// done) and to off under `bearoff`.
    fn immediate_gain(&self, mv: Self::Move) -> i64 {
        use crate::sugoroku::{Finish, BAR, HOME};
        let to_go = |pos: &Self, seat| -> i64 {
            match pos.rules().finish {
                Finish::BearOff => i64::from(pos.pips(seat)),
                Finish::AllHome => (HOME + 1..=BAR)
                    .map(|p| i64::from(p - HOME) * i64::from(pos.count(seat, p)))
                    .sum(),
            }
        };
        let (us, them) = (self.side_to_move(), self.side_to_move().other());
        let mut after = *self;
        after.make(mv);
        (to_go(self, us) - to_go(&after, us)) + (to_go(&after, them) - to_go(self, them))
    }
    type Searcher = Expectimax<super::SugorokuEval>;

    const PROFILE: Profile = Profile {
        has_chance: true,
        // Its triple win.
        max_points: 3,
        bench: &[
            "2w/0/0/0/0/5b/0/3b/0/0/0/5w/5b/0/0/0/3w/0/5w/0/0/0/0/2b 0/0 0/0 b 52 1",
            "0/0/0/0/0/5b/0/3b/0/0/0/5w/5b/0/0/0/3w/0/5w/0/0/1w/0/2b 0/1 0/0 b 55 12",
            "0/2b/2b/2b/1w/3b/0/2b/0/0/1w/4w/2b/0/0/0/3w/0/5w/0/0/1w/2b/0 0/0 0/0 b 63 20",
        ],
        bench_depth: 3,
        // A node is a position with its dice; each level sums the 21 rolls.
        perft_bench: &[
            (
                "2w/0/0/0/0/5b/0/3b/0/0/0/5w/5b/0/0/0/3w/0/5w/0/0/0/0/2b 0/0 0/0 b - 1",
                3,
            ),
            (
                "0/2b/2b/2b/1w/3b/0/2b/0/0/1w/4w/2b/0/0/0/3w/0/5w/0/0/1w/2b/0 0/0 0/0 b - 20",
                3,
            ),
        ],
        review: crate::review::ReviewScale::SUGOROKU,
        levels: Levels {
            // Measured: docs/cpu-seats.md (`match ladder`, 200 games a pair,
            // 2026-12-07, the gen9 network; greedy's +339 from 2026-12-03).
            elo: &[
                80, 143, 188, 237, 300, 328, 391, 425, 432, 517, 632, 684, 708, 782, 806, 809, 858,
                903, 928, 928, 990,
            ],
            // Evenly spaced, its levels gained 31-111 Elo a step up to level 14 and
            // nothing from level 15 (about 16 000 nodes a move) on: placed by
            // inverting that ladder's curve, made monotone and smoothed over
            // neighbouring steps, so that each step is worth about 49 Elo.
            spacing: &[
                0.000, 0.054, 0.090, 0.119, 0.153, 0.192, 0.225, 0.256, 0.296, 0.341, 0.382, 0.418,
                0.454, 0.487, 0.518, 0.549, 0.581, 0.628, 0.690, 0.743,
            ],
            // Level 0 must lose to a one-ply greedy player (docs/cpu-seats.md):
            // the network at one ply is strong, so more noise than in shogi.
            noise: 600,
            blind_permille: 600,
            ..Levels::UNMEASURED
        },
        ..Profile::new(
            "sugoroku",
            "2w/0/0/0/0/5b/0/3b/0/0/0/5w/5b/0/0/0/3w/0/5w/0/0/0/0/2b 0/0 0/0 b - 1",
        )
    };

    /// The race table of the finish rule in use, built in the background.
    fn prepare_evaluation(rules: &super::SugorokuRules, params: &mut ParamsOf<Self>, wait: bool) {
        params.eval.race_tables = if wait {
            RaceTables::Wait
        } else {
            RaceTables::IfBuilt
        };
        if params.eval.evaluation == super::Evaluation::Network {
            super::race::prepare(rules.finish);
        }
    }

    fn perft(&self, depth: u32, _bulk: bool) -> u64 {
        super::perft(self, depth)
    }

    fn search_options() -> &'static [OptionSpec] {
        SEARCH_OPTIONS
    }

    fn eval_options() -> &'static [OptionSpec] {
        <super::SugorokuEval as HouseRules>::specs()
    }

    fn set_eval_option(
        params: &mut ParamsOf<Self>,
        name: &str,
        value: &str,
    ) -> Result<bool, OptionError> {
        params.eval.set(name, value)
    }

    fn divide(&self, depth: u32) -> Vec<(String, u64)> {
        super::divide(self, depth)
    }

    /// The evaluation's result probabilities for the side to move after `mv`.
    fn odds_after(&self, mv: super::SugorokuMove, params: &ParamsOf<Self>) -> Option<Odds> {
        let mut after = *self;
        after.make(mv);
        let p = super::race::outcomes(params.eval.network(), &after, params.eval.race_tables)
            .flipped()
            .to_array()
            .map(|v| (v * 1000.0).round() as i32);
        Some(Odds {
            win: p[0],
            win2: p[1],
            win3: p[2],
            lose2: p[3],
            lose3: p[4],
        })
    }
}
