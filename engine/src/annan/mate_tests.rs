//! The df-pn solver against hand-built problems and a plain AND/OR search.

use crate::core::Notation;

use super::mate::{MateReport, MateSolver};
use super::{Annan, AnnanMove, AnnanRules};
use crate::core::{Game, MoveList, Seat};
use crate::search::{Limits, SearchControl};
use crate::session::{MateAnswer, MateGoal, Playable};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

fn at(sfen: &str) -> Annan {
    Annan::from_sfen(sfen, &AnnanRules::default()).unwrap()
}

fn solve(pos: &Annan, nodes: u64) -> MateReport {
    solve_for(pos, nodes, MateGoal::Shortest)
}

fn solve_for(pos: &Annan, nodes: u64, goal: MateGoal) -> MateReport {
    let control = SearchControl::new(false);
    let scratch = crate::search::tables::Scratch::default();
    MateSolver::new(pos, &Limits::nodes(nodes), &control, 16, &scratch).run(&scratch, goal)
}

fn text(pos: &Annan, line: &[AnnanMove]) -> String {
    let mut pos = pos.clone();
    let mut words = Vec::new();
    for &mv in line {
        words.push(pos.format_move(mv));
        pos.make(mv);
    }
    words.join(" ")
}

/// The legal checks of the side to move.
fn checks(pos: &mut Annan) -> Vec<AnnanMove> {
    let mut moves = MoveList::new();
    pos.generate_moves(&mut moves);
    moves
        .iter()
        .copied()
        .filter(|&mv| {
            pos.make(mv);
            let check = pos.in_check();
            pos.unmake(mv);
            check
        })
        .collect()
}

/// The plain AND/OR search: can the side to move mate within `plies`?
fn attacker_mates(pos: &mut Annan, plies: u32) -> bool {
    plies >= 1
        && checks(pos).into_iter().any(|mv| {
            pos.make(mv);
            let mated = defender_is_mated(pos, plies - 1);
            pos.unmake(mv);
            mated
        })
}

/// The side to move, in check, is mated within `plies` whatever it does.
fn defender_is_mated(pos: &mut Annan, plies: u32) -> bool {
    let mut moves = MoveList::new();
    pos.generate_moves(&mut moves);
    if moves.is_empty() {
        return true;
    }
    plies >= 2
        && moves.iter().all(|&mv| {
            pos.make(mv);
            let mated = attacker_mates(pos, plies - 1);
            pos.unmake(mv);
            mated
        })
}

/// The length of the shortest mate within `max` plies, by the plain search.
fn shortest_mate(pos: &Annan, max: u32) -> Option<u32> {
    let mut pos = pos.clone();
    (1..=max)
        .step_by(2)
        .find(|&plies| attacker_mates(&mut pos, plies))
}

/// Replays `line` through the rules: every attacker move a legal check, every
/// reply legal, the last position checkmate.
fn assert_mating_line(pos: &Annan, line: &[AnnanMove]) {
    let mut pos = pos.clone();
    assert!(line.len() % 2 == 1, "{}: {line:?}", pos.sfen());
    for (i, &mv) in line.iter().enumerate() {
        let text = pos.format_move(mv);
        assert_eq!(pos.parse_move(&text), Ok(mv), "{}: move {i}", pos.sfen());
        pos.make(mv);
        if i % 2 == 0 {
            assert!(pos.in_check(), "{}: {text} gives check", pos.sfen());
        }
    }
    let outcome = pos.outcome().expect("the line ends the game");
    assert_eq!(outcome.reason, "checkmate", "{}", pos.sfen());
}

/// Replays `line` and checks with the plain search that it is a minimax
/// line: from each attacker position the mate takes exactly the plies left
/// (no shorter mate), every reply of the defender is mated within the plies
/// left, and the reply chosen is not mated sooner (it is a longest defence).
fn assert_best_line(start: &Annan, line: &[AnnanMove]) {
    let mut pos = start.clone();
    let total = line.len() as u32;
    for (i, &mv) in line.iter().enumerate() {
        let left = total - i as u32;
        if i % 2 == 0 {
            assert_eq!(shortest_mate(&pos, left), Some(left), "{}", pos.sfen());
        } else {
            let mut replies = MoveList::new();
            pos.generate_moves(&mut replies);
            for &reply in replies.iter() {
                pos.make(reply);
                let mated = attacker_mates(&mut pos, left - 1);
                let sooner = left >= 4 && attacker_mates(&mut pos, left - 3);
                pos.unmake(reply);
                assert!(mated, "{}: {} escapes", pos.sfen(), pos.format_move(reply));
                if reply == mv {
                    assert!(!sooner, "{}: a longer defence than {mv:?}", pos.sfen());
                }
            }
        }
        pos.make(mv);
    }
}

