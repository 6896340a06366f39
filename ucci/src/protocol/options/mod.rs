//! Engine options: one table serves both dialects (UCI names like `Move Overhead`,
//! UCCI one-word names like `moveoverhead`); names match case-insensitively and
//! ignoring blanks, `_` and `-`, so either spelling works in either dialect.
//!
//! This file holds the current values (`Settings`) and which field each table
//! entry sets. `setoption` (checking a value against the table and storing it, or
//! saying why not) is in `setoption.rs` and its errors in `error.rs`; the table
//! itself is in `table.rs`; name matching and the advertised `option` lines in
//! `spelling.rs`.

mod error;
mod setoption;
mod spelling;
mod table;

pub use error::OptionError;
pub use setoption::Effect;
pub use table::{Id, EMBEDDED, EMBEDDED_BOOK, HCE, XIANGQI};

use super::coords::Coords;
use rules::repetition::RuleSet;
use table::{Kind, DEFAULT_HASH_MB, DEFS, RANDOMNESS};

/// Current option values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    pub usemillisec: bool,
    pub batch: bool,
    pub debug: bool,
    pub ponder: bool,
    pub hash_mb: usize,
    pub threads: usize,
    pub rules: RuleSet,
    pub natural_limit: u32,
    /// Checks of each side that count toward the natural limit; 0 = all.
    pub natural_checks: u32,
    /// Value of a draw for the engine, centipawns (contempt when negative).
    pub draw_value: i32,
    pub move_overhead_ms: u64,
    pub multipv: usize,
    pub resign: bool,
    pub resign_value: i32,
    /// Offer draws in long level games (UCCI).
    pub draw_offer: bool,
    /// Net file of the evaluation, `EMBEDDED` for the compiled-in net, or `HCE`
    /// for the handcrafted evaluation.
    pub eval_file: String,
    /// Refuse positions no game reaches (`Strict Positions`).
    pub strict_positions: bool,
    /// `Skill Level`, 0..=20 (20: full strength).
    pub skill_level: u32,
    /// `UCI_LimitStrength`: play at `UCI_Elo` instead (it wins over Skill Level).
    pub limit_strength: bool,
    pub elo: u32,
    /// `UCI_ShowWDL`: add `wdl W D L` to the score of every `info` line.
    pub show_wdl: bool,
    /// The search constants (`setoption name SP <name> value <v>`, for tuning).
    pub params: engine::params::SearchParams,
    // The opening book and variety (see `protocol::book`).
    /// Answer from the book when it has a move (`OwnBook`, UCCI `usebook`).
    pub own_book: bool,
    /// The book file, or `EMBEDDED_BOOK` for the compiled-in book.
    pub book_file: String,
    /// Always the heaviest book move instead of a weighted random one.
    pub best_book_move: bool,
    /// Root score noise in centipawns outside the book (0: none).
    pub randomness: i32,
    /// The noise applies up to this full-move number.
    pub random_moves: u32,
    /// `UCI_Variant` as the GUI set it (lower case); `None` until it does.
    pub variant: Option<String>,
}

impl Default for Settings {
    fn default() -> Self {
        let mut s = Settings {
            usemillisec: true,
            batch: false,
            debug: false,
            ponder: false,
            hash_mb: 0,
            threads: 0,
            rules: RuleSet::Axf,
            natural_limit: 0,
            natural_checks: 0,
            draw_value: 0,
            move_overhead_ms: 0,
            multipv: 0,
            resign: false,
            resign_value: 0,
            draw_offer: false,
            eval_file: EMBEDDED.to_string(),
            strict_positions: false,
            skill_level: 0,
            limit_strength: false,
            elo: 0,
            show_wdl: false,
            params: engine::params::DEFAULT,
            own_book: false,
            book_file: EMBEDDED_BOOK.to_string(),
            best_book_move: false,
            randomness: 0,
            random_moves: 0,
            variant: None,
        };
        for d in DEFS {
            match d.kind {
                Kind::Check(v) => s.set_check(d.id, v),
                Kind::Spin { default, .. } => s.set_spin(d.id, default),
                Kind::Combo(_, v) => {
                    let _ = s.set_combo(d.id, v);
                }
                Kind::Button | Kind::Text(_) => {}
            }
        }
        s
    }
}

impl Settings {
    /// How moves are written: Fairy-Stockfish's ranks 1–10 once `UCI_Variant` is
    /// `xiangqi`, ICCS otherwise.
    pub fn coords(&self) -> Coords {
        match self.variant.as_deref() {
            Some(XIANGQI) => Coords::OneBased,
            _ => Coords::Iccs,
        }
    }

    /// A `UCI_Variant` other than xiangqi, which no position is played under.
    pub fn foreign_variant(&self) -> Option<&str> {
        self.variant.as_deref().filter(|v| *v != XIANGQI)
    }

    fn set_check(&mut self, id: Id, v: bool) {
        match id {
            Id::UseMillisec => self.usemillisec = v,
            Id::Batch => self.batch = v,
            Id::Debug => self.debug = v,
            Id::Ponder => self.ponder = v,
            Id::Resign => self.resign = v,
            Id::DrawOffer => self.draw_offer = v,
            Id::StrictPositions => self.strict_positions = v,
            Id::LimitStrength => self.limit_strength = v,
            Id::ShowWdl => self.show_wdl = v,
            Id::OwnBook => self.own_book = v,
            Id::BestBookMove => self.best_book_move = v,
            _ => {}
        }
    }

    fn set_spin(&mut self, id: Id, v: i64) {
        // Callers have range-checked `v` against the table, so these fit.
        match id {
            Id::Hash if v == 0 => self.hash_mb = DEFAULT_HASH_MB as usize,
            Id::Hash => self.hash_mb = v as usize,
            Id::Threads if v == 0 => {
                self.threads = std::thread::available_parallelism().map_or(1, |n| n.get())
            }
            Id::Threads => self.threads = v as usize,
            Id::NaturalLimit => self.natural_limit = v as u32,
            Id::NaturalChecks => self.natural_checks = v as u32,
            Id::DrawValue => self.draw_value = v as i32,
            Id::MoveOverhead => self.move_overhead_ms = v as u64,
            Id::MultiPv => self.multipv = v as usize,
            Id::ResignValue => self.resign_value = v as i32,
            Id::SkillLevel => self.skill_level = v as u32,
            Id::Elo => self.elo = v as u32,
            Id::RandomMoves => self.random_moves = v as u32,
            _ => {}
        }
    }

    fn set_combo(&mut self, id: Id, v: &str) -> bool {
        if id == Id::Randomness {
            let v = v.to_ascii_lowercase();
            match RANDOMNESS.iter().find(|(name, _)| *name == v) {
                Some(&(_, cp)) => self.randomness = cp,
                None => return false,
            }
        }
        if id == Id::Rules {
            self.rules = match v.to_ascii_lowercase().as_str() {
                "axf" | "asian" | "asia" => RuleSet::Axf,
                "cn" | "chinese" | "china" => RuleSet::Chinese,
                _ => return false,
            };
        }
        true
    }
}

#[cfg(test)]
mod tests;
