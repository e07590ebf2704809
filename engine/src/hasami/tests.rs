//! Rule tests on hand-built positions, and a deliberately naive second move
//! generator that the fast one must agree with.

use crate::core::Notation;
use crate::session::Playable;

use super::position::{BLACK, WHITE};
use super::*;
use crate::core::board9::{Bitboard, Square};
use crate::core::game::GameResult;
use crate::core::{Game, HouseRules, MoveList};
use crate::perft::{perft, perft_full};
use crate::search::TwoPlayerGame;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// A position from a diagram: nine rows of nine cells (`P` black, `p` white, `.`
/// empty), rank a first, as the first seat sees the board.
fn board(diagram: &str, side: char, rules: &HasamiRules) -> Hasami {
    let rows: Vec<String> = diagram
        .lines()
        .map(|line| line.split_whitespace().collect::<String>())
        .filter(|line| !line.is_empty())
        .map(|line| {
            let mut row = String::new();
            let mut empty = 0;
            for c in line.chars() {
                if c == '.' {
                    empty += 1;
                    continue;
                }
                if empty > 0 {
                    row.push_str(&empty.to_string());
                    empty = 0;
                }
                row.push(c);
            }
            if empty > 0 {
                row.push_str(&empty.to_string());
            }
            row
        })
        .collect();
    let sfen = format!("{} {side} - 1", rows.join("/"));
    Hasami::from_sfen(&sfen, rules).unwrap_or_else(|e| panic!("{e}"))
}

fn play(pos: &mut Hasami, text: &str) {
    let mv = pos.parse_move(text).unwrap_or_else(|e| panic!("{e}"));
    pos.make(mv);
}

fn rules(win: &str, move_limit: u32) -> HasamiRules {
    let mut rules = HasamiRules::default();
    rules.set("HasamiWin", win).unwrap();
    rules.set("MoveLimit", &move_limit.to_string()).unwrap();
    rules
}

/// Capture mechanics are tested under "capture all", so that a sparse hand-built
/// board is not already decided by the captured counts derived from it.
fn mechanics() -> HasamiRules {
    rules("all", 0)
}

fn sq(name: &str) -> Square {
    Square::parse(name).unwrap()
}

#[test]
fn perft_from_start() {
    let mut pos = Hasami::start(&HasamiRules::default());
    let expected = [1, 63, 3_717, 254_219, 16_599_273];
    for (depth, &count) in expected.iter().enumerate() {
        assert_eq!(perft(&mut pos, depth as u32), count, "depth {depth}");
    }
    assert_eq!(perft_full(&mut pos, 3), 254_219);
}

#[test]
#[ignore = "deep perft: about a minute; run with --ignored"]
fn perft_from_start_depth_5() {
    let mut pos = Hasami::start(&HasamiRules::default());
    assert_eq!(perft(&mut pos, 5), 1_174_236_771);
}

#[test]
fn perft_is_the_same_under_every_win_condition_at_low_depth() {
    for win in ["five", "lead3", "all"] {
        let mut pos = Hasami::start(&rules(win, 0));
        assert_eq!(perft(&mut pos, 3), 254_219, "{win}");
    }
}

#[test]
fn sfen_round_trips() {
    let start = Hasami::start(&HasamiRules::default());
    assert_eq!(start.sfen(), "ppppppppp/9/9/9/9/9/9/9/PPPPPPPPP b - 1");
    for sfen in [
        "1pp1pp1pp/p8/4p4/2P3p2/9/3P1P3/8P/9/PP2P1PP1 w - 20",
        "9/9/9/9/4P4/9/9/9/9 b - 7",
    ] {
        let pos = Hasami::from_sfen(sfen, &HasamiRules::default()).unwrap();
        assert_eq!(pos.sfen(), sfen);
        assert_eq!(pos.key(), pos.compute_key());
    }
}

