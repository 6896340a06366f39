//! Progress of long runs (matches, data generation, training, tuning): a bar with
//! rate and time to go on a terminal (indicatif), and, when stderr is not a
//! terminal (a log file), a plain status line at most every `PLAIN_EVERY` so that
//! a log shows the run advancing without a line per step.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::time::{Duration, Instant};

/// How often a plain (non-terminal) status line is written.
const PLAIN_EVERY: Duration = Duration::from_secs(60);

pub struct Progress {
    what: String,
    total: u64,
    bar: Option<ProgressBar>,
    /// Plain lines for a log: when the last one was written.
    plain: Option<Instant>,
    started: Instant,
}

impl Progress {
    /// A progress display for `total` steps of `what` (e.g. "games"); `wanted`
    /// false shows nothing at all.
    pub fn new(what: &str, total: u64, wanted: bool) -> Progress {
        let terminal = std::io::stderr().is_terminal();
        let bar = (wanted && terminal).then(|| {
            let b = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
            let style = ProgressStyle::with_template(
                "[{bar:30}] {pos}/{len} {msg} ({per_sec}, {eta} to go)",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> ");
            b.set_style(style);
            b
        });
        Progress {
            what: what.to_string(),
            total,
            bar,
            plain: (wanted && !terminal).then(Instant::now),
            started: Instant::now(),
        }
    }

    /// `done` steps finished; `status` says how it goes (scores, losses…).
    pub fn set(&mut self, done: u64, status: &str) {
        if let Some(b) = &self.bar {
            b.set_position(done);
            b.set_message(status.to_string());
        }
        if let Some(last) = self.plain.as_mut() {
            if last.elapsed() >= PLAIN_EVERY || done == self.total {
                *last = Instant::now();
                let secs = self.started.elapsed().as_secs_f64().max(1e-9);
                eprintln!(
                    "{} {done}/{} {status} ({:.2}/s)",
                    self.what,
                    self.total,
                    done as f64 / secs
                );
            }
        }
    }

    /// Run `f` (which prints) with the bar out of the way.
    pub fn suspend<R>(&self, f: impl FnOnce() -> R) -> R {
        match &self.bar {
            Some(b) => b.suspend(f),
            None => f(),
        }
    }

    /// Remove the bar.
    pub fn finish(&mut self) {
        if let Some(b) = self.bar.take() {
            b.finish_and_clear();
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.finish();
    }
}
