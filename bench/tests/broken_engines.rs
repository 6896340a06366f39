//! Misbehaving engines lose the right way, and the runner survives them: illegal
//! moves, silence, garbage, `nobestmove`, crashes, no handshake, engines that never
//! exit, the other rank numbering, slow starts, resign/draw flags, UCI detection.
//! All engines are `qili-fake-engine` processes with switches.

use bench::arbiter::Termination;
use bench::game::{FixedLimits, FlagPolicy, ScoreRules};
use bench::{run_match, EngineConfig, MatchConfig, MatchSummary, ProtocolChoice, RankBase};
use rules::pgn::{parse_games, GameResult};
use rules::Color;
use std::time::{Duration, Instant};

fn fake(args: &str) -> EngineConfig {
    let cmd = format!("{} {args}", env!("CARGO_BIN_EXE_qili-fake-engine"));
    let mut e = EngineConfig::new(&cmd).unwrap();
    e.handshake_timeout = Duration::from_secs(2);
    e.quit_timeout = Duration::from_millis(300);
    e
}

/// A short match, first engine `a`, by fixed depth unless `tc` is given.
fn play(a: EngineConfig, b: EngineConfig, games: u32, tc: Option<&str>) -> MatchSummary {
    let mut cfg = MatchConfig::new([a, b]);
    cfg.games = games;
    cfg.progress = false;
    cfg.game_lines = false;
    cfg.game.move_timeout = Duration::from_millis(500);
    match tc {
        Some(t) => {
            let tc = t.parse().unwrap();
            cfg.game.tc = [Some(tc), None];
            cfg.game.tc[1] = cfg.game.tc[0].clone();
        }
        None => {
            cfg.game.fixed = FixedLimits {
                depth: Some(1),
                nodes: None,
            }
        }
    }
    run_match(&cfg, &mut std::io::sink()).unwrap()
}

/// The colour the first engine had in game `i` of the summary.
fn first_colour(s: &MatchSummary, i: usize) -> Color {
    if s.games[i].red_engine == 0 {
        Color::Red
    } else {
        Color::Black
    }
}

/// Every game was lost by the first engine, and `check` holds for each termination.
fn first_lost_all(s: &MatchSummary, check: impl Fn(&Termination, Color) -> bool) {
    assert!(!s.games.is_empty());
    for (i, g) in s.games.iter().enumerate() {
        let me = first_colour(s, i);
        assert_eq!(
            g.record.result,
            GameResult::win_for(me.flip()),
            "{}",
            g.termination
        );
        assert!(check(&g.termination, me), "{:?}", g.termination);
    }
    assert_eq!(s.tally.losses as usize, s.games.len());
}

#[test]
fn illegal_move_loses() {
    let s = play(fake("--mode illegal"), fake("--seed 2"), 2, None);
    first_lost_all(
        &s,
        |t, me| matches!(t, Termination::IllegalMove { loser, .. } if *loser == me),
    );
    assert!(s.fatal.is_none());
}

#[test]
fn garbage_output_loses_by_illegal_move_text() {
    let s = play(fake("--mode garbage"), fake("--seed 3"), 2, None);
    first_lost_all(
        &s,
        |t, me| matches!(t, Termination::IllegalMove { loser, detail } if *loser == me && detail.contains("xyzzy")),
    );
}

#[test]
fn silence_loses_on_time_with_a_clock_and_as_failure_without() {
    let t0 = Instant::now();
    let s = play(fake("--mode silent"), fake("--seed 4"), 2, Some("300ms+0"));
    first_lost_all(
        &s,
        |t, me| matches!(t, Termination::TimeForfeit { loser } if *loser == me),
    );
    let s = play(fake("--mode silent"), fake("--seed 4"), 1, None);
    first_lost_all(
        &s,
        |t, me| matches!(t, Termination::Crash { loser, detail } if *loser == me && detail.contains("no move")),
    );
    assert!(t0.elapsed() < Duration::from_secs(10));
}

#[test]
fn nobestmove_and_crash_lose() {
    let s = play(fake("--mode nobestmove"), fake("--seed 5"), 2, None);
    first_lost_all(
        &s,
        |t, me| matches!(t, Termination::NoMove { loser } if *loser == me),
    );
    let s = play(fake("--crash-after 3"), fake("--seed 5"), 2, Some("5+0.1"));
    first_lost_all(
        &s,
        |t, me| matches!(t, Termination::Crash { loser, .. } if *loser == me),
    );
}

