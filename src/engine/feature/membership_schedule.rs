//! The scenario's membership schedule (`membership`): a timer per entry,
//! set when the run starts, at which the core applies the change (a server
//! added, removed, crashed or restored; see `engine/membership.rs`).

use super::{Action, Asks, Feature, View};
use crate::scenario::Scenario;
use crate::time::Time;

pub(in crate::engine) struct MembershipSchedule;

impl Feature for MembershipSchedule {
    const TRACE_KIND: u64 = 14;

    /// Present in every run: a change can be made live at any time.
    fn for_scenario(_scenario: &Scenario) -> Option<MembershipSchedule> {
        Some(MembershipSchedule)
    }

    fn start(&mut self, view: &View, out: &mut Asks) {
        for (change, due) in view.scenario.membership.iter().enumerate() {
            out.push(Action::Timer { at: Time::from_secs(due.at_s), payload: change as u32 });
        }
    }

    fn timer(&mut self, change: u32, _view: &View, out: &mut Asks) {
        out.push(Action::ChangeMembership { change });
    }
}
