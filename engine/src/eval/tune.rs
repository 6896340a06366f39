//! Texel-style tuning of the handcrafted evaluation (`qili tune-hce`).
//!
//! Given the game phase, every tuned term is linear in the parameters: a position's
//! middlegame sum is `Σ c_f · mg_f` and its endgame sum `Σ c_f · eg_f` over the same
//! feature counts `c_f` (material, placement, mobility, ...), Red's minus Black's.
//! So each position is traced once into a short list of `(feature, count)` pairs,
//! and every later evaluation is a dot product. The fixed shapes (phase weights,
//! attack-unit weights, the scale-down of a side that cannot attack) are applied
//! exactly as `Hce` does, so `trace_eval` reproduces `evaluate_with` to the unit.
//!
//! The loss is the mean of `(σ(K·e) − t)²`, `e` the evaluation from the side to move,
//! `t = wdl · result + (1 − wdl) · σ(K · search score)`. `K` is fitted first to the
//! game results with the starting parameters, then held. Minimised by Adam over
//! minibatches, the batch's gradient summed over `threads` scoped threads.

use super::hce::{attack_units, crossed_pawns, has_attackers};
use super::params::{idx, HceParams, MAX_MAGNITUDE};
use super::tables::drawn_index;
use crate::score::EVAL_LIMIT;
use nets::data::PackedPosition;
use rules::attacks;
use rules::rng::Rng;
use rules::{Color, PieceKind, Position, Square};

/// Features: material by kind, placement by kind and drawn point, knight mobility by
/// count, then one each for the scalar terms (in `idx` order from `ROOK_MOB_MG`).
const F_MATERIAL: usize = 0;
const F_PST: usize = 7;
const F_KNIGHT_MOB: usize = F_PST + 7 * 90;
const F_ROOK_MOB: usize = F_KNIGHT_MOB + 9;
const F_CANNON_MOB: usize = F_ROOK_MOB + 1;
const F_HOLLOW_CANNON: usize = F_CANNON_MOB + 1;
const F_CANNON_ON_KING_FILE: usize = F_HOLLOW_CANNON + 1;
const F_LINKED_PAWNS: usize = F_CANNON_ON_KING_FILE + 1;
const F_MISSING_ADVISOR: usize = F_LINKED_PAWNS + 1;
const F_MISSING_ELEPHANT: usize = F_MISSING_ADVISOR + 1;
pub const FEATURES: usize = F_MISSING_ELEPHANT + 1;

/// Flat index (`HceParams::to_flat`) of feature `f`'s middlegame or endgame number.
pub fn param_index(f: usize, eg: bool) -> usize {
    let e = eg as usize;
    match f {
        _ if f < F_PST => [idx::MATERIAL_MG, idx::MATERIAL_EG][e] + f,
        _ if f < F_KNIGHT_MOB => [idx::PST_MG, idx::PST_EG][e] + f - F_PST,
        _ if f < F_ROOK_MOB => [idx::KNIGHT_MOB_MG, idx::KNIGHT_MOB_EG][e] + f - F_KNIGHT_MOB,
        _ => idx::ROOK_MOB_MG + 2 * (f - F_ROOK_MOB) + e,
    }
}

/// One `(feature, count)` pair of a traced position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Entry {
    feature: u16,
    count: i16,
}

const STM_BLACK: u8 = 1;
const RED_ATTACKS: u8 = 2;
const BLACK_ATTACKS: u8 = 4;

/// A traced position with its labels.
#[derive(Clone, Copy, Debug)]
struct Sample {
    start: u32,
    len: u16,
    /// Game phase, already clamped to `0..=phase_max`.
    phase: u8,
    flags: u8,
    /// Game result from the side to move's view: 0, 0.5 or 1.
    result: f32,
    /// Search score in centipawns from the side to move's view.
    score: f32,
}

/// Traced positions, ready for the tuner.
#[derive(Clone, Debug, Default)]
pub struct TraceSet {
    entries: Vec<Entry>,
    samples: Vec<Sample>,
    /// The fixed shapes the traces were made with.
    phase_max: i32,
    divisor: i32,
}

