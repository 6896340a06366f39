//! The points each piece may stand on: in a position a game can reach, and in a
//! playable one (composed studies included).

use super::in_palace;

/// Points that a piece could legally stand on, by piece index (colour*7+kind).
pub static LEGAL_POINTS: [u128; 14] = {
    let mut t = [0u128; 14];
    let mut c = 0;
    while c < 2 {
        let mut s = 0usize;
        while s < 90 {
            let (f, r) = ((s % 9) as i32, (s / 9) as i32);
            // Rank seen from this colour's own back rank.
            let rr = if c == 0 { r } else { 9 - r };
            let b = 1u128 << s;
            if in_palace(f, rr) && rr <= 2 {
                t[c * 7] |= b;
            }
            if rr <= 2 && in_palace(f, rr) && ((f == 4) == (rr == 1)) {
                t[c * 7 + 1] |= b;
            }
            if (rr == 0 || rr == 4) && (f == 2 || f == 6) || rr == 2 && (f == 0 || f == 4 || f == 8)
            {
                t[c * 7 + 2] |= b;
            }
            t[c * 7 + 3] |= b;
            t[c * 7 + 4] |= b;
            t[c * 7 + 5] |= b;
            if rr >= 5 || (rr == 3 || rr == 4) && f % 2 == 0 {
                t[c * 7 + 6] |= b;
            }
            s += 1;
        }
        c += 1;
    }
    t
};

/// Points a piece may stand on in a *playable* position, by piece index: kings and
/// advisors anywhere in their own palace, elephants anywhere on their own side of
/// the river, every other piece anywhere. Composed studies (排局) put advisors,
/// elephants and pawns on points no game reaches; move generation and evaluation
/// work on all of these (the attack tables are computed for every point).
pub static PLAYABLE_POINTS: [u128; 14] = {
    let mut t = [0u128; 14];
    let mut c = 0;
    while c < 2 {
        let mut s = 0usize;
        while s < 90 {
            let (f, r) = ((s % 9) as i32, (s / 9) as i32);
            let rr = if c == 0 { r } else { 9 - r };
            let b = 1u128 << s;
            if in_palace(f, rr) && rr <= 2 {
                t[c * 7] |= b;
                t[c * 7 + 1] |= b;
            }
            if rr <= 4 {
                t[c * 7 + 2] |= b;
            }
            t[c * 7 + 3] |= b;
            t[c * 7 + 4] |= b;
            t[c * 7 + 5] |= b;
            t[c * 7 + 6] |= b;
            s += 1;
        }
        c += 1;
    }
    t
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bitboard::Bitboard;
    use crate::types::Square;

    fn s(t: &str) -> Square {
        Square::parse_iccs(t).unwrap()
    }

    #[test]
    fn legal_points() {
        assert_eq!(Bitboard(PLAYABLE_POINTS[0]).count(), 9);
        assert_eq!(Bitboard(PLAYABLE_POINTS[1]).count(), 9);
        assert_eq!(Bitboard(PLAYABLE_POINTS[9]).count(), 45); // black elephant
        assert_eq!(Bitboard(PLAYABLE_POINTS[13]).count(), 90);
        for i in 0..14 {
            assert_eq!(LEGAL_POINTS[i] & !PLAYABLE_POINTS[i], 0, "piece {i}");
        }
        assert_eq!(Bitboard(LEGAL_POINTS[2]).count(), 7); // red elephant
        assert_eq!(Bitboard(LEGAL_POINTS[1]).count(), 5); // red advisor
        assert_eq!(Bitboard(LEGAL_POINTS[0]).count(), 9);
        assert_eq!(Bitboard(LEGAL_POINTS[6]).count(), 45 + 10);
        assert!(Bitboard(LEGAL_POINTS[9]).has(s("c9")));
        assert!(Bitboard(LEGAL_POINTS[13]).has(s("a6")));
        assert!(!Bitboard(LEGAL_POINTS[13]).has(s("b6")));
    }
}
