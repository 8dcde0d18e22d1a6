//! A lagging mapping table (`table_lag_ms`): after a membership change,
//! each chooser's copy of the table takes the new version its share of the
//! lag later (the choosers keep the versions pending, `chooser/placements.rs`).
//! This feature sets a timer for each copy's update, from the versions
//! pending once the members have changed, and asks the chooser to take
//! them when it is due.

use super::{Action, Asks, Feature, View};
use crate::scenario::Scenario;

/// Stateless: the versions pending are the choosers', and the lag a live
/// setting, so the feature is present in every run (told only when the
/// members change).
pub(in crate::engine) struct TableUpdates;

impl Feature for TableUpdates {
    /// The kind `TableUpdate` had.
    const TRACE_KIND: u64 = 15;

    fn for_scenario(_scenario: &Scenario) -> Option<TableUpdates> {
        Some(TableUpdates)
    }

    /// Each chooser with a version pending takes it when it is due.
    fn members_changed(&mut self, view: &View, out: &mut Asks) {
        for member in 0..view.choosers.count() {
            if let Some(at) = view.choosers.table_due(member) {
                out.push(Action::Timer { at, payload: member as u32 });
            }
        }
    }

    fn timer(&mut self, member: u32, _view: &View, out: &mut Asks) {
        out.push(Action::TakeTables { member });
    }
}
