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
                write!(f, "unknown field `{field}` (did you mean `{s}`?)")
            }
            ScenarioError::UnknownField { field, suggestion: None } => {
                write!(f, "unknown field `{field}`; `lbsim fields` lists them all")
            }
            ScenarioError::BadValue { field, value, allowed } => {
                write!(f, "field `{field}`: {} is not allowed; expected {allowed}", shown(value))
            }
            ScenarioError::WrongType { field, value, found, allowed } => {
                write!(f, "field `{field}`: wrong type: {} is {found}; expected {allowed}", shown(value))
            }
            ScenarioError::Combination { fields, message } => write!(f, "fields {fields}: {message}"),
            ScenarioError::Refused { field, value, reason } => {
                write!(f, "field `{field}`: {} cannot apply now: {reason}", shown(value))
            }
            ScenarioError::NotLive { field } => write!(
                f,
                "field `{field}` shapes the whole simulation and cannot change while it runs; rebuild instead"
            ),
        }
    }
}

impl std::error::Error for ScenarioError {}

/// A value as a message shows it: in backticks, so that spaces and an empty
/// value are visible.
fn shown(value: &str) -> String {
    if value.is_empty() {
        "an empty value".into()
    } else {
        format!("`{value}`")
    }
}
