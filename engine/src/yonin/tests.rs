//! Yonin rule tests on hand-built positions, a naive second move generator, and
//! the conformance playouts.

use crate::core::Notation;
use crate::session::Playable;

use super::piece::Kind;
use super::state::State;
use super::*;
use crate::core::game::GameResult;
use crate::core::{Game, HouseRules, MoveList, Seat};
use crate::perft::perft;
use crate::search::MultiPlayerGame;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

// ---------------------------------------------------------------- helpers

/// A position in the notation from `(square, token)` pairs and the other fields.
fn build(pieces: &[(&str, &str)], hands: &str, due: usize, out: &str, recent: &str) -> String {
    let mut grid: Vec<Vec<Option<&str>>> = vec![vec![None; 9]; 9];
    for &(sq, token) in pieces {
        let b = sq.as_bytes();
        let (file, rank) = ((b[0] - b'0') as usize, (b[1] - b'a') as usize);
        assert!(grid[rank][9 - file].is_none(), "{sq} given twice");
        grid[rank][9 - file] = Some(token);
    }
    let rows: Vec<String> = grid
        .iter()
        .map(|row| {
            let mut text = String::new();
            let mut empty = 0;
            for cell in row {
                match cell {
                    None => empty += 1,
                    Some(token) => {
                        if empty > 0 {
                            text.push_str(&empty.to_string());
                            empty = 0;
                        }
                        text.push_str(token);
                    }
                }
            }
            if empty > 0 {
                text.push_str(&empty.to_string());
            }
            text
        })
        .collect();
    format!("{} {hands} {due} {out} {recent} 1", rows.join("/"))
}

fn at(sfen: &str) -> Yonin {
    at_with(sfen, &YoninRules::default())
}

fn at_with(sfen: &str, rules: &YoninRules) -> Yonin {
    Yonin::from_sfen(sfen, rules).unwrap_or_else(|e| panic!("{e}"))
}

fn pairs() -> YoninRules {
    let mut rules = YoninRules::default();
    rules.set("YoninPairs", "true").unwrap();
    rules
}

fn legal(pos: &Yonin) -> Vec<String> {
    let mut moves = MoveList::new();
    pos.generate_moves(&mut moves);
    let mut out: Vec<String> = moves.iter().map(|&m| pos.format_move(m)).collect();
    out.sort();
    out
}

fn legal_from(pos: &Yonin, prefix: &str) -> Vec<String> {
    legal(pos)
        .into_iter()
        .filter(|m| m.starts_with(prefix))
        .collect()
}

fn play(pos: &mut Yonin, moves: &str) {
    for text in moves.split_whitespace() {
        let mv = pos
            .parse_move(text)
            .unwrap_or_else(|e| panic!("{e} in\n{}", pos.diagram()));
        pos.make(mv);
    }
}

fn detail<'a>(pos: &Yonin, key: &str, status: &'a mut String) -> &'a str {
    *status = pos.status_details();
    let words: Vec<&str> = status.split_whitespace().collect();
    let i = words.iter().position(|w| *w == key).expect("status key");
    let value = words[i + 1];
    let start = status.find(&format!("{key} {value}")).unwrap() + key.len() + 1;
    &status[start..start + value.len()]
}

fn status(pos: &Yonin, key: &str) -> String {
    let mut s = String::new();
    detail(pos, key, &mut s).to_string()
}

fn places(pos: &Yonin) -> ([u8; 4], &'static str) {
    let outcome = pos.outcome().expect("the game is over");
    match outcome.result {
        GameResult::Places(p) => (p.into_array(), outcome.reason),
        other => panic!("not places: {other:?}"),
    }
}

// ---------------------------------------------------------------- perft

#[test]
fn perft_from_start() {
    let mut pos = Yonin::start(&YoninRules::default());
    for (depth, count) in [(1, 9), (2, 81), (3, 729), (4, 6_561), (5, 82_134)] {
        assert_eq!(perft(&mut pos, depth), count, "depth {depth}");
    }
}

#[test]
fn the_first_seat_is_a_setting() {
    let mut rules = YoninRules::default();
    rules.set("YoninFirstSeat", "2").unwrap();
    let mut pos = Yonin::start(&rules);
    assert_eq!(pos.side_to_move(), Seat::new(2));
    // By symmetry the same counts with any seat first.
    assert_eq!(perft(&mut pos, 3), 729);
    assert!(legal(&pos).contains(&"5c5d".to_string()));
}

// ---------------------------------------------------------------- notation

#[test]
fn start_position_reads_and_writes() {
    let pos = Yonin::start(&YoninRules::default());
    assert_eq!(pos.sfen(), START_SFEN);
    let text = pos.sfen();
    for (sq, token) in [("5i", "K0"), ("9e", "K1"), ("5a", "K2"), ("1e", "K3")] {
        let mid = build(&[(sq, token)], "-/-/-/-", 0, "-", "-");
        assert!(!mid.is_empty());
    }
    assert!(text.starts_with("2S2G2K2G2S22/"));
    assert_eq!(status(&pos, "totals"), "9,9,9,9");
    assert_eq!(status(&pos, "out"), "-");
    assert_eq!(status(&pos, "check"), "-");
}

#[test]
fn malformed_positions_are_refused_with_a_reason() {
    let kings = |extra: &str| format!("4K24/9/9/9/K17K3/9/9/9/4K04 {extra}");
    assert!(Yonin::from_sfen(&kings("-/-/-/- 0 - - 1"), &YoninRules::default()).is_ok());
    for (text, why) in [
        (kings("-/-/-/- 0 - -"), "fields"),
        (kings("-/-/- 0 - - 1"), "four hands"),
        (kings("-/-/-/- 4 - - 1"), "seat to move"),
        (kings("-/-/-/- 0 - - 0"), "move number"),
        (kings("X/-/-/- 0 - - 1"), "not R, G, S or P"),
        (kings("-/-/-/- 0 2:2 - 1"), "mate itself"),
        (kings("-/-/-/- 0 2:1 - 1"), "not flipped"),
        (kings("-/-/-/- 0 - 00 1"), "twice"),
        (kings("9P/8P/-/- 0 - - 1"), "only 16 exist"),
        (
            "4K24/9/9/9/K17K3/9/9/9/4K03 -/-/-/- 0 - - 1".into(),
            "covers 8",
        ),
        (
            "4K24/9/9/9/K17K3/9/9/9/4K05 -/-/-/- 0 - - 1".into(),
            "more than nine",
        ),
        ("4K24/9/9/9/K17K3/9/9/9/4K4 -/-/-/- 0 - - 1".into(), "owner"),
        (
            "4K24/9/9/9/K17K3/9/9/9/4K4@1 -/-/-/- 0 - - 1".into(),
            "owner",
        ),
        (
            "4K24/9/9/9/K17K3/9/9/9/4K0@14 -/-/-/- 0 - - 1".into(),
            "faces",
        ),
        (
            "4K24/9/9/9/K17K3/9/9/9/4X04 -/-/-/- 0 - - 1".into(),
            "piece letter",
        ),
        (
            "4K24/9/9/9/K17K3/9/9/9/4+G04 -/-/-/- 0 - - 1".into(),
            "cannot be promoted",
        ),
        ("4K24/9/9/9/K17K3/9/9/9/9 -/-/-/- 0 - - 1".into(), "kings"),
        (
            "P03K24/9/9/9/K17K3/9/9/9/4K04 -/-/-/- 0 - - 1".into(),
            "last row",
        ),
        (
            "4k24/9/9/9/K17K3/9/9/9/4K04 -/-/-/- 0 - - 1".into(),
            "not out",
        ),
        (
            "4K24/9/9/9/K17K3/9/9/9/4K04/9 -/-/-/- 0 - - 1".into(),
            "ranks",
        ),
        (
            "4k24/9/9/9/K17K3/9/9/9/4K04 -/-/P/- 0 2:1 - 1".into(),
            "in hand",
        ),
        (
            "4k24/9/9/9/K17K3/9/9/9/4K04 -/-/-/- 2 2:1 - 1".into(),
            "is out",
        ),
        (
            "4k24/9/9/9/K17K3/9/9/9/4K04 -/-/-/- 0 2:1,2:1 - 1".into(),
            "twice",
        ),
    ] {
        let err = Yonin::from_sfen(&text, &YoninRules::default())
            .err()
            .unwrap_or_else(|| panic!("{text} accepted"));
        assert!(err.reason.contains(why), "{text}: {}", err.reason);
    }
}

