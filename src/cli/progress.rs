//! Progress on stderr for work that has taken more than a couple of
//! seconds, and only when stderr is a terminal: redirected or piped, stderr
//! carries messages alone. The bar's time to go is the wall time a long
//! run is expected to take, said while there is still time to stop it.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// How long the command runs before any bar shows: short work stays quiet.
const QUIET: Duration = Duration::from_secs(2);

/// When the command started; a bar of a later part of it (a sweep's next
/// row) shows at once if the command has run long already.
static STARTED: OnceLock<Instant> = OnceLock::new();

pub fn start_clock() {
    STARTED.get_or_init(Instant::now);
}

/// A bar from 0 to `total` steps of some work, hidden until it is worth
/// showing; it clears itself when dropped.
pub struct Progress {
    bar: ProgressBar,
    terminal: bool,
}

impl Progress {
    pub fn new(total: u64, message: String) -> Progress {
        start_clock();
        // Short enough for an 80-column terminal, where a wrapped bar repeats.
        let template = "  {bar:20} {percent:>3}% {msg} · {elapsed} gone, ~{eta} left";
        let style = ProgressStyle::with_template(template).unwrap_or_else(|_| ProgressStyle::default_bar());
        let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::hidden())
            .with_style(style)
            .with_message(message);
        Progress { bar, terminal: std::io::stderr().is_terminal() }
    }

    pub fn inc(&self, steps: u64) {
        self.bar.inc(steps);
        self.reveal();
    }

    pub fn set(&self, position: u64) {
        self.bar.set_position(position);
        self.reveal();
    }

    fn reveal(&self) {
        let long = STARTED.get().is_some_and(|started| started.elapsed() > QUIET);
        if self.terminal && long && self.bar.is_hidden() {
            self.bar.set_draw_target(ProgressDrawTarget::stderr());
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.bar.finish_and_clear();
    }
}
