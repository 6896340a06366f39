//! Positions the notation targets read moves in: the first input byte picks one.

use rules::Position;

const FENS: [&str; 10] = [
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 2 2",
    "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
    "1C2ka3/9/C1Nab1n2/p3p3p/6p2/9/P3P3P/3AB4/3p2c2/c1BAK4 w - - 0 1",
    "3k2P2/6P2/6P2/6P2/6P2/9/9/9/9/4K4 w - - 0 1",
    "4k4/9/6P2/2P3P2/2P3P2/9/9/9/9/3K5 w - - 0 1",
    "4k4/9/9/9/9/6p2/2p3p2/2p6/9/3K5 b - - 0 1",
    "3r1k3/9/1c7/R1N6/3r5/2N6/R8/9/1c7/4K4 w - - 0 1",
    "3r1k3/9/1c7/R1N6/3r5/2N6/R8/9/1c7/4K4 b - - 0 1",
    "4k4/9/9/9/4p4/4p4/4p4/4p4/9/3K5 b - - 0 1",
];

/// The position the first byte picks and the rest of the input as text.
pub fn split(data: &[u8]) -> Option<(Position, String)> {
    let (&first, rest) = data.split_first()?;
    let pos = Position::from_fen(FENS[first as usize % FENS.len()]).ok()?;
    Some((pos, String::from_utf8_lossy(rest).into_owned()))
}
