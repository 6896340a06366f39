//! The arbiter: after every move, does the game end by the rules, and how?
//! Everything here is decided by the `rules` crate: legal moves (mate and 困毙),
//! the 棋例 verdict of a repetition, and the natural move limit.

use rules::pgn::GameResult;
use rules::repetition::{find_repetition, judge_cycle, judge_repetition, natural_limit_reached};
use rules::repetition::{NaturalLimit, Offence, RuleSet, Verdict};
use rules::{Color, Move, PieceKind, Position};
use std::fmt;

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Termination {
    /// The side to move is in check with no legal move.
    Checkmate {
        loser: Color,
    },
    /// 困毙: no legal move without being in check; in xiangqi that loses too.
    Stalemate {
        loser: Color,
    },
    /// A forbidden perpetual: the offender loses.
    PerpetualLoss {
        loser: Color,
        kind: PerpetualKind,
        rules: RuleSet,
    },
    /// A repetition judged a draw by the rules.
    RepetitionDraw {
        rules: RuleSet,
    },
    /// The natural move limit (自然限着).
    MoveLimit {
        moves: u32,
    },
    /// Neither side has a piece that can attack.
    NoAttackingMaterial,
    TimeForfeit {
        loser: Color,
    },
    IllegalMove {
        loser: Color,
        detail: String,
    },
    /// The engine exited or stopped answering.
    Crash {
        loser: Color,
        detail: String,
    },
    /// `nobestmove` or `bestmove (none)` with legal moves on the board.
    NoMove {
        loser: Color,
    },
    Resignation {
        loser: Color,
    },
    /// Both engines offered a draw on consecutive moves.
    AgreedDraw,
    /// Decided by the engines' scores (off unless asked for).
    ScoreAdjudication {
        winner: Option<Color>,
    },
    /// Could not be played (both engines failed); not counted.
    Aborted {
        detail: String,
    },
}

/// What kind of forbidden perpetual the offender made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PerpetualKind {
    /// 长将.
    Check,
    /// 长捉.
    Chase,
    /// 长杀 (forbidden by the Chinese rules only).
    Kill,
    /// Checks, kills and chases mixed (长打, Chinese rules).
    MixedAttack,
}

fn rules_name(r: RuleSet) -> &'static str {
    match r {
        RuleSet::Axf => "AXF rules",
        RuleSet::Chinese => "Chinese 2020 rules",
    }
}

impl Termination {
    pub fn result(&self) -> GameResult {
        use Termination::*;
        match self {
            Checkmate { loser }
            | Stalemate { loser }
            | PerpetualLoss { loser, .. }
            | TimeForfeit { loser }
            | IllegalMove { loser, .. }
            | Crash { loser, .. }
            | NoMove { loser }
            | Resignation { loser } => GameResult::win_for(loser.flip()),
            RepetitionDraw { .. } | MoveLimit { .. } | NoAttackingMaterial | AgreedDraw => {
                GameResult::Draw
            }
            ScoreAdjudication { winner } => match winner {
                Some(c) => GameResult::win_for(*c),
                None => GameResult::Draw,
            },
            Aborted { .. } => GameResult::Unknown,
        }
    }

    /// A failure of the engine rather than a result on the board.
    pub fn is_forfeit(&self) -> bool {
        matches!(
            self,
            Termination::TimeForfeit { .. }
                | Termination::IllegalMove { .. }
                | Termination::Crash { .. }
                | Termination::NoMove { .. }
        )
    }
}

