//! From `go` parameters to search `Limits`, and from a search result to the
//! UCCI flags that follow `bestmove` (accepting a draw offer, resigning).

use super::command::{clip, GoParams};
use super::options::Settings;
use super::output::Flag;
use super::Dialect;
use engine::{ClockReading, Limits, Score};
use rules::{Color, Move, Position};

/// A `go` turned into limits, plus what the session must remember about it.
#[derive(Debug)]
pub struct Plan {
    pub limits: Limits,
    pub ponder: bool,
    pub draw_offered: bool,
    /// UCCI `go depth 0`: report a shallow evaluation, answer `nobestmove`.
    pub depth_zero: bool,
    pub warnings: Vec<String>,
}

/// Build the limits of one `go` for the side to move in `pos`.
pub fn plan(
    g: &GoParams,
    dialect: Dialect,
    settings: &Settings,
    pos: &Position,
    banmoves: &[Move],
) -> Plan {
    let mut warnings = g.warnings.clone();
    // UCCI times are seconds unless millisecond mode is on (it is by default:
    // we advertise `usemillisec … default true`). UCI is always milliseconds.
    let unit = if dialect == Dialect::Ucci && !settings.usemillisec {
        1000
    } else {
        1
    };
    let ms = |v: Option<u64>| v.map(|v| v.saturating_mul(unit));
    let us = pos.side_to_move();
    let clock = if g.time.is_some() {
        Some(ClockReading {
            time_ms: ms(g.time).unwrap_or(0),
            inc_ms: ms(g.increment).unwrap_or(0),
            moves_to_go: g.movestogo,
            opp_time_ms: ms(g.opptime),
            opp_inc_ms: ms(g.oppincrement),
            whole_seconds: unit == 1000,
        })
    } else if g.wtime.is_some() || g.btime.is_some() {
        let (ours, theirs, inc, opp_inc) = match us {
            Color::Red => (g.wtime, g.btime, g.winc, g.binc),
            Color::Black => (g.btime, g.wtime, g.binc, g.winc),
        };
        match ours {
            Some(t) => Some(ClockReading {
                time_ms: t,
                inc_ms: inc.unwrap_or(0),
                moves_to_go: g.movestogo,
                opp_time_ms: theirs,
                opp_inc_ms: opp_inc,
                whole_seconds: false,
            }),
            None => {
                warnings.push(format!("no clock for {us} to move; searching without one"));
                None
            }
        }
    } else {
        if g.increment.is_some() || g.movestogo.is_some() || g.opptime.is_some() {
            warnings.push("no 'time' for the side to move; searching without a clock".into());
        }
        None
    };
    // A fixed move time must include the transport lag, like a clock.
    let movetime_ms = g.movetime.map(|t| {
        t.saturating_sub(settings.move_overhead_ms.min(t / 2))
            .max(1)
    });

    let mut searchmoves = Vec::new();
    for text in &g.searchmoves {
        match settings.coords().parse(pos, text) {
            Ok(m) => searchmoves.push(m),
            Err(e) => warnings.push(format!("searchmoves {}: {e}", clip(text))),
        }
    }
    let depth_zero = dialect == Dialect::Ucci && g.depth == Some(0);
    let limits = Limits {
        depth: g.depth.map(|d| d.max(1)),
        nodes: g.nodes,
        movetime_ms,
        clock,
        infinite: g.infinite,
        searchmoves,
        banmoves: banmoves.to_vec(),
        multipv: settings.multipv.max(1),
        ponder: settings.ponder,
        mate: g.mate.filter(|&n| n > 0),
        // Set by `protocol::book::root_noise` (the Randomness option).
        root_noise: None,
    };
    Plan {
        limits,
        ponder: g.ponder,
        draw_offered: g.draw,
        depth_zero,
        warnings,
    }
}

/// Centipawn value of a score, mates beyond any evaluation.
fn cp(score: Score) -> i32 {
    match score {
        Score::Cp(v) => v,
        Score::Mate(n) if n > 0 => 100_000 - n,
        Score::Mate(n) => -100_000 - n,
    }
}

/// From this full move on the engine may offer a draw.
pub const DRAW_OFFER_FROM_MOVE: u32 = 40;
/// A score within this many centipawns of level counts toward a draw offer.
pub const DRAW_OFFER_MARGIN: i32 = 15;
/// Consecutive level searches before an offer (and between two offers).
pub const DRAW_OFFER_STREAK: u32 = 8;

