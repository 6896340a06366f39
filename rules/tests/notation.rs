//! Move notation: fixed examples from the rule books and the WXF, tandem pieces,
//! variants the parsers accept, errors, and round trips (print, then parse back to
//! the same move) on every legal move of thousands of positions.

use rules::notation::{
    parse_any, parse_chinese, parse_iccs, parse_wxf, to_chinese, to_wxf, NotationError,
};
use rules::{Move, Position};
mod common;
use common::{color, perft_fens};
use rules::rng::Rng;

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("bad test FEN {fen}: {e}"))
}

fn mv(p: &Position, iccs: &str) -> Move {
    p.parse_move(iccs)
        .unwrap_or_else(|e| panic!("{iccs} in {}: {e}", p.to_fen()))
}

/// `iccs` prints as `chinese` and `wxf`, and each text parses back to it.
fn check(p: &Position, iccs: &str, chinese: &str, wxf: &str) {
    let m = mv(p, iccs);
    assert_eq!(
        to_chinese(p, m),
        chinese,
        "Chinese of {iccs} in {}",
        p.to_fen()
    );
    assert_eq!(to_wxf(p, m), wxf, "WXF of {iccs} in {}", p.to_fen());
    assert_eq!(parse_chinese(p, chinese), Ok(m), "parse {chinese}");
    assert_eq!(parse_wxf(p, wxf), Ok(m), "parse {wxf}");
    assert_eq!(parse_any(p, chinese), Ok(m));
    assert_eq!(parse_any(p, wxf), Ok(m));
    assert_eq!(parse_any(p, iccs), Ok(m));
}

#[test]
fn opening_from_the_start() {
    let mut p = Position::startpos();
    check(&p, "h2e2", "炮二平五", "C2.5");
    check(&p, "b0c2", "马八进七", "H8+7");
    check(&p, "h0g2", "马二进三", "H2+3");
    check(&p, "a0a1", "车九进一", "R9+1");
    check(&p, "g3g4", "兵三进一", "P3+1");
    check(&p, "c0e2", "相七进五", "E7+5");
    check(&p, "f0e1", "仕四进五", "A4+5");
    check(&p, "e0e1", "帅五进一", "K5+1");
    check(&p, "h2h9", "炮二进七", "C2+7");
    p.make_move(mv(&p, "h2e2"));
    check(&p, "h9g7", "马８进７", "H8+7");
    check(&p, "h7e7", "炮８平５", "C8.5");
    check(&p, "d9e8", "士４进５", "A4+5");
    check(&p, "g9e7", "象７进５", "E7+5");
    check(&p, "i9i8", "车９进１", "R9+1");
    check(&p, "c6c5", "卒３进１", "P3+1");
    check(&p, "g6g5", "卒７进１", "P7+1");
    check(&p, "b7b0", "炮２进７", "C2+7");
}

#[test]
fn a_game_with_front_and_rear_cannons() {
    // 1. 炮二平五 炮8平5 2. 炮五进四 士4进5 3. 马二进三 马8进7 4. 炮八平五 马2进3
    // 5. 前炮退二 车9平8: the worked example of the coordinate and vertical notations.
    let game = [
        ("h2e2", "炮二平五", "C2.5"),
        ("h7e7", "炮８平５", "C8.5"),
        ("e2e6", "炮五进四", "C5+4"),
        ("d9e8", "士４进５", "A4+5"),
        ("h0g2", "马二进三", "H2+3"),
        ("h9g7", "马８进７", "H8+7"),
        ("b2e2", "炮八平五", "C8.5"),
        ("b9c7", "马２进３", "H2+3"),
        ("e6e4", "前炮退二", "C+-2"),
        ("i9h9", "车９平８", "R9.8"),
    ];
    let mut p = Position::startpos();
    for (iccs, chinese, wxf) in game {
        check(&p, iccs, chinese, wxf);
        p.make_move(mv(&p, iccs));
    }
    // Now both red cannons stand on file 五: the rear one is 后炮.
    check(&p, "e2d2", "后炮平六", "C-.6");
    check(&p, "e4e5", "前炮进一", "C++1");
    // The sign-first WXF form and ASCII digits for Black are read too.
    assert_eq!(parse_wxf(&p, "+C+1"), Ok(mv(&p, "e4e5")));
    assert_eq!(parse_wxf(&p, "-C.6"), Ok(mv(&p, "e2d2")));
    // A plain file number cannot tell the two cannons apart when both can go.
    assert!(matches!(
        parse_chinese(&p, "炮五平六"),
        Err(NotationError::Ambiguous { .. })
    ));
    assert!(matches!(
        parse_wxf(&p, "C5.6"),
        Err(NotationError::Ambiguous { .. })
    ));
}

