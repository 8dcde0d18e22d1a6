//! Requests in flight, wherever they are kept: sessions' requests and
//! their copies (`requests.rs`), and the attempts a feature sends for its
//! own (`attempts.rs`). Events name them by a [`Flight`], and the core
//! reads and moves them through the accessors here without knowing which
//! is which; an attempt differs only where it is sent and where its reply
//! goes.

use super::attempts::{Attempt, Attempts};
use super::feature::{FeatureId, Report};
use super::requests::{Identity, Origin, Request, Requests, Role, Stage};
use super::{Outcome, Simulation};

/// A request in flight as an event names it: a session's request, a copy
/// racing one, or a feature's attempt, each by its place in the store that
/// keeps it. Packed in one word, an attempt marked by the top bit (places
/// stay far below it, as a simulation holds at most [`MAX_IN_FLIGHT`]
/// requests), so that an event's payload stays one word.
///
/// [`MAX_IN_FLIGHT`]: super::MAX_IN_FLIGHT
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Flight(u32);

/// Where a [`Flight`] is kept.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kept {
    /// In the store of requests (`requests.rs`), at this place.
    Request(u32),
    /// In the store of attempts (`attempts.rs`), at this place.
    Attempt(u32),
}

const ATTEMPT: u32 = 1 << 31;

impl Flight {
    pub fn request(place: u32) -> Flight {
        Flight(place)
    }

    pub fn attempt(place: u32) -> Flight {
        Flight(place | ATTEMPT)
    }

    pub fn kept(self) -> Kept {
        match self.0 & ATTEMPT {
            0 => Kept::Request(self.0),
            _ => Kept::Attempt(self.0 & !ATTEMPT),
        }
    }

    /// Its place, if it is a session's request or a copy (not an attempt).
    pub fn place(self) -> Option<u32> {
        (self.0 & ATTEMPT == 0).then_some(self.0)
    }
}

impl std::fmt::Debug for Flight {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.kept().fmt(f)
    }
}

/// The request `flight` names, whose it is, and its outcome, to change
/// them: borrowing only the stores that keep requests, it leaves the rest
/// of the simulation at hand.
#[inline(always)]
pub(super) fn in_store<'a>(
    requests: &'a mut Requests,
    attempts: &'a mut Attempts,
    flight: Flight,
) -> Option<(Origin, &'a mut Request, &'a mut Outcome)> {
    match flight.kept() {
        Kept::Request(place) => {
            let kept = requests.get_mut(place)?;
            Some((kept.origin(), &mut kept.request, &mut kept.outcome))
        }
        Kept::Attempt(place) => {
            let attempt = attempts.get_mut(place)?;
            Some((attempt.origin, &mut attempt.request, &mut attempt.outcome))
        }
    }
}

/// A request in flight as the core reads it, wherever it is kept.
pub(super) struct Seen<'a> {
    pub origin: Origin,
    pub request: &'a Request,
    pub outcome: Outcome,
    /// An attempt's index among its request's attempts (0 for any other
    /// request).
    pub attempt: u16,
}

impl Seen<'_> {
    /// How often the request was tried before this try: its retries, or
    /// for an attempt the attempts before it. A fast-failing
    /// server draws its answer from the random stream of the try.
    pub fn tries(&self) -> u16 {
        self.request.retries.saturating_add(self.attempt)
    }
}

