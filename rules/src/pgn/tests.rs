//! Tests of writing and reading PGN: round trips, located errors, and junk text
//! that must never panic.

use super::*;

fn mv(s: &str) -> Move {
    Move::parse_iccs(s).unwrap()
}

#[test]
fn write_and_read_back() {
    let mut g = GameRecord::new(None);
    g.set_tag("Event", "Test \"quoted\"");
    g.set_tag("Red", "qili");
    g.set_tag("Black", "other");
    g.set_tag("Termination", "mate");
    for (i, m) in ["h2e2", "h9g7", "h0g2", "i9h9"].iter().enumerate() {
        g.push(mv(m), if i == 1 { Some("+0.12/5".into()) } else { None });
    }
    g.result = GameResult::RedWins;
    let text = g.to_pgn();
    assert!(
        text.contains("1. H2-E2 H9-G7 {+0.12/5} 2. H0-G2 I9-H9 1-0"),
        "{text}"
    );
    let back = parse_games(&text).unwrap();
    assert_eq!(back.len(), 1);
    assert_eq!(back[0].moves, g.moves);
    assert_eq!(back[0].comments, g.comments);
    assert_eq!(back[0].result, GameResult::RedWins);
    assert_eq!(back[0].tag("Event"), Some("Test \"quoted\""));
    assert_eq!(back[0].tag("Termination"), Some("mate"));
    assert!(back[0].replay().is_ok());
}

#[test]
fn black_to_move_start_and_several_games() {
    let fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C4C2/9/RNBAKABNR b - - 1 1";
    let mut g = GameRecord::new(Some(fen));
    g.push(mv("h7e7"), None);
    g.push(mv("b0c2"), None);
    g.result = GameResult::Draw;
    let text = write_games(&[g.clone(), GameRecord::new(None)]);
    assert!(text.contains("1... H7-E7 2. B0-C2 1/2-1/2"), "{text}");
    let back = parse_games(&text).unwrap();
    assert_eq!(back.len(), 2);
    assert_eq!(back[0].start_fen(), fen);
    assert_eq!(back[0].replay().unwrap().game_ply(), 2);
    assert!(back[1].moves.is_empty());
    assert_eq!(back[1].result, GameResult::Unknown);
}

#[test]
fn reads_ucci_form_comments_variations_and_nags() {
    let text = "[Event \"x\"]\r\n[Result \"0-1\"]\r\n\r\n1.h2e2 $1 h9g7 ; note\n\
                (1... h7e7 (2. b0c2)) 2. h0g2 {a {b} 0-1\n";
    let g = &parse_games(text).unwrap()[0];
    assert_eq!(g.moves, vec![mv("h2e2"), mv("h9g7"), mv("h0g2")]);
    assert_eq!(g.comments[2].as_deref(), Some("a {b"));
    assert_eq!(g.result, GameResult::BlackWins);
}

#[test]
fn errors_are_typed_and_located() {
    let e = parse_games("[Event \"x\"]\n\n1. h2e2 zz 1-0").unwrap_err();
    assert_eq!(e.line, 3);
    assert!(matches!(e.kind, PgnErrorKind::BadToken { .. }));
    let e = parse_games("1. h2e2 {open").unwrap_err();
    assert_eq!(e.kind, PgnErrorKind::UnterminatedComment);
    assert!(parse_games("[Event x]\n").is_err());
    assert!(parse_games("1. h2e2 (h9g7").is_err());
    assert!(parse_games(")").is_err());
    // Syntactically fine but illegal: replay reports the ply.
    let g = &parse_games("1. h2e2 h2e2 *").unwrap()[0];
    assert!(matches!(
        g.replay().unwrap_err().kind,
        PgnErrorKind::IllegalMove { ply: 1, .. }
    ));
    let g = &parse_games("[FEN \"bad\"]\n*").unwrap()[0];
    assert!(matches!(
        g.replay().unwrap_err().kind,
        PgnErrorKind::BadFen(_)
    ));
}

/// Random edits of a real record and random strings over PGN's special
/// characters: parsing returns, and whatever parses replays or errs cleanly.
#[test]
fn random_text_never_panics() {
    let mut g = GameRecord::new(None);
    for m in ["h2e2", "h9g7", "h0g2", "i9h9"] {
        g.push(mv(m), Some("c".into()));
    }
    let base: Vec<char> = g.to_pgn().chars().collect();
    let alphabet: Vec<char> = "[]{}();$%.\\\"\n 01-/*abcdefghi9HE红".chars().collect();
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut rnd = |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    };
    for _ in 0..3000 {
        let mut t = base.clone();
        for _ in 0..1 + rnd(4) {
            let i = rnd(t.len() + 1);
            match rnd(3) {
                0 if i < t.len() => {
                    t.remove(i);
                }
                1 => t.insert(i, alphabet[rnd(alphabet.len())]),
                _ => t.truncate(i),
            }
        }
        let text: String = t.into_iter().collect();
        if let Ok(games) = parse_games(&text) {
            for g in games {
                let _ = g.replay();
                let _ = parse_games(&g.to_pgn());
            }
        }
        let junk: String = (0..rnd(40))
            .map(|_| alphabet[rnd(alphabet.len())])
            .collect();
        let _ = parse_games(&junk);
    }
}

#[test]
fn never_panics_on_junk() {
    for t in [
        "",
        "[",
        "[]",
        "[A \"",
        "{",
        "}",
        "1.",
        "...",
        "$",
        "%x\n",
        "(((",
        "1-0 1-0",
        "[A \"b\"] [C \"d\"]",
        "\u{feff}*",
        "１. h2e2",
    ] {
        let _ = parse_games(t);
    }
}
