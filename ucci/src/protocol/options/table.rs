//! The option table: every option both dialects know, with its UCI and UCCI
//! spelling, type, bounds and default, and the standard options accepted and
//! ignored. Pure data, so that adding an option is one entry here.

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Id {
    UseMillisec,
    Batch,
    Debug,
    Ponder,
    Hash,
    Threads,
    NewGame,
    ClearHash,
    Rules,
    NaturalLimit,
    NaturalChecks,
    DrawValue,
    MoveOverhead,
    MultiPv,
    Resign,
    ResignValue,
    DrawOffer,
    Promotion,
    EvalFile,
    StrictPositions,
    SkillLevel,
    LimitStrength,
    Elo,
    ShowWdl,
    /// `SP <name>`: a search constant (not in the table).
    SearchParam,
    // The opening book and variety (`protocol::book`).
    OwnBook,
    BookFile,
    BestBookMove,
    Randomness,
    RandomMoves,
    /// Fairy-Stockfish's `UCI_Variant`: `xiangqi` switches to its coordinates
    /// (ranks 1–10); any other variant refuses every position.
    Variant,
}

#[derive(Clone, Copy, Debug)]
pub(super) enum Kind {
    Check(bool),
    Spin {
        min: i64,
        max: i64,
        default: i64,
    },
    Combo(&'static [&'static str], &'static str),
    Button,
    /// Free text; the default as advertised.
    Text(&'static str),
}

pub(super) struct Def {
    pub(super) id: Id,
    pub(super) uci: &'static str,
    pub(super) ucci: &'static str,
    /// Other accepted spellings (already normalised).
    pub(super) aliases: &'static [&'static str],
    pub(super) kind: Kind,
    /// Advertised under UCI (UCCI advertises all).
    pub(super) in_uci: bool,
}

// The engine's own bounds, so that an accepted value is the value used.
const MAX_THREADS: i64 = engine::MAX_THREADS as i64;
pub(super) const MAX_HASH_MB: i64 = engine::MAX_HASH_MB as i64;
pub(super) const DEFAULT_HASH_MB: i64 = 64;

/// `EvalFile` value meaning the handcrafted evaluation.
pub const HCE: &str = engine::eval::HCE_NAME;
/// `EvalFile` value meaning the net compiled into the binary (the default).
pub const EMBEDDED: &str = engine::eval::EMBEDDED_NAME;

