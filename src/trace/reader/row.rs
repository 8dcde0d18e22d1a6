//! A row's fields made into a [`TraceRow`], and the reader's faults made
//! into messages that name the row, the line and the column.

use super::limits::{row_too_long, too_large, Overrun};
use super::*;
use crate::trace::rfc3339::{nanoseconds_since_1970, NotRfc3339};

impl State {
    /// An error at the current row.
    pub(super) fn at(
        &self,
        fault: Fault,
        line: Option<u64>,
        column: Option<String>,
        message: String,
    ) -> TraceError {
        TraceError { fault, row: Some(self.rows), line, column, message }
    }

    /// A row from its fields' text: time, key, class and service time.
    pub(super) fn row(
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
        let stamp = nanoseconds_since_1970(text.trim())
            .map_err(|fault| (Fault::BadTimestamp, not_a_timestamp(fault, text)))?;
        let origin = *self.origin.get_or_insert(stamp);
        match u64::try_from(stamp - origin) {
            Ok(nanos) => Ok(Time(nanos)),
            Err(_) if stamp < origin => Err((
                Fault::Backwards,
                format!("{} is before the first row's timestamp: rows must be in order of time", echo(text)),
            )),
            Err(_) => Err(refused(Refusal::TooLarge, text, "a timestamp after the first row's")),
        }
    }

    /// A quote left open at the end of the file: the row that took in the
    /// rest of the file as one value is refused, at the line the quote
    /// opened on (a fault of that row's, which `skip_bad` leaves out).
    pub(super) fn quote_left_open<R: Read>(&self, reader: &csv::Reader<Quotes<R>>) -> Result<(), TraceError> {
        let Some(opened) = reader.get_ref().left_open(reader.position().byte()) else { return Ok(()) };
        Err(TraceError {
            fault: Fault::QuoteLeftOpen,
            row: (self.rows > 0).then_some(self.rows),
            line: Some(opened + self.lines_before),
            column: None,
            message: "a quote opens a value on this line and is never closed, so the rest of the file would be that one value: close it (a quote within a quoted value is written \"\")".into(),
        })
    }

    pub(super) fn io_error(&self, error: &io::Error) -> TraceError {
        let row = (self.rows > 0).then_some(self.rows);
        match error.get_ref().and_then(|e| e.downcast_ref::<Overrun>()) {
            Some(Overrun::Line) => {
                TraceError { row, ..TraceError::of_file(Fault::RowTooLong, row_too_long()) }
            }
            Some(Overrun::File) => {
                TraceError { row, ..TraceError::of_file(Fault::TooLarge, too_large(None, self.max_bytes)) }
            }
            None if error.kind() == io::ErrorKind::InvalidData => {
                TraceError { row, ..TraceError::of_file(Fault::Unreadable, "the trace is not UTF-8 text") }
            }
            None => TraceError {
                row,
                ..TraceError::of_file(Fault::Unreadable, format!("cannot read the trace: {error}"))
            },
        }
    }

    pub(super) fn csv_error(&self, error: csv::Error) -> TraceError {
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

/// The message for a time that is not a timestamp read here: why, and the
/// form that is.
fn not_a_timestamp(fault: NotRfc3339, text: &str) -> String {
    match fault {
        NotRfc3339::LeapSecond => format!(
            "{} is a leap second, which lbsim's times (POSIX time) do not have: write it as 23:59:59.999999999, or leave the row out with --trace-skip-bad",
            echo(text)
        ),
        _ => format!(
            "{} is not an RFC 3339 timestamp ({}): times are seconds from the start, or timestamps of a date, T, a time with seconds (a fraction optional) and Z or an offset within ±23:59, such as 2026-12-03T15:04:05.25Z or 2026-12-03T16:04:05+01:00",
            echo(text),
            fault.reason()
        ),
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
