//! The wording of a view's notices: a setting of the link that could not
//! be used as given, naming the entry and what it allows or the value kept
//! instead, or a message of the view's own (a run halted, a trace awaited).
//! The browser shows them in a list until dismissed, under [`HEADING`]
//! while a setting of the link is among them.

use crate::ScenarioError;

/// The line above a view's notices while one is about the link's settings.
pub const HEADING: &str = "Some settings in the link were not used as given.";

/// A message about one setting that could not be used as given.
#[derive(Clone, Debug, PartialEq)]
pub struct Notice {
    pub message: String,
    /// Whether it is about a setting the link gave.
    pub about_link: bool,
}

impl Notice {
    /// A message of the view's own, about no setting of the link.
    pub fn plain(message: impl Into<String>) -> Notice {
        Notice { message: message.into(), about_link: false }
    }

    /// `key=value` was refused with `error`; `used` is the value kept instead
    /// (empty where keeping nothing is what the option does without the
    /// entry, as a link with no twin: the entry is then ignored).
    pub fn rejected(key: &str, value: &str, error: &ScenarioError, used: &str) -> Notice {
        let instead = match used {
            "" => "ignored".to_string(),
            used => format!("using {used} instead"),
        };
        let message = match error {
            ScenarioError::UnknownField { suggestion: Some(s), .. } => {
                format!("“{key}” is not a setting (did you mean “{s}”?); ignored.")
            }
            ScenarioError::UnknownField { suggestion: None, .. } => {
                format!("“{key}” is not a setting; ignored.")
            }
            ScenarioError::BadValue { allowed, .. } => {
                format!("“{key}={value}”: expected {allowed}; {instead}.")
            }
            other => format!("“{key}={value}”: {other}; {instead}."),
        };
        Notice { message, about_link: true }
    }

    /// `entry` has no `=` between a key and a value.
    pub fn malformed(entry: &str) -> Notice {
        Notice { message: format!("“{entry}” is not of the form key=value; ignored."), about_link: true }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Scenario;

    fn refused(key: &str, value: &str) -> ScenarioError {
        Scenario::default().set(key, value).unwrap_err()
    }

    #[test]
    fn a_refused_value_says_what_is_allowed_and_what_is_used() {
        let notice = Notice::rejected("slots", "-1", &refused("slots", "-1"), "3");
        assert_eq!(notice.message, "“slots=-1”: expected a whole number from 1 to 1000; using 3 instead.");
    }

    #[test]
    fn an_unknown_key_is_ignored_with_a_suggestion_when_there_is_one() {
        let close = Notice::rejected("polcy", "random", &refused("polcy", "random"), "");
        assert_eq!(close.message, "“polcy” is not a setting (did you mean “policy”?); ignored.");
        let far = Notice::rejected("zzzzzz", "1", &refused("zzzzzz", "1"), "");
        assert_eq!(far.message, "“zzzzzz” is not a setting; ignored.");
    }

    #[test]
    fn other_errors_keep_their_own_words() {
        let error = ScenarioError::Combination { fields: "a, b", message: "they disagree".into() };
        let notice = Notice::rejected("a", "1", &error, "2");
        assert_eq!(notice.message, "“a=1”: fields a, b: they disagree; using 2 instead.");
    }

    #[test]
    fn a_refused_value_with_nothing_to_use_instead_is_ignored() {
        let error = ScenarioError::BadValue { field: "versus", value: "x".into(), allowed: "pairs".into() };
        assert_eq!(
            Notice::rejected("versus", "x", &error, "").message,
            "“versus=x”: expected pairs; ignored."
        );
    }

    #[test]
    fn an_entry_without_a_value_is_ignored() {
        assert_eq!(Notice::malformed("load").message, "“load” is not of the form key=value; ignored.");
    }
}
