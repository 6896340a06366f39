//! Zobrist keys, generated at compile time from a fixed seed so that hashes are
//! identical on every build (the hash table and the bench signature depend on it).

use crate::rng::Rng;

const fn make_keys() -> ([[u64; 90]; 14], u64) {
    let mut t = [[0u64; 90]; 14];
    let mut rng = Rng::from_state(0x5149_4c49); // "QILI"
    let mut p = 0;
    while p < 14 {
        let mut s = 0;
        while s < 90 {
            t[p][s] = rng.next_u64();
            s += 1;
        }
        p += 1;
    }
    let side = rng.next_u64();
    (t, side)
}

const KEYS: ([[u64; 90]; 14], u64) = make_keys();

/// Key of a piece (index colour*7+kind) on a point.
pub static PIECE_SQUARE: [[u64; 90]; 14] = KEYS.0;

/// Xored in when Black is to move.
pub const BLACK_TO_MOVE: u64 = KEYS.1;

/// Summed (wrapping) over every piece for the material key: counts of each kind
/// map to distinct sums in practice. From its own seed, so the position keys
/// above (and the hash table, and the bench signature) do not change.
pub static MATERIAL: [u64; 14] = {
    let mut t = [0u64; 14];
    let mut rng = Rng::from_state(0x4d41_5445_5249_414c); // "MATERIAL"
    let mut p = 0;
    while p < 14 {
        t[p] = rng.next_u64();
        p += 1;
    }
    t
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_pinned() {
        // Hash-table contents, book files' start key and the bench signature all
        // follow from these.
        assert_eq!(PIECE_SQUARE[0][0], 0xc941_47bd_44a4_f3cd);
        assert_eq!(PIECE_SQUARE[13][89], 0x03d2_8bd4_3a3e_c853);
        assert_eq!(BLACK_TO_MOVE, 0xb4d9_4a26_546c_d067);
        assert_eq!(MATERIAL[0], 0x7217_8d37_9cd6_14bc);
        assert_eq!(MATERIAL[13], 0x4df8_2c75_0bda_4da0);
    }
}
