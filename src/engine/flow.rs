//! How requests move: one handler per event. Here, their way out from a
//! session's start to a server and their way back from it to the chooser
//! and the client; what happens at the server is `serving.rs`.

use super::arrivals::Arrival;
use super::events::Lane;
use super::feature::{Back, CameBack, Completed, Picked, Sent};
use super::flight::Flight;
use super::journal::Happening;
use super::requests::{Outstanding, Stage};
use super::{Event, Halt, Outcome, Simulation, MAX_IN_FLIGHT};
use crate::metrics::{FailureReason, SAMPLE_INTERVAL};
use crate::policy::Pick;
use crate::rng::Draw;
use crate::time::Time;

/// The tier a response reaches on its way back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tier {
    Balancer,
    Client,
}

impl Simulation {
    /// Inlined into the event loop, as `process` is (see there).
    #[inline(always)]
    pub(super) fn handle(&mut self, event: Event) {
        match event {
            Event::SessionArrival { generation } => self.session_arrives(generation),
            Event::ClientStarts { client } => self.start_session(client, None),
            Event::ArriveAtBalancer { place } => self.route_at_balancer(place, None),
            Event::ArriveAtServer { flight } => self.arrive_at_server(flight),
            Event::QueueTimeout { server } => self.queue_timeout(server as usize),
            Event::ServiceDone { flight } => self.service_done(flight),
            Event::BounceArrives { flight } => self.bounce_arrives(flight),
            Event::ResponseAtBalancer { flight } => self.response_at(flight, Tier::Balancer),
            Event::ResponseAtClient { flight } => self.response_at(flight, Tier::Client),
            Event::BoardRefresh { generation } => self.board_refresh_due(generation),
            Event::Sample => {
                if self.journal.is_some() {
                    self.note(Happening::Sampled);
                }
                let servers = self.servers.iter().map(|s| (s.busy, s.queued(), s.speed));
                self.metrics.sample(self.now, servers);
                self.events.push(self.now + SAMPLE_INTERVAL, Event::Sample);
            }
            Event::FeatureTimer { timer } => self.feature_timer(timer),
        }
    }

    /// Client `client` starts a session; a replayed trace's `arrival` says
    /// what it can of the session's one request.
    pub(super) fn start_session(&mut self, client: u32, arrival: Option<Arrival>) {
        if self.flights() >= MAX_IN_FLIGHT {
            self.halt = Some(Halt::TooManyInFlight { at: self.now });
            if self.journal.is_some() {
                self.note(Happening::Halted);
            }
            return;
        }
        let classes = self.scenario.class_shares.len();
        if let Some(class) = arrival.as_ref().and_then(|a| a.class).filter(|&c| usize::from(c) >= classes) {
            self.halt = Some(Halt::UnknownClass { at: self.now, class, classes });
            if self.journal.is_some() {
                self.note(Happening::Halted);
            }
            return;
        }
        let number = self.metrics.counts.sessions_started as u32;
        self.metrics.counts.sessions_started += 1;
        self.metrics.counts.created += 1;
        let balancer = (self.scenario.balancers > 0).then(|| self.balancer_worker());
        let length = self.lengths.of(number);
        let demand = match arrival {
            None => self.work.demand(self.streams.work, number, (length - 1) as u16),
            Some(arrival) => self.work.replayed(self.streams.work, number, (arrival.class, arrival.service)),
        };
        let request = Outstanding::first(client, balancer, number, length, self.now, demand);
        let id = self.requests.insert(request, self.now);
        if let Some(arrival) = arrival {
            self.on_replayed(id, arrival.key);
        }
        self.on_created(id);
        if self.journal.is_some() {
            self.note_request(Flight::request(id), |request| Happening::SessionStarted { request });
        }
        if balancer.is_some() {
            self.send_to_balancer(id);
        } else {
            self.place(id, self.choosers.member(client, demand.0), None);
        }
    }

    /// `chooser` places place `id`'s request: by its policy's pick
    /// (avoiding `avoid`, the server that sent it back), unless a feature
    /// places it.
    fn place(&mut self, id: u32, chooser: usize, avoid: Option<u32>) {
        if self.placed_by_feature(id, chooser) {
            return;
        }
        let pick = self.choose(chooser, avoid, self.key_of(id));
        self.send_to_server(Flight::request(id), chooser, pick.position);
    }

