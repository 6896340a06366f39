//! The two inner loops of inference, each with a scalar, an AVX2 and an AVX-512
//! version (and a VNNI dot product) that give bit-identical results: i16 lanes wrap
//! the same way in all, and the output sum is exact integer arithmetic whatever the
//! order of the additions (i32 lanes that cannot overflow, added up in i64).

use crate::{Accumulator, HIDDEN, QA};

/// Which kernels run: a token that safe code can only get for kernels this CPU
/// runs. `Backend::SCALAR` always works; the SIMD tokens come only from run-time
/// detection (`detect`, `avx2`, `avx512`), so holding one is the proof that the
/// `unsafe` kernels below may be called.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Backend(Kernel);

/// The kernels (private: constructing a `Backend` goes through detection).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Kernel {
    Scalar,
    Avx2,
    /// AVX-512 (F and BW): 32 lanes of i16 at a time.
    Avx512,
    /// AVX-512 with VNNI: the output dot product fuses multiply and add.
    Avx512Vnni,
}

impl Backend {
    /// The portable kernels.
    pub const SCALAR: Backend = Backend(Kernel::Scalar);

    /// The fastest kernels this CPU runs. The environment variable `QILI_SIMD`
    /// (`scalar`, `avx2`, `avx512`) caps the choice, for measuring one against
    /// another; it never picks kernels the CPU lacks.
    pub fn detect() -> Backend {
        let best = Backend::avx512()
            .or_else(Backend::avx2)
            .unwrap_or(Backend::SCALAR);
        match std::env::var("QILI_SIMD").as_deref() {
            Ok("scalar") => Backend::SCALAR,
            Ok("avx2") => Backend::avx2().unwrap_or(Backend::SCALAR),
            Ok("avx512") => Backend(best.0.min(Kernel::Avx512)),
            _ => best,
        }
    }

    /// The AVX2 kernels, if this CPU has AVX2.
    pub fn avx2() -> Option<Backend> {
        #[cfg(target_arch = "x86_64")]
        {
            if is_x86_feature_detected!("avx2") {
                return Some(Backend(Kernel::Avx2));
            }
        }
        None
    }

    /// The AVX-512 kernels (with VNNI when the CPU has it), if this CPU has
    /// AVX-512 F and BW.
    pub fn avx512() -> Option<Backend> {
        #[cfg(target_arch = "x86_64")]
        {
            if is_x86_feature_detected!("avx512f") && is_x86_feature_detected!("avx512bw") {
                let vnni = is_x86_feature_detected!("avx512vnni");
                return Some(Backend(if vnni {
                    Kernel::Avx512Vnni
                } else {
                    Kernel::Avx512
                }));
            }
        }
        None
    }

    /// The same CPU's AVX-512 kernels without VNNI (to test one against the other).
    pub fn without_vnni(self) -> Backend {
        Backend(self.0.min(Kernel::Avx512))
    }

    pub fn is_avx2(self) -> bool {
        self.0 == Kernel::Avx2
    }

    pub fn name(self) -> &'static str {
        match self.0 {
            Kernel::Scalar => "scalar",
            Kernel::Avx2 => "avx2",
            Kernel::Avx512 => "avx512",
            Kernel::Avx512Vnni => "avx512-vnni",
        }
    }
}

/// `dst = src + Σ adds − Σ subs`, lane-wise with i16 wrap-around.
#[inline]
pub fn update(
    backend: Backend,
    dst: &mut [i16; HIDDEN],
    src: &[i16; HIDDEN],
    adds: &[&[i16; HIDDEN]],
    subs: &[&[i16; HIDDEN]],
) {
    #[cfg(target_arch = "x86_64")]
    {
        match backend.0 {
            // SAFETY: a SIMD token exists only where the CPU has its instructions
            // (`Backend::avx2`, `Backend::avx512`).
            Kernel::Avx2 => return unsafe { avx2::update(dst, src, adds, subs) },
            Kernel::Avx512 | Kernel::Avx512Vnni => {
                return unsafe { avx512::update(dst, src, adds, subs) }
            }
            Kernel::Scalar => {}
        }
    }
    let _ = backend;
    update_scalar(dst, src, adds, subs);
}

pub fn update_scalar(
    dst: &mut [i16; HIDDEN],
    src: &[i16; HIDDEN],
    adds: &[&[i16; HIDDEN]],
    subs: &[&[i16; HIDDEN]],
) {
    *dst = *src;
    for a in adds {
        for (d, w) in dst.iter_mut().zip(a.iter()) {
            *d = d.wrapping_add(*w);
        }
    }
    for s in subs {
        for (d, w) in dst.iter_mut().zip(s.iter()) {
            *d = d.wrapping_sub(*w);
        }
    }
}

