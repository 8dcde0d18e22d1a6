//! Failure modes on a schedule, written
//! `SECONDSs:KIND:SERVER[:OPTION=VALUE]...`, comma separated:
//! `10s:down:3:for=5s, 20s:slow:2:x=0.25, 30s:fast-fail:4:p=0.9:after=1ms,
//! 40s:flap:5:period=2s, 50s:recover:2`.
//!
//! - `down`: connections are refused at once (an error after the network
//!   hop, no service).
//! - `slow:x=FACTOR`: the server's speed is multiplied by the factor.
//! - `fast-fail:p=SHARE[:after=DURATION]`: each request it serves is, with
//!   probability `p`, answered with an error after `after` of service
//!   (1 ms unless given), holding a slot that long.
//! - `flap:period=DURATION`: down for a period, up for a period, and so on.
//! - `recover`: ends the server's failure.
//!
//! Any failure may end by itself: `for=DURATION`. Durations are written
//! as every duration is, with their unit: `250ms`, `5s`, `2m`.

use super::duration::{self, Duration, LATEST_S};
use super::echo;
use super::fields::format_number;
use super::schedule::{self, ScheduleError};
use serde::Serialize;

/// How a server fails.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "kind")]
pub enum Failure {
    /// Connections refused at once.
    Down,
    /// Speed times `factor`.
    Slow { factor: f64 },
    /// With probability `share` an error after `after_ms` of service.
    FastFail { share: f64, after_ms: f64 },
    /// Down and up in turn, `period_ms` each.
    Flap { period_ms: f64 },
}

impl Failure {
    /// The failure as the schedule writes it (`slow:x=0.25`).
    pub fn text(self) -> String {
        match self {
            Failure::Down => "down".into(),
            Failure::Slow { factor } => format!("slow:x={}", format_number(factor)),
            Failure::FastFail { share, after_ms } => {
                format!("fast-fail:p={}:after={}ms", format_number(share), format_number(after_ms))
            }
            Failure::Flap { period_ms } => format!("flap:period={}ms", format_number(period_ms)),
        }
    }
}

/// One scheduled failure, or recovery (`failure: None`).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct ScheduledFailure {
    /// Simulated seconds from the start.
    pub at_s: f64,
    pub server: u32,
    pub failure: Option<Failure>,
    /// How long it lasts; `None`: until a recovery.
    pub for_s: Option<f64>,
}

/// The most entries a schedule may hold.
pub const MAX_FAILURES: usize = 100;
/// The range of a slow server's speed factor.
pub const FACTORS: (f64, f64) = (0.001, 1.0);
/// The range of a duration written in the schedule: above 0, up to a day.
pub const DURATIONS: (Duration, Duration) = (Duration::milliseconds(0.001), Duration::seconds(LATEST_S));

/// Reads option `name`'s duration as milliseconds, within [`DURATIONS`].
fn duration_ms(name: &str, text: &str) -> Result<f64, String> {
    duration::read(name, text, DURATIONS, None).map(Duration::as_ms)
}

impl ScheduledFailure {
    fn parse(text: &str) -> Result<ScheduledFailure, String> {
        let mut parts = text.split(':').map(str::trim);
        let (Some(at), Some(kind), Some(server)) = (parts.next(), parts.next(), parts.next()) else {
            return Err("write TIME:KIND:SERVER[:OPTION=VALUE]... (10s:down:3:for=5s)".into());
        };
        let (at_s, server) = (schedule::at_seconds(at)?, schedule::server(server)?);
        let mut options = Vec::new();
        for part in parts {
            let (name, value) =
                part.split_once('=').ok_or_else(|| format!("an option is NAME=VALUE, not {}", echo(part)))?;
            if options.iter().any(|(n, _)| *n == name) {
                return Err(format!("option {} is given twice", echo(name)));
            }
            options.push((name, value));
        }
        let mut take = |name: &str| options.iter().position(|(n, _)| *n == name).map(|i| options.remove(i).1);
        let needs = |option: &str| format!("{kind} needs {option}");
        let for_s = take("for").map(|text| duration_ms("for", text)).transpose()?.map(|ms| ms / 1000.0);
        let failure = match kind {
            "down" => Some(Failure::Down),
            "slow" => {
                let x = take("x").ok_or_else(|| needs("x=FACTOR"))?;
                Some(Failure::Slow { factor: schedule::number_in("x, the factor,", x, FACTORS)? })
            }
            "fast-fail" => {
                let p = take("p").ok_or_else(|| needs("p=SHARE"))?;
                let share = schedule::number_in("p, the share,", p, (0.0, 1.0))?;
                let after_ms = take("after").map_or(Ok(1.0), |text| duration_ms("after", text))?;
                Some(Failure::FastFail { share, after_ms })
            }
            "flap" => {
                let period = take("period").ok_or_else(|| needs("period=DURATION"))?;
                Some(Failure::Flap { period_ms: duration_ms("period", period)? })
            }
            "recover" if for_s.is_some() => return Err("recover takes no for=: it ends a failure".into()),
            "recover" => None,
            _ => return Err(format!("KIND is down, slow, fast-fail, flap or recover, not {}", echo(kind))),
        };
        match options.first() {
            Some((name, _)) => Err(format!("{kind} takes no option {}", echo(name))),
            None => Ok(ScheduledFailure { at_s, server, failure, for_s }),
        }
    }

