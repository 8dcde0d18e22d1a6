//! Drifting speeds: the scenario's schedule of speed changes
//! (`speed_changes`), each a server that serves at a new speed from a
//! given time. A timer per entry, set when the run starts.

use super::{Action, Asks, Feature, View};
use crate::scenario::{Scenario, SpeedChange};
use crate::time::Time;

pub(in crate::engine) struct Drift {
    schedule: Vec<SpeedChange>,
}

impl Feature for Drift {
    const TRACE_KIND: u64 = 13;

    fn for_scenario(scenario: &Scenario) -> Option<Drift> {
        (!scenario.speed_changes.is_empty()).then(|| Drift { schedule: scenario.speed_changes.clone() })
    }

    fn start(&mut self, _view: &View, out: &mut Asks) {
        for (entry, change) in self.schedule.iter().enumerate() {
            out.push(Action::Timer { at: Time::from_secs(change.at_s), payload: entry as u32 });
        }
    }

    fn timer(&mut self, entry: u32, view: &View, out: &mut Asks) {
        let Some(&SpeedChange { server, speed, .. }) = self.schedule.get(entry as usize) else { return };
        out.push(Action::SetSpeed { server, speed });
        if view.journaled {
            out.push(Action::Note(crate::engine::Happening::SpeedChanged { server, speed }));
        }
    }
}