/// A column of first-layer weights for each perspective (Red's, Black's).
pub type ColumnPair<'a> = [&'a [i16; HIDDEN]; 2];

/// The update of one move for both perspectives in one pass:
/// `dst.v[p] = src.v[p] + add[p] − sub[p] [− cap[p]]`, lane-wise with i16 wrap-around.
#[inline(always)]
pub fn update_pair(
    backend: Backend,
    dst: &mut Accumulator,
    src: &Accumulator,
    add: ColumnPair,
    sub: ColumnPair,
    cap: Option<ColumnPair>,
) {
    #[cfg(target_arch = "x86_64")]
    {
        match backend.0 {
            // SAFETY: as in `update`.
            Kernel::Avx2 => {
                return unsafe {
                    match cap {
                        Some(cap) => avx2::update_pair_cap(dst, src, add, sub, cap),
                        None => avx2::update_pair(dst, src, add, sub),
                    }
                }
            }
            // SAFETY: as in `update`.
            Kernel::Avx512 | Kernel::Avx512Vnni => {
                return unsafe { avx512::update_pair(dst, src, add, sub, cap) }
            }
            Kernel::Scalar => {}
        }
    }
    let _ = backend;
    for p in 0..2 {
        match cap {
            Some(cap) => update_scalar(&mut dst.v[p], &src.v[p], &[add[p]], &[sub[p], cap[p]]),
            None => update_scalar(&mut dst.v[p], &src.v[p], &[add[p]], &[sub[p]]),
        }
    }
}

/// Σ clamp(acc, 0, QA)² · w over one perspective's half of the output layer, in units
/// of QA²·QB. `clamp · w` must fit an i16 (|w| ≤ OUT_WEIGHT_MAX, checked at load).
#[inline]
pub fn screlu_dot(backend: Backend, acc: &[i16; HIDDEN], w: &[i16; HIDDEN]) -> i64 {
    #[cfg(target_arch = "x86_64")]
    {
        match backend.0 {
            // SAFETY: as in `update`.
            Kernel::Avx2 => return unsafe { avx2::screlu_dot(acc, w) },
            // SAFETY: as in `update`.
            Kernel::Avx512 => return unsafe { avx512::screlu_dot(acc, w) },
            // SAFETY: as in `update` (the VNNI token needs AVX-512 VNNI too).
            Kernel::Avx512Vnni => return unsafe { avx512::screlu_dot_vnni(acc, w) },
            Kernel::Scalar => {}
        }
    }
    let _ = backend;
    screlu_dot_scalar(acc, w)
}

pub fn screlu_dot_scalar(acc: &[i16; HIDDEN], w: &[i16; HIDDEN]) -> i64 {
    let mut sum = 0i64;
    for (&a, &w) in acc.iter().zip(w.iter()) {
        let v = (a as i32).clamp(0, QA);
        // Same i16 product as the SIMD `mullo` (exact, since |v·w| ≤ 32385).
        let vw = (v * w as i32) as i16 as i32;
        sum += (vw * v) as i64;
    }
    sum
}

/// The AVX2 kernels: private to this module, reached only through the safe
/// functions above and an AVX2 `Backend` token.
#[cfg(target_arch = "x86_64")]
mod avx2 {
    use super::ColumnPair;
    use crate::{Accumulator, HIDDEN, QA};
    use std::arch::x86_64::*;

    const LANES: usize = 16;

    /// # Safety
    /// The CPU must support AVX2 (callers hold an AVX2 `Backend` token). The slices
    /// are whole `HIDDEN`-lane arrays, so every unaligned load and store is in bounds.
    #[target_feature(enable = "avx2")]
    pub unsafe fn update(
        dst: &mut [i16; HIDDEN],
        src: &[i16; HIDDEN],
        adds: &[&[i16; HIDDEN]],
        subs: &[&[i16; HIDDEN]],
    ) {
        for i in (0..HIDDEN).step_by(LANES) {
            let mut v = _mm256_loadu_si256(src.as_ptr().add(i) as *const __m256i);
            for a in adds {
                v = _mm256_add_epi16(v, _mm256_loadu_si256(a.as_ptr().add(i) as *const __m256i));
            }
            for s in subs {
                v = _mm256_sub_epi16(v, _mm256_loadu_si256(s.as_ptr().add(i) as *const __m256i));
            }
            _mm256_storeu_si256(dst.as_mut_ptr().add(i) as *mut __m256i, v);
        }
    }