#[test]
fn impossible_sfens_are_refused_with_reasons() {
    let rules = HasamiRules::default();
    let cases = [
        ("ppppppppp/9/9/9/9/9/9/9/PPPPPPPP b - 1", "covers 8 squares"),
        (
            "pppppppppp/9/9/9/9/9/9/9/PPPPPPPPP b - 1",
            "covers 10 squares",
        ),
        ("ppppppppp/9/9/9/9/9/9/PPPPPPPPP b - 1", "8 rows"),
        ("ppppppppp/9/9/9/9/9/9/9/PPPPPPPPP x - 1", "side to move"),
        ("ppppppppp/9/9/9/9/9/9/9/PPPPPPPPP b P 1", "hands"),
        ("ppppppppp/9/9/9/9/9/9/9/PPPPPPPPK b - 1", "only P, p"),
        ("ppppppppp/p8/9/9/9/9/9/9/PPPPPPPPP b - 1", "more than 9"),
        ("ppppppppp/9/9/9/9/9/9/9/PPPPPPPPP b - 0", "move number"),
        ("ppppppppp/9/9/9/9/9/9/9/PPPPPPPPP", "fields"),
        ("", "fields"),
    ];
    for (sfen, why) in cases {
        let err = Hasami::from_sfen(sfen, &rules).expect_err(sfen);
        assert!(err.reason.contains(why), "{sfen}: {}", err.reason);
    }
}

#[test]
fn garbled_and_illegal_moves_are_refused() {
    let pos = Hasami::start(&HasamiRules::default());
    for (text, why) in [
        ("9i9", "two squares"),
        ("9i9j", "two squares"),
        ("", "two squares"),
        ("9i9c+", "two squares"),
        ("5e5d", "no stone"),
        ("9a9b", "no stone"),
        ("9i8h", "cannot slide"),
        ("9i9a", "cannot slide"),
        ("9i9i", "cannot slide"),
    ] {
        let err = pos.parse_move(text).expect_err(text);
        assert!(err.reason.contains(why), "{text}: {}", err.reason);
    }
    assert!(pos.parse_move("9i9b").is_ok());
}

#[test]
fn slides_stop_before_any_stone() {
    let pos = board(
        ". . . . p . . . .
         . . . . . . . . .
         . . . . . . . . .
         . . . . . . . . .
         . P . . P . . p .
         . . . . . . . . .
         . . . . P . . . .
         . . . . . . . . .
         . . . . . . . . .",
        'b',
        &mechanics(),
    );
    let dests: Vec<String> = pos.destinations(sq("5e")).map(|s| s.to_string()).collect();
    let mut dests = dests;
    dests.sort();
    assert_eq!(dests, ["3e", "4e", "5b", "5c", "5d", "5f", "6e", "7e"]);
}

#[test]
fn line_capture_of_one_and_of_a_contiguous_row() {
    let mut pos = board(
        ". . . . . . . . .
         . . . . . . . . .
         . . . . . . . . .
         . . . . . . . . .
         P p p p . . . . .
         . . . . . . . . .
         . . . . . . . . .
         . . . . . . . . .
         . . . . P . . . .",
        'b',
        &mechanics(),
    );
    play(&mut pos, "5i5e");
    assert_eq!(pos.stones(WHITE).count(), 0);
    assert_eq!(pos.captured_by(BLACK), 9);
}

#[test]
fn no_capture_across_a_gap_or_an_own_stone() {
    let mut pos = board(
        ". . . . . . . . .
         . . . . . . . . .
         . . . . . . . . .
         . . . . . . . . .
         P p . p . . . . .
         . . . . . . . . .
         P p P p . . . . .
         . . . . . . . . .
         . . . . P . . . P",
        'b',
        &mechanics(),
    );
    play(&mut pos, "5i5e");
    assert_eq!(pos.stones(WHITE).count(), 4, "a gap at 7e breaks the line");
    let mut pos2 = board(
        ". . . . . . . . .
         . . . . . . . . .
         . . . . . . . . .
         . . . . . . . . .
         . . . . . . . . .
         . . . . . . . . .
         P p P p . . . . .
         . . . . . . . . .
         . . . . P . . . .",
        'b',
        &mechanics(),
    );
    play(&mut pos2, "5i5g");
    assert_eq!(
        pos2.stones(WHITE).count(),
        1,
        "only 6g, enclosed by 5g and 7g, goes; 8g is beyond an own stone"
    );
    assert!(pos2.stones(WHITE).has(sq("8g")));
}

