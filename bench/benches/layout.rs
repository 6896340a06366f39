//! The measurement behind the board layout (docs/ARCHITECTURE.md): three ways to
//! get a rook's attack set on a 90-point board, over the rooks and cannons of
//! real positions.
//!
//! * `u128 + file-major word` — what `rules` uses: rank bits by one shift of the
//!   `u128`, file bits by one shift of a second, file-major occupancy word.
//! * `u128, gathered file` — the same tables, but the ten file bits gathered from
//!   the `u128` one by one (what a layout without the second word must do).
//! * `mailbox ray scan` — no bitboards: step along each ray until blocked.
//!
//! Run: `cargo bench -p qili-bench --bench layout`.

use criterion::{criterion_group, criterion_main, Criterion};
use rules::{Bitboard, PieceKind, Position, Square};
use std::hint::black_box;

fn positions() -> Vec<Position> {
    // Random games from the start position (fixed seed), sampled every few plies.
    let mut out = Vec::new();
    let mut seed = 0x1234_5678_u64;
    for _ in 0..40 {
        let mut p = Position::startpos();
        for ply in 0..60 {
            let moves = p.legal_moves();
            if moves.is_empty() {
                break;
            }
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            p.make_move(moves.as_slice()[(seed % moves.len() as u64) as usize]);
            if ply % 6 == 5 {
                out.push(p.clone());
            }
        }
    }
    out
}

/// Rook attacks along one line of `n` points from `pos`, as a mask over the line.
fn line_attacks(n: usize, pos: usize, occ: usize) -> u16 {
    let mut m = 0u16;
    for p in (0..pos).rev() {
        m |= 1 << p;
        if occ >> p & 1 != 0 {
            break;
        }
    }
    for p in pos + 1..n {
        m |= 1 << p;
        if occ >> p & 1 != 0 {
            break;
        }
    }
    m
}

struct Tables {
    rank: Vec<[u16; 512]>,
    file: Vec<[u16; 1024]>,
    spread: Vec<u128>,
}

fn tables() -> Tables {
    let rank = (0..9)
        .map(|f| {
            let mut t = [0u16; 512];
            for (o, e) in t.iter_mut().enumerate() {
                *e = line_attacks(9, f, o);
            }
            t
        })
        .collect();
    let file = (0..10)
        .map(|r| {
            let mut t = [0u16; 1024];
            for (o, e) in t.iter_mut().enumerate() {
                *e = line_attacks(10, r, o);
            }
            t
        })
        .collect();
    let spread = (0..1024usize)
        .map(|m| {
            (0..10)
                .filter(|r| m >> r & 1 != 0)
                .fold(0u128, |a, r| a | 1u128 << (r * 9))
        })
        .collect();
    Tables { rank, file, spread }
}

#[inline(always)]
fn rook_with_file_word(t: &Tables, s: Square, occ: u128, byf: u128) -> u128 {
    let (f, r) = (s.file() as usize, s.rank() as usize);
    let rank = (t.rank[f][(occ >> (r * 9)) as usize & 0x1ff] as u128) << (r * 9);
    let fb = (byf >> (f * 10)) as usize & 0x3ff;
    rank | t.spread[t.file[r][fb] as usize] << f
}

#[inline(always)]
fn rook_gathered(t: &Tables, s: Square, occ: u128) -> u128 {
    let (f, r) = (s.file() as usize, s.rank() as usize);
    let rank = (t.rank[f][(occ >> (r * 9)) as usize & 0x1ff] as u128) << (r * 9);
    let mut fb = 0usize;
    for rr in 0..10 {
        fb |= ((occ >> (rr * 9 + f)) as usize & 1) << rr;
    }
    rank | t.spread[t.file[r][fb] as usize] << f
}

#[inline(always)]
fn rook_ray_scan(board: &[bool; 90], s: Square) -> u128 {
    let (f, r) = (s.file() as i32, s.rank() as i32);
    let mut m = 0u128;
    for (df, dr) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
        let (mut x, mut y) = (f + df, r + dr);
        while (0..9).contains(&x) && (0..10).contains(&y) {
            let i = (y * 9 + x) as usize;
            m |= 1u128 << i;
            if board[i] {
                break;
            }
            x += df;
            y += dr;
        }
    }
    m
}

fn bench_layout(c: &mut Criterion) {
    let t = tables();
    let pos = positions();
    // (slider point, occupancy, file-major occupancy, mailbox) for every rook and cannon.
    let mut cases = Vec::new();
    for p in &pos {
        let occ = p.occupied();
        let mut board = [false; 90];
        for s in occ {
            board[s.index()] = true;
        }
        for s in p.pieces_of_kind(PieceKind::Rook) | p.pieces_of_kind(PieceKind::Cannon) {
            cases.push((s, occ.0, p.occ_by_file(), board));
        }
    }
    // The three agree.
    for (s, occ, byf, board) in &cases {
        let a = rook_with_file_word(&t, *s, *occ, *byf);
        assert_eq!(a, rook_gathered(&t, *s, *occ));
        assert_eq!(a, rook_ray_scan(board, *s));
        assert_eq!(a, rules::attacks::rook(*s, Bitboard(*occ), *byf).0);
    }
    let mut g = c.benchmark_group("rook_attacks");
    g.bench_function("u128 + file-major word", |b| {
        b.iter(|| {
            let mut acc = 0u128;
            for (s, occ, byf, _) in &cases {
                acc ^= rook_with_file_word(&t, *s, black_box(*occ), black_box(*byf));
            }
            acc
        })
    });
    g.bench_function("u128, gathered file", |b| {
        b.iter(|| {
            let mut acc = 0u128;
            for (s, occ, _, _) in &cases {
                acc ^= rook_gathered(&t, *s, black_box(*occ));
            }
            acc
        })
    });
    g.bench_function("mailbox ray scan", |b| {
        b.iter(|| {
            let mut acc = 0u128;
            for (s, _, _, board) in &cases {
                acc ^= rook_ray_scan(black_box(board), *s);
            }
            acc
        })
    });
    g.finish();
}

criterion_group!(benches, bench_layout);
criterion_main!(benches);
