//! The table of scenario fields: name, meaning, allowed values, whether it
//! may change while a simulation runs, and how to read and write it.

use super::drift::{self, SpeedChange};
use super::duration::LATEST_S;
use super::failures::{self, ScheduledFailure};
use super::help::Help;
pub use super::lookup::find;
use super::membership::{self, Scheduled};
use super::schedule::ScheduleError;
pub use super::table::FIELDS;
use super::{pools, Scenario, ScenarioError, MAX_CLASSES};
use crate::number;

/// What values a field takes.
#[derive(Clone, Copy, Debug)]
pub enum FieldKind {
    /// A whole number in `min..=max`.
    Count { min: u64, max: u64 },
    /// A number in `min..=max`.
    Number { min: f64, max: f64 },
    /// 0 (the setting is off), or a number in `min..=max`: for values that
    /// would be meaningless, or unworkable, between 0 and `min`.
    ZeroOrNumber { min: f64, max: f64 },
    /// One of a fixed set of names.
    Choice(&'static [&'static str]),
    /// A number of milliseconds in `min..=max`, or "none".
    MillisOrNone { min: f64, max: f64 },
    /// A percentile in `min..=max`, or "none".
    PercentileOrNone { min: f64, max: f64 },
    /// A whole number in `min..=max`, or "all".
    CountOrAll { min: u64, max: u64 },
    /// A list of up to `max_len` numbers, each in `min..=max`.
    NumberList { min: f64, max: f64, max_len: usize },
    /// A list of up to `max_len` whole numbers, each in `min..=max`.
    CountList { min: u64, max: u64, max_len: usize },
    /// "none", or a schedule of servers' speed changes (see [`drift`](super::drift)).
    SpeedSchedule,
    /// "all", or a range of servers per request class (see [`pools`](super::pools)).
    ServerRanges,
    /// "none", or a schedule of membership changes (see [`membership`](super::membership)).
    MembershipSchedule,
    /// "none", or a schedule of failures (see [`failures`](super::failures)).
    FailureSchedule,
    /// A number in `min..=max`, or "none".
    NumberOrNone { min: f64, max: f64 },
}

/// A field's value, in the shape its kind gives it.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Count(u64),
    Number(f64),
    Choice(&'static str),
    Optional(Option<f64>),
    List(Vec<f64>),
    Schedule(Vec<SpeedChange>),
    Ranges(Vec<(u32, u32)>),
    Membership(Vec<Scheduled>),
    Failures(Vec<ScheduledFailure>),
}

impl Value {
    pub(super) fn count(&self) -> u64 {
        match self {
            Value::Count(n) => *n,
            _ => 0,
        }
    }
    pub(super) fn number(&self) -> f64 {
        match self {
            Value::Number(x) => *x,
            _ => 0.0,
        }
    }
    pub(super) fn choice(&self) -> &'static str {
        match self {
            Value::Choice(name) => name,
            _ => "",
        }
    }
    pub(super) fn optional(&self) -> Option<f64> {
        match self {
            Value::Optional(x) => *x,
            _ => None,
        }
    }
    pub(super) fn list(&self) -> Vec<f64> {
        match self {
            Value::List(xs) => xs.clone(),
            _ => Vec::new(),
        }
    }
    pub(super) fn ranges(&self) -> Vec<(u32, u32)> {
        match self {
            Value::Ranges(ranges) => ranges.clone(),
            _ => Vec::new(),
        }
    }
    pub(super) fn membership(&self) -> Vec<Scheduled> {
        match self {
            Value::Membership(changes) => changes.clone(),
            _ => Vec::new(),
        }
    }
    pub(super) fn failures(&self) -> Vec<ScheduledFailure> {
        match self {
            Value::Failures(entries) => entries.clone(),
            _ => Vec::new(),
        }
    }
    pub(super) fn schedule(&self) -> Vec<SpeedChange> {
        match self {
            Value::Schedule(changes) => changes.clone(),
            _ => Vec::new(),
        }
    }
}

/// Whether a running simulation takes a new value of a field, and what it
/// does to take it (`engine/live.rs` does exactly this, field by field).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Live {
    /// It cannot: the field shapes the whole simulation, which is built anew.
    No,
    /// Nothing at once: the engine reads the field each time it uses it.
    AtUse,
    /// Every chooser gets a new policy (and, placing keys, a new placement).
    Policies,
    /// Every chooser draws its pool again.
    Pools,
    /// A new chain of load-board refreshes starts.
    Board,
    /// Arrivals are scheduled at the new rate.
    Arrivals,
    /// The requests already queued get the new timeout.
    QueueTimeouts,
}

