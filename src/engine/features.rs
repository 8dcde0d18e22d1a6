//! Where the features not yet on the feature interface (`feature/mod.rs`)
//! meet the core. The core (`flow.rs`) moves a request from its client to
//! a server and back; at a few fixed points of that path it calls the
//! hooks below, and each hook asks the features that take part at that
//! point, in a fixed order. A feature keeps its state in its own module
//! and its own events: membership changes (`membership.rs`).
//! Each moves to the interface as a file of `feature/` (drifting speeds,
//! datacenters, recorded decisions, outlier ejection, health checks,
//! retries, join-the-idle-queue's reports, failures, hedging and
//! FoundationDB's balancers have), and
//! its hooks here go.
//!
//! A hook a run's features leave unused costs one test of a flag on the
//! path of every request, so hooks stay few and cheap.

use super::feature::{Created, Heard};
use super::flight::Flight;
use super::journal::Happening;
use super::marks::Mark;
use super::membership::Membership;
use super::{ErrorKind, Outcome, Simulation};
use crate::scenario::Scenario;
use crate::time::Time;

/// What each feature keeps: the simulation's core reaches it only through
/// the hooks below and the feature's own events.
pub(super) struct Features {
    /// Which servers are members, and what each change did.
    pub membership: Membership,
}

impl Features {
    /// Each feature as the scenario starts it.
    pub fn new(scenario: &Scenario) -> Features {
        Features { membership: Membership::new(scenario.servers, &scenario.class_pools) }
    }
}

impl Simulation {
    /// Whether `server`, failing, refuses the request `id` names on arrival.
    #[inline]
    pub(super) fn refused_at_server(&mut self, id: Flight, server: usize) -> bool {
        if !(self.marks.any() && self.marks.of(server) == Mark::Refuses) {
            return false;
        }
        if self.journal.is_some() {
            self.note_request(id, |request| Happening::Refused { request, server: server as u32 });
        }
        self.refuse(id, server);
        true
    }

    /// How long the service of the request `id` names at `server` lasts if
    /// a fault cuts it short with an error (a fast-failing server).
    #[inline]
    pub(super) fn service_cut_short(&mut self, id: Flight, server: usize) -> Option<Time> {
        if !self.marks.any() {
            return None;
        }
        self.fails_fast(id, server)
    }

    /// Whether the service completion due for the request `flight` names
    /// now is void: a crash took the request with its server, or it lost
    /// its race with its copy and was cancelled in service (its slot
    /// already free).
    #[inline]
    pub(super) fn service_end_void(&mut self, flight: Flight) -> bool {
        if self.events.take_void(flight, self.now) {
            if self.journal.is_some() {
                self.note(Happening::ServiceVoided { place: flight });
            }
            return true;
        }
        self.cancelled_in_service(flight)
    }

    /// `chooser` heard `outcome` from `server` in a response (not a bounce),
    /// `round_trip` after the request's creation if it was never sent back:
    /// the core counts errors, and the features hear it.
    #[inline]
    pub(super) fn on_heard(
        &mut self,
        chooser: usize,
        server: u32,
        outcome: Outcome,
        round_trip: Option<Time>,
    ) {
        let counts = &mut self.metrics.counts;
        match outcome {
            Outcome::Ok => {}
            Outcome::Error(ErrorKind::Refused) => counts.refused += 1,
            Outcome::Error(ErrorKind::ServerError) => counts.server_errors += 1,
        }
        if outcome != Outcome::Ok {
            self.metrics.errors_per_server[server as usize] += 1;
        }
        self.tell_heard(Heard { chooser, server, outcome, round_trip });
    }

    /// Place `id` holds the request of a replayed trace's row, which gave
    /// it `key` (or none): keyed placement keeps it.
    #[inline]
    pub(super) fn on_replayed(&mut self, id: u32, key: Option<u64>) {
        self.owned.replay_key(id, key);
    }

    /// Place `id`'s request was just created, in no race; a recording of
    /// the run's arrivals keeps it.
    #[inline]
    pub(super) fn on_created(&mut self, id: u32) {
        self.requests.races.new_request(id);
        self.tell_created(Created { place: id });
        if self.arrivals.records() {
            self.record_arrival(id);
        }
    }

    /// Whether each request of a session is placed on its own, by a key of
    /// its own or by the connection it rides, rather than staying with its
    /// session's server.
    #[inline]
    pub(super) fn placed_per_request(&self) -> bool {
        self.owned.keys_per_request() && self.choosers.reads_keys() || self.owned.balances_per_connection()
    }
}