#[test]
fn no_handshake_is_a_clear_error_that_stops_the_match() {
    let mut mute = fake("--mode nohandshake");
    mute.handshake_timeout = Duration::from_millis(400);
    let s = play(mute, fake("--seed 6"), 4, None);
    let f = s.fatal.clone().expect("fatal error");
    assert!(f.contains("failed to start") && f.contains("ucciok"), "{f}");
    assert!(s.games.len() < 4, "stopped early");
    first_lost_all(
        &s,
        |t, me| matches!(t, Termination::Crash { loser, .. } if *loser == me),
    );
}

#[test]
fn engine_that_never_exits_is_killed() {
    let t0 = Instant::now();
    let s = play(fake("--mode noexit --seed 7"), fake("--seed 8"), 2, None);
    assert_eq!(s.games.len(), 2);
    assert!(s.games.iter().all(|g| !g.termination.is_forfeit()));
    // Each quit waits 300 ms, then kills.
    assert!(t0.elapsed() < Duration::from_secs(5));
}

#[test]
fn other_rank_numbering_is_diagnosed_not_misread() {
    // Found at start-up, from a depth-1 move in the start position.
    let s = play(fake("--ranks 1 --proto uci"), fake("--seed 9"), 2, None);
    let f = s.fatal.clone().expect("fatal error");
    assert!(f.contains("ranks 1-10") && f.contains("ranks=1"), "{f}");
    first_lost_all(
        &s,
        |t, me| matches!(t, Termination::Crash { loser, .. } if *loser == me),
    );
    // Told the truth, the runner translates and the games are normal.
    let mut one = fake("--ranks 1 --proto uci --seed 9");
    one.ranks = RankBase::One;
    let s = play(one, fake("--seed 10"), 2, None);
    assert!(s.fatal.is_none());
    assert!(s.games.iter().all(|g| !g.termination.is_forfeit()));
    assert!(s.games.iter().all(|g| g.record.replay().is_ok()));
    // The other way round: a 0-9 engine declared as 1-10.
    let mut wrong = fake("--seed 9");
    wrong.ranks = RankBase::One;
    let s = play(wrong, fake("--seed 10"), 1, None);
    assert!(
        s.fatal.clone().unwrap().contains("ranks=0"),
        "{:?}",
        s.fatal
    );
    // A PV in ranks 1-10 gives the engine away too.
    let s = play(
        fake("--pv-extra a10a9 --seed 9"),
        fake("--seed 10"),
        1,
        None,
    );
    let f = s.fatal.clone().expect("fatal error");
    assert!(f.contains("a10a9") && f.contains("ranks=1"), "{f}");
}

#[test]
fn rank_numbering_mid_game_is_diagnosed_from_the_move() {
    let pos = rules::Position::startpos();
    // What a 1-10 engine would answer in the start position, read as 0-9.
    let e = bench::notation::read_engine_move(&pos, "b1c3", RankBase::Zero).unwrap_err();
    assert!(e.to_string().contains("ranks=1"), "{e}");
}

#[test]
fn overlong_output_lines_are_survived() {
    let s = play(
        fake("--flood-bytes 300000 --seed 23"),
        fake("--seed 24"),
        2,
        None,
    );
    assert!(s.fatal.is_none());
    assert!(
        s.games.iter().all(|g| !g.termination.is_forfeit()),
        "{:?}",
        s.games[0].termination
    );
}

#[test]
fn uci_is_detected_and_slow_starts_are_waited_for() {
    let s = play(
        fake("--proto uci --start-delay-ms 300 --seed 11"),
        fake("--proto ucci --seed 12"),
        2,
        Some("5+0.05"),
    );
    assert!(s.fatal.is_none(), "{:?}", s.fatal);
    assert!(
        s.games.iter().all(|g| !g.termination.is_forfeit()),
        "{:?}",
        s.games[0].termination
    );
    // An engine that exits on `ucci` is started again and greeted with `uci`.
    let s = play(
        fake("--proto uci --strict --seed 25"),
        fake("--seed 26"),
        2,
        None,
    );
    assert!(s.fatal.is_none(), "{:?}", s.fatal);
    assert!(s.games.iter().all(|g| !g.termination.is_forfeit()));
    let mut forced = fake("--proto uci --seed 13");
    forced.protocol = ProtocolChoice::Ucci;
    let s = play(forced, fake("--seed 14"), 1, None);
    assert!(
        s.fatal.is_some(),
        "a UCI-only engine forced to UCCI fails the handshake"
    );
}

