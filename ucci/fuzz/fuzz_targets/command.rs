//! One protocol line, as bytes from a GUI: parsing it, and carrying out the
//! parts that read user data (FEN and moves of `position`/`probe`, `go`
//! parameters and `searchmoves`, `setoption` values, `banmoves`), must never panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use qili::protocol::command::{parse, Command};
use qili::protocol::options::Settings;
use qili::protocol::session::build_position;
use qili::protocol::{go, Dialect};
use rules::Position;

fuzz_target!(|data: &[u8]| {
    let line = String::from_utf8_lossy(data);
    let Ok(cmd) = parse(&line) else { return };
    let pos = Position::startpos();
    match cmd {
        Command::Position(spec) | Command::Probe(Some(spec)) => {
            if let Ok(p) = build_position(&spec) {
                let _ = p.legal_moves();
            }
        }
        Command::Go(g) => {
            for d in [Dialect::Ucci, Dialect::Uci] {
                let mut s = Settings::default();
                let _ = go::plan(&g, d, &s, &pos, &[]);
                s.usemillisec = false;
                let _ = go::plan(&g, d, &s, &pos, &[]);
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