    /// # Safety
    /// The CPU must support AVX2 (callers hold an AVX2 `Backend` token). The slices
    /// are whole `HIDDEN`-lane arrays, so every unaligned load and store is in bounds.
    #[inline]
    #[target_feature(enable = "avx2")]
    pub unsafe fn update_pair(
        dst: &mut Accumulator,
        src: &Accumulator,
        add: ColumnPair,
        sub: ColumnPair,
    ) {
        for p in 0..2 {
            let (d, s) = (dst.v[p].as_mut_ptr(), src.v[p].as_ptr());
            let (a, b) = (add[p].as_ptr(), sub[p].as_ptr());
            for i in (0..HIDDEN).step_by(LANES) {
                let v = _mm256_loadu_si256(s.add(i) as *const __m256i);
                let v = _mm256_add_epi16(v, _mm256_loadu_si256(a.add(i) as *const __m256i));
                let v = _mm256_sub_epi16(v, _mm256_loadu_si256(b.add(i) as *const __m256i));
                _mm256_storeu_si256(d.add(i) as *mut __m256i, v);
            }
        }
    }

    /// # Safety
    /// The CPU must support AVX2 (callers hold an AVX2 `Backend` token). The slices
    /// are whole `HIDDEN`-lane arrays, so every unaligned load and store is in bounds.
    #[inline]
    #[target_feature(enable = "avx2")]
    pub unsafe fn update_pair_cap(
        dst: &mut Accumulator,
        src: &Accumulator,
        add: ColumnPair,
        sub: ColumnPair,
        cap: ColumnPair,
    ) {
        for p in 0..2 {
            let (d, s) = (dst.v[p].as_mut_ptr(), src.v[p].as_ptr());
            let (a, b, c) = (add[p].as_ptr(), sub[p].as_ptr(), cap[p].as_ptr());
            for i in (0..HIDDEN).step_by(LANES) {
                let v = _mm256_loadu_si256(s.add(i) as *const __m256i);
                let v = _mm256_add_epi16(v, _mm256_loadu_si256(a.add(i) as *const __m256i));
                let v = _mm256_sub_epi16(v, _mm256_loadu_si256(b.add(i) as *const __m256i));
                let v = _mm256_sub_epi16(v, _mm256_loadu_si256(c.add(i) as *const __m256i));
                _mm256_storeu_si256(d.add(i) as *mut __m256i, v);
            }
        }
    }

    /// # Safety
    /// The CPU must support AVX2 (callers hold an AVX2 `Backend` token). The slices
    /// are whole `HIDDEN`-lane arrays, so every unaligned load and store is in bounds.
    #[target_feature(enable = "avx2")]
    pub unsafe fn screlu_dot(acc: &[i16; HIDDEN], w: &[i16; HIDDEN]) -> i64 {
        let zero = _mm256_setzero_si256();
        let qa = _mm256_set1_epi16(QA as i16);
        let mut sum = _mm256_setzero_si256();
        for i in (0..HIDDEN).step_by(LANES) {
            let a = _mm256_loadu_si256(acc.as_ptr().add(i) as *const __m256i);
            let v = _mm256_min_epi16(_mm256_max_epi16(a, zero), qa);
            let wv = _mm256_loadu_si256(w.as_ptr().add(i) as *const __m256i);
            let vw = _mm256_mullo_epi16(v, wv);
            sum = _mm256_add_epi32(sum, _mm256_madd_epi16(vw, v));
        }
        let mut lanes = [0i32; 8];
        _mm256_storeu_si256(lanes.as_mut_ptr() as *mut __m256i, sum);
        lanes.iter().map(|&x| x as i64).sum()
    }
}

/// The AVX-512 kernels (F and BW, and VNNI for the fused dot product): private to
/// this module, reached only through the safe functions above and a token.
#[cfg(target_arch = "x86_64")]
mod avx512 {
    use super::ColumnPair;
    use crate::{Accumulator, HIDDEN, QA};
    use std::arch::x86_64::*;

    const LANES: usize = 32;
    const _: () = assert!(HIDDEN.is_multiple_of(LANES));

