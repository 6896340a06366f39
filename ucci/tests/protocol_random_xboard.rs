//! The GUI-safety promise under CECP, against the real binary: random lines
//! (`usermove`, `go`, `setboard` good and bad, `new`, `force`, `result`,
//! `undo`, `remove`, `variant`, `analyze`/`exit`, `hard`/`easy`, `?`, `ping`,
//! `sd`/`st`, clocks and garbage) sent at random delays while the engine
//! thinks, ponders or analyses. The client keeps its own copy of the game as
//! the protocol defines it, taking in each engine move as it reads it: every
//! `move` must come while the engine is on move in that copy and be legal in
//! the position its search was started on, and every search not called off
//! must end in a move.
//!
//! To keep the expected game exact the client, while the engine thinks on its
//! move, sends a line that calls the move off (`new`, `force`, `result`) only
//! before any line the engine holds back, and then waits for `pong`: a move that
//! arrives before the `pong` was made before the line was read.

mod common;
use common::*;
use rules::rng::Rng;
use rules::{Color, Move};
use std::time::{Duration, Instant};

const FENS: [&str; 3] = [
    rules::START_FEN,
    "3k1p3/4P4/9/9/6CCR/3n4c/2Pn5/8B/5p3/4K4 w - - 0 1",
    "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR b - - 0 1",
];

/// The game as the client knows it, changed by each line as CECP defines it.
#[derive(Clone)]
struct Model {
    base: Option<Position>,
    moves: Vec<Move>,
    engine: Color,
    force: bool,
    analyzing: bool,
}

impl Model {
    fn new() -> Model {
        Model {
            base: Some(Position::startpos()),
            moves: Vec::new(),
            engine: Color::Black,
            force: false,
            analyzing: false,
        }
    }

    fn position(&self) -> Option<Position> {
        let mut p = self.base.clone()?;
        for &m in &self.moves {
            p.make_move(m);
        }
        Some(p)
    }

    /// Carry out one line; `Some(position)` when the engine now searches for
    /// its move there.
    fn apply(&mut self, line: &str) -> Option<Position> {
        let (word, rest) = line.split_once(' ').unwrap_or((line, ""));
        let mut think = false;
        match word {
            "new" => {
                *self = Model {
                    analyzing: self.analyzing,
                    ..Model::new()
                }
            }
            "variant" if rest == "xiangqi" => {}
            "variant" => {
                self.base = None;
                self.moves.clear();
            }
            "setboard" => {
                self.base = Position::from_fen(rest).ok();
                self.moves.clear();
            }
            "usermove" => {
                let m = self.position().and_then(|p| p.parse_move(rest).ok());
                if let Some(m) = m {
                    self.moves.push(m);
                    think = true;
                }
            }
            "go" => {
                if let Some(p) = self.position() {
                    self.engine = p.side_to_move();
                }
                self.force = false;
                think = true;
            }
            "force" | "result" => self.force = true,
            "undo" | "remove" => {
                let n = if word == "undo" { 1 } else { 2 };
                if self.base.is_some() {
                    self.moves.truncate(self.moves.len().saturating_sub(n));
                }
            }
            "analyze" => self.analyzing = true,
            "exit" => self.analyzing = false,
            _ => {}
        }
        let p = self.position()?;
        if !think || self.analyzing || self.force || p.side_to_move() != self.engine {
            return None;
        }
        if !p.has_legal_move() {
            // The engine says the result and stops playing.
            self.force = true;
            return None;
        }
        Some(p)
    }

    /// The engine played `m`.
    fn engine_played(&mut self, m: Move) {
        self.moves.push(m);
        if !self.position().is_some_and(|p| p.has_legal_move()) {
            self.force = true;
        }
    }
}

/// The engine searching for its move: where, the lines sent since, and
/// whether one of them calls it off.
struct Search {
    root: Position,
    pending: Vec<String>,
    called_off: bool,
}

struct Client {
    q: Qili,
    model: Model,
    search: Option<Search>,
    rng: Rng,
    pings: u32,
    moves_seen: usize,
    /// The moves the client's copy refuses, in order: the engine must refuse
    /// the same (`Illegal move: X`), or its game is not the client's.
    illegal: Vec<String>,
    log: Vec<String>,
}

