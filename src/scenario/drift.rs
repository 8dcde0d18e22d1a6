//! Drift: servers' speeds changing on a schedule (a noisy neighbour moving
//! in, a machine throttled), written `SERVER@TIME:SPEED`, comma
//! separated: `3@10s:0.25, 3@40s:1` slows server 3 to a quarter of its
//! speed at 10 s and restores it at 40 s.

use super::fields::format_number;
use super::schedule::{self, ScheduleError};
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
/// The range of a server's relative speed (as in `server_speeds`).
pub const SPEEDS: (f64, f64) = (0.01, 100.0);

impl SpeedChange {
    /// The change as the schedule writes it (`3@10s:0.25`).
    pub fn text(&self) -> String {
        format!("{}@{}s:{}", self.server, format_number(self.at_s), format_number(self.speed))
    }

    /// Parses `SERVER@TIME:SPEED`.
    fn parse(text: &str) -> Result<SpeedChange, String> {
        let shape = || "write SERVER@TIME:SPEED (3@10s:0.25)".to_string();
        let (server, rest) = text.split_once('@').ok_or_else(shape)?;
        let (at, speed) = rest.split_once(':').ok_or_else(shape)?;
        Ok(SpeedChange {
            server: schedule::server(server)?,
            at_s: schedule::at_seconds(at)?,
            speed: schedule::number_in("the speed", speed, SPEEDS)?,
        })
    }
}

/// Parses a whole schedule: "none", or changes separated by commas.
pub fn parse(text: &str) -> Result<Vec<SpeedChange>, ScheduleError> {
    schedule::parse(text, MAX_CHANGES, SpeedChange::parse)
}

/// The schedule as text that `parse` reads back.
pub fn text(changes: &[SpeedChange]) -> String {
    schedule::text(changes, SpeedChange::text)
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
        assert_eq!(parse(&text(&changes)), Ok(changes));
        assert_eq!(parse("none"), Ok(Vec::new()));
        for bad in ["", "3@10:0.25", "3@10s", "x@1s:1", "3@-1s:1", "3@1s:0", "3@1s:101", "1@1s:1,"] {
            assert!(parse(bad).is_err(), "{bad}");
        }
    }
}
