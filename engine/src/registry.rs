//! The games the engine plays: one table that the protocol, the command line,
//! the benches, the conformance tests and the match runner all iterate. A new
//! game is its own folder plus one line here (docs/adding-a-game.md).

use crate::session::{GameSession, Playable, Session};

/// One registered game and the facts about it that tools need without
/// knowing its rules.
#[derive(Clone, Copy)]
pub struct GameEntry {
    /// The name used everywhere a game is named (protocol, command line, files).
    pub name: &'static str,
    /// The game's name for people.
    pub title: &'static str,
    pub seats: usize,
    /// Whether chance events (dice) are part of the play.
    pub has_chance: bool,
    /// The most points one game can be worth.
    pub max_points: u8,
    /// A session at the start position with default rules and options.
    pub new_session: fn() -> Box<dyn GameSession>,
}

impl GameEntry {
    const fn of<G: Playable>(title: &'static str) -> GameEntry {
        GameEntry {
            name: G::NAME,
            title,
            seats: G::SEATS,
            has_chance: G::HAS_CHANCE,
            max_points: G::MAX_POINTS,
            new_session: boxed_session::<G>,
        }
    }
}

impl std::fmt::Debug for GameEntry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name)
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
/// `for_each_game` for code generic over the game, both from the same lines.
macro_rules! register_games {
    ($($game:ty => $title:literal),* $(,)?) => {
        /// Every game, the default (for the protocol and the tools) first.
        pub const GAMES: &[GameEntry] = &[$(GameEntry::of::<$game>($title)),*];

        /// Calls `visitor` with every game's type, in the order of [`GAMES`].
        pub fn for_each_game(visitor: &mut impl GameVisitor) {
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
        .find(|game| game.name.eq_ignore_ascii_case(name))
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
        names[i] = GAMES[i].name;
        i += 1;
    }
    names
};

/// A session for the named game, or why there is none.
pub fn new_session(name: &str) -> Result<Box<dyn GameSession>, String> {
    find(name).map(|game| (game.new_session)())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_entry_makes_a_session_of_its_own_game() {
        for game in GAMES {
            let session = (game.new_session)();
            assert_eq!(session.game(), game.name);
            assert_eq!(session.seats(), game.seats);
            assert_eq!(session.has_chance(), game.has_chance);
            assert_eq!(find(&game.name.to_uppercase()).unwrap().name, game.name);
        }
        let mut names = NAMES.to_vec();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), GAMES.len(), "names are unique");
        assert!(find("chess").unwrap_err().contains("hasami"));
    }

    #[test]
    fn the_visitor_sees_every_game_with_its_own_type() {
        struct Names(Vec<&'static str>);
        impl GameVisitor for Names {
            fn visit<G: Playable>(&mut self, entry: &'static GameEntry) {
                assert_eq!(G::NAME, entry.name);
                self.0.push(G::NAME);
            }
        }
        let mut names = Names(Vec::new());
        for_each_game(&mut names);
        assert_eq!(names.0, NAMES);
    }
}