#[test]
fn captures_in_two_and_three_directions_at_once() {
    // Black lands on 5e: 5d (up, closed by 5c), 6e (left, closed by 7e) and
    // 4e-3e (right, closed by 2e) are all taken.
    let mut pos = board(
        ". . . . . . . . .
         . . . . . . . . .
         . . . . P . . . .
         . . . . p . . . .
         . . P p . p p P .
         . . . . . . . . .
         . . . . . . . . .
         . . . . . . . . .
         . . . . P . . . .",
        'b',
        &mechanics(),
    );
    assert_eq!(pos.stones(WHITE).count(), 4);
    play(&mut pos, "5i5e");
    assert!(pos.stones(WHITE).is_empty());

    // Two directions, by white, along a file and a rank.
    let mut pos = board(
        ". . . . . . . . p
         . . . . . . . . .
         . . . . . . . . .
         . . . . . . . . .
         . . . . . . . . .
         . . . . . . p P .
         . . . . . . . . P
         . . . . . . . . p
         . . . . . . . . .",
        'w',
        &mechanics(),
    );
    assert_eq!(pos.stones(BLACK).count(), 2);
    play(&mut pos, "1a1f");
    assert_eq!(pos.stones(BLACK).count(), 0);
}

#[test]
fn corner_captures_at_all_four_corners() {
    // For each corner: white on the corner, black on one neighbour, black
    // arrives on the other neighbour.
    let cases = [
        ("9a", "8a", "9b", "9e9b"),
        ("1a", "1b", "2a", "2e2a"),
        ("9i", "9h", "8i", "8e8i"),
        ("1i", "2i", "1h", "1e1h"),
    ];
    for (corner, waiting, target, mv) in cases {
        let mut pos = Hasami::empty_for_tests('b');
        pos.put(WHITE, sq(corner));
        pos.put(BLACK, sq(waiting));
        pos.put(BLACK, sq(&mv[..2]));
        pos.put(WHITE, sq("5e"));
        assert!(pos.parse_move(mv).is_ok(), "{mv}");
        play(&mut pos, mv);
        assert!(pos.stones(BLACK).has(sq(target)));
        assert!(
            !pos.stones(WHITE).has(sq(corner)),
            "corner {corner} taken by {mv}"
        );
        assert_eq!(pos.captured_by(BLACK), 9 - 1, "only the corner stone goes");
    }
}

#[test]
fn corner_capture_needs_both_neighbours() {
    let mut pos = Hasami::empty_for_tests('b');
    pos.put(WHITE, sq("9a"));
    pos.put(BLACK, sq("9e"));
    pos.put(WHITE, sq("5e"));
    play(&mut pos, "9e9b");
    assert!(pos.stones(WHITE).has(sq("9a")));
}

#[test]
fn corner_and_line_captures_combine() {
    // Black arrives on 8a: the corner 9a (with 9b black) and the line 7a (with 6a black).
    let mut pos = board(
        "p . p P . . . . .
         P . . . . . . . .
         . . . . . . . . .
         . . . . . . . . .
         . . . . . . . . .
         . . . . . . . . .
         . . . . . . . . .
         . . . . . . . . .
         . P . . . . . . p",
        'b',
        &mechanics(),
    );
    play(&mut pos, "8i8a");
    assert_eq!(pos.stones(WHITE).count(), 1);
    assert!(pos.stones(WHITE).has(sq("1i")));
}

