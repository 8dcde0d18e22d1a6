//! What the three schedules (`speed_changes`, `membership`, `failures`)
//! share: entries separated by commas, each due at a `TIME` written as
//! every duration is (see [`super::duration`]), and errors that name the
//! entry at fault and its position rather than echo the whole schedule.

use super::duration::{self, Duration, LATEST_S};
use super::echo;
use super::fields::format_number;
use crate::number;

/// Why a schedule's text is not one.
#[derive(Debug, PartialEq)]
pub enum ScheduleError {
    /// More entries than the schedule holds.
    TooMany { count: usize, max: usize },
    /// The entry at `position` (from 1) is not one, for `reason`.
    Entry { position: usize, entry: String, reason: String },
}

/// Parses a schedule: "none", or up to `max` entries separated by commas.
pub fn parse<T>(
    text: &str,
    max: usize,
    entry: fn(&str) -> Result<T, String>,
) -> Result<Vec<T>, ScheduleError> {
    if text.trim() == "none" {
        return Ok(Vec::new());
    }
    let entries: Vec<&str> = text.split(',').map(str::trim).collect();
    if entries.len() > max {
        return Err(ScheduleError::TooMany { count: entries.len(), max });
    }
    let parse_one = |(i, text): (usize, &&str)| {
        match text.is_empty() {
            true => Err("a comma too many?".to_string()),
            false => entry(text),
        }
        .map_err(|reason| ScheduleError::Entry { position: i + 1, entry: text.to_string(), reason })
    };
    entries.iter().enumerate().map(parse_one).collect()
}

/// A schedule as text that [`parse`] reads back.
pub fn text<T>(items: &[T], item: impl Fn(&T) -> String) -> String {
    if items.is_empty() {
        return "none".into();
    }
    items.iter().map(item).collect::<Vec<_>>().join(",")
}

/// An entry's time in seconds, from 0 to [`LATEST_S`].
pub fn at_seconds(text: &str) -> Result<f64, String> {
    let day = (Duration::seconds(0.0), Duration::seconds(LATEST_S));
    duration::read("the time", text, day, None).map(Duration::as_seconds)
}

/// An entry's server, a whole number; whether it exists is checked against
/// the servers (see `Scenario::check`), with one message for any number.
pub fn server(text: &str) -> Result<u32, String> {
    text.trim().parse().map_err(|_| format!("the server is a whole number, not {}", echo(text)))
}

/// A number in `min..=max`, or a message naming it as `what`.
pub fn number_in(what: &str, text: &str, (min, max): (f64, f64)) -> Result<f64, String> {
    let x = number::parse(text.trim()).filter(|x| x.is_finite() && *x >= min && *x <= max);
    x.ok_or_else(|| {
        format!(
            "{what} is a number from {} to {}, not {}",
            format_number(min),
            format_number(max),
            echo(text)
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_error_names_the_entry_and_its_position() {
        let parsed = parse("1s, 2s,x, 4s", 10, at_seconds);
        let expected = ScheduleError::Entry {
            position: 3,
            entry: "x".into(),
            reason: "the time is a duration from 0s to 86400s, written as a number with its unit: 250ms, 30s or 2m; not `x`"
                .into(),
        };
        assert_eq!(parsed, Err(expected));
        assert!(matches!(parse("1s,", 10, at_seconds), Err(ScheduleError::Entry { position: 2, .. })));
        assert_eq!(parse("1s,2s,3s", 2, at_seconds), Err(ScheduleError::TooMany { count: 3, max: 2 }));
        assert_eq!(parse(" none ", 2, at_seconds), Ok(Vec::new()));
        assert_eq!(parse("0s, 2500ms, 1m", 3, at_seconds), Ok(vec![0.0, 2.5, 60.0]));
    }
}
