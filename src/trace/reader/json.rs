//! JSON lines: an object's fields as text, each as written, and a row that
//! names its time with another column than the first row did.

use super::*;
use serde_json::value::RawValue;
use std::collections::BTreeMap;

/// A JSON line's fields, each as its own text: a number is kept as written,
/// so that a key past 2^64 or a time to the nanosecond is not rounded
/// through `f64`.
pub(super) type JsonObject<'a> = BTreeMap<String, &'a RawValue>;

/// The line's object; or why not, at which character (serde's own "line 1"
/// would be the line's, not the file's, which the error names).
pub(super) fn json_object(text: &str) -> Result<JsonObject<'_>, String> {
    serde_json::from_str(text).map_err(|e| {
        let reason = e.to_string();
        let reason = reason.split(" at line ").next().unwrap_or_default();
        format!("not a JSON object: {reason} (at character {})", e.column())
    })
}

impl State {
    /// The text of the object's time, key, class and service time.
    pub(super) fn json_fields<'a>(
        &self,
        object: &JsonObject,
        line: u64,
    ) -> Result<[Option<Cow<'a, str>>; 4], TraceError> {
        let mut fields: [Option<Cow<str>>; 4] = [None, None, None, None];
        let c = &self.columns;
        let names = [
            c.time.as_ref().map(|t| &t.name),
            c.key.as_ref(),
            c.class.as_ref(),
            c.service.as_ref().map(|s| &s.name),
        ];
        for (field, name) in fields.iter_mut().zip(names) {
            let Some(name) = name else { continue };
            match object.get(name).map(|value| json_text(value)) {
                None | Some(Ok(None)) => {}
                Some(Ok(Some(value))) => *field = Some(Cow::Owned(value)),
                Some(Err(message)) => {
                    return Err(self.at(Fault::NotANumber, Some(line), Some(name.clone()), message))
                }
            }
        }
        match (&fields[0], names[0]) {
            (None, Some(time)) => self.other_time_column(object, time, line).map(|()| fields),
            _ => Ok(fields),
        }
    }

    /// A row without the time column may give its time in another: the
    /// first row (or the mapping) fixed the column, so that is a fault of
    /// its own, said as such.
    fn other_time_column(&self, object: &JsonObject, time: &str, line: u64) -> Result<(), TraceError> {
        let Some(other) = TIME_NAMES.iter().find(|name| **name != time && object.contains_key(**name)) else {
            return Ok(());
        };
        let fixed_by = match self.time_from_first_row {
            true => "row 1 fixed the time column as",
            false => "--trace-columns maps the time column to",
        };
        let message = format!(
            "this row gives its time as {} where {fixed_by} {}: every row gives its time in the same column",
            echo(other),
            echo(time)
        );
        Err(self.at(Fault::MissingValue, Some(line), Some(time.to_string()), message))
    }
}

/// A JSON value as a field's text: `None` for null, a number as written.
fn json_text(value: &RawValue) -> Result<Option<String>, String> {
    let raw = value.get();
    match raw.as_bytes().first() {
        Some(b'n') => Ok(None),
        Some(b'"') => serde_json::from_str(raw).map(Some).map_err(|e| e.to_string()),
        Some(b'[' | b'{') => Err("a list or an object; expected a number or text".into()),
        _ => Ok(Some(raw.to_string())),
    }
}
