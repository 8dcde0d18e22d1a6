//! Join-the-idle-queue's reports (Lu et al., "Join-Idle-Queue", 2011): a
//! server with a free slot and nothing queued tells a chooser drawn at
//! random that it is idle, once until a request next reaches it. Only
//! while the choosers' policy listens for such reports; every chooser's
//! idle queue starts empty when its policy is built, and each idle server
//! reports afresh.

use super::{Action, Arrived, Asks, Feature, Freed, Points, Report, View};
use crate::scenario::Scenario;

pub(in crate::engine) struct IdleReports {
    /// Whether the choosers' policy listens for idle servers.
    listening: bool,
    /// Whether each server has told a chooser it is idle since a request
    /// last reached it (servers added later start unlisted).
    listed: Vec<bool>,
}

impl IdleReports {
    fn listed_mut(&mut self, server: u32) -> &mut bool {
        let server = server as usize;
        if self.listed.len() <= server {
            self.listed.resize(server + 1, false);
        }
        &mut self.listed[server]
    }

    /// `server` reports if it is idle and has not said so yet.
    fn report_if_idle(&mut self, server: u32, view: &View, out: &mut Asks) {
        let s = &view.servers[server as usize];
        if !self.listening || *self.listed_mut(server) || !s.queue.is_empty() || !s.has_free_slot() {
            return;
        }
        out.push(Action::ReportIdle { server });
    }
}

impl Feature for IdleReports {
    /// It sets no timers.
    const TRACE_KIND: u64 = 0;
    const HEARS: Points = Points::ARRIVED.and(Points::FREED);

    fn for_scenario(scenario: &Scenario) -> Option<IdleReports> {
        Some(IdleReports { listening: scenario.policy.hears_idle_servers(), listed: Vec::new() })
    }

    fn listening(&self) -> bool {
        self.listening
    }

    #[inline(always)]
    fn arrived(&mut self, Arrived { server }: Arrived, _view: &View, _out: &mut Asks) {
        *self.listed_mut(server) = false;
    }

    #[inline(always)]
    fn freed(&mut self, Freed { server }: Freed, view: &View, out: &mut Asks) {
        self.report_if_idle(server, view, out);
    }

    fn carried(&mut self, report: Report, _view: &View, _out: &mut Asks) {
        if let Report::Listed { server, listed } = report {
            *self.listed_mut(server) = listed;
        }
    }

    fn policies_built(&mut self, view: &View, out: &mut Asks) {
        self.listening = view.scenario.policy.hears_idle_servers();
        self.listed.iter_mut().for_each(|listed| *listed = false);
        if self.listening {
            (0..view.servers.len() as u32).for_each(|server| self.report_if_idle(server, view, out));
        }
    }
}
