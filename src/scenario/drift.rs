//! Drift: servers' speeds changing on a schedule (a noisy neighbour moving
//! in, a machine throttled), written `SERVER@SECONDSs:SPEED`, comma
//! separated: `3@10s:0.25, 3@40s:1` slows server 3 to a quarter of its
//! speed at 10 s and restores it at 40 s.

use super::fields::{format_number, parse_schedule, schedule_text};
use serde::Serialize;

/// One scheduled change of one server's speed.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct SpeedChange {
    pub server: u32,
    /// Simulated seconds from the start.
    pub at_s: f64,
    /// The server's relative speed from then on.
    pub speed: f64,
}

/// The most changes a schedule may hold.
pub const MAX_CHANGES: usize = 100;
/// The latest a change may be due, in simulated seconds (`duration_s`'s limit).
pub const LATEST_S: f64 = 86_400.0;
/// The range of a server's relative speed (as in `server_speeds`).
pub const SPEEDS: (f64, f64) = (0.01, 100.0);

impl SpeedChange {
    /// Parses `SERVER@SECONDSs:SPEED`.
    fn parse(text: &str) -> Option<SpeedChange> {
        let (server, rest) = text.split_once('@')?;
        let (at, speed) = rest.split_once(':')?;
        let server = server.trim().parse::<u32>().ok().filter(|&s| s < 10_000)?;
        let at_s = at.trim().strip_suffix('s')?.trim().parse::<f64>().ok()?;
        let speed = speed.trim().parse::<f64>().ok()?;
        let in_range = |x: f64, (min, max): (f64, f64)| x.is_finite() && x >= min && x <= max;
        (in_range(at_s, (0.0, LATEST_S)) && in_range(speed, SPEEDS)).then_some(SpeedChange {
            server,
            at_s,
            speed,
        })
    }
}

/// Parses a whole schedule: "none", or changes separated by commas.
pub fn parse(text: &str) -> Option<Vec<SpeedChange>> {
    parse_schedule(text, MAX_CHANGES, SpeedChange::parse)
}

/// The schedule as text that `parse` reads back.
pub fn text(changes: &[SpeedChange]) -> String {
    schedule_text(changes, |c| format!("{}@{}s:{}", c.server, format_number(c.at_s), format_number(c.speed)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schedules_read_back_and_refuse_what_is_not_one() {
        let changes = parse(" 3@10s:0.25, 0@2.5s:4 ").unwrap();
        assert_eq!(
            changes,
            vec![
                SpeedChange { server: 3, at_s: 10.0, speed: 0.25 },
                SpeedChange { server: 0, at_s: 2.5, speed: 4.0 }
            ]
        );
        assert_eq!(text(&changes), "3@10s:0.25,0@2.5s:4");
        assert_eq!(parse(&text(&changes)), Some(changes));
        assert_eq!(parse("none"), Some(Vec::new()));
        for bad in
            ["", "3@10:0.25", "3@10s", "x@1s:1", "3@-1s:1", "3@1s:0", "3@1s:101", "1@1s:1,", "10000@1s:1"]
        {
            assert_eq!(parse(bad), None, "{bad}");
        }
    }
}