pub struct Field {
    pub key: &'static str,
    pub help: Help,
    pub kind: FieldKind,
    /// Whether the field may change while a simulation runs, and how.
    pub live: Live,
    pub(super) get: fn(&Scenario) -> Value,
    pub(super) put: fn(&mut Scenario, &Value),
}

impl Field {
    /// Whether the field may change while a simulation runs.
    pub fn is_live(&self) -> bool {
        self.live != Live::No
    }

    /// The field's value in `scenario`, as text that `set_text` accepts back.
    pub fn text(&self, scenario: &Scenario) -> String {
        match (self.get)(scenario) {
            Value::Count(n) if matches!(self.kind, FieldKind::CountOrAll { .. }) && n == 0 => "all".into(),
            Value::Count(n) => n.to_string(),
            Value::Number(x) => format_number(x),
            Value::Choice(name) => name.to_string(),
            Value::Optional(Some(x)) => format_number(x),
            Value::Optional(None) => "none".into(),
            Value::List(xs) => xs.iter().map(|x| format_number(*x)).collect::<Vec<_>>().join(","),
            Value::Schedule(changes) => drift::text(&changes),
            Value::Ranges(ranges) => pools::text(&ranges),
            Value::Membership(changes) => membership::text(&changes),
            Value::Failures(entries) => failures::text(&entries),
        }
    }

    /// The default value as text.
    pub fn default_text(&self) -> String {
        self.text(&Scenario::default())
    }

    /// What the field allows, in words.
    pub fn allowed(&self) -> String {
        match self.kind {
            FieldKind::Count { min, max } => format!("a whole number from {min} to {max}"),
            FieldKind::Number { min, max } => {
                format!("a number from {} to {}", format_number(min), format_number(max))
            }
            FieldKind::ZeroOrNumber { min, max } => {
                format!("0, or a number from {} to {}", format_number(min), format_number(max))
            }
            FieldKind::Choice(names) => format!("one of {}", names.join(", ")),
            FieldKind::NumberOrNone { min, max } => {
                format!("\"none\" or a number from {} to {}", format_number(min), format_number(max))
            }
            FieldKind::PercentileOrNone { min, max } => {
                format!("\"none\" or a percentile from {} to {}", format_number(min), format_number(max))
            }
            FieldKind::MillisOrNone { min, max } => {
                format!("\"none\" or milliseconds from {} to {}", format_number(min), format_number(max))
            }
            FieldKind::CountOrAll { min, max } => {
                format!("\"all\" or a whole number from {min} to {max}")
            }
            FieldKind::NumberList { min, max, max_len } => format!(
                "a list of 1 to {max_len} numbers, each from {} to {}",
                format_number(min),
                format_number(max)
            ),
            FieldKind::CountList { min, max, max_len } => {
                format!("a list of 1 to {max_len} whole numbers, each from {min} to {max}")
            }
            FieldKind::ServerRanges => format!(
                "\"all\" or one range of servers FIRST-LAST per request class, separated by commas (0-7,8-9), at most {MAX_CLASSES}"
            ),
            FieldKind::MembershipSchedule => format!(
                "\"none\" or up to {} changes TIME:add, TIME:remove:SERVER, TIME:crash:SERVER or TIME:restore:SERVER separated by commas (10s:add, 20s:remove:3), times from 0s to {}s written with a unit (250ms, 30s, 2m), each change possible when it comes",
                membership::MAX_CHANGES,
                format_number(LATEST_S)
            ),
            FieldKind::FailureSchedule => format!(
                "\"none\" or up to {} entries TIME:KIND:SERVER[:OPTION=VALUE]... separated by commas, KIND one of down, slow:x=FACTOR, fast-fail:p=SHARE[:after=DURATION], flap:period=DURATION, recover; any but recover may end by itself with for=DURATION (10s:down:3:for=5s, 20s:slow:2:x=0.25, 30s:fast-fail:4:p=0.9:after=1ms); times from 0s and durations above 0, both to {}s written with a unit (250ms, 30s, 2m), factors from {} to {}, shares from 0 to 1",
                failures::MAX_FAILURES,
                format_number(LATEST_S),
                format_number(failures::FACTORS.0),
                format_number(failures::FACTORS.1)
            ),
            FieldKind::SpeedSchedule => format!(
                "\"none\" or up to {} changes SERVER@TIME:SPEED separated by commas (3@10s:0.25: server 3 runs at speed 0.25 from 10 s on), times from 0s to {}s written with a unit (250ms, 30s, 2m), speeds from {} to {}",
                drift::MAX_CHANGES,
                format_number(LATEST_S),
                format_number(drift::SPEEDS.0),
                format_number(drift::SPEEDS.1)
            ),
        }
    }

