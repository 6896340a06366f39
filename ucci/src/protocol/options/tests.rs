//! Tests of the option values: defaults from the table, both spellings, and
//! refused values that change nothing.

use super::setoption::physical_memory_mb;
use super::table::MAX_HASH_MB;
use super::*;

#[test]
fn ucci_form_takes_names_of_several_words() {
    let mut s = Settings::default();
    assert_eq!(
        s.set("Skill", Some("Level 7")),
        Ok(Effect::Changed(Id::SkillLevel))
    );
    assert_eq!(s.skill_level, 7);
    assert_eq!(
        s.set("Natural", Some("Move Limit value 50")),
        Ok(Effect::Changed(Id::NaturalLimit))
    );
    assert_eq!(s.natural_limit, 50);
    assert_eq!(s.set("Clear", Some("Hash")), Ok(Effect::ClearHash));
    assert!(matches!(
        s.set("Skill", Some("Levels 7")),
        Err(OptionError::Unknown(_))
    ));
}

#[test]
fn defaults_come_from_the_table() {
    let s = Settings::default();
    assert!(s.usemillisec && !s.ponder && !s.resign);
    assert_eq!((s.hash_mb, s.threads, s.multipv), (64, 1, 1));
    assert_eq!((s.natural_limit, s.move_overhead_ms), (60, 2));
}

#[test]
fn names_match_in_either_dialect_and_case() {
    let mut s = Settings::default();
    assert_eq!(
        s.set("Move Overhead", Some("120")),
        Ok(Effect::Changed(Id::MoveOverhead))
    );
    assert_eq!(
        s.set("moveoverhead", Some("130")),
        Ok(Effect::Changed(Id::MoveOverhead))
    );
    assert_eq!(s.set("HASHSIZE", Some("32")), Ok(Effect::Changed(Id::Hash)));
    assert_eq!(s.set("hash", Some("16")), Ok(Effect::Changed(Id::Hash)));
    assert_eq!(s.set("rules", Some("cn")), Ok(Effect::Changed(Id::Rules)));
    assert_eq!(s.set("ponder", Some("on")), Ok(Effect::Changed(Id::Ponder)));
    assert_eq!(
        (s.move_overhead_ms, s.hash_mb, s.rules),
        (130, 16, RuleSet::Chinese)
    );
    assert!(s.ponder);
    // UCCI's 0 = automatic.
    assert_eq!(s.set("hashsize", Some("0")), Ok(Effect::Changed(Id::Hash)));
    assert_eq!(s.hash_mb, 64);
    assert_eq!(
        s.set("threads", Some("0")),
        Ok(Effect::Changed(Id::Threads))
    );
    assert!(s.threads >= 1);
    assert_eq!(
        s.set("EvalFile", Some("nets/a b.qnn")),
        Ok(Effect::Changed(Id::EvalFile))
    );
    assert_eq!(s.eval_file, "nets/a b.qnn");
    assert_eq!(s.set("evalfile", None), Ok(Effect::Changed(Id::EvalFile)));
    assert_eq!(s.eval_file, EMBEDDED);
    assert_eq!(s.set("newgame", None), Ok(Effect::NewGame));
    assert_eq!(s.set("Clear Hash", None), Ok(Effect::ClearHash));
    // The book options are real (see `book_and_randomness_options…`).
    assert_eq!(
        s.set("usebook", Some("true")),
        Ok(Effect::Changed(Id::OwnBook))
    );
    assert_eq!(
        s.set("OwnBook", Some("false")),
        Ok(Effect::Changed(Id::OwnBook))
    );
    assert_eq!(s.set("useegtb", Some("true")), Ok(Effect::NotSupported));
    assert_eq!(
        s.set("UCI_Chess960", Some("true")),
        Ok(Effect::NotSupported)
    );
    assert_eq!(s.set("UCI_AnalyseMode", Some("true")), Ok(Effect::NoEffect));
    // The strength and WDL options are real.
    assert_eq!(
        s.set("SP razor_margin", Some("300")),
        Ok(Effect::Changed(Id::SearchParam))
    );
    assert_eq!(s.params.razor_margin, 300);
    assert!(matches!(
        s.set("SP razor_margin", Some("100000")),
        Err(OptionError::OutOfRange { .. })
    ));
    assert!(matches!(
        s.set("SP nothing", Some("1")),
        Err(OptionError::Unknown(_))
    ));
    // The UCCI form, as `qili match` sends it to a UCCI engine.
    assert_eq!(
        s.set("SP", Some("razor_margin 250")),
        Ok(Effect::Changed(Id::SearchParam))
    );
    assert_eq!(s.params.razor_margin, 250);
    assert!(s.set("SP", Some("razor_margin")).is_err());
    assert_eq!(
        s.set("Skill Level", Some("5")),
        Ok(Effect::Changed(Id::SkillLevel))
    );
    assert_eq!(
        s.set("UCI_LimitStrength", Some("true")),
        Ok(Effect::Changed(Id::LimitStrength))
    );
    assert_eq!(
        s.set("UCI_Elo", Some(&engine::strength::MIN_ELO.to_string())),
        Ok(Effect::Changed(Id::Elo))
    );
    assert_eq!(
        s.set("UCI_ShowWDL", Some("true")),
        Ok(Effect::Changed(Id::ShowWdl))
    );
    assert_eq!(
        (s.skill_level, s.limit_strength, s.elo, s.show_wdl),
        (5, true, engine::strength::MIN_ELO, true)
    );
    assert!(matches!(
        s.set("Skill Level", Some("21")),
        Err(OptionError::OutOfRange { .. })
    ));
}

