//! A compact, read-only picture of the simulation for drawing.

use super::copies::Race;
use super::requests::{Origin, Request, Stage};
use super::{Decision, ServerState, Simulation};
use crate::metrics::{Counts, SamplePoint};
use crate::time::Time;
use serde::Serialize;

#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct ServerView {
    pub busy: u32,
    pub queued: u32,
    /// Its slots (none while crashed).
    pub slots: u32,
    pub speed: f64,
    /// Whether it is a member, draining, removed or crashed, or a member
    /// failing (down, slow, failing fast, flapping): every server index
    /// keeps its entry, whatever its state.
    pub state: ServerState,
    /// How many choosers hold it out of their pool (outlier ejection or
    /// a failed health check).
    pub ejected: u32,
    /// The datacenter it stands in (0 with one).
    pub datacenter: u8,
    /// Requests it has answered since time zero, completed or with an
    /// error, and those with an error: its share of the answers is the
    /// figure a sentence about a server that errs gives.
    pub answered: u64,
    pub erred: u64,
    /// Requests sent to it over the last three seconds (`SENT_WINDOW`
    /// samples): its share of them is what a row beside a slowed server
    /// writes, what the policy sent it rather than what it managed to
    /// answer.
    pub sent_lately: u64,
    /// Its queue over the last two seconds (`QUEUE_WINDOW` samples), its
    /// mean: how long a row's wait line reads it as taking to clear (the
    /// queue as it stands, before the first sample).
    pub queued_lately: f64,
    /// Requests its queue has sent back (timed out) since time zero: the
    /// picture marks a server as it bounces one, and counts them beside it.
    pub bounced: u64,
}

/// The hop a request is on, naming its two ends' tiers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Hop {
    /// At a client, opening a connection to a server or balancer.
    Handshake,
    ClientToBalancer,
    ClientToServer,
    BalancerToServer,
    /// Waiting in a server's queue (`to` is the server).
    Queued,
    /// In one of a server's slots (`to` is the server).
    InService,
    /// Sent back by a queue timeout to the client that chose the server.
    BounceToClient,
    /// Sent back by a queue timeout to the balancer that chose the server.
    BounceToBalancer,
    ServerToBalancer,
    ServerToClient,
    BalancerToClient,
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct RequestView {
    pub hop: Hop,
    /// Index of the hop's start in its tier (client, balancer or server).
    pub from: u32,
    /// Index of the hop's end in its tier.
    pub to: u32,
    /// How far along the hop, 0 to 1.
    pub progress: f32,
    pub retries: u32,
    /// The client whose session the request is part of.
    pub client: u32,
}

#[derive(Clone, Debug, Default, Serialize)]
pub struct Snapshot {
    pub time_ms: f64,
    pub clients: u32,
    pub balancers: u32,
    pub servers: Vec<ServerView>,
    /// Requests in flight (copies too, but not those cancelled in
    /// service), up to the cap asked for.
    pub requests: Vec<RequestView>,
    /// All requests in flight as `requests` counts them, drawn or not.
    pub in_flight: u64,
    /// Requests under way at each client.
    pub client_sessions: Vec<u32>,
    pub counts: Counts,
    pub latest: Option<SamplePoint>,
    /// The latest decisions of a policy that compares candidates, oldest
    /// first, when the simulation keeps them.
    pub decisions: Vec<Decision>,
    /// Whether clients keep copies of the servers' loads
    /// (`Simulation::learned_loads`), which the picture writes beside the
    /// rows.
    pub copies_kept: bool,
    /// How long a request may wait in a queue before it is sent back, if
    /// at all, and a request's mean service time at speed 1 (ms): what a
    /// queue's wait is read from (see `ui::waits`).
    pub queue_timeout_ms: Option<f64>,
    pub service_mean_ms: f64,
}

impl Simulation {
    /// Error responses choosers heard from `server`, since time zero.
    fn erred(&self, server: usize) -> u64 {
        self.metrics.errors_per_server.get(server).copied().unwrap_or(0)
    }

    pub fn snapshot(&self, max_requests: usize) -> Snapshot {
        let mut snapshot = Snapshot::default();
        self.snapshot_into(&mut snapshot, max_requests);
        snapshot
    }

