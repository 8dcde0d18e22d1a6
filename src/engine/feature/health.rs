//! Active health checks every `health_check_ms`: a server refusing
//! connections leaves every chooser's pool until a check finds it up. A
//! check sees only whether a server accepts connections: a fast-failing
//! server passes, which is why outlier ejection (`ejection.rs`) is needed
//! as well.

use super::{Action, Asks, Feature, View};
use crate::scenario::Scenario;
use crate::time::Time;

pub(in crate::engine) struct HealthChecks {
    interval: Time,
    /// Whether the last check found each server refusing.
    unhealthy: Vec<bool>,
}

impl Feature for HealthChecks {
    const TRACE_KIND: u64 = 19;

    fn for_scenario(scenario: &Scenario) -> Option<HealthChecks> {
        let interval = Time::from_ms(scenario.health_check_ms?);
        Some(HealthChecks { interval, unhealthy: Vec::new() })
    }

    fn start(&mut self, _view: &View, out: &mut Asks) {
        out.push(Action::Timer { at: self.interval, payload: 0 });
    }

    /// Checks every server (servers added since the last check start
    /// healthy), marks those whose health changed, and sets the next round.
    fn timer(&mut self, _payload: u32, view: &View, out: &mut Asks) {
        self.unhealthy.resize(view.servers.len(), false);
        for (server, unhealthy) in self.unhealthy.iter_mut().enumerate() {
            let refuses = view.refuses(server);
            if *unhealthy != refuses {
                *unhealthy = refuses;
                out.push(Action::SetHealth { server: server as u32, healthy: !refuses });
            }
        }
        out.push(Action::Timer { at: view.now + self.interval, payload: 0 });
    }
}