#[test]
fn book_and_randomness_options_in_both_spellings() {
    let mut s = Settings::default();
    assert!(!s.own_book && !s.best_book_move);
    assert_eq!(
        (s.book_file.as_str(), s.randomness, s.random_moves),
        (EMBEDDED_BOOK, 0, 10)
    );
    assert_eq!(
        s.set("usebook", Some("true")),
        Ok(Effect::Changed(Id::OwnBook))
    );
    assert!(s.own_book);
    assert_eq!(
        s.set("OwnBook", Some("false")),
        Ok(Effect::Changed(Id::OwnBook))
    );
    assert!(!s.own_book);
    assert_eq!(
        s.set("bookfiles", Some("books/main book.qbook")),
        Ok(Effect::Changed(Id::BookFile))
    );
    assert_eq!(s.book_file, "books/main book.qbook");
    assert_eq!(s.set("BookFile", None), Ok(Effect::Changed(Id::BookFile)));
    assert_eq!(s.book_file, EMBEDDED_BOOK);
    assert_eq!(s.eval_file, EMBEDDED, "BookFile leaves EvalFile alone");
    assert_eq!(
        s.set("Best Book Move", Some("true")),
        Ok(Effect::Changed(Id::BestBookMove))
    );
    assert!(s.best_book_move);
    assert_eq!(
        s.set("randomness", Some("small")),
        Ok(Effect::Changed(Id::Randomness))
    );
    assert_eq!(s.randomness, 10);
    assert_eq!(
        s.set("Randomness", Some("HUGE")),
        Ok(Effect::Changed(Id::Randomness))
    );
    assert_eq!(s.randomness, 80);
    assert_eq!(
        s.set("Random Moves", Some("3")),
        Ok(Effect::Changed(Id::RandomMoves))
    );
    assert_eq!(s.random_moves, 3);
    let before = s.clone();
    assert!(matches!(
        s.set("randomness", Some("wild")),
        Err(OptionError::NotChoice { .. })
    ));
    assert!(matches!(
        s.set("randommoves", Some("0")),
        Err(OptionError::OutOfRange { .. })
    ));
    assert_eq!(s, before);
}

#[test]
fn bad_values_change_nothing() {
    let mut s = Settings::default();
    let before = s.clone();
    if let Some(total) = physical_memory_mb() {
        let too_much = (total / 2 + 1).min(MAX_HASH_MB as u64).to_string();
        if total / 2 < MAX_HASH_MB as u64 {
            assert!(matches!(
                s.set("Hash", Some(&too_much)),
                Err(OptionError::TooMuchMemory { .. })
            ));
        }
    }
    assert!(matches!(
        s.set("threads", Some("-1")),
        Err(OptionError::OutOfRange { .. })
    ));
    assert!(matches!(
        s.set("Threads", Some("257")),
        Err(OptionError::OutOfRange { .. })
    ));
    assert!(matches!(
        s.set("Hash", Some("lots")),
        Err(OptionError::NotNumber(..))
    ));
    assert!(matches!(
        s.set("ponder", Some("maybe")),
        Err(OptionError::NotBool(..))
    ));
    assert!(matches!(
        s.set("ponder", None),
        Err(OptionError::NeedsValue(_))
    ));
    assert!(matches!(
        s.set("rules", Some("fide")),
        Err(OptionError::NotChoice { .. })
    ));
    assert!(matches!(
        s.set("promotion", Some("true")),
        Err(OptionError::Unsupported(_))
    ));
    assert!(matches!(
        s.set("frobnicate", Some("1")),
        Err(OptionError::Unknown(_))
    ));
    assert_eq!(s, before);
    assert_eq!(
        s.set("promotion", Some("false")),
        Ok(Effect::Changed(Id::Promotion))
    );
}
