//! Slow start (Envoy's `slow_start_config`, `common.proto` and the
//! architecture overview's "Slow start mode"): a server that joins takes
//! its weight × max(min_weight_percent, time_factor^(1 / aggression)),
//! time_factor being max(the time since it joined, 1 s) ÷ the window,
//! until the window is over. With aggression 1 and no floor it is HAProxy's
//! and ALB's linear ramp. The servers present at the start are not new.
//!
//! The weights are the choosers' (what the weighted policies read when
//! they are built): the feature sets them at each step of the ramp, every
//! hundredth of the window, through [`Action::SetWeight`]. A policy that
//! reads no weight is not slowed (its choosers are left as they are).

use super::{Action, Asks, Feature, View};
use crate::scenario::Scenario;
use crate::time::Time;

/// How many times over its window a server's weight is set.
const STEPS: u64 = 100;

pub(in crate::engine) struct SlowStart {
    ramp: Ramp,
    /// The members when last told, to see which server joins.
    members: Vec<u32>,
    /// The servers ramping up, each with when it joined.
    ramping: Vec<(u32, Time)>,
}

/// A joining server's share of its weight over time.
#[derive(Clone, Copy, Debug)]
pub(in crate::engine) struct Ramp {
    pub window: Time,
    pub aggression: f64,
    /// `min_weight_percent` as a fraction.
    pub floor: f64,
}

impl Ramp {
    /// The share of its weight a server has `since` after it joined: 1 once
    /// the window is over.
    pub fn share(self, since: Time) -> f64 {
        if since >= self.window {
            return 1.0;
        }
        let time_factor = since.max(Time::from_ms(1000.0)).as_ms() / self.window.as_ms();
        time_factor.powf(1.0 / self.aggression).max(self.floor).min(1.0)
    }

    fn step(self) -> Time {
        Time((self.window.0 / STEPS).max(1))
    }
}

impl SlowStart {
    /// Sets each ramping server's weight for now, under a policy that reads
    /// weights, and lets go of those whose window is over (at their full
    /// weight).
    fn set_weights(&mut self, view: &View, out: &mut Asks) {
        let ramp = self.ramp;
        for &(server, joined) in self.ramping.iter().filter(|_| view.scenario.policy.reads_weights()) {
            let weight =
                view.scenario.weight_of(server as usize) * ramp.share(view.now.saturating_sub(joined));
            out.push(Action::SetWeight { server, weight });
        }
        self.ramping.retain(|&(_, joined)| ramp.share(view.now.saturating_sub(joined)) < 1.0);
    }
}

impl Feature for SlowStart {
    const TRACE_KIND: u64 = 22;

    fn for_scenario(scenario: &Scenario) -> Option<SlowStart> {
        let ramp = Ramp {
            window: Time::from_ms(scenario.slow_start_window_ms?),
            aggression: scenario.slow_start_aggression,
            floor: scenario.slow_start_min_weight_percent / 100.0,
        };
        let members = (0..scenario.servers).collect();
        Some(SlowStart { ramp, members, ramping: Vec::new() })
    }

    /// After a membership change: a server that joined starts its ramp
    /// (the steps start with the first), one that left ends it.
    fn policies_built(&mut self, view: &View, out: &mut Asks) {
        let members = view.choosers.members();
        let was_idle = self.ramping.is_empty();
        self.ramping.retain(|(server, _)| members.contains(server));
        for &server in members.iter().filter(|s| !self.members.contains(s)) {
            self.ramping.push((server, view.now));
        }
        self.members = members.to_vec();
        if was_idle && !self.ramping.is_empty() {
            self.set_weights(view, out);
            out.push(Action::Timer { at: view.now + self.ramp.step(), payload: 0 });
        }
    }

    fn timer(&mut self, _payload: u32, view: &View, out: &mut Asks) {
        self.set_weights(view, out);
        if !self.ramping.is_empty() {
            out.push(Action::Timer { at: view.now + self.ramp.step(), payload: 0 });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_share_follows_envoys_formula_with_its_floor_and_its_one_second_start() {
        let ramp = |aggression, floor| Ramp { window: Time::from_ms(60_000.0), aggression, floor };
        let at = |s: f64| Time::from_ms(s * 1000.0);
        // Linear, Envoy's 10% floor: 10% until 6 s, then t / 60 s.
        assert_eq!(ramp(1.0, 0.1).share(at(0.0)), 0.1);
        assert_eq!(ramp(1.0, 0.1).share(at(30.0)), 0.5);
        // No floor: the first second counts as one second.
        assert_eq!(ramp(1.0, 0.0).share(at(0.0)), 1.0 / 60.0);
        // Aggression 2: the square root, (15 / 60)^(1/2) = 0.5.
        assert_eq!(ramp(2.0, 0.1).share(at(15.0)), 0.5);
        assert_eq!(ramp(2.0, 0.1).share(at(60.0)), 1.0);
    }
}
