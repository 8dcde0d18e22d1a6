//! Servers and choosers in several datacenters (`datacenters`,
//! `cross_dc_delay_ms`; seed 002's FoundationDB reads from the nearest
//! replicas): a hop between a client or balancer and a server of another
//! datacenter takes `cross_dc_delay_ms` more each way (the core puts such
//! a hop on the timing wheel, not its tier's lane, whose events all share
//! one delay and so arrive in order); every send counts as local or remote.

use super::{Asks, Feature, Points, Sent, View};
use crate::scenario::{self, Scenario};
use crate::time::Time;
use serde::Serialize;

pub(in crate::engine) struct Datacenters {
    split: scenario::Datacenters,
    /// What a hop across two datacenters adds.
    extra: Time,
    locality: Locality,
}

/// Requests sent to a server in the sender's own datacenter, and to one in
/// another: the summary's counts show them beside the core's.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Locality {
    pub sent_local: u64,
    pub sent_remote: u64,
}

impl Locality {
    /// The share of sends that stayed in the sender's own datacenter, if
    /// any were counted.
    pub fn local_share(&self) -> Option<f64> {
        let sent = self.sent_local + self.sent_remote;
        (sent > 0).then(|| self.sent_local as f64 / sent as f64)
    }
}

impl Datacenters {
    pub fn locality(&self) -> Locality {
        self.locality
    }
}

impl Feature for Datacenters {
    /// It has no timers.
    const TRACE_KIND: u64 = 0;
    const HEARS: Points = Points::SENT.and(Points::HOP);

    fn for_scenario(scenario: &Scenario) -> Option<Datacenters> {
        (scenario.datacenters > 1).then(|| Datacenters {
            split: scenario.datacenters(),
            extra: Time::from_ms(scenario.cross_dc_delay_ms),
            locality: Locality::default(),
        })
    }

    #[inline]
    fn sent(&mut self, sent: Sent, _view: &View, _out: &mut Asks) {
        let counts = &mut self.locality;
        *(if sent.extra.is_some() { &mut counts.sent_remote } else { &mut counts.sent_local }) += 1;
    }

    #[inline]
    fn hop(&self, base: &impl Fn() -> u32, server: u32) -> Option<Time> {
        (self.split.of_chooser(base()) != self.split.of_server(server)).then_some(self.extra)
    }
}
