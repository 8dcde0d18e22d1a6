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

//!
//! Reading and summarising need the `trace` feature (the `csv` and `jiff`
//! crates); playing rows as arrivals ([`replay`]) does not, so the lab's
//! module replays what its trace worker read without carrying a parser.

#[cfg(feature = "trace")]
mod columns;
#[cfg(feature = "trace")]
mod error;
#[cfg(feature = "trace")]
mod generate;
pub mod offered;
#[cfg(feature = "trace")]
mod popular;
#[cfg(feature = "trace")]
mod reader;
pub mod replay;
#[cfg(feature = "trace")]
mod report;
#[cfg(feature = "trace")]
mod rfc3339;
#[cfg(feature = "trace")]
mod summary;
#[cfg(feature = "trace")]
mod values;

#[cfg(feature = "trace")]
pub use columns::{Column, Columns, ServiceUnit, TimeFormat};
#[cfg(feature = "trace")]
pub use error::{Fault, Skipped, TraceError};
#[cfg(feature = "trace")]
pub use generate::{generate, Shape};
#[cfg(feature = "trace")]
pub use popular::{Popular, KEY_COUNTERS};
#[cfg(feature = "trace")]
pub use reader::limits::open;
#[cfg(feature = "trace")]
pub use reader::{TraceOptions, TraceReader, TraceRow, MAX_ROW_BYTES, MAX_TRACE_BYTES};
#[cfg(feature = "trace")]
pub use report::Report;
#[cfg(feature = "trace")]
pub use summary::{TraceSummary, DISPERSION_WINDOWS_S};
