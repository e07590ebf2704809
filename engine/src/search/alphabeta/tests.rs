//! Alpha-beta against a naive minimax, mates, stopping, limits, MultiPV, threads.

use crate::core::Notation;
use crate::session::Playable;

use super::*;
use crate::hasami::{Hasami, HasamiMove, HasamiRules};
use crate::search::contract;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::time::Duration;

fn config(threads: usize) -> SearchConfig {
    SearchConfig {
        threads,
        hash_mb: 4,
        ..SearchConfig::default()
    }
}

fn search(
    pos: &Hasami,
    limits: &Limits<HasamiMove>,
    config: &SearchConfig,
) -> SearchResult<HasamiMove> {
    let mut searcher = <AlphaBeta<_> as Searcher<Hasami>>::new(config);
    searcher.search(pos, limits, &SearchControl::new(false), &mut |_| {})
}

fn hasami(sfen: &str) -> Hasami {
    Hasami::from_sfen(sfen, &HasamiRules::default()).expect("valid test position")
}

fn legal_moves(pos: &Hasami) -> Vec<HasamiMove> {
    let mut moves = MoveList::new();
    pos.generate_moves(&mut moves);
    moves.to_vec()
}

/// Plain minimax with the searcher's leaf rules: the same terminal scoring, and at
/// the horizon the same quiescence (stand pat or any tactical move), all full-width.
fn minimax(pos: &mut Hasami, depth: u32, ply: usize, root_ply: u32) -> Value {
    if ply > 0 {
        if let Some(value) = terminal_value(pos, ply, root_ply) {
            return value;
        }
    }
    if depth == 0 {
        return quiescence(pos, ply, root_ply);
    }
    let mut best = -INFINITE;
    for mv in legal_moves(pos) {
        pos.make(mv);
        best = best.max(-minimax(pos, depth - 1, ply + 1, root_ply));
        pos.unmake(mv);
    }
    best
}

/// Minimax from a root position.
fn root_minimax(pos: &Hasami, depth: u32) -> Value {
    minimax(&mut pos.clone(), depth, 0, pos.ply())
}

fn quiescence(pos: &mut Hasami, ply: usize, root_ply: u32) -> Value {
    let mut best = pos.evaluate(&Default::default());
    let mut moves = MoveList::new();
    pos.generate_tactical(&mut moves);
    for &mv in moves.iter() {
        pos.make(mv);
        let value = match terminal_value(pos, ply + 1, root_ply) {
            Some(value) => -value,
            None => -quiescence(pos, ply + 1, root_ply),
        };
        pos.unmake(mv);
        best = best.max(value);
    }
    best
}

/// Positions after random playouts from the start (games still going on).
fn random_positions(seed: u64, count: usize) -> Vec<Hasami> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut positions = Vec::new();
    while positions.len() < count {
        let mut pos = Hasami::start(&HasamiRules::default());
        let plies = rng.gen_range(4..80);
        for _ in 0..plies {
            let moves = legal_moves(&pos);
            match moves.choose(&mut rng) {
                Some(&mv) if pos.outcome().is_none() => pos.make(mv),
                _ => break,
            }
        }
        if pos.outcome().is_none() {
            positions.push(pos);
        }
    }
    positions
}

#[test]
fn agrees_with_minimax() {
    let config = config(1);
    for (depth, count) in [(1, 40), (2, 20), (3, 3)] {
        for pos in random_positions(depth as u64, count) {
            let expected = root_minimax(&pos, depth);
            let result = search(&pos, &Limits::depth(depth), &config);
            assert_eq!(
                result.score,
                Score::from_value(expected),
                "depth {depth} {}",
                pos.sfen()
            );
            assert_eq!(result.depth, depth);
            // The move played scores what the search says.
            let mut after = pos.clone();
            after.make(result.best.unwrap());
            let value = match terminal_value(&after, 1, pos.ply()) {
                Some(value) => -value,
                None => -minimax(&mut after, depth - 1, 1, pos.ply()),
            };
            assert_eq!(value, expected, "depth {depth} {}", pos.sfen());
        }
    }
}

#[test]
fn takes_the_fifth_stone_at_once() {
    // Black has captured four; 4i4e takes the stone on 5e against 6e.
    let pos = hasami("pppp5/9/9/9/3Pp4/9/9/9/PPP2P3 b - 1");
    let result = search(&pos, &Limits::depth(4), &config(1));
    assert_eq!(result.score, Score::Mate(1));
    assert_eq!(pos.format_move(result.best.unwrap()), "4i4e");
}

#[test]
fn finds_a_two_move_win() {
    // No capture wins now, but 3e4e threatens two that white cannot both parry.
    let sfen = "9/3Pp4/9/6p2/6PpP/9/8p/3p3P1/6P2 b - 1";
    let pos = hasami(sfen);
    assert!(root_minimax(&pos, 1) < MATE_BOUND, "no win in one");
    assert_eq!(root_minimax(&pos, 3), MATE - 3);
    for threads in [1, 2] {
        let result = search(&pos, &Limits::depth(6), &config(threads));
        assert_eq!(result.score, Score::Mate(3), "{threads} threads");
        let mut after = pos.clone();
        after.make(result.best.unwrap());
        assert_eq!(
            -minimax(&mut after, 2, 1, pos.ply()),
            MATE - 3,
            "the move played wins"
        );
    }
    // And the losing side sees it coming.
    let mut after = pos.clone();
    after.make(after.parse_move("3e4e").unwrap());
    assert_eq!(
        search(&after, &Limits::depth(4), &config(1)).score,
        Score::Mate(-2)
    );
}