/// Solves `sfen`, expecting a mate in `plies`, and checks the line.
fn assert_mate(sfen: &str, plies: usize, nodes: u64) -> Vec<AnnanMove> {
    let pos = at(sfen);
    let report = solve(&pos, nodes);
    let MateAnswer::Mate(line) = report.answer else {
        panic!("{sfen}: {:?} after {} nodes", report.answer, report.nodes);
    };
    assert_eq!(line.len(), plies, "{sfen}: {}", text(&pos, &line));
    assert_mating_line(&pos, &line);
    line
}

#[test]
fn mates_in_one() {
    // G*1b guarded by the silver; G*2b moves like the silver behind it.
    let sfen = "8k/9/7S1/9/9/9/9/9/K8 b G 1";
    let line = assert_mate(sfen, 1, 10_000);
    assert!(["G*1b", "G*2b"].contains(&text(&at(sfen), &line).as_str()));
    assert_eq!(shortest_mate(&at(sfen), 1), Some(1));
}

#[test]
fn a_mate_that_only_borrowed_movement_gives() {
    // The lance dropped on 1c lends its movement to the bishop in front of it,
    // which then checks 1a along the file; the lance guards the bishop. The
    // bishop by its own movement gives no check.
    let sfen = "7lk/7pB/9/9/9/9/9/9/4K4 b L 1";
    let line = assert_mate(sfen, 1, 10_000);
    assert_eq!(text(&at(sfen), &line), "L*1c");
    assert_eq!(shortest_mate(&at(sfen), 1), Some(1));
    let mut after = at(sfen);
    after.make(line[0]);
    let bishop = super::notation::parse_move("1b1a").unwrap().from().unwrap();
    assert_eq!(after.state().movement(bishop), super::Kind::Lance);
}

#[test]
fn the_only_mating_try_is_a_drop_pawn_mate() {
    // Rule 7's example: P*1c would mate (the bishop in front moves like a
    // pawn), so it is illegal, and nothing else mates.
    let sfen = "7lk/7pB/9/9/9/9/9/9/4K4 b P 1";
    let pos = at(sfen);
    assert!(pos.parse_move("P*1c").is_err());
    let mut after = *pos.state();
    after.apply(super::notation::parse_move("P*1c").unwrap(), Seat::FIRST);
    assert!(
        after.in_check(Seat::SECOND)
            && !super::movegen::has_legal_move(&after, Seat::SECOND, pos.rules())
    );
    assert_eq!(solve(&pos, 100_000).answer, MateAnswer::NoMate);
    assert_eq!(shortest_mate(&pos, 7), None);
}

#[test]
fn no_mate_is_proven() {
    for sfen in [
        super::START_SFEN,
        // A gold in hand against a lone king.
        "4k4/9/9/9/9/9/9/9/4K4 b G 1",
        // The rook can check for ever: repetition is not a mate.
        "4k4/9/9/9/9/9/9/9/R3K4 b - 1",
    ] {
        let report = solve(&at(sfen), 1_000_000);
        assert_eq!(report.answer, MateAnswer::NoMate, "{sfen}");
    }
}

#[test]
fn mates_in_three_and_five_agree_with_the_plain_search() {
    for (sfen, plies) in [
        ("9/2Sk5/1N7/5s3/9/9/9/9/K8 b GG 1", 3),
        ("9/7Bk/8r/8S/9/9/9/9/K8 b R 1", 3),
        ("Sk1r5/2P6/3B5/4N4/9/9/9/9/K8 b R 1", 5),
        ("p8/1k7/9/n1R6/9/9/9/9/K8 b GS 1", 5),
    ] {
        let line = assert_mate(sfen, plies, 200_000);
        assert_eq!(shortest_mate(&at(sfen), plies as u32), Some(plies as u32));
        assert_best_line(&at(sfen), &line);
    }
}

#[test]
fn mates_in_seven_and_longer() {
    // Shortest lengths checked with the plain search (7 here; 9, 11 and 15
    // once, offline: minutes each).
    for (sfen, plies, brute) in [
        ("1L+p6/2kp5/4l4/9/4+R4/9/9/9/K8 b GS 1", 7, true),
        ("9/7Pk/9/5R3/8B/9/9/9/K8 b SN 1", 7, true),
        ("2+pg5/1G2k2+P1/9/6l2/2N2+R3/9/9/9/K8 b 2P 1", 9, false),
        ("9/6+B2/3kgNR2/6+R2/9/9/9/9/K8 b L 1", 11, false),
        ("2r6/lk7/1rLB5/+P8/3S5/9/9/9/K8 b SN 1", 15, false),
    ] {
        let line = assert_mate(sfen, plies, 5_000_000);
        if brute {
            assert_eq!(shortest_mate(&at(sfen), plies as u32), Some(plies as u32));
            assert_best_line(&at(sfen), &line);
        }
    }
}

