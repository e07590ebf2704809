//! The games the engine plays: one table that the protocol, the command line,
//! the benches, the conformance tests and the match runner all iterate. A new
//! game is its own folder plus one line here (docs/adding-a-game.md).

use crate::profile::Profile;
use crate::session::{GameSession, Playable, Session};

/// One registered game and the facts about it that tools need without
/// knowing its rules: its profile (name, dice, points, levels, …) and its
/// seats.
#[derive(Clone, Copy)]
pub struct GameEntry {
    /// The game's facts that are not rules ([`Playable::PROFILE`]).
    pub profile: Profile,
    /// The game's name for people.
    pub title: &'static str,
    pub seats: usize,
    /// A session at the start position with default rules and options.
    pub new_session: fn() -> Box<dyn GameSession>,
    /// See [`GameEntry::move_gains`].
    move_gains: MoveGains,
}

/// The signature of [`GameEntry::move_gains`].
type MoveGains =
    fn(&[(String, String)], Option<&str>, &[&str]) -> Result<Vec<(String, i64)>, String>;

impl GameEntry {
    /// The name used everywhere a game is named (protocol, command line, files).
    pub const fn name(&self) -> &'static str {
        self.profile.name
    }

    /// The entry of `G`, named `title` for people (what a line of
    /// [`register_games!`] builds).
    pub const fn of<G: Playable>(title: &'static str) -> GameEntry {
        GameEntry {
            profile: G::PROFILE,
            title,
            seats: G::SEATS,
            new_session: boxed_session::<G>,
            move_gains: move_gains_of::<G>,
        }
    }

    /// Every legal move of a position with what it gains at once, for a
    /// one-ply greedy player: [`Playable::immediate_gain`], except that a
    /// move that ends the game counts [`WIN_GAIN`] when the result is good for
    /// the mover ([`crate::core::Outcome::value_for`] above 0: a win, or in
    /// Yonin finishing ahead of more seats than behind), minus that when it is
    /// bad (a draw counts its gain). The position is set up as
    /// `position` would: `options` (`setoption` pairs: house rules and
    /// engine options), then the SFEN (the start when `None`) and the moves
    /// (Sugoroku's rolls among them). Moves in generation order; none when the
    /// game is decided or the dice are due.
    pub fn move_gains(
        &self,
        options: &[(String, String)],
        sfen: Option<&str>,
        moves: &[&str],
    ) -> Result<Vec<(String, i64)>, String> {
        (self.move_gains)(options, sfen, moves)
    }
}

/// What [`GameEntry::move_gains`] gives a move that wins the game at once:
/// more than any material.
pub const WIN_GAIN: i64 = 1 << 40;

fn move_gains_of<G: Playable>(
    options: &[(String, String)],
    sfen: Option<&str>,
    moves: &[&str],
) -> Result<Vec<(String, i64)>, String> {
    let mut session = Session::<G>::new();
    for (name, value) in options {
        match session.set_option(name, value) {
            Ok(true) => {}
            Ok(false) => return Err(format!("no option named '{name}'")),
            Err(e) => return Err(e.to_string()),
        }
    }
    session
        .set_position(sfen, moves)
        .map_err(|e| format!("position: {e}"))?;
    let pos = session.position();
    if pos.at_chance() {
        return Ok(Vec::new());
    }
    let mover = pos.side_to_move();
    let mut legal = crate::core::MoveList::new();
    pos.generate_moves(&mut legal);
    let gains = legal
        .iter()
        .map(|&mv| {
            let mut after = pos.clone();
            after.make(mv);
            let gain = match after.outcome().map(|outcome| outcome.value_for(mover)) {
                Some(value) if value > 0 => WIN_GAIN,
                Some(value) if value < 0 => -WIN_GAIN,
                _ => pos.immediate_gain(mv),
            };
            (pos.format_move(mv), gain)
        })
        .collect();
    Ok(gains)
}

impl std::fmt::Debug for GameEntry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

fn boxed_session<G: Playable>() -> Box<dyn GameSession> {
    Box::new(Session::<G>::new())
}

