//! Which column holds what: the `--trace-columns` mapping, and the names a
//! header is looked up by when no mapping is given.

use super::error::{Fault, TraceError};
use crate::scenario::echo;

/// How the time column is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeFormat {
    /// Seconds from the start (`12.5`).
    Seconds,
    /// Milliseconds from the start (`12500`).
    Milliseconds,
    /// An RFC 3339 timestamp with its UTC offset (`2026-12-03T15:04:05.25Z`);
    /// times are measured from the first row's.
    Rfc3339,
}

/// The unit of the service-time column.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ServiceUnit {
    Seconds,
    Milliseconds,
}

/// One role's column: its name, and its unit when stated (`ts:ms`).
#[derive(Clone, Debug, PartialEq)]
pub struct Column<Unit> {
    pub name: String,
    pub unit: Option<Unit>,
}

/// The columns a trace is read from, as mapped or by their usual names.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Columns {
    pub time: Option<Column<TimeFormat>>,
    pub key: Option<String>,
    pub class: Option<String>,
    pub service: Option<Column<ServiceUnit>>,
}

/// The names the time column goes by when none is mapped, in order of
/// preference; the service column's; and the key's and the class's.
pub const TIME_NAMES: [&str; 4] = ["time_s", "time_ms", "time", "timestamp"];
pub const SERVICE_NAMES: [&str; 3] = ["service_ms", "service_s", "service"];
pub const KEY_NAME: &str = "key";
pub const CLASS_NAME: &str = "class";

const MAPPING_HELP: &str = "a mapping is role=column pairs separated by commas, such as `time=ts:ms,key=user_id,service=duration_ms,class=path`: roles time, key, class and service; time takes :s, :ms or :rfc3339, service :s or :ms";

impl Columns {
    /// A `--trace-columns` mapping: `time=ts:ms,key=user_id,...`.
    pub fn parse(text: &str) -> Result<Columns, TraceError> {
        let bad =
            |message: String| TraceError::of_file(Fault::BadMapping, format!("{message}; {MAPPING_HELP}"));
        let mut columns = Columns::default();
        for pair in text.split(',') {
            let (role, column) =
                pair.split_once('=').ok_or_else(|| bad(format!("{} is not role=column", echo(pair))))?;
            let (name, unit) = match column.split_once(':') {
                Some((name, unit)) => (name.trim(), Some(unit.trim())),
                None => (column.trim(), None),
            };
            if name.is_empty() {
                return Err(bad(format!("{} names no column", echo(pair))));
            }
            let unit_refused = || bad(format!("{} takes no unit {}", role.trim(), echo(unit.unwrap_or(""))));
            let taken = match role.trim() {
                "time" => {
                    let unit = match unit {
                        None => None,
                        Some("s") => Some(TimeFormat::Seconds),
                        Some("ms") => Some(TimeFormat::Milliseconds),
                        Some("rfc3339") => Some(TimeFormat::Rfc3339),
                        Some(_) => return Err(unit_refused()),
                    };
                    columns.time.replace(Column { name: name.into(), unit }).is_some()
                }
                "service" => {
                    let unit = match unit {
                        None => None,
                        Some("s") => Some(ServiceUnit::Seconds),
                        Some("ms") => Some(ServiceUnit::Milliseconds),
                        Some(_) => return Err(unit_refused()),
                    };
                    columns.service.replace(Column { name: name.into(), unit }).is_some()
                }
                "key" | "class" if unit.is_some() => return Err(unit_refused()),
                "" => return Err(bad(format!("{} has no role before `=`", echo(pair.trim())))),
                "key" => columns.key.replace(name.into()).is_some(),
                "class" => columns.class.replace(name.into()).is_some(),
                other => return Err(bad(format!("unknown role {}", echo(other)))),
            };
            if taken {
                return Err(bad(format!("role {} is mapped twice", echo(role.trim()))));
            }
        }
        Ok(columns)
    }

