//! FEN reading: every `FenError` kind from a concrete FEN, round trips, the side
//! letters and missing trailing fields, and no panic on any input.

use rules::{Color, FenError, Piece, PieceKind, Position, Setup, Square, START_FEN};
mod common;
use rules::rng::Rng;

fn err(fen: &str) -> FenError {
    match Position::from_fen(fen) {
        Ok(p) => panic!("{fen} was accepted as {}", p.to_fen()),
        Err(e) => e,
    }
}

/// The error of a FEN checked as a game position (`Position::from_fen_strict`).
fn strict_err(fen: &str) -> FenError {
    match Position::from_fen_strict(fen) {
        Ok(p) => panic!("{fen} was accepted as {}", p.to_fen()),
        Err(e) => e,
    }
}

fn sq(s: &str) -> Square {
    Square::parse_iccs(s).expect("test square")
}

fn red(kind: PieceKind) -> Piece {
    Piece::new(Color::Red, kind)
}

fn black(kind: PieceKind) -> Piece {
    Piece::new(Color::Black, kind)
}

#[test]
fn syntax_errors() {
    assert_eq!(err(""), FenError::Empty);
    assert_eq!(err("  \t "), FenError::Empty);
    assert_eq!(err("9/9"), FenError::WrongRankCount(2));
    assert_eq!(err("9/9/9/9/9/9/9/9/9/9/9"), FenError::WrongRankCount(11));
    assert_eq!(
        err("4k4/9/9/9/9/9/9/9/9/4K4/"),
        FenError::WrongRankCount(11)
    );
    assert_eq!(
        err("rnbakabnr/8/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w"),
        FenError::BadRankLength { rank: 8, points: 8 }
    );
    assert!(matches!(
        err("rnbakabnrr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w"),
        FenError::BadRankLength { rank: 9, .. }
    ));
    assert!(matches!(
        err("4k4/9/9/9/9/9/9/9/9/4K5"),
        FenError::BadRankLength { rank: 0, .. }
    ));
    assert_eq!(
        err("4k4//9/9/9/9/9/9/9/4K4"),
        FenError::BadRankLength { rank: 8, points: 0 }
    );
    assert_eq!(err("4x4/9/9/9/9/9/9/9/9/4K4"), FenError::UnknownLetter('x'));
    assert_eq!(
        err("4k4/9/9/9/9/9/9/9/9/4K04"),
        FenError::UnknownLetter('0')
    );
    assert_eq!(
        err("4将4/9/9/9/9/9/9/9/9/4K4"),
        FenError::UnknownLetter('将')
    );
    assert_eq!(
        err("4k4/9/9/9/9/9/9/9/9/3AK4 x"),
        FenError::BadSide("x".into())
    );
    assert_eq!(
        err("4k4/9/9/9/9/9/9/9/9/3AK4 red"),
        FenError::BadSide("red".into())
    );
    assert_eq!(
        err("4k4/9/9/9/9/9/9/9/9/3AK4 w - - z 1"),
        FenError::BadCounter("z".into())
    );
    assert_eq!(
        err("4k4/9/9/9/9/9/9/9/9/3AK4 w - - 0 -3"),
        FenError::BadCounter("-3".into())
    );
    assert_eq!(
        err("4k4/9/9/9/9/9/9/9/9/3AK4 w - - 99999999999 1"),
        FenError::BadCounter("99999999999".into())
    );
}