/// What runs once per game with the game's type at hand (benches, generic
/// tests): [`for_each_game`] calls [`GameVisitor::visit`] for every entry.
pub trait GameVisitor {
    fn visit<G: Playable>(&mut self, entry: &'static GameEntry);
}

/// The one list of games: `GAMES` for code that works through sessions and
/// `for_each_game` for code generic over the game, both from the same lines
/// (`<type> => "<title>"`). The engine's list is below; a test can make a
/// list of its own in a module of its own (`registry/toy.rs`).
#[macro_export]
macro_rules! register_games {
    ($($game:ty => $title:literal),* $(,)?) => {
        /// Every game, the default (for the protocol and the tools) first.
        pub const GAMES: &[$crate::registry::GameEntry] =
            &[$($crate::registry::GameEntry::of::<$game>($title)),*];

        /// Calls `visitor` with every game's type, in the order of [`GAMES`].
        pub fn for_each_game(visitor: &mut impl $crate::registry::GameVisitor) {
            let mut entries = GAMES.iter();
            $(visitor.visit::<$game>(entries.next().expect("one entry per game"));)*
        }
    };
}

register_games! {
    crate::hasami::Hasami => "Hasami Shogi",
    crate::annan::Annan => "Annan Shogi",
    crate::yonin::Yonin => "Yonin Shogi",
    crate::sugoroku::Sugoroku => "Ban-Sugoroku",
}

/// The game of that name (any case), or why there is none.
pub fn find(name: &str) -> Result<&'static GameEntry, String> {
    GAMES
        .iter()
        .find(|game| game.name().eq_ignore_ascii_case(name))
        .ok_or_else(|| {
            format!(
                "unknown game '{}' (expected one of {})",
                crate::core::error::truncate(name),
                NAMES.join(", ")
            )
        })
}

/// The registered names, in table order.
pub const NAMES: [&str; GAMES.len()] = {
    let mut names = [""; GAMES.len()];
    let mut i = 0;
    while i < GAMES.len() {
        names[i] = GAMES[i].name();
        i += 1;
    }
    names
};

/// A session for the named game, or why there is none.
pub fn new_session(name: &str) -> Result<Box<dyn GameSession>, String> {
    find(name).map(|game| (game.new_session)())
}

