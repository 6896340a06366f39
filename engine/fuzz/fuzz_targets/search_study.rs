//! Composed studies from random placements: the bytes place pieces anywhere a
//! playable position allows (more of a kind than the set holds, pawns behind
//! their start, elephants off their points). Every position the rules accept is
//! searched a few plies with the handcrafted evaluation and with the net; no
//! panic, and the move found is legal.
#![no_main]

use engine::eval::EvalChoice;
use engine::{Engine, EngineOptions, Limits, SearchControl};
use libfuzzer_sys::fuzz_target;
use rules::{Color, Piece, PieceKind, Position, Setup, Square};
use std::sync::OnceLock;

fn engines() -> &'static std::sync::Mutex<[Engine; 2]> {
    static E: OnceLock<std::sync::Mutex<[Engine; 2]>> = OnceLock::new();
    E.get_or_init(|| {
        let make = |eval: EvalChoice| {
            let mut e = Engine::new(EngineOptions {
                hash_mb: 1,
                ..EngineOptions::default()
            });
            e.set_eval(eval);
            e
        };
        std::sync::Mutex::new([
            make(EvalChoice::Hce),
            make(EvalChoice::embedded().expect("embedded net")),
        ])
    })
}

fuzz_target!(|data: &[u8]| {
    if data.len() < 3 {
        return;
    }
    let mut setup = Setup::parse("9/9/9/9/9/9/9/9/9/9").expect("empty board");
    setup.side = if data[0] & 1 == 0 { Color::Red } else { Color::Black };
    // Kings first, inside their palaces.
    let palace = |b: u8, c: Color| {
        let (f, r) = (3 + b % 3, (b / 3) % 3);
        let r = if c == Color::Red { r } else { 9 - r };
        Square::new(f, r)
    };
    setup.board[palace(data[1], Color::Red).index()] = Some(Piece::new(Color::Red, PieceKind::King));
    let bk = palace(data[2], Color::Black);
    setup.board[bk.index()] = Some(Piece::new(Color::Black, PieceKind::King));
    // Then pieces: two bytes each, a kind and colour and a point.
    for pair in data[3..].chunks_exact(2).take(30) {
        let color = if pair[0] & 8 == 0 { Color::Red } else { Color::Black };
        let kind = PieceKind::ALL[1 + (pair[0] as usize & 7) % 6];
        let sq = Square(pair[1] % 90);
        if setup.board[sq.index()].is_none() {
            setup.board[sq.index()] = Some(Piece::new(color, kind));
        }
    }
    let Ok(pos) = Position::from_setup(&setup) else {
        return;
    };
    let _ = setup.unreachable();
    let mut engines = engines().lock().unwrap_or_else(|e| e.into_inner());
    for e in engines.iter_mut() {
        e.new_game();
        let limits = Limits {
            depth: Some(3),
            nodes: Some(20_000),
            ..Limits::default()
        };
        let r = e.search(&pos, &limits, &SearchControl::new(), &mut |_| {});
        match r.best {
            Some(m) => assert!(pos.is_legal(m), "{m} in {}", pos.to_fen()),
            None => assert!(!pos.has_legal_move(), "no move in {}", pos.to_fen()),
        }
    }
});