#[test]
fn setups_no_game_reaches() {
    // Three red rooks; six black pawns.
    assert_eq!(
        strict_err("4k4/9/9/9/9/9/9/9/9/RR1AKR3 w"),
        FenError::TooManyPieces {
            piece: red(PieceKind::Rook),
            count: 3
        }
    );
    assert_eq!(
        strict_err("4k4/9/9/9/9/pppppp3/9/9/9/4K4 w"),
        FenError::TooManyPieces {
            piece: black(PieceKind::Pawn),
            count: 6
        }
    );
    assert_eq!(
        strict_err("3kk4/9/9/9/9/9/9/9/9/4K4 w"),
        FenError::TooManyPieces {
            piece: black(PieceKind::King),
            count: 2
        }
    );
    // Pieces off their points: a king outside the palace, an advisor off the
    // diagonals, an elephant across the river or off its points, pawns behind
    // their start or on a start rank between the start files.
    let off = |fen: &str, piece: Piece, at: &str| {
        assert_eq!(
            strict_err(fen),
            FenError::PieceOffItsPoints {
                piece,
                square: sq(at)
            },
            "{fen}"
        );
    };
    off("4k4/9/9/9/9/9/9/9/9/K8 w", red(PieceKind::King), "a0");
    off("9/9/9/9/4k4/9/9/9/9/4K4 w", black(PieceKind::King), "e5");
    off("4k4/9/9/9/9/9/9/9/9/3KA4 w", red(PieceKind::Advisor), "e0");
    off(
        "3ka4/4a4/9/9/9/9/9/9/9/3K5 w",
        black(PieceKind::Advisor),
        "e9",
    );
    off(
        "4k4/9/9/9/9/9/9/9/9/1B2K4 w",
        red(PieceKind::Elephant),
        "b0",
    );
    off(
        "4k4/9/9/9/2B6/9/9/9/9/4K4 w",
        red(PieceKind::Elephant),
        "c5",
    );
    off(
        "4k4/9/9/9/9/2b6/9/9/9/4K4 w",
        black(PieceKind::Elephant),
        "c4",
    ); // across the river
    off("4k4/9/9/9/9/9/9/P8/9/4K4 w", red(PieceKind::Pawn), "a2");
    off("4k4/9/9/9/9/9/1P7/9/9/4K4 w", red(PieceKind::Pawn), "b3");
    off("4k4/9/9/1p7/9/9/9/9/9/4K4 w", black(PieceKind::Pawn), "b6");
    off("4k4/9/p8/9/9/9/9/9/9/4K4 w", black(PieceKind::Pawn), "a7");
    // Missing kings.
    assert_eq!(
        strict_err("9/9/9/9/9/9/9/9/9/4K4 w"),
        FenError::MissingKing(Color::Black)
    );
    assert_eq!(
        strict_err("4k4/9/9/9/9/9/9/9/9/9 w"),
        FenError::MissingKing(Color::Red)
    );
    assert_eq!(
        strict_err("9/9/9/9/9/9/9/9/9/9"),
        FenError::MissingKing(Color::Red)
    );
    // The kings face each other on an open file (for either side to move).
    assert_eq!(
        strict_err("4k4/9/9/9/9/9/9/9/9/4K4 w"),
        FenError::KingsFacing
    );
    assert_eq!(
        strict_err("3k5/9/9/9/9/9/9/9/9/3K5 b"),
        FenError::KingsFacing
    );
    // With a piece between them the same kings are fine.
    assert!(Position::from_fen("4k4/9/9/9/4p4/9/9/9/9/4K4 w").is_ok());
    // The side that just moved is in check: a red rook on Black's king with Red to
    // move; a black cannon (with a screen) on Red's king with Black to move; a knight.
    assert_eq!(
        strict_err("4k4/9/9/9/9/9/9/9/4R4/3K5 w"),
        FenError::SideNotToMoveInCheck
    );
    assert_eq!(
        strict_err("4k4/9/9/9/4c4/9/9/9/4A4/4K4 b"),
        FenError::SideNotToMoveInCheck
    );
    assert_eq!(
        strict_err("3k5/9/4N4/9/9/9/9/9/9/4K4 w"),
        FenError::SideNotToMoveInCheck
    );
    // The same boards with the checked side to move are legal positions.
    assert!(Position::from_fen("4k4/9/9/9/9/9/9/9/4R4/3K5 b").is_ok());
    assert!(Position::from_fen("4k4/9/9/9/4c4/9/9/9/4A4/4K4 w").is_ok());
}