#[test]
fn seed_notation_variants_parse() {
    // The rule-book seeds write Black's numbers in ASCII or full width.
    let mut p = Position::startpos();
    p.make_move(mv(&p, "h2e2"));
    for (text, iccs) in [
        ("马8进7", "h9g7"),
        ("馬８進７", "h9g7"),
        ("炮8平5", "h7e7"),
        ("砲８平５", "h7e7"),
        ("包8平5", "h7e7"),
        ("車9進1", "i9i8"),
        ("卒7进1", "g6g5"),
        ("卒3进1", "c6c5"),
        ("士4进5", "d9e8"),
        ("象7进5", "g9e7"),
        ("将5进1", "e9e8"),
        ("將５進１", "e9e8"),
        (" 马８进７ ", "h9g7"),
        ("h9g7", "h9g7"),
        ("H8+7", "h9g7"),
        ("h8+7", "h9g7"),
        ("N8+7", "h9g7"),
        ("C8=5", "h7e7"),
        ("B7+5", "g9e7"),
    ] {
        assert_eq!(parse_any(&p, text), Ok(mv(&p, iccs)), "{text}");
    }
    let p = Position::startpos();
    for (text, iccs) in [
        ("俥九進一", "a0a1"),
        ("傌八進七", "b0c2"),
        ("炮2平5", "h2e2"),
        ("帥五進一", "e0e1"),
        ("兵3进1", "g3g4"),
        ("相3进5", "g0e2"),
        ("仕6进5", "d0e1"),
    ] {
        assert_eq!(parse_chinese(&p, text), Ok(mv(&p, iccs)), "{text}");
    }
}

#[test]
fn rook_knight_tandems_for_both_sides() {
    // Red rooks a6 (front) and a3 (rear), red knights c6 and c4; black rooks d5
    // (front for Black, who advances toward rank 0) and d9, black cannons b1 and b7.
    let fen = "3r1k3/9/1c7/R1N6/3r5/2N6/R8/9/1c7/4K4 w - - 0 1";
    let mut p = pos(fen);
    check(&p, "a6a8", "前车进二", "R++2");
    check(&p, "a3a4", "后车进一", "R-+1");
    check(&p, "a3b3", "后车平八", "R-.8");
    check(&p, "a6b6", "前车平八", "R+.8");
    check(&p, "c6b8", "前马进八", "H++8");
    check(&p, "c4d2", "后马退六", "H--6");
    check(&p, "c4a5", "后马进九", "H-+9");
    check(&p, "c6d8", "前马进六", "H++6");
    check(&p, "e0e1", "帅五进一", "K5+1");
    p = pos(&fen.replace(" w ", " b "));
    // Black's front is toward rank 0: the rook on d5 is 前车, the one on d9 后车.
    check(&p, "d5d4", "前车进１", "R++1");
    check(&p, "d9d8", "后车进１", "R-+1");
    check(&p, "d5e5", "前车平５", "R+.5");
    check(&p, "b1e1", "前炮平５", "C+.5");
    check(&p, "b7b6", "后炮进１", "C-+1");
    check(&p, "b7b9", "后炮退２", "C--2");
    // The piece-first Chinese order (车前进一) is read too.
    assert_eq!(parse_chinese(&p, "车前进1"), Ok(mv(&p, "d5d4")));
    assert_eq!(parse_chinese(&p, "車後进１"), Ok(mv(&p, "d9d8")));
}

#[test]
fn advisors_and_elephants_on_one_file_use_the_file() {
    // Red advisors d0 and d2, elephants c0 and c4: the direction tells them apart.
    let p = pos("3k5/9/9/9/9/2B6/9/3A5/9/2BAK4 w - - 0 1");
    check(&p, "d0e1", "仕六进五", "A6+5");
    check(&p, "d2e1", "仕六退五", "A6-5");
    check(&p, "c0e2", "相七进五", "E7+5");
    check(&p, "c4e2", "相七退五", "E7-5");
    check(&p, "c4a2", "相七退九", "E7-9");
    check(&p, "c0a2", "相七进九", "E7+9");
}

