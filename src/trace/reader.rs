//! Reads a trace row by row: CSV with a header, or JSON lines.
//!
//! The reader holds one row at a time, so memory does not grow with a
//! trace's length; the bytes it reads are counted, so a line longer than
//! [`MAX_ROW_BYTES`] or a file longer than its limit stops it with a
//! message rather than filling memory.

use super::columns::{service_column, Column, Columns, ServiceUnit, TimeFormat, SERVICE_NAMES};
use super::error::{Fault, Skipped, TraceError};
use super::replay::{key_number, Recorded};
use super::values::{nanoseconds, Refusal};
use crate::scenario::echo;
use crate::time::Time;
use std::borrow::Cow;
use std::io::{self, BufRead, BufReader, Chain, Cursor, Read};

/// The longest row: 64 KiB, far more than a request's few fields need.
pub const MAX_ROW_BYTES: u64 = 64 * 1024;
/// The largest trace, unless the options set another limit: 8 GiB (about
/// 200 million rows of 40 bytes).
pub const MAX_TRACE_BYTES: u64 = 8 << 30;

/// One request of a trace.
#[derive(Clone, Debug, PartialEq)]
pub struct TraceRow {
    /// When it arrived, from the start of the trace.
    pub time: Time,
    pub key: Option<String>,
    pub class: Option<String>,
    /// The service time it took, when the trace says.
    pub service: Option<Time>,
}

impl TraceRow {
    /// The row as the engine plays it: its key as a number, its class as
    /// its place among `classes` (none when it is not there).
    pub fn recorded(&self, classes: &[String]) -> Recorded {
        Recorded {
            time: self.time,
            key: self.key.as_deref().map(key_number),
            class: self
                .class
                .as_ref()
                .and_then(|c| classes.iter().position(|known| known == c))
                .map(|c| c as u8),
            service: self.service,
        }
    }
}

/// How to read a trace.
#[derive(Clone, Debug, PartialEq)]
pub struct TraceOptions {
    pub columns: Columns,
    /// The classes a row may name; empty: any.
    pub classes: Vec<String>,
    /// Leave out rows with a fault of their own (counted in
    /// [`TraceReader::skipped`]) instead of stopping at the first.
    pub skip_bad: bool,
    /// The most bytes to read.
    pub max_bytes: u64,
}

impl Default for TraceOptions {
    fn default() -> Self {
        TraceOptions {
            columns: Columns::default(),
            classes: Vec::new(),
            skip_bad: false,
            max_bytes: MAX_TRACE_BYTES,
        }
    }
}

/// The rows of a trace, in order, each a [`TraceRow`] or the error that
/// stopped the reading (after which there are no more). A trace with a
/// header and no rows yields one error, [`Fault::NoRows`].
pub struct TraceReader<R: Read> {
    source: Source<R>,
    state: State,
}

enum Source<R: Read> {
    Csv {
        reader: csv::Reader<Chain<Cursor<Vec<u8>>, Lines<R>>>,
        record: csv::StringRecord,
        at: [Option<usize>; 4],
    },
    Json {
        lines: Lines<R>,
        text: String,
        first: Option<String>,
    },
}

type Lines<R> = BufReader<Limited<R>>;

/// What reading the rows keeps from one to the next.
struct State {
    columns: Columns,
    time_format: Option<TimeFormat>,
    /// The first RFC 3339 timestamp: the start its times are measured from.
    origin: Option<jiff::Timestamp>,
    last: Option<Time>,
    classes: Vec<String>,
    skip_bad: bool,
    max_bytes: u64,
    /// Lines before the first row or header: blank or `#` comments.
    lines_before: u64,
    /// Data rows met so far, bad ones too; and rows given out.
    rows: u64,
    given: u64,
    skipped: Skipped,
    done: bool,
}