/// Composed studies (排局) are playable: pieces no game could bring to their points
/// and more of a kind than the set holds. `Setup::unreachable` lists why each is
/// not a game position, and the strict check refuses it with the first reason.
#[test]
fn composed_studies_are_playable_and_say_why_no_game_reaches_them() {
    let cases: [(&str, &[FenError]); 6] = [
        // The GUI-safety report's study: a black pawn on its own back rank.
        (
            "3k1p3/4P4/9/9/6CCR/3n4c/2Pn5/8B/5p3/4K4 w - - 0 1",
            &[FenError::PieceOffItsPoints {
                piece: black(PieceKind::Pawn),
                square: sq("f9"),
            }],
        ),
        // A third red rook.
        (
            "3k5/9/9/9/9/9/9/9/9/RR1AKR3 w",
            &[FenError::TooManyPieces {
                piece: red(PieceKind::Rook),
                count: 3,
            }],
        ),
        // An advisor on the palace's edge, an elephant off its seven points.
        (
            "5k3/9/9/9/9/9/9/9/9/1B1KA4 w",
            &[
                FenError::PieceOffItsPoints {
                    piece: red(PieceKind::Elephant),
                    square: sq("b0"),
                },
                FenError::PieceOffItsPoints {
                    piece: red(PieceKind::Advisor),
                    square: sq("e0"),
                },
            ],
        ),
        // Pawns behind their start rank and between the start files.
        (
            "3k5/9/p8/1p7/9/9/1P7/P8/9/4K4 w",
            &[
                FenError::PieceOffItsPoints {
                    piece: red(PieceKind::Pawn),
                    square: sq("a2"),
                },
                FenError::PieceOffItsPoints {
                    piece: red(PieceKind::Pawn),
                    square: sq("b3"),
                },
                FenError::PieceOffItsPoints {
                    piece: black(PieceKind::Pawn),
                    square: sq("b6"),
                },
                FenError::PieceOffItsPoints {
                    piece: black(PieceKind::Pawn),
                    square: sq("a7"),
                },
            ],
        ),
        // Six black pawns.
        (
            "3k5/9/9/9/9/pppppp3/9/9/9/4K4 w",
            &[FenError::TooManyPieces {
                piece: black(PieceKind::Pawn),
                count: 6,
            }],
        ),
        // A game position: nothing to say.
        (START_FEN, &[]),
    ];
    for (fen, why) in cases {
        let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        let _ = pos.legal_moves();
        let reasons = Setup::parse(fen).unwrap().unreachable();
        // Count errors come first, then pieces in board order.
        let mut expected = why.to_vec();
        expected.sort_by_key(|e| match e {
            FenError::PieceOffItsPoints { square, .. } => 1000 + square.index(),
            _ => 0,
        });
        assert_eq!(reasons, expected, "{fen}");
        match why.is_empty() {
            true => assert!(Position::from_fen_strict(fen).is_ok()),
            false => assert_eq!(
                Position::from_fen_strict(fen).err().as_ref(),
                reasons.first()
            ),
        }
    }
}

/// What even a composed study cannot be: what move generation cannot work on.
#[test]
fn unplayable_setups() {
    let off = |fen: &str, piece: Piece, at: &str| {
        assert_eq!(
            err(fen),
            FenError::PieceOffItsPoints {
                piece,
                square: sq(at)
            },
            "{fen}"
        );
    };
    off("4k4/9/9/9/9/9/9/9/9/K8 w", red(PieceKind::King), "a0");
    off("9/9/9/9/4k4/9/9/9/9/4K4 w", black(PieceKind::King), "e5");
    off("4k4/9/9/9/9/9/9/9/9/2A1K4 w", red(PieceKind::Advisor), "c0");
    off(
        "4k4/9/9/9/9/9/9/9/9/2a1K4 w",
        black(PieceKind::Advisor),
        "c0",
    );
    off(
        "4k4/9/9/9/2B6/9/9/9/9/4K4 w",
        red(PieceKind::Elephant),
        "c5",
    );
    off(
        "4k4/9/9/9/9/2b6/9/9/9/4K4 w",
        black(PieceKind::Elephant),
        "c4",
    );
    assert_eq!(
        err("3kk4/9/9/9/9/9/9/9/9/4K4 w"),
        FenError::TooManyPieces {
            piece: black(PieceKind::King),
            count: 2
        }
    );
    // Sixteen red pieces are playable, seventeen are not.
    let sixteen = "4k4/9/9/9/9/9/RRRRRRRRR/9/RRRRRR3/4K4 b";
    let pos = Position::from_fen(sixteen).expect("sixteen");
    assert!(pos.in_check());
    assert_eq!(
        err("4k4/9/9/9/9/9/RRRRRRRRR/9/RRRRRRR2/4K4 b"),
        FenError::TooManyPiecesOfColor {
            color: Color::Red,
            count: 17
        }
    );
}

#[test]
fn errors_print_what_is_wrong() {
    let text = strict_err("4k4/9/9/9/9/9/9/9/9/RR1AKR3 w").to_string();
    assert!(text.contains('3') && text.contains('车'), "{text}");
    let text = strict_err("4k4/9/9/9/9/9/9/9/9/1B2K4 w").to_string();
    assert!(text.contains("b0"), "{text}");
    assert!(err("4k4/9/9/9/9/9/9/9/9/4K4 w")
        .to_string()
        .contains("face"));
    assert!(err("").to_string().contains("empty"));
}

