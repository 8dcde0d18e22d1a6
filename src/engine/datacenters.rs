//! Servers and choosers in several datacenters (`datacenters`,
//! `cross_dc_delay_ms`; seed 002's FoundationDB reads from the nearest
//! replicas): a hop between a client or balancer and a server of another
//! datacenter takes `cross_dc_delay_ms` more each way. Such a hop goes on
//! the timing wheel, not the tier's lane, whose events all share one delay
//! and so arrive in order; every send counts as local or remote.

use super::events::{Event, Lane};
use super::{Simulation, Timing};
use crate::time::Time;

impl Timing {
    /// What a hop between client or balancer `base` and `server` adds to
    /// the tier's delay: `None` within one datacenter.
    pub(super) fn extra_delay(&self, base: u32, server: u32) -> Option<Time> {
        let (split, extra) = self.cross_dc?;
        (split.of_chooser(base) != split.of_server(server)).then_some(extra)
    }
}

impl Simulation {
    /// With several datacenters: what `chooser`'s hop to `server` adds,
    /// counted as a send within a datacenter or across two.
    #[cold]
    pub(super) fn count_locality(&mut self, chooser: usize, server: u32) -> Option<Time> {
        let cross = self.timing.extra_delay(self.choosers.base_of(chooser), server);
        let counts = &mut self.metrics.counts;
        *(if cross.is_some() { &mut counts.sent_remote } else { &mut counts.sent_local }) += 1;
        cross
    }

    /// Schedules the end of a hop in its lane, or, when it crosses
    /// datacenters (its delay then not the lane's), `cross` later.
    #[inline]
    pub(super) fn push_hop(&mut self, lane: Lane, at: Time, cross: Option<Time>, event: Event) {
        match cross {
            None => self.events.push_in_lane(lane, at, event),
            Some(extra) => self.events.push(at + extra, event),
        }
    }
}