/// Feature counts of `pos` (Red's minus Black's), in feature order, merged.
fn trace_features(p: &HceParams, pos: &Position, out: &mut Vec<Entry>) -> i32 {
    let mut raw: Vec<(usize, i32)> = Vec::with_capacity(96);
    let mut phase = 0;
    for s in pos.occupied() {
        if let Some(pc) = pos.piece_at(s) {
            let k = pc.kind.index();
            let red = pc.color == Color::Red;
            let sign = if red { 1 } else { -1 };
            let d = drawn_index(if red { s.index() } else { 89 - s.index() });
            raw.push((F_MATERIAL + k, sign));
            raw.push((F_PST + k * 90 + d, sign));
            phase += p.phase_weight[k];
        }
    }
    let occ = pos.occupied();
    let byf = pos.occ_by_file();
    for us in Color::BOTH {
        let sign = if us == Color::Red { 1 } else { -1 };
        let them = us.flip();
        let own = pos.pieces_of(us);
        for s in pos.pieces(us, PieceKind::Knight) {
            let n = (attacks::knight(s, occ) & !own).count() as usize;
            raw.push((F_KNIGHT_MOB + n.min(8), sign));
        }
        for s in pos.pieces(us, PieceKind::Rook) {
            let n = (attacks::rook(s, occ, byf) & !own).count() as i32;
            raw.push((F_ROOK_MOB, sign * n));
        }
        let eksq = pos.king_square(them);
        for s in pos.pieces(us, PieceKind::Cannon) {
            let n = attacks::slides(s, occ, byf).count() as i32;
            raw.push((F_CANNON_MOB, sign * n));
            if s.file() == eksq.file() {
                match (attacks::between(s, eksq) & occ).count() {
                    0 => raw.push((F_HOLLOW_CANNON, sign)),
                    1 => raw.push((F_CANNON_ON_KING_FILE, sign)),
                    _ => {}
                }
            }
        }
        let units = attack_units(p, pos, them);
        let missing_advisors = (2 - pos.pieces(us, PieceKind::Advisor).count() as i32).max(0);
        let missing_elephants = (2 - pos.pieces(us, PieceKind::Elephant).count() as i32).max(0);
        raw.push((F_MISSING_ADVISOR, -sign * units * missing_advisors));
        raw.push((F_MISSING_ELEPHANT, -sign * units * missing_elephants));
        let crossed = crossed_pawns(pos, us);
        for s in crossed {
            if s.file() < 8 && crossed.has(Square(s.0 + 1)) {
                raw.push((F_LINKED_PAWNS, sign));
            }
        }
    }
    raw.sort_unstable_by_key(|e| e.0);
    let mut i = 0;
    while i < raw.len() {
        let f = raw[i].0;
        let mut c = 0;
        while i < raw.len() && raw[i].0 == f {
            c += raw[i].1;
            i += 1;
        }
        if c != 0 {
            out.push(Entry {
                feature: f as u16,
                count: c.clamp(i16::MIN as i32, i16::MAX as i32) as i16,
            });
        }
    }
    phase.clamp(0, p.phase_max)
}

impl TraceSet {
    pub fn len(&self) -> usize {
        self.samples.len()
    }

    pub fn is_empty(&self) -> bool {
        self.samples.is_empty()
    }

    fn new_like(p: &HceParams) -> TraceSet {
        TraceSet {
            entries: Vec::new(),
            samples: Vec::new(),
            phase_max: p.phase_max,
            divisor: p.no_attacker_divisor,
        }
    }

    /// Trace `pos` (labelled with the result and search score from the side to move's
    /// view) under the fixed shapes of `p`.
    pub fn push(&mut self, p: &HceParams, pos: &Position, result: f32, score: f32) {
        let start = self.entries.len();
        let phase = trace_features(p, pos, &mut self.entries);
        let mut flags = 0;
        if pos.side_to_move() == Color::Black {
            flags |= STM_BLACK;
        }
        if has_attackers(pos, Color::Red) {
            flags |= RED_ATTACKS;
        }
        if has_attackers(pos, Color::Black) {
            flags |= BLACK_ATTACKS;
        }
        self.samples.push(Sample {
            start: start as u32,
            len: (self.entries.len() - start) as u16,
            phase: phase as u8,
            flags,
            result,
            score,
        });
    }