impl<R: Read> TraceReader<R> {
    /// Reads up to the header (CSV) or the first object (JSON lines), past
    /// any blank lines and `#` comments before it.
    pub fn new(source: R, options: TraceOptions) -> Result<TraceReader<R>, TraceError> {
        let mut lines =
            BufReader::new(Limited { inner: source, bytes: 0, line: 0, max_bytes: options.max_bytes });
        let mut state = State {
            columns: Columns::default(),
            time_format: None,
            origin: None,
            last: None,
            classes: options.classes,
            skip_bad: options.skip_bad,
            max_bytes: options.max_bytes,
            lines_before: 0,
            rows: 0,
            given: 0,
            skipped: Skipped::default(),
            done: false,
        };
        let mut first = String::new();
        loop {
            first.clear();
            let read = lines.read_line(&mut first).map_err(|e| state.io_error(&e))?;
            if read == 0 {
                return Err(TraceError::of_file(
                    Fault::Empty,
                    "the trace is empty: it needs a header line (CSV) or a first object (JSON lines)",
                ));
            }
            let text = first.trim().trim_start_matches('\u{feff}');
            if !text.is_empty() && !text.starts_with('#') {
                first = text.to_string();
                break;
            }
            state.lines_before += 1;
        }
        let source = if first.starts_with('{') {
            let object = json_object(&first).map_err(|message| TraceError {
                line: Some(state.lines_before + 1),
                row: Some(1),
                ..TraceError::of_file(Fault::NotJson, message)
            })?;
            let names: Vec<&str> = object.keys().map(String::as_str).collect();
            // The first object stands for a header: its fields name the columns.
            let first_line = Some(state.lines_before + 1);
            let found = Columns { time: options.columns.time.clone(), ..Columns::default() }
                .resolve(&names)
                .map_err(|e| TraceError { row: Some(1), line: first_line, ..e })?;
            let usual =
                |mapped: &Option<String>, name: &str| Some(mapped.clone().unwrap_or_else(|| name.into()));
            state.columns =
                Columns {
                    time: found.time,
                    key: usual(&options.columns.key, super::columns::KEY_NAME),
                    class: usual(&options.columns.class, super::columns::CLASS_NAME),
                    service: options.columns.service.clone().map(service_column).or(found.service).or_else(
                        || Some(service_column(Column { name: SERVICE_NAMES[0].into(), unit: None })),
                    ),
                };
            Source::Json { lines, text: String::new(), first: Some(first) }
        } else {
            let header = Cursor::new(format!("{first}\n").into_bytes());
            let mut reader = csv::ReaderBuilder::new().trim(csv::Trim::All).from_reader(header.chain(lines));
            let names = reader.headers().map_err(|e| state.csv_error(e))?.clone();
            let names: Vec<&str> = names.iter().collect();
            state.columns = options.columns.resolve(&names)?;
            let at = |name: Option<&String>| name.and_then(|n| names.iter().position(|h| h == n));
            let c = &state.columns;
            let at = [
                at(c.time.as_ref().map(|t| &t.name)),
                at(c.key.as_ref()),
                at(c.class.as_ref()),
                at(c.service.as_ref().map(|s| &s.name)),
            ];
            Source::Csv { reader, record: csv::StringRecord::new(), at }
        };
        state.time_format = state.columns.time.as_ref().and_then(|t| t.unit);
        Ok(TraceReader { source, state })
    }

    /// The rows left out so far, by fault (with `skip_bad`).
    pub fn skipped(&self) -> &Skipped {
        &self.state.skipped
    }

    /// The columns read, as resolved from the mapping and the header.
    pub fn columns(&self) -> &Columns {
        &self.state.columns
    }

    /// The time column's format, once the first row has settled it.
    pub fn time_format(&self) -> Option<TimeFormat> {
        self.state.time_format
    }