impl Simulation {
    /// The request `flight` names, if it is still in flight.
    #[inline]
    pub(super) fn in_flight(&self, flight: Flight) -> Option<Seen<'_>> {
        match flight.kept() {
            Kept::Request(place) => {
                let kept = self.requests.get(place)?;
                let (request, outcome) = (&kept.request, kept.outcome);
                Some(Seen { origin: kept.origin(), request, outcome, attempt: 0 })
            }
            Kept::Attempt(place) => {
                let attempt = self.attempts.get(place)?;
                let (request, outcome) = (&attempt.request, attempt.outcome);
                Some(Seen { origin: attempt.origin, request, outcome, attempt: attempt.index })
            }
        }
    }

    /// The request `flight` names and its outcome, to change them.
    #[inline]
    pub(super) fn in_flight_mut(&mut self, flight: Flight) -> Option<(&mut Request, &mut Outcome)> {
        let (_, request, outcome) = in_store(&mut self.requests, &mut self.attempts, flight)?;
        Some((request, outcome))
    }

    /// How many requests are in flight: every session's, every copy and
    /// every attempt.
    pub(super) fn flights(&self) -> u64 {
        self.requests.live() + self.attempts.count()
    }

    /// The identity of the request `flight` names.
    #[inline]
    pub(super) fn identity_of(&self, flight: Flight) -> Option<Identity> {
        match flight.kept() {
            Kept::Request(place) => {
                let kept = self.requests.get(place)?;
                let role = if self.requests.races.is_copy(place) { Role::COPY } else { Role::ORIGINAL };
                Some(Identity::of(kept.origin(), role))
            }
            Kept::Attempt(_) => self.attempt_identity(flight),
        }
    }

    #[cold]
    fn attempt_identity(&self, flight: Flight) -> Option<Identity> {
        let seen = self.in_flight(flight)?;
        Some(Identity::of(seen.origin, Role::attempt(seen.attempt)))
    }
}

/// Attempts, sent by a feature and heard back by it.
impl Simulation {
    /// Feature `feature` sends `index`, an attempt of place `place`'s
    /// request, from `chooser` to `server`, naming it `token`: with the
    /// request's demand for its first attempt, a fresh draw for the rest.
    pub(in crate::engine) fn send_attempt(
        &mut self,
        (feature, token): (FeatureId, u64),
        (place, index): (u32, u16),
        chooser: usize,
        server: u32,
    ) {
        if index > 0 {
            self.metrics.counts.retried += 1;
        }
        let Some(position) = self.choosers.position_of(chooser, server) else { return };
        let Some(session) = self.requests.get(place) else { return };
        let (origin, class) = (session.origin(), session.request.class);
        let demand = match index {
            0 => session.request.demand,
            _ => self.work.copy_demand(self.streams.work, (origin.number, origin.remaining), class),
        };
        let request = Request::new(self.now, (class, demand));
        let attempt = Attempt { feature, token, index, origin, outcome: session.outcome, request };
        let place = self.attempts.send(attempt);
        self.metrics.counts.attempts_sent += 1;
        self.send_to_server(Flight::attempt(place), chooser, position);
    }

    /// Whether `flight`, just back at its chooser (a reply, or a bounce),
    /// is an attempt: its chooser hears it, and the feature that sent it
    /// hears its reply, which goes no further.
    #[inline]
    pub(super) fn attempt_replied(&mut self, flight: Flight) -> bool {
        let Kept::Attempt(place) = flight.kept() else { return false };
        self.reply_to_sender(flight, place);
        true
    }

    #[cold]
    fn reply_to_sender(&mut self, flight: Flight, place: u32) {
        let Some(seen) = self.in_flight(flight) else { return };
        let bounced = seen.request.stage == Stage::Bounced;
        let (outcome, queued) = (seen.outcome, seen.request.reported.load().queued());
        let heard = self.tell_chooser(flight);
        let attempt = self.attempts.take(place);
        self.metrics.counts.attempts_ended += 1;
        let (Some((chooser, server)), Some(Attempt { feature, token, .. })) = (heard, attempt) else {
            return;
        };
        let chooser = chooser as u32;
        self.report_to(feature, Report::Replied { token, chooser, server, bounced, outcome, queued });
    }

    /// Place `place`'s request, kept at its chooser, is answered as if
    /// `server` had answered it: the answer goes on to its client.
    pub(in crate::engine) fn answer(&mut self, place: u32, server: u32) {
        let Some(session) = self.requests.get_mut(place) else { return };
        session.request.server = server;
        session.outcome = Outcome::Ok;
        if self.scenario.balancers > 0 {
            self.forward_to_client(place);
        } else {
            self.complete_at_client(place);
        }
    }
}
