//! Hedged requests (Dean and Barroso, "The Tail at Scale", 2013): a chooser
//! that has had no response `hedge_after_ms` after sending a request (or,
//! with `hedge_percentile`, that percentile of the latencies it saw on its
//! last 64 responses) sends a copy to a different server. The first of the two to finish service
//! answers; the other loses: removed if it is still queued, dropped when it
//! reaches its server if still on its way, and in service either cancelled
//! at once or left to finish (`hedge_cancel`). Since a response takes the
//! same time back from any server of a chooser, the first to finish service
//! is the first response. A loser learns it has lost at that instant (the
//! cancellation takes no network time).
//!
//! A copy is a request of its own, kept by the core in a place of its own
//! with the origin of the request it races (see `requests.rs`): its own
//! demand, server and path, so that every event names one place and finds
//! one request there. Hedging keeps, per place, whether it holds a copy
//! and how its race stands ([`Race`]); the two places are twins until the
//! race ends. When the copy wins, it answers for its session, whose next
//! request then takes its place, and the original loses. Service time
//! spent on losers is wasted work, counted in the summary.

use super::flight::Flight;
use super::journal::Happening;
use super::requests::{Outstanding, Request, Stage};
use super::{Event, Simulation, MAX_IN_FLIGHT};
use crate::rng::Draw;
use crate::time::Time;

mod state;

pub use state::{HedgeTally, Hedges, Race};

impl Simulation {
    /// What hedging counted after the warm-up.
    pub fn hedge_tally(&self) -> HedgeTally {
        self.features.hedges.tally
    }

    /// `chooser` had a response to a request never sent back, `latency`
    /// after its creation: it counts towards the percentile it hedges after.
    #[cold]
    pub(super) fn observe_latency(&mut self, chooser: usize, latency: Option<Time>) {
        if let (Some(percentile), Some(latency)) = (self.features.hedges.percentile, latency) {
            self.features.hedges.observe(chooser, latency, percentile);
        }
    }

    /// A request was sent to a server: if it is the request's first send,
    /// schedule its hedge (hedging is on).
    #[cold]
    pub(super) fn arm_hedge(&mut self, id: u32) {
        let Some(session) = self.requests.get(id) else { return };
        if self.features.hedges.race(id) != Race::Out || session.request.retries > 0 {
            return;
        }
        let chooser = self.choosers.member(session.chooser(), session.request.class);
        let hedges = &self.features.hedges;
        let percentile = hedges.percentile.and_then(|_| hedges.percentile_of(chooser));
        if let Some(after) = percentile.or(hedges.after) {
            self.features.hedges.arm(id, self.now + after);
            self.events.push(self.now + after, Event::HedgeDue { place: id });
        }
    }

    /// The service of place `id`'s request, racing or lost, ended and
    /// freed its slot: a loser left to finish ends, its service wasted; a
    /// racer wins. Returns whether it ended.
    #[cold]
    pub(super) fn hedge_service_ended(&mut self, id: u32, race: Race) -> bool {
        if race != Race::Lost {
            self.win(id);
            return false;
        }
        if let Some(r) = self.requests.get(id).map(|s| &s.request) {
            let wasted = self.now - r.departs;
            self.count_hedging(|tally| tally.wasted_ns += wasted.0);
        }
        self.discard(id);
        true
    }

    /// Sends a copy of place `id`'s request to another server, if its hedge
    /// is due and no response has come.
    #[cold]
    pub(super) fn hedge_due(&mut self, id: u32) {
        if !self.features.hedges.take_due(id, self.now) || !self.features.hedges.on {
            return;
        }
        let Some(session) = self.requests.get(id) else { return };
        let chooser = self.choosers.member(session.chooser(), session.request.class);
        if self.features.hedges.race(id) != Race::Out
            || self.choosers.pool_len(chooser) < 2
            || self.flights() >= MAX_IN_FLIGHT
        {
            return;
        }
        let key = (session.number, session.remaining);
        let to_chooser = match session.balancer() {
            Some(_) => Stage::ResponseToBalancer,
            None => Stage::ResponseToClient,
        };
        match session.request.stage {
            Stage::ToServer | Stage::Queued | Stage::InService | Stage::Bounced => {}
            stage if stage == to_chooser => {
                // The response is on its way to the chooser, who cannot know
                // it: the copy goes out, and the response, a hop at most
                // from the chooser, cancels it before it reaches its server.
                self.count_hedge();
                self.metrics.counts.discarded += 1;
                self.features.hedges.sent_copy_for(id, key);
                self.note_hedged(id, true);
                return;
            }
            _ => return,
        }
        let class = session.request.class;
        let mut request =
            Request::new(self.now, (class, self.work.copy_demand(self.streams.work, key, class)));
        // The copy answers for the request: its latency runs from the request's creation.
        request.created = session.request.created;
        let copy = Outstanding::copy_of(session, request);
        let avoid = session.request.server;
        let started = self.requests.session_started(id);
        let copy_id = self.requests.insert(copy, started);
        self.features.hedges.link(id, copy_id);
        // Either twin may answer: both carry the request's key.
        self.features.hedges.sent_copy_for(id, key);
        self.features.hedges.sent_copy_for(copy_id, key);
        self.count_hedge();
        self.note_hedged(id, false);
        let position = self.pick_other(chooser, avoid);
        self.send_to_server(Flight::request(copy_id), chooser, position);
    }

