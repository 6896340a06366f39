//! Qili's match runner and arbiter: engine matches over UCCI/UCI, judged by the rules crate.
//!
//! It drives engines over UCCI or UCI, keeps the clocks, adjudicates every game
//! with the `rules` crate (mate, 困毙, the 棋例 verdict of repetitions, the natural
//! move limit), and reports W/D/L, Elo and an SPRT. `qili match` is the command-line front end; the criterion benches of the
//! workspace live in `benches/`.

#![forbid(unsafe_code)]

pub mod arbiter;
pub mod game;
pub mod notation;
pub mod openings;
pub mod process;
pub mod progress;
pub mod runner;
pub mod spsa;
pub mod stats;

pub use arbiter::{adjudicate, ArbiterRules, PerpetualKind, Termination};
pub use game::{
    play_game, FixedLimits, FlagPolicy, GameReport, GameRules, GameSpec, GuiLag, ScoreRules,
};
pub use notation::RankBase;
pub use openings::{load_openings, parse_openings, Opening};
pub use process::{Engine, EngineConfig, EngineError, Protocol, ProtocolChoice};
pub use runner::{open_append, run_match, MatchConfig, MatchSummary};
pub use stats::{Sprt, SprtState, Tally};
