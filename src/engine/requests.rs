//! Requests in flight: what each is (its [`Identity`]), whose (its
//! [`Origin`]) and where on its path ([`Stage`]), and the store in which
//! the core keeps them. The attempts a feature sends for its own are kept
//! in a store of their own (`attempts.rs`); `flight.rs` reads either.

use super::copies::Races;
use super::Outcome;
use crate::policy::PackedLoad;
use crate::time::Time;

/// Where a request is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Stage {
    /// Client to balancer (after any handshake).
    ToBalancer,
    /// Client or balancer to server (after any handshake).
    ToServer,
    Queued,
    InService,
    /// Sent back by a queue timeout, travelling to its chooser.
    Bounced,
    /// At its chooser, held there by a feature (waiting out a retry's
    /// backoff, or kept while the feature's own attempts are out).
    Held,
    /// A response travelling from the server to the balancer.
    ResponseToBalancer,
    /// A response travelling to the client.
    ResponseToClient,
}

/// What a request in flight is to the request its session waits on: the
/// request itself, a copy racing it (a copy that won its race stays a
/// copy until its session's next request), or attempt k, counted from 0,
/// of those a feature sends for it (`Action::SendAttempt`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Role(u16);

impl Role {
    pub const ORIGINAL: Role = Role(0);
    pub const COPY: Role = Role(1);

    pub fn attempt(k: u16) -> Role {
        Role(k.saturating_add(2))
    }
}

/// A request in flight named by what it is rather than where it is kept:
/// its session's number, which of the session's requests it is (by how
/// many follow it), and its role. Orders and traces that must not depend
/// on storage name requests by it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Identity {
    pub session: u32,
    pub remaining: u16,
    pub role: Role,
}

impl Identity {
    /// The identity in one word, for hashing.
    pub fn word(self) -> u64 {
        u64::from(self.session) << 32 | u64::from(self.remaining) << 16 | u64::from(self.role.0)
    }

    pub fn of(origin: Origin, role: Role) -> Identity {
        Identity { session: origin.number, remaining: origin.remaining, role }
    }
}

/// A request's path and what it brings: what every event touches.
#[derive(Clone, Debug)]
pub struct Request {
    /// The current hop leaves at `departs` (later than now while a handshake
    /// is under way) and ends at `arrives`. While queued, `departs` is when
    /// it joined the queue; travelling back from a server, when it left it
    /// (and so when the server measured `reported`).
    pub departs: Time,
    pub arrives: Time,
    /// When the request was created (its latency runs from here).
    pub created: Time,
    /// When it first joined a server's queue; `Time::NEVER` before that (an
    /// `Option<Time>` would take 16 bytes and the request in flight a second line).
    first_queued: Time,
    /// The load its server reported on the response or bounce.
    pub reported: PackedLoad,
    pub server: u32,
    /// Its service demand in nanoseconds at speed 1, drawn when the request
    /// is created (off the path from a service start to the event it
    /// schedules); a single-precision float is exact to the nanosecond up
    /// to 16.7 ms and within 1 in 16 million beyond.
    pub demand: f32,
    pub retries: u16,
    pub stage: Stage,
    /// Its request class (index into the scenario's classes).
    pub class: u8,
}

impl Request {
    /// A request created at `now` of class and demand `(class, demand)`.
    pub fn new(now: Time, (class, demand): (u8, f32)) -> Request {
        Request {
            departs: now,
            arrives: now,
            created: now,
            first_queued: Time::NEVER,
            reported: PackedLoad::default(),
            server: 0,
            demand,
            retries: 0,
            stage: Stage::ToServer,
            class,
        }
    }

    pub fn travel(&mut self, stage: Stage, departs: Time, arrives: Time) {
        self.stage = stage;
        self.departs = departs;
        self.arrives = arrives;
    }

    /// Notes that the request is joining a queue at `now`; only the first
    /// time counts.
    pub fn queued_at(&mut self, now: Time) {
        if self.first_queued == Time::NEVER {
            self.first_queued = now;
        }
    }

    /// Time since it first joined a queue (zero if it never waited).
    pub fn queue_time(&self, now: Time) -> Time {
        if self.first_queued == Time::NEVER {
            Time::ZERO
        } else {
            now - self.first_queued
        }
    }
}

/// A request in flight as the core keeps it: the request, whose it is
/// (the fields of its [`Origin`], by value, as a feature's attempt
/// carries them) and the outcome its response carries back. No
/// store keeps sessions apart from their requests: a session is the
/// origin its current request carries, and its next request takes the
/// place of the one that answered. A copy is a request like any other
/// here, with the origin of the request it races; the store keeps which
/// places hold copies and how their races stand beside them
/// ([`Requests::races`], see `copies/`).
/// Packed so that it fits one 64-byte cache line.
#[derive(Clone, Debug)]
#[repr(align(64))]
pub struct Outstanding {
    pub client: u32,
    /// The balancer the request goes through, as the chooser of its worker
    /// that balances it (worker w of balancer b is chooser b × W + w, W
    /// being `workers_per_balancer`; with one worker, the balancer itself);
    /// `NO_BALANCER` when its client chooses servers itself (an `Option`
    /// would take 8 bytes).
    balancer: u32,
    /// Its session's place in the order of arrival (wrapping after 2^32):
    /// with `remaining`, the key of the request's service demand.
    pub number: u32,
    /// Requests its session still has to send after this one.
    pub remaining: u16,
    /// How the response travelling back answers the request.
    pub outcome: Outcome,
    pub request: Request,
}

