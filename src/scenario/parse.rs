//! Reading and writing a scenario through its field table: TOML, one
//! `key=value` or several, every field as text, and the check of a
//! scenario built in code; a TOML error is reported as the field's own
//! where it can be.

use super::fields::{self, FIELDS};
use super::{Scenario, ScenarioError};

impl Scenario {
    /// Parses a TOML scenario. Every field is optional; unknown fields and
    /// out-of-range values are errors naming the field.
    pub fn from_toml(text: &str) -> Result<Scenario, ScenarioError> {
        let table: toml::Table = toml::from_str(text).map_err(|e| syntax_error(text, &e))?;
        let mut scenario = Scenario::default();
        for (key, value) in &table {
            fields::find(key)?.set_toml(&mut scenario, value)?;
        }
        scenario.check()?;
        Ok(scenario)
    }

    /// Applies `key=value` (the command line's `--set` and the URL hash).
    /// On any error the scenario is left as it was.
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), ScenarioError> {
        self.set_many([(key, value)])
    }

    /// Applies several `key=value` pairs, checking the rules between fields
    /// once at the end (so `duration_s` and `warmup_s` may change together).
    /// On any error the scenario is left as it was.
    pub fn set_many<'a>(
        &mut self,
        pairs: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> Result<(), ScenarioError> {
        let mut next = self.clone();
        for (key, value) in pairs {
            fields::find(key)?.set_text(&mut next, value)?;
        }
        next.check()?;
        *self = next;
        Ok(())
    }

    /// Every field as `(key, text)` in table order; `set` accepts each back.
    pub fn to_pairs(&self) -> Vec<(&'static str, String)> {
        FIELDS.iter().map(|f| (f.key, f.text(self))).collect()
    }

    /// Checks every field's range and the rules between fields, for a
    /// scenario built in code rather than parsed.
    pub fn validate(&self) -> Result<(), ScenarioError> {
        let mut copy = Scenario::default();
        for field in FIELDS {
            field.set_text(&mut copy, &field.text(self))?;
        }
        self.check()
    }
}

/// A TOML error as a scenario's: a whole number too large for TOML's 64
/// bits fails in the parser, before any field sees it, so the field it was
/// for is found on its line and named, with what it allows.
fn syntax_error(text: &str, error: &toml::de::Error) -> ScenarioError {
    let Some(start) = error.span().map(|span| span.start.min(text.len())) else {
        return ScenarioError::Syntax { message: error.message().to_string(), line: None };
    };
    // Lines before the error's start, plus its own (`lines()` would miss
    // the line of an error that starts at the beginning of one).
    let line = text[..start].matches('\n').count() + 1;
    let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
    let line_end = text[start..].find('\n').map_or(text.len(), |i| start + i);
    if let Some((key, value)) = text[line_start..line_end].split_once('=') {
        let value = value.split('#').next().unwrap_or_default().trim();
        if let (true, Ok(field)) = (too_large_whole_number(value), fields::find(key.trim())) {
            return field.bad(value);
        }
    }
    ScenarioError::Syntax { message: error.message().to_string(), line: Some(line) }
}

/// Whether `value` is a TOML whole number beyond 64 bits.
fn too_large_whole_number(value: &str) -> bool {
    let number = value.replace('_', "");
    let digits = number.strip_prefix(['-', '+']).unwrap_or(&number);
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) && number.parse::<i64>().is_err()
}
