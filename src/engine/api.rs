//! The engine's front door: [`search`] and [`search_with_table`] run the search a
//! [`EngineSettings`] asks for, the reference searches ([`super::reference`]) or the full
//! engine ([`super::full`]), and every type a caller needs is reachable from here. Nothing in
//! the engine depends on this module, so the searches cannot reach back into it.

use rand::Rng;

pub use super::limits::Limits;
pub use super::result::{PROGRESS_INTERVAL, SearchResult};
pub use super::settings::{Algorithm, EngineSettings};

use super::limits::StopFlag;
use super::tree::SearchObserver;
use super::tt::TranspositionTable;
use super::{Evaluator, Game, full, reference};

/// Searches `game` with `settings`, reporting every node to `observer` (the full engine with
/// a table of its own: see [`search_with_table`]).
///
/// `rng` breaks exact ties among root moves when `settings.random_ties` is on. `progress`
/// hears intermediate results (every 100 ms while the search runs, and after each completed
/// iteration of the full engine). Raising `stop` ends the search
/// promptly with the best move found so far.
pub fn search<G, E, O>(
    game: &G,
    evaluator: &E,
    settings: &EngineSettings,
    rng: &mut impl Rng,
    observer: &mut O,
    stop: &StopFlag,
    progress: &mut dyn FnMut(&SearchResult<G::Move>),
) -> SearchResult<G::Move>
where
    G: Game,
    E: Evaluator<G>,
    O: SearchObserver<G::Move>,
{
    search_with_table(
        game, evaluator, settings, rng, observer, stop, progress, None,
    )
}

/// [`search`], with the full engine using `table` when one is given (an engine player keeps
/// one from move to move); the other algorithms have no table and ignore it.
#[allow(clippy::too_many_arguments)]
pub fn search_with_table<G, E, O>(
    game: &G,
    evaluator: &E,
    settings: &EngineSettings,
    rng: &mut impl Rng,
    observer: &mut O,
    stop: &StopFlag,
    progress: &mut dyn FnMut(&SearchResult<G::Move>),
    table: Option<&TranspositionTable>,
) -> SearchResult<G::Move>
where
    G: Game,
    E: Evaluator<G>,
    O: SearchObserver<G::Move>,
{
    match settings.algorithm {
        Algorithm::Full => full::search(
            game, evaluator, settings, rng, observer, stop, progress, table,
        ),
        Algorithm::Minimax | Algorithm::AlphaBeta => {
            reference::search(game, evaluator, settings, rng, observer, stop, progress)
        }
    }
}