    pub fn set_text(&self, scenario: &mut Scenario, text: &str) -> Result<(), ScenarioError> {
        let value = self.parse_text(text.trim(), text)?;
        (self.put)(scenario, &value);
        Ok(())
    }

    pub fn set_toml(&self, scenario: &mut Scenario, raw: &toml::Value) -> Result<(), ScenarioError> {
        let value = self.parse_toml(raw)?;
        (self.put)(scenario, &value);
        Ok(())
    }

    pub(super) fn bad(&self, value: &str) -> ScenarioError {
        ScenarioError::BadValue { field: self.key, value: value.to_string(), allowed: self.allowed() }
    }

    /// `text` as the field's value; an error echoes `shown`, the value as
    /// given, or names the schedule's entry at fault.
    fn parse_text(&self, text: &str, shown: &str) -> Result<Value, ScenarioError> {
        let schedule = match self.kind {
            FieldKind::SpeedSchedule => drift::parse(text).map(Value::Schedule),
            FieldKind::MembershipSchedule => membership::parse(text).map(Value::Membership),
            FieldKind::FailureSchedule => failures::parse(text).map(Value::Failures),
            _ => return self.parse_plain(text).ok_or_else(|| self.bad(shown)),
        };
        schedule.map_err(|error| match error {
            ScheduleError::TooMany { count, max } => ScenarioError::BadValue {
                field: self.key,
                value: shown.to_string(),
                allowed: format!("at most {max} entries, not {count}"),
            },
            ScheduleError::Entry { position, entry, reason } => {
                ScenarioError::BadEntry { field: self.key, position, entry, reason }
            }
        })
    }

    /// `text` as the value of a field that is not a schedule.
    fn parse_plain(&self, text: &str) -> Option<Value> {
        match self.kind {
            FieldKind::Count { min, max } => count_in(text.parse().ok()?, min, max).map(Value::Count),
            FieldKind::Number { min, max } => number_in(number::parse(text)?, min, max).map(Value::Number),
            FieldKind::ZeroOrNumber { min, max } => match number::parse(text)? {
                0.0 => Some(Value::Number(0.0)),
                x => number_in(x, min, max).map(Value::Number),
            },
            FieldKind::Choice(names) => names.iter().find(|n| **n == text).map(|n| Value::Choice(n)),
            FieldKind::MillisOrNone { min, max }
            | FieldKind::PercentileOrNone { min, max }
            | FieldKind::NumberOrNone { min, max } => match text {
                "none" => Some(Value::Optional(None)),
                _ => number_in(number::parse(text)?, min, max).map(|x| Value::Optional(Some(x))),
            },
            FieldKind::CountOrAll { min, max } => match text {
                "all" => Some(Value::Count(0)),
                _ => count_in(text.parse().ok()?, min, max).map(Value::Count),
            },
            FieldKind::NumberList { min, max, max_len } => {
                let items: Option<Vec<f64>> =
                    text.split(',').map(|item| number_in(number::parse(item.trim())?, min, max)).collect();
                items.filter(|xs| !xs.is_empty() && xs.len() <= max_len).map(Value::List)
            }
            FieldKind::CountList { min, max, max_len } => {
                let items: Option<Vec<f64>> = text
                    .split(',')
                    .map(|item| count_in(item.trim().parse().ok()?, min, max).map(|n| n as f64))
                    .collect();
                items.filter(|xs| !xs.is_empty() && xs.len() <= max_len).map(Value::List)
            }
            FieldKind::ServerRanges => pools::parse(text).map(Value::Ranges),
            // Read by `parse_text`, whose errors name the entry at fault.
            FieldKind::SpeedSchedule | FieldKind::MembershipSchedule | FieldKind::FailureSchedule => None,
        }
    }

