//! Errors in a trace, each naming the row and the column at fault.

use crate::scenario::echo;
use std::collections::BTreeMap;
use std::fmt;

/// The kind of fault: what `--trace-skip-bad` counts skipped rows by.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Fault {
    /// The file has no header (nothing but blank or comment lines).
    Empty,
    /// A header and no rows (or none left once bad ones were skipped).
    NoRows,
    /// More bytes than the limit.
    TooLarge,
    /// A line longer than [`MAX_ROW_BYTES`](super::MAX_ROW_BYTES).
    RowTooLong,
    /// The header lacks a column the mapping names, or the time column.
    MissingColumn,
    /// A column mapping (`--trace-columns`) that is not one.
    BadMapping,
    /// The file cannot be read (an I/O failure), or is not UTF-8.
    Unreadable,
    /// A row with more or fewer fields than the header.
    FieldCount,
    /// A JSON line that is not a JSON object.
    NotJson,
    /// A CSV quote never closed, which takes the rest of the file into
    /// one value.
    QuoteLeftOpen,
    /// A row without a value for the time.
    MissingValue,
    /// A value that is not a number (or too large to be one of nanoseconds).
    NotANumber,
    /// A number below zero.
    Negative,
    /// A time earlier than the row before it.
    Backwards,
    /// A time that is neither a number nor an RFC 3339 timestamp.
    BadTimestamp,
    /// A class not among those declared.
    UnknownClass,
}

impl Fault {
    /// Whether the fault is one row's alone, so that the rows after it can
    /// still be read (and the row skipped when asked).
    pub fn is_one_row(self) -> bool {
        matches!(
            self,
            Fault::FieldCount
                | Fault::NotJson
                | Fault::QuoteLeftOpen
                | Fault::MissingValue
                | Fault::NotANumber
                | Fault::Negative
                | Fault::Backwards
                | Fault::BadTimestamp
                | Fault::UnknownClass
        )
    }

    /// The fault in a few words, for the count of skipped rows.
    pub fn reason(self) -> &'static str {
        match self {
            Fault::Empty => "empty file",
            Fault::NoRows => "no rows",
            Fault::TooLarge => "file too large",
            Fault::RowTooLong => "row too long",
            Fault::MissingColumn => "missing column",
            Fault::BadMapping => "bad column mapping",
            Fault::Unreadable => "unreadable",
            Fault::FieldCount => "wrong number of fields",
            Fault::NotJson => "not a JSON object",
            Fault::QuoteLeftOpen => "quote never closed",
            Fault::MissingValue => "no time",
            Fault::NotANumber => "not a number",
            Fault::Negative => "negative",
            Fault::Backwards => "time going backwards",
            Fault::BadTimestamp => "timestamp not understood",
            Fault::UnknownClass => "unknown class",
        }
    }
}

/// A fault in a trace, where it is, and what is allowed instead.
#[derive(Clone, Debug, PartialEq)]
pub struct TraceError {
    pub fault: Fault,
    /// The data row, from 1 (the header and comment lines are not rows).
    pub row: Option<u64>,
    /// The line of the file, from 1, where the row starts.
    pub line: Option<u64>,
    /// The column as the file names it.
    pub column: Option<String>,
    pub message: String,
}

impl TraceError {
    /// A fault of the whole file, at no row.
    pub fn of_file(fault: Fault, message: impl Into<String>) -> TraceError {
        TraceError { fault, row: None, line: None, column: None, message: message.into() }
    }
}

impl fmt::Display for TraceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "trace")?;
        match (self.row, self.line) {
            (Some(row), Some(line)) => write!(f, " row {row} (line {line})")?,
            (Some(row), None) => write!(f, " row {row}")?,
            (None, Some(line)) => write!(f, " line {line}")?,
            (None, None) => {}
        }
        if let Some(column) = &self.column {
            write!(f, ", column {}", echo(column))?;
        }
        write!(f, ": {}", self.message)
    }
}

impl std::error::Error for TraceError {}

/// The rows `--trace-skip-bad` left out: how many of each fault, and the
/// first of each (a handful of kinds, so its size is bounded).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Skipped {
    by_fault: BTreeMap<Fault, (u64, TraceError)>,
}

impl Skipped {
    pub fn add(&mut self, error: TraceError) {
        self.by_fault.entry(error.fault).or_insert((0, error)).0 += 1;
    }

    pub fn total(&self) -> u64 {
        self.by_fault.values().map(|(count, _)| count).sum()
    }

    /// Each fault with its count and its first row, most frequent first.
    pub fn by_fault(&self) -> Vec<(Fault, u64, &TraceError)> {
        let mut out: Vec<_> = self.by_fault.iter().map(|(f, (n, first))| (*f, *n, first)).collect();
        out.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        out
    }
}

impl fmt::Display for Skipped {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let total = self.total();
        write!(f, "skipped {total} bad row{}", if total == 1 { "" } else { "s" })?;
        for (fault, count, first) in self.by_fault() {
            write!(f, "\n  {count} {}: the first, {first}", fault.reason())?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_message_names_row_line_and_column() {
        let error = TraceError {
            fault: Fault::Negative,
            row: Some(3),
            line: Some(5),
            column: Some("ts".into()),
            message: "`-1` is negative".into(),
        };
        assert_eq!(error.to_string(), "trace row 3 (line 5), column `ts`: `-1` is negative");
        assert_eq!(TraceError::of_file(Fault::Empty, "no header").to_string(), "trace: no header");
    }

    #[test]
    fn skipped_rows_are_counted_by_fault() {
        let mut skipped = Skipped::default();
        for row in 1..=3 {
            skipped.add(TraceError { row: Some(row), ..TraceError::of_file(Fault::NotANumber, "x") });
        }
        skipped.add(TraceError::of_file(Fault::Backwards, "y"));
        assert_eq!(skipped.total(), 4);
        let faults: Vec<_> = skipped.by_fault().iter().map(|(f, n, first)| (*f, *n, first.row)).collect();
        assert_eq!(faults, vec![(Fault::NotANumber, 3, Some(1)), (Fault::Backwards, 1, None)]);
    }
}
