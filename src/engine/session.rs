//! Sessions and their one request in flight.

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
    /// At its chooser, waiting out a retry's backoff.
    BackingOff,
    /// At its chooser while a FoundationDB balancer's attempts for it are
    /// out (see `fdb.rs`).
    Balancing,
    /// A response travelling from the server to the balancer.
    ResponseToBalancer,
    /// A response travelling to the client.
    ResponseToClient,
}

/// What becomes of a request when its current hop ends, with hedging.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fate {
    /// Its session waits on it (every request, without hedging).
    Answers,
    /// Its session waits on it, and a hedged copy in its twin's place races it.
    Raced,
    /// A hedged copy racing the request its twin holds: the first of the
    /// two to finish service answers, the other loses.
    Copy,
    /// Lost its race: it ends at its next event (when it reaches its
    /// server, or, left to finish, when its service ends).
    Lost,
    /// Lost its race in service and was cancelled: its slot is free, and
    /// its pending service completion ends it.
    Cancelled,
}

/// What a request in flight is to the request its session waits on: the
/// request itself (a hedged copy that won its race stays a copy until its
/// session's next request), a hedged copy, or a FoundationDB balancer's
/// attempt k, counted from 0.
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

impl Fate {
    /// Whether its session waits on it.
    pub fn answers(self) -> bool {
        matches!(self, Fate::Answers | Fate::Raced)
    }
}

/// The request a session has in flight: what every event touches, packed
/// so that a whole session fits one 64-byte cache line.
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
    /// `Option<Time>` would take 16 bytes and the session a second line).
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

#[derive(Clone, Debug)]
#[repr(align(64))]
pub struct Session {
    pub client: u32,
    /// The balancer the session goes through; `NO_BALANCER` when its client
    /// chooses servers itself (an `Option` would take 8 bytes).
    balancer: u32,
    /// The session's place in the order of arrival (wrapping after 2^32): with
    /// `remaining`, the key of the current request's service demand.
    pub number: u32,
    /// Requests still to be sent after the current one.
    pub remaining: u16,
    /// Whether the session waits on this place's request, or it is a hedged
    /// copy (kept in a 64-byte line's last spare byte).
    pub fate: Fate,
    /// How the response travelling back answers the request (the line's
    /// last spare byte).
    pub outcome: Outcome,
    pub request: Request,
}

const NO_BALANCER: u32 = u32::MAX;

/// What a request in flight needs of its session: whose it is, and which
/// of the session's requests. Kept by value, so that a request kept apart
/// from its session (an attempt) carries it.
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

impl Session {
    /// A session of `length` requests whose first, created at `now`, brings
    /// `demand`.
    pub fn new(
        client: u32,
        balancer: Option<u32>,
        number: u32,
        length: u32,
        now: Time,
        demand: (u8, f32),
    ) -> Session {
        Session {
            client,
            balancer: balancer.unwrap_or(NO_BALANCER),
            number,
            remaining: (length - 1) as u16,
            fate: Fate::Answers,
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

    /// Who chooses servers for the session: its balancer, or its client.
    pub fn chooser(&self) -> u32 {
        self.origin().chooser()
    }

    /// The session moves on to its next request, created at `now`, which
    /// brings `demand`.
    pub fn next_request(&mut self, now: Time, demand: (u8, f32)) {
        self.remaining = self.remaining.saturating_sub(1);
        self.request = Request::new(now, demand);
    }
}

/// Sessions by index, reusing freed places. A hedged copy takes a place of
/// its own, a copy of its session's (see `hedge.rs`).
#[derive(Default)]
pub struct Sessions {
    slots: Vec<Option<Session>>,
    /// When each session started: read once per session, so kept apart
    /// from the session's line.
    started: Vec<Time>,
    free: Vec<u32>,
    live: u64,
}

impl Sessions {
    #[inline]
    pub fn insert(&mut self, session: Session, now: Time) -> u32 {
        self.live += 1;
        match self.free.pop() {
            Some(id) => {
                self.slots[id as usize] = Some(session);
                self.started[id as usize] = now;
                id
            }
            None => {
                self.slots.push(Some(session));
                self.started.push(now);
                (self.slots.len() - 1) as u32
            }
        }
    }

    pub fn remove(&mut self, id: u32) -> Option<Session> {
        let session = self.slots.get_mut(id as usize)?.take()?;
        self.free.push(id);
        self.live -= 1;
        Some(session)
    }

    pub fn get(&self, id: u32) -> Option<&Session> {
        self.slots.get(id as usize)?.as_ref()
    }

    pub fn get_mut(&mut self, id: u32) -> Option<&mut Session> {
        self.slots.get_mut(id as usize)?.as_mut()
    }

    /// Where session `id` is kept, without reading it (for prefetching).
    pub fn place(&self, id: u32) -> Option<&Option<Session>> {
        self.slots.get(id as usize)
    }

    /// When session `id` started.
    pub fn started(&self, id: u32) -> Time {
        self.started.get(id as usize).copied().unwrap_or_default()
    }

    /// The most sessions alive at once so far (the places kept for them).
    pub fn places(&self) -> usize {
        self.slots.len()
    }

    /// Places in use, each with exactly one request (or hedged copy) in flight.
    pub fn live(&self) -> u64 {
        self.live
    }

    pub fn iter(&self) -> impl Iterator<Item = (u32, &Session)> {
        self.slots.iter().enumerate().filter_map(|(i, s)| s.as_ref().map(|s| (i as u32, s)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_session_fits_one_cache_line() {
        assert_eq!(std::mem::size_of::<Option<Session>>(), 64);
    }
}
