//! Material output buckets: which output head scores a position.
//!
//! A net has `buckets` output heads (1 to `MAX_BUCKETS`) on one shared hidden layer.
//! The head is picked by the number of pieces on the board, kings included: the 31
//! counts 2..=32 are cut into `buckets` runs of nearly equal length, fewest pieces in
//! head 0 and the full board in the last head. With one bucket every position uses
//! head 0 (architecture 1). Inference, the float reference and the trainer all call
//! `bucket`, so they cannot disagree.

/// Most output heads a net may have (the file loader rejects more).
pub const MAX_BUCKETS: usize = 16;

/// The fewest and the most pieces a legal position holds.
pub const MIN_PIECES: u32 = 2;
pub const MAX_PIECES: u32 = 32;

/// Output head for a position with `pieces` pieces on the board in a net with
/// `buckets` heads: `(pieces − 2) · buckets / 31`, clamped to the heads that exist
/// (so a count outside 2..=32, which no legal position has, still picks a head).
/// Monotone in `pieces`; for `buckets` ≤ 31 every head gets at least one count
/// (8 heads: 2–5, 6–9, 10–13, 14–17, 18–21, 22–25, 26–29, 30–32 pieces).
#[inline(always)]
pub fn bucket(pieces: u32, buckets: usize) -> usize {
    let span = (MAX_PIECES - MIN_PIECES + 1) as usize;
    let p = pieces.saturating_sub(MIN_PIECES) as usize;
    (p * buckets / span).min(buckets.saturating_sub(1))
}

/// The piece counts (kings included) that output head `head` of a `buckets`-head net
/// scores, as `(fewest, most)` within `MIN_PIECES..=MAX_PIECES`; `None` for a head
/// that no count picks (one beyond the last).
pub fn piece_range(head: usize, buckets: usize) -> Option<(u32, u32)> {
    let mut counts = (MIN_PIECES..=MAX_PIECES).filter(|&p| bucket(p, buckets) == head);
    let fewest = counts.next()?;
    Some((fewest, counts.next_back().unwrap_or(fewest)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn piece_ranges_tile_2_to_32() {
        assert_eq!(piece_range(0, 8), Some((2, 5)));
        assert_eq!(piece_range(6, 8), Some((26, 29)));
        assert_eq!(piece_range(7, 8), Some((30, 32)));
        assert_eq!(piece_range(8, 8), None);
        assert_eq!(piece_range(0, 1), Some((2, 32)));
        for buckets in 1..=MAX_BUCKETS {
            let mut next = MIN_PIECES;
            for head in 0..buckets {
                let (lo, hi) = piece_range(head, buckets).expect("every head is used");
                assert_eq!(lo, next, "{buckets} heads, head {head}");
                next = hi + 1;
            }
            assert_eq!(next, MAX_PIECES + 1);
        }
    }

    #[test]
    fn mapping_is_monotone_and_uses_every_head_from_2_to_32_pieces() {
        for buckets in 1..=MAX_BUCKETS {
            let heads: Vec<usize> = (MIN_PIECES..=MAX_PIECES)
                .map(|p| bucket(p, buckets))
                .collect();
            assert_eq!(heads[0], 0, "{buckets} heads");
            assert_eq!(*heads.last().unwrap_or(&99), buckets - 1, "{buckets} heads");
            for w in heads.windows(2) {
                assert!(
                    w[1] == w[0] || w[1] == w[0] + 1,
                    "{buckets} heads: {heads:?}"
                );
            }
            // Nearly equal runs: no head gets more than one count above another.
            let mut sizes = vec![0usize; buckets];
            heads.iter().for_each(|&h| sizes[h] += 1);
            let (lo, hi) = (sizes.iter().min(), sizes.iter().max());
            assert!(
                hi.zip(lo).is_some_and(|(h, l)| h - l <= 1 && *l >= 1),
                "{sizes:?}"
            );
        }
        // Counts no legal position has still pick an existing head.
        assert_eq!(bucket(0, 8), 0);
        assert_eq!(bucket(90, 8), 7);
        assert_eq!(bucket(40, 1), 0);
        // The documented 8-head runs.
        let runs: Vec<usize> = [2, 5, 6, 9, 10, 29, 30, 32].map(|p| bucket(p, 8)).to_vec();
        assert_eq!(runs, [0, 0, 1, 1, 2, 6, 7, 7]);
    }
}