    /// The columns, given a header's names: the mapped ones, which must be
    /// there, and otherwise the usual names when present.
    pub fn resolve(&self, header: &[&str]) -> Result<Columns, TraceError> {
        let has = |name: &str| header.contains(&name);
        let missing = |role: &str, name: &str| TraceError {
            column: Some(name.into()),
            ..TraceError::of_file(
                Fault::MissingColumn,
                format!(
                    "the {role} column is not in the header, whose columns are {}",
                    header.iter().map(|c| echo(c)).collect::<Vec<_>>().join(", ")
                ),
            )
        };
        for (role, name) in [
            ("time", self.time.as_ref().map(|c| &c.name)),
            ("key", self.key.as_ref()),
            ("class", self.class.as_ref()),
            ("service", self.service.as_ref().map(|c| &c.name)),
        ] {
            if let Some(name) = name.filter(|name| !has(name)) {
                return Err(missing(role, name));
            }
        }
        let time = match &self.time {
            Some(time) => time.clone(),
            None => {
                let name = TIME_NAMES.iter().find(|name| has(name)).ok_or_else(|| TraceError {
                    line: Some(1),
                    ..TraceError::of_file(
                        Fault::MissingColumn,
                        format!(
                            "no time column: the header has {}; name one time_s, time_ms, time or timestamp, or map it with --trace-columns time=NAME",
                            header.iter().map(|c| echo(c)).collect::<Vec<_>>().join(", ")
                        ),
                    )
                })?;
                Column { name: (*name).into(), unit: None }
            }
        };
        let service = self.service.clone().or_else(|| {
            SERVICE_NAMES
                .iter()
                .find(|name| has(name))
                .map(|name| Column { name: (*name).into(), unit: None })
        });
        let usual = |name: &str| has(name).then(|| name.to_string());
        Ok(Columns {
            time: Some(Column { unit: time.unit.or_else(|| suffix_time(&time.name)), ..time }),
            key: self.key.clone().or_else(|| usual(KEY_NAME)),
            class: self.class.clone().or_else(|| usual(CLASS_NAME)),
            service: service.map(service_column),
        })
    }
}

/// A service column with its unit settled: as mapped, else seconds for a
/// name ending `_s`, else milliseconds.
pub fn service_column(column: Column<ServiceUnit>) -> Column<ServiceUnit> {
    let by_name = if column.name.ends_with("_s") { ServiceUnit::Seconds } else { ServiceUnit::Milliseconds };
    Column { unit: Some(column.unit.unwrap_or(by_name)), ..column }
}

/// The time format a column's name states: `_ms` milliseconds, `_s`
/// seconds; otherwise the first row decides.
fn suffix_time(name: &str) -> Option<TimeFormat> {
    if name.ends_with("_ms") {
        Some(TimeFormat::Milliseconds)
    } else if name.ends_with("_s") {
        Some(TimeFormat::Seconds)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_a_mapping() {
        let columns = Columns::parse("time=ts:ms, key=user_id,service=duration_ms,class=path").unwrap();
        assert_eq!(columns.time, Some(Column { name: "ts".into(), unit: Some(TimeFormat::Milliseconds) }));
        assert_eq!(columns.key.as_deref(), Some("user_id"));
        assert_eq!(columns.class.as_deref(), Some("path"));
        assert_eq!(columns.service, Some(Column { name: "duration_ms".into(), unit: None }));
        for (text, error) in [
            ("time", "is not role=column"),
            ("time=", "names no column"),
            ("time=ts:hours", "time takes no unit `hours`"),
            ("key=k:ms", "key takes no unit"),
            ("size=bytes", "unknown role `size`"),
            ("key=a,key=b", "mapped twice"),
        ] {
            let message = Columns::parse(text).unwrap_err().to_string();
            assert!(message.contains(error) && message.contains("role=column pairs"), "{text}: {message}");
        }
        assert_eq!(
            Columns::parse("=ts").unwrap_err().message,
            "`=ts` has no role before `=`; a mapping is role=column pairs separated by commas, such as `time=ts:ms,key=user_id,service=duration_ms,class=path`: roles time, key, class and service; time takes :s, :ms or :rfc3339, service :s or :ms"
        );
    }

    #[test]
    fn resolves_usual_names_and_units() {
        let usual = Columns::default().resolve(&["time_ms", "key", "service_s", "other"]).unwrap();
        assert_eq!(usual.time, Some(Column { name: "time_ms".into(), unit: Some(TimeFormat::Milliseconds) }));
        assert_eq!(usual.key.as_deref(), Some("key"));
        assert_eq!(usual.class, None);
        assert_eq!(
            usual.service,
            Some(Column { name: "service_s".into(), unit: Some(ServiceUnit::Seconds) })
        );
        let open = Columns::default().resolve(&["time", "duration"]).unwrap();
        assert_eq!(open.time.unwrap().unit, None);
        let mapped = Columns::parse("time=at,service=took").unwrap().resolve(&["at", "took"]).unwrap();
        assert_eq!(mapped.service.unwrap().unit, Some(ServiceUnit::Milliseconds));
        let missing = Columns::parse("key=user").unwrap().resolve(&["time", "uid"]).unwrap_err();
        assert_eq!(
            missing.to_string(),
            "trace, column `user`: the key column is not in the header, whose columns are `time`, `uid`"
        );
        let no_time = Columns::default().resolve(&["when"]).unwrap_err();
        assert_eq!(no_time.fault, Fault::MissingColumn);
        assert!(no_time.to_string().starts_with("trace line 1: no time column"), "{no_time}");
    }
}