#[test]
fn a_move_limit_leaves_no_time_to_mate() {
    // Mate in 3 after 20 plies (move number 21): a limit of 22 leaves 2
    // plies, too few; with 23 the mating move is the last ply, and counts.
    let sfen = "9/2Sk5/1N7/5s3/9/9/9/9/K8 b GG 21";
    for (limit, mates) in [(22, false), (23, true), (0, true)] {
        let rules = AnnanRules {
            move_limit: limit,
            ..AnnanRules::default()
        };
        let pos = Annan::from_sfen(sfen, &rules).unwrap();
        let answer = solve(&pos, 100_000).answer;
        assert_eq!(
            matches!(answer, MateAnswer::Mate(_)),
            mates,
            "limit {limit}: {answer:?}"
        );
    }
}

#[test]
fn agrees_with_a_plain_search_on_random_problems() {
    const PLIES: u32 = 5;
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(13);
    let (mut mates, mut no_mates, mut longer, mut positions) = (0, 0, 0, 0);
    while (mates < 40 || no_mates < 40) && positions < 3000 {
        let sfen = random_problem(&mut rng);
        let Ok(pos) = Annan::from_sfen(&sfen, &AnnanRules::default()) else {
            continue;
        };
        if pos.in_check() || pos.outcome().is_some() {
            continue;
        }
        positions += 1;
        let brute = shortest_mate(&pos, PLIES);
        let report = solve(&pos, 300_000);
        // Any mate: the same verdict, a mating line no shorter, no more nodes.
        let any = solve_for(&pos, 300_000, MateGoal::Any);
        assert!(any.nodes <= report.nodes, "{sfen}");
        match (&report.answer, &any.answer) {
            (MateAnswer::Mate(shortest), MateAnswer::Mate(line)) => {
                assert!(line.len() >= shortest.len(), "{sfen}");
                assert_mating_line(&pos, line);
            }
            (MateAnswer::Mate(_), other) => panic!("{sfen}: any mate {other:?}"),
            (answer, other) => assert_eq!(answer, other, "{sfen}"),
        }
        match (brute, &report.answer) {
            (Some(plies), MateAnswer::Mate(line)) => {
                assert_eq!(line.len() as u32, plies, "{sfen}: {}", text(&pos, line));
                assert_mating_line(&pos, line);
                assert_best_line(&pos, line);
                mates += 1;
            }
            (None, MateAnswer::Mate(line)) => {
                assert!(line.len() as u32 > PLIES, "{sfen}");
                assert_mating_line(&pos, line);
                longer += 1;
            }
            (None, MateAnswer::NoMate) => no_mates += 1,
            // Too hard for the budget, but then no short mate was missed.
            (None, MateAnswer::Timeout) => {}
            (brute, answer) => panic!("{sfen}: plain search {brute:?}, solver {answer:?}"),
        }
    }
    assert!(
        mates >= 40 && no_mates >= 40,
        "{mates} mates, {no_mates} without, {longer} longer"
    );
}

#[test]
fn limits_and_stop_end_the_search_with_timeout() {
    // A rook and a bishop in hand against a lone king: checks without end
    // and no verdict within millions of nodes.
    let pos = at("4k4/9/9/9/9/9/9/9/4K4 b RB 1");
    let report = solve(&pos, 20_000);
    assert_eq!(report.answer, MateAnswer::Timeout);
    assert!(report.nodes <= 20_000, "{}", report.nodes);

    let control = SearchControl::new(false);
    control.stop();
    let infinite = Limits {
        infinite: true,
        ..Limits::default()
    };
    let scratch = crate::search::tables::Scratch::default();
    let report =
        MateSolver::new(&pos, &infinite, &control, 16, &scratch).run(&scratch, MateGoal::Shortest);
    assert_eq!(report.answer, MateAnswer::Timeout);
    assert!(
        report.nodes <= 2 * 1024,
        "polls every 1024 nodes: {}",
        report.nodes
    );

    use crate::session::Playable;
    let control = SearchControl::new(false);
    let started = std::time::Instant::now();
    let answer = pos.mate(
        &Limits::movetime(std::time::Duration::from_millis(100)),
        &control,
        &crate::search::tables::Scratch::default(),
        MateGoal::Shortest,
    );
    assert_eq!(answer, MateAnswer::Timeout);
    assert!(
        started.elapsed().as_millis() < 1000,
        "{:?}",
        started.elapsed()
    );
    assert!(control.nodes() > 0);
}

