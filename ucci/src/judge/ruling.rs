//! A judged cycle as an arbiter's ruling: every move with its label, chases and the
//! articles behind them, each side's offence and articles, the verdict and the
//! principle that decides it. One data model for the text, the JSON (derived with
//! serde; schema in docs/RULES.md) and the pictures.

use rules::notation::{to_chinese, to_wxf};
use rules::repetition::{
    articles::full_width, basis, limit, Article, CycleJudgement, Lang, MoveLabel, Offence, RuleSet,
    Verdict, MAX_CHASES, MAX_FORCED, MAX_THREATS, TACTIC_DEPTH,
};
use rules::{Color, Piece, Position, Square};
use serde::Serialize;

/// A number as the language prints it.
pub fn num(n: usize, lang: Lang) -> String {
    match lang {
        Lang::Zh => full_width(n as u32),
        Lang::En => n.to_string(),
    }
}

/// An article as cited in a ruling.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct Cited {
    /// Stable identifier: `verdict-4`, `principle-3`, `axf-9`, `cn-24.3`, `cn-fig-10`.
    pub id: String,
    /// `1982-draft`, `axf` or `cn-2020`.
    pub book: &'static str,
    /// As the book numbers it: `乙4`, `三`, `9`, `24.3`, `图10`.
    pub number: String,
    /// The citation in the output language (`棋例细则第９条`, `AXF rule 9`).
    pub cite: String,
    /// What it says, shortly, in the output language.
    pub text: &'static str,
}

impl Cited {
    pub fn new(a: Article, lang: Lang) -> Cited {
        let (book, number) = match a {
            Article::Verdict(n) => ("1982-draft", format!("乙{n}")),
            Article::Principle(n) => (
                "1982-draft",
                ["", "一", "二", "三", "四"][n as usize % 5].to_string(),
            ),
            Article::Axf(n) => ("axf", n.to_string()),
            Article::Cn(n) => ("cn-2020", format!("24.{n}")),
            Article::CnFigure(n) => ("cn-2020", format!("图{n}")),
        };
        Cited {
            id: a.id(),
            book,
            number,
            cite: a.cite(lang),
            text: a.statement(lang),
        }
    }
}

/// One chase of one move.
#[derive(Clone, Debug, Serialize)]
pub struct ChaseOut {
    /// FEN letter of the attacker and its point after the move (ICCS).
    pub attacker: char,
    pub from: String,
    pub victim: char,
    pub at: String,
    /// `unprotected`, `false_root`, `outvalued`, `immobile`, `forced`, `joint`.
    pub reason: &'static str,
    /// Counted toward a perpetual chase under the rules used.
    pub counts: bool,
    pub king_or_pawn: bool,
    pub root_cut: bool,
    pub articles: Vec<Cited>,
}

/// A new attack on a truly protected piece (no chase).
#[derive(Clone, Debug, Serialize)]
pub struct ProtectedOut {
    pub attacker: char,
    pub from: String,
    pub target: char,
    pub at: String,
}

/// One move of the cycle.
#[derive(Clone, Debug, Serialize)]
pub struct MoveOut {
    /// Ply within the game or move list (1-based).
    pub ply: usize,
    /// `red` or `black`.
    pub side: &'static str,
    pub iccs: String,
    pub wxf: String,
    pub chinese: String,
    /// `check`, `chase`, `kill`, `exchange`, `offer`, `block` or `idle`.
    pub label: &'static str,
    pub label_zh: &'static str,
    pub check: bool,
    pub kill: bool,
    pub exchange: bool,
    pub offer: bool,
    pub block: bool,
    pub chases: Vec<ChaseOut>,
    pub protected: Vec<ProtectedOut>,
    /// What makes this move a check, chase, idle move or an exemption.
    pub articles: Vec<Cited>,
    /// Caps this move's label ran into (see `limits` of the ruling).
    pub limits: Vec<&'static str>,
    /// The move's explanation in the output language.
    pub reason: String,
}

