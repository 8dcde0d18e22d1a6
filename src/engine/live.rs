//! Changing settings while a simulation runs.

use super::{Simulation, Subsets, Timing};
use crate::scenario::fields::{self, Live};
use crate::scenario::{drift, Demand, Scenario, ScenarioError};
use crate::time::Time;

impl Simulation {
    /// Changes one live field (`policy`, `load`, `staleness_ms`, ...) without
    /// a reset, as its row of the field table says ([`Live`]). Fields that
    /// shape the whole simulation return [`ScenarioError::NotLive`]; rebuild
    /// for those.
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), ScenarioError> {
        let field = fields::find(key)?;
        if field.live == Live::No {
            return Err(ScenarioError::NotLive { field: field.key });
        }
        let mut next = self.scenario.clone();
        next.set(key, value)?;
        let before = std::mem::replace(&mut self.scenario, next);
        self.timing = Timing::of(&self.scenario);
        self.owned.configure_hedging(&self.scenario);
        let now = &self.scenario;
        // Each reaction runs only when what it depends on changed: a scheme's
        // settings, say, change nothing under a policy that places no keys.
        match field.live {
            Live::No | Live::AtUse => {}
            Live::Policies => {
                let placement_changed =
                    now.policy.places_by(field.key) && field.text(&before) != field.text(now);
                if before.policy != now.policy || before.choices != now.choices || placement_changed {
                    self.rebuild_policies();
                }
            }
            Live::Pools => {
                let aperture =
                    (before.subset_mode, before.min_aperture) != (now.subset_mode, now.min_aperture);
                if before.subset_size != now.subset_size || aperture {
                    self.redraw_pools();
                }
            }
            Live::Board => {
                if before.staleness_ms != now.staleness_ms {
                    self.restart_board();
                }
            }
            Live::Arrivals => {
                if before.load != now.load && now.demand == Demand::Continuous {
                    self.restart_arrivals();
                }
            }
            Live::QueueTimeouts => {
                if before.queue_timeout_ms != now.queue_timeout_ms {
                    self.reschedule_queue_timeouts();
                }
            }
        }
        Ok(())
    }

    /// Sets `server`'s speed from now on (drift by hand: the browser calls
    /// it when a server is clicked). Requests in service keep the time they
    /// were given; `load` stays a fraction of the starting capacity.
    pub fn set_server_speed(&mut self, server: usize, speed: f64) -> Result<(), ScenarioError> {
        let servers = self.servers.len();
        let Some(target) = self.servers.get_mut(server) else {
            return Err(ScenarioError::BadValue {
                field: "speed_changes",
                value: server.to_string(),
                allowed: format!("a server from 0 to {}", servers - 1),
            });
        };
        let (min, max) = drift::SPEEDS;
        if !(speed.is_finite() && (min..=max).contains(&speed)) {
            return Err(ScenarioError::BadValue {
                field: "speed_changes",
                value: fields::format_number(speed),
                allowed: format!(
                    "a speed from {} to {}",
                    fields::format_number(min),
                    fields::format_number(max)
                ),
            });
        }
        target.speed = speed;
        Ok(())
    }

    /// The instant a change made live applies at, as its schedule's entry
    /// will in the replay, before any other event due then: the next whole
    /// millisecond, passing over one at which an event the simulation was
    /// built with is due (the first sample, an entry of a schedule), since
    /// in the replay those come first. Brings the simulation to just before
    /// it; why not, when the schedule ends (at `latest_s`) first or the
    /// simulation halts.
    pub(super) fn live_instant(&mut self, latest_s: f64) -> Result<Time, String> {
        let millisecond = Time::from_ms(1.0);
        let mut at = Time((self.now.0 / millisecond.0 + 1) * millisecond.0);
        loop {
            if at > Time::from_secs(latest_s) {
                return Err(format!("the schedule ends at {latest_s} s"));
            }
            self.advance_to(Time(at.0 - 1), u64::MAX);
            if let Some(halt) = self.halt {
                return Err(halt.to_string());
            }
            match self.events.next_due() {
                Some((due, sequence)) if due == at && sequence <= self.scheduled_at_build => {
                    at = at + millisecond;
                }
                _ => return Ok(at),
            }
        }
    }

    /// Applies every live field of `scenario` that differs from the current one.
    pub fn set_live_fields(&mut self, scenario: &Scenario) -> Result<(), ScenarioError> {
        for (key, value) in scenario.to_pairs() {
            let field = fields::find(key)?;
            if field.text(&self.scenario) != value {
                self.set(key, &value)?;
            }
        }
        Ok(())
    }

    fn rebuild_policies(&mut self) {
        self.choosers
            .rebuild_policies((self.scenario.policy, self.scenario.choices), &mut self.streams.routing);
        let directory = self.choosers.place_keys(&self.scenario);
        self.directory.set(directory);
        self.tell_policies_built();
    }

    fn redraw_pools(&mut self) {
        self.choosers.redraw_pools(Subsets::of(&self.scenario), &mut self.streams.routing);
        self.rebuild_policies();
    }

    /// Re-arms every server's queue timeout for its oldest request under the
    /// new setting (or disarms it, for "none").
    fn reschedule_queue_timeouts(&mut self) {
        for server in 0..self.servers.len() {
            self.servers[server].set_timeout_due(None);
            let (Some(timeout), Some(joined)) = (self.timing.queue_timeout, self.oldest_queued(server))
            else {
                continue;
            };
            self.arm_queue_timeout(server, (joined + timeout).max(self.now));
        }
    }
}