    /// Trace the records in parallel; records that do not decode to a legal
    /// position are skipped (their number is returned).
    pub fn from_records(
        p: &HceParams,
        recs: &[PackedPosition],
        threads: usize,
    ) -> (TraceSet, usize) {
        let parts = par_chunks(recs, threads, |chunk| {
            let mut t = TraceSet::new_like(p);
            let mut skipped = 0;
            for r in chunk {
                match r.check().ok().and_then(|_| r.to_position().ok()) {
                    Some(pos) => t.push(p, &pos, r.outcome().value(), r.score() as f32),
                    None => skipped += 1,
                }
            }
            (t, skipped)
        });
        let mut all = TraceSet::new_like(p);
        let mut skipped = 0;
        for (t, s) in parts {
            let base = all.entries.len() as u32;
            all.entries.extend_from_slice(&t.entries);
            all.samples.extend(t.samples.iter().map(|x| Sample {
                start: x.start + base,
                ..*x
            }));
            skipped += s;
        }
        (all, skipped)
    }

    /// Move the samples from `at` on into a new set (a validation split).
    pub fn split_off(&mut self, at: usize) -> TraceSet {
        let mut tail = TraceSet::new_like_set(self);
        for s in self.samples.drain(at.min(self.samples.len())..) {
            let start = tail.entries.len() as u32;
            let e = &self.entries[s.start as usize..s.start as usize + s.len as usize];
            tail.entries.extend_from_slice(e);
            tail.samples.push(Sample { start, ..s });
        }
        tail
    }

    fn new_like_set(other: &TraceSet) -> TraceSet {
        TraceSet {
            entries: Vec::new(),
            samples: Vec::new(),
            phase_max: other.phase_max,
            divisor: other.divisor,
        }
    }

    fn entries_of(&self, s: &Sample) -> &[Entry] {
        &self.entries[s.start as usize..s.start as usize + s.len as usize]
    }

    /// The integer evaluation of sample `i` under the flat parameters `flat`, exactly
    /// as the engine computes it (side to move's view).
    pub fn eval_int(&self, flat: &[i32], i: usize) -> i32 {
        let s = &self.samples[i];
        let (mut mg, mut eg) = (0i32, 0i32);
        for e in self.entries_of(s) {
            let f = e.feature as usize;
            mg += flat[param_index(f, false)] * e.count as i32;
            eg += flat[param_index(f, true)] * e.count as i32;
        }
        let ph = s.phase as i32;
        let mut v = (mg * ph + eg * (self.phase_max - ph)) / self.phase_max;
        if v > 0 && s.flags & RED_ATTACKS == 0 || v < 0 && s.flags & BLACK_ATTACKS == 0 {
            v /= self.divisor;
        }
        let v = if s.flags & STM_BLACK != 0 { -v } else { v };
        (v + flat[idx::TEMPO]).clamp(-EVAL_LIMIT, EVAL_LIMIT)
    }
}

