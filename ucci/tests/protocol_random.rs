//! The GUI-safety promise against the real binary, with lines arriving while it
//! searches: random `position` lines (good, refused, Cyclone's bare `fen` and
//! `startpos`), `go`, `stop`, `isready` and garbage, sent at random delays in
//! every dialect, then the input closed. Every answer must be legal in the
//! position in force when its `go` was read — the last position line sent before
//! it, or none when that line was refused — and every `go` gets its answer.
//!
//! Under UCCI a line sent during a search may be refused (UCCI 3.0): a refused
//! `go` names itself in its error line (each `go` carries its own node count);
//! a refused `position` leaves no position, so that `go` may answer without a
//! move, never with one for an older position. An idle UCCI `stop` answers
//! `nobestmove`, which the matching below allows for.

mod common;
use common::*;
use rules::rng::Rng;
use rules::{Move, Position};
use std::time::Duration;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Dialect {
    Ucci,
    Uci,
    Cyclone,
    Fairy,
}

impl Dialect {
    fn format(self, m: Move) -> String {
        match self {
            Dialect::Fairy => {
                let sq =
                    |s: rules::Square| format!("{}{}", (b'a' + s.file()) as char, s.rank() + 1);
                format!("{}{}", sq(m.from()), sq(m.to()))
            }
            _ => m.iccs(),
        }
    }

    fn parse(self, pos: &Position, text: &str) -> Option<Move> {
        let iccs = match self {
            Dialect::Fairy => {
                let b = text.as_bytes();
                let split = 1 + b[1..].iter().position(|c| c.is_ascii_alphabetic())?;
                let rank = |t: &str| -> Option<String> {
                    let r: u8 = t.get(1..)?.parse().ok()?;
                    (1..=10)
                        .contains(&r)
                        .then(|| format!("{}{}", &t[..1], r - 1))
                };
                format!("{}{}", rank(&text[..split])?, rank(&text[split..])?)
            }
            _ => text.to_string(),
        };
        pos.parse_move(&iccs).ok()
    }
}

const FENS: [&str; 3] = [
    rules::START_FEN,
    "3k1p3/4P4/9/9/6CCR/3n4c/2Pn5/8B/5p3/4K4 w - - 0 1",
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1",
];

/// A position line and what it stands for (`None`: refused).
fn position_line(rng: &mut Rng, d: Dialect) -> (String, Option<Position>) {
    let below = |rng: &mut Rng, n: u64| rng.next_u64() % n;
    let fen = FENS[below(rng, 3) as usize];
    let mut pos = Position::from_fen(fen).unwrap();
    let mut words = Vec::new();
    let mut valid = true;
    for _ in 0..below(rng, 9) {
        let legal: Vec<Move> = pos.legal_moves().iter().copied().collect();
        if legal.is_empty() {
            break;
        }
        let m = legal[below(rng, legal.len() as u64) as usize];
        words.push(d.format(m));
        pos.make_move(m);
    }
    if below(rng, 8) == 0 {
        // The other side's move or no move at all: the whole line is refused.
        words.push(["a0a9", "zz99", "h2e2h2e2"][below(rng, 3) as usize].to_string());
        valid = false;
    }
    let base = if fen == rules::START_FEN && below(rng, 2) == 0 {
        "startpos".to_string()
    } else if below(rng, 10) == 0 {
        valid = false;
        "fen rnbakabnr/9/1c5c1 w - - 0 1".to_string()
    } else {
        format!("fen {fen}")
    };
    // Cyclone's bare form, which every dialect reads.
    let head = if below(rng, 3) == 0 { "" } else { "position " };
    let line = if words.is_empty() {
        format!("{head}{base}")
    } else {
        format!("{head}{base} moves {}", words.join(" "))
    };
    (line, valid.then_some(pos))
}

struct Go {
    tag: u64,
    expect: Option<Position>,
}

