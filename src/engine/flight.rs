//! Requests in flight, wherever they are kept: the core keeps sessions'
//! requests and their copies (`requests.rs`); a FoundationDB balancer
//! keeps the attempts it sends (`fdb.rs`). Events name them by a
//! [`Flight`], and the core reads and moves them through the accessors
//! here without knowing which is which.

use super::features::Features;
use super::requests::{Identity, Origin, Request, Requests, Role};
use super::{Outcome, Simulation};

/// A request in flight as an event names it: a request the core keeps (a
/// session's, or a copy racing one) or a FoundationDB balancer's attempt, each
/// by its place in the store that keeps it. Packed in one word, an attempt marked by the top bit (places
/// stay far below it, as a simulation holds at most [`MAX_IN_FLIGHT`]
/// requests), so that an event's payload stays one word.
///
/// [`MAX_IN_FLIGHT`]: super::MAX_IN_FLIGHT
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Flight(u32);

/// Where a [`Flight`] is kept.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kept {
    /// In the core's store of requests (`requests.rs`), at this place.
    Request(u32),
    /// In the balancers' store of attempts (see `fdb.rs`), at this place.
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

    /// Its place, if the core keeps it (rather than a balancer).
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
    features: &'a mut Features,
    flight: Flight,
) -> Option<(Origin, &'a mut Request, &'a mut Outcome)> {
    match flight.kept() {
        Kept::Request(place) => {
            let kept = requests.get_mut(place)?;
            Some((kept.origin(), &mut kept.request, &mut kept.outcome))
        }
        Kept::Attempt(place) => {
            let attempt = features.fdb.as_deref_mut()?.attempt_mut(place)?;
            Some((attempt.origin, &mut attempt.request, &mut attempt.outcome))
        }
    }
}

/// A request in flight as the core reads it, wherever it is kept.
pub(super) struct Seen<'a> {
    pub origin: Origin,
    pub request: &'a Request,
    pub outcome: Outcome,
    /// A balancer's attempt's index among its attempts (0 for any other
    /// request).
    pub attempt: u16,
}

impl Seen<'_> {
    /// How often the request was tried before this try: its retries, or
    /// for a balancer's attempt the attempts before it. A fast-failing
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
                let attempt = self.features.fdb.as_deref()?.attempt(place)?;
                let (request, outcome) = (&attempt.request, attempt.outcome);
                Some(Seen { origin: attempt.origin, request, outcome, attempt: attempt.index })
            }
        }
    }

    /// The request `flight` names and its outcome, to change them.
    #[inline]
    pub(super) fn in_flight_mut(&mut self, flight: Flight) -> Option<(&mut Request, &mut Outcome)> {
        let (_, request, outcome) = in_store(&mut self.requests, &mut self.features, flight)?;
        Some((request, outcome))
    }

    /// How many requests are in flight: every session's, every
    /// copy and every balancer's attempt.
    pub(super) fn flights(&self) -> u64 {
        self.requests.live() + self.features.fdb.as_deref().map_or(0, |fdb| fdb.attempts_out())
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
