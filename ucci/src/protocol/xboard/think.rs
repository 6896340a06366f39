//! Starting one search for CECP through `searcher::spawn_search` (the same
//! thread UCCI/UCI use): what it remembers of the search, and the thinking
//! output (when asked for) printed from the search thread as it comes.

use super::output;
use crate::protocol::output::Out;
use crate::protocol::searcher::{spawn_search, Searcher};
use crate::protocol::Event;
use engine::{Limits, SearchControl};
use rules::{Move, Position};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Sender;
use std::sync::Arc;

/// A search in progress.
pub struct Thinking {
    pub id: u64,
    pub control: Arc<SearchControl>,
    /// `analyze`: infinite, never answered with a move.
    pub analysis: bool,
    /// The game generation it searches: a result for another one is dropped.
    pub generation: u64,
    /// The position searched, for a fallback move if the search fails.
    pub root: Position,
    /// Pondering: the opponent's move the search assumed, until the GUI plays
    /// it (`ponderhit`) or another one (the search is dropped).
    pub ponder: Option<Move>,
}

/// What a search needs besides the searcher.
pub struct Job {
    pub id: u64,
    pub root: Position,
    pub limits: Limits,
    /// `post`/`nopost`, shared so that a change reaches a running search.
    pub post: Arc<AtomicBool>,
    pub analysis: bool,
    pub generation: u64,
    pub ponder: Option<Move>,
}

/// Start `job` with `searcher` on a new thread. On failure the searcher is
/// lost with the closure and the error is returned.
pub fn spawn<S: Searcher>(
    searcher: S,
    job: Job,
    out: Out,
    tx: Sender<Event<S>>,
) -> Result<Thinking, String> {
    let control = Arc::new(SearchControl::new());
    control.reset(job.ponder.is_some());
    let thinking = Thinking {
        id: job.id,
        control: control.clone(),
        analysis: job.analysis,
        generation: job.generation,
        root: job.root.clone(),
        ponder: job.ponder,
    };
    let Job {
        id,
        root,
        limits,
        post,
        analysis,
        ..
    } = job;
    let on_info = move |i: &engine::SearchInfo| {
        // Analysis always shows its lines: that is what it is for.
        if analysis || post.load(Ordering::Relaxed) {
            if let Some(l) = output::thinking_line(i) {
                out.line(&l);
            }
        }
    };
    spawn_search(searcher, id, root, limits, control, tx, on_info)
        .map(|()| thinking)
        .map_err(|e| format!("cannot start the search thread: {e}"))
}