/// A sparse random problem: white's king in its camp with a few defenders,
/// black's pieces around it and in hand, black's king far away.
fn random_problem(rng: &mut impl Rng) -> String {
    let mut board: [[String; 9]; 9] = Default::default();
    let king = (rng.gen_range(0..3), rng.gen_range(0..9));
    board[king.0][king.1] = "k".into();
    board[8][0] = "K".into();
    let near = |rng: &mut Xoshiro256PlusPlus, spread: i32| {
        let r = (king.0 as i32 + rng.gen_range(-1..=spread)).clamp(0, 8) as usize;
        let c = (king.1 as i32 + rng.gen_range(-spread..=spread)).clamp(0, 8) as usize;
        (r, c)
    };
    let mut rng2 = Xoshiro256PlusPlus::seed_from_u64(rng.gen());
    let pieces = ["P", "L", "N", "S", "G", "B", "R", "+P", "+B", "+R"];
    for _ in 0..rng.gen_range(1..5) {
        let (r, c) = near(&mut rng2, 2);
        if board[r][c].is_empty() {
            board[r][c] = pieces[rng.gen_range(0..pieces.len())].to_ascii_lowercase();
        }
    }
    for _ in 0..rng.gen_range(1..5) {
        let (r, c) = near(&mut rng2, 3);
        if board[r][c].is_empty() {
            board[r][c] = pieces[rng.gen_range(0..pieces.len())].to_string();
        }
    }
    let mut sfen = String::new();
    for (r, row) in board.iter().enumerate() {
        let mut empty = 0;
        for cell in row {
            if cell.is_empty() {
                empty += 1;
            } else {
                if empty > 0 {
                    sfen += &empty.to_string();
                    empty = 0;
                }
                sfen += cell;
            }
        }
        if empty > 0 {
            sfen += &empty.to_string();
        }
        if r < 8 {
            sfen.push('/');
        }
    }
    let hands = [
        "G", "S", "N", "L", "P", "B", "R", "GS", "SN", "2P", "LP", "GG",
    ];
    let hand = hands[rng.gen_range(0..hands.len())];
    format!("{sfen} b {hand} 1")
}

/// Calls `visit` with every position of `games` random games from the
/// start (at most `PLIES` plies each, until the game ends); returns how many.
fn random_game_positions(seed: u64, games: usize, mut visit: impl FnMut(&mut Annan)) -> usize {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut positions = 0;
    for _ in 0..games {
        let mut pos = Annan::start(&AnnanRules::default());
        for _ in 0..PLIES {
            if pos.outcome().is_some() {
                break;
            }
            visit(&mut pos);
            positions += 1;
            let mut moves = MoveList::new();
            pos.generate_moves(&mut moves);
            pos.make(moves[rng.gen_range(0..moves.len())]);
        }
    }
    positions
}

/// The solver's mate for `pos` under a move limit `plies` ahead.
fn solver_within(pos: &Annan, plies: u32) -> Option<Vec<AnnanMove>> {
    let rules = AnnanRules {
        move_limit: pos.ply() + plies,
        ..AnnanRules::default()
    };
    let limited = Annan::from_parts(*pos.state(), pos.side_to_move(), pos.ply(), &rules);
    match solve(&limited, 1_000_000).answer {
        MateAnswer::Mate(line) => Some(line),
        MateAnswer::NoMate => None,
        other => panic!("{}: {other:?}", pos.sfen()),
    }
}

/// The search's mate in one against the solver's, with a move limit one ply
/// ahead (so that it looks for a mate in one only), on positions of random
/// games from the start: the same verdict on every one.
#[test]
fn the_mate_in_one_agrees_with_the_solver_on_random_games() {
    let mut mates = 0;
    let positions = random_game_positions(41, GAMES, |pos| {
        let solver = solver_within(pos, 1);
        let found = pos.mate_in_one();
        assert_eq!(found.is_some(), solver.is_some(), "{}", pos.sfen());
        if let Some(mv) = found {
            mates += 1;
            let mut after = pos.clone();
            after.make(mv);
            assert!(
                after.in_check() && after.count_moves() == 0,
                "{}",
                pos.sfen()
            );
        }
    });
    assert!(
        positions > 10_000 && mates > 500,
        "{positions} positions, {mates} mates"
    );
}

/// The checks the solver tries, generated from the squares that can give
/// check, against every legal move tried for check, on positions of random
/// games from the start: the same moves in the same order.
#[test]
fn the_checks_are_every_legal_move_that_gives_check() {
    let positions = random_game_positions(43, GAMES / 4, |pos| {
        let mut checks = MoveList::new();
        pos.generate_checks(&mut checks);
        assert_eq!(checks.to_vec(), self::checks(pos), "{}", pos.sfen());
    });
    assert!(positions > 2_500, "{positions} positions");
}

const GAMES: usize = 100;
const PLIES: usize = 200;
