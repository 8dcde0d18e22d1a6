//! Where the features not yet on the feature interface (`feature/mod.rs`)
//! meet the core. The core (`flow.rs`) moves a request from its client to
//! a server and back; at a few fixed points of that path it calls the
//! hooks below, and each hook asks the features that take part at that
//! point, in a fixed order. A feature keeps its state in its own module
//! and its own events: hedging (`hedge.rs`),
//! FoundationDB's balancers (`fdb.rs`),
//! keyed placement (`keyed.rs`) and membership changes (`membership.rs`).
//! Each moves to the interface as a file of `feature/` (drifting speeds,
//! datacenters, recorded decisions, outlier ejection, health checks,
//! retries, join-the-idle-queue's reports and failures have), and its hooks here go.
//!
//! A hook a run's features leave unused costs one test of a flag on the
//! path of every request, so hooks stay few and cheap.

use super::fdb::FdbRouting;
use super::feature::Heard;
use super::flight::Flight;
use super::hedge::{Hedges, Race};
use super::journal::Happening;
use super::keyed::Keying;
use super::marks::Mark;
use super::membership::Membership;
use super::{ErrorKind, Event, Outcome, Simulation};
use crate::scenario::Scenario;
use crate::time::Time;

/// What each feature keeps: the simulation's core reaches it only through
/// the hooks below and the feature's own events.
pub(super) struct Features {
    /// Hedged requests' due times and twins.
    pub hedges: Hedges,
    /// Each request's key.
    pub keying: Keying,
    /// Which servers are members, and what each change did.
    pub membership: Membership,
    /// Consecutive errors each chooser heard from each server.
    /// FoundationDB's balancers, once a policy of theirs has routed.
    pub fdb: Option<Box<FdbRouting>>,
}

impl Features {
    /// Each feature as the scenario starts it; `keys` seeds the requests' keys.
    pub fn new(scenario: &Scenario, keys: u64) -> Features {
        let mut hedges = Hedges::default();
        hedges.configure(scenario);
        Features {
            hedges,
            keying: Keying::new(scenario, keys),
            membership: Membership::new(scenario.servers, &scenario.class_pools),
            fdb: None,
        }
    }
}

impl Simulation {
    /// An event of a feature's own (the core handles the rest in `flow.rs`).
    pub(super) fn feature_event(&mut self, event: Event) {
        match event {
            Event::HedgeDue { place } => self.hedge_due(place),
            Event::TableUpdate { member } => {
                self.choosers.take_tables(member as usize, self.now);
                self.features.membership.forget_key_counts();
            }
            Event::BalancerTimer { timer } => self.balancer_timer(timer),
            Event::SessionArrival { .. }
            | Event::ClientStarts { .. }
            | Event::ArriveAtBalancer { .. }
            | Event::ArriveAtServer { .. }
            | Event::QueueTimeout { .. }
            | Event::ServiceDone { .. }
            | Event::BounceArrives { .. }
            | Event::ResponseAtBalancer { .. }
            | Event::ResponseAtClient { .. }
            | Event::BoardRefresh { .. }
            | Event::Sample
            | Event::FeatureTimer { .. } => {}
        }
    }

    /// Whether a feature places place `id`'s request from `chooser`
    /// itself rather than by the chooser's policy: FoundationDB's
    /// balancers run a state machine per request.
    #[inline]
    pub(super) fn placed_by_feature(&mut self, id: u32, chooser: usize) -> bool {
        if !self.scenario.policy.is_fdb() {
            return false;
        }
        self.balance(id, chooser);
        true
    }

    /// The request `flight` names was sent to a server: hedging arms the
    /// hedge of a session's request.
    #[inline]
    pub(super) fn on_sent(&mut self, flight: Flight) {
        if let (true, Some(id)) = (self.features.hedges.on, flight.place()) {
            self.arm_hedge(id);
        }
    }