    /// # Safety
    /// The CPU must support AVX-512 F and BW (callers hold an AVX-512 `Backend`
    /// token). The slices are whole `HIDDEN`-lane arrays, so every unaligned load
    /// and store is in bounds.
    #[target_feature(enable = "avx512f,avx512bw")]
    pub unsafe fn update(
        dst: &mut [i16; HIDDEN],
        src: &[i16; HIDDEN],
        adds: &[&[i16; HIDDEN]],
        subs: &[&[i16; HIDDEN]],
    ) {
        for i in (0..HIDDEN).step_by(LANES) {
            let mut v = _mm512_loadu_si512(src.as_ptr().add(i) as *const __m512i);
            for a in adds {
                v = _mm512_add_epi16(v, _mm512_loadu_si512(a.as_ptr().add(i) as *const __m512i));
            }
            for s in subs {
                v = _mm512_sub_epi16(v, _mm512_loadu_si512(s.as_ptr().add(i) as *const __m512i));
            }
            _mm512_storeu_si512(dst.as_mut_ptr().add(i) as *mut __m512i, v);
        }
    }

    /// # Safety
    /// As `update`.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    pub unsafe fn update_pair(
        dst: &mut Accumulator,
        src: &Accumulator,
        add: ColumnPair,
        sub: ColumnPair,
        cap: Option<ColumnPair>,
    ) {
        for p in 0..2 {
            let (d, s) = (dst.v[p].as_mut_ptr(), src.v[p].as_ptr());
            let (a, b) = (add[p].as_ptr(), sub[p].as_ptr());
            for i in (0..HIDDEN).step_by(LANES) {
                let v = _mm512_loadu_si512(s.add(i) as *const __m512i);
                let v = _mm512_add_epi16(v, _mm512_loadu_si512(a.add(i) as *const __m512i));
                let mut v = _mm512_sub_epi16(v, _mm512_loadu_si512(b.add(i) as *const __m512i));
                if let Some(cap) = cap {
                    let c = cap[p].as_ptr();
                    v = _mm512_sub_epi16(v, _mm512_loadu_si512(c.add(i) as *const __m512i));
                }
                _mm512_storeu_si512(d.add(i) as *mut __m512i, v);
            }
        }
    }

    /// The sum of the 16 i32 lanes, in i64 (no lane overflows; their sum could).
    ///
    /// # Safety
    /// The CPU must support AVX-512 F.
    #[inline]
    #[target_feature(enable = "avx512f")]
    unsafe fn reduce_i64(sum: __m512i) -> i64 {
        let lo = _mm512_cvtepi32_epi64(_mm512_castsi512_si256(sum));
        let hi = _mm512_cvtepi32_epi64(_mm512_extracti64x4_epi64::<1>(sum));
        _mm512_reduce_add_epi64(_mm512_add_epi64(lo, hi))
    }

    /// The clamped activations and their products with the weights, 32 lanes.
    ///
    /// # Safety
    /// As `update`; `i + LANES <= HIDDEN`.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    unsafe fn clamp_and_weigh(
        acc: &[i16; HIDDEN],
        w: &[i16; HIDDEN],
        i: usize,
    ) -> (__m512i, __m512i) {
        let a = _mm512_loadu_si512(acc.as_ptr().add(i) as *const __m512i);
        let v = _mm512_min_epi16(
            _mm512_max_epi16(a, _mm512_setzero_si512()),
            _mm512_set1_epi16(QA as i16),
        );
        let wv = _mm512_loadu_si512(w.as_ptr().add(i) as *const __m512i);
        (v, _mm512_mullo_epi16(v, wv))
    }

    /// # Safety
    /// As `update`.
    #[target_feature(enable = "avx512f,avx512bw")]
    pub unsafe fn screlu_dot(acc: &[i16; HIDDEN], w: &[i16; HIDDEN]) -> i64 {
        let mut sum = _mm512_setzero_si512();
        for i in (0..HIDDEN).step_by(LANES) {
            let (v, vw) = clamp_and_weigh(acc, w, i);
            sum = _mm512_add_epi32(sum, _mm512_madd_epi16(vw, v));
        }
        reduce_i64(sum)
    }

    /// The same sum with VNNI's fused multiply-add of i16 pairs into i32.
    ///
    /// # Safety
    /// As `update`, and the CPU must support AVX-512 VNNI.
    #[target_feature(enable = "avx512f,avx512bw,avx512vnni")]
    pub unsafe fn screlu_dot_vnni(acc: &[i16; HIDDEN], w: &[i16; HIDDEN]) -> i64 {
        let mut sum = _mm512_setzero_si512();
        for i in (0..HIDDEN).step_by(LANES) {
            let (v, vw) = clamp_and_weigh(acc, w, i);
            sum = _mm512_dpwssd_epi32(sum, vw, v);
        }
        reduce_i64(sum)
    }
}
