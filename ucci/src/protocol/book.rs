//! The opening book and randomness in play (options `OwnBook`/`usebook`,
//! `BookFile`/`bookfiles`, `Best Book Move`, `Randomness`, `Random Moves`).
//!
//! `BookPlay` holds the loaded book and the random generator of the session. A
//! `go` asks it first (`BookPlay::go`): with the book on, a game search (not
//! `infinite`, `ponder`, UCCI `depth 0` or `searchmoves`) in a position the book
//! knows is answered at once with a book move not in `banmoves`, chosen by weight
//! (or the heaviest with `Best Book Move`), after an `info string book move …` line
//! (`info message …` under UCCI). Anywhere else the engine searches, with root score
//! noise in the first `Random Moves` moves when `Randomness` is not `none`. With
//! `Randomness none` (the default) no random number is drawn for the search, so play
//! is exactly as without this module.

use super::go::Plan;
use super::options::Settings;
use super::output::{self, Flag};
use super::Dialect;
use book::{Book, Pick, RNG_STREAM};
use engine::RootNoise;
use rules::notation::to_chinese;
use rules::rng::Rng;
use rules::{Move, Position};

/// What a `go` gets from the book.
#[derive(Debug, Default)]
pub struct BookReply {
    /// Lines to print (the book-move note and `bestmove`, or an error).
    pub lines: Vec<String>,
    /// The book answered: no search.
    pub answered: bool,
}

/// The book's answer to a game search, before any dialect's wording.
#[derive(Debug, Default)]
pub struct BookChoice {
    /// The book's move and the note that explains it.
    pub pick: Option<BookPick>,
    /// The book file could not be loaded (the book in memory was used).
    pub error: Option<String>,
}

#[derive(Debug)]
pub struct BookPick {
    pub mv: Move,
    pub note: String,
}

pub struct BookPlay {
    /// The book and the `BookFile` value it was loaded from.
    loaded: Option<(String, Book)>,
    rng: Rng,
}

impl Default for BookPlay {
    fn default() -> Self {
        BookPlay::new()
    }
}

impl BookPlay {
    /// Seeded from the clock and the process id: GUI games differ from run to run.
    pub fn new() -> BookPlay {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        BookPlay::with_seed(nanos ^ (u64::from(std::process::id()) << 32))
    }

    pub fn with_seed(seed: u64) -> BookPlay {
        BookPlay {
            loaded: None,
            rng: Rng::with_stream(seed, RNG_STREAM),
        }
    }

    /// The `BookFile` value of the book in memory, if any.
    pub fn loaded_name(&self) -> Option<&str> {
        self.loaded.as_ref().map(|(n, _)| n.as_str())
    }

    /// Load the book `settings.book_file` names, unless it is the one in memory.
    /// Done when the options change (idle, off the clock). On error the book in
    /// memory stays, and `settings.book_file` is set back to its name.
    pub fn sync(&mut self, settings: &mut Settings) -> Result<(), String> {
        if self.loaded_name() == Some(settings.book_file.as_str()) {
            return Ok(());
        }
        match Book::load_named(&settings.book_file) {
            Ok(b) => {
                self.loaded = Some((settings.book_file.clone(), b));
                Ok(())
            }
            Err(e) => {
                let name = super::command::clip(settings.book_file.trim());
                settings.book_file = match self.loaded_name() {
                    Some(n) => n.to_string(),
                    None => book::EMBEDDED_NAME.to_string(),
                };
                Err(format!("BookFile '{name}': {e}; book unchanged"))
            }
        }
    }