// ---------------------------------------------------------------- check priority

/// Four bare kings on their start squares plus `extra`.
fn kings_and(extra: &[(&'static str, &'static str)]) -> Vec<(&'static str, &'static str)> {
    let mut pieces = vec![("5i", "K0"), ("9e", "K1"), ("5a", "K2"), ("1e", "K3")];
    pieces.extend_from_slice(extra);
    pieces
}

#[test]
fn check_priority_skips_seats_and_play_continues_from_the_answer() {
    let mut pos = at(&build(&kings_and(&[("6c", "R0")]), "-/-/-/-", 0, "-", "-"));
    play(&mut pos, "6c5c");
    assert_eq!(
        pos.side_to_move(),
        Seat::new(2),
        "seat 2 in check answers before seat 1"
    );
    assert_eq!(status(&pos, "check"), "2");
    play(&mut pos, "5a4a");
    assert_eq!(
        pos.side_to_move(),
        Seat::new(3),
        "then clockwise from seat 2; seat 1's turn is lost"
    );
}

#[test]
fn two_seats_in_check_answer_nearest_clockwise_first() {
    let mut pos = at(&build(
        &[
            ("5i", "K0"),
            ("9e", "K1"),
            ("4a", "K2"),
            ("1e", "K3"),
            ("5h", "R0"),
        ],
        "-/-/-/-",
        0,
        "-",
        "-",
    ));
    play(&mut pos, "5h5e");
    assert_eq!(status(&pos, "check"), "1,3");
    assert_eq!(pos.side_to_move(), Seat::new(1));
    play(&mut pos, "9e9d");
    assert_eq!(
        pos.side_to_move(),
        Seat::new(3),
        "seat 3 still in check answers before seat 2"
    );
    play(&mut pos, "1e1d");
    assert_eq!(pos.side_to_move(), Seat::new(0));
}

#[test]
fn a_king_left_in_check_cannot_be_captured_nor_any_king_square_entered() {
    // Seat 0 is due while seat 2 stands in check from its rook.
    let pos = at(&build(&kings_and(&[("5c", "R0")]), "-/-/-/-", 0, "-", "-"));
    let rook = legal_from(&pos, "5c");
    assert!(rook.contains(&"5c5b".to_string()));
    assert!(!rook.contains(&"5c5a".to_string()) && !rook.contains(&"5c5a+".to_string()));
}

#[test]
fn a_pinned_piece_keeps_to_its_line_and_a_check_is_answered_on_its_line() {
    // Seat 2's rook pins seat 0's gold to its king along file 5.
    let pos = at(&build(
        &kings_and(&[("5c", "R2"), ("5g", "G0")]),
        "-/-/-/-",
        0,
        "-",
        "-",
    ));
    assert_eq!(legal_from(&pos, "5g"), ["5g5f", "5g5h"]);
    // Unpinned, the rook checks: a gold blocks or is dropped between, nowhere else.
    let pos = at(&build(
        &kings_and(&[("5c", "R2"), ("4g", "G0")]),
        "G/-/-/-",
        0,
        "-",
        "-",
    ));
    assert_eq!(status(&pos, "check"), "0");
    assert_eq!(legal_from(&pos, "4g"), ["4g5f", "4g5g"]);
    assert_eq!(
        legal_from(&pos, "G*"),
        ["G*5d", "G*5e", "G*5f", "G*5g", "G*5h"]
    );
    assert!(legal(&pos).iter().all(|m| m.starts_with("4g")
        || m.starts_with("G*")
        || m.starts_with("5i") && !m.starts_with("5i5h")));
}

// ---------------------------------------------------------------- flipped kings

#[test]
fn a_flipped_king_blocks_sliders_attacks_nothing_and_cannot_be_taken() {
    let pos = at(&build(
        &[
            ("5i", "K0"),
            ("5e", "k1"),
            ("5a", "K2"),
            ("2a", "K3"),
            ("5g", "R0"),
        ],
        "-/-/-/-",
        0,
        "1:2",
        "-",
    ));
    assert_eq!(
        legal_from(&pos, "5g5"),
        ["5g5f", "5g5h"],
        "stops short of 5e and does not take it"
    );
    // A flipped king next to a square does not attack it; a live king does.
    let pos = at(&build(
        &[("5i", "K0"), ("6g", "k1"), ("5a", "K2"), ("3g", "K3")],
        "-/-/-/-",
        0,
        "1:2",
        "-",
    ));
    let king = legal_from(&pos, "5i");
    assert!(
        king.contains(&"5i6h".to_string()),
        "next to the flipped king: {king:?}"
    );
    assert!(
        !king.contains(&"5i4h".to_string()),
        "next to seat 3's live king"
    );
}

#[test]
fn two_flipped_kings_of_one_seat_are_refused() {
    let text = build(
        &[
            ("5i", "K0"),
            ("5e", "k1"),
            ("7h", "k1"),
            ("5a", "K2"),
            ("1e", "K3"),
        ],
        "-/-/-/-",
        0,
        "1:2",
        "-",
    );
    assert!(Yonin::from_sfen(&text, &YoninRules::default()).is_err());
}

// ---------------------------------------------------------------- checkmate

/// Seat 2's king in the corner, seat 0 to drop a gold for mate on 1b (protected
/// by the silver on 2c); seat 2 holds two pawns and a pawn on 3f.
fn corner_mate() -> Yonin {
    at(&build(
        &[
            ("5i", "K0"),
            ("9e", "K1"),
            ("1a", "K2"),
            ("1e", "K3"),
            ("2c", "S0"),
            ("3f", "P2"),
        ],
        "G/-/2P/-",
        0,
        "-",
        "-",
    ))
}

#[test]
fn checkmate_hands_everything_to_the_checker_and_facings_stay() {
    let mut pos = corner_mate();
    play(&mut pos, "G*1b");
    assert_eq!(status(&pos, "out"), "2:0");
    assert_eq!(status(&pos, "mates"), "1,0,0,0");
    assert_eq!(
        pos.side_to_move(),
        Seat::new(3),
        "play goes on clockwise from the mated seat"
    );
    assert!(!pos.is_alive(Seat::new(2)));
    assert!(pos.sfen().contains("k2"), "{}", pos.sfen());
    assert!(pos.sfen().contains("P0@2"), "{}", pos.sfen());
    assert!(
        pos.sfen().contains(" 2P/-/-/- "),
        "the hand passed: {}",
        pos.sfen()
    );
    // Seat 0: king, silver, gold, inherited pawn, two pawns in hand, flipped king.
    assert_eq!(status(&pos, "totals"), "7,1,0,1");
    assert!(pos.outcome().is_none(), "one mate does not end the game");
    play(&mut pos, "1e1f");
    // The inherited pawn advances toward rank i and may promote entering rows g-i.
    assert_eq!(legal_from(&pos, "3f"), ["3f3g", "3f3g+"]);
    play(&mut pos, "3f3g+");
    assert!(pos.sfen().contains("+P0@2"));
}

#[test]
fn an_inherited_pawn_never_counts_for_the_new_owners_two_pawn_line() {
    let mut pos = corner_mate();
    play(&mut pos, "G*1b 1e1f");
    // Seat 0 has the pawn 3f facing 2 and two pawns in hand: file 3 is open to it.
    let drops = legal_from(&pos, "P*3");
    assert!(drops.contains(&"P*3h".to_string()), "{drops:?}");
}

/// Seat 1 takes seat 2's last squares (3h2h); seat 2 is not in check but
/// cannot move, and is out.
fn seat_two_stalemated_by_one() -> Yonin {
    let mut pos = at(&build(
        &[
            ("5i", "K0"),
            ("9e", "K1"),
            ("1a", "K2"),
            ("1e", "K3"),
            ("3h", "R1"),
            ("1c", "G0"),
        ],
        "-/-/-/-",
        1,
        "-",
        "-",
    ));
    play(&mut pos, "3h2h");
    pos
}

#[test]
fn mate_without_check_is_credited_to_the_last_mover() {
    let pos = seat_two_stalemated_by_one();
    assert_eq!(status(&pos, "check"), "-");
    assert_eq!(status(&pos, "out"), "2:1");
    assert_eq!(pos.side_to_move(), Seat::new(3));
}

