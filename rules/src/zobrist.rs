//! Zobrist keys, generated at compile time from a fixed seed so that hashes are
//! identical on every build (the hash table and the bench signature depend on it).

const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

const fn make_keys() -> ([[u64; 90]; 14], u64) {
    let mut t = [[0u64; 90]; 14];
    let mut st = 0x5149_4c49_u64; // "QILI"
    let mut p = 0;
    while p < 14 {
        let mut s = 0;
        while s < 90 {
            let (n, v) = splitmix(st);
            st = n;
            t[p][s] = v;
            s += 1;
        }
        p += 1;
    }
    let (_, side) = splitmix(st);
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
    let mut st = 0x4d41_5445_5249_414c_u64; // "MATERIAL"
    let mut p = 0;
    while p < 14 {
        let (n, v) = splitmix(st);
        st = n;
        t[p] = v;
        p += 1;
    }
    t
};
