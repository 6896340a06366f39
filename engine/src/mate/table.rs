//! The prover's table: what is known of each position, by Zobrist key.
//!
//! Open addressing with linear probing in one flat array that doubles when half
//! full. Why not `std::collections::HashMap`: a proof visits millions of positions,
//! so nearly every lookup misses the cache, and a defence node looks up every
//! reply's child one after the other. Here the node first prefetches the slots of
//! all its children and then reads them, so the misses overlap (on the suite's
//! slowest mates the map's probe was two thirds of the defence node's time).
//!
//! The table is bounded: once it holds its most entries it stops growing and a
//! new key takes the place of the cheapest entry among the first slots of its
//! probe run (the one proved with the fewest moves, the quickest to prove
//! again). A slot is never emptied, so every other key's probe run stays
//! whole; what is evicted is only proved again when met. (A prover that
//! stopped at a full table could not finish a proof larger than the table:
//! beside the search, M6-150 of the mate suite needs more than a million
//! positions.)

use super::Known;

#[derive(Clone, Copy, Default)]
struct Slot {
    /// The position's key, never 0 (0 marks an empty slot; a key of 0 is stored
    /// as 1, one more 64-bit collision of the kind every key table accepts).
    key: u64,
    known: Known,
}

pub(super) struct Table {
    slots: Vec<Slot>,
    len: usize,
    /// Entries at most; past it new keys evict old ones.
    max: usize,
    /// Where a key that cannot be kept is written.
    discard: Known,
}

/// How many slots of a probe run, from the key's home, an evicting key looks
/// at for the cheapest entry to replace.
const EVICTION_WINDOW: usize = 4;

const FIRST_CAPACITY: usize = 1 << 12;

#[inline(always)]
fn stored(key: u64) -> u64 {
    key.max(1)
}

impl Table {
    /// A table of at most `max` entries (at least one).
    pub(super) fn new(max: usize) -> Table {
        Table {
            slots: vec![Slot::default(); FIRST_CAPACITY],
            len: 0,
            max: max.max(1),
            discard: Known::default(),
        }
    }

    /// Lower or raise the most entries kept (those already in stay).
    pub(super) fn set_max(&mut self, max: usize) {
        self.max = max.max(1);
    }

    #[cfg(test)]
    fn len(&self) -> usize {
        self.len
    }

    #[inline(always)]
    fn home(&self, key: u64) -> usize {
        // Zobrist keys are uniform: the low bits are as good an index as any.
        key as usize & (self.slots.len() - 1)
    }

    /// Start loading the slot where `key` would be found.
    #[inline(always)]
    pub(super) fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let p = &self.slots[self.home(stored(key))] as *const Slot as *const i8;
            // SAFETY: a prefetch never faults, and `p` points into the table anyway.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(p) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// What is known of `key` (nothing: the default).
    #[inline]
    pub(super) fn get(&self, key: u64) -> Known {
        let key = stored(key);
        let mask = self.slots.len() - 1;
        let mut i = self.home(key);
        loop {
            let s = &self.slots[i];
            if s.key == key {
                return s.known;
            }
            if s.key == 0 {
                return Known::default();
            }
            i = (i + 1) & mask;
        }
    }

    /// The entry of `key`, made (empty) if there is none; when the table is at
    /// its most entries, made in place of the cheapest one near its home.
    #[inline]
    pub(super) fn entry(&mut self, key: u64) -> &mut Known {
        let full = self.len >= self.max;
        if !full && 2 * (self.len + 1) > self.slots.len() {
            self.grow();
        }
        let key = stored(key);
        let mask = self.slots.len() - 1;
        let home = self.home(key);
        let mut i = home;
        loop {
            let k = self.slots[i].key;
            if k == key {
                return &mut self.slots[i].known;
            }
            if k == 0 && !full {
                self.slots[i].key = key;
                self.len += 1;
                return &mut self.slots[i].known;
            }
            if k == 0 {
                // Full, and the key is absent: it takes an occupied slot of its
                // run instead (one before the empty slot, or lookups would stop
                // short of it).
                break;
            }
            i = (i + 1) & mask;
        }
        let mut victim = None;
        let mut cheapest = u8::MAX;
        for j in 0..EVICTION_WINDOW {
            let at = (home + j) & mask;
            let s = &self.slots[at];
            if s.key == 0 {
                break;
            }
            let worth = s.known.no_mate_upto.max(s.known.mate_within);
            if worth < cheapest {
                (victim, cheapest) = (Some(at), worth);
            }
        }
        match victim {
            Some(at) => {
                self.slots[at] = Slot {
                    key,
                    known: Known::default(),
                };
                &mut self.slots[at].known
            }
            None => {
                // Its home slot is empty: filling it would take the table past
                // its most entries, so the key is not kept (written to a slot
                // nobody reads).
                self.discard = Known::default();
                &mut self.discard
            }
        }
    }