#[test]
fn moving_between_two_enemy_stones_is_safe() {
    let mut pos = board(
        ". . . . . . . . .
         . . . . . . . . .
         . . . . . . . . .
         . . . . . . . . .
         . . . p . p . . .
         . . . . . . . . .
         . . . . . . . . .
         . . . . . . . . .
         . . . . P . . . .",
        'b',
        &mechanics(),
    );
    play(&mut pos, "5i5e");
    assert_eq!(pos.stones(BLACK).count(), 1);
    assert_eq!(pos.stones(WHITE).count(), 2);
    // ...until the opponent encloses it again with a move of its own.
    play(&mut pos, "4e4a");
    play(&mut pos, "5e5i");
    play(&mut pos, "4a4e");
    assert_eq!(
        pos.stones(BLACK).count(),
        1,
        "the stone left and came back only after"
    );
}

#[test]
fn only_the_moved_stone_captures() {
    // White 5e is already between black 5d and 5f (white moved there); a black
    // move elsewhere does not take it.
    let mut pos = board(
        ". . . . . . . . .
         . . . . . . . . .
         . . . . . . . . .
         . . . . P . . . .
         . . . . p . . . .
         . . . . P . . . .
         . . . . . . . . .
         . . . . . . . . .
         P . . . . . . . p",
        'b',
        &mechanics(),
    );
    play(&mut pos, "9i9h");
    assert_eq!(pos.stones(WHITE).count(), 2);
}

/// Black has captured 4 and lost 4; 7i7h takes 8h, the fifth.
const FIFTH_CAPTURE: &str = "p p p . . . . . p
                             . . . . . . . . .
                             . . . . . . . . .
                             . . . . . . . . .
                             . . . . . . . . .
                             . . . . . . . . .
                             . . . . . . . . .
                             P p . . . . . . .
                             . . P P P P . . .";

#[test]
fn five_captures_win_and_end_move_generation() {
    let mut pos = board(FIFTH_CAPTURE, 'b', &HasamiRules::default());
    assert_eq!((pos.captured_by(BLACK), pos.captured_by(WHITE)), (4, 4));
    assert_eq!(pos.outcome(), None);
    play(&mut pos, "7i7h");
    assert_eq!(pos.captured_by(BLACK), 5);
    let outcome = pos.outcome().unwrap();
    assert_eq!(
        outcome.result,
        GameResult::Win {
            winner: BLACK,
            points: 1
        }
    );
    assert_eq!(outcome.reason, "five-captured");
    let mut moves = MoveList::new();
    pos.generate_moves(&mut moves);
    assert!(moves.is_empty(), "a decided game has no legal moves");
    assert_eq!(pos.count_moves(), 0);
}

/// Black has captured 4 and lost 2; its next capture makes 5 (a win under
/// `five`) and a lead of 3 (a win under `lead3`) but not all nine.
const RACE: &str = "p p p . . . . . p
                    . . . . . . . . .
                    . . . . . . . . .
                    . . . . . . . . .
                    . . . . . . . . .
                    . . . . . . . . .
                    . . . . . . . . .
                    P p . . . . . . .
                    . . P P P P P P .";

#[test]
fn win_conditions_differ() {
    for (win, decided) in [("five", true), ("lead3", true), ("all", false)] {
        let mut pos = board(RACE, 'b', &rules(win, 0));
        assert_eq!(pos.stones(BLACK).count(), 7);
        play(&mut pos, "7i7h");
        assert_eq!(pos.outcome().is_some(), decided, "{win}");
    }
    // lead3 counts the difference: 5 captured against 3 lost is a lead of 2; one
    // more capture makes it 3.
    let mut pos = board(
        "p p p . . . . . .
         . . . . . . . . .
         . . . . . . . . .
         . . . . . . . . .
         . . . . . . . . .
         . . . . . . . . .
         . . . . . . . . .
         P p . . . . . . .
         . . P P P P P . .",
        'b',
        &rules("lead3", 0),
    );
    play(&mut pos, "7i7h");
    assert_eq!(pos.captured_by(BLACK), 6);
    assert_eq!(pos.captured_by(WHITE), 3);
    assert_eq!(pos.outcome().map(|o| o.reason), Some("lead-of-three"));
    // all: the last stone taken ends it.
    let mut pos = board(
        ". . . . . . . . .
         . . . . . . . . .
         . . . . . . . . .
         . . . . . . . . .
         . . . . . . . . .
         . . . . . . . . .
         . . . . . . . . .
         P p . . . . . . .
         . . P . . . . . .",
        'b',
        &rules("all", 0),
    );
    play(&mut pos, "7i7h");
    assert_eq!(pos.outcome().map(|o| o.reason), Some("all-captured"));
}

