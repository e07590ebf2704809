//! The weakness pinned: what each game's searcher finds, searching deep
//! enough to reach quiescence and every kind of node, for players that
//! overlook moves, misjudge positions or both (the levels' own play through
//! the sessions is pinned in `tests/levels.rs`). A change to which moves are
//! overlooked or how far an evaluation is off shows here in the moves,
//! scores and node counts.

use super::Weakness;
use crate::registry::{for_each_game, GameEntry, GameVisitor};
use crate::search::{Limits, SearchConfig, SearchControl, SearchResult, Searcher};
use crate::session::Playable;

/// The most nodes a pinned search reads.
const NODES: u64 = 30_000;

/// `pos` searched within `limits` by a player with `weakness`.
fn weak_search<G: Playable>(
    searcher: &mut G::Searcher,
    pos: &G,
    weakness: Weakness,
    limits: &Limits<G::Move>,
) -> SearchResult<G::Move> {
    Searcher::<G>::weaken(searcher, Some(weakness));
    Searcher::<G>::search(
        searcher,
        pos,
        limits,
        &SearchControl::new(false),
        &mut |_| {},
    )
}

/// Every pinned search of every game, as lines of the table.
struct Pinned(Vec<String>);

impl GameVisitor for Pinned {
    fn visit<G: Playable>(&mut self, _: &'static GameEntry) {
        let levels = G::PROFILE.levels;
        let (noise, blind) = (levels.noise, levels.blind_permille);
        let weaknesses = [
            ("both", noise, blind),
            ("quarter", noise / 4, blind / 4),
            ("blind", 0, blind),
            ("noisy", noise, 0),
        ];
        let depth = G::PROFILE.bench_depth - 1;
        let rules = G::Rules::default();
        for (index, sfen) in G::PROFILE.bench.iter().enumerate() {
            let pos = G::from_sfen(sfen, &rules).unwrap();
            for multipv in [1, 3] {
                let config = SearchConfig {
                    multipv,
                    ..SearchConfig::default()
                };
                let mut searcher = <G::Searcher as Searcher<G>>::new(&config);
                for (seed, &(name, noise, blind_permille)) in weaknesses.iter().enumerate() {
                    let weakness = Weakness {
                        noise,
                        blind_permille,
                        seed: seed as u64 + 1,
                    };
                    let mut limits = Limits::<G::Move> {
                        nodes: Some(NODES),
                        ..Limits::depth(depth)
                    };
                    if index == 0 && multipv == 1 {
                        // Asked to choose among two root moves only.
                        let mut moves = crate::core::MoveList::new();
                        pos.generate_moves(&mut moves);
                        limits.searchmoves = moves.iter().take(2).copied().collect();
                    }
                    Searcher::<G>::clear(&mut searcher);
                    let result = weak_search(&mut searcher, &pos, weakness, &limits);
                    let shown =
                        |mv: Option<G::Move>| mv.map_or("-".into(), |mv| pos.format_move(mv));
                    self.0.push(format!(
                        "{} p{index} pv{multipv} {name}: {} {} {:?} d{} n{}",
                        G::PROFILE.name,
                        shown(result.best),
                        shown(result.ponder),
                        result.score,
                        result.depth,
                        result.nodes,
                    ));
                }
            }
        }
    }
}