impl Client {
    fn below(&mut self, n: u64) -> u64 {
        self.rng.next_u64() % n
    }

    fn fail(&self, why: &str) -> ! {
        panic!(
            "{why}\nsent:\n{}\nengine said:\n{}",
            self.log.join("\n"),
            self.q.transcript.join("\n")
        );
    }

    fn send(&mut self, line: &str) {
        self.log.push(line.to_string());
        self.q.send(line);
        match self.search.as_mut() {
            Some(s) => {
                s.called_off |= calls_off(line);
                s.pending.push(line.to_string());
            }
            None => self.take(line),
        }
    }

    /// The client's copy takes `line` in; a search it starts holds the lines
    /// that come after it.
    fn take(&mut self, line: &str) {
        if let Some(text) = line.strip_prefix("usermove ") {
            let pos = self.model.position();
            if pos.is_none_or(|p| p.parse_move(text).is_err()) {
                self.illegal.push(text.to_string());
            }
        }
        if let Some(root) = self.model.apply(line) {
            self.search = Some(Search {
                root,
                pending: Vec::new(),
                called_off: false,
            });
        }
    }

    /// `move M` read from the engine.
    fn engine_move(&mut self, text: &str) {
        let Some(s) = self.search.take() else {
            self.fail(&format!("move {text} while the engine was not on move"));
        };
        let Ok(m) = s.root.parse_move(text) else {
            self.fail(&format!("move {text} is illegal in {}", s.root.to_fen()));
        };
        self.moves_seen += 1;
        // The copy stood still while the engine searched: now its move, then
        // every line sent meanwhile.
        self.model.engine_played(m);
        self.replay(s.pending);
    }

    /// The search was called off without a move.
    fn called_off(&mut self) {
        let s = self.search.take().expect("a search");
        self.replay(s.pending);
    }

    fn replay(&mut self, lines: Vec<String>) {
        for l in lines {
            match self.search.as_mut() {
                Some(s) => {
                    s.called_off |= calls_off(&l);
                    s.pending.push(l);
                }
                None => self.take(&l),
            }
        }
    }

    /// Read what the engine has said within `wait`.
    fn read(&mut self, wait: Duration) {
        let deadline = Instant::now() + wait;
        while let Some((_, l)) = self
            .q
            .next_line(deadline.saturating_duration_since(Instant::now()))
        {
            self.said(&l);
        }
    }

    fn said(&mut self, l: &str) {
        if let Some(m) = l.strip_prefix("move ") {
            self.engine_move(m);
        }
    }

    /// `ping`, and read up to its `pong`; a search called off before it that
    /// has not moved by then never will.
    fn sync(&mut self) {
        self.pings += 1;
        let n = self.pings;
        self.send(&format!("ping {n}"));
        let deadline = Instant::now() + SLOW;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let Some((_, l)) = self.q.next_line(left) else {
                self.fail(&format!("no pong {n}"));
            };
            if l == format!("pong {n}") {
                break;
            }
            self.said(&l);
        }
        if self.search.as_ref().is_some_and(|s| s.called_off) {
            self.called_off();
        }
    }

    /// One random line, chosen for the state the client believes in.
    fn step(&mut self) {
        let held_back = self
            .search
            .as_ref()
            .is_some_and(|s| s.pending.iter().any(|l| !immediate(l)));
        let line = self.random_line(held_back);
        let searching = self.search.is_some();
        self.send(&line);
        if searching && calls_off(&line) {
            self.sync();
        }
        let pause = self.below(15);
        self.read(Duration::from_millis(pause));
    }

    fn random_line(&mut self, held_back: bool) -> String {
        loop {
            let line = match self.below(20) {
                0..=4 => self.user_move(),
                5 | 6 => "go".to_string(),
                7 => {
                    let fen = FENS[self.below(3) as usize];
                    match self.below(6) {
                        0 => "setboard rnbakabnr/9/1c5c1 w - - 0 1".to_string(),
                        _ => format!("setboard {fen}"),
                    }
                }
                8 => {
                    ["new", "force", "result 1-0 {adjudicated}"][self.below(3) as usize].to_string()
                }
                9 => ["undo", "remove"][self.below(2) as usize].to_string(),
                10 => ["variant xiangqi", "variant xiangqi", "variant shogi"]
                    [self.below(3) as usize]
                    .to_string(),
                11 => ["analyze", "exit"][self.below(2) as usize].to_string(),
                12 => ["hard", "easy"][self.below(2) as usize].to_string(),
                13 => "?".to_string(),
                14 => format!("sd {}", 1 + self.below(5)),
                15 => format!("st 0.{}", 1 + self.below(3)),
                16 => format!("time {}", 100 + self.below(3000)),
                17 => ["xyzzy", "usermove", "level x", "post", "nopost"][self.below(5) as usize]
                    .to_string(),
                _ => {
                    self.sync();
                    continue;
                }
            };
            if !(held_back && calls_off(&line)) {
                return line;
            }
        }
    }

    /// Usually a legal move of the position the client knows (or of the one
    /// being searched), sometimes an illegal one.
    fn user_move(&mut self) -> String {
        let pos = match &self.search {
            Some(s) => Some(s.root.clone()),
            None => self.model.position(),
        };
        let legal: Vec<Move> = pos
            .map(|p| p.legal_moves().iter().copied().collect())
            .unwrap_or_default();
        if legal.is_empty() || self.below(8) == 0 {
            return ["usermove a0a9", "usermove e0e1", "usermove zz99"][self.below(3) as usize]
                .to_string();
        }
        let m = legal[self.below(legal.len() as u64) as usize];
        format!("usermove {}", m.iccs())
    }
}