    /// Answer `go` from the book when it applies; otherwise set the plan's root
    /// noise (Randomness) and let the engine search.
    pub fn go(
        &mut self,
        dialect: Dialect,
        settings: &mut Settings,
        pos: &Position,
        banmoves: &[Move],
        plan: &mut Plan,
    ) -> BookReply {
        let mut reply = BookReply::default();
        let choice = self.choose(settings, pos, banmoves, plan);
        if let Some(e) = choice.error {
            reply.lines.push(output::error_line(dialect, &e));
        }
        if let Some(p) = choice.pick {
            reply.lines.push(output::message_line(dialect, &p.note));
            reply.lines.push(output::bestmove_line(
                dialect,
                settings.coords(),
                Some(p.mv),
                None,
                Flag::None,
            ));
            reply.answered = true;
        }
        reply
    }

    /// The book's move for a game search (not `infinite`, `ponder`, UCCI `depth
    /// 0` or `searchmoves`) when the book is on and knows the position, with its
    /// note; otherwise the plan gets its root noise and the engine searches.
    /// In words of no dialect, for every front-end.
    pub fn choose(
        &mut self,
        settings: &mut Settings,
        pos: &Position,
        banmoves: &[Move],
        plan: &mut Plan,
    ) -> BookChoice {
        let mut choice = BookChoice::default();
        let game_search = !plan.ponder
            && !plan.limits.infinite
            && !plan.depth_zero
            && plan.limits.searchmoves.is_empty();
        if settings.own_book && game_search {
            if let Err(e) = self.sync(settings) {
                choice.error = Some(e);
            }
            choice.pick = self.book_move(settings, pos, banmoves);
            if choice.pick.is_some() {
                return choice;
            }
        }
        plan.limits.root_noise = self.root_noise(settings, pos);
        choice
    }

    fn book_move(
        &mut self,
        settings: &Settings,
        pos: &Position,
        banmoves: &[Move],
    ) -> Option<BookPick> {
        let (_, book) = self.loaded.as_ref()?;
        let moves: Vec<book::BookMove> = book
            .probe(pos)
            .into_iter()
            .filter(|b| !banmoves.contains(&b.mv))
            .collect();
        let pick = if settings.best_book_move {
            Pick::Best
        } else {
            Pick::Weighted
        };
        let chosen = book::pick_from(&moves, pick, self.rng.next_u64())?;
        let total: u64 = moves.iter().map(|b| u64::from(b.weight)).sum();
        let note = format!(
            "book move {} ({}) weight {} of {} among {} book moves, {} games",
            settings.coords().format(chosen.mv),
            to_chinese(pos, chosen.mv),
            chosen.weight,
            total,
            moves.len(),
            chosen.count
        );
        Some(BookPick {
            mv: chosen.mv,
            note,
        })
    }