#[test]
fn a_forfeit_ranks_the_others_as_an_unfinished_game_and_the_faulting_seat_last() {
    let start = Yonin::start(&YoninRules::default());
    assert_eq!(
        start.forfeit(Seat::new(2)),
        GameResult::Places([1, 1, 4, 1].into())
    );
    // Pairs: the faulting seat's team loses.
    let pairs = Yonin::start(&pairs());
    assert_eq!(
        pairs.forfeit(Seat::new(1)),
        GameResult::Places([1, 3, 1, 3].into())
    );
    // Seat 1 mates seat 2: survivors by checkmates made, then the eliminated
    // seat, then the one that faults.
    let pos = seat_two_stalemated_by_one();
    assert_eq!(status(&pos, "out"), "2:1");
    assert_eq!(
        pos.forfeit(Seat::new(3)),
        GameResult::Places([2, 1, 3, 4].into())
    );
    assert_eq!(
        pos.forfeit(Seat::new(0)),
        GameResult::Places([4, 1, 3, 2].into())
    );
}

/// Seat 0's two rooks, one move (6c6a) from mating seats 1 and 3 at once.
fn double_mate_ahead() -> String {
    build(
        &[
            ("5i", "K0"),
            ("9a", "K1"),
            ("3g", "K2"),
            ("1a", "K3"),
            ("5b", "R0"),
            ("6c", "R0"),
        ],
        "-/-/-/-",
        0,
        "-",
        "-",
    )
}

#[test]
fn several_eliminations_after_one_move_end_the_game() {
    let mut pos = at(&double_mate_ahead());
    play(&mut pos, "6c6a");
    assert_eq!(status(&pos, "out"), "1:0,3:0", "nearest clockwise first");
    assert_eq!(places(&pos), ([1, 4, 2, 3], "second-checkmate"));
    assert!(legal(&pos).is_empty());
}

fn second_mate(seat1_hand: &str) -> Yonin {
    at(&build(
        &[
            ("9i", "K0"),
            ("9a", "K1"),
            ("5a", "k2"),
            ("1e", "K3"),
            ("5h", "R3"),
            ("6g", "R3"),
        ],
        &format!("-/{seat1_hand}/-/-"),
        3,
        "2:1",
        "1",
    ))
}

#[test]
fn the_second_checkmate_ends_the_game_and_totals_break_ties() {
    // Seat 1 and seat 3 have one mate each; seat 3's total is 4 (king, two rooks,
    // flipped king 0); seat 1's is king + flipped king 2 + its hand.
    for (hand, expected) in [
        ("2G2S", [3, 1, 4, 2]),
        ("G", [3, 2, 4, 1]),
        ("2G", [3, 2, 4, 1]),
    ] {
        let mut pos = second_mate(hand);
        play(&mut pos, "6g6i");
        assert_eq!(status(&pos, "out"), "2:1,0:3");
        assert_eq!(
            places(&pos),
            (expected, "second-checkmate"),
            "seat 1 hand {hand}"
        );
    }
    let mut pos = second_mate("2G");
    play(&mut pos, "6g6i");
    assert_eq!(
        status(&pos, "totals"),
        "0,4,0,4",
        "equal: the later last mate wins"
    );
}

// ---------------------------------------------------------------- credit

/// Seat 2 due, mated in the corner by a rook of seat 0 and a rook of seat 1.
fn double_checked_mate(recent: &str) -> Yonin {
    at(&build(
        &[
            ("5i", "K0"),
            ("9e", "K1"),
            ("1a", "K2"),
            ("3i", "K3"),
            ("5a", "R0"),
            ("1e", "R1"),
            ("2c", "G0"),
        ],
        "-/-/-/-",
        2,
        "-",
        recent,
    ))
}

#[test]
fn credit_goes_to_the_checker_who_moved_last() {
    assert_eq!(status(&double_checked_mate("10"), "out"), "2:1");
    assert_eq!(status(&double_checked_mate("0312"), "out"), "2:0");
    // Nobody has moved: nearest counter-clockwise from the mated seat.
    assert_eq!(status(&double_checked_mate("-"), "out"), "2:1");
    // Seat 2 stalemated (no check): credit by recency, the mated seat left out.
    let stalemated = |recent: &str| {
        at(&build(
            &[
                ("5i", "K0"),
                ("9e", "K1"),
                ("1a", "K2"),
                ("1e", "K3"),
                ("2h", "R0"),
                ("1c", "G0"),
            ],
            "-/-/-/-",
            2,
            "-",
            recent,
        ))
    };
    // No move yet: nearest live seat counter-clockwise.
    assert_eq!(status(&stalemated("-"), "out"), "2:1");
    // The mated seat is never its own creditor, even when it moved last (it is
    // due again after a move of its own: rule 7's "the seat that moved last"
    // means the last other seat).
    assert_eq!(status(&stalemated("2"), "out"), "2:1");
    assert_eq!(status(&stalemated("230"), "out"), "2:3");
    assert_eq!(status(&stalemated("203"), "out"), "2:0");
}

// ---------------------------------------------------------------- drops

#[test]
fn two_pawn_line_follows_the_droppers_facing() {
    // Seat 0 has a pawn on file 5; seat 1 has one on rank e.
    let pos = at(&build(
        &kings_and(&[("5g", "P0"), ("7d", "P1")]),
        "P/P/-/-",
        0,
        "-",
        "-",
    ));
    let drops = legal_from(&pos, "P*");
    assert!(drops.iter().all(|d| !d.starts_with("P*5")), "{drops:?}");
    assert!(drops.contains(&"P*4e".to_string()));
    let pos = at(&build(
        &kings_and(&[("5g", "P0"), ("7d", "P1")]),
        "P/P/-/-",
        1,
        "-",
        "-",
    ));
    let drops = legal_from(&pos, "P*");
    assert!(
        drops.iter().all(|d| !d.ends_with('d')),
        "rank d is blocked: {drops:?}"
    );
    assert!(
        drops.contains(&"P*5f".to_string()) && drops.contains(&"P*5c".to_string()),
        "seat 0's pawn on file 5 does not bind seat 1"
    );
    // A promoted pawn, or one of another facing, does not block.
    let pos = at(&build(
        &kings_and(&[("5g", "+P0"), ("4g", "P0@2")]),
        "P/-/-/-",
        0,
        "-",
        "-",
    ));
    let drops = legal_from(&pos, "P*");
    assert!(drops.contains(&"P*5e".to_string()) && drops.contains(&"P*4e".to_string()));
}

#[test]
fn no_pawn_drop_on_the_last_row_of_the_droppers_facing() {
    let last = [('a', 0), ('1', 1), ('i', 2), ('9', 3)];
    for (mark, seat) in last {
        let hands = (0..4)
            .map(|s| if s == seat { "P" } else { "-" })
            .collect::<Vec<_>>()
            .join("/");
        let pos = at(&build(&kings_and(&[]), &hands, seat, "-", "-"));
        let drops = legal_from(&pos, "P*");
        assert!(!drops.is_empty());
        let on_last = |d: &String| {
            if mark.is_ascii_digit() {
                d.as_bytes()[2] == mark as u8
            } else {
                d.as_bytes()[3] == mark as u8
            }
        };
        assert!(!drops.iter().any(on_last), "seat {seat}: {drops:?}");
        // Other pieces may go there.
        assert!(legal_from(&pos, "P*").len() < 81);
    }
}

#[test]
fn no_pawn_drop_in_front_of_a_flipped_king_but_a_pawn_may_move_there() {
    let pos = at(&build(
        &[
            ("5i", "K0"),
            ("5a", "k1"),
            ("9e", "K2"),
            ("1e", "K3"),
            ("4c", "P0"),
        ],
        "P/-/-/-",
        0,
        "1:2",
        "-",
    ));
    let drops = legal_from(&pos, "P*");
    assert!(!drops.contains(&"P*5b".to_string()), "{drops:?}");
    assert!(drops.contains(&"P*5c".to_string()));
    // Seat 3 (facing file 9) may not drop on 4a, in front of 5a from its side.
    let pos = at(&build(
        &[
            ("5i", "K0"),
            ("5a", "k1"),
            ("9e", "K2"),
            ("1e", "K3"),
            ("4c", "P0"),
        ],
        "-/-/-/P",
        3,
        "1:2",
        "-",
    ));
    let drops = legal_from(&pos, "P*");
    assert!(!drops.contains(&"P*4a".to_string()) && drops.contains(&"P*5b".to_string()));
    let pos = at(&build(
        &[
            ("5i", "K0"),
            ("4a", "k1"),
            ("9e", "K2"),
            ("1e", "K3"),
            ("4c", "P0"),
        ],
        "-/-/-/-",
        0,
        "1:2",
        "-",
    ));
    assert_eq!(legal_from(&pos, "4c"), ["4c4b", "4c4b+"]);
}

