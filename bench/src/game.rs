//! One game between two running engines: clocks kept by the runner from wall time,
//! each reply checked against the rules, the arbiter consulted after every move.

use crate::arbiter::{adjudicate, forbidden_moves, ArbiterRules, Termination};
use crate::notation::{move_text, read_engine_move, MoveProblem, RankBase};
use crate::process::{Engine, EngineError, Protocol};
pub use engine::GuiLag;
use engine::{Clock, TimeControl};
use rules::pgn::GameRecord;
use rules::{Color, Move, Position};
use std::time::{Duration, Instant};

/// Search limits sent instead of clocks (for fixed-depth or fixed-node games).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FixedLimits {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
}

/// Score-based adjudication; both are off by default.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ScoreRules {
    /// `(moves, score)`: a side loses when for `moves` consecutive moves of each
    /// side its engine reports ≤ −score and the opponent's reports ≥ score.
    pub resign: Option<(u32, i32)>,
    /// `(from_move, moves, score)`: a draw when, from full move `from_move` on, both
    /// engines report |score| ≤ `score` for `moves` consecutive moves each.
    pub draw: Option<(u32, u32, i32)>,
}

/// What to do with `bestmove … resign` and `bestmove … draw`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FlagPolicy {
    /// Honour `resign` (otherwise the move is played and the flag ignored).
    pub resign: bool,
    /// Two consecutive `draw` flags (one from each engine) make an agreed draw.
    pub draw: bool,
}

/// How games are played and judged, the same for every game of a match (the
/// match configuration holds one, each game's spec a copy).
#[derive(Clone, Debug)]
pub struct GameRules {
    /// Time control of Red and Black; `None` when playing by fixed limits only.
    pub tc: [Option<TimeControl>; 2],
    pub fixed: FixedLimits,
    pub arbiter: ArbiterRules,
    pub scores: ScoreRules,
    pub flags: FlagPolicy,
    /// Overrun of the clock tolerated before a time forfeit (pipe latency).
    pub margin_ms: u64,
    /// With no clock: how long to wait for a move before calling the engine dead.
    pub move_timeout: Duration,
    /// Hard cap on the game length in plies (a safety net; adjudicated as a draw by limit).
    pub max_plies: usize,
    /// Send UCCI engines `banmoves` with the moves that would complete a forbidden
    /// perpetual for them (as the UCCI league arbiter does).
    pub banmoves: bool,
    /// A simulated GUI lag charged to the mover's clock on top of its thinking.
    pub lag: GuiLag,
}

impl Default for GameRules {
    fn default() -> Self {
        GameRules {
            tc: [None, None],
            fixed: FixedLimits::default(),
            arbiter: ArbiterRules::default(),
            scores: ScoreRules::default(),
            flags: FlagPolicy::default(),
            margin_ms: 0,
            move_timeout: Duration::from_secs(60),
            max_plies: 1000,
            banmoves: false,
            lag: GuiLag::default(),
        }
    }
}

/// Everything a game needs besides the engines.
#[derive(Clone, Debug)]
pub struct GameSpec {
    pub start_fen: String,
    /// Opening moves played before the engines take over (recorded with a "book" comment).
    pub opening: Vec<Move>,
    pub rules: GameRules,
}

/// The finished game.
#[derive(Debug)]
pub struct GameReport {
    pub record: GameRecord,
    pub termination: Termination,
    /// Engines (by colour) that should be restarted before their next game.
    pub broken: [bool; 2],
    /// A problem that makes further games pointless (e.g. a rank-numbering mismatch).
    pub fatal: Option<String>,
}