#[test]
fn lead3_can_be_made_up() {
    // White trails by 2; it captures one back: no win for anyone.
    let mut pos = board(
        "p p p p . . . . .
         . . . . . . . . .
         . . . . . . . . .
         . . . . . . . . .
         . . . . . . . . P
         . . . . . . . . .
         . . . . . . . . .
         p P . . . . . . .
         . . p P P P P P P",
        'w',
        &rules("lead3", 0),
    );
    assert_eq!((pos.captured_by(BLACK), pos.captured_by(WHITE)), (3, 1));
    assert_eq!(pos.outcome(), None);
    play(&mut pos, "7i7h");
    assert_eq!((pos.captured_by(BLACK), pos.captured_by(WHITE)), (3, 2));
    assert_eq!(pos.outcome(), None);
}

#[test]
fn no_legal_move_loses() {
    // Black's only stone in the corner is walled in by white stones it cannot take.
    let pos = board(
        "P p . . . . . . .
         p . . . . . . . .
         . . . . . . . . .
         . . . . . . . . .
         . . . . . . . . .
         . . . . . . . . .
         . . . . . . . . .
         . . . . . . . . .
         . . . . . . . . p",
        'b',
        &rules("all", 0),
    );
    assert_eq!(pos.count_moves(), 0);
    let outcome = pos.outcome().unwrap();
    assert_eq!(
        outcome.result,
        GameResult::Win {
            winner: WHITE,
            points: 1
        }
    );
    assert_eq!(outcome.reason, "no-legal-move");
}

#[test]
fn fourth_occurrence_is_a_draw() {
    let mut pos = Hasami::start(&HasamiRules::default());
    let cycle = ["9i9h", "9a9b", "9h9i", "9b9a"];
    for round in 0..3 {
        assert_eq!(pos.occurrences(), round + 1);
        assert_eq!(pos.outcome(), None);
        for mv in cycle {
            play(&mut pos, mv);
        }
    }
    assert_eq!(pos.occurrences(), 4);
    assert_eq!(
        pos.outcome(),
        Some(crate::core::Outcome::draw("repetition"))
    );
    // Unmaking forgets the fourth occurrence.
    let mv = pos.parse_move("9i9h").unwrap();
    pos.make(mv);
    pos.unmake(mv);
    assert_eq!(pos.occurrences(), 4);
    let last = super::movegen::HasamiMove {
        from: sq("9b"),
        to: sq("9a"),
    };
    pos.unmake(last);
    assert_eq!(pos.outcome(), None);
}

#[test]
fn repetition_compares_the_side_to_move() {
    // The same stones with the other side to move are a different position.
    let mut pos = Hasami::start(&HasamiRules::default());
    play(&mut pos, "9i9h");
    play(&mut pos, "9a9b");
    play(&mut pos, "9h9g");
    play(&mut pos, "9b9a");
    play(&mut pos, "9g9i");
    // Board equals the start, but white is to move.
    assert_eq!(pos.occurrences(), 1);
    assert!(!pos.repeats_since(0));
}