/// What one side did over the cycle.
#[derive(Clone, Debug, Serialize)]
pub struct SideOut {
    pub moves: u32,
    pub checks: u32,
    pub chases: u32,
    pub kills: u32,
    /// `perpetual_check`, `perpetual_chase`, `perpetual_kill`, `mixed_attack` or null.
    pub offence: Option<&'static str>,
    pub articles: Vec<Cited>,
}

#[derive(Clone, Debug, Serialize)]
pub struct Sides<T> {
    pub red: T,
    pub black: T,
}

/// The principle and the articles behind the verdict.
#[derive(Clone, Debug, Serialize)]
pub struct BasisOut {
    pub principle: Cited,
    /// Both sides' articles, Red's first, without repeats.
    pub articles: Vec<Cited>,
}

/// The search bounds of the judge (docs/RULES.md, "Horizons").
#[derive(Clone, Debug, Serialize)]
pub struct Horizons {
    pub kill_depth: u32,
    pub tactic_depth: u32,
    pub max_chases_per_move: usize,
    pub max_threats: usize,
    pub max_forced_wins: usize,
}

/// A judged cycle as a ruling.
#[derive(Clone, Debug, Serialize)]
pub struct Ruling {
    /// `axf` or `cn`.
    pub rules: &'static str,
    /// The position where the cycle starts (it ends there too).
    pub fen: String,
    /// Plies played before the cycle (the cycle's first move is ply `start_ply + 1`).
    pub start_ply: usize,
    pub plies: usize,
    /// `draw`, `red_loses` or `black_loses` (the side that must change loses if it
    /// does not).
    pub verdict: &'static str,
    /// `red`, `black` or null.
    pub must_change: Option<&'static str>,
    pub sides: Sides<SideOut>,
    pub basis: BasisOut,
    pub moves: Vec<MoveOut>,
    /// Caps a label ran into: something may have been missed (docs/RULES.md).
    pub limits: Vec<&'static str>,
    pub horizons: Horizons,
    /// E.g. a start position no game reaches.
    pub warnings: Vec<String>,
    /// The board at the cycle's start, for drawing: (FEN letter, ICCS point).
    #[serde(skip)]
    pub board: Vec<(Piece, Square)>,
}

pub fn color_str(c: Color) -> &'static str {
    match c {
        Color::Red => "red",
        Color::Black => "black",
    }
}

pub fn offence_str(o: Offence) -> &'static str {
    match o {
        Offence::PerpetualCheck => "perpetual_check",
        Offence::PerpetualChase => "perpetual_chase",
        Offence::PerpetualKill => "perpetual_kill",
        Offence::MixedAttack => "mixed_attack",
    }
}

fn reason_str(r: rules::repetition::ChaseReason) -> &'static str {
    use rules::repetition::ChaseReason::*;
    match r {
        Unprotected => "unprotected",
        FalseRoot => "false_root",
        Outvalued => "outvalued",
        Immobile => "immobile",
        Forced => "forced",
        Discovered => "discovered_check",
        Joint => "joint",
    }
}

fn limit_names(bits: u8) -> Vec<&'static str> {
    let mut v = Vec::new();
    if bits & limit::CHASES != 0 {
        v.push("max_chases_per_move");
    }
    if bits & limit::THREATS != 0 {
        v.push("max_threats");
    }
    if bits & limit::FORCED != 0 {
        v.push("max_forced_wins");
    }
    v
}

/// `车二`, `马８`: a piece and its file counted from its owner's right, as the Chinese
/// notation names it (Red's files in Chinese numerals, Black's in full-width digits).
pub fn piece_on_file(p: Piece, s: Square) -> String {
    const RED: [&str; 9] = ["一", "二", "三", "四", "五", "六", "七", "八", "九"];
    match p.color {
        Color::Red => format!("{}{}", p.chinese(), RED[8 - s.file() as usize]),
        Color::Black => format!("{}{}", p.chinese(), full_width(s.file() as u32 + 1)),
    }
}