    /// The next row, `None` at the end, or an error.
    fn read_row(&mut self) -> Option<Result<TraceRow, TraceError>> {
        let state = &mut self.state;
        match &mut self.source {
            Source::Csv { reader, record, at } => {
                match reader.read_record(record) {
                    Ok(false) => return None,
                    Ok(true) => {}
                    Err(e) => {
                        state.rows += 1;
                        return Some(Err(state.csv_error(e)));
                    }
                }
                state.rows += 1;
                let line = record.position().map_or(0, |p| p.line()) + state.lines_before;
                if record.as_slice().len() as u64 > MAX_ROW_BYTES {
                    return Some(Err(state.at(Fault::RowTooLong, Some(line), None, row_too_long())));
                }
                let field =
                    |i: usize| at[i].and_then(|i| record.get(i)).filter(|v| !v.is_empty()).map(Cow::Borrowed);
                Some(state.row(line, [field(0), field(1), field(2), field(3)]))
            }
            Source::Json { lines, text, first } => {
                let line_text = match first.take() {
                    Some(line) => line,
                    None => loop {
                        text.clear();
                        match lines.read_line(text) {
                            Ok(0) => return None,
                            Ok(_) if text.trim().is_empty() => state.lines_before += 1,
                            Ok(_) => break text.trim().to_string(),
                            Err(e) => {
                                state.rows += 1;
                                return Some(Err(state.io_error(&e)));
                            }
                        }
                    },
                };
                state.rows += 1;
                let line = state.lines_before + state.rows;
                let object = match json_object(&line_text) {
                    Ok(object) => object,
                    Err(message) => return Some(Err(state.at(Fault::NotJson, Some(line), None, message))),
                };
                let mut fields: [Option<Cow<str>>; 4] = [None, None, None, None];
                let c = &state.columns;
                let names = [
                    c.time.as_ref().map(|t| &t.name),
                    c.key.as_ref(),
                    c.class.as_ref(),
                    c.service.as_ref().map(|s| &s.name),
                ];
                for (field, name) in fields.iter_mut().zip(names) {
                    let Some(name) = name else { continue };
                    match object.get(name).map(json_text) {
                        None | Some(Ok(None)) => {}
                        Some(Ok(Some(value))) => *field = Some(Cow::Owned(value)),
                        Some(Err(message)) => {
                            let column = Some(name.clone());
                            return Some(Err(state.at(Fault::NotANumber, Some(line), column, message)));
                        }
                    }
                }
                Some(state.row(line, fields))
            }
        }
    }
}

impl<R: Read> Iterator for TraceReader<R> {
    type Item = Result<TraceRow, TraceError>;

    fn next(&mut self) -> Option<Self::Item> {
        while !self.state.done {
            match self.read_row() {
                None => {
                    self.state.done = true;
                    if self.state.given == 0 {
                        let message = match self.state.skipped.total() {
                            0 => "the trace has a header and no rows".to_string(),
                            _ => format!("the trace has no good rows; {}", self.state.skipped),
                        };
                        return Some(Err(TraceError::of_file(Fault::NoRows, message)));
                    }
                }
                Some(Ok(row)) => {
                    self.state.given += 1;
                    return Some(Ok(row));
                }
                Some(Err(error)) if self.state.skip_bad && error.fault.is_one_row() => {
                    self.state.skipped.add(error)
                }
                Some(Err(error)) => {
                    self.state.done = true;
                    return Some(Err(error));
                }
            }
        }
        None
    }
}

impl State {
    /// An error at the current row.
    fn at(&self, fault: Fault, line: Option<u64>, column: Option<String>, message: String) -> TraceError {
        TraceError { fault, row: Some(self.rows), line, column, message }
    }