    /// How the request `flight` names stands in a hedging race, if the
    /// core keeps it (a balancer's attempt races none).
    #[inline]
    fn race_of(&self, flight: Flight) -> Option<(u32, Race)> {
        let id = flight.place()?;
        self.requests.get(id)?;
        Some((id, self.features.hedges.race(id)))
    }

    /// Whether the request `flight` names lost its hedging race while under
    /// way: it ends at the next hop it reaches, and the core goes no further.
    #[inline]
    pub(super) fn ended_under_way(&mut self, flight: Flight) -> bool {
        let Some((id, Race::Lost)) = self.race_of(flight) else { return false };
        self.discard(id);
        true
    }

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

    /// Whether the request `flight` names, about to be sent back by its
    /// server, is a hedged copy, dropped instead.
    #[inline]
    pub(super) fn dropped_instead_of_sent_back(&mut self, flight: Flight) -> bool {
        let Some((id, Race::Running)) = self.race_of(flight) else { return false };
        if !self.features.hedges.is_copy(id) {
            return false;
        }
        self.drop_copy(id);
        true
    }

    /// Whether the service completion due for the request `flight` names
    /// now is void: a crash took the request with its server, or it lost
    /// its race and was cancelled in service (its slot already free).
    #[inline]
    pub(super) fn service_end_void(&mut self, flight: Flight) -> bool {
        if self.features.membership.voids(flight, self.now) {
            if self.journal.is_some() {
                self.note(Happening::ServiceVoided { place: flight });
            }
            return true;
        }
        let Some((id, Race::Cancelled)) = self.race_of(flight) else { return false };
        self.discard(id);
        true
    }

    /// The service of the request `flight` names ended and freed its slot:
    /// whether the request ends there (a hedging race's loser, left to
    /// finish); a racer that finished first wins.
    #[inline]
    pub(super) fn ended_after_service(&mut self, flight: Flight) -> bool {
        match self.race_of(flight) {
            None | Some((_, Race::Out | Race::Cancelled)) => false,
            Some((id, race)) => self.hedge_service_ended(id, race),
        }
    }

    /// `chooser` heard `outcome` from `server` in a response (not a bounce),
    /// `round_trip` after the request's creation if it was never sent back:
    /// failures count errors and ejection sees them; hedging learns latencies.
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
        self.tell_heard(Heard { chooser, server, outcome });
        if self.features.hedges.percentile.is_some() {
            self.observe_latency(chooser, round_trip);
        }
    }

    /// Whether the reply or bounce of the request `flight` names, just
    /// back at its chooser, is a feature's: an attempt of a FoundationDB
    /// balancer goes to it.
    #[inline]
    pub(super) fn reply_taken(&mut self, flight: Flight) -> bool {
        self.features.fdb.is_some() && self.attempt_replied(flight)
    }

    /// Place `id` holds the request of a replayed trace's row, which gave
    /// it `key` (or none): keyed placement keeps it.
    #[inline]
    pub(super) fn on_replayed(&mut self, id: u32, key: Option<u64>) {
        self.features.keying.replay_key(id, key);
    }

    /// Place `id`'s request was just created: hedging forgets any copy
    /// its place held; a recording of the run's arrivals keeps it.
    #[inline]
    pub(super) fn on_created(&mut self, id: u32) {
        self.features.hedges.new_request(id);
        if self.arrivals.records() {
            self.record_arrival(id);
        }
    }

    /// Place `id`'s request completed at its client: hedging counts it if
    /// it sent a copy.
    #[inline]
    pub(super) fn on_completed(&mut self, id: u32, request: (u32, u16)) {
        if self.features.hedges.has_sent_copy(id, request) {
            self.count_hedging(|tally| tally.completed += 1);
        }
    }

    /// Whether each request of a session is placed on its own, by a key of
    /// its own, rather than staying with its session's server.
    #[inline]
    pub(super) fn placed_per_request(&self) -> bool {
        self.features.keying.per_request() && self.choosers.reads_keys()
    }
}
