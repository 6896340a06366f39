//! The shared transposition table: lock-free, each entry two atomic words, the
//! check word being `key ^ data` so that an entry torn by two writers racing (or
//! one that belongs to another position) simply fails to match. A matching entry's
//! move is still only a suggestion: search checks it with `Position::is_legal`.
//!
//! Four entries share a 64-byte bucket; replacement prefers the entry of the same
//! position, then the shallowest and oldest one (ageing by a 5-bit generation).

use rules::Move;
use std::alloc::{alloc, dealloc, handle_alloc_error, Layout};
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// Only the move (and static eval) is usable: the score was path-dependent.
    None = 0,
    Upper = 1,
    Lower = 2,
    Exact = 3,
}

impl Bound {
    fn from_bits(b: u64) -> Bound {
        match b & 3 {
            1 => Bound::Upper,
            2 => Bound::Lower,
            3 => Bound::Exact,
            _ => Bound::None,
        }
    }
}

/// What a probe returns. `score` is node-relative (see `score::from_tt`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TtHit {
    pub mv: Move,
    pub score: i32,
    pub eval: i32,
    pub depth: i32,
    pub bound: Bound,
}

/// Depths are stored with this offset so that quiescence depths (down to -7) fit a byte.
const DEPTH_OFFSET: i32 = 8;
const VALID: u64 = 1 << 2;
const GEN_BITS: u32 = 5;
const GEN_MASK: u8 = (1 << GEN_BITS) - 1;

#[derive(Default)]
struct Entry {
    check: AtomicU64,
    data: AtomicU64,
}

#[repr(align(64))]
#[derive(Default)]
struct Bucket {
    entries: [Entry; 4],
}

/// The buckets, in memory aligned to 2 MiB and (on Linux) marked for transparent huge
/// pages: search touches the table at random at every node, and with 4 KiB pages
/// nearly every probe also misses the TLB.
struct BucketArray {
    ptr: std::ptr::NonNull<Bucket>,
    len: usize,
}

const HUGE_PAGE: usize = 2 << 20;

impl BucketArray {
    fn layout(len: usize) -> Option<Layout> {
        let bytes = len.checked_mul(std::mem::size_of::<Bucket>())?;
        let align = if bytes >= HUGE_PAGE { HUGE_PAGE } else { 64 };
        Layout::from_size_align(bytes, align).ok()
    }

    /// `len` zeroed buckets (`len > 0`), or `None` when the allocation fails.
    fn new(len: usize) -> Option<BucketArray> {
        let layout = BucketArray::layout(len)?;
        // SAFETY: the layout has a non-zero size (len > 0, buckets are 64 bytes).
        let raw = unsafe { alloc(layout) };
        let ptr = std::ptr::NonNull::new(raw as *mut Bucket)?;
        advise_huge_pages(raw, layout.size());
        // SAFETY: `raw` is valid for `layout.size()` bytes, and all-zero bytes are valid
        // buckets (atomics of zero). The zeroing is the first touch of the pages, so it
        // happens after the huge-page advice.
        unsafe { std::ptr::write_bytes(raw, 0, layout.size()) };
        Some(BucketArray { ptr, len })
    }
}

