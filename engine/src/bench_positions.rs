//! The positions of `qili bench`: the initial position, positions from self-play
//! games after eight different openings (plies 10 to 100), and composed endgames.

/// Depth of `qili bench` when none is given.
pub const DEFAULT_DEPTH: u32 = 12;

pub const BENCH_FENS: &[&str] = &[
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "1rbakab1r/9/n1c3n2/p1p1p1p1p/9/P5Pc1/2P1P3P/N1C1C4/9/R1BAKABNR w - - 10 6",
    "2bakab1r/9/n1c3n2/p1p1p1p1p/9/c5P2/1rP1P3P/N1C1C1N2/8R/R1BAKAB2 w - - 10 12",
    "2baka3/8r/n2Cb1n2/p1p1p1p1p/9/2c3P2/1r2P3P/2c1C4/2N1N3R/R1BAKAB2 w - - 12 19",
    "r1baka2r/9/1cn1b1n2/p3p1C1p/2p6/2P6/P3P1P1P/9/9/RNBAKABNR w - - 1 6",
    "r1baka3/9/2n3n2/p3p1Crp/c1b3P2/5N3/P3P3P/2N6/9/R1BAKAB1R w - - 10 12",
    "r2akan2/9/2R1b4/p3p2rp/2b2c3/4PN3/P7P/2N5B/4A4/2BAK3R w - - 3 19",
    "4kan2/4a4/r3b4/p7R/2b1pNc2/9/r7P/4B3B/4A1N2/3AKR3 w - - 2 29",
    "4kN3/9/b2r1n3/p6R1/r1b1p4/9/8P/4B1R1B/4A1N2/3AK4 w - - 1 41",
    "5R3/4k4/b3rnN2/4R4/p1b6/6B2/8P/r3p3B/4A4/3AK3N w - - 21 51",
    "r1bakab2/8r/2n3nc1/p1p1p1pCp/9/2PN5/P3P1c1P/2C6/9/R1BAKABNR w - - 4 6",
    "1r1akab2/9/2n1b1n1c/p1N1p1CCp/9/2P1Prc2/P5N1P/9/9/R1BAKAB1R w - - 7 12",
    "3akab2/4n4/Nrn1b3c/p5C1p/5NcC1/4pr3/P7P/4B4/9/R2AKAB1R w - - 6 19",
    "3akab2/4n4/Nc2b4/p1R6/3n2c1p/4r4/P7P/4B4/1C2A4/3AK3R w - - 5 29",
    "rnbakab1r/9/2c1c1n2/p1p1p1p1p/9/9/P1P1P1P1P/2C1C1N2/2N6/R1BAKAB1R w - - 10 6",
    "2bakab2/9/n1c1c1n2/p1p1p1R1p/9/9/r1P1P1P1P/N2CC1N2/7r1/1RBAKAB2 w - - 4 12",
    "2bakab2/9/n1c1c4/p1p1n1R1p/3r5/9/2P1P1P1P/N8/3CA4/1RBK1AB2 w - - 0 19",
    "2b1ka3/4a4/4n1c2/p1p5p/4R4/1N2P4/1cP3P1P/4B4/C3A4/3K1AB2 w - - 13 29",
    "3R1a3/4k4/Cn1N5/9/8p/p3P4/2P3c1P/4B4/4A4/3K1AB2 w - - 1 41",
    "4k4/9/C8/9/2N1P3p/p1c6/3R4P/4B4/4A4/3K1AB2 w - - 1 51",
    "r1bakabnr/9/2n6/p3p1p1p/2p6/4PNPc1/PcP5P/1CC6/9/RNBAKAB1R w - - 10 6",
    "r1bakabN1/4n2r1/1c6n/p1P1p3p/9/4c1P2/P7P/1CC6/9/RNBAKAB1R w - - 5 12",
    "r1bakab1r/9/n3c1nc1/p1p1p3p/6p2/9/P1P1P1P1P/N1C3NC1/9/1RBAKAB1R w - - 10 6",
    "r1baka1r1/1R2n4/n3c3b/p1p1p1C1p/6p2/9/P1P1P1P1P/N1C2cN2/8R/2BAKAB2 w - - 22 12",
    "r1baka3/4n4/nR6b/p1C2r2p/4p1p2/8P/P1P2cP2/N1C2Ac2/5R3/2BK1AB2 w - - 2 19",
    "2baka3/4n4/n7b/p7p/4p4/2C1r3P/c1P4p1/B1C1B4/4A1R2/4KA3 w - - 6 29",
    "3ak4/4a4/4b3b/1Rn5p/9/1cCn4P/2P2r1p1/B3B4/4A4/C3KA3 w - - 7 41",
    "4k4/4a4/C2a4b/8R/9/3n4P/2P1r2p1/4B4/4A4/2B1KA3 w - - 3 51",
    "r1baka1n1/9/2n1b1c1r/p1p1p1p1p/9/9/P1P1P1P1P/C1N3N2/1c5C1/R1BAKAB1R w - - 10 6",
    "2baka1n1/9/2n1b1c2/p1p1p1p1p/9/6B2/P1P1P1P1P/CrN6/1c6C/R1BAKA1N1 w - - 1 12",
    "2baka3/9/2n1b1n1c/p1p1p3p/6p2/4P3P/P1Pc2P2/C6rN/4A3C/RNB1KAB2 w - - 15 19",
    "3aka3/9/b1n1b3c/p7p/2P2nr2/3cp3P/P8/2N1B3N/2C1A4/R3KAB1C w - - 1 29",
    "2baka3/9/4b3c/P2R4p/9/P4n1NP/8r/2n1B4/3CA4/4KA2C w - - 5 41",
    "rnbakab2/9/1c2c1n2/p1p1p1p1p/9/6P2/P1P1P1r1P/2C1B1N2/9/RN1AKABCR w - - 10 6",
    "rn1akab2/9/3cb1n2/p1Crp1p1p/9/6P2/P1P5P/4B3R/R8/1N1AKABC1 w - - 7 12",
    "r2akab2/9/3cb1n2/p5p1p/4p4/2C1n1P2/P3R3P/2N1B2CR/3r5/3AKAB2 w - - 8 19",
    "3akab2/9/4b4/4r1p1p/p8/2B3P2/P7P/2c5R/4A4/4KAB2 w - - 0 29",
    "3ak1b2/4a4/4b4/5r2p/3R5/9/9/4B4/4A4/4KAB2 w - - 6 41",
    "3ak1b2/4a4/4b4/4r3p/9/9/8R/4B4/4A4/2B1KA3 w - - 26 51",
    "4ka3/4a4/9/9/9/9/9/9/9/4K3R w - - 0 1",
    "3ak4/9/9/9/4P4/9/9/9/9/3K2N2 w - - 0 1",
    "2b1k4/9/9/9/9/9/9/9/4A4/3AKC3 w - - 0 1",
    "5k3/9/9/9/9/9/9/4r4/9/3K2RC1 w - - 0 1",
    "4k4/9/9/2p3p2/9/9/4P4/9/9/4K4 w - - 0 1",
    "3k5/4a4/5a3/9/9/6p2/9/4N4/9/4K4 w - - 0 1",
    "2bak4/4a4/4b4/9/2r6/9/6R2/4B4/4A4/2BAK1R2 b - - 0 1",
    "3k5/9/3a5/9/9/9/9/3AB4/4A4/4KC3 b - - 0 1",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bench_positions_are_valid_and_distinct() {
        assert!(
            (30..=50).contains(&BENCH_FENS.len()),
            "{}",
            BENCH_FENS.len()
        );
        let mut keys = std::collections::HashSet::new();
        for fen in BENCH_FENS {
            let pos = rules::Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
            assert!(pos.has_legal_move(), "{fen}");
            assert!(keys.insert(pos.key()), "duplicate {fen}");
        }
    }
}