    /// A row from its fields' text: time, key, class and service time.
    fn row(
        &mut self,
        line: u64,
        [time, key, class, service]: [Option<Cow<str>>; 4],
    ) -> Result<TraceRow, TraceError> {
        let time_column = self.columns.time.as_ref().map(|t| t.name.clone());
        let fail = |state: &State, fault, column: Option<String>, message| {
            Err(state.at(fault, Some(line), column, message))
        };
        let Some(time) = time else {
            return fail(self, Fault::MissingValue, time_column, "no time: every row needs one".into());
        };
        let time = match self.time_of(&time) {
            Ok(time) => time,
            Err((fault, message)) => return fail(self, fault, time_column, message),
        };
        if let Some(last) = self.last.filter(|last| time < *last) {
            let message = format!(
                "time {} s is before the previous row's {} s: rows must be in order of time (equal times are allowed)",
                time.as_secs(),
                last.as_secs()
            );
            return fail(self, Fault::Backwards, time_column, message);
        }
        let service = match (service, &self.columns.service) {
            (Some(text), Some(column)) => {
                let (per_unit, unit) = match column.unit {
                    Some(ServiceUnit::Seconds) => (1_000_000_000, "seconds"),
                    _ => (Time::NANOS_PER_MS, "milliseconds"),
                };
                match nanoseconds(&text, per_unit) {
                    Ok(nanos) => Some(Time(nanos)),
                    Err(refusal) => {
                        let (fault, message) = refused(refusal, &text, &format!("a service time in {unit}"));
                        return fail(self, fault, Some(column.name.clone()), message);
                    }
                }
            }
            _ => None,
        };
        if let Some(class) =
            class.as_deref().filter(|c| !self.classes.is_empty() && !self.classes.iter().any(|d| d == c))
        {
            let message =
                format!("{} is not one of the declared classes: {}", echo(class), self.classes.join(", "));
            return fail(self, Fault::UnknownClass, self.columns.class.clone(), message);
        }
        self.last = Some(time);
        Ok(TraceRow { time, key: key.map(Cow::into_owned), class: class.map(Cow::into_owned), service })
    }

    /// A time column's value, read as its format says; the first row's
    /// value settles the format when neither the mapping nor the column's
    /// name does (a number is seconds, anything else a timestamp).
    fn time_of(&mut self, text: &str) -> Result<Time, (Fault, String)> {
        let format = *self.time_format.get_or_insert(match nanoseconds(text, 1) {
            Err(Refusal::NotANumber) => TimeFormat::Rfc3339,
            _ => TimeFormat::Seconds,
        });
        let (per_unit, what) = match format {
            TimeFormat::Seconds => (1_000_000_000, "seconds from the start"),
            TimeFormat::Milliseconds => (Time::NANOS_PER_MS, "milliseconds from the start"),
            TimeFormat::Rfc3339 => return self.timestamp(text),
        };
        nanoseconds(text, per_unit)
            .map(Time)
            .map_err(|refusal| refused(refusal, text, &format!("a time in {what}")))
    }

    /// An RFC 3339 timestamp, as the time since the first row's.
    fn timestamp(&mut self, text: &str) -> Result<Time, (Fault, String)> {
        let stamp: jiff::Timestamp = text.trim().parse().map_err(|e| {
            (
                Fault::BadTimestamp,
                format!(
                    "{} is not a timestamp understood here: times are seconds from the start, or RFC 3339 timestamps with a UTC offset such as 2026-12-03T15:04:05.25Z ({e})",
                    echo(text)
                ),
            )
        })?;
        let origin = *self.origin.get_or_insert(stamp);
        let since = stamp.as_nanosecond() - origin.as_nanosecond();
        match u64::try_from(since) {
            Ok(nanos) => Ok(Time(nanos)),
            Err(_) => Err((
                Fault::Backwards,
                format!("{} is before the first row's timestamp: rows must be in order of time", echo(text)),
            )),
        }
    }

