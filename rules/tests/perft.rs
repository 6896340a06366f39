//! Leaf counts against the reference table `data/perft.tsv` (the repository's copy
//! of the project's perft reference): depths 1-4 of every position, depth 5 of the start
//! position; depth 5 of the others is opt-in (`cargo test -- --ignored`).

use rules::perft::perft;
use rules::Position;

/// (FEN, counts for depths 1..=5) of row `row` of the table (0 = start position).
fn reference(row: usize) -> (String, Vec<u64>) {
    let line = include_str!("data/perft.tsv")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("fen\t") && !l.trim().is_empty())
        .nth(row)
        .unwrap_or_else(|| panic!("perft.tsv has no row {row}"));
    let mut fields = line.split('\t');
    let fen = fields.next().unwrap_or_default().to_string();
    let counts: Vec<u64> = fields
        .map(|f| {
            f.trim()
                .parse()
                .unwrap_or_else(|_| panic!("bad count {f:?}"))
        })
        .collect();
    assert_eq!(counts.len(), 5, "row {row} must have depths 1-5");
    (fen, counts)
}

fn check(row: usize, depths: std::ops::RangeInclusive<u32>) {
    let (fen, counts) = reference(row);
    let mut pos = Position::from_fen(&fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    for d in depths {
        let n = perft(&mut pos, d, true);
        assert_eq!(n, counts[d as usize - 1], "perft({d}) of {fen}");
        assert_eq!(
            pos.to_fen(),
            fen,
            "perft must leave the position as it found it"
        );
    }
}

#[test]
fn table_has_the_start_position_first() {
    assert_eq!(reference(0).0, rules::START_FEN);
    assert_eq!(reference(6).1[0], 30);
}

#[test]
fn start_depth_1_to_4() {
    check(0, 1..=4);
}

#[test]
fn start_depth_5() {
    check(0, 5..=5);
}

macro_rules! perft_rows {
    ($($shallow:ident, $deep:ident, $row:expr;)*) => {$(
        #[test]
        fn $shallow() {
            check($row, 1..=4);
        }
        #[test]
        #[ignore = "long: depth 5 of a middlegame position"]
        fn $deep() {
            check($row, 5..=5);
        }
    )*};
}

perft_rows! {
    position_1_depth_1_to_4, position_1_depth_5, 1;
    position_2_depth_1_to_4, position_2_depth_5, 2;
    position_3_depth_1_to_4, position_3_depth_5, 3;
    position_4_depth_1_to_4, position_4_depth_5, 4;
    position_5_depth_1_to_4, position_5_depth_5, 5;
    position_6_depth_1_to_4, position_6_depth_5, 6;
}

/// Counting the last ply from the move list (bulk) and playing every leaf agree.
#[test]
fn bulk_and_played_leaves_agree() {
    for row in 0..7 {
        let (fen, counts) = reference(row);
        let mut pos = Position::from_fen(&fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        assert_eq!(perft(&mut pos, 3, false), counts[2], "{fen}");
        assert_eq!(perft(&mut pos, 3, true), counts[2], "{fen}");
    }
}