    /// Runs `chooser`'s policy. `avoid` is the server that just sent a
    /// request back; `key`, the request's key for a policy that reads it.
    pub(super) fn choose(&mut self, chooser: usize, avoid: Option<u32>, key: Option<u64>) -> Pick {
        let servers = &self.servers;
        let live = |s: usize| servers[s].load();
        let board = self.board.or_live(self.timing.board_refresh.is_some(), &live);
        let pick = self.choosers.pick(chooser, self.now, board, (avoid, key), &mut self.streams.routing);
        self.tell_picked(Picked { chooser, avoid, key, pick });
        if let Some(staleness) = pick.staleness {
            self.metrics.on_stale_decision(self.now, staleness);
        }
        pick
    }

    /// The balancer a new session goes through, and the worker of it that
    /// balances it: each as likely (the kernel hands connections to Envoy's
    /// workers and NGINX's about evenly), in one draw, which with one
    /// worker per balancer is the balancer's draw as before.
    fn balancer_worker(&mut self) -> u32 {
        self.streams.routing.index(self.scenario.choosers() as usize) as u32
    }

    fn send_to_balancer(&mut self, id: u32) {
        let Some(session) = self.requests.get_mut(id) else { return };
        let Some(balancer) = session.balancer() else { return };
        let balancer = self.scenario.balancer_of(balancer);
        let link = session.client as usize * self.scenario.balancers as usize + balancer as usize;
        let handshake = self.client_links.open(link, self.now, &self.timing);
        let departs = self.now + handshake;
        let lane = if handshake > Time::ZERO { Lane::AfterHandshake } else { Lane::Client };
        session.request.travel(Stage::ToBalancer, departs, departs + self.timing.client_delay);
        self.events.push_in_lane(
            lane,
            departs + self.timing.client_delay,
            Event::ArriveAtBalancer { place: id },
        );
    }

    /// Sends the request `flight` names from `chooser` to the server at
    /// `position` of its pool. A client choosing for itself may owe a
    /// handshake first.
    pub(super) fn send_to_server(&mut self, flight: Flight, chooser: usize, position: usize) {
        if self.kept_at_chooser(flight, chooser, position) {
            return;
        }
        let slots = self.scenario.slots;
        let via_balancer = self.scenario.balancers > 0;
        let class = self.in_flight(flight).map_or(0, |f| f.request.class);
        self.choosers.on_send(chooser, position, slots, class);
        let server = self.choosers.server_at(chooser, position);
        self.metrics.on_send(server as usize);
        let (handshake, delay, lane) = if via_balancer {
            (Time::ZERO, self.timing.balancer_delay, Lane::Balancer)
        } else {
            let handshake = self.choosers.connect(chooser, position, self.now, &self.timing);
            let lane = if handshake > Time::ZERO { Lane::AfterHandshake } else { Lane::Client };
            (handshake, self.timing.client_delay, lane)
        };
        let extra = self.owned.hop(|| self.choosers.base_of(chooser), server);
        let departs = self.now + handshake;
        let Some((request, outcome)) = self.in_flight_mut(flight) else { return };
        *outcome = Outcome::Ok;
        request.server = server;
        request.travel(Stage::ToServer, departs, departs + delay + extra.unwrap_or_default());
        self.events.push_hop(lane, departs + delay, extra, Event::ArriveAtServer { flight });
        if self.journal.is_some() {
            self.note_request(flight, |request| Happening::Sent { request, server });
        }
        self.tell_sent(Sent { place: flight.place(), extra });
    }

    fn route_at_balancer(&mut self, id: u32, avoid: Option<u32>) {
        let Some(session) = self.requests.get(id) else { return };
        let Some(balancer) = session.balancer() else { return };
        let chooser = self.choosers.member(balancer, session.request.class);
        if self.journal.is_some() {
            self.note_request(Flight::request(id), |request| Happening::ReachedBalancer { request });
        }
        self.place(id, chooser, avoid);
    }

    /// The chooser that sent the request `id` names hears back from its server.
    pub(super) fn tell_chooser(&mut self, id: Flight) -> Option<(usize, u32)> {
        let seen = self.in_flight(id)?;
        let r = seen.request;
        let chooser = self.choosers.member(seen.origin.chooser(), r.class);
        // A response (not a bounce) to a request on its first try times one server.
        let answered = seen.tries() == 0 && r.stage != Stage::Bounced;
        let round_trip = answered.then(|| self.now - r.created);
        let (server, outcome, bounced) = (r.server, seen.outcome, r.stage == Stage::Bounced);
        // The request left its server, which measured `reported`, at `departs`.
        self.choosers.on_return(chooser, server, (r.reported, r.departs), (r.class, round_trip), self.now);
        self.tell_came_back(CameBack { chooser, server });
        if self.journal.is_some() {
            self.note_heard(id, server, bounced, outcome);
        }
        if !bounced {
            self.on_heard(chooser, server, outcome, round_trip);
        }
        Some((chooser, server))
    }

