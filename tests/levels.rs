//! The strength levels' play, pinned: the moves, scores, depths and nodes
//! each game's levels give from fixed positions with a fixed seed. Any change
//! to how a level overlooks moves, misjudges positions, reads or chooses
//! shows here; a change meant to alter the levels' play updates the table
//! (the test prints the whole new one).
//!
//! And levels as values: sessions of one game at different levels, searching
//! side by side on their own threads, each give the answers they give alone.

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use yomi_engine::core::options::OptionKind;
use yomi_engine::registry::{new_session, NAMES};
use yomi_engine::search::{Limits, SearchControl};
use yomi_engine::session::GameSession;

/// The most nodes any pinned search reads (the strong levels' budgets are
/// larger): enough for several iterations, quick in a test.
const NODES: u64 = 6_000;
/// Searches in a row from each position: the level's draws (budget, lines,
/// choice, seed of its weakness) move on from one to the next.
const SEARCHES: usize = 2;

/// The game's count of levels (its `Level` option's maximum, full strength).
fn levels(session: &dyn GameSession) -> u32 {
    session
        .option_specs()
        .iter()
        .find(|spec| spec.name == "Level")
        .map(|spec| match spec.kind {
            OptionKind::Spin { max, .. } => max as u32,
            _ => unreachable!("Level is a spin"),
        })
        .expect("a Level option")
}

/// The levels pinned: the weakest, two between and the strongest below full
/// strength.
fn pinned_levels(count: u32) -> [u32; 4] {
    [0, count / 3, 2 * count / 3, count - 1]
}

/// The move lists of the positions searched in `game`: the start and two
/// reached by seeded random moves (a roll played whenever dice are due, so
/// that every position has a player to move).
fn positions(game: &str) -> Vec<Vec<String>> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
    let mut session = new_session(game).unwrap();
    let mut all = Vec::new();
    let mut moves: Vec<String> = Vec::new();
    for plies in [0, 9, 24] {
        while moves.len() < plies || session.state().awaits_chance {
            // A roll is written high die first.
            let dice: [u32; 2] = [rng.gen_range(1..=6), rng.gen_range(1..=6)];
            let legal = session.legal_moves();
            let mv = match session.state().awaits_chance {
                true => format!("{}{}", dice[0].max(dice[1]), dice[0].min(dice[1])),
                false => legal[rng.gen_range(0..legal.len())].clone(),
            };
            session.play(&mv).unwrap();
            moves.push(mv);
        }
        assert!(session.state().outcome.is_none(), "{game}: {moves:?}");
        all.push(moves.clone());
    }
    all
}

/// What one search gave: the move and reply played, and the last `info`
/// line's depth, score and nodes.
fn search(session: &mut dyn GameSession, limits: &Limits) -> String {
    let mut last = String::new();
    let best = session.search(limits, &SearchControl::new(false), &mut |info| {
        last = format!("d{} {:?} n{}", info.depth, info.score, info.nodes)
    });
    format!(
        "{} {} {last}",
        best.best.as_deref().unwrap_or("-"),
        best.ponder.as_deref().unwrap_or("-")
    )
}

/// A session of `game` at `level`, its seed set, at the position `moves` reach.
fn session_at(game: &str, level: u32, moves: &[String]) -> Box<dyn GameSession> {
    let mut session = new_session(game).unwrap();
    session.set_option("Level", &level.to_string()).unwrap();
    session.set_option("Seed", "5").unwrap();
    let moves: Vec<&str> = moves.iter().map(String::as_str).collect();
    session.set_position(None, &moves).unwrap();
    session
}

/// `SEARCHES` searches of the position `moves` reach in `game` at `level`,
/// within `limits`, as lines of the pinned table.
fn searches(
    game: &str,
    level: u32,
    index: usize,
    moves: &[String],
    limits: &Limits,
) -> Vec<String> {
    let mut session = session_at(game, level, moves);
    let only = if limits.searchmoves.is_empty() {
        ""
    } else {
        " only"
    };
    (0..SEARCHES)
        .map(|k| {
            format!(
                "{game} L{level} p{index}{only} #{k}: {}",
                search(&mut *session, limits)
            )
        })
        .collect()
}