/// Split `items` into `threads` contiguous chunks and map each on its own thread.
fn par_chunks<T: Sync, R: Send>(
    items: &[T],
    threads: usize,
    f: impl Fn(&[T]) -> R + Sync,
) -> Vec<R> {
    let threads = threads.max(1);
    if threads == 1 || items.len() < 2 * threads {
        return vec![f(items)];
    }
    let size = items.len().div_ceil(threads);
    std::thread::scope(|sc| {
        let handles: Vec<_> = items
            .chunks(size)
            .map(|c| {
                let f = &f;
                sc.spawn(move || f(c))
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    })
}

/// Worker threads to use by default: all cores.
pub fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

#[inline]
fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// What to fit: the sigmoid scale `k` (per centipawn) and the result's weight.
#[derive(Clone, Copy, Debug)]
pub struct Objective {
    pub k: f64,
    pub wdl: f64,
}

impl Objective {
    #[inline]
    fn target(&self, s: &Sample) -> f64 {
        self.wdl * s.result as f64 + (1.0 - self.wdl) * sigmoid(self.k * s.score as f64)
    }
}

/// Mean loss of the integer parameters (the evaluation the engine would play with).
pub fn loss_int(set: &TraceSet, p: &HceParams, obj: Objective, threads: usize) -> f64 {
    if set.is_empty() {
        return 0.0;
    }
    let flat = p.to_flat();
    let ids: Vec<usize> = (0..set.len()).collect();
    let sums = par_chunks(&ids, threads, |chunk| {
        chunk
            .iter()
            .map(|&i| {
                let e = set.eval_int(&flat, i) as f64;
                let d = sigmoid(obj.k * e) - obj.target(&set.samples[i]);
                d * d
            })
            .sum::<f64>()
    });
    sums.iter().sum::<f64>() / set.len() as f64
}

/// Fit `K` to the game results alone with parameters `p` (golden-section search on
/// log K, as in Texel tuning).
pub fn fit_k(set: &TraceSet, p: &HceParams, threads: usize) -> f64 {
    let loss = |lk: f64| {
        loss_int(
            set,
            p,
            Objective {
                k: lk.exp(),
                wdl: 1.0,
            },
            threads,
        )
    };
    let (mut a, mut b) = ((1e-4f64).ln(), (0.05f64).ln());
    let g = (5f64.sqrt() - 1.0) / 2.0;
    let mut c = b - g * (b - a);
    let mut d = a + g * (b - a);
    let (mut fc, mut fd) = (loss(c), loss(d));
    for _ in 0..40 {
        if fc < fd {
            b = d;
            d = c;
            fd = fc;
            c = b - g * (b - a);
            fc = loss(c);
        } else {
            a = c;
            c = d;
            fc = fd;
            d = a + g * (b - a);
            fd = loss(d);
        }
    }
    ((a + b) / 2.0).exp()
}

/// Tuner settings.
#[derive(Clone, Copy, Debug)]
pub struct TuneConfig {
    pub epochs: usize,
    /// Adam step in centipawns at the start; falls linearly to a tenth by the end.
    pub lr: f64,
    /// Positions per Adam step.
    pub batch: usize,
    pub threads: usize,
    pub seed: u64,
    /// Tie each placement entry to its mirror across the central file.
    pub symmetric: bool,
    /// Weight of the penalty `Σ (θ − θ_init)²` added to the mean loss: it keeps
    /// entries that few positions reach (rare points of a table) near their start.
    pub l2: f64,
}

impl Default for TuneConfig {
    fn default() -> Self {
        TuneConfig {
            epochs: 20,
            lr: 2.0,
            batch: 16384,
            threads: default_threads(),
            seed: 1,
            symmetric: true,
            l2: 0.0,
        }
    }
}

/// Which flat entries the tuner moves: every middlegame/endgame number of a feature
/// and the tempo, except the kings' material (both kings are always on the board).
pub fn tuned_mask() -> Vec<bool> {
    let mut m = vec![false; idx::LEN];
    for f in 0..FEATURES {
        if f == F_MATERIAL + PieceKind::King.index() {
            continue;
        }
        m[param_index(f, false)] = true;
        m[param_index(f, true)] = true;
    }
    m[idx::TEMPO] = true;
    m
}

/// Loss and gradient (summed, not averaged) of samples `ids` at float parameters `theta`.
fn grad(set: &TraceSet, theta: &[f64], ids: &[u32], obj: Objective, g: &mut [f64]) -> f64 {
    let pm = set.phase_max as f64;
    let inv_div = 1.0 / set.divisor as f64;
    let mut loss = 0.0;
    for &i in ids {
        let s = &set.samples[i as usize];
        let es = set.entries_of(s);
        let (mut mg, mut eg) = (0.0, 0.0);
        for e in es {
            let f = e.feature as usize;
            mg += theta[param_index(f, false)] * e.count as f64;
            eg += theta[param_index(f, true)] * e.count as f64;
        }
        let ph = s.phase as f64;
        let lin = (mg * ph + eg * (pm - ph)) / pm;
        let scale = if lin > 0.0 && s.flags & RED_ATTACKS == 0
            || lin < 0.0 && s.flags & BLACK_ATTACKS == 0
        {
            inv_div
        } else {
            1.0
        };
        let sign = if s.flags & STM_BLACK != 0 { -1.0 } else { 1.0 };
        let e = sign * lin * scale + theta[idx::TEMPO];
        let p = sigmoid(obj.k * e);
        let d = p - obj.target(s);
        loss += d * d;
        let de = 2.0 * d * obj.k * p * (1.0 - p);
        g[idx::TEMPO] += de;
        let dl = de * sign * scale;
        let (wmg, weg) = (dl * ph / pm, dl * (pm - ph) / pm);
        for e in es {
            let f = e.feature as usize;
            g[param_index(f, false)] += wmg * e.count as f64;
            g[param_index(f, true)] += weg * e.count as f64;
        }
    }
    loss
}

/// Mean loss at float parameters.
pub fn loss_float(set: &TraceSet, theta: &[f64], obj: Objective, threads: usize) -> f64 {
    if set.is_empty() {
        return 0.0;
    }
    let ids: Vec<u32> = (0..set.len() as u32).collect();
    let parts = par_chunks(&ids, threads, |c| {
        let mut g = vec![0.0; idx::LEN];
        grad(set, theta, c, obj, &mut g)
    });
    parts.iter().sum::<f64>() / set.len() as f64
}

/// One epoch's figures.
#[derive(Clone, Copy, Debug)]
pub struct EpochReport {
    pub epoch: usize,
    pub lr: f64,
    pub train_loss: f64,
    pub positions_per_s: f64,
}

/// Adam from `init` over `set`; returns the rounded parameters (fixed shapes and
/// untuned entries as in `init`).
pub fn tune(
    set: &TraceSet,
    init: &HceParams,
    obj: Objective,
    cfg: &TuneConfig,
    report: &mut dyn FnMut(&EpochReport),
) -> HceParams {
    let start = init.to_flat();
    let mask = tuned_mask();
    let mut theta: Vec<f64> = start.iter().map(|&v| v as f64).collect();
    let (mut m, mut v) = (vec![0.0; idx::LEN], vec![0.0; idx::LEN]);
    let (b1, b2, eps) = (0.9f64, 0.999f64, 1e-8);
    let mut ids: Vec<u32> = (0..set.len() as u32).collect();
    let mut rng = Rng::from_state(cfg.seed);
    let batch = cfg.batch.max(1);
    let mut step = 0i32;
    for epoch in 1..=cfg.epochs {
        let t0 = std::time::Instant::now();
        let frac = if cfg.epochs > 1 {
            (epoch - 1) as f64 / (cfg.epochs - 1) as f64
        } else {
            0.0
        };
        let lr = cfg.lr * (1.0 - 0.9 * frac);
        rng.shuffle_rem(&mut ids);
        let mut total = 0.0;
        for b in ids.chunks(batch) {
            let parts = par_chunks(b, cfg.threads, |c| {
                let mut g = vec![0.0; idx::LEN];
                let l = grad(set, &theta, c, obj, &mut g);
                (l, g)
            });
            let mut g = vec![0.0; idx::LEN];
            for (l, pg) in parts {
                total += l;
                for (a, x) in g.iter_mut().zip(&pg) {
                    *a += x;
                }
            }
            let n = b.len() as f64;
            g.iter_mut().for_each(|x| *x /= n);
            for j in 0..idx::LEN {
                g[j] += 2.0 * cfg.l2 * (theta[j] - start[j] as f64);
            }
            if cfg.symmetric {
                tie_mirrors(&mut g);
            }
            step += 1;
            let (c1, c2) = (1.0 - b1.powi(step), 1.0 - b2.powi(step));
            for j in 0..idx::LEN {
                if !mask[j] {
                    continue;
                }
                m[j] = b1 * m[j] + (1.0 - b1) * g[j];
                v[j] = b2 * v[j] + (1.0 - b2) * g[j] * g[j];
                theta[j] -= lr * (m[j] / c1) / ((v[j] / c2).sqrt() + eps);
            }
        }
        let secs = t0.elapsed().as_secs_f64().max(1e-9);
        report(&EpochReport {
            epoch,
            lr,
            train_loss: total / set.len().max(1) as f64,
            positions_per_s: set.len() as f64 / secs,
        });
    }
    let flat: Vec<i32> = theta
        .iter()
        .zip(&start)
        .zip(&mask)
        .map(|((&t, &s), &tuned)| {
            if tuned {
                (t.round() as i32).clamp(-MAX_MAGNITUDE, MAX_MAGNITUDE)
            } else {
                s
            }
        })
        .collect();
    HceParams::from_flat(&flat).unwrap_or_else(|| init.clone())
}

/// Average each placement entry's gradient with its mirror across the central file.
fn tie_mirrors(g: &mut [f64]) {
    for base in [idx::PST_MG, idx::PST_EG] {
        for k in 0..7 {
            for row in 0..10 {
                for file in 0..4 {
                    let a = base + k * 90 + row * 9 + file;
                    let b = base + k * 90 + row * 9 + 8 - file;
                    let mean = (g[a] + g[b]) / 2.0;
                    g[a] = mean;
                    g[b] = mean;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests;
