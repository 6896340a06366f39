//! A tiny test engine for the match runner: a random (or scripted) mover that speaks
//! UCCI or UCI, with switches that make it misbehave in every way the runner must
//! survive. Not a chess engine; it only exists for tests and for trying `qili match`.
//!
//! Usage: qili-fake-engine [--proto ucci|uci|any] [--mode MODE] [--seed N]
//!   [--script "m1 m2 …"] [--ranks 0|1] [--start-delay-ms N] [--move-delay-ms N]
//!   [--flag draw|resign] [--score N] [--crash-after N] [--name NAME]
//!   [--pv-extra "moves"] (appended to the info pv) [--flood-bytes N] (a junk line of N
//!   bytes before every reply) [--strict] (exit on the other protocol's greeting)
//! MODE: random (default), first, script, illegal, silent, garbage, nobestmove,
//!   nohandshake, noexit, crash.
//! It honours UCCI `banmoves`. `script` plays script[k] at the k-th ply after the FEN of the `position` command
//! (cycling), which replays a repetition cycle; if that move is illegal it plays the
//! first legal move.

use bench::notation::{move_text, parse_move_text, RankBase};
use rules::rng::Rng;
use rules::{Position, START_FEN};
use std::io::{BufRead, Write};
use std::time::Duration;

struct Opts {
    proto: String,
    mode: String,
    seed: u64,
    script: Vec<String>,
    ranks: RankBase,
    start_delay: u64,
    move_delay: u64,
    flag: Option<String>,
    score: Option<i32>,
    crash_after: Option<u32>,
    name: String,
    pv_extra: String,
    flood_bytes: usize,
    strict: bool,
}