#[test]
fn multipv_reports_distinct_moves() {
    let pos = hasami("pppp1pppp/9/4p4/9/9/4P4/9/9/PPPP1PPPP b - 3");
    let mut searcher = <AlphaBeta<_> as Searcher<Hasami>>::new(&SearchConfig {
        multipv: 3,
        ..config(1)
    });
    let mut last: Vec<SearchInfo<HasamiMove>> = Vec::new();
    let result = searcher.search(
        &pos,
        &Limits::depth(4),
        &SearchControl::new(false),
        &mut |info| {
            if info.multipv == 1 {
                last.clear();
            }
            last.push(info.clone());
        },
    );
    assert_eq!(
        last.iter().map(|info| info.multipv).collect::<Vec<_>>(),
        [1, 2, 3]
    );
    let firsts: Vec<HasamiMove> = last.iter().map(|info| info.pv[0]).collect();
    assert!(
        firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2],
        "{firsts:?}"
    );
    assert_eq!(result.best, Some(firsts[0]));
    assert!(
        last.windows(2)
            .all(|w| value_of(w[0].score) >= value_of(w[1].score)),
        "lines in order"
    );
}

fn value_of(score: Score) -> Value {
    match score {
        Score::Cp(cp) | Score::Points(cp) => cp,
        Score::Mate(plies) if plies > 0 => MATE - plies,
        Score::Mate(plies) => -MATE - plies,
    }
}

/// With two threads the target depth may be completed by the helper first; its
/// line is then reported and answered, and it is a legal line of that depth.
#[test]
fn two_threads_report_and_answer_the_target_depth() {
    for pos in random_positions(7, 6) {
        let mut depths = Vec::new();
        let mut last_pv = Vec::new();
        let mut searcher = <AlphaBeta<_> as Searcher<Hasami>>::new(&config(2));
        let result = searcher.search(
            &pos,
            &Limits::depth(5),
            &SearchControl::new(false),
            &mut |info| {
                assert!(!info.pv.is_empty() && info.nodes > 0);
                depths.push(info.depth);
                last_pv = info.pv.clone();
            },
        );
        assert!(depths.windows(2).all(|w| w[0] < w[1]), "{depths:?}");
        // (A mate found within the depth ends the search sooner.)
        if !matches!(result.score, Score::Mate(_)) {
            assert_eq!(depths.last(), Some(&5));
            assert_eq!(result.depth, 5);
        }
        assert_eq!(depths.last(), Some(&result.depth));
        assert_eq!(result.best, last_pv.first().copied());
        // Every move of the reported line is legal where it is played.
        let mut after = pos.clone();
        for &mv in &last_pv {
            assert!(legal_moves(&after).contains(&mv), "{}", pos.sfen());
            after.make(mv);
        }
    }
}

#[test]
fn a_forced_move_under_the_clock_is_played_after_one_iteration() {
    use crate::annan::{Annan, AnnanRules};
    // Black's king in the corner must take the rook: the only legal move.
    let pos = Annan::from_sfen("8k/9/9/9/9/9/9/1r7/K8 b - 1", &AnnanRules::default()).unwrap();
    let mut moves = MoveList::new();
    pos.generate_moves(&mut moves);
    assert_eq!(moves.len(), 1);
    let mut searcher = <AlphaBeta<_> as Searcher<Annan>>::new(&config(1));
    let mut search =
        |limits: Limits<_>| searcher.search(&pos, &limits, &SearchControl::new(false), &mut |_| {});
    let clocked = search(Limits::movetime(Duration::from_secs(60)));
    assert_eq!(clocked.best, Some(moves[0]));
    assert_eq!(clocked.depth, 1, "no second iteration for a forced move");
    assert_eq!(
        search(Limits::depth(4)).depth,
        4,
        "a depth asked for is searched"
    );
}

#[test]
fn keeps_the_driver_contract() {
    let seen = contract::check::<Hasami, AlphaBeta<_>>(&contract::Case {
        config: config(1),
        long: Hasami::start(&HasamiRules::default()),
        // A mate found at once, yet `go infinite` answers only after `stop`.
        solved: hasami("pppp5/9/9/9/3Pp4/9/9/9/PPP2P3 b - 1"),
        no_move: hasami("9/9/9/9/9/9/9/9/4P4 w - 1"),
        depth: 4,
        every_thread_counts: false,
    });
    assert_eq!(seen.solved.score, Score::Mate(1));
    assert!(seen.reports.iter().all(|info| info.seldepth >= info.depth));
    assert!(seen.answer.ponder.is_some());
    assert!(seen.hashfull > 0);
}