#[test]
fn side_letters_and_missing_fields() {
    let board = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR";
    for side in ["w", "r", "W", "R"] {
        let p = Position::from_fen(&format!("{board} {side}")).expect("red to move");
        assert_eq!(p.side_to_move(), Color::Red);
        assert_eq!(p.to_fen(), START_FEN);
    }
    for side in ["b", "B"] {
        let p = Position::from_fen(&format!("{board} {side} - - 0 1")).expect("black");
        assert_eq!(p.side_to_move(), Color::Black);
        assert_eq!(p.to_fen(), format!("{board} b - - 0 1"));
    }
    // Every trailing field may be missing.
    assert_eq!(
        Position::from_fen(board).map(|p| p.to_fen()),
        Ok(START_FEN.to_string())
    );
    for tail in ["w -", "w - -", "w - - 0", "w - - 0 1", "w  -  -  0  1  "] {
        assert_eq!(
            Position::from_fen(&format!("{board} {tail}")).map(|p| p.to_fen()),
            Ok(START_FEN.to_string()),
            "{tail}"
        );
    }
    let p = Position::from_fen(&format!("{board} b - - 17")).expect("counter");
    assert_eq!(p.plies_since_capture(), 17);
    assert_eq!(p.to_fen(), format!("{board} b - - 17 1"));
    let p = Position::from_fen(&format!("{board} b - - 5 40")).expect("counters");
    assert_eq!(p.to_fen(), format!("{board} b - - 5 40"));
    // A move number of 0 is read as 1.
    let s = Setup::parse(&format!("{board} w - - 0 0")).expect("move 0");
    assert_eq!(s.fullmove, 1);
}

/// Whatever the parser accepts must print and read back as the same position.
fn parse_never_panics(text: &str) {
    if let Ok(setup) = Setup::parse(text) {
        let again = Setup::parse(&setup.to_fen()).expect("printed setup reads back");
        assert_eq!(again, setup, "{text:?}");
        if let Ok(pos) = Position::from_setup(&setup) {
            let back = Position::from_fen(&pos.to_fen()).expect("printed FEN reads back");
            assert_eq!(back.to_fen(), pos.to_fen());
            assert_eq!(back.key(), pos.key());
            let _ = pos.legal_moves();
        }
    }
}

#[test]
fn random_positions_round_trip() {
    let mut rng = Rng::from_state(11);
    let mut n = 0;
    for _game in 0..100 {
        let mut p = Position::startpos();
        for _ply in 0..120 {
            let fen = p.to_fen();
            let q = Position::from_fen(&fen).expect("own FEN");
            assert_eq!(q.to_fen(), fen);
            assert_eq!(q.key(), p.key(), "{fen}");
            assert_eq!(q.side_to_move(), p.side_to_move());
            n += 1;
            let moves = p.legal_moves();
            if moves.is_empty() {
                break;
            }
            p.make_move(moves.as_slice()[rng.below_rem(moves.len())]);
        }
    }
    assert!(n > 5000);
}

#[test]
fn garbage_never_panics() {
    let mut rng = Rng::from_state(5);
    let alphabet: Vec<char> = "rnbakcpRNBAKCPehEH0123456789/ -wb\t將帥车１９\u{0}\u{200b}é"
        .chars()
        .collect();
    for _ in 0..20_000 {
        // Random bytes, read the way a protocol line would be.
        let len = rng.below_rem(120);
        let bytes: Vec<u8> = (0..len).map(|_| rng.next_u64() as u8).collect();
        parse_never_panics(&String::from_utf8_lossy(&bytes));
        // Random text from FEN-like characters.
        let len = rng.below_rem(100);
        let text: String = (0..len)
            .map(|_| alphabet[rng.below_rem(alphabet.len())])
            .collect();
        parse_never_panics(&text);
    }
    // Mutations of valid FENs: one character replaced, deleted or duplicated.
    let bases = [
        START_FEN,
        "1C2ka3/9/C1Nab1n2/p3p3p/6p2/9/P3P3P/3AB4/3p2c2/c1BAK4 w - - 0 1",
        "CRN1k1b2/3ca4/4ba3/9/2nr5/9/9/4B4/4A4/4KA3 b - - 12 40",
    ];
    for base in bases {
        let chars: Vec<char> = base.chars().collect();
        for _ in 0..5000 {
            let mut c = chars.clone();
            let i = rng.below_rem(c.len());
            match rng.below_rem(3) {
                0 => c[i] = alphabet[rng.below_rem(alphabet.len())],
                1 => {
                    c.remove(i);
                }
                _ => c.insert(i, c[i]),
            }
            parse_never_panics(&c.into_iter().collect::<String>());
        }
    }
    // Pathological lengths.
    parse_never_panics(&"9/".repeat(10_000));
    parse_never_panics(&"1".repeat(100_000));
    parse_never_panics(&format!("{START_FEN} {}", "9".repeat(1000)));
}