const EXPECTED: &[&str] = &[
    "hasami p0 pv1 both: 9i9c - Cp(163) d4 n30720",
    "hasami p0 pv1 quarter: 9i9c - Cp(39) d4 n30720",
    "hasami p0 pv1 blind: 9i9b 1a1f Cp(13) d5 n7872",
    "hasami p0 pv1 noisy: 9i9c 9a9b Cp(-244) d4 n30720",
    "hasami p0 pv3 both: 1i1e 9a9b Cp(-236) d3 n30720",
    "hasami p0 pv3 quarter: 1i1h 9a9f Cp(-64) d3 n30720",
    "hasami p0 pv3 blind: 9i9e 1a1c Cp(18) d4 n30720",
    "hasami p0 pv3 noisy: 1i1e 9a9d Cp(11) d3 n30720",
    "hasami p1 pv1 both: 1i1d 1a1b Cp(-147) d3 n30720",
    "hasami p1 pv1 quarter: 1i1d 1a1c Cp(-53) d3 n30720",
    "hasami p1 pv1 blind: 1i1d 1a1b Cp(18) d5 n29789",
    "hasami p1 pv1 noisy: 1i1h 9a9b Cp(174) d3 n30720",
    "hasami p1 pv3 both: 1i1d 1a1b Cp(-141) d3 n30720",
    "hasami p1 pv3 quarter: 1i1d 9a9b Cp(-32) d3 n30720",
    "hasami p1 pv3 blind: 1i1d - Cp(18) d4 n30720",
    "hasami p1 pv3 noisy: 1i1h 9a9b Cp(280) d2 n30720",
    "hasami p2 pv1 both: 5c5b 9i9f Cp(-172) d3 n30720",
    "hasami p2 pv1 quarter: 1a1e 9i9e Cp(-29) d3 n30720",
    "hasami p2 pv1 blind: 1a1c 9i9f Cp(10) d4 n30720",
    "hasami p2 pv1 noisy: 1a1b 7d4d Cp(207) d3 n30720",
    "hasami p2 pv3 both: 5c5b 1g1h Cp(-171) d3 n30720",
    "hasami p2 pv3 quarter: 1a1e 9i9e Cp(-29) d3 n30720",
    "hasami p2 pv3 blind: 1a1c 9i9c Cp(0) d4 n30720",
    "hasami p2 pv3 noisy: 1a1b 7d4d Cp(275) d2 n30720",
    "hasami p3 pv1 both: 9i9h 1a1d Cp(-168) d3 n30720",
    "hasami p3 pv1 quarter: 1i1d 2d2a Cp(-22) d3 n30720",
    "hasami p3 pv1 blind: 9i9d 1a1f Cp(41) d5 n19426",
    "hasami p3 pv1 noisy: 4h4d 9a5a Cp(77) d3 n30720",
    "hasami p3 pv3 both: 9i9h 1a1d Cp(-164) d3 n30720",
    "hasami p3 pv3 quarter: 1i1d 2d2a Cp(-23) d3 n30720",
    "hasami p3 pv3 blind: 9i9d 1a1f Cp(0) d4 n30720",
    "hasami p3 pv3 noisy: 4h4d 9a5a Cp(213) d3 n30720",
    "annan p0 pv1 both: 9g9f 1a1b Cp(-89) d5 n5201",
    "annan p0 pv1 quarter: 8g4c+ 8c8h Cp(-420) d5 n11376",
    "annan p0 pv1 blind: 8g4c+ 8c8h+ Cp(-714) d5 n2918",
    "annan p0 pv1 noisy: 9g9f 8c8g+ Cp(-559) d5 n25591",
    "annan p0 pv3 both: 2g2c+ 9a9b Cp(703) d4 n30720",
    "annan p0 pv3 quarter: 2g2c+ 2b1d Cp(465) d4 n30720",
    "annan p0 pv3 blind: 6i7h 4a3b Cp(141) d5 n24440",
    "annan p0 pv3 noisy: 2g2c+ 2b1d Cp(991) d3 n30720",
    "annan p1 pv1 both: 2g2c+ 4a3b Cp(1689) d5 n29630",
    "annan p1 pv1 quarter: S*7a 8b7d Cp(1670) d4 n30720",
    "annan p1 pv1 blind: S*3b 1a1b Cp(1567) d5 n28899",
    "annan p1 pv1 noisy: 2g2c+ 3d2c Cp(1262) d3 n30720",
    "annan p1 pv3 both: 2g2c+ 4a3b Cp(1689) d4 n30720",
    "annan p1 pv3 quarter: S*7a 8b7d Cp(1506) d3 n30720",
    "annan p1 pv3 blind: S*3b 1a1b Cp(1567) d4 n30720",
    "annan p1 pv3 noisy: 2g2c+ 3d2c Cp(1505) d3 n30720",
    "annan p2 pv1 both: P*4b 2b2h+ Cp(1286) d5 n20931",
    "annan p2 pv1 quarter: 1b4e+ 2b2i+ Cp(1135) d4 n30720",
    "annan p2 pv1 blind: 1b2a 2b2c Mate(5) d5 n6048",
    "annan p2 pv1 noisy: 1b5f+ 2b2g Cp(1208) d4 n30720",
    "annan p2 pv3 both: P*4b 2b2h+ Cp(1286) d5 n22712",
    "annan p2 pv3 quarter: 1b4e+ 2b2i+ Cp(1135) d4 n30720",
    "annan p2 pv3 blind: 1b2a 2b2c Mate(5) d5 n28035",
    "annan p2 pv3 noisy: 1b5f+ 2b2g Cp(1208) d4 n30720",
    "yonin p0 pv1 both: 6h6g 8d7d Cp(-306) d4 n595",
    "yonin p0 pv1 quarter: 5g5f 8f7f Cp(-84) d4 n531",
    "yonin p0 pv1 blind: 6h6g - Cp(27) d4 n336",
    "yonin p0 pv1 noisy: 5g5f 7e6e Cp(-10) d4 n1526",
    "yonin p0 pv3 both: 6i7h - Cp(-268) d4 n1382",
    "yonin p0 pv3 quarter: 4i3h - Cp(-49) d4 n3716",
    "yonin p0 pv3 blind: 6i7h 8f7f Cp(28) d4 n1326",
    "yonin p0 pv3 noisy: 5g5f - Cp(8) d4 n6952",
    "yonin p1 pv1 both: G*9d 9e8f Cp(2530) d4 n30654",
    "yonin p1 pv1 quarter: 7c7g+ P*6i Cp(2228) d3 n30720",
    "yonin p1 pv1 blind: P*1f 1e1f Cp(2214) d4 n28113",
    "yonin p1 pv1 noisy: 7c7g+ P*6i Cp(1879) d3 n30720",
    "yonin p1 pv3 both: G*9d 9e8f Cp(2530) d4 n25646",
    "yonin p1 pv3 quarter: 7c7g+ P*6i Cp(2228) d3 n30720",
    "yonin p1 pv3 blind: P*1f 1e1f Cp(2214) d4 n29737",
    "yonin p1 pv3 noisy: 7c7g+ P*6i Cp(1879) d3 n30720",
    "yonin p2 pv1 both: 5h7h 7g6f Cp(474) d4 n2451",
    "yonin p2 pv1 quarter: 3h2i 7h6i Cp(-28) d4 n4225",
    "yonin p2 pv1 blind: 3i2i - Cp(1161) d4 n3453",
    "yonin p2 pv1 noisy: 3i2i 7h6i Cp(-616) d4 n6282",
    "yonin p2 pv3 both: 5h7h 7g6f Cp(474) d4 n4401",
    "yonin p2 pv3 quarter: 3h2i 7h6i Cp(-28) d4 n8758",
    "yonin p2 pv3 blind: 3i2i - Cp(1161) d4 n6540",
    "yonin p2 pv3 noisy: 3i2i 7h6i Cp(-616) d4 n11358",
    "yonin p3 pv1 both: 4g4h P*9d Cp(136) d4 n8582",
    "yonin p3 pv1 quarter: 4g3g - Cp(567) d4 n19860",
    "yonin p3 pv1 blind: 4g3g P*8c Cp(604) d4 n5597",
    "yonin p3 pv1 noisy: 8a7a 6a7a Cp(150) d4 n23439",
    "yonin p3 pv3 both: 4g4h P*9d Cp(136) d4 n18126",
    "yonin p3 pv3 quarter: 4g3g - Cp(567) d4 n29326",
    "yonin p3 pv3 blind: 4g3g P*8c Cp(604) d4 n14287",
    "yonin p3 pv3 noisy: 8a7a 6a7a Cp(150) d3 n30720",
    "sugoroku p0 pv1 both: 13/8,13/11 - Points(-193) d2 n109",
    "sugoroku p0 pv1 quarter: 13/8,13/11 - Points(-49) d2 n228",
    "sugoroku p0 pv1 blind: 13/8,13/11 - Points(41) d2 n263",
    "sugoroku p0 pv1 noisy: 13/8,13/11 - Points(-396) d2 n570",
    "sugoroku p0 pv3 both: 13/8,13/11 - Points(-193) d2 n386",
    "sugoroku p0 pv3 quarter: 13/8,13/11 - Points(-49) d2 n1192",
    "sugoroku p0 pv3 blind: 13/8,13/11 - Points(41) d2 n400",
    "sugoroku p0 pv3 noisy: 13/8,24/22 - Points(-398) d2 n878",
    "sugoroku p1 pv1 both: 6/1,6/1 - Points(-95) d2 n137",
    "sugoroku p1 pv1 quarter: 13/8,8/3 - Points(-139) d2 n212",
    "sugoroku p1 pv1 blind: 6/1,6/1 - Points(-97) d2 n214",
    "sugoroku p1 pv1 noisy: 8/3,8/3 - Points(-171) d2 n232",
    "sugoroku p1 pv3 both: 6/1,6/1 - Points(-95) d2 n209",
    "sugoroku p1 pv3 quarter: 13/8,8/3 - Points(-139) d2 n319",
    "sugoroku p1 pv3 blind: 6/1,6/1 - Points(-97) d2 n214",
    "sugoroku p1 pv3 noisy: 8/3,8/3 - Points(-171) d2 n350",
    "sugoroku p2 pv1 both: 8/2,8/5 - Points(756) d2 n454",
    "sugoroku p2 pv1 quarter: 13/7,8/5 - Points(1263) d2 n155",
    "sugoroku p2 pv1 blind: 13/7,8/5 - Points(1324) d2 n64",
    "sugoroku p2 pv1 noisy: 13/7,8/5 - Points(986) d2 n96",
    "sugoroku p2 pv3 both: 8/2,8/5 - Points(756) d2 n455",
    "sugoroku p2 pv3 quarter: 13/7,8/5 - Points(1263) d2 n522",
    "sugoroku p2 pv3 blind: 13/7,8/5 - Points(1324) d2 n413",
    "sugoroku p2 pv3 noisy: 13/7,8/5 - Points(986) d2 n909",
];

#[test]
fn a_weak_players_searches_are_as_pinned() {
    let mut pinned = Pinned(Vec::new());
    for_each_game(&mut pinned);
    let table: String = pinned
        .0
        .iter()
        .map(|line| format!("    {line:?},\n"))
        .collect();
    assert!(
        pinned
            .0
            .iter()
            .map(String::as_str)
            .eq(EXPECTED.iter().copied()),
        "the weak searches changed; now:\n{table}"
    );
}