    /// The entry as the schedule writes it (`10s:down:3:for=5s`).
    pub fn text(&self) -> String {
        let what = self.failure.map_or("recover".into(), Failure::text);
        let (kind, options) = what.split_at(what.find(':').unwrap_or(what.len()));
        let mut text = format!("{}s:{kind}:{}{options}", format_number(self.at_s), self.server);
        if let Some(for_s) = self.for_s {
            text += &format!(":for={}s", format_number(for_s));
        }
        text
    }
}

/// Parses a whole schedule: "none", or entries separated by commas.
pub fn parse(text: &str) -> Result<Vec<ScheduledFailure>, ScheduleError> {
    schedule::parse(text, MAX_FAILURES, ScheduledFailure::parse)
}

/// The schedule as text that `parse` reads back.
pub fn text(entries: &[ScheduledFailure]) -> String {
    schedule::text(entries, ScheduledFailure::text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schedules_read_back_and_refuse_what_is_not_one() {
        let entries = parse(
            "10s:down:3:for=5s, 20s:slow:2:x=0.25, 30s:fast-fail:4:p=0.9:after=2ms, 40s:flap:5:period=2s, 50s:recover:2",
        )
        .unwrap();
        assert_eq!(
            entries,
            vec![
                ScheduledFailure { at_s: 10.0, server: 3, failure: Some(Failure::Down), for_s: Some(5.0) },
                ScheduledFailure {
                    at_s: 20.0,
                    server: 2,
                    failure: Some(Failure::Slow { factor: 0.25 }),
                    for_s: None
                },
                ScheduledFailure {
                    at_s: 30.0,
                    server: 4,
                    failure: Some(Failure::FastFail { share: 0.9, after_ms: 2.0 }),
                    for_s: None
                },
                ScheduledFailure {
                    at_s: 40.0,
                    server: 5,
                    failure: Some(Failure::Flap { period_ms: 2000.0 }),
                    for_s: None
                },
                ScheduledFailure { at_s: 50.0, server: 2, failure: None, for_s: None },
            ]
        );
        assert_eq!(
            text(&entries),
            "10s:down:3:for=5s,20s:slow:2:x=0.25,30s:fast-fail:4:p=0.9:after=2ms,40s:flap:5:period=2000ms,50s:recover:2"
        );
        assert_eq!(parse(&text(&entries)), Ok(entries));
        assert_eq!(parse("none"), Ok(Vec::new()));
        assert_eq!(
            parse("1s:fast-fail:0:p=1").unwrap()[0].failure,
            Some(Failure::FastFail { share: 1.0, after_ms: 1.0 })
        );
        for bad in [
            "",
            "10:down:3",
            "10s:down",
            "10s:down:x",
            "10s:sideways:3",
            "10s:slow:3",
            "10s:slow:3:x=2",
            "10s:fast-fail:3:p=1.5",
            "10s:flap:3:period=0s",
            "10s:flap:3:period=2",
            "10s:flap:3:period=2h",
            "10s:down:3:for=1441m",
            "10s:down:3:for=5s:for=6s",
            "10s:down:3:x=0.5",
            "10s:recover:3:for=1s",
            "-1s:down:3",
        ] {
            assert!(parse(bad).is_err(), "{bad}");
        }
    }
}
