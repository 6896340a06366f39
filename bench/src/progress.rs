//! A one-line progress bar on stderr, drawn only when stderr is a terminal.
//! Written by hand rather than with a crate: one line, redrawn after each game.

use std::io::{IsTerminal, Write};

pub struct Progress {
    total: u32,
    enabled: bool,
    shown: bool,
}

impl Progress {
    pub fn new(total: u32, wanted: bool) -> Progress {
        Progress {
            total,
            enabled: wanted && std::io::stderr().is_terminal(),
            shown: false,
        }
    }

    /// Redraw the bar with `done` games and a status text.
    pub fn draw(&mut self, done: u32, status: &str) {
        if !self.enabled {
            return;
        }
        let width = 30usize;
        let filled = if self.total == 0 {
            width
        } else {
            (done as usize * width / self.total as usize).min(width)
        };
        let bar: String = "=".repeat(filled) + &" ".repeat(width - filled);
        let mut e = std::io::stderr().lock();
        let _ = write!(e, "\r\x1b[K[{bar}] {done}/{} {status}", self.total);
        let _ = e.flush();
        self.shown = true;
    }

    /// Erase the bar (before printing a normal line).
    pub fn clear(&mut self) {
        if self.enabled && self.shown {
            let mut e = std::io::stderr().lock();
            let _ = write!(e, "\r\x1b[K");
            let _ = e.flush();
            self.shown = false;
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.clear();
    }
}
