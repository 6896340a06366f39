//! `qili mate`: prove a forced mate (or that there is none) with the mate prover
//! (`engine::mate`), printing the main line in ICCS and Chinese notation.

use crate::cli::position::PositionArgs;
use crate::cli::{fail, warn};
use clap::Args;
use engine::mate::{MateLimits, MateProver, MateResult};
use rules::notation::to_chinese;
use rules::Position;
use std::process::ExitCode;

#[derive(Args)]
pub struct MateArgs {
    #[command(flatten)]
    position: PositionArgs,
    /// The longest mate looked for, in moves of the side to move.
    #[arg(long, default_value_t = 5)]
    max: u32,
    /// Give up after this many nodes.
    #[arg(long)]
    nodes: Option<u64>,
    /// Give up after this many milliseconds.
    #[arg(long)]
    time: Option<u64>,
}

pub fn run(a: MateArgs) -> ExitCode {
    let pos = match a.position.position() {
        Ok((pos, warnings)) => {
            warn("mate", &warnings);
            pos
        }
        Err(e) => return fail("mate", e),
    };
    println!("position {}", pos.to_fen());
    let start = std::time::Instant::now();
    let mut prover = MateProver::new(
        MateLimits {
            nodes: a.nodes,
            time_ms: a.time,
        },
        None,
    );
    let result = prover.prove(&pos, a.max.max(1));
    let ms = start.elapsed().as_millis();
    let side = match pos.side_to_move() {
        rules::Color::Red => "Red",
        rules::Color::Black => "Black",
    };
    match result {
        MateResult::Mate { moves, line } => {
            let iccs: Vec<String> = line.iter().map(|m| m.iccs()).collect();
            let mut p = pos.clone();
            let mut chinese = Vec::new();
            for &m in &line {
                chinese.push(to_chinese(&p, m));
                p.make_move(m);
            }
            println!("{side} mates in {moves} (proved; none shorter)");
            println!("line {}", iccs.join(" "));
            println!("     {}", chinese.join(" "));
            println!("mechanism {}", mechanism(&pos, &line));
        }
        MateResult::NoMate { max } => {
            println!("{side} has no forced mate in {max} moves or fewer (proved)");
        }
        MateResult::Unknown { searched } => {
            println!("unknown: the limits came first; {side} has no mate in {searched} or fewer");
        }
    }
    println!("nodes {} time {ms} ms", prover.nodes);
    ExitCode::SUCCESS
}

/// How the main line mates, in the suite's words: what gives the final check
/// (`rook`, `cannon`, `knight`, `pawn`, `double-check`, `discovered`), or
/// `stalemate` (困毙, no move and no check); `+facing` when the kings facing each
/// other (对面笑) take an escape square; `+capture` when the mating side captures
/// on the way.
pub fn mechanism(start: &Position, line: &[rules::Move]) -> String {
    let mut p = start.clone();
    let attacker = p.side_to_move();
    let mut captures = false;
    for (i, &m) in line.iter().enumerate() {
        if i % 2 == 0 && p.piece_at(m.to()).is_some() {
            captures = true;
        }
        p.make_move(m);
    }
    let last = line.last().copied();
    let mut tags = Vec::new();
    if !p.in_check() {
        tags.push("stalemate".to_string());
    } else {
        let checkers = p.checkers();
        let mover_sq = last.map(|m| m.to());
        if checkers.count() >= 2 {
            tags.push("double-check".to_string());
        } else if mover_sq.is_some_and(|s| !checkers.has(s)) {
            tags.push("discovered".to_string());
        } else {
            let kind = checkers
                .into_iter()
                .next()
                .and_then(|s| p.piece_at(s))
                .map_or("check", |pc| match pc.kind {
                    rules::PieceKind::Rook => "rook",
                    rules::PieceKind::Cannon => "cannon",
                    rules::PieceKind::Knight => "knight",
                    rules::PieceKind::Pawn => "pawn",
                    rules::PieceKind::King => "king",
                    _ => "check",
                });
            tags.push(kind.to_string());
        }
    }
    // An escape square of the mated king refused only by the other king.
    let mated = attacker.flip();
    let ksq = p.king_square(mated);
    let enemy_king = p.king_square(attacker);
    let steps = rules::attacks::king(ksq) & !p.pieces_of(mated);
    let mut facing = false;
    for s in steps {
        if s.file() != enemy_king.file() {
            continue;
        }
        let mut q = p.clone();
        q.make_move(rules::Move::new(ksq, s));
        let attackers = q.attackers_to_king(mated);
        if attackers.count() == 1 && attackers.has(enemy_king) {
            facing = true;
        }
    }
    if facing {
        tags.push("facing".to_string());
    }
    if captures {
        tags.push("capture".to_string());
    }
    tags.join("+")
}