/// Seat 2's king in the corner; golds of seat 0 on 3b (covering 2a, 2b) and,
/// with `protected`, on 1c (guarding 1b).
fn pawn_mate(protected: bool, extra: &[(&'static str, &'static str)], due: usize) -> Yonin {
    let mut pieces = vec![
        ("9i", "K0"),
        ("9e", "K1"),
        ("1a", "K2"),
        ("1e", "K3"),
        ("3b", "G0"),
    ];
    if protected {
        pieces.push(("1c", "G0"));
    }
    pieces.extend_from_slice(extra);
    at(&build(&pieces, "P/-/-/-", due, "-", "-"))
}

#[test]
fn drop_pawn_mate_is_illegal_but_a_pawn_drop_check_is_not() {
    assert!(!legal(&pawn_mate(true, &[], 0)).contains(&"P*1b".to_string()));
    let mut pos = pawn_mate(false, &[], 0);
    assert!(legal(&pos).contains(&"P*1b".to_string()));
    play(&mut pos, "P*1b");
    assert_eq!(pos.side_to_move(), Seat::new(2));
    assert_eq!(legal(&pos), ["1a1b"]);
    // A pawn that mates a seat that does not answer next is legal: seat 1,
    // nearer, stands in check from seat 3's rook on 5e.
    let mut pos = pawn_mate(true, &[("5e", "R3")], 0);
    assert!(legal(&pos).contains(&"P*1b".to_string()));
    play(&mut pos, "P*1b");
    assert_eq!(pos.side_to_move(), Seat::new(1));
}

// ---------------------------------------------------------------- promotion

#[test]
fn promotion_entering_within_and_leaving_the_facing_zone() {
    let pos = at(&build(
        &kings_and(&[
            ("7d", "S0"),
            ("3c", "S0"),
            ("6b", "R0"),
            ("8b", "P0"),
            ("2d", "P0"),
        ]),
        "-/-/-/-",
        0,
        "-",
        "-",
    ));
    let silver = legal_from(&pos, "7d");
    assert!(
        silver.contains(&"7d7c".to_string()) && silver.contains(&"7d7c+".to_string()),
        "entering"
    );
    assert!(
        silver.contains(&"7d6e".to_string()) && !silver.contains(&"7d6e+".to_string()),
        "outside"
    );
    let silver = legal_from(&pos, "3c");
    for m in ["3c3b", "3c3b+", "3c4d", "3c4d+"] {
        assert!(
            silver.contains(&m.to_string()),
            "{m}: within and leaving: {silver:?}"
        );
    }
    assert!(
        legal_from(&pos, "6b").contains(&"6b6h+".to_string()),
        "a rook leaving far"
    );
    assert_eq!(
        legal_from(&pos, "8b"),
        ["8b8a+"],
        "a pawn on its last row must promote"
    );
    assert_eq!(legal_from(&pos, "2d"), ["2d2c", "2d2c+"]);
    // Seat 1 advances toward file 1.
    let pos = at(&build(
        &[
            ("5i", "K0"),
            ("9e", "K1"),
            ("5a", "K2"),
            ("1i", "K3"),
            ("2c", "P1"),
            ("4g", "P1"),
            ("6f", "P1"),
        ],
        "-/-/-/-",
        1,
        "-",
        "-",
    ));
    assert_eq!(legal_from(&pos, "2c"), ["2c1c+"]);
    assert_eq!(legal_from(&pos, "4g"), ["4g3g", "4g3g+"]);
    assert_eq!(legal_from(&pos, "6f"), ["6f5f"]);
}

// ---------------------------------------------------------------- repetition

fn shuffle(pos: &mut Yonin, times: usize) {
    for _ in 0..times {
        play(pos, "5i4i 9e9d 5a4a 1e1d 4i5i 9d9e 4a5a 1d1e");
    }
}

#[test]
fn the_fourth_occurrence_ends_the_game_by_repetition() {
    let mut pos = at(&build(&kings_and(&[]), "-/-/P/-", 0, "-", "-"));
    shuffle(&mut pos, 2);
    play(&mut pos, "5i4i 9e9d 5a4a 1e1d 4i5i 9d9e 4a5a");
    assert!(pos.outcome().is_none(), "third occurrence");
    assert_eq!(pos.occurrences(), 3);
    play(&mut pos, "1d1e");
    assert_eq!(places(&pos), ([2, 2, 1, 2], "repetition"));
    // Repetition does not stop move generation (perft ignores it).
    assert!(!legal(&pos).is_empty());
    let mut pos = at_with(&build(&kings_and(&[]), "-/P/-/-", 0, "-", "-"), &pairs());
    shuffle(&mut pos, 3);
    assert_eq!(
        places(&pos),
        ([3, 1, 3, 1], "repetition"),
        "pairs: the larger team total"
    );
    let mut pos = at_with(&build(&kings_and(&[]), "-/-/-/-", 0, "-", "-"), &pairs());
    shuffle(&mut pos, 3);
    assert_eq!(places(&pos).0, [1, 1, 1, 1]);
}

#[test]
fn repetition_looks_back_to_the_ply_asked_and_the_key_is_rule_25s() {
    let start = at(&build(&kings_and(&[]), "-/-/-/-", 0, "-", "-"));
    let mut pos = start.clone();
    shuffle(&mut pos, 1);
    assert_eq!(pos.key(), start.key());
    assert!(pos.repeats_since(0) && !pos.repeats_since(1));
    // Recency and the move number are not part of the position; the seat due is.
    let other = at(&build(&kings_and(&[]), "-/-/-/-", 0, "-", "3120").replace(" 1", " 9"));
    assert_eq!(other.key(), start.key());
    assert_ne!(
        at(&build(&kings_and(&[]), "-/-/-/-", 1, "-", "-")).key(),
        start.key()
    );
    // Facing is: an inherited pawn differs from an own one on the same square.
    let own = at(&build(&kings_and(&[("5e", "P0")]), "-/-/-/-", 0, "-", "-"));
    let inherited = at(&build(
        &kings_and(&[("5e", "P0@2")]),
        "-/-/-/-",
        0,
        "-",
        "-",
    ));
    assert_ne!(own.key(), inherited.key());
}

#[test]
fn a_continuous_checker_may_not_make_the_fourth_occurrence() {
    let mut pos = at(&build(
        &[
            ("5i", "K0"),
            ("7g", "K1"),
            ("5a", "K2"),
            ("1e", "K3"),
            ("9c", "R0"),
        ],
        "-/-/-/-",
        0,
        "-",
        "-",
    ));
    play(&mut pos, "9c9a 5a5b 1e1d 9a9b 5b5a 1d1e");
    for _ in 0..2 {
        play(&mut pos, "9b9a 5a5b 1e1d 9a9b 5b5a 1d1e");
    }
    assert!(pos.outcome().is_none());
    let moves = legal(&pos);
    assert!(
        !moves.contains(&"9b9a".to_string()),
        "the fourth occurrence by checks"
    );
    assert!(moves.contains(&"9b9c".to_string()));
    // The searchers' staged generation leaves it out too.
    let (mut all, mut staged) = (MoveList::new(), MoveList::new());
    pos.generate_moves(&mut all);
    pos.generate_head(&mut staged);
    pos.append_quiet_tail(&mut staged);
    assert_eq!(&staged[..], &all[..]);
    // A quiet move breaks the chain: the checks after it are new.
    let mut other = pos.clone();
    play(&mut other, "5i4i");
    assert!(other.outcome().is_none());
}

