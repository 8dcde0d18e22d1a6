//! Copies of requests, the core's side: a request may have a copy out at
//! once (hedging asks for them, `feature/hedging/`), and the first of the
//! two to finish service answers. The other loses: removed if it is still
//! queued, dropped when it reaches its server if still on its way, and in
//! service either cancelled at once or left to finish, as whoever asked
//! for the copy said. Since a response takes the same time back from any
//! server of a chooser, the first to finish service is the first
//! response. A loser learns it has lost at that instant (the cancellation
//! takes no network time).
//!
//! A copy is a request of its own, kept by the core in a place of its own
//! with the origin of the request it races (see `requests.rs`): its own
//! demand, server and path, so that every event names one place and finds
//! one request there. When the copy wins, it answers for its session,
//! whose next request then takes its place, and the original loses.
//! Service time spent on losers is wasted work, counted in the summary.
//! How each race stands is kept beside the requests (`races.rs`).

mod races;

use super::feature::Report;
use super::flight::Flight;
use super::journal::Happening;
use super::requests::{Outstanding, Request, Stage};
use super::{Simulation, MAX_IN_FLIGHT};
use crate::rng::Draw;
use crate::time::Time;

pub use races::RaceTally;
pub(super) use races::{Race, Races};

impl Simulation {
    /// What the races between requests and their copies counted after
    /// the warm-up.
    pub fn race_tally(&self) -> RaceTally {
        self.requests.races.tally
    }

