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

/// `--book`: each game pair starts from a weighted line of the book, and the summary
/// counts the distinct games.
#[test]
fn a_match_from_book_lines() {
    let qili = env!("CARGO_BIN_EXE_qili");
    let dir = std::env::temp_dir();
    let id = std::process::id();
    let (games_pgn, book, pgn) = (
        dir.join(format!("qili-match-book-{id}.games.pgn")),
        dir.join(format!("qili-match-book-{id}.qbook")),
        dir.join(format!("qili-match-book-{id}.pgn")),
    );
    let _ = std::fs::remove_file(&pgn);
    std::fs::write(
        &games_pgn,
        "1. h2e2 h9g7 2. h0g2 1-0\n\n1. h2e2 b9c7 2. b0c2 1/2-1/2\n\n1. c3c4 c6c5 1/2-1/2\n",
    )
    .unwrap();
    let built = Command::new(qili)
        .args(["book", "build", "--min-games", "1", "--pgn"])
        .arg(&games_pgn)
        .arg("--out")
        .arg(&book)
        .output()
        .expect("run qili book build");
    assert!(
        built.status.success(),
        "{}",
        String::from_utf8_lossy(&built.stderr)
    );
    let out = Command::new(qili)
        .args(["match", "--engine", qili, "--engine", qili])
        .args([
            "--games",
            "6",
            "--depth",
            "2",
            "--max-moves",
            "30",
            "--no-progress",
        ])
        .arg("--book")
        .arg(&book)
        .args(["--book-depth", "2", "--seed", "4", "--pgn"])
        .arg(&pgn)
        .output()
        .expect("run qili match");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let line = stdout
        .lines()
        .find(|l| l.starts_with("Distinct games: "))
        .unwrap_or_else(|| panic!("no distinct-games line: {stdout}"));
    let distinct: usize = line["Distinct games: ".len()..]
        .split_whitespace()
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=6).contains(&distinct), "{line}");
    assert!(line.contains(" of 6 "), "{line}");
    let text = std::fs::read_to_string(&pgn).expect("PGN written");
    let games = parse_games(&text).expect("PGN parses");
    assert_eq!(games.len(), 6);
    let book_lines = ["h2e2 h9g7", "h2e2 b9c7", "c3c4 c6c5"];
    for pair in games.chunks(2) {
        // Two plies from the book, marked, the same line for both games of a pair.
        for g in pair {
            assert_eq!(g.comments[0].as_deref(), Some("book"));
            assert_eq!(g.comments[1].as_deref(), Some("book"));
            assert_ne!(g.comments[2].as_deref(), Some("book"));
        }
        let line = format!("{} {}", pair[0].moves[0], pair[0].moves[1]);
        assert!(book_lines.contains(&line.as_str()), "{line}");
        assert_eq!(pair[0].moves[..2], pair[1].moves[..2]);
    }
    for f in [games_pgn, book, pgn] {
        let _ = std::fs::remove_file(f);
    }
}