#[test]
fn flags_are_ignored_unless_accepted() {
    let s = play(fake("--flag resign --seed 15"), fake("--seed 16"), 2, None);
    assert!(s
        .games
        .iter()
        .all(|g| !matches!(g.termination, Termination::Resignation { .. })));
    let mut cfg = MatchConfig::new([fake("--flag resign --seed 15"), fake("--flag draw")]);
    cfg.game.fixed.depth = Some(1);
    cfg.progress = false;
    cfg.game_lines = false;
    cfg.game.flags = FlagPolicy {
        resign: true,
        draw: true,
    };
    let s = run_match(&cfg, &mut std::io::sink()).unwrap();
    first_lost_all(
        &s,
        |t, me| matches!(t, Termination::Resignation { loser } if *loser == me),
    );
    let mut cfg = MatchConfig::new([fake("--flag draw --seed 17"), fake("--flag draw --seed 18")]);
    cfg.game.fixed.depth = Some(1);
    cfg.progress = false;
    cfg.game_lines = false;
    cfg.game.flags.draw = true;
    let s = run_match(&cfg, &mut std::io::sink()).unwrap();
    assert!(s
        .games
        .iter()
        .all(|g| g.termination == Termination::AgreedDraw));
    assert!(s.games.iter().all(|g| g.record.moves.len() == 2));
}

#[test]
fn score_adjudication_when_both_agree() {
    let mut cfg = MatchConfig::new([
        fake("--score 900 --seed 19"),
        fake("--score -900 --seed 20"),
    ]);
    cfg.game.fixed.depth = Some(1);
    cfg.progress = false;
    cfg.game_lines = false;
    cfg.game.scores = ScoreRules {
        resign: Some((3, 500)),
        draw: None,
    };
    let s = run_match(&cfg, &mut std::io::sink()).unwrap();
    assert_eq!(s.tally.wins, 2, "{:?}", s.games[0].termination);
    assert!(s.games.iter().all(|g| g.record.moves.len() == 6));
}

#[test]
fn pgn_is_written_and_reads_back() {
    let path = std::env::temp_dir().join(format!("qili-bench-test-{}.pgn", std::process::id()));
    let _ = std::fs::remove_file(&path);
    let mut cfg = MatchConfig::new([
        fake("--seed 21 --name Alpha"),
        fake("--proto uci --seed 22"),
    ]);
    cfg.games = 4;
    cfg.concurrency = 2;
    cfg.game.tc = ["2+0.05".parse().ok(), "2+0.05".parse().ok()];
    cfg.progress = false;
    cfg.game_lines = false;
    cfg.pgn_path = Some(path.clone());
    let s = run_match(&cfg, &mut std::io::sink()).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    let _ = std::fs::remove_file(&path);
    let games = parse_games(&text).unwrap();
    assert_eq!(games.len(), 4);
    for g in &games {
        let pos = g.replay().expect("legal");
        assert_ne!(g.result, GameResult::Unknown);
        let t = g.tag("Termination").expect("termination tag");
        assert!(!t.is_empty());
        assert!(g.tag("FEN").is_some() && g.tag("TimeControl") == Some("2+0.05"));
        assert!(pos.game_ply() == g.moves.len());
        let names = [g.tag("Red").unwrap(), g.tag("Black").unwrap()];
        assert!(names.contains(&"Alpha"));
    }
    // Colours alternate: Alpha is Red in odd rounds.
    for g in &games {
        let round: u32 = g.tag("Round").unwrap().parse().unwrap();
        assert_eq!(g.tag("Red") == Some("Alpha"), round % 2 == 1);
    }
    assert_eq!(s.tally.games(), 4);
    assert_eq!(s.tally.pairs.iter().sum::<u32>(), 2);
}
