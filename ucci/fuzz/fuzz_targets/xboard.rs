//! CECP (XBoard) input as bytes from a GUI, one command a line: parsing each
//! line (`xboard::command::parse`) must never panic, and every command that
//! reaches the game without an engine is carried out on one `xboard::game::Game`
//! across the lines — `setboard` FENs, moves, `undo`/`remove`, `new`, and the
//! clocks (`level`, `st`, `sd`, `time`, `otim`) through `go::plan` and the time
//! manager's budget, which must stay within the clock it was made from;
//! `option NAME=VALUE` goes through the option table (`Settings::set`).
#![no_main]

use engine::params::DEFAULT;
use engine::timeman::{allocate, LagTracker};
use libfuzzer_sys::fuzz_target;
use qili::protocol::options::Settings;
use qili::protocol::xboard::command::{parse, Cmd};
use qili::protocol::xboard::game::Game;
use qili::protocol::{go, Dialect};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut game = Game::new();
    let mut settings = Settings::default();
    for line in text.lines().take(64) {
        let Ok(cmd) = parse(line) else { continue };
        match cmd {
            Cmd::New => game = Game::new(),
            Cmd::SetBoard(fen) => {
                let _ = game.set_board(&fen);
            }
            Cmd::UserMove(m) => {
                let _ = game.play_text(&m);
            }
            Cmd::Undo => game.take_back(1),
            Cmd::Remove => game.take_back(2),
            Cmd::Force => game.force = true,
            Cmd::Level(l) => {
                game.clocks.level = l;
                game.clocks.st_ms = None;
            }
            Cmd::St(ms) => game.clocks.st_ms = Some(ms),
            Cmd::Sd(d) => game.clocks.sd = Some(d.max(1)),
            Cmd::Time(cs) => game.clocks.ours_cs = Some(cs),
            Cmd::Otim(cs) => game.clocks.theirs_cs = Some(cs),
            Cmd::Option { name, value } => {
                let _ = settings.set(&name, value.as_deref());
            }
            _ => {}
        }
        let Some(pos) = game.position() else { continue };
        let _ = pos.legal_moves();
        let g = game.go_params(pos.side_to_move());
        let plan = go::plan(&g, Dialect::Uci, &settings, pos, &[]);
        if let Some(tc) = plan.limits.clock {
            let mut tracker = LagTracker::new();
            tracker.before_search(&tc, 0);
            let b = allocate(&tc, &tracker.lag(settings.move_overhead_ms), 0, &DEFAULT);
            assert!(1 <= b.soft_ms && b.soft_ms <= b.hard_ms);
            assert!(b.hard_ms <= tc.time_ms.max(1));
        }
    }
});