fn parse_args() -> Opts {
    let mut o = Opts {
        proto: "any".into(),
        mode: "random".into(),
        seed: 1,
        script: Vec::new(),
        ranks: RankBase::Zero,
        start_delay: 0,
        move_delay: 0,
        flag: None,
        score: None,
        crash_after: None,
        name: "fake".into(),
        pv_extra: String::new(),
        flood_bytes: 0,
        strict: false,
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < args.len() {
        let v = args.get(i + 1).cloned().unwrap_or_default();
        match args[i].as_str() {
            "--proto" => o.proto = v,
            "--mode" => o.mode = v,
            "--seed" => o.seed = v.parse().unwrap_or(1),
            "--script" => o.script = v.split_whitespace().map(String::from).collect(),
            "--ranks" => {
                o.ranks = if v == "1" {
                    RankBase::One
                } else {
                    RankBase::Zero
                }
            }
            "--start-delay-ms" => o.start_delay = v.parse().unwrap_or(0),
            "--move-delay-ms" => o.move_delay = v.parse().unwrap_or(0),
            "--flag" => o.flag = Some(v),
            "--score" => o.score = v.parse().ok(),
            "--crash-after" => o.crash_after = v.parse().ok(),
            "--name" => o.name = v,
            "--strict" => {
                o.strict = true;
                i += 1;
                continue;
            }
            "--pv-extra" => o.pv_extra = v,
            "--flood-bytes" => o.flood_bytes = v.parse().unwrap_or(0),
            _ => {
                i += 1;
                continue;
            }
        }
        i += 2;
    }
    o
}

/// Parse `position {fen F | startpos} [moves …]`: the position and the plies after the FEN.
fn parse_position(tokens: &[&str], ranks: RankBase) -> Option<(Position, usize)> {
    let (fen, rest) = match tokens {
        ["startpos", rest @ ..] => (START_FEN.to_string(), rest),
        ["fen", rest @ ..] => {
            let n = rest
                .iter()
                .position(|t| *t == "moves")
                .unwrap_or(rest.len());
            (rest[..n].join(" "), &rest[n..])
        }
        _ => return None,
    };
    let mut pos = Position::from_fen(&fen).ok()?;
    let moves = match rest {
        ["moves", m @ ..] => m,
        _ => &[],
    };
    for t in moves {
        let m = parse_move_text(t, ranks)?;
        if !pos.is_legal(m) {
            return None;
        }
        pos.make_move(m);
    }
    Some((pos, moves.len()))
}

fn main() {
    let o = parse_args();
    let mut rng = Rng::new(o.seed);
    std::thread::sleep(Duration::from_millis(o.start_delay));
    let stdin = std::io::stdin();
    let mut out = std::io::stdout();
    let mut say = |s: &str| {
        let _ = writeln!(out, "{s}");
        let _ = out.flush();
    };
    let mut pos: Option<(Position, usize)> = None;
    let mut moves_played = 0u32;
    let mut banned: Vec<rules::Move> = Vec::new();
    let mut greeted = false;
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let t: Vec<&str> = line.split_whitespace().collect();
        match t.as_slice() {
            [hello @ ("ucci" | "uci")] => {
                let ok = if *hello == "ucci" { "ucciok" } else { "uciok" };
                let speaks = o.proto == "any" || o.proto == *hello;
                if o.mode == "nohandshake" {
                    say("hello? what protocol is this");
                } else if !speaks && o.strict {
                    return; // exits on a greeting it does not speak, like ElephantEye
                } else if !speaks {
                    say(&format!(
                        "Unknown command: '{hello}'. Type help for more information."
                    ));
                } else {
                    say(&format!("id name {}", o.name));
                    if *hello == "ucci" {
                        say("option usemillisec type check default true");
                    }
                    say(ok);
                    greeted = true;
                }
            }
            ["isready"] if greeted => say("readyok"),
            ["position", rest @ ..] => {
                pos = parse_position(rest, o.ranks);
                banned.clear(); // `banmoves` lasts until the next `position`
            }
            ["banmoves", list @ ..] => {
                banned = list
                    .iter()
                    .filter_map(|t| parse_move_text(t, o.ranks))
                    .collect();
            }
            ["go", ..] => {
                moves_played += 1;
                if o.crash_after.is_some_and(|n| moves_played > n) || o.mode == "crash" {
                    std::process::exit(3);
                }
                std::thread::sleep(Duration::from_millis(o.move_delay));
                let Some((p, ply)) = &pos else {
                    say("nobestmove");
                    continue;
                };
                let legal: Vec<rules::Move> = p
                    .legal_moves()
                    .iter()
                    .copied()
                    .filter(|m| !banned.contains(m))
                    .collect();
                if o.flood_bytes > 0 {
                    say(&"x".repeat(o.flood_bytes));
                }
                let choice = match o.mode.as_str() {
                    "silent" => continue,
                    "nobestmove" => {
                        say("nobestmove");
                        continue;
                    }
                    "garbage" => {
                        say("\u{1}\u{7f} ### garbage ###");
                        say("bestmovex");
                        say("bestmove xyzzy");
                        continue;
                    }
                    "illegal" => {
                        // A move from an empty point: never legal.
                        let empty = (0..90u8)
                            .map(rules::Square)
                            .find(|&s| p.piece_at(s).is_none())
                            .unwrap_or(rules::Square(0));
                        let to = rules::Square(if empty.0 == 89 { 88 } else { empty.0 + 1 });
                        Some(rules::Move::new(empty, to))
                    }
                    "script" if !o.script.is_empty() => {
                        let text = &o.script[*ply % o.script.len()];
                        parse_move_text(text, RankBase::Zero)
                            .filter(|m| legal.contains(m))
                            .or_else(|| legal.first().copied())
                    }
                    "first" => legal.first().copied(),
                    _ => {
                        if legal.is_empty() {
                            None
                        } else {
                            Some(legal[rng.below(legal.len())])
                        }
                    }
                };
                match choice {
                    Some(m) => {
                        let score = o.score.map(|s| format!(" score {s}")).unwrap_or_default();
                        let pv = format!("{} {}", move_text(m, o.ranks), o.pv_extra);
                        say(&format!("info depth 1{score} pv {}", pv.trim()));
                        let flag = o
                            .flag
                            .as_deref()
                            .map(|f| format!(" {f}"))
                            .unwrap_or_default();
                        say(&format!("bestmove {}{flag}", move_text(m, o.ranks)));
                    }
                    None => say("nobestmove"),
                }
            }
            ["stop"] => {}
            ["quit"] => {
                if o.mode == "noexit" {
                    continue;
                }
                say("bye");
                return;
            }
            _ => {}
        }
    }
    if o.mode == "noexit" {
        // Like ElephantEye on a closed stdin: never exit by itself.
        loop {
            std::thread::sleep(Duration::from_secs(1));
        }
    }
}
