//! Errors in scenario text, always naming the field at fault.

use std::fmt;

#[derive(Clone, Debug, PartialEq)]
pub enum ScenarioError {
    /// The text is not valid TOML.
    Syntax { message: String, line: Option<usize> },
    /// A field name that the scenario does not have.
    UnknownField { field: String, suggestion: Option<&'static str> },
    /// A value outside the allowed range or set.
    BadValue { field: &'static str, value: String, allowed: String },
    /// A scenario file's value of the wrong type: text for a number, a
    /// fraction for a whole number, a single value for a list.
    WrongType { field: &'static str, value: String, found: &'static str, allowed: String },
    /// An entry of a schedule that is not one: the `position`th (from 1).
    BadEntry { field: &'static str, position: usize, entry: String, reason: String },
    /// Values that are each allowed but do not fit together.
    Combination { fields: &'static str, message: String },
    /// A field that cannot change while a simulation runs.
    NotLive { field: &'static str },
    /// A change that is well formed but cannot apply to the simulation as
    /// it is now (removing a server that is already gone).
    Refused { field: &'static str, value: String, reason: String },
}

impl ScenarioError {
    /// The field (or fields) the error is about, when there is one.
    pub fn field(&self) -> Option<&str> {
        match self {
            ScenarioError::Syntax { .. } => None,
            ScenarioError::UnknownField { field, .. } => Some(field),
            ScenarioError::BadValue { field, .. }
            | ScenarioError::WrongType { field, .. }
            | ScenarioError::BadEntry { field, .. }
            | ScenarioError::NotLive { field }
            | ScenarioError::Refused { field, .. } => Some(field),
            ScenarioError::Combination { fields, .. } => Some(fields),
        }
    }
}

impl fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ScenarioError::Syntax { message, line: Some(line) } => {
                write!(f, "scenario is not valid TOML (line {line}): {message}")
            }
            ScenarioError::Syntax { message, line: None } => {
                write!(f, "scenario is not valid TOML: {message}")
            }
            ScenarioError::UnknownField { field, .. } if field.trim().is_empty() => {
                write!(f, "a field name is empty; `lbsim fields` lists them all")
            }
            ScenarioError::UnknownField { field, suggestion: Some(s) } => {
                write!(f, "unknown field {} (did you mean `{s}`?)", echo(field))
            }
            ScenarioError::UnknownField { field, suggestion: None } => {
                write!(f, "unknown field {}; `lbsim fields` lists them all", echo(field))
            }
            ScenarioError::BadValue { field, value, allowed } => {
                write!(f, "field `{field}`: {} is not allowed; expected {allowed}", echo(value))
            }
            ScenarioError::WrongType { field, value, found, allowed } => {
                write!(f, "field `{field}`: wrong type: {} is {found}; expected {allowed}", echo(value))
            }
            ScenarioError::BadEntry { field, position, entry, reason } => {
                write!(f, "entry {position} of `{field}`, {}: {reason}", echo(entry))
            }
            ScenarioError::Combination { fields, message } => write!(f, "fields {fields}: {message}"),
            ScenarioError::Refused { field, value, reason } => {
                write!(f, "field `{field}`: {} cannot apply now: {reason}", echo(value))
            }
            ScenarioError::NotLive { field } => write!(
                f,
                "field `{field}` shapes the whole simulation and cannot change while it runs; rebuild instead"
            ),
        }
    }
}

impl std::error::Error for ScenarioError {}

/// The most characters of a value that a message shows.
const ECHOED_CHARS: usize = 60;

/// Input as every error message shows it: in backticks, so that spaces and
/// an empty value are visible, and cut short when long, so that a 100 KB
/// value does not bury the message.
pub fn echo(value: &str) -> String {
    let length = value.chars().count();
    match length {
        0 => "an empty value".into(),
        1..=ECHOED_CHARS => format!("`{value}`"),
        _ => {
            let start: String = value.chars().take(ECHOED_CHARS).collect();
            format!("`{start}…` ({length} characters)")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_echo_is_quoted_and_cut_short() {
        assert_eq!(echo(""), "an empty value");
        assert_eq!(echo(" best "), "` best `");
        let long = "é".repeat(100_000);
        assert_eq!(echo(&long), format!("`{}…` (100000 characters)", "é".repeat(ECHOED_CHARS)));
    }
}