pub(super) const DEFS: &[Def] = &[
    Def {
        id: Id::UseMillisec,
        uci: "UseMillisec",
        ucci: "usemillisec",
        aliases: &[],
        kind: Kind::Check(true),
        in_uci: false,
    },
    Def {
        id: Id::Batch,
        uci: "Batch",
        ucci: "batch",
        aliases: &[],
        kind: Kind::Check(false),
        in_uci: false,
    },
    Def {
        id: Id::Debug,
        uci: "Debug",
        ucci: "debug",
        aliases: &[],
        kind: Kind::Check(false),
        in_uci: false,
    },
    Def {
        id: Id::Ponder,
        uci: "Ponder",
        ucci: "ponder",
        aliases: &[],
        kind: Kind::Check(false),
        in_uci: true,
    },
    Def {
        id: Id::Hash,
        uci: "Hash",
        ucci: "hashsize",
        aliases: &["hash"],
        // UCCI: 0 means "choose for me" (the default size).
        kind: Kind::Spin {
            min: 0,
            max: MAX_HASH_MB,
            default: DEFAULT_HASH_MB,
        },
        in_uci: true,
    },
    Def {
        id: Id::Threads,
        uci: "Threads",
        ucci: "threads",
        aliases: &[],
        // UCCI: 0 means "choose for me" (every core).
        kind: Kind::Spin {
            min: 0,
            max: MAX_THREADS,
            default: 1,
        },
        in_uci: true,
    },
    Def {
        id: Id::NewGame,
        uci: "NewGame",
        ucci: "newgame",
        aliases: &[],
        kind: Kind::Button,
        in_uci: false,
    },
    Def {
        id: Id::ClearHash,
        uci: "Clear Hash",
        ucci: "clearhash",
        aliases: &[],
        kind: Kind::Button,
        in_uci: true,
    },
    Def {
        id: Id::Rules,
        uci: "Rules",
        ucci: "rules",
        aliases: &["ruleset", "repetitionrules"],
        kind: Kind::Combo(&["axf", "cn"], "axf"),
        in_uci: true,
    },
    Def {
        id: Id::NaturalLimit,
        uci: "Natural Move Limit",
        ucci: "naturallimit",
        aliases: &["naturalmovelimit", "drawmoves"],
        kind: Kind::Spin {
            min: 1,
            max: 1000,
            default: 60,
        },
        in_uci: true,
    },
    // How many checks of each side count toward the natural limit (0 = all;
    // the AXF book counts 10, the Chinese fast-play rules 8).
    Def {
        id: Id::NaturalChecks,
        uci: "Natural Limit Checks",
        ucci: "naturalchecks",
        aliases: &[],
        kind: Kind::Spin {
            min: 0,
            max: 1000,
            default: 0,
        },
        in_uci: true,
    },
    Def {
        id: Id::DrawValue,
        uci: "Draw Value",
        ucci: "drawvalue",
        aliases: &["contempt"],
        kind: Kind::Spin {
            min: -1000,
            max: 1000,
            default: 0,
        },
        in_uci: true,
    },
    Def {
        id: Id::MoveOverhead,
        uci: "Move Overhead",
        ucci: "moveoverhead",
        aliases: &[],
        // A floor under the lag the time manager measures from the clocks (it
        // charges the lag for every move it plans for). The measured lag of a
        // local GUI or match runner is a few ms; raise this only for a link whose
        // lag varies more than a game can show.
        kind: Kind::Spin {
            min: 0,
            max: 60_000,
            default: engine::DEFAULT_MOVE_OVERHEAD_MS as i64,
        },
        in_uci: true,
    },
    Def {
        id: Id::MultiPv,
        uci: "MultiPV",
        ucci: "multipv",
        aliases: &[],
        kind: Kind::Spin {
            min: 1,
            max: 128,
            default: 1,
        },
        in_uci: true,
    },
    Def {
        id: Id::Resign,
        uci: "Resign",
        ucci: "resign",
        aliases: &[],
        kind: Kind::Check(false),
        in_uci: false,
    },
    Def {
        id: Id::ResignValue,
        uci: "Resign Value",
        ucci: "resignvalue",
        aliases: &[],
        kind: Kind::Spin {
            min: 100,
            max: 30000,
            default: 1000,
        },
        in_uci: false,
    },
    // UCCI only (UCI has no draw offers): may `bestmove` carry `draw` in a long level
    // game (see `go::flag`)?
    Def {
        id: Id::DrawOffer,
        uci: "Draw Offer",
        ucci: "drawoffer",
        aliases: &[],
        kind: Kind::Check(true),
        in_uci: false,
    },
    // A net file for the evaluation; `<embedded>` (or empty) is the compiled-in
    // net, `<hce>` the handcrafted evaluation.
    Def {
        id: Id::EvalFile,
        uci: "EvalFile",
        ucci: "evalfile",
        aliases: &[],
        kind: Kind::Text(EMBEDDED),
        in_uci: true,
    },
    // Refuse positions no game reaches (composed studies); off: they are played,
    // with a warning.
    Def {
        id: Id::StrictPositions,
        uci: "Strict Positions",
        ucci: "strictpositions",
        aliases: &[],
        kind: Kind::Check(false),
        in_uci: true,
    },
    // 0 (weakest) to 20 (full strength): a node limit and a chosen-score noise
    // (`engine::strength`).
    Def {
        id: Id::SkillLevel,
        uci: "Skill Level",
        ucci: "skilllevel",
        aliases: &[],
        kind: Kind::Spin {
            min: 0,
            max: engine::strength::MAX_LEVEL as i64,
            default: engine::strength::MAX_LEVEL as i64,
        },
        in_uci: true,
    },
    Def {
        id: Id::LimitStrength,
        uci: "UCI_LimitStrength",
        ucci: "limitstrength",
        aliases: &[],
        kind: Kind::Check(false),
        in_uci: true,
    },
    Def {
        id: Id::Elo,
        uci: "UCI_Elo",
        ucci: "elo",
        aliases: &[],
        kind: Kind::Spin {
            min: MIN_ELO,
            max: MAX_ELO,
            default: MAX_ELO,
        },
        in_uci: true,
    },
    // Win/draw/loss per mille after the score (UCI `wdl`), from a model fitted on
    // the engine's own self-play (`engine::wdl`).
    Def {
        id: Id::ShowWdl,
        uci: "UCI_ShowWDL",
        ucci: "showwdl",
        aliases: &[],
        kind: Kind::Check(false),
        in_uci: true,
    },
    // The opening book: Pikafish-style names under UCI, UCCI's own under UCCI.
    Def {
        id: Id::OwnBook,
        uci: "OwnBook",
        ucci: "usebook",
        aliases: &[],
        kind: Kind::Check(false),
        in_uci: true,
    },
    Def {
        id: Id::BookFile,
        uci: "BookFile",
        ucci: "bookfiles",
        aliases: &["bookfile"],
        kind: Kind::Text(EMBEDDED_BOOK),
        in_uci: true,
    },
    Def {
        id: Id::BestBookMove,
        uci: "Best Book Move",
        ucci: "bestbookmove",
        aliases: &[],
        kind: Kind::Check(false),
        in_uci: true,
    },
    // Root score noise outside the book, in the first `Random Moves` moves.
    Def {
        id: Id::Randomness,
        uci: "Randomness",
        ucci: "randomness",
        aliases: &[],
        kind: Kind::Combo(
            &["none", "tiny", "small", "medium", "large", "huge"],
            "none",
        ),
        in_uci: true,
    },
    Def {
        id: Id::RandomMoves,
        uci: "Random Moves",
        ucci: "randommoves",
        aliases: &[],
        kind: Kind::Spin {
            min: 1,
            max: 500,
            default: 10,
        },
        in_uci: true,
    },
    // Fairy-Stockfish GUIs set it first; announced under UCI only.
    Def {
        id: Id::Variant,
        uci: "UCI_Variant",
        ucci: "variant",
        aliases: &[],
        kind: Kind::Combo(&[XIANGQI], XIANGQI),
        in_uci: true,
    },
    Def {
        id: Id::Promotion,
        uci: "Promotion",
        ucci: "promotion",
        aliases: &[],
        kind: Kind::Check(false),
        in_uci: false,
    },
];