/// Lines that call off the engine's search for its move.
fn calls_off(line: &str) -> bool {
    matches!(line.split(' ').next(), Some("new" | "force" | "result"))
}

/// Lines the engine answers at once while it thinks, changing nothing.
fn immediate(line: &str) -> bool {
    let word = line.split(' ').next().unwrap_or("");
    matches!(
        word,
        "ping" | "post" | "nopost" | "hard" | "easy" | "?" | "time" | "otim" | "xyzzy" | "level"
    ) || line == "usermove"
}

/// One random session; how many moves the engine made.
fn run(seed: u64) -> usize {
    let mut c = Client {
        q: Qili::start(),
        model: Model::new(),
        search: None,
        rng: Rng::with_stream(seed, book::RNG_STREAM),
        pings: 0,
        moves_seen: 0,
        illegal: Vec::new(),
        log: Vec::new(),
    };
    for l in ["xboard", "protover 2"] {
        c.send(l);
    }
    c.q.expect("feature done=1");
    for l in [
        "accepted usermove",
        "memory 16",
        "new",
        "variant xiangqi",
        "sd 3",
    ] {
        c.send(l);
    }
    for _ in 0..70 {
        c.step();
    }
    // Every search not called off ends in a move.
    let deadline = Instant::now() + SLOW;
    while c.search.is_some() && Instant::now() < deadline {
        c.send("?");
        c.read(Duration::from_millis(200));
        if c.search.as_ref().is_some_and(|s| s.called_off) {
            c.sync();
        }
    }
    if c.search.is_some() {
        c.fail("a search never moved");
    }
    c.sync();
    c.send("quit");
    if c.q.wait_exit(SLOW) != Some(0) {
        c.fail("no clean exit");
    }
    let late = c.q.drain_for(Duration::from_millis(100));
    if late.iter().any(|l| l.starts_with("move ")) {
        c.fail("a move after the last search");
    }
    let refused: Vec<String> =
        c.q.transcript
            .iter()
            .filter_map(|l| l.strip_prefix("Illegal move: "))
            .map(str::to_string)
            .collect();
    if refused != c.illegal {
        c.fail(&format!(
            "the engine refused {refused:?}, the client's game {:?}",
            c.illegal
        ));
    }
    c.moves_seen
}

#[test]
fn cecp_lines_at_random_delays_never_get_a_move_for_another_position() {
    let moves: Vec<usize> = (1..=8u64).map(|s| run(s * 104_729)).collect();
    eprintln!("engine moves per session: {moves:?}");
    // The scripts must exercise the promise, not only the refusals.
    assert!(moves.iter().sum::<usize>() >= 40, "{moves:?}");
}
