//! Yonin as the session plays it: the multi-player searchers, chosen by option.

use super::eval::YoninEval;
use super::Yonin;
use crate::core::{OptionSpec, PerSeat, Seat};
use crate::profile::{Levels, Profile};
use crate::review::ReviewScale;
use crate::search::multi::{self, MultiSearch};
use crate::session::{Playable, SEARCH_ALGORITHM};

const SEARCH_OPTIONS: &[OptionSpec] = &[OptionSpec::combo(
    SEARCH_ALGORITHM,
    multi::DEFAULT_ALGORITHM,
    multi::ALGORITHMS,
)];

impl Playable for Yonin {
    fn immediate_gain(&self, mv: Self::Move) -> i64 {
        crate::search::MultiPlayerGame::gain(self, mv, &YoninEval::default()).into()
    }
    /// A finished game: its place points (ties share theirs). Otherwise the
    /// max-n shares of the static evaluation (crate::search::multi, "Values")
    /// split the place points still to be had (2, less a mated seat's 0) in
    /// proportion, none above 1: an estimate, the search values one seat only.
    fn place_shares(&self) -> Option<PerSeat<i32>> {
        use crate::core::{Game, GameResult};
        use crate::search::MultiPlayerGame;
        if let Some(outcome) = self.outcome() {
            let GameResult::Places(places) = outcome.result else {
                return None;
            };
            let mut shares = PerSeat::splat(0);
            for (share, &place) in shares.iter_mut().zip(&places) {
                let mine = place as i32;
                let tied = places.iter().filter(|&&p| p as i32 == mine).count() as i32;
                // Places mine … mine + tied − 1, worth (4 − place) / 3 each.
                let sum: i32 = (mine..mine + tied).map(|p| (4 - p) * 1000 / 3).sum();
                *share = sum / tied;
            }
            return Some(shares);
        }
        // The default evaluation's view: a review's estimate, not a tuned engine's.
        let eval = super::eval::YoninEval::default();
        let clamp = multi::MultiParams::default().share_clamp;
        let shares = multi::static_shares(self.evaluate_all(&eval), 4, clamp);
        let alive: Vec<Seat> = Seat::all(4).filter(|&s| self.is_alive(s)).collect();
        let total: i64 = alive.iter().map(|&s| shares[s] as i64).sum();
        let mut points = PerSeat::splat(0);
        for &seat in &alive {
            points[seat] = (2000 * shares[seat] as i64 / total.max(1)).min(1000) as i32;
        }
        Some(points)
    }
    type Searcher = MultiSearch<YoninEval>;

    const PROFILE: Profile = Profile {
        seat_names: &["0", "1", "2", "3"],
        bench: &[
            super::START_SFEN,
            "3G2K2G23/4S24/2R06/9/K16P0K3/3P1@35/2R15S3/9/4K04 GSP/GP/-/S 0 - - 1",
            "3G2K24/2S11R2P2G22/4P2S23/G11P12S31P3G3/K12R11P31K31/G1P11P02S3P3G3/2S11P04/P21S11R0P0S02/2S0G0K01G0R31 -/P/-/- 0 - 3210 41",
            "1R1S2K21G23/1P12R21S32/3P2P2P23/1S1P14P3G3/K12P12S2R31/G1G1P13G3P3K3/4P3@0G1G32/3P3@0R3@0S33/1S3@0S3@02k0S32 -/G/P/- 1 0:3 3210 47",
        ],
        bench_depth: 5,
        perft_bench: &[
            (super::START_SFEN, 6),
            ("3G2K24/2S11R2P2G22/4P2S23/G11P12S31P3G3/K12R11P31K31/G1P11P02S3P3G3/2S11P04/P21S11R0P0S02/2S0G0K01G0R31 -/P/-/- 0 - 3210 41", 4),
        ],
        review: ReviewScale::YONIN,
        levels: Levels {
            // Measured: docs/cpu-seats.md (`match ladder`).
            elo: &[
                131, 163, 169, 193, 212, 241, 248, 280, 285, 307, 308, 326, 338, 362, 405, 426, 461, 482,
                500, 513, 528,
            ],
            // Level 0 must lose to a one-ply greedy player (docs/cpu-seats.md).
            noise: 450,
            blind_permille: 500,
            ..Levels::UNMEASURED
        },
        ..Profile::new("yonin", super::START_SFEN)
    };

    /// The profile's start, with the first seat the rules fix (rule 12).
    fn start(rules: &super::YoninRules) -> Self {
        let mut text = super::START_SFEN.to_string();
        // The seat field is the third; a setting fixes it (rule 12).
        text = text.replacen(" 0 - - 1", &format!(" {} - - 1", rules.first_seat), 1);
        <Yonin as crate::core::Notation>::from_sfen(&text, rules)
            .expect("the start position is valid")
    }

    fn search_options() -> &'static [OptionSpec] {
        SEARCH_OPTIONS
    }
}