impl fmt::Display for Termination {
    /// The text of the PGN `Termination` tag.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use Termination::*;
        match self {
            Checkmate { loser } => write!(f, "mate ({loser} is mated)"),
            Stalemate { loser } => write!(f, "stalemate ({loser} has no legal move, 困毙)"),
            PerpetualLoss { loser, kind, rules } => {
                let k = match kind {
                    PerpetualKind::Check => "perpetual check (长将)",
                    PerpetualKind::Chase => "perpetual chase (长捉)",
                    PerpetualKind::Kill => "perpetual mate threat (长杀)",
                    PerpetualKind::MixedAttack => "perpetual mixed attack (长打)",
                };
                write!(f, "{k} by {loser}, forbidden by the {}", rules_name(*rules))
            }
            RepetitionDraw { rules } => {
                write!(f, "repetition, a draw by the {}", rules_name(*rules))
            }
            MoveLimit { moves } => write!(f, "move limit ({moves} moves without a capture)"),
            NoAttackingMaterial => write!(f, "no attacking material"),
            TimeForfeit { loser } => write!(f, "time forfeit by {loser}"),
            IllegalMove { loser, detail } => write!(f, "illegal move by {loser}: {detail}"),
            Crash { loser, detail } => write!(f, "{loser} engine failure: {detail}"),
            NoMove { loser } => write!(f, "{loser} gave no move (nobestmove)"),
            Resignation { loser } => write!(f, "{loser} resigns"),
            AgreedDraw => write!(f, "draw agreed by both engines"),
            ScoreAdjudication { winner: Some(c) } => {
                write!(f, "adjudication by score: {c} wins")
            }
            ScoreAdjudication { winner: None } => write!(f, "adjudication by score: draw"),
            Aborted { detail } => write!(f, "aborted: {detail}"),
        }
    }
}

/// The rules the arbiter applies.
#[derive(Clone, Copy, Debug)]
pub struct ArbiterRules {
    pub rules: RuleSet,
    /// A repetition is judged when the position stands on the board for the
    /// `judge_at`-th time (3 by default: the cycle has been played twice).
    pub judge_at: u32,
    pub natural_limit: NaturalLimit,
}

impl Default for ArbiterRules {
    fn default() -> Self {
        ArbiterRules {
            rules: RuleSet::Axf,
            judge_at: 3,
            natural_limit: NaturalLimit::default(),
        }
    }
}

/// How many times the current position has stood on the board since the last
/// capture (same placement, same side to move), counting now.
pub fn occurrences(pos: &Position) -> u32 {
    let h = pos.history();
    let n = h.len();
    let reach = (pos.plies_since_capture() as usize).min(n);
    let mut count = 1;
    let mut d = 2;
    while d <= reach {
        if h[n - d].key == pos.key() {
            count += 1;
        }
        d += 2;
    }
    count
}

/// Which forbidden perpetual the offender made in the cycle that just repeated,
/// as the rules crate labels it (with the same mate-threat depth as the verdict).
fn offence_of(pos: &Position, offender: Color, rules: RuleSet) -> PerpetualKind {
    let Some(start) = find_repetition(pos) else {
        return PerpetualKind::Chase;
    };
    let moves: Vec<Move> = pos.history()[start..].iter().map(|s| s.mv).collect();
    let mut p = pos.clone();
    for _ in 0..moves.len() {
        p.unmake_move();
    }
    let offence = judge_cycle(&p, &moves, rules, rules.search_kill_depth())
        .ok()
        .and_then(|j| j.offences[offender.index()]);
    match offence {
        Some(Offence::PerpetualCheck) => PerpetualKind::Check,
        Some(Offence::PerpetualKill) => PerpetualKind::Kill,
        Some(Offence::MixedAttack) => PerpetualKind::MixedAttack,
        _ => PerpetualKind::Chase,
    }
}

/// The legal moves of the side to move that would complete a repetition in which it
/// is the offender (it would lose if the cycle stood). What the UCCI league arbiter
/// sends as `banmoves`.
pub fn forbidden_moves(pos: &Position, rules: RuleSet) -> Vec<Move> {
    let mover = pos.side_to_move();
    let mut p = pos.clone();
    let mut out = Vec::new();
    for &m in pos.legal_moves().iter() {
        if pos.piece_at(m.to()).is_some() {
            continue; // a capture never completes a repetition
        }
        p.make_move(m);
        if judge_repetition(&p, rules).and_then(|v| v.offender()) == Some(mover) {
            out.push(m);
        }
        p.unmake_move();
    }
    out
}

fn has_attackers(pos: &Position, c: Color) -> bool {
    [
        PieceKind::Rook,
        PieceKind::Knight,
        PieceKind::Cannon,
        PieceKind::Pawn,
    ]
    .iter()
    .any(|&k| pos.pieces(c, k).any())
}