/// A continuous-check cycle in which seat 0's king shuttles 4h <-> 5h, each step
/// uncovering one of its rooks (5i, 4i) onto seat 2's king, which shuttles
/// 5c <-> 4c; seat 3's silver shuttles 6g <-> 7f and checks the king on 5h
/// from 6g (a back diagonal for seat 3, which advances toward file 9). Seat 1
/// never moves: check priority skips it. The position starts in the cycle with
/// seat 2 due, in check from the rook on 5i, so that the position in which
/// seat 0 is mated stands only three times when it is mated.
///
/// ```text
///   9  8  7  6  5  4  3  2  1
///  K1 .  .  .  .  .  .  .  K3   a
///  .  .  .  .  .  .  .  .  .    b
///  .  .  .  .  K2 .  .  .  .    c
///  ...
///  .  .  .  S3 .  .  .  R1 .    g
///  .  .  G1 .  .  K0 .  .  .    h
///  .  .  .  .  R0 R0 .  .  .    i
/// ```
///
/// With the king on 5h and the silver on 6g, seat 0 is in check and its king
/// can only go to 4h: 4g and 5g are covered by seat 1's rook on rank g, 6h and
/// 6i by seat 1's gold on 7h, which (with the rook) also guards the silver on
/// 6g; 4i and 5i hold its rooks; nothing attacks 4h. No other move of seat 0 takes the silver (its
/// rooks do not reach 6g; the gold in hand cannot block a silver), so 5h4h is
/// its only move, and it gives check (the rook on 5i now sees 5c).
fn king_shuttle_cycle() -> Yonin {
    at(&build(
        &[
            ("9a", "K1"),
            ("1a", "K3"),
            ("5c", "K2"),
            ("6g", "S3"),
            ("2g", "R1"),
            ("7h", "G1"),
            ("4h", "K0"),
            ("5i", "R0"),
            ("4i", "R0"),
        ],
        "G/-/-/-",
        2,
        "-",
        "0",
    ))
}

/// One round of the cycle from the start position and back to it (6 plies).
const KING_SHUTTLE: &str = "5c4c 6g7f 4h5h 4c5c 7f6g 5h4h";

#[test]
fn a_continuous_checker_whose_every_move_is_forbidden_is_checkmated() {
    let start = king_shuttle_cycle();
    let mut pos = start.clone();
    play(&mut pos, KING_SHUTTLE);
    assert_eq!(pos.key(), start.key(), "the round comes back to the start");
    assert_eq!(pos.occurrences(), 2);
    play(&mut pos, KING_SHUTTLE);
    assert_eq!(pos.occurrences(), 3, "plies 0, 6 and 12");
    play(&mut pos, "5c4c 6g7f 4h5h 4c5c");

    // Seat 0 in check on 5h at plies 5 and 11: 5h4h is its one move, and it
    // brings the start position back only a second and a third time.
    let mut earlier = start.clone();
    let start_board = naive::Board::of(start.state());
    for _ in 0..2 {
        play(&mut earlier, "5c4c 6g7f 4h5h 4c5c 7f6g");
        assert_eq!(status(&earlier, "check"), "0");
        assert_eq!(legal(&earlier), ["5h4h"]);
        // Independently: on the plain board the naive generator finds 5h4h
        // alone, and it gives the start board back with seat 2 due (in check).
        let moves = naive::legal(&naive::Board::of(earlier.state()), Seat::new(0));
        assert_eq!(moves.len(), 1);
        let (text, after) = &moves[0];
        assert_eq!(text, "5h4h");
        assert!(after.cells == start_board.cells && after.hands == start_board.hands);
        assert_eq!(naive::due_after(after, Seat::new(0)), Seat::new(2));
        play(&mut earlier, "5h4h");
    }

    // The silver checks a third time: seat 0 is due in this position for the
    // third time, and its only move would make the fourth occurrence of the start
    // position after seat 0 gave check with every move since the first (rules
    // 10, 19), so it has no legal move and is checkmated at once.
    play(&mut pos, "7f6g");
    assert_eq!(pos.ply(), 17);
    assert!(!pos.is_alive(Seat::new(0)));
    // Credit (rule 7): seat 0 is mated while in check, so the owner of the
    // checking piece takes it: seat 3's silver is the only checker. (The
    // counter-clockwise rule of rule 16 is for checkers that have not moved,
    // and the last-mover rule for a mate without check; here both would also
    // name seat 3, so this test does not tell those clauses apart.)
    assert_eq!(status(&pos, "out"), "0:3");
    assert_eq!(status(&pos, "mates"), "0,0,0,1");
    // Seat 3 inherits both rooks (still advancing toward rank a) and the gold in
    // hand; the flipped king stays on 5h. Seat 1 is due, seat 0 is out credited
    // to seat 3, recency 3-2-0 (seat 1 never moved), 17 plies played.
    assert_eq!(
        pos.sfen(),
        "K17K3/9/4K24/9/9/9/3S33R11/2G11k04/4R3@0R3@03 -/-/-/G 1 0:3 320 18"
    );
    // Totals (rule 17): seat 3 has king, silver, two rooks, the gold in hand and
    // seat 0's flipped king.
    assert_eq!(status(&pos, "totals"), "0,3,1,6");
    // Who is due (rule 7, then 6 from the mated seat): nobody is in check (the
    // rook on 5i is blocked by the flipped king, the one on 4i sees no king), so
    // the next live seat clockwise from seat 0.
    assert_eq!(status(&pos, "check"), "-");
    assert_eq!(pos.side_to_move(), Seat::new(1));
    assert!(pos.outcome().is_none(), "one mate does not end the game");
}

// ---------------------------------------------------------------- pairs

#[test]
fn pairs_end_at_the_first_mate_and_partners_share_places() {
    let mut pos = at_with(&double_mate_ahead(), &pairs());
    play(&mut pos, "6c6a");
    assert_eq!(
        status(&pos, "out"),
        "1:0",
        "the game stops at the first mate"
    );
    assert_eq!(places(&pos), ([1, 3, 1, 3], "pairs-checkmate"));
    // Partners are ordinary opponents: seat 0 may mate its partner, and loses.
    let mut pos = corner_mate();
    pos = at_with(&pos.sfen(), &pairs());
    play(&mut pos, "G*1b");
    assert_eq!(places(&pos), ([3, 1, 3, 1], "pairs-checkmate"));
}

// ---------------------------------------------------------------- passes, limit

#[test]
fn passes_hand_the_turn_over_and_take_it_back() {
    let mut pos = Yonin::start(&YoninRules::default());
    let (sfen, key) = (pos.sfen(), pos.key());
    assert!(pos.make_pass(Seat::new(2)));
    assert_eq!(pos.side_to_move(), Seat::new(2));
    assert_eq!(pos.ply(), 0);
    assert_ne!(pos.key(), key);
    assert_eq!(pos.key(), pos.compute_key());
    assert!(legal(&pos).contains(&"5c5d".to_string()));
    pos.unmake_pass();
    assert_eq!((pos.sfen(), pos.key()), (sfen, key));
    // Not while a seat is in check, not to a seat that is out, not after the end.
    let mut pos = at(&build(&kings_and(&[("5c", "R0")]), "-/-/-/-", 0, "-", "-"));
    assert!(!pos.make_pass(Seat::new(1)));
    let mut pos = corner_mate();
    play(&mut pos, "G*1b");
    assert!(!pos.make_pass(Seat::new(2)) && pos.make_pass(Seat::new(1)));
    pos.unmake_pass();
    let mut pos = second_mate("G");
    play(&mut pos, "6g6i");
    assert!(!pos.make_pass(Seat::new(1)));
}

#[test]
fn the_move_limit_ends_the_game_with_places() {
    let mut rules = YoninRules::default();
    rules.set("MoveLimit", "4").unwrap();
    let mut pos = at_with(&build(&kings_and(&[]), "-/G/-/-", 0, "-", "-"), &rules);
    play(&mut pos, "5i4i 9e9d 5a4a");
    assert!(pos.outcome().is_none());
    play(&mut pos, "1e1d");
    assert_eq!(places(&pos), ([2, 1, 2, 2], "move-limit"));
}

// ---------------------------------------------------------------- naive generator

/// An independent, slow generator: every from/to/drop tried, legality by
/// applying the move to a plain board and scanning every piece's attacks.
mod naive {
    use super::super::piece::Kind;
    use super::super::state::State;
    use crate::core::{PerSeat, Seat};

    #[derive(Clone)]
    pub struct Board {
        /// (kind, owner, facing) by [row][col].
        pub cells: [[Option<(Kind, Seat, Seat)>; 9]; 9],
        pub hands: PerSeat<[u8; 4]>,
        pub alive: PerSeat<bool>,
    }