/// The `go` line for the side to move. `millis`: a UCCI engine that takes milliseconds.
fn go_command(
    protocol: Protocol,
    millis: bool,
    side: Color,
    clocks: &[Option<Clock>; 2],
    fixed: &FixedLimits,
) -> String {
    if let Some(d) = fixed.depth {
        return format!("go depth {d}");
    }
    if let Some(n) = fixed.nodes {
        return format!("go nodes {n}");
    }
    let (Some(me), Some(opp)) = (&clocks[side.index()], &clocks[side.flip().index()]) else {
        return "go depth 1".to_string();
    };
    match protocol {
        Protocol::Ucci => {
            // Seconds unless the engine asked for milliseconds (UCCI 3.0 §5.10).
            let unit = |ms: u64| if millis { ms } else { (ms / 1000).max(1) };
            let part = |c: &Clock, prefix: &str| match c.moves_to_go() {
                Some(n) => format!(
                    "{prefix}time {} {prefix}movestogo {n}",
                    unit(c.remaining_ms())
                ),
                None => format!(
                    "{prefix}time {} {prefix}increment {}",
                    unit(c.remaining_ms()),
                    if millis {
                        c.increment_ms()
                    } else {
                        c.increment_ms() / 1000
                    }
                ),
            };
            format!("go {} {}", part(me, ""), part(opp, "opp"))
        }
        Protocol::Uci => {
            let (r, b) = match side {
                Color::Red => (me, opp),
                Color::Black => (opp, me),
            };
            let mut s = format!(
                "go wtime {} btime {} winc {} binc {}",
                r.remaining_ms(),
                b.remaining_ms(),
                r.increment_ms(),
                b.increment_ms()
            );
            if let Some(n) = me.moves_to_go() {
                s.push_str(&format!(" movestogo {n}"));
            }
            s
        }
    }
}

/// Play one game from `spec`: `engines[0]` plays Red, `engines[1]` Black, and the
/// arbiter decides the end. The moves go into the record; the game's one way out
/// is the `Termination` that `play_moves` returns.
pub fn play_game(engines: [&mut Engine; 2], spec: &GameSpec) -> GameReport {
    let mut record = GameRecord::new(Some(&spec.start_fen));
    let mut broken = [false, false];
    let mut fatal = None;
    let termination = play_moves(engines, spec, &mut record, &mut broken, &mut fatal);
    record.result = termination.result();
    record.set_tag("Termination", &termination.to_string());
    GameReport {
        record,
        termination,
        broken,
        fatal,
    }
}