/// Does the game end in `pos` (after the last move, with the whole game in its
/// history since the last capture)?
pub fn adjudicate(pos: &Position, ar: &ArbiterRules) -> Option<Termination> {
    let side = pos.side_to_move();
    if !pos.has_legal_move() {
        return Some(if pos.in_check() {
            Termination::Checkmate { loser: side }
        } else {
            Termination::Stalemate { loser: side }
        });
    }
    if occurrences(pos) >= ar.judge_at.max(2) {
        if let Some(v) = judge_repetition(pos, ar.rules) {
            return Some(match v {
                Verdict::Draw => Termination::RepetitionDraw { rules: ar.rules },
                _ => {
                    let loser = v.offender().unwrap_or(side);
                    Termination::PerpetualLoss {
                        loser,
                        kind: offence_of(pos, loser, ar.rules),
                        rules: ar.rules,
                    }
                }
            });
        }
    }
    if natural_limit_reached(pos, &ar.natural_limit) {
        return Some(Termination::MoveLimit {
            moves: ar.natural_limit.moves,
        });
    }
    if !has_attackers(pos, Color::Red) && !has_attackers(pos, Color::Black) {
        return Some(Termination::NoAttackingMaterial);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play(fen: &str, moves: &[&str]) -> Position {
        let mut p = Position::from_fen(fen).unwrap();
        for m in moves {
            let mv = p.parse_move(m).unwrap();
            p.make_move(mv);
        }
        p
    }

    #[test]
    fn mate_and_stalemate_lose() {
        // Black king d9 mated by two rooks (and the open e-file).
        let mated = Position::from_fen("R2k5/1R7/9/9/9/9/9/9/9/4K4 b - - 0 1").unwrap();
        assert_eq!(
            adjudicate(&mated, &ArbiterRules::default()),
            Some(Termination::Checkmate {
                loser: Color::Black
            })
        );
        // Black king d9 boxed in by a pawn and the flying general, not in check.
        let stale = Position::from_fen("3k5/9/3P5/9/9/9/9/9/9/4K4 b - - 0 1").unwrap();
        assert_eq!(
            adjudicate(&stale, &ArbiterRules::default()),
            Some(Termination::Stalemate {
                loser: Color::Black
            })
        );
        assert_eq!(
            Termination::Stalemate {
                loser: Color::Black
            }
            .result(),
            GameResult::RedWins
        );
    }

    #[test]
    fn occurrences_count_whole_cycles() {
        let cycle = ["h0g2", "h9g7", "g2h0", "g7h9"];
        let mut moves = Vec::new();
        for _ in 0..2 {
            moves.extend_from_slice(&cycle);
        }
        let p = play(rules::START_FEN, &moves[..4]);
        assert_eq!(occurrences(&p), 2);
        let p = play(rules::START_FEN, &moves);
        assert_eq!(occurrences(&p), 3);
        let ar = ArbiterRules::default();
        let p4 = play(rules::START_FEN, &moves[..4]);
        assert_eq!(
            adjudicate(&p4, &ar),
            None,
            "second occurrence is not yet judged"
        );
        assert_eq!(
            adjudicate(&p, &ar).map(|t| t.result()),
            Some(GameResult::Draw)
        );
    }

    #[test]
    fn banned_moves_are_the_offenders_repeating_moves() {
        // AXF-D01: the rook's perpetual check h8h9 f9f8 h9h8 f8f9; after three plies
        // Red's h9h8 would close the cycle as a perpetual check.
        let fen = "c2a1k3/2c1a2R1/b6P1/8p/9/9/9/9/4K4/9 w - - 0 1";
        let mut p = play(fen, &["h8h9", "f9f8", "h9h8", "f8f9", "h8h9", "f9f8"]);
        let banned = forbidden_moves(&p, RuleSet::Axf);
        assert_eq!(banned, vec![p.parse_move("h9h8").unwrap()]);
        // After another move, Black (who only escaped the checks) has nothing forbidden.
        let other = p
            .legal_moves()
            .iter()
            .copied()
            .find(|m| !banned.contains(m));
        p.make_move(other.unwrap());
        assert!(forbidden_moves(&p, RuleSet::Axf).is_empty());
    }

    #[test]
    fn bare_kings_and_move_limit_draw() {
        let p = Position::from_fen("3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1").unwrap();
        assert_eq!(
            adjudicate(&p, &ArbiterRules::default()),
            Some(Termination::NoAttackingMaterial)
        );
        let p = Position::from_fen("3k5/9/9/9/9/9/9/9/9/R3K4 w - - 120 70").unwrap();
        assert!(matches!(
            adjudicate(&p, &ArbiterRules::default()),
            Some(Termination::MoveLimit { .. })
        ));
    }
}