/// The one `UCI_Variant` played.
pub const XIANGQI: &str = "xiangqi";

/// `Randomness` levels and their root score noise in centipawns.
pub const RANDOMNESS: &[(&str, i32)] = &[
    ("none", 0),
    ("tiny", 5),
    ("small", 10),
    ("medium", 20),
    ("large", 40),
    ("huge", 80),
];

/// `BookFile` value naming the book compiled into the binary (the default).
pub const EMBEDDED_BOOK: &str = book::EMBEDDED_NAME;

/// Standard UCCI/UCI options the engine does not have (no tablebases, no
/// personality knobs). A GUI that sends them from its own settings is told
/// they are not supported (`info string`), never left to believe they work.
pub(super) const NOT_SUPPORTED: &[&str] = &[
    "useegtb",
    "egtbpaths",
    "evalapi",
    "idle",
    "pruning",
    "knowledge",
    "selectivity",
    "style",
    "usehash",
    "repetition",
    "ucichess960",
    "syzygypath",
    "slowmover",
    "nodestime",
];

/// Standard options that mean nothing different for this engine: accepted quietly
/// (a note under `debug`). `UCI_AnalyseMode`: analysis and play search alike.
pub(super) const NO_EFFECT: &[&str] = &["ucianalysemode"];

/// `UCI_Elo` bounds: the calibrated range of the strength limiter
/// (`engine::strength`).
const MIN_ELO: i64 = engine::strength::MIN_ELO as i64;
const MAX_ELO: i64 = engine::strength::MAX_ELO as i64;