#[cfg(test)]
mod toy;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Seat;

    #[test]
    fn every_entry_makes_a_session_of_its_own_game() {
        for game in GAMES {
            let session = (game.new_session)();
            assert_eq!(session.game(), game.name());
            assert_eq!(session.seats(), game.seats);
            assert_eq!(session.has_chance(), game.profile.has_chance);
            assert_eq!(
                find(&game.name().to_uppercase()).unwrap().name(),
                game.name()
            );
        }
        let mut names = NAMES.to_vec();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), GAMES.len(), "names are unique");
        assert!(find("chess").unwrap_err().contains("hasami"));
    }

    fn gains(game: &str, sfen: Option<&str>, moves: &[&str]) -> Vec<(String, i64)> {
        find(game).unwrap().move_gains(&[], sfen, moves).unwrap()
    }

    #[test]
    fn move_gains_are_the_captures_and_promotions_of_each_move() {
        // Hasami: 1d5d shuts the white stone on 5e between 5d and 5f.
        let sfen = "pppp5/9/9/8P/4p4/4P4/9/9/PPP6 b - 1";
        let hasami = gains("hasami", Some(sfen), &[]);
        let session = {
            let mut s = new_session("hasami").unwrap();
            s.set_position(Some(sfen), &[]).unwrap();
            s
        };
        let legal = session.legal_moves();
        assert_eq!(
            hasami.iter().map(|(m, _)| m.clone()).collect::<Vec<_>>(),
            legal
        );
        // The fifth capture wins: more than any material.
        for (mv, gain) in &hasami {
            assert_eq!(*gain, if mv == "1d5d" { WIN_GAIN } else { 0 }, "{mv}");
        }
        // Under lead3 the same capture is one stone (a lead of 1: no win yet).
        let lead3 = find("hasami")
            .unwrap()
            .move_gains(&[("HasamiWin".into(), "lead3".into())], Some(sfen), &[])
            .unwrap();
        for (mv, gain) in &lead3 {
            assert_eq!(*gain, if mv == "1d5d" { 100 } else { 0 }, "{mv}");
        }
        // Annan: the rook takes the gold (into the hand); nothing else gains.
        let annan = gains("annan", Some("4k4/9/9/9/4g4/9/9/4R4/K8 b - 1"), &[]);
        let take = annan.iter().find(|(m, _)| m == "5h5e").unwrap().1;
        assert!(take > 0, "{annan:?}");
        assert!(
            annan.iter().all(|(m, g)| m == "5h5e" || *g == 0),
            "{annan:?}"
        );
        // At the start nothing can be taken (in Annan a pawn borrowing the
        // bishop's or rook's movement can take at once).
        for game in ["hasami", "yonin"] {
            let start = gains(game, None, &[]);
            assert!(
                !start.is_empty() && start.iter().all(|(_, g)| *g == 0),
                "{game}: {start:?}"
            );
        }
    }

    #[test]
    fn sugoroku_gains_are_the_race_to_the_finish() {
        use crate::sugoroku::Sugoroku;
        let entry = find("sugoroku").unwrap();
        // The dice not rolled yet: no moves to weigh.
        assert!(gains("sugoroku", None, &[]).is_empty());
        let histories: [&[&str]; 3] = [
            &["52"],
            &["31:8/5,6/5", "64:24/18,18/14", "52"],
            &["31:8/5,6/5", "64:24/18,18/14", "21:13/11,11/10", "44"],
        ];
        let bearoff = [("SugorokuFinish".to_string(), "bearoff".to_string())];
        // Under bearoff the race is the pip count to off, as `status` gives it.
        let status_pips = |s: &dyn GameSession| -> Vec<i64> {
            let details = s.status_details();
            let words: Vec<&str> = details.split_whitespace().collect();
            let at = words.iter().position(|w| *w == "pips").unwrap();
            words[at + 1]
                .split(',')
                .map(|p| p.parse().unwrap())
                .collect()
        };
        // Under allhome (the default) a stone is done once on points 1–6.
        let to_home = |s: &Session<Sugoroku>| -> Vec<i64> {
            Seat::all(2)
                .map(|seat| {
                    (7..=25u8)
                        .map(|p| (p as i64 - 6) * s.position().count(seat, p) as i64)
                        .sum()
                })
                .collect()
        };
        let mut hits = 0;
        for history in histories {
            for options in [&bearoff[..], &[]] {
                let session = |moves: &[&str]| {
                    let mut s = Session::<Sugoroku>::new();
                    for (name, value) in options {
                        s.set_option(name, value).unwrap();
                    }
                    s.set_position(None, moves).unwrap();
                    s
                };
                let race = |s: &Session<Sugoroku>| {
                    if options.is_empty() {
                        to_home(s)
                    } else {
                        status_pips(s)
                    }
                };
                let before = session(history);
                let mover = before.state().to_move.index();
                let listed = entry.move_gains(options, None, history).unwrap();
                assert_eq!(listed.len(), before.legal_moves().len());
                for (mv, gain) in listed {
                    let mut moves = history.to_vec();
                    moves.push(&mv);
                    let (b, a) = (race(&before), race(&session(&moves)));
                    let lost = a[1 - mover] - b[1 - mover];
                    hits += usize::from(lost > 0);
                    assert_eq!(
                        gain,
                        b[mover] - a[mover] + lost,
                        "{options:?} {history:?} {mv}"
                    );
                }
            }
        }
        assert!(hits > 0, "some move hits a blot");
    }

    #[test]
    fn move_gains_refuse_what_position_refuses() {
        let entry = find("hasami").unwrap();
        assert!(entry.move_gains(&[], None, &["9z9a"]).is_err());
        assert!(entry.move_gains(&[], Some("nonsense"), &[]).is_err());
        let unknown = [("NoSuchOption".to_string(), "1".to_string())];
        assert!(entry.move_gains(&unknown, None, &[]).is_err());
        let bad = [("HasamiWin".to_string(), "seven".to_string())];
        assert!(entry.move_gains(&bad, None, &[]).is_err());
    }

    #[test]
    fn the_visitor_sees_every_game_with_its_own_type() {
        struct Names(Vec<&'static str>);
        impl GameVisitor for Names {
            fn visit<G: Playable>(&mut self, entry: &'static GameEntry) {
                assert_eq!(G::PROFILE.name, entry.name());
                self.0.push(G::PROFILE.name);
            }
        }
        let mut names = Names(Vec::new());
        for_each_game(&mut names);
        assert_eq!(names.0, NAMES);
    }
}