    /// Counts a copy sent: in the core's counts, and after the warm-up in
    /// hedging's own.
    fn count_hedge(&mut self) {
        self.metrics.counts.hedged += 1;
        self.count_hedging(|tally| tally.sent += 1);
    }

    /// Counts in hedging's tally, after the warm-up.
    pub(super) fn count_hedging(&mut self, count: impl FnOnce(&mut HedgeTally)) {
        if self.metrics.measuring(self.now) {
            count(&mut self.features.hedges.tally);
        }
    }

    /// Notes in the journal, if one is kept, that place `id`'s chooser
    /// hedged it.
    fn note_hedged(&mut self, id: u32, cancelled_en_route: bool) {
        if self.journal.is_some() {
            let waited = self.requests.get(id).map_or(Time::ZERO, |s| self.now - s.request.created);
            self.note_request(Flight::request(id), |request| Happening::Hedged {
                request,
                waited,
                cancelled_en_route,
            });
        }
    }

    /// The chooser's policy's pick avoiding `avoid`; a policy that ignores
    /// what to avoid and picks it anyway gets another server of the pool
    /// drawn at random.
    fn pick_other(&mut self, chooser: usize, avoid: u32) -> usize {
        let pick = self.choose(chooser, Some(avoid), None).position;
        match self.choosers.position_of(chooser, avoid) {
            Some(taken) if pick == taken => {
                let len = self.choosers.pool_len(chooser);
                (taken + 1 + self.streams.routing.index(len - 1)) % len
            }
            _ => pick,
        }
    }

    /// Races still running: a copy and its original both out, neither
    /// finished. They count as neither won nor lost.
    pub(super) fn races_running(&self) -> u64 {
        let hedges = &self.features.hedges;
        let racing = |id: u32| hedges.is_racing_copy(id) && self.requests.get(id).is_some();
        (0..hedges.places() as u32).filter(|&id| racing(id)).count() as u64
    }

    /// Place `id`'s request (raced, or a copy) finished service first: it
    /// answers, and its twin loses.
    pub(super) fn win(&mut self, id: u32) {
        if self.requests.get(id).is_some() {
            if self.features.hedges.is_racing_copy(id) {
                self.count_hedging(|tally| tally.copies_won += 1);
            }
            self.features.hedges.set_race(id, Race::Out);
        }
        if let Some(twin) = self.features.hedges.unlink(id) {
            self.lose(twin);
        }
    }

    /// Place `id`'s request lost its race (or its twin failed): its chooser
    /// forgets it, and it stops as far as it can at once.
    #[cold]
    pub(super) fn lose(&mut self, id: u32) {
        self.features.hedges.unlink(id);
        let Some(session) = self.requests.get(id) else { return };
        let chooser = self.choosers.member(session.chooser(), session.request.class);
        let r = &session.request;
        let (server, class, stage, started) = (r.server, r.class, r.stage, r.departs);
        self.choosers.on_cancel(chooser, server, class);
        match stage {
            Stage::Queued => {
                self.servers[server as usize].queue.remove(Flight::request(id));
                self.discard(id);
            }
            Stage::InService if self.scenario.hedge_cancel.cancels_in_service() => {
                self.features.hedges.set_race(id, Race::Cancelled);
                let wasted = self.now - started;
                self.count_hedging(|tally| tally.wasted_ns += wasted.0);
                self.free_slot(server as usize);
            }
            _ => self.features.hedges.set_race(id, Race::Lost),
        }
    }

    /// Place `id`'s request, racing a copy, races no more: the copy loses.
    pub(super) fn call_off_race(&mut self, id: u32) {
        if let Some(twin) = self.features.hedges.unlink(id) {
            self.lose(twin);
        }
        self.features.hedges.set_race(id, Race::Out);
    }

    /// A queued copy timed out: it is dropped (not sent back), and its twin
    /// races no more.
    #[cold]
    pub(super) fn drop_copy(&mut self, id: u32) {
        if self.journal.is_some() {
            let server = self.requests.get(id).map_or(0, |s| s.request.server);
            self.note_request(Flight::request(id), |request| Happening::CopyDropped { request, server });
        }
        if let Some(original) = self.features.hedges.unlink(id) {
            if self.requests.get(original).is_some() {
                self.features.hedges.set_race(original, Race::Out);
            }
        }
        if let Some(session) = self.requests.get(id) {
            let chooser = self.choosers.member(session.chooser(), session.request.class);
            self.choosers.on_cancel(chooser, session.request.server, session.request.class);
        }
        self.discard(id);
    }

    /// A copy that answers for no one ends.
    #[cold]
    pub(super) fn discard(&mut self, id: u32) {
        if self.journal.is_some() {
            let server = self.requests.get(id).map_or(0, |s| s.request.server);
            self.note_request(Flight::request(id), |request| Happening::Discarded { request, server });
        }
        self.requests.remove(id);
        self.metrics.counts.discarded += 1;
    }

    /// Place `id` is freed as its session ends (or fails): a copy still
    /// racing its request loses. (A hedge still due finds the place's next
    /// request not yet sent, or sent and due its own hedge.)
    pub(super) fn end_place(&mut self, id: u32) {
        let racing = self.features.hedges.race(id) == Race::Running && !self.features.hedges.is_copy(id);
        if self.requests.remove(id).is_some() && racing {
            if let Some(twin) = self.features.hedges.unlink(id) {
                self.lose(twin);
            }
        }
    }
}
