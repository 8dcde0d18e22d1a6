//! Reactions to failing servers: outlier ejection (a chooser that hears
//! `eject_after` errors in a row from a server takes it out of its pool for
//! `eject_for_ms`, holding at most `eject_max_fraction` of the pool out) and
//! active health checks every `health_check_ms` (a server refusing
//! connections leaves every chooser's pool until a check finds it up). A
//! check sees only whether a server accepts connections: a fast-failing
//! server passes, which is why ejection on errors is needed as well.
//! A membership change or a redraw of pools readmits every server.

use super::{Event, Outcome, Simulation};
use crate::time::Time;

/// Each chooser's runs of consecutive errors, (server, errors) for the
/// servers with one: usually none, so a success costs a glance.
#[derive(Default)]
pub struct ErrorRuns(Vec<Vec<(u32, u32)>>);

impl Simulation {
    /// Outlier ejection hears `outcome` from `server` at `chooser`.
    pub(super) fn count_for_ejection(&mut self, chooser: usize, server: u32, outcome: Outcome) {
        let runs = &mut self.features.error_runs.0;
        if runs.len() <= chooser {
            runs.resize(self.choosers.count().max(chooser + 1), Vec::new());
        }
        let runs = &mut runs[chooser];
        let found = runs.iter().position(|&(s, _)| s == server);
        let errors = match (outcome, found) {
            (Outcome::Ok, Some(i)) => {
                runs.swap_remove(i);
                return;
            }
            (Outcome::Ok, None) => return,
            (Outcome::Error(_), Some(i)) => {
                runs[i].1 += 1;
                runs[i].1
            }
            (Outcome::Error(_), None) => {
                runs.push((server, 1));
                1
            }
        };
        if errors < self.scenario.eject_after {
            return;
        }
        runs.retain(|&(s, _)| s != server);
        let until = self.now + Time::from_ms(self.scenario.eject_for_ms);
        let fraction = self.scenario.eject_max_fraction;
        if self.choosers.eject(chooser, server, until, fraction, &mut self.streams.routing) {
            self.metrics.counts.ejections += 1;
            self.events.push(until, Event::EjectionEnds { member: chooser as u32 });
        }
    }

    /// Chooser `member`'s ejections due to end by now end.
    pub(super) fn readmit(&mut self, member: usize) {
        self.choosers.readmit_due(member, self.now, &mut self.streams.routing);
    }

    pub(super) fn schedule_health_checks(&mut self) {
        if let Some(interval) = self.scenario.health_check_ms {
            self.events.push(Time::from_ms(interval), Event::HealthCheck);
        }
    }

    /// Checks every server, and schedules the next round.
    pub(super) fn health_check(&mut self) {
        for server in 0..self.servers.len() {
            let healthy = !self.features.faults.refuses(server);
            if self.features.faults.set_checked(server, healthy) {
                self.choosers.set_health(server as u32, healthy, &mut self.streams.routing);
            }
        }
        if let Some(interval) = self.scenario.health_check_ms {
            self.events.push(self.now + Time::from_ms(interval), Event::HealthCheck);
        }
    }
}
