//! One protocol line, as bytes from a GUI: parsing it, and carrying out the
//! parts that read user data (FEN and moves of `position`/`probe` at both validity
//! levels, `go` parameters and `searchmoves` through to the time manager's budget
//! and lag tracking, `setoption` values, `banmoves`), must never panic, and a
//! budget never exceeds the clock it was made from.
#![no_main]

use libfuzzer_sys::fuzz_target;
use qili::protocol::command::{parse, Command};
use qili::protocol::options::Settings;
use engine::params::DEFAULT;
use engine::timeman::{allocate, Lag, LagTracker};
use qili::protocol::coords::Coords;
use qili::protocol::session::build_position;
use qili::protocol::{go, Dialect};
use rules::position::Validity;
use rules::Position;

fuzz_target!(|data: &[u8]| {
    let line = String::from_utf8_lossy(data);
    let Ok(cmd) = parse(&line) else { return };
    let pos = Position::startpos();
    match cmd {
        Command::Position(spec) | Command::Probe(Some(spec)) => {
            let both = [Coords::Iccs, Coords::OneBased];
            for (v, c) in [Validity::Playable, Validity::GameReachable].into_iter().zip(both) {
                if let Ok(p) = build_position(&spec, v, c) {
                    let _ = p.legal_moves();
                    let _ = p.to_setup().unreachable();
                }
            }
        }
        Command::Go(g) => {
            for d in [Dialect::Ucci, Dialect::Uci] {
                let mut s = Settings::default();
                for millis in [true, false] {
                    s.usemillisec = millis;
                    let plan = go::plan(&g, d, &s, &pos, &[]);
                    let Some(tc) = plan.limits.clock else { continue };
                    // The clock goes through the time manager: budgets within the
                    // clock, and the lag tracker fed these very numbers.
                    let mut tracker = LagTracker::new();
                    for ply in [0u32, 1, 2, 150, u32::MAX] {
                        tracker.before_search(&tc, ply);
                        for lag in [tracker.lag(s.move_overhead_ms), Lag::fixed(u64::MAX)] {
                            let b = allocate(&tc, &lag, ply, &DEFAULT);
                            assert!(1 <= b.soft_ms && b.soft_ms <= b.hard_ms);
                            assert!(b.hard_ms <= tc.time_ms.max(1));
                            let _ = b.with_ponder().soft_scaled(3.0, i32::MAX, &DEFAULT);
                        }
                        tracker.after_search(&tc, ply, tc.time_ms / 7);
                    }
                }
            }
        }
        Command::SetOption { name, value } => {
            let _ = Settings::default().set(&name, value.as_deref());
        }
        Command::BanMoves(moves) => {
            for m in moves {
                let _ = pos.parse_move(&m);
            }
        }
        _ => {}
    }
});