/// `R2 (h8)`: a piece by WXF letter and file, with its ICCS point.
pub fn piece_en(p: Piece, s: Square) -> String {
    let letter = match p.kind {
        rules::PieceKind::King => 'K',
        rules::PieceKind::Advisor => 'A',
        rules::PieceKind::Elephant => 'E',
        rules::PieceKind::Knight => 'H',
        rules::PieceKind::Rook => 'R',
        rules::PieceKind::Cannon => 'C',
        rules::PieceKind::Pawn => 'P',
    };
    let file = match p.color {
        Color::Red => 9 - s.file(),
        Color::Black => s.file() + 1,
    };
    format!("{} {letter}{file} ({s})", color_str(p.color))
}

fn reason_zh(r: rules::repetition::ChaseReason) -> &'static str {
    r.chinese()
}

fn reason_en(r: rules::repetition::ChaseReason) -> &'static str {
    use rules::repetition::ChaseReason::*;
    match r {
        Unprotected => "unprotected",
        FalseRoot => "false root: no protector can legally take back",
        Outvalued => "protected but worth more than its attacker",
        Immobile => "a rook that cannot move",
        Forced => "won by force with checks",
        Discovered => "a threat to win it by a discovered check (要抽吃)",
        Joint => "several attackers on a truly protected piece: not counted",
    }
}

/// The explanation of one move in `lang`.
fn move_reason(l: &MoveLabel, rules: RuleSet, lang: Lang) -> String {
    let mut parts = Vec::new();
    let zh = lang == Lang::Zh;
    for c in l.chases() {
        let mut s = if zh {
            format!(
                "{}捉{}（{}",
                piece_on_file(c.attacker, c.from),
                piece_on_file(c.victim, c.at),
                reason_zh(c.reason)
            )
        } else {
            format!(
                "{} chases {} ({}",
                piece_en(c.attacker, c.from),
                piece_en(c.victim, c.at),
                reason_en(c.reason)
            )
        };
        if c.by_king_or_pawn() {
            s += if zh {
                "，帅将兵卒捉子，允许"
            } else {
                "; by a king or pawn: allowed"
            };
        }
        if c.root_cut {
            s += if zh { "，断根" } else { "; its root cut" };
        }
        if !c.counts(rules)
            && !c.by_king_or_pawn()
            && c.reason != rules::repetition::ChaseReason::Joint
        {
            s += if zh {
                "，不计长捉"
            } else {
                "; not counted"
            };
        }
        s += if zh { "）" } else { ")" };
        parts.push(s);
    }
    if l.kill && !l.check {
        parts.push(if zh {
            "叫杀".into()
        } else {
            "threatens mate".into()
        });
    }
    if l.exchange.is_some() {
        parts.push(if zh {
            "兑子".into()
        } else {
            "offers an exchange".into()
        });
    }
    if l.offer {
        parts.push(if zh {
            "献子".into()
        } else {
            "offers a piece".into()
        });
    }
    if l.block {
        parts.push(if zh { "拦".into() } else { "blocks".into() });
    }
    if l.threat_by_check {
        parts.push(if zh {
            "要抽吃（伏将军得子）".into()
        } else {
            "threatens to win a piece by a check".into()
        });
    }
    // Attacks on a piece already named in a joint chase are its parts: not repeated.
    for p in l
        .protected_attacks()
        .filter(|p| !l.chases().any(|c| c.at == p.at))
    {
        parts.push(if zh {
            format!(
                "{}攻{}（有根，不算捉）",
                piece_on_file(p.attacker, p.from),
                piece_on_file(p.target, p.at)
            )
        } else {
            format!(
                "{} attacks {} (truly protected: no chase)",
                piece_en(p.attacker, p.from),
                piece_en(p.target, p.at)
            )
        });
    }
    parts.join(if zh { "；" } else { "; " })
}