    /// Root noise for a search of `pos`: `Randomness` above `none` and a move
    /// number within `Random Moves`. Each search draws a fresh seed.
    pub fn root_noise(&mut self, settings: &Settings, pos: &Position) -> Option<RootNoise> {
        if settings.randomness <= 0 || pos.fullmove() > settings.random_moves {
            return None;
        }
        Some(RootNoise {
            amplitude: settings.randomness,
            seed: self.rng.next_u64(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::command::GoParams;
    use crate::protocol::go;

    /// A small book in a file of its own (`tag` keeps tests that run at the same
    /// time from writing over each other's file).
    fn book_file(tag: &str) -> std::path::PathBuf {
        let text = "1. h2e2 h9g7 1-0\n\n1. h2e2 h9g7 1-0\n\n1. b0c2 1/2-1/2\n\n1. b0c2 1-0\n";
        let r = book::records::read_pgn(text);
        let mut b = book::build::Builder::new();
        for g in &r.games {
            b.add_game(g, 4);
        }
        let o = book::build::BuildOptions {
            max_plies: 4,
            min_games: 1,
            min_score: 0.0,
        };
        let (book, _) = b.finish(&o).unwrap();
        let path =
            std::env::temp_dir().join(format!("qili-bookplay-{}-{tag}.qbook", std::process::id()));
        book.save(&path).unwrap();
        path
    }

    fn plan_for(g: &GoParams, s: &Settings, pos: &Position) -> Plan {
        go::plan(g, Dialect::Uci, s, pos, &[])
    }

    #[test]
    fn a_game_search_in_book_is_answered_and_others_are_not() {
        let path = book_file("t1");
        let mut s = Settings {
            own_book: true,
            book_file: path.display().to_string(),
            ..Settings::default()
        };
        let mut bp = BookPlay::with_seed(1);
        bp.sync(&mut s).unwrap();
        let start = Position::startpos();
        let g = GoParams {
            depth: Some(5),
            ..GoParams::default()
        };
        let mut plan = plan_for(&g, &s, &start);
        let r = bp.go(Dialect::Uci, &mut s, &start, &[], &mut plan);
        assert!(r.answered);
        assert!(
            r.lines[0].starts_with("info string book move "),
            "{:?}",
            r.lines
        );
        assert!(
            r.lines[1] == "bestmove h2e2" || r.lines[1] == "bestmove b0c2",
            "{:?}",
            r.lines
        );
        // Best only: h2e2 (4 half-points) over b0c2 (3).
        s.best_book_move = true;
        let r = bp.go(Dialect::Ucci, &mut s, &start, &[], &mut plan);
        assert_eq!(r.lines[1], "bestmove h2e2");
        assert!(r.lines[0].starts_with("info message book move h2e2"));
        // A banned book move is not played.
        let h2e2 = start.parse_move("h2e2").unwrap();
        let r = bp.go(Dialect::Ucci, &mut s, &start, &[h2e2], &mut plan);
        assert_eq!(r.lines[1], "bestmove b0c2");
        // Analysis and pondering search.
        for g in [
            GoParams {
                infinite: true,
                ..GoParams::default()
            },
            GoParams {
                ponder: true,
                ..GoParams::default()
            },
        ] {
            let mut plan = plan_for(&g, &s, &start);
            let r = bp.go(Dialect::Uci, &mut s, &start, &[], &mut plan);
            assert!(!r.answered && r.lines.is_empty());
        }
        // Out of the book, or with the book off: a search, and no noise by default.
        let mut out = start.clone();
        out.make_move(start.parse_move("a3a4").unwrap());
        let r = bp.go(Dialect::Uci, &mut s, &out, &[], &mut plan);
        assert!(!r.answered);
        assert_eq!(plan.limits.root_noise, None);
        s.own_book = false;
        let r = bp.go(Dialect::Uci, &mut s, &start, &[], &mut plan);
        assert!(!r.answered);
        let _ = std::fs::remove_file(path);
    }

    #[test]
    fn a_bad_book_file_keeps_the_book_in_memory() {
        let path = book_file("t2");
        let mut s = Settings {
            book_file: path.display().to_string(),
            ..Settings::default()
        };
        let mut bp = BookPlay::with_seed(1);
        bp.sync(&mut s).unwrap();
        let good = s.book_file.clone();
        s.book_file = "/nonexistent/book.qbook".into();
        let e = bp.sync(&mut s).unwrap_err();
        assert!(e.contains("/nonexistent/book.qbook"), "{e}");
        assert_eq!(s.book_file, good);
        assert_eq!(bp.loaded_name(), Some(good.as_str()));
        let _ = std::fs::remove_file(path);
    }

    #[test]
    fn randomness_gives_noise_only_in_the_first_moves() {
        let mut s = Settings::default();
        let mut bp = BookPlay::with_seed(5);
        let start = Position::startpos();
        assert_eq!(bp.root_noise(&s, &start), None);
        s.randomness = 20;
        s.random_moves = 1;
        let n = bp.root_noise(&s, &start).unwrap();
        assert_eq!(n.amplitude, 20);
        let mut later = start.clone();
        for m in ["h2e2", "h9g7", "h0g2", "i9h9"] {
            let mv = later.parse_move(m).unwrap();
            later.make_move(mv);
        }
        assert_eq!(later.fullmove(), 3);
        assert_eq!(bp.root_noise(&s, &later), None);
    }
}