    /// Refills `snapshot`, reusing its buffers (one per frame, no allocation).
    pub fn snapshot_into(&self, snapshot: &mut Snapshot, max_requests: usize) {
        snapshot.time_ms = self.now.as_ms();
        snapshot.clients = self.scenario.clients;
        snapshot.balancers = self.scenario.balancers;
        snapshot.copies_kept = self.clients_keep_copies();
        snapshot.queue_timeout_ms = self.timing.queue_timeout.map(Time::as_ms);
        snapshot.service_mean_ms = self.scenario.service_mean_ms;
        snapshot.servers.clear();
        snapshot.servers.extend(self.servers.iter().enumerate().map(|(i, s)| ServerView {
            busy: s.busy,
            queued: s.queued(),
            slots: s.slots,
            speed: s.speed,
            state: self.server_state(i),
            ejected: 0,
            datacenter: self.scenario.datacenters().of_server(i as u32),
            answered: self.metrics.completed_per_server.get(i).copied().unwrap_or(0) + self.erred(i),
            erred: self.erred(i),
            sent_lately: self.metrics.sent_lately(i),
            queued_lately: self.metrics.queued_lately(i).unwrap_or(f64::from(s.queued())),
            bounced: self.metrics.bounces_per_server.get(i).copied().unwrap_or(0),
        }));
        for server in self.choosers.ejected() {
            snapshot.servers[server as usize].ejected += 1;
        }
        snapshot.client_sessions.clear();
        snapshot.client_sessions.resize(self.scenario.clients as usize, 0);
        snapshot.requests.clear();
        snapshot.in_flight = 0;
        // A copy cancelled in service holds no slot and goes nowhere: it
        // only waits, unseen, for its place to be freed.
        let races = &self.requests.races;
        for (id, session) in self.requests.iter().filter(|&(id, _)| races.race(id) != Race::Cancelled) {
            snapshot.client_sessions[session.client as usize] += u32::from(races.answers(id));
            snapshot.in_flight += 1;
            if snapshot.requests.len() < max_requests {
                snapshot.requests.push(self.view_of(session.origin(), &session.request, 0));
            }
        }
        for attempt in self.attempts.flights() {
            let Some(seen) = self.in_flight(attempt) else { continue };
            snapshot.in_flight += 1;
            if snapshot.requests.len() < max_requests {
                snapshot.requests.push(self.view_of(seen.origin, seen.request, seen.attempt));
            }
        }
        snapshot.counts = self.metrics.counts;
        snapshot.latest = self.metrics.series.back().copied();
        // Entry by entry, so that each keeps its candidates' buffer.
        let mut kept = 0;
        for decision in self.owned.decisions().into_iter().flat_map(|d| d.latest()) {
            match snapshot.decisions.get_mut(kept) {
                Some(entry) => entry.clone_from(decision),
                None => snapshot.decisions.push(decision.clone()),
            }
            kept += 1;
        }
        snapshot.decisions.truncate(kept);
    }

    /// How `r`, of `origin`, is drawn; `attempt`: a balancer's attempt's
    /// index, shown as its retries.
    fn view_of(&self, origin: Origin, r: &Request, attempt: u16) -> RequestView {
        let (client, server) = (origin.client, r.server);
        let balancer = origin.balancer().map_or(0, |worker| self.scenario.balancer_of(worker));
        let via = origin.balancer().is_some();
        let (hop, from, to) = match r.stage {
            _ if self.now < r.departs => {
                (Hop::Handshake, client, if r.stage == Stage::ToBalancer { balancer } else { server })
            }
            Stage::ToBalancer => (Hop::ClientToBalancer, client, balancer),
            Stage::ToServer if via => (Hop::BalancerToServer, balancer, server),
            Stage::ToServer => (Hop::ClientToServer, client, server),
            Stage::Queued => (Hop::Queued, server, server),
            Stage::InService => (Hop::InService, server, server),
            Stage::Bounced if via => (Hop::BounceToBalancer, server, balancer),
            Stage::Bounced => (Hop::BounceToClient, server, client),
            // Waiting at its chooser (a retry's backoff, a balancer's
            // attempts): drawn at the end of its way back to its chooser.
            Stage::Held if via => (Hop::ServerToBalancer, server, balancer),
            Stage::Held => (Hop::ServerToClient, server, client),
            Stage::ResponseToBalancer => (Hop::ServerToBalancer, server, balancer),
            Stage::ResponseToClient if via => (Hop::BalancerToClient, balancer, client),
            Stage::ResponseToClient => (Hop::ServerToClient, server, client),
        };
        let span = r.arrives.0.saturating_sub(r.departs.0);
        let progress = match hop {
            Hop::Handshake | Hop::Queued => 0.0,
            _ if r.stage == Stage::Held => 1.0,
            _ if span == 0 => 1.0,
            _ => (self.now.0.saturating_sub(r.departs.0) as f64 / span as f64).min(1.0) as f32,
        };
        let retries = r.retries.saturating_add(attempt).into();
        RequestView { hop, from, to, progress, retries, client }
    }
}