/// The moves of a game until the arbiter, a clock or an engine ends it.
fn play_moves(
    engines: [&mut Engine; 2],
    spec: &GameSpec,
    record: &mut GameRecord,
    broken: &mut [bool; 2],
    fatal: &mut Option<String>,
) -> Termination {
    let mut pos = match Position::from_fen(&spec.start_fen) {
        Ok(p) => p,
        Err(e) => {
            let t = Termination::Aborted {
                detail: format!("bad start FEN: {e}"),
            };
            *fatal = Some(format!("bad start FEN: {e}"));
            return t;
        }
    };
    // The last irreversible position and the moves since (UCCI 3.0 §5.8).
    let mut base_fen = pos.to_fen();
    let mut since: Vec<Move> = Vec::new();
    let play = |pos: &mut Position, m: Move, base_fen: &mut String, since: &mut Vec<Move>| {
        let capture = pos.piece_at(m.to()).is_some();
        pos.make_move(m);
        if capture {
            *base_fen = pos.to_fen();
            since.clear();
        } else {
            since.push(m);
        }
    };
    for &m in &spec.opening {
        if !pos.is_legal(m) {
            let t = Termination::Aborted {
                detail: format!("opening move {m} is illegal"),
            };
            *fatal = Some("illegal opening".into());
            return t;
        }
        play(&mut pos, m, &mut base_fen, &mut since);
        record.push(m, Some("book".into()));
    }

    for c in Color::BOTH {
        if let Err(e) = engines[c.index()].new_game() {
            broken[c.index()] = true;
            let t = Termination::Crash {
                loser: c,
                detail: format!("at the start of the game: {e}"),
            };
            return t;
        }
    }
    let mut clocks: [Option<Clock>; 2] = [
        spec.rules.tc[0].as_ref().map(Clock::new),
        spec.rules.tc[1].as_ref().map(Clock::new),
    ];
    // Score of each engine move, by colour, most recent last.
    let mut scores: Vec<(Color, Option<i32>)> = Vec::new();
    let mut last_draw_offer: Option<Color> = None;

    loop {
        if let Some(t) = adjudicate(&pos, &spec.rules.arbiter) {
            return t;
        }
        if pos.game_ply() >= spec.rules.max_plies {
            let t = Termination::MoveLimit {
                moves: (spec.rules.max_plies / 2) as u32,
            };
            return t;
        }
        let side = pos.side_to_move();
        let e = &mut *engines[side.index()];
        let moves: Vec<String> = since.iter().map(|&m| move_text(m, e.cfg.ranks)).collect();
        let position = if moves.is_empty() {
            format!("position fen {base_fen}")
        } else {
            format!("position fen {base_fen} moves {}", moves.join(" "))
        };
        let mut setup = vec![position];
        if spec.rules.banmoves && e.protocol == Protocol::Ucci {
            let banned = forbidden_moves(&pos, spec.rules.arbiter.rules);
            if !banned.is_empty() {
                let list: Vec<String> = banned.iter().map(|&m| move_text(m, e.cfg.ranks)).collect();
                setup.push(format!("banmoves {}", list.join(" ")));
            }
        }
        let go = go_command(e.protocol, e.millis, side, &clocks, &spec.rules.fixed);
        let started = Instant::now();
        let deadline = match &clocks[side.index()] {
            Some(c) => started + Duration::from_millis(c.remaining_ms() + spec.rules.margin_ms),
            None => started + spec.rules.move_timeout,
        };
        let (reply, at) = match e.think(&setup, &go, deadline) {
            Ok(r) => r,
            Err(err) => {
                let t = match err {
                    EngineError::Timeout if clocks[side.index()].is_some() => {
                        Termination::TimeForfeit { loser: side }
                    }
                    EngineError::Timeout => Termination::Crash {
                        loser: side,
                        detail: format!("no move in {} s", spec.rules.move_timeout.as_secs_f64()),
                    },
                    other => Termination::Crash {
                        loser: side,
                        detail: other.to_string(),
                    },
                };
                broken[side.index()] = !e.alive() || !e.stop_and_settle(Duration::from_millis(500));
                return t;
            }
        };
        let elapsed = at.saturating_duration_since(started);
        if let Some(c) = &mut clocks[side.index()] {
            let charged =
                (elapsed.as_millis() as u64).saturating_add(spec.rules.lag.at(pos.game_ply()));
            if !c.charge(charged, spec.rules.margin_ms) {
                let t = Termination::TimeForfeit { loser: side };
                return t;
            }
        }
        if reply.resigns && spec.rules.flags.resign {
            return Termination::Resignation { loser: side };
        }
        if let Some(foreign) = &reply.foreign_pv_move {
            // The PV gives the numbering away even when the move itself reads both ways.
            let problem = MoveProblem::WrongRankBase {
                text: foreign.clone(),
                engine_uses: match e.cfg.ranks {
                    RankBase::Zero => RankBase::One,
                    RankBase::One => RankBase::Zero,
                },
            };
            *fatal = Some(format!("engine '{}': {problem}", e.display_name()));
            let t = Termination::IllegalMove {
                loser: side,
                detail: problem.to_string(),
            };
            return t;
        }
        let Some(text) = reply.bestmove.as_deref() else {
            return Termination::NoMove { loser: side };
        };
        let m = match read_engine_move(&pos, text, e.cfg.ranks) {
            Ok(m) => m,
            Err(problem) => {
                if let MoveProblem::WrongRankBase { .. } = problem {
                    *fatal = Some(format!("engine '{}': {problem}", e.display_name()));
                }
                let t = Termination::IllegalMove {
                    loser: side,
                    detail: problem.to_string(),
                };
                return t;
            }
        };
        let comment = match (reply.score, reply.depth) {
            (Some(s), Some(d)) => format!("{s:+}/{d} {:.3}s", elapsed.as_secs_f64()),
            (Some(s), None) => format!("{s:+} {:.3}s", elapsed.as_secs_f64()),
            _ => format!("{:.3}s", elapsed.as_secs_f64()),
        };
        play(&mut pos, m, &mut base_fen, &mut since);
        record.push(m, Some(comment));
        scores.push((side, reply.score));

        if spec.rules.flags.draw && reply.offers_draw {
            if last_draw_offer == Some(side.flip()) {
                return Termination::AgreedDraw;
            }
            last_draw_offer = Some(side);
        } else {
            last_draw_offer = None;
        }
        if let Some(t) = score_adjudication(&scores, pos.fullmove(), &spec.rules.scores) {
            // The arbiter's verdict on the board comes first.
            if adjudicate(&pos, &spec.rules.arbiter).is_none() {
                return t;
            }
        }
    }
}

