//! CI smoke match: `qili match` plays qili against itself at a tiny time control.
//! The match must finish, every game must replay legally from its PGN, end by a rule
//! of the game (not a forfeit: no time losses, illegal moves or crashes), and the
//! summary must count all games.

use rules::pgn::{parse_games, GameResult};
use std::process::Command;

#[test]
fn qili_against_itself() {
    let qili = env!("CARGO_BIN_EXE_qili");
    let pgn = std::env::temp_dir().join(format!("qili-match-smoke-{}.pgn", std::process::id()));
    let _ = std::fs::remove_file(&pgn);
    let out = Command::new(qili)
        .args(["match", "--engine", qili, "--engine", qili])
        .args(["--e1", "name=A", "--e2", "name=B"])
        .args(["--games", "4", "--concurrency", "2", "--tc", "2+0.05"])
        // 100 ms for pipes and a loaded CI machine; the engine's own overruns still lose.
        .args(["--margin", "100", "--max-moves", "150", "--no-progress"])
        .arg("--pgn")
        .arg(&pgn)
        .output()
        .expect("run qili match");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "qili match failed: {stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("A vs B: games 4,"), "{stdout}");

    let text = std::fs::read_to_string(&pgn).expect("PGN written");
    let _ = std::fs::remove_file(&pgn);
    let games = parse_games(&text).expect("PGN parses");
    assert_eq!(games.len(), 4);
    for g in &games {
        let end = g.replay().expect("every move legal");
        assert_eq!(end.game_ply(), g.moves.len());
        assert_ne!(g.result, GameResult::Unknown);
        let t = g.tag("Termination").expect("Termination tag");
        for forfeit in [
            "time forfeit",
            "illegal move",
            "engine failure",
            "gave no move",
        ] {
            assert!(!t.contains(forfeit), "game {:?}: {t}", g.tag("Round"));
        }
        // Adjudicated by the board: a mate or stalemate leaves the loser without moves.
        if t.starts_with("mate") || t.starts_with("stalemate") {
            assert!(!end.has_legal_move(), "{t}");
        }
    }
}