/// Every pinned search, in order: each game, position and level, then the
/// same at two levels asked to choose among three root moves only.
fn pinned() -> Vec<String> {
    let mut lines = Vec::new();
    for game in NAMES {
        let count = levels(&*new_session(game).unwrap());
        let positions = positions(game);
        for (index, moves) in positions.iter().enumerate() {
            for level in pinned_levels(count) {
                lines.extend(searches(game, level, index, moves, &Limits::nodes(NODES)));
            }
        }
        let moves = &positions[1];
        let legal = session_at(game, 0, moves).legal_moves();
        let limits = Limits {
            searchmoves: legal.iter().rev().take(3).cloned().collect(),
            ..Limits::nodes(NODES)
        };
        for level in [0, count / 2] {
            lines.extend(searches(game, level, 1, moves, &limits));
        }
    }
    lines
}

const EXPECTED: &[&str] = &[
    "hasami L0 p0 #0: 6i6c - d0 Cp(280) n14",
    "hasami L0 p0 #1: 2i2d - d0 Cp(284) n12",
    "hasami L12 p0 #0: 7i7c - d1 Cp(73) n115",
    "hasami L12 p0 #1: 9i9d 6a6b d2 Cp(-53) n808",
    "hasami L24 p0 #0: 1i1d 9a9e d2 Cp(-12) n675",
    "hasami L24 p0 #1: 1i1e 9a9b d3 Cp(26) n4906",
    "hasami L35 p0 #0: 9i9c 9a9b d3 Cp(18) n5203",
    "hasami L35 p0 #1: 9i9e 9a9b d4 Cp(0) n5723",
    "hasami L0 p1 #0: 8b6b - d0 Cp(298) n14",
    "hasami L0 p1 #1: 9a9b - d0 Cp(309) n12",
    "hasami L12 p1 #0: 9a9c - d1 Cp(125) n117",
    "hasami L12 p1 #1: 8b7b - d1 Cp(107) n125",
    "hasami L24 p1 #0: 5g1g 9i9h d2 Cp(-2) n1641",
    "hasami L24 p1 #1: 9a9c 9i6i d2 Cp(9) n740",
    "hasami L35 p1 #0: 9a9e 1i1c d3 Cp(64) n6058",
    "hasami L35 p1 #1: 9a9e 1i1c d3 Cp(64) n1274",
    "hasami L0 p2 #0: 6e6a - d0 Cp(326) n14",
    "hasami L0 p2 #1: 7c7g - d0 Cp(240) n12",
    "hasami L12 p2 #0: 1g4g 8b8a d2 Cp(-72) n1074",
    "hasami L12 p2 #1: 7h7d 5e5a d2 Cp(-80) n669",
    "hasami L24 p2 #0: 9i9b 3c6c d2 Cp(-19) n1440",
    "hasami L24 p2 #1: 7c7d 9a5a d2 Cp(-35) n1237",
    "hasami L35 p2 #0: 9i9b 3c6c d2 Cp(-35) n566",
    "hasami L35 p2 #1: 9i9b 3c6c d2 Cp(-35) n415",
    "hasami L0 p1 only #0: 5g1g - d1 Cp(12) n7",
    "hasami L0 p1 only #1: 5g2g - d1 Cp(8) n9",
    "hasami L18 p1 only #0: 5g1g 7d9d d3 Cp(64) n2332",
    "hasami L18 p1 only #1: 5g1g 7d9d d3 Cp(66) n2239",
    "annan L0 p0 #0: 2g2c - d0 Cp(459) n14",
    "annan L0 p0 #1: 5i6h - d0 Cp(375) n12",
    "annan L8 p0 #0: 2g2c - d0 Cp(278) n240",
    "annan L8 p0 #1: 7i6h - d0 Cp(179) n208",
    "annan L17 p0 #0: 2g2c+ 2b3d d3 Cp(715) n4529",
    "annan L17 p0 #1: 2g2c+ 2b3d d3 Cp(682) n2157",
    "annan L25 p0 #0: 2g2c+ 2b3d d3 Cp(722) n2078",
    "annan L25 p0 #1: 2g2c+ 2b1d d4 Cp(875) n3475",
    "annan L0 p1 #0: 4a3b - d0 Cp(-4) n14",
    "annan L0 p1 #1: 8g8h - d0 Cp(1210) n12",
    "annan L8 p1 #0: 5d5e - d1 Cp(951) n181",
    "annan L8 p1 #1: 8g8h+ - d1 Cp(1119) n132",
    "annan L17 p1 #0: 5d5e 2c2b+ d3 Cp(868) n2606",
    "annan L17 p1 #1: 5d5e P*8c d3 Cp(1486) n2206",
    "annan L25 p1 #0: 5d5e 2c2b+ d3 Cp(836) n1542",
    "annan L25 p1 #1: 5d5e 2c2b+ d4 Cp(837) n1103",
    "annan L0 p2 #0: 6i7i - d0 Cp(346) n14",
    "annan L0 p2 #1: 4i3h - d0 Cp(310) n12",
    "annan L8 p2 #0: 3e3d - d0 Cp(-108) n240",
    "annan L8 p2 #1: 9f9e - d0 Cp(-84) n208",
    "annan L17 p2 #0: 3e3d 9c9f d2 Cp(-126) n4860",
    "annan L17 p2 #1: 3e3d 1d1e d2 Cp(-147) n5707",
    "annan L25 p2 #0: 3e3d 1d1e d2 Cp(-142) n1279",
    "annan L25 p2 #1: 3e3d 1d1e d2 Cp(-141) n680",
    "annan L0 p1 only #0: 2d2e - d0 Cp(-161) n14",
    "annan L0 p1 only #1: 8g8h - d0 Cp(1210) n12",
    "annan L13 p1 only #0: 8g8h+ 5e5d d2 Cp(674) n773",
    "annan L13 p1 only #1: 8g8h 2c2b+ d2 Cp(477) n715",
    "yonin L0 p0 #0: 6i7h - d1 Cp(379) n7",
    "yonin L0 p0 #1: 5g5f - d1 Cp(287) n3",
    "yonin L6 p0 #0: 6i7h - d2 Cp(-92) n140",
    "yonin L6 p0 #1: 4i3h - d2 Cp(-104) n60",
    "yonin L13 p0 #0: 5g5f 8f7f d4 Cp(189) n2661",
    "yonin L13 p0 #1: 6h6g 9g8g d4 Cp(43) n1878",
    "yonin L19 p0 #0: 5g5f - d4 Cp(152) n2968",
    "yonin L19 p0 #1: 5g5f - d5 Cp(128) n478",
    "yonin L0 p1 #0: 9d8c - d1 Cp(538) n6",
    "yonin L0 p1 #1: 9f8g - d1 Cp(501) n6",
    "yonin L6 p1 #0: 7g6f - d2 Cp(-119) n211",
    "yonin L6 p1 #1: 7g6f - d2 Cp(-119) n136",
    "yonin L13 p1 #0: 9d8c - d3 Cp(-227) n1884",
    "yonin L13 p1 #1: 7g6f - d4 Cp(-305) n3884",
    "yonin L19 p1 #0: 7e6e - d4 Cp(-235) n3968",
    "yonin L19 p1 #1: 7e6e - d5 Cp(-218) n5309",
    "yonin L0 p2 #0: 8c9d - d0 Cp(229) n14",
    "yonin L0 p2 #1: 8c9d - d0 Cp(203) n12",
    "yonin L6 p2 #0: 8c9d - d1 Cp(160) n46",
    "yonin L6 p2 #1: 8c9d - d1 Cp(-216) n37",
    "yonin L13 p2 #0: 8c9d 8e9d d3 Cp(-294) n2249",
    "yonin L13 p2 #1: 8c9d - d4 Cp(-277) n2232",
    "yonin L19 p2 #0: 8c9d 8e9d d4 Cp(-226) n5619",
    "yonin L19 p2 #1: 8c9d - d4 Cp(-226) n74",
    "yonin L0 p1 only #0: 7g6g - d1 Cp(-643) n1",
    "yonin L0 p1 only #1: 7g6h 5i6h d2 Cp(-794) n7",
    "yonin L10 p1 only #0: 7g8h - d3 Cp(-395) n414",
    "yonin L10 p1 only #1: 7g6h - d3 Cp(-460) n13",
    "sugoroku L0 p0 #0: 24/18,6/2 - d1 Points(294) n8",
    "sugoroku L0 p0 #1: 13/7,13/9 - d1 Points(312) n8",
    "sugoroku L6 p0 #0: 24/18,13/9 - d1 Points(301) n14",
    "sugoroku L6 p0 #1: 24/18,13/9 - d1 Points(366) n10",
    "sugoroku L13 p0 #0: 13/7,13/9 - d1 Points(74) n21",
    "sugoroku L13 p0 #1: 24/18,13/9 - d2 Points(-28) n1193",
    "sugoroku L19 p0 #0: 24/18,18/14 - d2 Points(21) n2193",
    "sugoroku L19 p0 #1: 24/18,18/14 - d2 Points(21) n289",
    "sugoroku L0 p1 #0: 6/4,6/5 - d1 Points(243) n10",
    "sugoroku L0 p1 #1: 6/4,8/7 - d1 Points(320) n9",
    "sugoroku L6 p1 #0: 8/6,6/5 - d1 Points(151) n10",
    "sugoroku L6 p1 #1: 13/11,21/20 - d1 Points(106) n9",
    "sugoroku L13 p1 #0: 13/11,6/5 - d2 Points(-104) n857",
    "sugoroku L13 p1 #1: 13/11,11/10 - d2 Points(-125) n573",
    "sugoroku L19 p1 #0: 13/11,11/10 - d2 Points(-54) n2593",
    "sugoroku L19 p1 #1: 13/11,11/10 - d2 Points(-54) n355",
    "sugoroku L0 p2 #0: bar/24,21/20 - d1 Points(-422) n4",
    "sugoroku L0 p2 #1: bar/24,5/4 - d1 Points(-504) n6",
    "sugoroku L6 p2 #0: bar/24,2/1 - d1 Points(-580) n9",
    "sugoroku L6 p2 #1: bar/24,6/5 - d1 Points(-764) n8",
    "sugoroku L13 p2 #0: bar/24,21/20 - d2 Points(-753) n778",
    "sugoroku L13 p2 #1: bar/24,21/20 - d2 Points(-753) n664",
    "sugoroku L19 p2 #0: bar/24,21/20 - d2 Points(-737) n1055",
    "sugoroku L19 p2 #1: bar/24,21/20 - d2 Points(-737) n13",
    "sugoroku L0 p1 only #0: 6/4,6/5 - d1 Points(243) n6",
    "sugoroku L0 p1 only #1: 6/4,8/7 - d1 Points(320) n2",
    "sugoroku L10 p1 only #0: 6/4,4/3 - d1 Points(-165) n6",
    "sugoroku L10 p1 only #1: 6/4,8/7 - d2 Points(-286) n277",
];

#[test]
fn the_levels_play_as_pinned() {
    let got = pinned();
    let table: String = got.iter().map(|line| format!("    {line:?},\n")).collect();
    assert!(
        got.iter().map(String::as_str).eq(EXPECTED.iter().copied()),
        "the levels' play changed; now:\n{table}"
    );
}

#[test]
fn sessions_at_different_levels_search_side_by_side_as_alone() {
    for game in NAMES {
        let count = levels(&*new_session(game).unwrap());
        let moves = &positions(game)[1];
        let levels = [0, count / 2, count - 1, count];
        let limits = &Limits::nodes(NODES);
        let alone: Vec<Vec<String>> = levels
            .iter()
            .map(|&level| searches(game, level, 1, moves, limits))
            .collect();
        let side_by_side: Vec<Vec<String>> = std::thread::scope(|scope| {
            let threads: Vec<_> = levels
                .iter()
                .map(|&level| scope.spawn(move || searches(game, level, 1, moves, limits)))
                .collect();
            threads.into_iter().map(|t| t.join().unwrap()).collect()
        });
        assert_eq!(side_by_side, alone, "{game}");
    }
}