#[test]
fn move_limit_draws_unless_the_last_move_won() {
    let mut pos = Hasami::start(&rules("five", 4));
    for mv in ["9i9h", "9a9b", "8i8h"] {
        play(&mut pos, mv);
        assert_eq!(pos.outcome(), None);
    }
    play(&mut pos, "8a8b");
    assert_eq!(
        pos.outcome(),
        Some(crate::core::Outcome::draw("move-limit"))
    );
    // The limit does not stop move generation (perft ignores it).
    assert!(pos.count_moves() > 0);

    let mut pos = board(FIFTH_CAPTURE, 'b', &rules("five", 1));
    play(&mut pos, "7i7h");
    assert_eq!(pos.outcome().map(|o| o.reason), Some("five-captured"));
}

// --- the naive twin -------------------------------------------------------

type Grid = [[char; 9]; 9];

fn grid(pos: &Hasami) -> Grid {
    let mut g = [['.'; 9]; 9];
    for s in pos.stones(BLACK) {
        g[s.row() as usize][s.col() as usize] = 'P';
    }
    for s in pos.stones(WHITE) {
        g[s.row() as usize][s.col() as usize] = 'p';
    }
    g
}

fn naive_moves(pos: &Hasami) -> Vec<String> {
    let g = grid(pos);
    let me = if pos.side_to_move() == BLACK {
        'P'
    } else {
        'p'
    };
    let mut out = Vec::new();
    for r in 0..9i32 {
        for c in 0..9i32 {
            if g[r as usize][c as usize] != me {
                continue;
            }
            for (dr, dc) in [(-1, 0), (1, 0), (0, -1), (0, 1)] {
                let (mut rr, mut cc) = (r + dr, c + dc);
                while (0..9).contains(&rr)
                    && (0..9).contains(&cc)
                    && g[rr as usize][cc as usize] == '.'
                {
                    out.push(format!(
                        "{}{}",
                        Square::new(r as u8, c as u8),
                        Square::new(rr as u8, cc as u8)
                    ));
                    rr += dr;
                    cc += dc;
                }
            }
        }
    }
    out.sort();
    out
}

/// The board after a move, captures applied by walking the grid.
fn naive_after(pos: &Hasami, text: &str) -> Grid {
    let mut g = grid(pos);
    let (from, to) = (sq(&text[..2]), sq(&text[2..]));
    let me = g[from.row() as usize][from.col() as usize];
    let them = if me == 'P' { 'p' } else { 'P' };
    g[from.row() as usize][from.col() as usize] = '.';
    g[to.row() as usize][to.col() as usize] = me;
    let (r, c) = (to.row() as i32, to.col() as i32);
    let at = |g: &Grid, r: i32, c: i32| {
        if (0..9).contains(&r) && (0..9).contains(&c) {
            g[r as usize][c as usize]
        } else {
            '#'
        }
    };
    let mut taken = Vec::new();
    for (dr, dc) in [(-1, 0), (1, 0), (0, -1), (0, 1)] {
        let mut run = Vec::new();
        let (mut rr, mut cc) = (r + dr, c + dc);
        while at(&g, rr, cc) == them {
            run.push((rr, cc));
            rr += dr;
            cc += dc;
        }
        if !run.is_empty() && at(&g, rr, cc) == me {
            taken.extend(run);
        }
    }
    for (cr, cc) in [(0, 0), (0, 8), (8, 0), (8, 8)] {
        let neighbours = [
            (cr, if cc == 0 { 1 } else { 7 }),
            (if cr == 0 { 1 } else { 7 }, cc),
        ];
        if at(&g, cr, cc) == them
            && neighbours.contains(&(r, c))
            && neighbours.iter().all(|&(nr, nc)| at(&g, nr, nc) == me)
        {
            taken.push((cr, cc));
        }
    }
    for (rr, cc) in taken {
        g[rr as usize][cc as usize] = '.';
    }
    g
}

