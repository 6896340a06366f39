//! The prover's table: what is known of each position, by Zobrist key.
//!
//! Open addressing with linear probing in one flat array that doubles when half
//! full. Why not `std::collections::HashMap`: a proof visits millions of positions,
//! so nearly every lookup misses the cache, and a defence node looks up every
//! reply's child one after the other. Here the node first prefetches the slots of
//! all its children and then reads them, so the misses overlap (on the suite's
//! slowest mates the map's probe was two thirds of the defence node's time).

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
}

const FIRST_CAPACITY: usize = 1 << 12;

#[inline(always)]
fn stored(key: u64) -> u64 {
    key.max(1)
}

impl Table {
    pub(super) fn new() -> Table {
        Table {
            slots: vec![Slot::default(); FIRST_CAPACITY],
            len: 0,
        }
    }

    pub(super) fn len(&self) -> usize {
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

    /// The entry of `key`, made (empty) if there is none.
    #[inline]
    pub(super) fn entry(&mut self, key: u64) -> &mut Known {
        if 2 * (self.len + 1) > self.slots.len() {
            self.grow();
        }
        let key = stored(key);
        let mask = self.slots.len() - 1;
        let mut i = self.home(key);
        loop {
            let k = self.slots[i].key;
            if k == key {
                return &mut self.slots[i].known;
            }
            if k == 0 {
                self.slots[i].key = key;
                self.len += 1;
                return &mut self.slots[i].known;
            }
            i = (i + 1) & mask;
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
        let mut t = Table::new();
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
}