    fn bounce_arrives(&mut self, flight: Flight) {
        if self.ended_under_way(flight) || self.attempt_replied(flight) {
            return;
        }
        self.tell_chooser(flight);
        let Some(id) = flight.place().filter(|&id| self.requests.get(id).is_some()) else { return };
        if !self.tried_again(id, Back::SentBack) {
            self.fail(id, FailureReason::RETRY_BUDGET_EXHAUSTED);
        }
    }

    /// Place `id`'s request ends its session, failed for `reason`.
    pub(super) fn fail(&mut self, id: u32, reason: FailureReason) {
        let latency = self.requests.get(id).map_or(Time::ZERO, |s| self.now - s.request.created);
        if self.journal.is_some() {
            self.note_request(Flight::request(id), |request| Happening::Failed { request, reason });
        }
        self.end_place(id);
        self.metrics.on_failure(self.now, reason, latency);
    }

    /// A response (or an error) to the request `flight` names reaches
    /// `tier`. The chooser that sent the request (a balancer, or a client
    /// choosing for itself) hears it first: an attempt's reply goes to the
    /// feature that sent it, and an error may be tried again. What is left
    /// goes on: from a balancer to the client, or, at the client, completes.
    fn response_at(&mut self, flight: Flight, tier: Tier) {
        let at_chooser = tier == Tier::Balancer || self.scenario.balancers == 0;
        if at_chooser {
            if self.attempt_replied(flight) {
                return;
            }
            self.tell_chooser(flight);
        }
        let Some(id) = flight.place() else { return };
        if at_chooser && self.tried_again(id, Back::Error) {
            return;
        }
        match tier {
            Tier::Balancer => self.forward_to_client(id),
            Tier::Client => self.complete_at_client(id),
        }
    }

    /// Place `id`'s response goes on from its balancer to its client.
    pub(super) fn forward_to_client(&mut self, id: u32) {
        if self.journal.is_some() {
            self.note_request(Flight::request(id), |request| Happening::Forwarded { request });
        }
        let Some(session) = self.requests.get_mut(id) else { return };
        let arrives = self.now + self.timing.client_delay;
        session.request.travel(Stage::ResponseToClient, self.now, arrives);
        self.events.push_in_lane(
            Lane::Client,
            arrives,
            Event::ResponseAtClient { flight: Flight::request(id) },
        );
    }

    /// Place `id`'s response (or error) is its client's: the request
    /// completes (or fails), and the session sends its next one or ends.
    pub(super) fn complete_at_client(&mut self, id: u32) {
        let via_balancer = self.scenario.balancers > 0;
        if let Some(Outcome::Error(kind)) = self.requests.get(id).map(|s| s.outcome) {
            self.fail(id, kind.into());
            return;
        }
        let Some(session) = self.requests.get(id) else { return };
        let (client, server) = (session.client, session.request.server);
        let (number, remaining) = (session.number, session.remaining);
        let (retries, class) = (session.request.retries, session.request.class);
        let latency = self.now - session.request.created;
        if self.journal.is_some() {
            let last = remaining == 0;
            self.note_request(Flight::request(id), |request| Happening::Completed { request, latency, last });
        }
        self.metrics.on_request_completed(self.now, server as usize, latency, (retries.into(), class));
        self.tell_completed(Completed { place: id, request: (number, remaining) });
        if remaining == 0 {
            let started = self.requests.session_started(id);
            self.end_place(id);
            self.metrics.on_session_completed(self.now, started);
            return;
        }
        let demand = self.work.demand(self.streams.work, number, remaining - 1);
        let Some(session) = self.requests.get_mut(id) else { return };
        session.next_request(self.now, demand);
        self.metrics.counts.created += 1;
        self.on_created(id);
        if via_balancer {
            self.send_to_balancer(id);
            return;
        }
        // The session stays with its server unless the pool has since
        // changed (or, with class pools, the next request's class has
        // another), or each request is placed on its own, or a feature
        // places it (its connection's server, balanced per connection).
        let chooser = self.choosers.member(client, demand.0);
        if self.placed_by_feature(id, chooser) {
            return;
        }
        let placed_anew = self.placed_per_request();
        let position = match self.choosers.position_of(chooser, server).filter(|_| !placed_anew) {
            Some(position) => position,
            None => self.choose(chooser, None, self.key_of(id)).position,
        };
        self.send_to_server(Flight::request(id), chooser, position);
    }
}