    /// Makes a copy of place `id`'s request, racing it, if the request is
    /// still out and its pool has another server (and the core room); its
    /// loser in service is cancelled as `cancels_in_service` says.
    #[cold]
    pub(super) fn make_copy(&mut self, id: u32, cancels_in_service: bool) -> Option<Report> {
        let session = self.requests.get(id)?;
        let chooser = self.choosers.member(session.chooser(), session.request.class);
        if self.choosers.pool_len(chooser) < 2 || self.flights() >= MAX_IN_FLIGHT {
            return None;
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
                self.metrics.counts.copies += 1;
                self.metrics.counts.discarded += 1;
                return Some(Report::Copied { place: id, copy: None, request: key });
            }
            _ => return None,
        }
        let class = session.request.class;
        let mut request =
            Request::new(self.now, (class, self.work.copy_demand(self.streams.work, key, class)));
        // The copy answers for the request: its latency runs from the request's creation.
        request.created = session.request.created;
        let copy = Outstanding::copy_of(session, request);
        let started = self.requests.session_started(id);
        let copy = self.requests.insert(copy, started);
        self.requests.races.link((id, copy), cancels_in_service);
        self.metrics.counts.copies += 1;
        Some(Report::Copied { place: id, copy: Some(copy), request: key })
    }

    /// The copy at place `copy` leaves its chooser for a server other than
    /// `avoid`.
    #[cold]
    pub(super) fn send_copy(&mut self, copy: u32, avoid: u32) {
        let Some(session) = self.requests.get(copy) else { return };
        let chooser = self.choosers.member(session.chooser(), session.request.class);
        let position = self.pick_other(chooser, avoid);
        self.send_to_server(Flight::request(copy), chooser, position);
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

    /// Counts `wasted` service on a race's loser, after the warm-up.
    pub(super) fn count_wasted(&mut self, wasted: Time) {
        if self.metrics.measuring(self.now) {
            self.requests.races.waste(wasted);
        }
    }

    fn set_race(&mut self, id: u32, race: Race) {
        self.requests.races.set_race(id, race);
    }

    /// Ends the race of place `id`: returns its twin, if it had one.
    fn unlink(&mut self, id: u32) -> Option<u32> {
        self.requests.races.unlink(id)
    }

    /// How the request `flight` names stands in a race with its copy, if the
    /// core keeps it (a balancer's attempt races none).
    #[inline]
    fn race_of(&self, flight: Flight) -> Option<(u32, Race)> {
        let id = flight.place()?;
        self.requests.get(id)?;
        Some((id, self.requests.races.race(id)))
    }

    /// Whether the request `flight` names lost its race while under
    /// way: it ends at the next hop it reaches, and the core goes no further.
    #[inline]
    pub(super) fn ended_under_way(&mut self, flight: Flight) -> bool {
        let Some((id, Race::Lost)) = self.race_of(flight) else { return false };
        self.discard(id);
        true
    }

    /// Whether the request `flight` names, about to be sent back by its
    /// server, is a copy still racing, dropped instead.
    #[inline]
    pub(super) fn dropped_instead_of_sent_back(&mut self, flight: Flight) -> bool {
        let Some((id, Race::Running)) = self.race_of(flight) else { return false };
        if !self.requests.races.is_copy(id) {
            return false;
        }
        self.drop_copy(id);
        true
    }

    /// Whether the request `flight` names lost its race in service and
    /// was cancelled (its slot already free): its service completion ends it.
    #[inline]
    fn cancelled_in_service(&mut self, flight: Flight) -> bool {
        let Some((id, Race::Cancelled)) = self.race_of(flight) else { return false };
        self.discard(id);
        true
    }

    /// The service of the request `flight` names ended and freed its slot:
    /// whether the request ends there (a race's loser, left to
    /// finish); a racer that finished first wins.
    #[inline]
    pub(super) fn ended_after_service(&mut self, flight: Flight) -> bool {
        match self.race_of(flight) {
            None | Some((_, Race::Out | Race::Cancelled)) => false,
            Some((id, race)) => self.racer_service_ended(id, race),
        }
    }

    /// The service of place `id`'s request, racing or lost, ended and
    /// freed its slot: a loser left to finish ends, its service wasted; a
    /// racer wins. Returns whether it ended.
    #[cold]
    fn racer_service_ended(&mut self, id: u32, race: Race) -> bool {
        if race != Race::Lost {
            self.win(id);
            return false;
        }
        if let Some(r) = self.requests.get(id).map(|s| &s.request) {
            let wasted = self.now - r.departs;
            self.count_wasted(wasted);
        }
        self.discard(id);
        true
    }

    /// Races still running: a copy and its original both out, neither
    /// finished. They count as neither won nor lost.
    pub(super) fn races_running(&self) -> u64 {
        let races = &self.requests.races;
        let racing = |id: u32| races.is_racing_copy(id) && self.requests.get(id).is_some();
        (0..races.places() as u32).filter(|&id| racing(id)).count() as u64
    }

    /// Place `id`'s request (raced, or a copy) finished service first: it
    /// answers, and its twin loses.
    fn win(&mut self, id: u32) {
        if self.requests.get(id).is_some() {
            if self.requests.races.is_racing_copy(id) && self.metrics.measuring(self.now) {
                self.requests.races.tally.copies_won += 1;
            }
            self.set_race(id, Race::Out);
        }
        if let Some(twin) = self.unlink(id) {
            self.lose(twin);
        }
    }

    /// Place `id`'s request lost its race (or its twin failed): its chooser
    /// forgets it, and it stops as far as it can at once.
    #[cold]
    fn lose(&mut self, id: u32) {
        self.unlink(id);
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
            Stage::InService if self.requests.races.cancels_in_service(id) => {
                self.set_race(id, Race::Cancelled);
                self.count_wasted(self.now - started);
                self.free_slot(server as usize);
            }
            _ => self.set_race(id, Race::Lost),
        }
    }

    /// Place `id`'s request, racing a copy, races no more: the copy loses.
    pub(super) fn call_off_race(&mut self, id: u32) {
        if let Some(twin) = self.unlink(id) {
            self.lose(twin);
        }
        self.set_race(id, Race::Out);
    }

    /// A queued copy timed out: it is dropped (not sent back), and its twin
    /// races no more.
    #[cold]
    pub(super) fn drop_copy(&mut self, id: u32) {
        if self.journal.is_some() {
            let server = self.requests.get(id).map_or(0, |s| s.request.server);
            self.note_request(Flight::request(id), |request| Happening::CopyDropped { request, server });
        }
        if let Some(original) = self.unlink(id) {
            if self.requests.get(original).is_some() {
                self.set_race(original, Race::Out);
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
    /// racing its request loses. (Whoever asked for the copy hears of the
    /// place's next request when it is created.)
    pub(super) fn end_place(&mut self, id: u32) {
        let racing = self.requests.races.race(id) == Race::Running && !self.requests.races.is_copy(id);
        if self.requests.remove(id).is_some() && racing {
            if let Some(twin) = self.unlink(id) {
                self.lose(twin);
            }
        }
    }
}

impl Simulation {
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
}
