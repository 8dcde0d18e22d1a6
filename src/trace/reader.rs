//! Reads a trace row by row: CSV with a header, or JSON lines.
//!
//! The reader holds one row at a time, so memory does not grow with a
//! trace's length; the bytes it reads are counted, so a line longer than
//! [`MAX_ROW_BYTES`] or a file longer than its limit stops it with a
//! message rather than filling memory (`limits`); a row's fields become a
//! [`TraceRow`] in `row`.

mod json;
pub(super) mod limits;
mod quotes;
mod row;

use super::columns::{service_column, Column, Columns, ServiceUnit, TimeFormat, SERVICE_NAMES, TIME_NAMES};
use super::error::{Fault, Skipped, TraceError};
use super::replay::{key_number, Recorded};
use super::values::{nanoseconds, Refusal};
use crate::scenario::echo;
use crate::time::Time;
use json::json_object;
use limits::{row_too_long, Limited};
use quotes::Quotes;
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

impl TraceOptions {
    /// The classes a row may name, from `text` as given in `given_as`
    /// (`--trace-classes`, or the lab's box): names separated by commas,
    /// each once, none empty. An empty list is refused rather than taken
    /// as "any class", which is leaving the classes out.
    pub fn classes_from(text: &str, given_as: &str) -> Result<Vec<String>, String> {
        const ALLOWED: &str =
            "expected the classes' names, comma-separated in the order of class_shares, each once (such as api,static)";
        if text.trim().is_empty() {
            return Err(format!("{given_as} is empty; {ALLOWED}"));
        }
        let mut classes: Vec<String> = Vec::new();
        for (place, name) in text.split(',').map(str::trim).enumerate() {
            let fault = match name {
                "" => format!("has no name in place {}", place + 1),
                _ if classes.iter().any(|c| c == name) => format!("names {} twice", echo(name)),
                _ => {
                    classes.push(name.to_string());
                    continue;
                }
            };
            return Err(format!("{given_as} {} {fault}; {ALLOWED}", echo(text)));
        }
        Ok(classes)
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
        /// Boxed: the reader and its watch of quotes are large beside
        /// the JSON lines' few fields.
        reader: Box<csv::Reader<CsvBytes<R>>>,
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
/// The bytes the CSV parser reads: the header line, then the rest, their
/// quotes watched.
type CsvBytes<R> = Quotes<Chain<Cursor<Vec<u8>>, Lines<R>>>;

/// What reading the rows keeps from one to the next.
struct State {
    columns: Columns,
    time_format: Option<TimeFormat>,
    /// Whether the first JSON object chose the time column (no mapping did).
    time_from_first_row: bool,
    /// The first RFC 3339 timestamp, in nanoseconds from 1970: the start
    /// its times are measured from.
    origin: Option<i128>,
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
            time_from_first_row: false,
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
            state.time_from_first_row = options.columns.time.is_none();
            Source::Json { lines, text: String::new(), first: Some(first) }
        } else {
            let header = Cursor::new(format!("{first}\n").into_bytes());
            let mut reader =
                csv::ReaderBuilder::new().trim(csv::Trim::All).from_reader(Quotes::new(header.chain(lines)));
            let names = reader.headers().map_err(|e| state.csv_error(e))?.clone();
            state.quote_left_open(&reader)?;
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
            Source::Csv { reader: Box::new(reader), record: csv::StringRecord::new(), at }
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
                if let Err(error) = state.quote_left_open(reader) {
                    return Some(Err(error));
                }
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
                let fields = match state.json_fields(&object, line) {
                    Ok(fields) => fields,
                    Err(error) => return Some(Err(error)),
                };
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
