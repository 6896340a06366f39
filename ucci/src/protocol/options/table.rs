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
        // Charged for every move of the planning horizon: at 3 s + 50 ms a default
        // of 50 left about 2.8 s of the 3 s unused at the end of a game (the lag of
        // a local GUI or match runner is a few ms); 20 still covers a busy machine.
        kind: Kind::Spin {
            min: 0,
            max: 5000,
            default: 20,
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
    Def {
        id: Id::Promotion,
        uci: "Promotion",
        ucci: "promotion",
        aliases: &[],
        kind: Kind::Check(false),
        in_uci: false,
    },
];

/// Standard UCCI/UCI options we accept and ignore (no book, no tablebases, no
/// personality knobs), so that GUIs that send them from their own settings work.
pub(super) const IGNORED: &[&str] = &[
    "usebook",
    "useegtb",
    "bookfiles",
    "egtbpaths",
    "evalapi",
    "idle",
    "pruning",
    "knowledge",
    "randomness",
    "selectivity",
    "style",
    "usehash",
    "repetition",
    "ucianalysemode",
    "ucishowwdl",
    "ucilimitstrength",
    "ucielo",
    "ownbook",
    "skilllevel",
    "ucichess960",
    "ucivariant",
    "syzygypath",
    "slowmover",
    "nodestime",
];