const NO_BALANCER: u32 = u32::MAX;

/// What a request in flight carries of its session: whose it is, and which
/// of the session's requests.
#[derive(Clone, Copy, Debug)]
pub struct Origin {
    pub client: u32,
    balancer: u32,
    pub number: u32,
    pub remaining: u16,
}

impl Origin {
    pub fn balancer(&self) -> Option<u32> {
        (self.balancer != NO_BALANCER).then_some(self.balancer)
    }

    /// Who chooses servers for the request: its balancer, or its client.
    pub fn chooser(&self) -> u32 {
        self.balancer().unwrap_or(self.client)
    }
}

impl Outstanding {
    /// The first request of a session of `length` requests, created at
    /// `now`, which brings `demand`.
    pub fn first(
        client: u32,
        balancer: Option<u32>,
        number: u32,
        length: u32,
        now: Time,
        demand: (u8, f32),
    ) -> Outstanding {
        Outstanding {
            client,
            balancer: balancer.unwrap_or(NO_BALANCER),
            number,
            remaining: (length - 1) as u16,
            outcome: Outcome::Ok,
            request: Request::new(now, demand),
        }
    }

    pub fn origin(&self) -> Origin {
        let (client, balancer, number, remaining) = (self.client, self.balancer, self.number, self.remaining);
        Origin { client, balancer, number, remaining }
    }

    pub fn balancer(&self) -> Option<u32> {
        self.origin().balancer()
    }

    /// Who chooses servers for the request: its balancer, or its client.
    pub fn chooser(&self) -> u32 {
        self.origin().chooser()
    }

    /// A request of its own, `request`, with `original`'s origin: a copy
    /// of it.
    pub fn copy_of(original: &Outstanding, request: Request) -> Outstanding {
        Outstanding { request, ..original.clone() }
    }

    /// The request is followed by its session's next, created at `now`, which
    /// brings `demand`.
    pub fn next_request(&mut self, now: Time, demand: (u8, f32)) {
        self.remaining = self.remaining.saturating_sub(1);
        self.request = Request::new(now, demand);
    }
}

/// The requests in flight the core keeps, by place, reusing freed places.
#[derive(Default)]
pub struct Requests {
    slots: Vec<Option<Outstanding>>,
    /// When the session of each place's request started (the time a
    /// session's requests carry on from one to the next): read once per
    /// session, so kept apart from the request's line.
    session_started: Vec<Time>,
    free: Vec<u32>,
    live: u64,
    /// How each place stands in a race with its copy, by place.
    pub races: Races,
}

impl Requests {
    /// Keeps `request`, whose session started at `started`; returns its place.
    #[inline]
    pub fn insert(&mut self, request: Outstanding, started: Time) -> u32 {
        self.live += 1;
        match self.free.pop() {
            Some(id) => {
                self.slots[id as usize] = Some(request);
                self.session_started[id as usize] = started;
                id
            }
            None => {
                self.slots.push(Some(request));
                self.session_started.push(started);
                (self.slots.len() - 1) as u32
            }
        }
    }

    pub fn remove(&mut self, id: u32) -> Option<Outstanding> {
        let request = self.slots.get_mut(id as usize)?.take()?;
        self.free.push(id);
        self.live -= 1;
        Some(request)
    }

    pub fn get(&self, id: u32) -> Option<&Outstanding> {
        self.slots.get(id as usize)?.as_ref()
    }

    pub fn get_mut(&mut self, id: u32) -> Option<&mut Outstanding> {
        self.slots.get_mut(id as usize)?.as_mut()
    }

    /// Where place `id` is kept, without reading it (for prefetching).
    pub fn place(&self, id: u32) -> Option<&Option<Outstanding>> {
        self.slots.get(id as usize)
    }

    /// When the session of place `id`'s request started.
    pub fn session_started(&self, id: u32) -> Time {
        self.session_started.get(id as usize).copied().unwrap_or_default()
    }

    /// The most requests in flight at once so far (the places kept for them).
    pub fn places(&self) -> usize {
        self.slots.len()
    }

    /// Places in use, each holding one request in flight.
    pub fn live(&self) -> u64 {
        self.live
    }

    pub fn iter(&self) -> impl Iterator<Item = (u32, &Outstanding)> {
        self.slots.iter().enumerate().filter_map(|(i, s)| s.as_ref().map(|s| (i as u32, s)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_request_in_flight_fits_one_cache_line() {
        assert_eq!(std::mem::size_of::<Option<Outstanding>>(), 64);
    }
}