/// Three, four and five pawns on file 三 (g), moving sideways to file 四 (f):
/// the WXF's own examples.
#[test]
fn wxf_tandem_pawn_examples() {
    let three = pos("4k4/9/6P2/6P2/6P2/9/9/9/9/3K5 w - - 0 1");
    check(&three, "g7f7", "前兵平四", "P+.4");
    check(&three, "g6f6", "中兵平四", "P3.4");
    check(&three, "g5f5", "后兵平四", "P-.4");
    check(&three, "g7g8", "前兵进一", "P++1");
    // A plain file number is ambiguous among three pawns in Chinese; in WXF it is
    // the middle one.
    assert!(matches!(
        parse_chinese(&three, "兵三平四"),
        Err(NotationError::Ambiguous { .. })
    ));

    let four = pos("4k4/6P2/6P2/6P2/6P2/9/9/9/9/3K5 w - - 0 1");
    check(&four, "g8f8", "一兵平四", "++.4");
    check(&four, "g7f7", "二兵平四", "P+.4");
    check(&four, "g6f6", "三兵平四", "P-.4");
    check(&four, "g5f5", "四兵平四", "--.4");
    // 前/后 also name the outermost of four.
    assert_eq!(parse_chinese(&four, "前兵平四"), Ok(mv(&four, "g8f8")));
    assert_eq!(parse_chinese(&four, "后兵平四"), Ok(mv(&four, "g5f5")));

    let five = pos("3k2P2/6P2/6P2/6P2/6P2/9/9/9/9/4K4 w - - 0 1");
    check(&five, "g9f9", "一兵平四", "++.4");
    check(&five, "g8f8", "二兵平四", "P+.4");
    check(&five, "g7f7", "三兵平四", "P3.4");
    check(&five, "g6f6", "四兵平四", "P-.4");
    check(&five, "g5f5", "五兵平四", "--.4");
    check(&five, "g9h9", "一兵平二", "++.2");
}

/// Three pawns on file 三 and two on file 七: the file replaces the piece name.
#[test]
fn two_files_of_tandem_pawns() {
    let p = pos("4k4/9/6P2/2P3P2/2P3P2/9/9/9/9/3K5 w - - 0 1");
    check(&p, "g7f7", "前三平四", "3+.4");
    check(&p, "g6f6", "中三平四", "33.4");
    check(&p, "g5f5", "后三平四", "3-.4");
    check(&p, "c6d6", "前七平六", "7+.6");
    check(&p, "c5d5", "后七平六", "7-.6");
    check(&p, "c6c7", "前七进一", "7++1");
    // 前兵 alone is ambiguous here; the five-character form and the computer
    // numbering across files (一兵 … 五兵, file by file from the right) are read.
    assert!(matches!(
        parse_chinese(&p, "前兵进一"),
        Err(NotationError::Ambiguous { .. })
    ));
    assert_eq!(parse_chinese(&p, "前兵七平六"), Ok(mv(&p, "c6d6")));
    assert_eq!(parse_chinese(&p, "二兵平四"), Ok(mv(&p, "g6f6")));
    assert_eq!(parse_chinese(&p, "四兵平六"), Ok(mv(&p, "c6d6")));

    // The same for Black: pawns on c3, c2 (Black's file ３, front = lower rank) and g4, g3.
    let b = pos("4k4/9/9/9/9/6p2/2p3p2/2p6/9/3K5 b - - 0 1");
    check(&b, "c2d2", "前３平４", "3+.4");
    check(&b, "c3b3", "后３平２", "3-.2");
    check(&b, "g3f3", "前７平６", "7+.6");
    check(&b, "g4h4", "后７平８", "7-.8");
}

