//! Shared helpers: random positions reached by random legal play.

#![allow(dead_code)]

use rules::rng::Rng;
use rules::Position;

/// A position after up to `plies` random legal moves from the start (stops at mate).
pub fn random_position(rng: &mut Rng, plies: usize) -> Position {
    let mut pos = Position::startpos();
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let m = moves.as_slice()[rng.below(moves.len())];
        pos.make_move(m);
    }
    pos
}

pub fn temp_path(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("qili-nets-{}-{name}", std::process::id()))
}
