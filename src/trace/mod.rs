//! Request traces: a recorded stream of requests, read one row at a time.
//!
//! A trace is CSV with a header, or JSON lines (one object a line), with a
//! row per request: when it arrived, and optionally its key, its class (an
//! endpoint's name) and the service time it took. [`TraceReader`] streams
//! the rows, so memory does not grow with a trace's length, and turns every
//! fault into one [`TraceError`] naming the row and the column.
//! [`TraceSummary`] says what a trace is (its rate, burstiness, service
//! times, classes and key popularity) in bounded memory too.
//!
//! The format, the limits and the summary's definitions are in
//! `docs/traces.md`.

mod columns;
mod error;
mod generate;
mod popular;
mod reader;
mod summary;
mod values;

pub use columns::{Column, Columns, ServiceUnit, TimeFormat};
pub use error::{Fault, Skipped, TraceError};
pub use generate::{generate, Shape};
pub use popular::{Popular, KEY_COUNTERS};
pub use reader::{TraceOptions, TraceReader, TraceRow, MAX_ROW_BYTES, MAX_TRACE_BYTES};
pub use summary::{TraceSummary, DISPERSION_WINDOWS_S};