#[test]
fn errors_are_typed() {
    let p = Position::startpos();
    assert_eq!(parse_chinese(&p, ""), Err(NotationError::Empty));
    assert_eq!(parse_wxf(&p, "   "), Err(NotationError::Empty));
    assert_eq!(parse_any(&p, ""), Err(NotationError::Empty));
    for bad in [
        "炮二",
        "炮二平五五五五",
        "兔二平五",
        "炮二跳五",
        "炮二平零",
        "前前平五",
    ] {
        assert!(
            matches!(parse_chinese(&p, bad), Err(NotationError::Syntax { .. })),
            "{bad}"
        );
    }
    for bad in [
        "C2.", "C2.0", "X2.5", "C2*5", "C0.5", "+-.5", "12.5", "é2.5",
    ] {
        assert!(
            matches!(parse_wxf(&p, bad), Err(NotationError::Syntax { .. })),
            "{bad}"
        );
    }
    // Well formed, but no such move: the cannon can't go to its own file, the rook
    // can't advance through the knight... is blocked by nothing here, so try nine.
    for none in ["炮二平二", "车九进九", "马八进八", "兵一进二", "相三进三"] {
        assert!(
            matches!(parse_chinese(&p, none), Err(NotationError::NoSuchMove(_))),
            "{none}"
        );
    }
    for none in ["C2.2", "R9+9", "H8+8", "P1+2"] {
        assert!(
            matches!(parse_wxf(&p, none), Err(NotationError::NoSuchMove(_))),
            "{none}"
        );
    }
    assert!(matches!(
        parse_iccs(&p, "h2h3h"),
        Err(NotationError::Syntax { .. })
    ));
    assert!(matches!(
        parse_iccs(&p, "a0a5"),
        Err(NotationError::NoSuchMove(_))
    ));
    // Errors print a message naming the text.
    let e = parse_chinese(&p, "兔二平五").unwrap_err();
    assert!(e.to_string().contains("兔二平五"));
}

// ---- round trips on many positions ----

/// Positions with many pawns, tandem pieces and both sides to move, to start
/// random games from besides the start position and the perft positions.
const TANDEM_FENS: [&str; 8] = [
    "3k2P2/6P2/6P2/6P2/6P2/9/9/9/9/4K4 w - - 0 1",
    "4k4/9/6P2/2P3P2/2P3P2/9/9/9/9/3K5 w - - 0 1",
    "4k4/9/9/9/9/6p2/2p3p2/2p6/9/3K5 b - - 0 1",
    "3r1k3/9/1c7/R1N6/3r5/2N6/R8/9/1c7/4K4 w - - 0 1",
    "3r1k3/9/1c7/R1N6/3r5/2N6/R8/9/1c7/4K4 b - - 0 1",
    "3k5/9/9/9/9/2B6/9/3A5/9/2BAK4 w - - 0 1",
    "4k4/9/9/9/4p4/4p4/4p4/4p4/9/3K5 b - - 0 1",
    "2bakab2/9/2n1c1n2/2R1p1R2/2p3p2/4P4/2P1P1P2/2N1C1N2/9/2BAKAB2 w - - 0 1",
];

/// Every legal move of `p` prints in both notations as text that parses back to
/// it, and the printed forms have the notations' shape. Returns the moves checked.
fn round_trip_all(p: &Position) -> usize {
    let moves = p.legal_moves();
    for &m in moves.as_slice() {
        let c = to_chinese(p, m);
        let w = to_wxf(p, m);
        assert_eq!(c.chars().count(), 4, "{c} for {m} in {}", p.to_fen());
        assert!(
            w.is_ascii() && w.len() == 4,
            "{w} for {m} in {}",
            p.to_fen()
        );
        assert_eq!(parse_chinese(p, &c), Ok(m), "{c} for {m} in {}", p.to_fen());
        assert_eq!(parse_wxf(p, &w), Ok(m), "{w} for {m} in {}", p.to_fen());
        assert_eq!(parse_any(p, &c), Ok(m));
        assert_eq!(parse_any(p, &w), Ok(m));
        assert_eq!(parse_iccs(p, &m.iccs()), Ok(m));
    }
    moves.len()
}

#[test]
fn round_trip_on_random_games() {
    let mut starts: Vec<String> = vec![rules::START_FEN.to_string()];
    starts.extend(perft_fens());
    starts.extend(TANDEM_FENS.iter().map(|s| s.to_string()));
    assert!(starts.len() >= 15, "perft positions missing");
    let mut rng = Rng::from_state(0x5111_2026);
    let (mut positions, mut moves) = (0usize, 0usize);
    for fen in &starts {
        for _game in 0..16 {
            let mut p = pos(fen);
            for _ply in 0..40 {
                moves += round_trip_all(&p);
                positions += 1;
                let legal = p.legal_moves();
                if legal.is_empty() {
                    break;
                }
                p.make_move(legal.as_slice()[rng.below_rem(legal.len())]);
            }
        }
    }
    assert!(positions > 5000, "only {positions} positions");
    assert!(moves > 100_000, "only {moves} moves");
}

