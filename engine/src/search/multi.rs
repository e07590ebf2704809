//! Multi-player searchers (paranoid, max-n, best-reply) over [`super::MultiPlayerGame`].
