//! Qili's searcher.

pub mod limits;
pub mod timeman;

pub use limits::{Limits, Score, SearchControl, SearchInfo, SearchResult};
pub use timeman::{TimeBudget, TimeControl};
