//! Active health checks every `health_check_ms`: a server that fails
//! `health_check_fall` checks in a row leaves every chooser's pool until
//! it passes `health_check_rise` in a row (HAProxy's `fall` and `rise`, 3
//! and 2 there; Envoy's `unhealthy_threshold` and `healthy_threshold`). A
//! check fails when the server refuses connections, or, with
//! `health_check_timeout_ms`, when it would wait that long for a slot:
//! behind the server's queue, served at its speed, a request's mean
//! service time each. A check sees nothing of the answers: a fast-failing
//! server passes, which is why outlier ejection (`ejection.rs`) is needed
//! as well.

use super::{Action, Asks, Feature, View};
use crate::scenario::Scenario;
use crate::time::Time;

pub(in crate::engine) struct HealthChecks {
    interval: Time,
    rise: u32,
    fall: u32,
    timeout_ms: Option<f64>,
    /// Each server's state as the checks see it: whether it is held out,
    /// and how many checks in a row said otherwise.
    seen: Vec<Seen>,
}

#[derive(Clone, Copy, Default)]
struct Seen {
    unhealthy: bool,
    against: u32,
}

impl HealthChecks {
    /// Whether a check of `server` now fails.
    fn fails(&self, server: usize, view: &View) -> bool {
        view.refuses(server) || self.timeout_ms.is_some_and(|timeout| wait_ms(server, view) >= timeout)
    }
}

/// How long a check of `server` would wait for a slot: none while one is
/// free; otherwise until the requests queued ahead of it, and one more,
/// have been served by its slots at its speed.
fn wait_ms(server: usize, view: &View) -> f64 {
    let at = &view.servers[server];
    if at.has_free_slot() {
        return 0.0;
    }
    let rounds = f64::from(at.queued() + 1) / f64::from(at.slots.max(1));
    rounds * view.scenario.service_mean_ms / at.speed
}

impl Feature for HealthChecks {
    const TRACE_KIND: u64 = 19;

    fn for_scenario(scenario: &Scenario) -> Option<HealthChecks> {
        Some(HealthChecks {
            interval: Time::from_ms(scenario.health_check_ms?),
            rise: scenario.health_check_rise,
            fall: scenario.health_check_fall,
            timeout_ms: scenario.health_check_timeout_ms,
            seen: Vec::new(),
        })
    }

    fn start(&mut self, _view: &View, out: &mut Asks) {
        out.push(Action::Timer { at: self.interval, payload: 0 });
    }

    /// Checks every server (servers added since the last check start
    /// healthy), marks those whose health changed, and sets the next round.
    fn timer(&mut self, _payload: u32, view: &View, out: &mut Asks) {
        self.seen.resize(view.servers.len(), Seen::default());
        for server in 0..self.seen.len() {
            let fails = self.fails(server, view);
            let seen = &mut self.seen[server];
            seen.against = if fails == seen.unhealthy { 0 } else { seen.against + 1 };
            let needed = if seen.unhealthy { self.rise } else { self.fall };
            if seen.against >= needed {
                *seen = Seen { unhealthy: fails, against: 0 };
                out.push(Action::SetHealth { server: server as u32, healthy: !fails });
            }
        }
        out.push(Action::Timer { at: view.now + self.interval, payload: 0 });
    }
}