    impl Board {
        pub fn of(state: &State) -> Board {
            let mut cells = [[None; 9]; 9];
            for (i, p) in state.cells.iter().enumerate() {
                if !p.is_none() {
                    cells[i / 9][i % 9] = Some((p.kind(), p.owner(), p.facing()));
                }
            }
            Board {
                cells,
                hands: state.hands,
                alive: PerSeat::from_fn(|s| state.is_alive(s)),
            }
        }

        fn king(&self, seat: Seat) -> (i8, i8) {
            for r in 0..9 {
                for c in 0..9 {
                    if self.cells[r][c] == Some((Kind::King, seat, seat)) {
                        return (r as i8, c as i8);
                    }
                }
            }
            unreachable!("every seat has a king")
        }
    }

    fn forward(facing: Seat) -> (i8, i8) {
        match facing.index() {
            0 => (-1, 0),
            1 => (0, 1),
            2 => (1, 0),
            _ => (0, -1),
        }
    }

    /// (direction, slides) of a piece.
    fn directions(kind: Kind, facing: Seat) -> Vec<((i8, i8), bool)> {
        let (fr, fc) = forward(facing);
        let (sr, sc) = (fc, -fr);
        let rel = |a: i8, b: i8| (a * fr + b * sr, a * fc + b * sc);
        let all8 = [
            (1, 0),
            (1, 1),
            (1, -1),
            (0, 1),
            (0, -1),
            (-1, 0),
            (-1, 1),
            (-1, -1),
        ];
        let orth = [(1, 0), (0, 1), (0, -1), (-1, 0)];
        match kind {
            Kind::King => all8.iter().map(|&(a, b)| (rel(a, b), false)).collect(),
            Kind::Gold | Kind::ProSilver | Kind::Tokin => {
                [(1, 0), (1, 1), (1, -1), (0, 1), (0, -1), (-1, 0)]
                    .iter()
                    .map(|&(a, b)| (rel(a, b), false))
                    .collect()
            }
            Kind::Silver => [(1, 0), (1, 1), (1, -1), (-1, 1), (-1, -1)]
                .iter()
                .map(|&(a, b)| (rel(a, b), false))
                .collect(),
            Kind::Pawn => vec![(rel(1, 0), false)],
            Kind::Rook => orth.iter().map(|&d| (d, true)).collect(),
            Kind::Dragon => orth
                .iter()
                .map(|&d| (d, true))
                .chain(
                    [(1, 1), (1, -1), (-1, 1), (-1, -1)]
                        .iter()
                        .map(|&d| (d, false)),
                )
                .collect(),
        }
    }

    fn reach(board: &Board, r: i8, c: i8) -> Vec<(i8, i8)> {
        let (kind, _, facing) = board.cells[r as usize][c as usize].unwrap();
        let mut out = Vec::new();
        for ((dr, dc), slides) in directions(kind, facing) {
            let (mut rr, mut cc) = (r + dr, c + dc);
            while (0..9).contains(&rr) && (0..9).contains(&cc) {
                out.push((rr, cc));
                if !slides || board.cells[rr as usize][cc as usize].is_some() {
                    break;
                }
                rr += dr;
                cc += dc;
            }
        }
        out
    }

    pub fn attacked_by_others(board: &Board, seat: Seat) -> bool {
        let target = board.king(seat);
        for r in 0..9 {
            for c in 0..9 {
                if let Some((_, owner, _)) = board.cells[r as usize][c as usize] {
                    if owner != seat && board.alive[owner] && reach(board, r, c).contains(&target) {
                        return true;
                    }
                }
            }
        }
        false
    }

    fn zone(facing: Seat, r: i8, c: i8) -> bool {
        match facing.index() {
            0 => r <= 2,
            1 => c >= 6,
            2 => r >= 6,
            _ => c <= 2,
        }
    }

    fn last_row(facing: Seat, r: i8, c: i8) -> bool {
        match facing.index() {
            0 => r == 0,
            1 => c == 8,
            2 => r == 8,
            _ => c == 0,
        }
    }

    fn square(r: i8, c: i8) -> String {
        format!("{}{}", 9 - c, (b'a' + r as u8) as char)
    }

    const HAND: [(Kind, char); 4] = [
        (Kind::Rook, 'R'),
        (Kind::Gold, 'G'),
        (Kind::Silver, 'S'),
        (Kind::Pawn, 'P'),
    ];

    fn promoted(kind: Kind) -> Kind {
        match kind {
            Kind::Rook => Kind::Dragon,
            Kind::Silver => Kind::ProSilver,
            Kind::Pawn => Kind::Tokin,
            k => k,
        }
    }

    fn base(kind: Kind) -> usize {
        match kind {
            Kind::Rook | Kind::Dragon => 0,
            Kind::Gold => 1,
            Kind::Silver | Kind::ProSilver => 2,
            _ => 3,
        }
    }

    /// The legal moves of `us` (alive) with the boards after them.
    pub fn legal(board: &Board, us: Seat) -> Vec<(String, Board)> {
        let mut out = Vec::new();
        for r in 0..9i8 {
            for c in 0..9i8 {
                let Some((kind, owner, facing)) = board.cells[r as usize][c as usize] else {
                    continue;
                };
                if owner != us {
                    continue;
                }
                for tr in 0..9i8 {
                    for tc in 0..9i8 {
                        if !reach(board, r, c).contains(&(tr, tc)) {
                            continue;
                        }
                        let target = board.cells[tr as usize][tc as usize];
                        match target {
                            Some((Kind::King, _, _)) => continue,
                            Some((_, o, _)) if o == us => continue,
                            _ => {}
                        }
                        let promotable = matches!(kind, Kind::Rook | Kind::Silver | Kind::Pawn);
                        let mut options = vec![];
                        if !(kind == Kind::Pawn && last_row(facing, tr, tc)) {
                            options.push(false);
                        }
                        if promotable && (zone(facing, r, c) || zone(facing, tr, tc)) {
                            options.push(true);
                        }
                        for promote in options {
                            let mut after = board.clone();
                            if let Some((k, _, _)) = target {
                                after.hands[us][base(k)] += 1;
                            }
                            after.cells[r as usize][c as usize] = None;
                            let k = if promote { promoted(kind) } else { kind };
                            after.cells[tr as usize][tc as usize] = Some((k, owner, facing));
                            if !attacked_by_others(&after, us) {
                                let text = format!(
                                    "{}{}{}",
                                    square(r, c),
                                    square(tr, tc),
                                    if promote { "+" } else { "" }
                                );
                                out.push((text, after));
                            }
                        }
                    }
                }
            }
        }
        for (h, (kind, letter)) in HAND.iter().enumerate() {
            if board.hands[us][h] == 0 {
                continue;
            }
            for r in 0..9i8 {
                for c in 0..9i8 {
                    if board.cells[r as usize][c as usize].is_some() {
                        continue;
                    }
                    if *kind == Kind::Pawn {
                        if last_row(us, r, c) {
                            continue;
                        }
                        let same_line = |rr: i8, cc: i8| {
                            if us.index().is_multiple_of(2) {
                                cc == c
                            } else {
                                rr == r
                            }
                        };
                        let doubled = (0..9i8).any(|rr| {
                            (0..9i8).any(|cc| {
                                same_line(rr, cc)
                                    && board.cells[rr as usize][cc as usize]
                                        == Some((Kind::Pawn, us, us))
                            })
                        });
                        if doubled {
                            continue;
                        }
                        let (fr, fc) = forward(us);
                        let front = board.cells[(r + fr) as usize][(c + fc) as usize];
                        if let Some((Kind::King, o, _)) = front {
                            if !board.alive[o] {
                                continue;
                            }
                        }
                    }
                    let mut after = board.clone();
                    after.hands[us][h] -= 1;
                    after.cells[r as usize][c as usize] = Some((*kind, us, us));
                    if attacked_by_others(&after, us) {
                        continue;
                    }
                    if *kind == Kind::Pawn && pawn_mates(&after, us, r, c) {
                        continue;
                    }
                    out.push((format!("{letter}*{}", square(r, c)), after));
                }
            }
        }
        out
    }

    /// Rule 6 read plainly: after `from` moved (or was mated), the nearest live
    /// seat in check clockwise from it, else the next live seat.
    pub fn due_after(board: &Board, from: Seat) -> Seat {
        let clockwise = || {
            (1..4)
                .map(move |i| from.after(i, 4))
                .filter(|&s| board.alive[s])
        };
        clockwise()
            .find(|&s| attacked_by_others(board, s))
            .or_else(|| clockwise().next())
            .expect("a live seat besides the mover")
    }

