//! The wording of a view's notices: a setting that could not be used as
//! given, naming the entry and what it allows or the value kept instead.
//! The browser shows them in a list under [`HEADING`] until dismissed.

use crate::ScenarioError;

/// The line above a view's notices.
pub const HEADING: &str = "Some settings in the link were not used as given.";

/// A message about one setting that could not be used as given.
#[derive(Clone, Debug, PartialEq)]
pub struct Notice {
    pub message: String,
}

impl Notice {
    /// `key=value` was refused with `error`; `used` is the value kept instead.
    pub fn rejected(key: &str, value: &str, error: &ScenarioError, used: &str) -> Notice {
        let message = match error {
            ScenarioError::UnknownField { suggestion: Some(s), .. } => {
                format!("“{key}” is not a setting (did you mean “{s}”?); ignored.")
            }
            ScenarioError::UnknownField { suggestion: None, .. } => {
                format!("“{key}” is not a setting; ignored.")
            }
            ScenarioError::BadValue { allowed, .. } => {
                format!("“{key}={value}”: expected {allowed}; using {used} instead.")
            }
            other => format!("“{key}={value}”: {other}; using {used} instead."),
        };
        Notice { message }
    }

    /// `entry` has no `=` between a key and a value.
    pub fn malformed(entry: &str) -> Notice {
        Notice { message: format!("“{entry}” is not of the form key=value; ignored.") }
    }
}