/// Random boards (up to nine stones a side anywhere) and random playouts.
fn random_positions(count: usize, seed: u64) -> Vec<Hasami> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let rules = HasamiRules::default();
    let mut out = Vec::new();
    while out.len() < count {
        let mut pos = if rng.gen_bool(0.5) {
            let mut pos = Hasami::start(&rules);
            for _ in 0..rng.gen_range(0..60) {
                let mut moves = MoveList::new();
                pos.generate_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                pos.make(moves[rng.gen_range(0..moves.len())]);
            }
            pos
        } else {
            let mut pos = Hasami::empty_for_tests(if rng.gen_bool(0.5) { 'b' } else { 'w' });
            let mut squares: Vec<u8> = (0..81).collect();
            for i in 0..81 {
                squares.swap(i, rng.gen_range(i..81));
            }
            let (black, white) = (rng.gen_range(5..=9), rng.gen_range(5..=9));
            for (i, &s) in squares.iter().take(black + white).enumerate() {
                pos.put(if i < black { BLACK } else { WHITE }, Square(s));
            }
            pos
        };
        if pos.capture_winner().is_none() {
            pos = Hasami::from_sfen(&pos.sfen(), &rules).unwrap();
            out.push(pos);
        }
    }
    out
}

#[test]
fn fast_generator_agrees_with_the_naive_one() {
    for pos in random_positions(400, 7) {
        let mut moves = MoveList::new();
        pos.generate_moves(&mut moves);
        let mut fast: Vec<String> = moves.iter().map(|&m| pos.format_move(m)).collect();
        fast.sort();
        assert_eq!(fast, naive_moves(&pos), "{}", pos.sfen());
        assert_eq!(pos.count_moves() as usize, fast.len());
    }
}

#[test]
fn captures_agree_with_the_naive_walk_and_unmake_restores() {
    for pos in random_positions(300, 11) {
        let mut moves = MoveList::new();
        pos.generate_moves(&mut moves);
        let mut tactical = MoveList::new();
        pos.generate_tactical(&mut tactical);
        let mut work = pos.clone();
        for &mv in moves.iter() {
            let text = pos.format_move(mv);
            work.make(mv);
            assert_eq!(
                grid(&work),
                naive_after(&pos, &text),
                "{} {text}",
                pos.sfen()
            );
            assert_eq!(work.key(), work.compute_key());
            // The cache follows the position through make and unmake.
            assert_eq!(work.cached_capture_targets(), work.capture_targets());
            let captured =
                work.stones(pos.side_to_move().other()) != pos.stones(pos.side_to_move().other());
            assert_eq!(pos.is_tactical(mv), captured);
            assert_eq!(tactical.contains(&mv), captured);
            work.unmake(mv);
            assert_eq!(work.cached_capture_targets(), pos.capture_targets());
            assert_eq!(work.sfen(), pos.sfen());
            assert_eq!(work.key(), pos.key());
        }
    }
}

#[test]
fn perft_agrees_with_naive_perft_on_random_positions() {
    fn naive_perft(pos: &Hasami, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        if pos.capture_winner().is_some() {
            return 0;
        }
        naive_moves(pos)
            .iter()
            .map(|text| {
                let mut child = pos.clone();
                play(&mut child, text);
                naive_perft(&child, depth - 1)
            })
            .sum()
    }
    for mut pos in random_positions(12, 3) {
        assert_eq!(perft(&mut pos, 3), naive_perft(&pos, 3), "{}", pos.sfen());
    }
}

impl Hasami {
    fn empty_for_tests(side: char) -> Hasami {
        Hasami::from_sfen(&format!("9/9/9/9/9/9/9/9/9 {side} - 1"), &mechanics()).unwrap()
    }
}

#[test]
fn conformance_under_every_win_condition() {
    for (i, win) in ["five", "lead3", "all"].into_iter().enumerate() {
        let start = Hasami::start(&rules(win, 0));
        crate::core::conformance::random_playouts(&start, start.rules(), 20, 400, i as u64);
    }
    let midgame = Hasami::from_sfen(
        "p7p/2pp1pp2/9/1p2P2p1/9/1P2p2P1/9/2PP1PP2/P7P b - 40",
        &rules("all", 60),
    )
    .unwrap();
    crate::core::conformance::random_playouts(&midgame, midgame.rules(), 20, 200, 9);
}

