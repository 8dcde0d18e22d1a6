//! The reader's limits: a reader that counts the bytes through it and
//! stops a trace longer than its limit, or a line longer than a row may be.

use super::{Fault, TraceError, MAX_ROW_BYTES};
use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

/// Why reading stopped short: the trace outgrew its limit, or a line the
/// row limit.
#[derive(Debug)]
pub(super) enum Overrun {
    File,
    Line,
}

impl std::fmt::Display for Overrun {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Overrun::File => "the trace is larger than its limit",
            Overrun::Line => "a line is longer than a row may be",
        })
    }
}

impl std::error::Error for Overrun {}

/// A reader that counts the bytes through it, and the length of the line
/// they are in, and fails once either is over its limit.
pub(super) struct Limited<R> {
    pub inner: R,
    pub bytes: u64,
    pub line: u64,
    pub max_bytes: u64,
}

impl<R: Read> Read for Limited<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let read = self.inner.read(buf)?;
        self.bytes += read as u64;
        if self.bytes > self.max_bytes {
            return Err(io::Error::other(Overrun::File));
        }
        for (i, piece) in buf[..read].split(|b| *b == b'\n').enumerate() {
            if i > 0 {
                self.line = 0;
            }
            self.line += piece.len() as u64;
            if self.line > MAX_ROW_BYTES {
                return Err(io::Error::other(Overrun::Line));
            }
        }
        Ok(read)
    }
}

/// A trace file opened for reading, refused at once when its size is over
/// `max_bytes` (the reader would stop there too, but only once that much
/// was read, and a file of one long line would be refused for that first).
pub fn open(path: &Path, max_bytes: u64) -> Result<File, String> {
    let shown = path.display();
    let file = File::open(path).map_err(|e| format!("cannot open trace {shown}: {e}"))?;
    let size = file.metadata().map_err(|e| format!("cannot read trace {shown}: {e}"))?.len();
    match size > max_bytes {
        true => Err(format!(
            "{shown}: {}",
            TraceError::of_file(Fault::TooLarge, too_large(Some(size), max_bytes))
        )),
        false => Ok(file),
    }
}

/// A trace over the limit, `size` bytes when known before reading.
pub(super) fn too_large(size: Option<u64>, max_bytes: u64) -> String {
    let limit = format!("the limit of {max_bytes} bytes ({})", in_units(max_bytes));
    match size {
        Some(size) => format!("the trace is {size} bytes, more than {limit}"),
        None => format!("the trace is larger than {limit}"),
    }
}

pub(super) fn row_too_long() -> String {
    format!(
        "the row is longer than {MAX_ROW_BYTES} bytes ({}), the most a row may be",
        in_units(MAX_ROW_BYTES)
    )
}

/// Bytes as KiB, MiB or GiB, for messages.
pub(super) fn in_units(bytes: u64) -> String {
    match bytes {
        b if b >= 1 << 30 && b % (1 << 30) == 0 => format!("{} GiB", b >> 30),
        b if b >= 1 << 20 && b % (1 << 20) == 0 => format!("{} MiB", b >> 20),
        b if b >= 1 << 10 && b % (1 << 10) == 0 => format!("{} KiB", b >> 10),
        b => format!("{b} bytes"),
    }
}