impl std::ops::Deref for BucketArray {
    type Target = [Bucket];
    #[inline(always)]
    fn deref(&self) -> &[Bucket] {
        // SAFETY: `ptr` holds `len` initialised buckets for the life of `self`.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl Drop for BucketArray {
    fn drop(&mut self) {
        if let Some(layout) = BucketArray::layout(self.len) {
            // SAFETY: allocated in `new` with this very layout.
            unsafe { dealloc(self.ptr.as_ptr() as *mut u8, layout) };
        }
    }
}

// SAFETY: the array owns its buckets, which are made of atomics (Send and Sync).
unsafe impl Send for BucketArray {}
// SAFETY: as above.
unsafe impl Sync for BucketArray {}

/// `madvise(MADV_HUGEPAGE)` on the table (Linux). Only a hint: when the kernel
/// refuses, the table works on small pages.
#[cfg(target_os = "linux")]
fn advise_huge_pages(ptr: *mut u8, len: usize) {
    if len < HUGE_PAGE {
        return;
    }
    // SAFETY: madvise only changes how the kernel backs our own mapping (`ptr` is
    // the start of an allocation of `len` bytes, aligned to the huge page); it reads
    // and writes no memory, and its failure (a return value of -1) is harmless.
    let _ = unsafe { libc::madvise(ptr.cast::<libc::c_void>(), len, libc::MADV_HUGEPAGE) };
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_ptr: *mut u8, _len: usize) {}

pub struct TranspositionTable {
    buckets: BucketArray,
    generation: AtomicU8,
}

#[inline(always)]
fn pack(mv: Move, score: i32, eval: i32, depth: i32, bound: Bound, generation: u8) -> u64 {
    let d = (depth + DEPTH_OFFSET).clamp(0, 255) as u64;
    mv.0 as u64
        | ((score as i16 as u16 as u64) << 16)
        | ((eval as i16 as u16 as u64) << 32)
        | (d << 48)
        | ((VALID | bound as u64) << 56)
        | ((generation as u64) << 59)
}

#[inline(always)]
fn unpack(d: u64) -> TtHit {
    TtHit {
        mv: Move(d as u16),
        score: (d >> 16) as u16 as i16 as i32,
        eval: (d >> 32) as u16 as i16 as i32,
        depth: ((d >> 48) & 0xff) as i32 - DEPTH_OFFSET,
        bound: Bound::from_bits(d >> 56),
    }
}

#[inline(always)]
fn generation_of(d: u64) -> u8 {
    (d >> 59) as u8 & GEN_MASK
}

#[inline(always)]
fn stored_depth(d: u64) -> i32 {
    ((d >> 48) & 0xff) as i32
}

impl TranspositionTable {
    pub fn new(mb: usize) -> TranspositionTable {
        let bytes = mb.max(1).saturating_mul(1 << 20);
        let mut n = (bytes / std::mem::size_of::<Bucket>()).max(1);
        // A request the machine cannot satisfy gets the largest table it can, not an abort.
        let buckets = loop {
            match BucketArray::new(n) {
                Some(b) => break b,
                None if n > 1 => n /= 2,
                None => handle_alloc_error(Layout::new::<Bucket>()),
            }
        };
        TranspositionTable {
            buckets,
            generation: AtomicU8::new(0),
        }
    }

    pub fn size_mb(&self) -> usize {
        (self.buckets.len() * std::mem::size_of::<Bucket>()) >> 20
    }