/// What the flag logic remembers from one `bestmove` to the next (reset by a new game).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Streaks {
    /// Consecutive searches that saw a lost position.
    pub hopeless: u32,
    /// Consecutive searches, late in the game, that saw a level position.
    pub level: u32,
}

/// The flag after `bestmove`, given the score of the move we play and the full
/// move number of the position searched.
/// - A draw offer is accepted when the position is a draw or worse for us (the
///   score is no better than what a draw is worth to us).
/// - We resign only when the option allows it and the last two searches both saw a
///   lost position.
/// - We offer a draw (`DrawOffer` option) from move `DRAW_OFFER_FROM_MOVE` on, after
///   `DRAW_OFFER_STREAK` searches in a row found the game level (within
///   `DRAW_OFFER_MARGIN`, or below the draw value when a draw is worth more to us),
///   and then again after as many more. Never when a draw is worth less than a level
///   game to us (a negative draw value: contempt, or a tie-break that counts a draw
///   as our loss).
pub fn flag(
    settings: &Settings,
    draw_offered: bool,
    score: Score,
    fullmove: u32,
    streaks: &mut Streaks,
) -> Flag {
    let v = cp(score);
    let hopeless = v <= -settings.resign_value;
    streaks.hopeless = if hopeless { streaks.hopeless + 1 } else { 0 };
    let level = settings.draw_offer
        && settings.draw_value >= 0
        && fullmove >= DRAW_OFFER_FROM_MOVE
        && (-DRAW_OFFER_MARGIN..=DRAW_OFFER_MARGIN.max(settings.draw_value)).contains(&v);
    streaks.level = if level { streaks.level + 1 } else { 0 };
    if draw_offered && v <= settings.draw_value {
        Flag::Draw
    } else if settings.resign && streaks.hopeless >= 2 {
        Flag::Resign
    } else if streaks.level >= DRAW_OFFER_STREAK {
        streaks.level = 0;
        Flag::Draw
    } else {
        Flag::None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::command::{parse, Command};

    fn go(line: &str) -> GoParams {
        match parse(line) {
            Ok(Command::Go(g)) => g,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn ucci_clock_is_ours_and_seconds_without_millisec() {
        let pos = Position::startpos();
        let mut s = Settings::default();
        let g = go("go time 60000 increment 2000 opptime 30000 oppincrement 1000");
        let p = plan(&g, Dialect::Ucci, &s, &pos, &[]);
        let tc = p.limits.clock.unwrap();
        assert_eq!(
            (tc.time_ms, tc.inc_ms, tc.opp_time_ms),
            (60000, 2000, Some(30000))
        );
        s.usemillisec = false;
        let p = plan(&go("go time 60 movestogo 10"), Dialect::Ucci, &s, &pos, &[]);
        let tc = p.limits.clock.unwrap();
        assert_eq!((tc.time_ms, tc.moves_to_go), (60_000, Some(10)));
    }

    #[test]
    fn uci_clock_follows_the_side_to_move() {
        let s = Settings::default();
        let mut pos = Position::startpos();
        let g = go("go wtime 6000 btime 4000 winc 0 binc 3000");
        let tc = plan(&g, Dialect::Uci, &s, &pos, &[]).limits.clock.unwrap();
        assert_eq!(
            (tc.time_ms, tc.inc_ms, tc.opp_time_ms),
            (6000, 0, Some(4000))
        );
        pos.make_move(pos.parse_move("h2e2").unwrap());
        let tc = plan(&g, Dialect::Uci, &s, &pos, &[]).limits.clock.unwrap();
        assert_eq!(
            (tc.time_ms, tc.inc_ms, tc.opp_time_ms),
            (4000, 3000, Some(6000))
        );
    }

    #[test]
    fn searchmoves_depth_zero_and_movetime() {
        let s = Settings::default();
        let pos = Position::startpos();
        let p = plan(
            &go("go searchmoves h2e2 e9e8 movetime 1000"),
            Dialect::Uci,
            &s,
            &pos,
            &[],
        );
        assert_eq!(p.limits.searchmoves.len(), 1);
        assert_eq!(p.warnings.len(), 1);
        assert_eq!(p.limits.movetime_ms, Some(1000 - s.move_overhead_ms));
        let p = plan(
            &go("go increment 1000 movestogo 5"),
            Dialect::Ucci,
            &s,
            &pos,
            &[],
        );
        assert!(p.limits.clock.is_none() && p.warnings.len() == 1);
        let p = plan(&go("go depth 0"), Dialect::Ucci, &s, &pos, &[]);
        assert!(p.depth_zero && p.limits.depth == Some(1));
        let p = plan(
            &go("go ponder draw movetime 10"),
            Dialect::Ucci,
            &s,
            &pos,
            &[],
        );
        assert!(
            p.ponder && p.draw_offered && p.limits.movetime_ms == Some(10 - s.move_overhead_ms)
        );
    }

    #[test]
    fn draw_offers_and_resignation() {
        let mut s = Settings::default();
        let mut st = Streaks::default();
        let m = 1;
        assert_eq!(flag(&s, true, Score::Cp(0), m, &mut st), Flag::Draw);
        assert_eq!(flag(&s, true, Score::Cp(-300), m, &mut st), Flag::Draw);
        assert_eq!(flag(&s, true, Score::Cp(40), m, &mut st), Flag::None);
        assert_eq!(flag(&s, false, Score::Cp(-5000), m, &mut st), Flag::None);
        assert_eq!(
            flag(&s, false, Score::Mate(-3), m, &mut st),
            Flag::None,
            "resign is off"
        );
        s.resign = true;
        st = Streaks::default();
        assert_eq!(
            flag(&s, false, Score::Mate(-3), m, &mut st),
            Flag::None,
            "one bad search"
        );
        assert_eq!(flag(&s, false, Score::Mate(-2), m, &mut st), Flag::Resign);
        assert_eq!(flag(&s, false, Score::Cp(50), m, &mut st), Flag::None);
        assert_eq!(st.hopeless, 0);
        // A draw offer beats resigning.
        st.hopeless = 5;
        assert_eq!(flag(&s, true, Score::Mate(-1), m, &mut st), Flag::Draw);
    }

    /// Flags of `n` searches in a row with score `v` at full move `fullmove`.
    fn run(s: &Settings, st: &mut Streaks, v: i32, fullmove: u32, n: u32) -> Vec<Flag> {
        (0..n)
            .map(|i| flag(s, false, Score::Cp(v), fullmove + i, st))
            .collect()
    }

    #[test]
    fn the_engine_offers_a_draw_in_a_long_level_game() {
        let s = Settings::default();
        assert!(s.draw_offer, "on by default");
        let mut st = Streaks::default();
        let k = DRAW_OFFER_STREAK as usize;
        // Level from move 40: the offer comes with the 8th level search, then again
        // 8 searches later.
        let flags = run(&s, &mut st, 5, DRAW_OFFER_FROM_MOVE, 2 * DRAW_OFFER_STREAK);
        let offers: Vec<usize> = (0..flags.len())
            .filter(|&i| flags[i] == Flag::Draw)
            .collect();
        assert_eq!(offers, vec![k - 1, 2 * k - 1]);
        // Too early in the game.
        let mut st = Streaks::default();
        assert!(!run(&s, &mut st, 0, 10, 20).contains(&Flag::Draw));
        // A better (or worse) position breaks the streak.
        let mut st = Streaks::default();
        run(&s, &mut st, -DRAW_OFFER_MARGIN, 50, DRAW_OFFER_STREAK - 1);
        assert_eq!(flag(&s, false, Score::Cp(60), 57, &mut st), Flag::None);
        assert_eq!(st.level, 0);
        assert!(!run(&s, &mut st, 0, 58, DRAW_OFFER_STREAK - 1).contains(&Flag::Draw));
        // A mate is never level.
        let mut st = Streaks::default();
        for i in 0..20 {
            assert_eq!(
                flag(&s, false, Score::Mate(-30), 50 + i, &mut st),
                Flag::None
            );
        }
    }

    #[test]
    fn no_offer_when_switched_off_or_a_draw_is_worth_less() {
        let s = Settings {
            draw_offer: false,
            ..Settings::default()
        };
        let mut st = Streaks::default();
        assert!(!run(&s, &mut st, 0, 50, 30).contains(&Flag::Draw));
        // A draw counts as (nearly) a loss for us: never offer.
        let mut s = Settings {
            draw_value: -50,
            ..Settings::default()
        };
        let mut st = Streaks::default();
        assert!(!run(&s, &mut st, 0, 50, 30).contains(&Flag::Draw));
        // A draw is worth more to us than a level game: offer below that value too.
        s.draw_value = 100;
        let mut st = Streaks::default();
        assert!(run(&s, &mut st, 80, 50, DRAW_OFFER_STREAK).ends_with(&[Flag::Draw]));
        let mut st = Streaks::default();
        assert!(!run(&s, &mut st, 120, 50, 30).contains(&Flag::Draw));
    }
}
