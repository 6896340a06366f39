//! Running one search on its own thread for CECP, as `session/thinking.rs` does
//! for UCCI/UCI: the searcher moves into the thread and comes back in
//! `Event::Done` with the result, tagged with the search's id. Thinking output
//! (when asked for) is printed from the search thread as it comes.

use super::output;
use crate::protocol::output::Out;
use crate::protocol::searcher::Searcher;
use crate::protocol::Event;
use engine::{Limits, SearchControl};
use rules::Position;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Sender;
use std::sync::Arc;

/// The search thread recurses deeply; give it room.
const SEARCH_STACK: usize = 64 << 20;

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
}

/// Start `job` with `searcher` on a new thread. On failure the searcher is
/// lost with the closure and the error is returned.
pub fn spawn<S: Searcher>(
    mut searcher: S,
    job: Job,
    out: Out,
    tx: Sender<Event<S>>,
) -> Result<Thinking, String> {
    let control = Arc::new(SearchControl::new());
    control.reset(false);
    let thinking = Thinking {
        id: job.id,
        control: control.clone(),
        analysis: job.analysis,
        generation: job.generation,
        root: job.root.clone(),
    };
    let Job {
        id,
        root,
        limits,
        post,
        analysis,
        ..
    } = job;
    std::thread::Builder::new()
        .name("qili-search".into())
        .stack_size(SEARCH_STACK)
        .spawn(move || {
            let outcome = catch_unwind(AssertUnwindSafe(|| {
                let mut on_info = |i: &engine::SearchInfo| {
                    // Analysis always shows its lines: that is what it is for.
                    if analysis || post.load(Ordering::Relaxed) {
                        if let Some(l) = output::thinking_line(i) {
                            out.line(&l);
                        }
                    }
                };
                searcher.search(&root, &limits, &control, &mut on_info)
            }));
            let (searcher, result) = match outcome {
                Ok(r) => (Some(searcher), Some(r)),
                Err(_) => (None, None),
            };
            let _ = tx.send(Event::Done {
                id,
                searcher,
                result,
            });
        })
        .map(|_| thinking)
        .map_err(|e| format!("cannot start the search thread: {e}"))
}