#[test]
fn mobility_balance_and_capture_targets_agree_with_per_stone_counts() {
    for pos in random_positions(300, 23) {
        for side in [BLACK, WHITE] {
            let expected = pos.mobility(side) as i32 - pos.mobility(side.other()) as i32;
            assert_eq!(pos.mobility_balance(side), expected, "{}", pos.sfen());
        }
        // Every empty square where arriving captures, and no other.
        let expected = Square::all()
            .filter(|&to| !pos.occupied().has(to))
            .filter(|&to| {
                // `captures_of` looks at the arrival square only.
                let mv = HasamiMove { from: to, to };
                !pos.captures_of(mv).is_empty()
            })
            .fold(Bitboard::EMPTY, |set, to| set | to.bit());
        assert_eq!(pos.capture_targets(), expected, "{}", pos.sfen());
    }
}

#[test]
fn a_null_move_passes_the_turn_and_is_taken_back_exactly() {
    let mut pos = Hasami::start(&HasamiRules::default());
    play(&mut pos, "9i9h");
    let (sfen, key) = (pos.sfen(), pos.key());
    assert!(pos.make_null());
    assert_eq!(pos.side_to_move(), BLACK);
    assert_eq!(pos.ply(), 2);
    assert_eq!(pos.key(), pos.compute_key());
    pos.unmake_null();
    assert_eq!((pos.sfen(), pos.key()), (sfen, key));
    // Passes count as plies between occurrences: black shuffling while white
    // passes repeats the position every second black move.
    let mut pos = Hasami::start(&HasamiRules::default());
    for _ in 0..3 {
        assert_eq!(pos.outcome(), None);
        for text in ["9i9h", "9h9i"] {
            play(&mut pos, text);
            assert!(pos.make_null());
        }
    }
    assert_eq!(pos.occurrences(), 4);
    assert_eq!(
        pos.outcome(),
        Some(crate::core::Outcome::draw("repetition"))
    );
}

/// The opponent's captures, found by passing and trying each of its moves.
fn threats_by_passing(pos: &Hasami) -> (Bitboard, Bitboard) {
    let mut passed = pos.clone();
    passed.make_pass();
    let mut moves = MoveList::new();
    passed.generate_moves(&mut moves);
    moves
        .iter()
        .map(|&mv| (mv.to, passed.captures_of(mv)))
        .filter(|(_, taken)| !taken.is_empty())
        .fold(
            (Bitboard::EMPTY, Bitboard::EMPTY),
            |(landings, all), (to, taken)| (landings | to.bit(), all | taken),
        )
}

#[test]
fn threats_are_the_captures_the_opponent_could_make_next() {
    // White threatens 5e from 4e, which its stone on 4a reaches; the landing
    // 7g would take 8g but no white stone reaches it. Black threatens 6e
    // from 7e, which its stone on 7f reaches.
    let diagram = "
        . . . . . p . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . p P . . . .
        . . P . . . . . .
        p P . P . . . . .
        . . P . . . . . .
        . . . . . . . . .";
    let black = board(diagram, 'b', &mechanics());
    let white_targets = movegen::capture_targets(black.stones(WHITE), black.stones(BLACK));
    assert_eq!(white_targets, sq("4e").bit() | sq("7g").bit());
    assert_eq!(black.threats(), (sq("4e").bit(), sq("5e").bit()));
    let white = board(diagram, 'w', &mechanics());
    assert_eq!(white.threats(), (sq("7e").bit(), sq("6e").bit()));

    // Two landings: a corner capture (8a with 9b) and a line capture.
    let fork = board(
        "
        P p . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        p . . p P . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . p . . .",
        'b',
        &mechanics(),
    );
    assert_eq!(
        fork.threats(),
        (
            sq("9b").bit() | sq("4e").bit(),
            sq("9a").bit() | sq("5e").bit()
        )
    );

    for pos in random_positions(300, 29) {
        assert_eq!(pos.threats(), threats_by_passing(&pos), "{}", pos.sfen());
    }
}