    fn io_error(&self, error: &io::Error) -> TraceError {
        let row = (self.rows > 0).then_some(self.rows);
        match error.get_ref().and_then(|e| e.downcast_ref::<Overrun>()) {
            Some(Overrun::Line) => {
                TraceError { row, ..TraceError::of_file(Fault::RowTooLong, row_too_long()) }
            }
            Some(Overrun::File) => TraceError {
                row,
                ..TraceError::of_file(
                    Fault::TooLarge,
                    format!(
                        "the trace is larger than the limit of {} bytes ({})",
                        self.max_bytes,
                        in_units(self.max_bytes)
                    ),
                )
            },
            None if error.kind() == io::ErrorKind::InvalidData => {
                TraceError { row, ..TraceError::of_file(Fault::Unreadable, "the trace is not UTF-8 text") }
            }
            None => TraceError {
                row,
                ..TraceError::of_file(Fault::Unreadable, format!("cannot read the trace: {error}"))
            },
        }
    }

    fn csv_error(&self, error: csv::Error) -> TraceError {
        let line = error.position().map(|p| p.line() + self.lines_before);
        let row = (self.rows > 0).then_some(self.rows);
        match error.into_kind() {
            csv::ErrorKind::Io(e) => TraceError { line, ..self.io_error(&e) },
            csv::ErrorKind::UnequalLengths { expected_len, len, .. } => TraceError {
                row,
                line,
                ..TraceError::of_file(
                    Fault::FieldCount,
                    format!("{len} fields where the header has {expected_len} (a value with a comma needs \"quotes\")"),
                )
            },
            csv::ErrorKind::Utf8 { .. } => {
                TraceError { row, line, ..TraceError::of_file(Fault::Unreadable, "the trace is not UTF-8 text") }
            }
            other => TraceError { row, line, ..TraceError::of_file(Fault::Unreadable, format!("{other:?}")) },
        }
    }
}

/// The fault and message for a value that is not a span of time.
fn refused(refusal: Refusal, text: &str, what: &str) -> (Fault, String) {
    match refusal {
        Refusal::NotANumber => {
            (Fault::NotANumber, format!("{} is not a number; expected {what}", echo(text)))
        }
        Refusal::Negative => {
            (Fault::Negative, format!("{} is negative; expected {what}, 0 or more", echo(text)))
        }
        Refusal::TooLarge => (
            Fault::NotANumber,
            format!("{} is too large; expected {what}, less than 2^64 nanoseconds (584 years)", echo(text)),
        ),
    }
}

fn row_too_long() -> String {
    format!(
        "the row is longer than {MAX_ROW_BYTES} bytes ({}), the most a row may be",
        in_units(MAX_ROW_BYTES)
    )
}

/// Bytes as KiB, MiB or GiB, for messages.
fn in_units(bytes: u64) -> String {
    match bytes {
        b if b >= 1 << 30 && b % (1 << 30) == 0 => format!("{} GiB", b >> 30),
        b if b >= 1 << 20 && b % (1 << 20) == 0 => format!("{} MiB", b >> 20),
        b if b >= 1 << 10 && b % (1 << 10) == 0 => format!("{} KiB", b >> 10),
        b => format!("{b} bytes"),
    }
}

fn json_object(text: &str) -> Result<serde_json::Map<String, serde_json::Value>, String> {
    serde_json::from_str(text).map_err(|e| format!("not a JSON object: {e}"))
}

/// A JSON value as a field's text: `None` for null.
fn json_text(value: &serde_json::Value) -> Result<Option<String>, String> {
    use serde_json::Value;
    match value {
        Value::Null => Ok(None),
        Value::String(text) => Ok(Some(text.clone())),
        Value::Number(number) => Ok(Some(number.to_string())),
        Value::Bool(flag) => Ok(Some(flag.to_string())),
        Value::Array(_) | Value::Object(_) => Err("a list or an object; expected a number or text".into()),
    }
}

/// Why reading stopped short: the trace outgrew its limit, or a line the
/// row limit.
#[derive(Debug)]
enum Overrun {
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
struct Limited<R> {
    inner: R,
    bytes: u64,
    line: u64,
    max_bytes: u64,
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