/// Build the ruling of the judged cycle `j` that starts at `start` after `start_ply`
/// plies, with its texts in `lang`; `kill_depth` is the mate-threat horizon the labels
/// were computed with.
pub fn build(
    start: &Position,
    j: &CycleJudgement,
    start_ply: usize,
    lang: Lang,
    kill_depth: u32,
) -> Ruling {
    let b = basis(j);
    let cite = |v: &[Article]| v.iter().map(|&a| Cited::new(a, lang)).collect::<Vec<_>>();
    let mut p = start.clone();
    let mut moves = Vec::with_capacity(j.labels.len());
    let mut limits_all = 0u8;
    for (i, l) in j.labels.iter().enumerate() {
        limits_all |= l.limits;
        let chases = l
            .chases()
            .map(|c| ChaseOut {
                attacker: c.attacker.fen_char(),
                from: c.from.to_string(),
                victim: c.victim.fen_char(),
                at: c.at.to_string(),
                reason: reason_str(c.reason),
                counts: c.counts(j.rules),
                king_or_pawn: c.by_king_or_pawn(),
                root_cut: c.root_cut,
                articles: cite(c.articles.as_slice()),
            })
            .collect();
        let protected = l
            .protected_attacks()
            .map(|a| ProtectedOut {
                attacker: a.attacker.fen_char(),
                from: a.from.to_string(),
                target: a.target.fen_char(),
                at: a.at.to_string(),
            })
            .collect();
        moves.push(MoveOut {
            ply: start_ply + i + 1,
            side: color_str(l.side),
            iccs: l.mv.iccs(),
            wxf: to_wxf(&p, l.mv),
            chinese: to_chinese(&p, l.mv),
            label: l.kind().english(),
            label_zh: l.kind().chinese(),
            check: l.check,
            kill: l.kill,
            exchange: l.exchange.is_some(),
            offer: l.offer,
            block: l.block,
            chases,
            protected,
            articles: cite(&b.moves[i]),
            limits: limit_names(l.limits),
            reason: move_reason(l, j.rules, lang),
        });
        p.make_move(l.mv);
    }
    let side = |c: Color| {
        let s = &j.sides[c.index()];
        SideOut {
            moves: s.moves,
            checks: s.checks,
            chases: s.chase_moves,
            kills: s.kills,
            offence: j.offences[c.index()].map(offence_str),
            articles: cite(&b.sides[c.index()]),
        }
    };
    let mut all = Vec::new();
    for a in b.sides.iter().flatten() {
        if !all.contains(a) {
            all.push(*a);
        }
    }
    Ruling {
        rules: match j.rules {
            RuleSet::Axf => "axf",
            RuleSet::Chinese => "cn",
        },
        fen: start.to_fen(),
        start_ply,
        plies: j.labels.len(),
        verdict: j.verdict.as_str(),
        must_change: j.verdict.offender().map(color_str),
        sides: Sides {
            red: side(Color::Red),
            black: side(Color::Black),
        },
        basis: BasisOut {
            principle: Cited::new(b.principle, lang),
            articles: cite(&all),
        },
        moves,
        limits: limit_names(limits_all),
        horizons: Horizons {
            kill_depth,
            tactic_depth: if j.rules == RuleSet::Axf {
                0
            } else {
                TACTIC_DEPTH
            },
            max_chases_per_move: MAX_CHASES,
            max_threats: MAX_THREATS,
            max_forced_wins: MAX_FORCED,
        },
        warnings: Vec::new(),
        board: start
            .occupied()
            .into_iter()
            .filter_map(|s| start.piece_at(s).map(|p| (p, s)))
            .collect(),
    }
}

/// The verdict of a ruling back as a `Verdict`.
pub fn verdict_of(r: &Ruling) -> Verdict {
    match r.verdict {
        "red_loses" => Verdict::RedLoses,
        "black_loses" => Verdict::BlackLoses,
        _ => Verdict::Draw,
    }
}