/// Random boards with many like pieces on shared files (three to five pawns on a
/// file, two files of tandem pawns, doubled rooks, knights and cannons): every
/// legal move still round-trips.
#[test]
fn round_trip_on_crowded_files() {
    let mut rng = Rng::from_state(7);
    let mut tested = 0;
    let mut seen_five = false;
    let mut seen_two_files = false;
    for _ in 0..3000 {
        let Some(p) = random_crowded_position(&mut rng) else {
            continue;
        };
        round_trip_all(&p);
        tested += 1;
        for &m in p.legal_moves().as_slice() {
            let w = to_wxf(&p, m);
            seen_five |= w.starts_with("++") && to_chinese(&p, m).starts_with('一');
            seen_two_files |= w.as_bytes()[0].is_ascii_digit();
        }
    }
    assert!(tested > 500, "only {tested} valid random boards");
    assert!(seen_five && seen_two_files);
}

/// A board with the two kings, and for each side pawns crowded on one or two files
/// past the river plus doubled rooks, knights or cannons; `None` when the placement
/// is not a legal position (e.g. a side not to move in check).
fn random_crowded_position(rng: &mut Rng) -> Option<Position> {
    use rules::{Color, Piece, PieceKind, Setup, Square};
    let mut s = Setup::parse("9/9/9/9/9/9/9/9/9/9").ok()?;
    let put = |s: &mut Setup, p: Piece, sq: Square| {
        if s.board[sq.index()].is_none() {
            s.board[sq.index()] = Some(p);
        }
    };
    let rk = Square::new(3 + rng.below_rem(3) as u8, rng.below_rem(3) as u8);
    let bk = Square::new(3 + rng.below_rem(3) as u8, 7 + rng.below_rem(3) as u8);
    put(&mut s, Piece::new(Color::Red, PieceKind::King), rk);
    put(&mut s, Piece::new(Color::Black, PieceKind::King), bk);
    for color in Color::BOTH {
        // Pawns past the river: ranks 5..9 for Red, 0..4 for Black.
        let files = [rng.below_rem(9) as u8, rng.below_rem(9) as u8];
        let mut left = 5;
        for (i, &f) in files.iter().enumerate() {
            let k = if i == 0 { 2 + rng.below_rem(4) } else { left };
            for _ in 0..k.min(left) {
                let r = 5 + rng.below_rem(5) as u8;
                let rank = if color == Color::Red { r } else { 9 - r };
                let sq = Square::new(f, rank);
                if s.board[sq.index()].is_none() {
                    s.board[sq.index()] = Some(Piece::new(color, PieceKind::Pawn));
                    left -= 1;
                }
            }
        }
        for kind in [PieceKind::Rook, PieceKind::Knight, PieceKind::Cannon] {
            if rng.below_rem(2) == 0 {
                let f = rng.below_rem(9) as u8;
                for _ in 0..2 {
                    put(
                        &mut s,
                        Piece::new(color, kind),
                        Square::new(f, rng.below_rem(10) as u8),
                    );
                }
            }
        }
    }
    s.side = color(rng);
    Position::from_setup(&s).ok()
}

#[test]
fn lines_print_and_parse() {
    use rules::notation::{format_line, parse_line, Notation};
    let p = Position::startpos();
    let moves = parse_line(&p, "1. 炮二平五 马８进７ 2. 马二进三 车9平8 3、 h0? ").err();
    // "h0?" is not a move: the error names the fifth move.
    assert!(
        matches!(moves, Some((4, NotationError::Syntax { .. }))),
        "{moves:?}"
    );
    let moves = parse_line(&p, "1. 炮二平五 马８进７ 2. H2+3 i9h9 3... R1.2").expect("line");
    assert_eq!(moves.len(), 5);
    assert_eq!(
        format_line(&p, &moves, Notation::Chinese),
        ["炮二平五", "马８进７", "马二进三", "车９平８", "车一平二"]
    );
    assert_eq!(
        format_line(&p, &moves, Notation::Wxf),
        ["C2.5", "H8+7", "H2+3", "R9.8", "R1.2"]
    );
    assert_eq!(
        format_line(&p, &moves, Notation::Iccs),
        ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0"]
    );
    // A move that is not legal, and everything after it, prints as coordinates.
    let mut bad = moves.clone();
    bad.insert(1, Move::parse_iccs("a0a5").expect("syntax"));
    let printed = format_line(&p, &bad, Notation::Chinese);
    assert_eq!(printed[0], "炮二平五");
    assert_eq!(printed[1..], ["a0a5", "h9g7", "h0g2", "i9h9", "i0h0"]);
    // An illegal move in a line is an error at its index.
    assert!(matches!(
        parse_line(&p, "炮二平五 将五进二"),
        Err((1, NotationError::NoSuchMove(_)))
    ));
}
