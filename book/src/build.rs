//! Building a book from games: count, for each position of the first plies and each
//! move played there, the games and their results for the side that moved; keep the
//! moves played often enough that scored well enough; weigh each kept move by the
//! half-points it earned (2 per win, 1 per draw). A caller may first re-score the
//! candidates with a search and drop some (`Builder::candidates`, `drop_move`,
//! `set_score`); the builder itself knows nothing of search.

use crate::format::NO_SCORE;
use crate::mirror::{mirror_position, BookKey};
use crate::records::Game;
use crate::{Book, BookError, Entry};
use rules::pgn::GameResult;
use rules::{Move, Position};
use std::collections::{BTreeMap, HashSet};

/// Which moves of the counted games go into the book.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BuildOptions {
    /// Only the first this many plies of each game are counted.
    pub max_plies: usize,
    /// A move must have been played in at least this many games.
    pub min_games: u32,
    /// ... and scored at least this fraction of the points for the side that
    /// played it (a win 1, a draw ½; a game without a result counts as a draw).
    pub min_score: f64,
}

impl Default for BuildOptions {
    fn default() -> Self {
        BuildOptions {
            max_plies: 20,
            min_games: 2,
            min_score: 0.0,
        }
    }
}

/// What the games said about one move of one position.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MoveStats {
    pub games: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    /// Set by a re-scoring search (centipawns for the mover).
    pub score: Option<i16>,
}

impl MoveStats {
    /// Half-points earned: 2 per win, 1 per draw. The book weight before scaling.
    pub fn half_points(&self) -> u64 {
        2 * u64::from(self.wins) + u64::from(self.draws)
    }

    /// Fraction of the points earned, 0..=1.
    pub fn score_fraction(&self) -> f64 {
        if self.games == 0 {
            0.0
        } else {
            self.half_points() as f64 / (2.0 * f64::from(self.games))
        }
    }
}

/// A position the builder saw, in the orientation its moves are stored in.
#[derive(Clone, Debug)]
struct Seen {
    fen: String,
    moves: BTreeMap<u16, MoveStats>,
}

/// A position and the moves that pass the count and result filters, for a caller
/// that re-scores them. `position` is in stored orientation: `moves` are its moves.
#[derive(Clone, Debug)]
pub struct Candidate {
    pub key: u64,
    pub position: Position,
    pub moves: Vec<(Move, MoveStats)>,
}

/// What `finish` kept and dropped.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BuildReport {
    pub games: usize,
    /// Distinct (position, move) pairs counted.
    pub counted: usize,
    pub dropped_rare: usize,
    pub dropped_score: usize,
    /// Dropped by the caller (`drop_move`, e.g. a re-scoring search).
    pub dropped_by_caller: usize,
    pub entries: usize,
    pub positions: usize,
}

#[derive(Debug, Default)]
pub struct Builder {
    seen: BTreeMap<u64, Seen>,
    games: usize,
    dropped: HashSet<(u64, u16)>,
}

impl Builder {
    pub fn new() -> Builder {
        Builder::default()
    }

    /// Count the first `max_plies` plies of a game. A position and move met twice
    /// in one game count once.
    pub fn add_game(&mut self, game: &Game, max_plies: usize) {
        self.games += 1;
        let mut pos = game.start.clone();
        let mut this_game = HashSet::new();
        for &m in game.moves.iter().take(max_plies) {
            if !pos.is_legal(m) {
                break;
            }
            let k = BookKey::of(&pos);
            let stored = k.to_stored(m);
            if this_game.insert((k.key, stored.0)) {
                let seen = self.seen.entry(k.key).or_insert_with(|| Seen {
                    fen: stored_fen(&pos, k),
                    moves: BTreeMap::new(),
                });
                let s = seen.moves.entry(stored.0).or_default();
                s.games += 1;
                match game.result {
                    GameResult::RedWins | GameResult::BlackWins => {
                        if game.result.winner() == Some(pos.side_to_move()) {
                            s.wins += 1;
                        } else {
                            s.losses += 1;
                        }
                    }
                    GameResult::Draw | GameResult::Unknown => s.draws += 1,
                }
            }
            pos.make_move(m);
        }
    }

    pub fn games(&self) -> usize {
        self.games
    }

    fn passes(s: &MoveStats, o: &BuildOptions) -> Result<(), Drop> {
        if s.games < o.min_games.max(1) {
            Err(Drop::Rare)
        } else if s.half_points() == 0 || s.score_fraction() < o.min_score {
            Err(Drop::Score)
        } else {
            Ok(())
        }
    }

    /// Positions with at least one move that passes the filters, in key order.
    pub fn candidates(&self, o: &BuildOptions) -> Vec<Candidate> {
        let mut out = Vec::new();
        for (&key, seen) in &self.seen {
            let moves: Vec<(Move, MoveStats)> = seen
                .moves
                .iter()
                .filter(|(&m, s)| {
                    Builder::passes(s, o).is_ok() && !self.dropped.contains(&(key, m))
                })
                .map(|(&m, s)| (Move(m), *s))
                .collect();
            if moves.is_empty() {
                continue;
            }
            if let Ok(position) = Position::from_fen(&seen.fen) {
                out.push(Candidate {
                    key,
                    position,
                    moves,
                });
            }
        }
        out
    }

    /// Leave a move out of the book (a stored move of the position filed under `key`).
    pub fn drop_move(&mut self, key: u64, stored: Move) {
        self.dropped.insert((key, stored.0));
    }

    /// Record a search score for a move (centipawns for the mover).
    pub fn set_score(&mut self, key: u64, stored: Move, score: i16) {
        if let Some(s) = self
            .seen
            .get_mut(&key)
            .and_then(|p| p.moves.get_mut(&stored.0))
        {
            s.score = Some(score.max(NO_SCORE + 1));
        }
    }

    /// The book: kept moves weighted by half-points, scaled per position to fit u16.
    pub fn finish(&self, o: &BuildOptions) -> Result<(Book, BuildReport), BookError> {
        let mut report = BuildReport {
            games: self.games,
            ..BuildReport::default()
        };
        let mut entries = Vec::new();
        for (&key, seen) in &self.seen {
            let mut kept: Vec<(u16, MoveStats)> = Vec::new();
            for (&m, s) in &seen.moves {
                report.counted += 1;
                match Builder::passes(s, o) {
                    Err(Drop::Rare) => report.dropped_rare += 1,
                    Err(Drop::Score) => report.dropped_score += 1,
                    Ok(()) if self.dropped.contains(&(key, m)) => report.dropped_by_caller += 1,
                    Ok(()) => kept.push((m, *s)),
                }
            }
            let max = kept.iter().map(|(_, s)| s.half_points()).max().unwrap_or(0);
            for (m, s) in &kept {
                let w = if max > u64::from(u16::MAX) {
                    (s.half_points() * u64::from(u16::MAX) / max).max(1)
                } else {
                    s.half_points()
                };
                entries.push(Entry {
                    key,
                    mv: Move(*m),
                    weight: w as u16,
                    count: s.games.min(u32::from(u16::MAX)) as u16,
                    score: s.score.unwrap_or(NO_SCORE),
                });
            }
        }
        let book = Book::from_entries(entries)?;
        report.entries = book.len();
        report.positions = book.positions();
        Ok((book, report))
    }
}

enum Drop {
    Rare,
    Score,
}

/// The position's FEN in the orientation its moves are stored in.
fn stored_fen(pos: &Position, k: BookKey) -> String {
    if k.mirrored {
        mirror_position(pos).map_or_else(|| pos.to_fen(), |m| m.to_fen())
    } else {
        pos.to_fen()
    }
}
