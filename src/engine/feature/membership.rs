//! Membership (seed 004: servers come and go): which servers are members,
//! the scenario's schedule of changes (`membership`) and what each change
//! did. A timer per entry, set when the run starts (or when a change is
//! made live, `engine/membership.rs`), applies the change to the roster
//! and asks the core to carry it out ([`Action::ChangeMembers`]: a server
//! added, restored, removed or crashed, and every pool drawn over the new
//! members); a change the roster refuses by then (a live change made it
//! impossible) is dropped. The core reports what the change moved
//! ([`Report::MembersChanged`]), and the feature keeps its report.

use super::{Action, Asks, Feature, Report, View};
use crate::engine::journal::Happening;
use crate::engine::membership::ChangeReport;
use crate::scenario::{Change, Roster, Scenario, Scheduled, Standing};
use crate::time::Time;

pub(in crate::engine) struct Membership {
    roster: Roster,
    reports: Vec<ChangeReport>,
    /// The choosers' lag counts when each change happened.
    lag_counts_at: Vec<(u64, u64)>,
    /// The change the core is carrying out: it, the server it concerns,
    /// and the members before and after.
    under_way: Option<(Change, u32, u32, u32)>,
}

impl Feature for Membership {
    /// The kind `MembershipChange` had.
    const TRACE_KIND: u64 = 14;

    /// Present in every run: a change can be made live at any time.
    fn for_scenario(scenario: &Scenario) -> Option<Membership> {
        Some(Membership {
            roster: Roster::new(scenario.servers, &scenario.class_pools),
            reports: Vec::new(),
            lag_counts_at: Vec::new(),
            under_way: None,
        })
    }

    fn start(&mut self, view: &View, out: &mut Asks) {
        for (change, due) in view.scenario.membership.iter().enumerate() {
            out.push(Action::Timer { at: Time::from_secs(due.at_s), payload: change as u32 });
        }
    }

    /// The schedule's `entry`th change is due.
    fn timer(&mut self, entry: u32, view: &View, out: &mut Asks) {
        let Some(&Scheduled { change, .. }) = view.scenario.membership.get(entry as usize) else { return };
        let mut roster = self.roster.clone();
        let before = roster.members().len() as u32;
        if roster.apply(change).is_err() {
            if view.journaled {
                out.push(Action::Note(Happening::ChangeDropped { change }));
            }
            return;
        }
        let members = roster.members();
        self.roster = roster;
        let server = change.server().unwrap_or(view.servers.len() as u32);
        self.under_way = Some((change, server, before, members.len() as u32));
        out.push(Action::ChangeMembers { change, members });
    }

    fn carried(&mut self, report: Report, view: &View, out: &mut Asks) {
        let Report::MembersChanged { keys_moved, keys_ideal, server_keys, crash_replaced } = report else {
            return;
        };
        let Some((change, server, members_before, members_after)) = self.under_way.take() else { return };
        self.lag_counts_at.push(view.choosers.lag_counts());
        self.reports.push(ChangeReport {
            at_s: view.now.as_secs(),
            change,
            server,
            members_before,
            members_after,
            keys_moved,
            keys_ideal,
            server_keys,
            crash_replaced,
            routed_during_lag: 0,
            misrouted: 0,
        });
        if view.journaled {
            out.push(Action::Note(Happening::MembershipChanged { change, server }));
        }
    }
}

impl Membership {
    /// `server`'s part in the membership.
    pub fn standing(&self, server: usize) -> Standing {
        self.roster.standing(server)
    }

    /// Whether the roster can take `change` now; why not, if not.
    pub fn check(&self, change: Change) -> Result<(), String> {
        self.roster.clone().apply(change)
    }

    /// The server the latest change concerned.
    pub fn last_server(&self) -> u32 {
        self.reports.last().map_or(0, |report| report.server)
    }

    /// What each change did, in order, with the requests routed under a
    /// lagging table from each change to the next (the last, to now,
    /// when the choosers' lag counts are `lag_now`).
    pub fn changes(&self, lag_now: (u64, u64)) -> Vec<ChangeReport> {
        let mut reports = self.reports.clone();
        let ends = self.lag_counts_at.iter().skip(1).copied().chain([lag_now]);
        for ((report, start), end) in reports.iter_mut().zip(&self.lag_counts_at).zip(ends) {
            report.routed_during_lag = end.0 - start.0;
            report.misrouted = end.1 - start.1;
        }
        reports
    }
}