    fn grow(&mut self) {
        let bigger = vec![Slot::default(); 2 * self.slots.len()];
        let old = std::mem::replace(&mut self.slots, bigger);
        let mask = self.slots.len() - 1;
        for s in old.into_iter().filter(|s| s.key != 0) {
            let mut i = self.home(s.key);
            while self.slots[i].key != 0 {
                i = (i + 1) & mask;
            }
            self.slots[i] = s;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rules::Move;
    use std::collections::HashMap;

    /// The table answers exactly as a map does through many growths, for keys
    /// that share their low bits (long probe runs) and the key 0.
    #[test]
    fn agrees_with_a_map() {
        let mut t = Table::new(usize::MAX);
        let mut m: HashMap<u64, (u8, u8, u16)> = HashMap::new();
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for i in 0..200_000u64 {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            // Every fourth key shares its low 16 bits with others.
            let key = match i % 4 {
                0 => x & !0xffff,
                _ => x >> (i % 3),
            };
            let key = if i == 1000 { 0 } else { key };
            let e = t.entry(key);
            e.no_mate_upto = e.no_mate_upto.max((i % 7) as u8);
            e.mate_within = (i % 5) as u8;
            e.best = Move((i % 8000) as u16);
            let v = m.entry(key.max(1)).or_default();
            v.0 = v.0.max((i % 7) as u8);
            v.1 = (i % 5) as u8;
            v.2 = (i % 8000) as u16;
        }
        assert_eq!(t.len(), m.len());
        for (&k, &(a, b, c)) in &m {
            let got = t.get(k);
            assert_eq!(
                (got.no_mate_upto, got.mate_within, got.best),
                (a, b, Move(c))
            );
        }
        assert_eq!(t.get(12345).mate_within, 0, "an absent key is unknown");
    }

    /// A full table keeps its size and does not grow: a new key is kept exactly
    /// when its home slot is taken (it evicts an entry of its run), and the
    /// entries proved with fewer moves go first.
    #[test]
    fn a_full_table_evicts_the_cheapest_entry() {
        let max = 1000;
        let mut t = Table::new(max);
        let mut x = 0x2545_f491_4f6c_dd1du64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let mut keys = Vec::new();
        for i in 0..max {
            let k = next();
            t.entry(k).no_mate_upto = 1 + (i % 9) as u8;
            keys.push(k);
        }
        assert_eq!(t.len(), max);
        let slots = t.slots.len();
        let mut evicted = 0;
        let mut kept = 0;
        for _ in 0..5000 {
            let k = next();
            let home_taken = t.slots[t.home(stored(k))].key != 0;
            t.entry(k).mate_within = 12;
            // Kept exactly when its home slot was taken (it replaces an entry
            // of its run); never kept wrongly, and read back as written.
            let got = t.get(k).mate_within;
            assert!(got == 12 || got == 0, "{got}");
            assert_eq!(got == 12, home_taken);
            kept += (got == 12) as usize;
            assert_eq!(t.len(), max, "a full table keeps its size");
            assert_eq!(t.slots.len(), slots, "a full table does not grow");
        }
        assert!(kept > 1000, "{kept} of 5000 new keys kept");
        for &k in &keys {
            if t.get(k).no_mate_upto == 0 {
                evicted += 1;
            }
        }
        assert!(evicted > 0 && evicted < max, "{evicted} evicted");
        // The cheap entries went first: of the old keys proved with one move,
        // fewer are left than of those proved with nine.
        let left = |worth: u8| {
            keys.iter()
                .enumerate()
                .filter(|&(i, &k)| 1 + (i % 9) as u8 == worth && t.get(k).no_mate_upto > 0)
                .count()
        };
        assert!(
            left(1) < left(9),
            "{} of worth 1, {} of worth 9",
            left(1),
            left(9)
        );
        assert_eq!(
            t.slots.iter().filter(|s| s.key == 0).count(),
            slots - t.len()
        );
    }
}
