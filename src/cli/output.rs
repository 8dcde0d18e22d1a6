//! Standard output and standard error for the command line. `print!` and
//! `eprint!` panic when a write fails (a full disk, a closed descriptor);
//! these return the failure instead, for `main_with` to report once. A
//! reader that stops early (`| head`) ends the program by SIGPIPE before any
//! write fails (see `main`), so that stays quiet.

use std::fmt::Display;
use std::io::Write;

/// Writes `text` to standard output and flushes it, so that a failure
/// shows here and not unreported at exit.
pub fn out(text: impl Display) -> Result<(), String> {
    let mut stdout = std::io::stdout().lock();
    write!(stdout, "{text}")
        .and_then(|()| stdout.flush())
        .map_err(|e| format!("cannot write to standard output: {e}"))
}

/// [`out`] with a newline.
pub fn line(text: impl Display) -> Result<(), String> {
    out(format_args!("{text}\n"))
}

/// Writes `text` to standard error (a note, or progress).
pub fn note(text: impl Display) -> Result<(), String> {
    write!(std::io::stderr(), "{text}").map_err(|e| format!("cannot write to standard error: {e}"))
}
