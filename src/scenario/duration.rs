//! Lengths of simulated time as people write them, a number and its unit:
//! `250ms`, `30s`, `2m`. The one grammar of the command line's `--duration`
//! and `--warmup` and of every schedule's times and durations.

use super::echo;
use super::fields::format_number;
use crate::number;

/// The longest a run may last and the latest a schedule's entry may be due,
/// in simulated seconds: a day.
pub const LATEST_S: f64 = 86_400.0;

/// What a duration's number counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    Milliseconds,
    Seconds,
    Minutes,
}

impl Unit {
    /// Longest first where one ends another (`ms` before `s`).
    const ALL: [Unit; 3] = [Unit::Milliseconds, Unit::Seconds, Unit::Minutes];

    fn suffix(self) -> &'static str {
        match self {
            Unit::Milliseconds => "ms",
            Unit::Seconds => "s",
            Unit::Minutes => "m",
        }
    }

    fn name(self) -> &'static str {
        match self {
            Unit::Milliseconds => "milliseconds",
            Unit::Seconds => "seconds",
            Unit::Minutes => "minutes",
        }
    }
}

/// A duration as written: read in its own unit, it is exactly the number
/// given; in another, one multiplication or division away.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Duration {
    value: f64,
    unit: Unit,
}

impl Duration {
    pub const fn milliseconds(value: f64) -> Duration {
        Duration { value, unit: Unit::Milliseconds }
    }

    pub const fn seconds(value: f64) -> Duration {
        Duration { value, unit: Unit::Seconds }
    }

    pub fn as_ms(self) -> f64 {
        match self.unit {
            Unit::Milliseconds => self.value,
            Unit::Seconds => self.value * 1000.0,
            Unit::Minutes => self.value * 60_000.0,
        }
    }

    pub fn as_seconds(self) -> f64 {
        match self.unit {
            Unit::Milliseconds => self.value / 1000.0,
            Unit::Seconds => self.value,
            Unit::Minutes => self.value * 60.0,
        }
    }

    /// The duration as written (`250ms`).
    pub fn text(self) -> String {
        format!("{}{}", format_number(self.value), self.unit.suffix())
    }
}

/// Reads `text` as the duration `what` names, from `shortest` to `longest`.
/// A number without a unit is read in `bare` (the command line's flags take
/// seconds), or refused when `bare` is `None`: a schedule's `10` could as
/// well mean milliseconds.
pub fn read(
    what: &str,
    text: &str,
    (shortest, longest): (Duration, Duration),
    bare: Option<Unit>,
) -> Result<Duration, String> {
    let trimmed = text.trim();
    let written = Unit::ALL.iter().find_map(|&unit| Some((trimmed.strip_suffix(unit.suffix())?, unit)));
    let duration = written
        .or_else(|| Some((trimmed, bare?)))
        .and_then(|(figure, unit)| Some(Duration { value: number::parse(figure.trim())?, unit }));
    let within = |d: &Duration| {
        let s = d.as_seconds();
        s.is_finite() && shortest.as_seconds() <= s && s <= longest.as_seconds()
    };
    duration.filter(within).ok_or_else(|| {
        let units = match bare {
            Some(unit) => format!("a number of {}, or one with a unit", unit.name()),
            None => "a number with its unit".to_string(),
        };
        format!(
            "{what} is a duration from {} to {}, written as {units}: 250ms, 30s or 2m; not {}",
            shortest.text(),
            longest.text(),
            echo(text)
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const A_DAY: (Duration, Duration) = (Duration::seconds(0.0), Duration::seconds(LATEST_S));

    #[test]
    fn each_unit_reads_as_written() {
        let read = |text| read("the time", text, A_DAY, None).unwrap();
        assert_eq!(read("250ms").as_ms(), 250.0);
        assert_eq!(read("250ms").as_seconds(), 0.25);
        assert_eq!(read(" 1.5s ").as_seconds(), 1.5);
        assert_eq!(read("1.5s").as_ms(), 1500.0);
        assert_eq!(read("2m").as_seconds(), 120.0);
        assert_eq!(read("2 m").as_ms(), 120_000.0);
        assert_eq!(read("1440m").as_seconds(), LATEST_S);
    }

    #[test]
    fn a_bare_number_is_read_only_where_a_unit_is_implied() {
        assert_eq!(read("--duration", "90", A_DAY, Some(Unit::Seconds)), Ok(Duration::seconds(90.0)));
        let error = read("the time", "90", A_DAY, None).unwrap_err();
        assert_eq!(
            error,
            "the time is a duration from 0s to 86400s, written as a number with its unit: 250ms, 30s or 2m; not `90`"
        );
        let error = read("--warmup", "soon", A_DAY, Some(Unit::Seconds)).unwrap_err();
        assert!(error.starts_with(
            "--warmup is a duration from 0s to 86400s, written as a number of seconds, or one with a unit"
        ));
    }

    #[test]
    fn out_of_range_and_malformed_are_refused() {
        let range = (Duration::milliseconds(0.001), Duration::seconds(LATEST_S));
        assert_eq!(read("for", "0.001ms", range, None), Ok(Duration::milliseconds(0.001)));
        for bad in ["0s", "-1s", "86401s", "1441m", "inf s", "NaNms", "s", "5 seconds", "5h", ""] {
            let error = read("for", bad, range, None).unwrap_err();
            assert!(error.starts_with("for is a duration from 0.001ms to 86400s"), "{bad}: {error}");
        }
    }
}