    /// A TOML value of the type the field takes, parsed as its text would
    /// be; a value of another type (a quoted number, a decimal for a whole
    /// number, a single number for a list) is a [`ScenarioError::WrongType`].
    fn parse_toml(&self, raw: &toml::Value) -> Result<Value, ScenarioError> {
        use toml::Value::{Array, Float, Integer, String};
        let text = match (self.kind, raw) {
            (FieldKind::Count { .. } | FieldKind::CountOrAll { .. }, Integer(n)) => n.to_string(),
            (
                FieldKind::Number { .. }
                | FieldKind::ZeroOrNumber { .. }
                | FieldKind::MillisOrNone { .. }
                | FieldKind::PercentileOrNone { .. }
                | FieldKind::NumberOrNone { .. },
                Integer(_) | Float(_),
            ) => raw.to_string(),
            (
                FieldKind::Choice(_)
                | FieldKind::SpeedSchedule
                | FieldKind::ServerRanges
                | FieldKind::MembershipSchedule
                | FieldKind::FailureSchedule,
                String(s),
            ) => s.clone(),
            (
                FieldKind::MillisOrNone { .. }
                | FieldKind::PercentileOrNone { .. }
                | FieldKind::NumberOrNone { .. },
                String(s),
            ) if s != "none" && number::parse(s.trim()).is_none() => {
                return Err(self.bad(&raw.to_string()));
            }
            (FieldKind::CountOrAll { .. }, String(s)) if s != "all" && number::parse(s.trim()).is_none() => {
                return Err(self.bad(&raw.to_string()));
            }
            (
                FieldKind::MillisOrNone { .. }
                | FieldKind::PercentileOrNone { .. }
                | FieldKind::NumberOrNone { .. },
                String(s),
            ) if s == "none" => s.clone(),
            (FieldKind::CountOrAll { .. }, String(s)) if s == "all" => s.clone(),
            (FieldKind::NumberList { .. }, Array(items)) => {
                let numbers: Option<Vec<std::string::String>> = items
                    .iter()
                    .map(|item| matches!(item, Integer(_) | Float(_)).then(|| item.to_string()))
                    .collect();
                numbers
                    .ok_or_else(|| self.wrong_type(raw, "a list with something other than numbers in it"))?
                    .join(",")
            }
            (FieldKind::CountList { .. }, Array(items)) => {
                let counts: Option<Vec<std::string::String>> =
                    items.iter().map(|item| matches!(item, Integer(_)).then(|| item.to_string())).collect();
                counts
                    .ok_or_else(|| {
                        self.wrong_type(raw, "a list with something other than whole numbers in it")
                    })?
                    .join(",")
            }
            _ => return Err(self.wrong_type(raw, type_of(raw))),
        };
        self.parse_text(&text, &raw.to_string())
    }

    fn wrong_type(&self, raw: &toml::Value, found: &'static str) -> ScenarioError {
        ScenarioError::WrongType { field: self.key, value: raw.to_string(), found, allowed: self.allowed() }
    }
}

/// What kind of TOML value `raw` is, in words for an error message.
fn type_of(raw: &toml::Value) -> &'static str {
    match raw {
        toml::Value::String(s) if number::parse(s.trim()).is_some() => "text (write numbers without quotes)",
        toml::Value::String(_) => "text",
        toml::Value::Integer(_) => "a whole number",
        toml::Value::Float(_) => "a number with a decimal point",
        toml::Value::Boolean(_) => "true or false",
        toml::Value::Datetime(_) => "a date",
        toml::Value::Array(_) => "a list",
        toml::Value::Table(_) => "a table",
    }
}

fn count_in(n: u64, min: u64, max: u64) -> Option<u64> {
    (min..=max).contains(&n).then_some(n)
}

fn number_in(x: f64, min: f64, max: f64) -> Option<f64> {
    (x.is_finite() && x >= min && x <= max).then_some(x)
}

/// Shortest text that reads back as the same number.
pub fn format_number(x: f64) -> String {
    format!("{x}")
}

/// `x` to three significant figures however small it is: a sparse trace
/// offers load 0.000000772, which three decimals would show as 0.000.
pub fn three_figures(x: f64) -> String {
    if x == 0.0 || !x.is_finite() {
        return x.to_string();
    }
    let decimals = (2 - libm::floor(libm::log10(x.abs())) as i32).max(0) as usize;
    format!("{x:.decimals$}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_field_reads_back_its_own_text() {
        let scenario = Scenario::default();
        for field in FIELDS {
            let mut copy = Scenario { seed: 99, ..Scenario::default() };
            field.set_text(&mut copy, &field.text(&scenario)).unwrap();
            assert_eq!(field.text(&copy), field.text(&scenario), "{}", field.key);
        }
    }

    #[test]
    fn keys_are_unique() {
        for (i, a) in FIELDS.iter().enumerate() {
            assert!(FIELDS[i + 1..].iter().all(|b| b.key != a.key), "{}", a.key);
        }
    }
}
