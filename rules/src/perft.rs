//! Move-path enumeration (perft), the standard correctness and speed check of a
//! move generator.

use crate::movegen::{GenKind, MoveList};
use crate::position::Position;
use crate::types::Move;

/// Leaf count at `depth`. With `bulk`, the last ply is counted from the move list
/// without playing it; without, every leaf is played and taken back.
pub fn perft(pos: &mut Position, depth: u32, bulk: bool) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut list = MoveList::new();
    pos.generate(GenKind::All, &mut list);
    if depth == 1 && bulk {
        return list.len() as u64;
    }
    let mut n = 0;
    for &m in list.as_slice() {
        pos.make_move(m);
        n += perft(pos, depth - 1, bulk);
        pos.unmake_move();
    }
    n
}

/// Leaf counts below each root move, in generation order.
pub fn divide(pos: &mut Position, depth: u32, bulk: bool) -> Vec<(Move, u64)> {
    let list = pos.legal_moves();
    list.iter()
        .map(|&m| {
            pos.make_move(m);
            let n = if depth <= 1 {
                1
            } else {
                perft(pos, depth - 1, bulk)
            };
            pos.unmake_move();
            (m, n)
        })
        .collect()
}

/// `divide` with the root moves shared among `threads` worker threads.
pub fn divide_parallel(pos: &Position, depth: u32, bulk: bool, threads: usize) -> Vec<(Move, u64)> {
    let moves: Vec<Move> = pos.legal_moves().as_slice().to_vec();
    let threads = threads.clamp(1, moves.len().max(1));
    let next = std::sync::atomic::AtomicUsize::new(0);
    let mut results = vec![0u64; moves.len()];
    let chunks: Vec<Vec<(usize, u64)>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                s.spawn(|| {
                    let mut p = pos.clone();
                    let mut out = Vec::new();
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        if i >= moves.len() {
                            break;
                        }
                        p.make_move(moves[i]);
                        let n = if depth <= 1 {
                            1
                        } else {
                            perft(&mut p, depth - 1, bulk)
                        };
                        p.unmake_move();
                        out.push((i, n));
                    }
                    out
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_default())
            .collect()
    });
    for (i, n) in chunks.into_iter().flatten() {
        results[i] = n;
    }
    moves.into_iter().zip(results).collect()
}