/// Apply the score rules to the scores of the moves so far.
pub fn score_adjudication(
    scores: &[(Color, Option<i32>)],
    fullmove: u32,
    rules: &ScoreRules,
) -> Option<Termination> {
    if let Some((moves, s)) = rules.resign {
        let n = 2 * moves as usize;
        if moves > 0 && scores.len() >= n {
            let tail = &scores[scores.len() - n..];
            for loser in Color::BOTH {
                let ok = tail.iter().all(|&(c, v)| match v {
                    Some(v) if c == loser => v <= -s,
                    Some(v) => v >= s,
                    None => false,
                });
                if ok {
                    return Some(Termination::ScoreAdjudication {
                        winner: Some(loser.flip()),
                    });
                }
            }
        }
    }
    if let Some((from, moves, s)) = rules.draw {
        let n = 2 * moves as usize;
        if fullmove >= from && moves > 0 && scores.len() >= n {
            let tail = &scores[scores.len() - n..];
            if tail
                .iter()
                .all(|&(_, v)| matches!(v, Some(v) if v.abs() <= s))
            {
                return Some(Termination::ScoreAdjudication { winner: None });
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_lines() {
        let tc = |s: &str| Some(Clock::new(&s.parse::<TimeControl>().unwrap()));
        let mut clocks = [tc("60+1"), tc("2/30 then 1/10")];
        let none = FixedLimits::default();
        assert_eq!(
            go_command(Protocol::Ucci, true, Color::Red, &clocks, &none),
            "go time 60000 increment 1000 opptime 30000 oppmovestogo 2"
        );
        assert_eq!(
            go_command(Protocol::Ucci, false, Color::Black, &clocks, &none),
            "go time 30 movestogo 2 opptime 60 oppincrement 1"
        );
        assert_eq!(
            go_command(Protocol::Uci, false, Color::Black, &clocks, &none),
            "go wtime 60000 btime 30000 winc 1000 binc 0 movestogo 2"
        );
        // Under a second left in seconds mode still says 1, never 0.
        if let Some(c) = clocks[0].as_mut() {
            assert!(c.charge(59_500, 0));
        }
        assert!(
            go_command(Protocol::Ucci, false, Color::Red, &clocks, &none)
                .starts_with("go time 1 increment 1 ")
        );
        let depth = FixedLimits {
            depth: Some(9),
            nodes: None,
        };
        assert_eq!(
            go_command(Protocol::Uci, false, Color::Red, &clocks, &depth),
            "go depth 9"
        );
    }

    #[test]
    fn score_rules() {
        let r = ScoreRules {
            resign: Some((2, 500)),
            draw: Some((30, 3, 10)),
        };
        let s = |v: &[(Color, i32)]| v.iter().map(|&(c, x)| (c, Some(x))).collect::<Vec<_>>();
        let losing_black = s(&[
            (Color::Red, 600),
            (Color::Black, -700),
            (Color::Red, 650),
            (Color::Black, -800),
        ]);
        assert_eq!(
            score_adjudication(&losing_black, 10, &r),
            Some(Termination::ScoreAdjudication {
                winner: Some(Color::Red)
            })
        );
        // One engine disagrees: no adjudication.
        let mut disagree = losing_black.clone();
        disagree[2].1 = Some(100);
        assert_eq!(score_adjudication(&disagree, 10, &r), None);
        let quiet = s(&[(Color::Red, 3); 6]);
        assert_eq!(score_adjudication(&quiet, 29, &r), None, "too early");
        assert_eq!(
            score_adjudication(&quiet, 30, &r),
            Some(Termination::ScoreAdjudication { winner: None })
        );
        assert_eq!(score_adjudication(&quiet, 40, &ScoreRules::default()), None);
    }
}