    /// perft with this generator and `due_after` alone, for positions where no
    /// elimination or repetition can happen within `depth` plies: a seat due
    /// without a move fails loudly instead of being counted wrongly.
    pub fn perft(board: &Board, due: Seat, depth: u32) -> u64 {
        try_perft(board, due, depth)
            .unwrap_or_else(|| panic!("a seat due without a move within {depth} plies"))
    }

    /// [`perft`], `None` where a seat due has no move within `depth` plies (an
    /// elimination, which this generator does not play).
    pub fn try_perft(board: &Board, due: Seat, depth: u32) -> Option<u64> {
        if depth == 0 {
            return Some(1);
        }
        let moves = legal(board, due);
        if moves.is_empty() {
            return None;
        }
        if depth == 1 {
            return Some(moves.len() as u64);
        }
        moves
            .iter()
            .map(|(_, after)| try_perft(after, due_after(after, due), depth - 1))
            .sum()
    }

    fn pawn_mates(after: &Board, us: Seat, r: i8, c: i8) -> bool {
        let (fr, fc) = forward(us);
        let Some((Kind::King, victim, _)) = after.cells[(r + fr) as usize][(c + fc) as usize]
        else {
            return false;
        };
        if !after.alive[victim] {
            return false;
        }
        let answers = (1..4)
            .map(|i| us.after(i, 4))
            .find(|&s| after.alive[s] && attacked_by_others(after, s));
        answers == Some(victim) && legal(after, victim).is_empty()
    }
}

#[test]
fn naive_perft_from_start_agrees_with_the_fast_one_to_depth_4() {
    let mut pos = Yonin::start(&YoninRules::default());
    let board = naive::Board::of(pos.state());
    let naive = naive::perft(&board, pos.side_to_move(), 4);
    assert_eq!(naive, 6_561, "rule 26");
    assert_eq!(naive, perft(&mut pos, 4));
}

#[test]
fn perft_data_agrees_with_the_naive_generator() {
    // Every depth up to 100 000 leaves that the naive generator can count: up
    // to the first elimination inside the tree (the data file says which
    // counts beyond it were checked by hand).
    let text = include_str!("../../../tests/perft/yonin.txt");
    let mut checked = 0;
    for entry in crate::perft::read_data(text).unwrap() {
        let mut rules = YoninRules::default();
        for (name, value) in &entry.options {
            assert!(rules.set(name, value).unwrap(), "{name}");
        }
        let pos = at_with(&entry.sfen, &rules);
        let board = naive::Board::of(pos.state());
        for &(depth, leaves) in entry.depths.iter().filter(|d| d.1 <= 100_000) {
            let naive = if pos.is_over() {
                Some(0)
            } else {
                naive::try_perft(&board, pos.side_to_move(), depth)
            };
            if let Some(naive) = naive {
                assert_eq!(naive, leaves, "line {} depth {depth}", entry.line);
                checked += 1;
            }
        }
    }
    assert!(checked >= 20, "{checked} counts checked");
}

#[test]
#[ignore = "heavy: the naive generator to depth 6 (seconds in release)"]
fn naive_perft_from_start_to_depth_6() {
    use rayon::prelude::*;
    let pos = Yonin::start(&YoninRules::default());
    let board = naive::Board::of(pos.state());
    let due = pos.side_to_move();
    // Divide both ways, so that a difference names the root moves it comes from.
    let mut naive_divide: Vec<(String, u64)> = naive::legal(&board, due)
        .into_par_iter()
        .map(|(text, after)| {
            let n = naive::perft(&after, naive::due_after(&after, due), 5);
            (text, n)
        })
        .collect();
    let mut fast_divide: Vec<(String, u64)> = crate::perft::divide(&pos, 6)
        .into_iter()
        .map(|(mv, n)| (pos.format_move(mv), n))
        .collect();
    naive_divide.sort();
    fast_divide.sort();
    assert_eq!(naive_divide, fast_divide, "divide at depth 6 differs");
    let total: u64 = naive_divide.iter().map(|&(_, n)| n).sum();
    assert_eq!(total, 1_055_321);
}

fn naive_moves(state: &State, us: Seat) -> Vec<String> {
    let mut moves: Vec<String> = naive::legal(&naive::Board::of(state), us)
        .into_iter()
        .map(|(m, _)| m)
        .collect();
    moves.sort();
    moves
}

/// Hands full of pieces and bare kings: random drops soon mate someone.
const NEAR_MATES: &str = "4K24/9/9/9/K17K3/9/9/9/4K04 R2G2S4P/R2G2S4P/R2G2S4P/R2G2S4P 0 - - 1";
/// A middle game: two seats' kings exposed to rooks and golds in hand.
const ATTACK: &str = "3G2K2G23/4S24/2R06/9/K16P0K3/3P1@35/2R15S3/9/4K04 GSP/GP/-/S 0 - - 1";

#[test]
fn the_fast_generator_agrees_with_the_naive_one_along_random_games() {
    compare_with_naive(6, 7);
}

#[test]
#[ignore = "heavy: many more random games against the naive generator"]
fn the_fast_generator_agrees_with_the_naive_one_along_many_random_games() {
    compare_with_naive(150, 8);
}

fn compare_with_naive(games: usize, seed: u64) {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut eliminations = 0;
    for start in [START_SFEN, NEAR_MATES, ATTACK] {
        for _ in 0..games {
            let mut pos = at(start);
            for _ in 0..60 {
                if pos.outcome().is_some_and(|o| o.reason != "repetition") {
                    break;
                }
                let fast = legal(&pos);
                assert_eq!(
                    fast,
                    naive_moves(pos.state(), pos.side_to_move()),
                    "{}",
                    pos.diagram()
                );
                if fast.is_empty() {
                    break;
                }
                let text = &fast[rng.gen_range(0..fast.len())];
                play(&mut pos, text);
            }
            eliminations += pos.eliminations().len as usize;
        }
    }
    assert!(
        eliminations >= 4,
        "random play reached {eliminations} eliminations"
    );
}

#[test]
fn after_a_move_the_seat_due_and_eliminations_match_a_plain_resolution() {
    // Re-derive who is due after each random move with the naive board: the
    // nearest seat in check clockwise from the mover, else the next live seat;
    // eliminate while that seat has no naive legal move.
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
    for _ in 0..8 {
        let mut pos = at(NEAR_MATES);
        for _ in 0..80 {
            if pos.outcome().is_some() {
                break;
            }
            let moves = legal(&pos);
            let text = moves[rng.gen_range(0..moves.len())].clone();
            let mover = pos.side_to_move();
            let out_before = pos.eliminations().len;
            let before = naive::Board::of(pos.state());
            let (_, mut board) = naive::legal(&before, mover)
                .into_iter()
                .find(|(m, _)| *m == text)
                .expect("the naive generator has the move");
            play(&mut pos, &text);
            let mut from = mover;
            let mut eliminated = vec![];
            let limit = 2 - out_before as usize;
            let due = loop {
                let next = naive::due_after(&board, from);
                if !naive::legal(&board, next).is_empty() {
                    break Some(next);
                }
                board.alive[next] = false;
                eliminated.push(next);
                // Inheritance: the pieces pass, which changes no attack of others'
                // kings except through ownership; take it from the fast state.
                board = naive::Board::of(&{
                    let mut s = *pos.state();
                    s.alive = board
                        .alive
                        .iter()
                        .enumerate()
                        .fold(0, |m, (i, &a)| m | (a as u8) << i);
                    s
                });
                if eliminated.len() == limit {
                    break None;
                }
                from = next;
            };
            let now: Vec<Seat> = pos.eliminations().as_slice()[out_before as usize..]
                .iter()
                .map(|e| e.0)
                .collect();
            assert_eq!(now, eliminated, "{}", pos.diagram());
            if let Some(due) = due {
                assert_eq!(pos.side_to_move(), due, "{}", pos.diagram());
            }
        }
    }
}

/// Everything make and unmake touch, as far as it can be seen from outside.
fn whole(pos: &Yonin) -> (State, Eliminations, Recency, Vec<Seat>, String, u64) {
    (
        *pos.state(),
        *pos.eliminations(),
        *pos.recency(),
        pos.seats_in_check().collect(),
        pos.sfen(),
        pos.key(),
    )
}