    pub fn clear(&self) {
        for b in self.buckets.iter() {
            for e in &b.entries {
                e.check.store(0, Ordering::Relaxed);
                e.data.store(0, Ordering::Relaxed);
            }
        }
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Start of a new search: older entries become the first to be replaced.
    pub fn new_search(&self) {
        let g = self.generation.load(Ordering::Relaxed);
        self.generation
            .store(g.wrapping_add(1) & GEN_MASK, Ordering::Relaxed);
    }

    #[inline(always)]
    fn bucket(&self, key: u64) -> &Bucket {
        let i = ((key as u128 * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets[i]
    }

    /// Start loading the bucket of `key` into the cache (a hint; no effect on results).
    /// Called when a move is about to be made, so the child's probe finds it there.
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let p = self.bucket(key) as *const Bucket as *const i8;
            // SAFETY: a prefetch never faults, and `p` points into the table anyway.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(p) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    #[inline]
    pub fn probe(&self, key: u64) -> Option<TtHit> {
        for e in &self.bucket(key).entries {
            let d = e.data.load(Ordering::Relaxed);
            let c = e.check.load(Ordering::Relaxed);
            if c ^ d == key && d & (VALID << 56) != 0 {
                return Some(unpack(d));
            }
        }
        None
    }

    /// Store a result; `score` must already be node-relative (`score::to_tt`).
    #[inline]
    pub fn store(&self, key: u64, mv: Move, score: i32, eval: i32, depth: i32, bound: Bound) {
        let gen = self.generation.load(Ordering::Relaxed);
        let bucket = self.bucket(key);
        let mut victim = &bucket.entries[0];
        let mut worst = i32::MAX;
        for e in &bucket.entries {
            let d = e.data.load(Ordering::Relaxed);
            let c = e.check.load(Ordering::Relaxed);
            if d & (VALID << 56) == 0 || c ^ d == key {
                if c ^ d == key && d & (VALID << 56) != 0 {
                    // Same position: keep a deeper exact result of this search,
                    // and keep the old move if we have none.
                    let old = unpack(d);
                    if bound != Bound::Exact && generation_of(d) == gen && old.depth > depth + 3 {
                        return;
                    }
                    let mv = if mv.is_null() { old.mv } else { mv };
                    let nd = pack(mv, score, eval, depth, bound, gen);
                    e.data.store(nd, Ordering::Relaxed);
                    e.check.store(key ^ nd, Ordering::Relaxed);
                    return;
                }
                victim = e;
                worst = i32::MIN;
                continue;
            }
            if worst == i32::MIN {
                continue;
            }
            let age = (gen.wrapping_sub(generation_of(d)) & GEN_MASK) as i32;
            let worth = stored_depth(d) - 8 * age;
            if worth < worst {
                worst = worth;
                victim = e;
            }
        }
        let nd = pack(mv, score, eval, depth, bound, gen);
        victim.data.store(nd, Ordering::Relaxed);
        victim.check.store(key ^ nd, Ordering::Relaxed);
    }

    /// How many valid entries hold each bound (indexed by `Bound as usize`).
    #[cfg(test)]
    pub(crate) fn count_by_bound(&self) -> [usize; 4] {
        let mut n = [0; 4];
        for e in self.buckets.iter().flat_map(|b| &b.entries) {
            let d = e.data.load(Ordering::Relaxed);
            if d & (VALID << 56) != 0 {
                n[unpack(d).bound as usize] += 1;
            }
        }
        n
    }

    /// Permille of a sample of entries written during the current search.
    pub fn hashfull(&self) -> u32 {
        let gen = self.generation.load(Ordering::Relaxed);
        let n = self.buckets.len().min(250);
        let mut used = 0;
        for b in &self.buckets[..n] {
            for e in &b.entries {
                let d = e.data.load(Ordering::Relaxed);
                if d & (VALID << 56) != 0 && generation_of(d) == gen {
                    used += 1;
                }
            }
        }
        (used * 1000 / (n * 4).max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pack_round_trip() {
        let m = Move(0x1234);
        let h = unpack(pack(m, -31_000, 250, -3, Bound::Lower, 17));
        assert_eq!(
            h,
            TtHit {
                mv: m,
                score: -31_000,
                eval: 250,
                depth: -3,
                bound: Bound::Lower
            }
        );
    }

    #[test]
    fn store_probe_and_replace() {
        let tt = TranspositionTable::new(1);
        assert!(tt.probe(42).is_none());
        tt.store(42, Move(77), 10, 5, 6, Bound::Exact);
        let h = tt.probe(42).unwrap();
        assert_eq!(
            (h.mv, h.score, h.depth, h.bound),
            (Move(77), 10, 6, Bound::Exact)
        );
        // A null move keeps the old move.
        tt.store(42, Move::NULL, 12, 5, 7, Bound::Lower);
        assert_eq!(tt.probe(42).unwrap().mv, Move(77));
        // A key that maps to the same bucket but differs is not a hit.
        assert!(tt.probe(43).is_none());
        tt.clear();
        assert!(tt.probe(42).is_none());
    }
}