fn script(seed: u64, d: Dialect) -> (Vec<String>, Vec<Go>) {
    let mut rng = Rng::with_stream(seed, book::RNG_STREAM);
    let mut lines = Vec::new();
    let mut gos = Vec::new();
    let mut model = Some(Position::startpos());
    for i in 0..60u64 {
        let line = match rng.next_u64() % 12 {
            0..=3 => {
                let (line, pos) = position_line(&mut rng, d);
                model = pos;
                line
            }
            4..=6 => {
                let tag = 1000 + 37 * i;
                gos.push(Go {
                    tag,
                    expect: model.clone(),
                });
                match rng.next_u64() % 8 {
                    0 | 1 => format!("go infinite nodes {tag}"),
                    // No limit at all: it runs until `stop` (or the end of
                    // input). UCCI's refusal could not name it: UCI only.
                    2 if d != Dialect::Ucci => "go".to_string(),
                    3 => format!("go fish nodes {tag}"),
                    _ => format!("go nodes {tag}"),
                }
            }
            7 | 8 => "stop".to_string(),
            9 => "isready".to_string(),
            10 => [
                "flip the board",
                "xyzzy 12",
                "setoption name Nonesuch value 1",
            ][(rng.next_u64() % 3) as usize]
                .to_string(),
            _ => {
                // Unreadable, but it may have meant a position.
                model = None;
                ["positoin startpos", "startpos h2e2", "fen"][(rng.next_u64() % 3) as usize]
                    .to_string()
            }
        };
        lines.push(line);
    }
    (lines, gos)
}

/// Can the answers be those of the accepted `go`s in order (plus, under UCCI,
/// `nobestmove` for idle `stop`s and for positions refused during a search)?
fn answers_match(d: Dialect, answers: &[Option<String>], gos: &[&Go]) -> bool {
    let (n, m) = (answers.len(), gos.len());
    let mut reach = vec![vec![false; m + 1]; n + 1];
    reach[0][0] = true;
    for i in 0..n {
        for j in 0..=m {
            if !reach[i][j] {
                continue;
            }
            match &answers[i] {
                None => {
                    if d == Dialect::Ucci {
                        reach[i + 1][j] = true;
                    }
                    if j < m {
                        let none_ok = match &gos[j].expect {
                            None => true,
                            Some(p) => d == Dialect::Ucci || !p.has_legal_move(),
                        };
                        if none_ok {
                            reach[i + 1][j + 1] = true;
                        }
                    }
                }
                Some(text) => {
                    if j < m {
                        if let Some(p) = &gos[j].expect {
                            if d.parse(p, text).is_some() {
                                reach[i + 1][j + 1] = true;
                            }
                        }
                    }
                }
            }
        }
    }
    reach[n][m]
}

fn run(seed: u64, d: Dialect) {
    let (lines, gos) = script(seed, d);
    let mut rng = Rng::with_stream(seed ^ 0xde1a, book::RNG_STREAM);
    let mut q = Qili::start();
    let greeting = match d {
        Dialect::Ucci => "ucci",
        Dialect::Cyclone => "ucicyclone",
        _ => "uci",
    };
    q.send(greeting);
    if d == Dialect::Fairy {
        q.send("setoption name UCI_Variant value xiangqi");
    }
    for line in &lines {
        q.send(line);
        std::thread::sleep(Duration::from_millis(rng.next_u64() % 15));
    }
    q.close_stdin();
    let code = q.wait_exit(Duration::from_secs(60));
    let out = q.drain_for(Duration::from_millis(300));
    assert_eq!(
        code,
        Some(0),
        "seed {seed} {d:?}; lines:\n{}\nout:\n{}",
        lines.join("\n"),
        out.join("\n")
    );
    let refused: Vec<u64> = out
        .iter()
        .filter(|l| l.contains("ignored while thinking"))
        .filter_map(|l| l.split("nodes ").nth(1)?.split('\'').next()?.parse().ok())
        .collect();
    assert!(
        d == Dialect::Ucci || refused.is_empty(),
        "{d:?} refused {refused:?}"
    );
    let accepted: Vec<&Go> = gos.iter().filter(|g| !refused.contains(&g.tag)).collect();
    let answers: Vec<Option<String>> = out
        .iter()
        .filter(|l| l.starts_with("bestmove") || *l == "nobestmove")
        .map(|l| best_of(l))
        .collect();
    assert!(
        answers_match(d, &answers, &accepted),
        "seed {seed} {d:?}: answers {answers:?} do not fit the gos; lines:\n{}\nout:\n{}",
        lines.join("\n"),
        out.join("\n")
    );
}

#[test]
fn lines_during_searches_never_get_a_move_for_another_position() {
    for seed in 1..=5u64 {
        for d in [
            Dialect::Uci,
            Dialect::Cyclone,
            Dialect::Fairy,
            Dialect::Ucci,
        ] {
            run(seed * 7919, d);
        }
    }
}