#[test]
fn unmake_and_unmake_pass_restore_the_whole_state_through_eliminations() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
    let mut eliminations = 0;
    for start in [START_SFEN, NEAR_MATES, ATTACK] {
        for _ in 0..8 {
            let mut pos = at(start);
            for _ in 0..80 {
                let mut moves = MoveList::new();
                pos.generate_moves(&mut moves);
                if moves.is_empty() || pos.outcome().is_some() {
                    break;
                }
                let before = whole(&pos);
                for &mv in moves.iter() {
                    pos.make(mv);
                    pos.unmake(mv);
                    assert_eq!(whole(&pos), before, "{}", pos.format_move(mv));
                }
                for seat in Seat::all(4) {
                    if pos.make_pass(seat) {
                        pos.unmake_pass();
                    }
                    assert_eq!(whole(&pos), before, "pass to {seat}");
                }
                let out = pos.eliminations().len;
                pos.make(moves[rng.gen_range(0..moves.len())]);
                eliminations += (pos.eliminations().len - out) as usize;
            }
        }
    }
    assert!(
        eliminations >= 4,
        "the walk reached {eliminations} eliminations"
    );
}

#[test]
fn the_tactical_moves_are_the_legal_captures_and_promotions_in_their_order() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(12);
    let mut seen = 0;
    for start in [START_SFEN, NEAR_MATES, ATTACK] {
        for _ in 0..8 {
            let mut pos = at(start);
            for _ in 0..80 {
                let (mut all, mut tactical) = (MoveList::new(), MoveList::new());
                pos.generate_moves(&mut all);
                pos.generate_tactical(&mut tactical);
                let wanted: Vec<YoninMove> = all
                    .iter()
                    .copied()
                    .filter(|&mv| pos.is_tactical(mv))
                    .collect();
                assert_eq!(
                    tactical.iter().copied().collect::<Vec<_>>(),
                    wanted,
                    "{}",
                    pos.diagram()
                );
                seen += wanted.len();
                if all.is_empty() || pos.outcome().is_some() {
                    break;
                }
                pos.make(all[rng.gen_range(0..all.len())]);
            }
        }
    }
    assert!(seen > 500, "only {seen} tactical moves met");
}

#[test]
fn conformance_random_playouts() {
    let playouts = |start: Yonin, games, seed| {
        crate::core::conformance::random_playouts(&start, start.rules(), games, 120, seed);
    };
    playouts(Yonin::start(&YoninRules::default()), 6, 1);
    playouts(at(NEAR_MATES), 10, 2);
    playouts(at_with(NEAR_MATES, &pairs()), 6, 3);
    playouts(at(ATTACK), 6, 4);
}

#[test]
fn evaluation_is_per_seat_and_favours_material() {
    let pos = Yonin::start(&YoninRules::default());
    let values = pos.evaluate_all(&Default::default());
    assert!(
        values.iter().all(|&v| v == values[Seat::new(0)]),
        "symmetric start: {values:?}"
    );
    let mut pos = corner_mate();
    let before = pos.evaluate_all(&Default::default());
    play(&mut pos, "G*1b");
    let after = pos.evaluate_all(&Default::default());
    assert!(
        after[Seat::new(0)] > before[Seat::new(0)],
        "a mate with inheritance is good for the mater"
    );
    assert!(
        after[Seat::new(2)] < -5_000,
        "an eliminated seat keeps only its place"
    );
    let _ = Kind::Pawn;
}

/// Calls `visit` on every position of `games` random games from each of the
/// three test starts (at most 80 plies each, to the game's end).
fn along_random_games(seed: u64, games: usize, mut visit: impl FnMut(&Yonin)) {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    for start in [START_SFEN, NEAR_MATES, ATTACK] {
        for _ in 0..games {
            let mut pos = at(start);
            for _ in 0..80 {
                visit(&pos);
                let mut moves = MoveList::new();
                pos.generate_moves(&mut moves);
                if pos.outcome().is_some() || moves.is_empty() {
                    break;
                }
                pos.make(moves[rng.gen_range(0..moves.len())]);
            }
        }
    }
}

#[test]
fn the_evaluation_attack_maps_are_exact_next_to_every_other_king() {
    // Unless whole, the maps skip the pieces that cannot reach another live king's
    // neighbourhood; there they must equal the union of every piece's attacks.
    let mut checked = 0;
    along_random_games(21, 6, |pos| {
        let state = pos.state();
        let maps = super::eval::attack_maps(state, false);
        let whole = super::eval::attack_maps(state, true);
        for seat in Seat::all(4).filter(|&s| state.is_alive(s)) {
            let mut full = crate::core::board9::Bitboard::EMPTY;
            for sq in state.by_owner[seat] {
                full |= state.attacks_of(state.at(sq), sq);
            }
            // The whole maps (mobility, hanging pieces) are exact everywhere.
            assert_eq!(whole[seat], full, "{}", pos.diagram());
            for other in Seat::all(4).filter(|&o| o != seat && state.is_alive(o)) {
                let king = state.kings[other];
                let around = super::piece::KING_STEPS[king.index()] | king.bit();
                assert_eq!(maps[seat] & around, full & around, "{}", pos.diagram());
                checked += 1;
            }
        }
    });
    assert!(checked > 3000, "{checked} maps compared");
}

#[test]
fn the_moves_are_the_board_moves_then_the_drops_a_quiet_tail() {
    // The searchers generate the drops only once the tactical moves are tried:
    // the head and the tail together must be every move in the same order.
    let mut tails = 0;
    along_random_games(23, 6, |pos| {
        let mut all = MoveList::new();
        pos.generate_moves(&mut all);
        let mut staged = MoveList::new();
        pos.generate_head(&mut staged);
        let head = staged.len();
        pos.append_quiet_tail(&mut staged);
        assert_eq!(&staged[..], &all[..], "{}", pos.diagram());
        assert!(all[..head].iter().all(|mv| mv.from().is_some()));
        assert!(all[head..]
            .iter()
            .all(|&mv| mv.from().is_none() && !pos.is_tactical(mv)));
        tails += all.len() - head;
    });
    assert!(tails > 1000, "{tails} drops seen");
}

#[test]
fn a_piece_is_hanging_when_unguarded_or_attacked_by_a_cheaper_piece() {
    use super::eval::{attack_maps, hanging_losses, union_of_others, PieceValues};
    let values = PieceValues::of(&Default::default());
    let value = |kind: Kind| values.board[kind.index()];
    let losses = |extra: &[(&'static str, &'static str)]| {
        let pos = at(&build(&kings_and(extra), "-/-/-/-", 1, "-", "-"));
        let state = pos.state();
        let maps = attack_maps(state, true);
        hanging_losses(
            state,
            Seat::new(0),
            maps[Seat::new(0)],
            union_of_others(&maps, Seat::new(0)),
            &values,
        )
    };
    let silver = value(Kind::Silver);
    // North's dragon down the file takes South's silver for nothing ...
    assert_eq!(losses(&[("5e", "S0"), ("5c", "+R2")]), [silver, 0]);
    // ... but not once a gold guards it: the dragon is worth more.
    assert_eq!(losses(&[("5e", "S0"), ("5f", "G0"), ("5c", "+R2")]), [0, 0]);
    // A guarded silver still loses the difference to a pawn.
    assert_eq!(
        losses(&[("5e", "S0"), ("5f", "G0"), ("5d", "P2")]),
        [silver - value(Kind::Pawn), 0]
    );
    // ... and a guarded pawn nothing.
    assert_eq!(losses(&[("5e", "P0"), ("5f", "G0"), ("5d", "P2")]), [0, 0]);
    assert_eq!(
        losses(&[("5e", "P0"), ("5d", "P2")]),
        [value(Kind::Pawn), 0]
    );
    // Two pieces attacked: the larger loss first.
    let gold = value(Kind::Gold);
    assert_eq!(
        losses(&[("5e", "S0"), ("5c", "+R2"), ("7g", "G0"), ("7c", "R3")]),
        [silver.max(gold), silver.min(gold)]
    );
    // A king takes only an unguarded piece.
    assert_eq!(losses(&[("2e", "S0")]), [silver, 0]);
    assert_eq!(losses(&[("2e", "S0"), ("3f", "G0")]), [0, 0]);
    // Unattacked pieces lose nothing.
    assert_eq!(losses(&[("5h", "S0"), ("4h", "G0")]), [0, 0]);
}
