//! Sessions and their one request in flight.

use crate::policy::Load;
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
    /// A response travelling from the server to the balancer.
    ResponseToBalancer,
    /// A response travelling to the client.
    ResponseToClient,
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
    pub first_queued: Option<Time>,
    /// The load its server reported on the response or bounce.
    pub reported: Load,
    pub server: u32,
    pub retries: u16,
    pub stage: Stage,
}

impl Request {
    pub fn new(now: Time) -> Request {
        Request {
            departs: now,
            arrives: now,
            first_queued: None,
            reported: Load::default(),
            server: 0,
            retries: 0,
            stage: Stage::ToServer,
        }
    }

    pub fn travel(&mut self, stage: Stage, departs: Time, arrives: Time) {
        self.stage = stage;
        self.departs = departs;
        self.arrives = arrives;
    }
}

#[derive(Clone, Debug)]
#[repr(align(64))]
pub struct Session {
    pub client: u32,
    pub balancer: Option<u32>,
    /// Requests still to be sent after the current one.
    pub remaining: u16,
    pub request: Request,
}

/// When a session started and when its current request was created: read
/// once per request, so kept apart from the session's hot line.
#[derive(Clone, Copy, Debug, Default)]
pub struct Started {
    pub session: Time,
    pub request: Time,
}

/// Sessions by index, reusing freed places.
#[derive(Default)]
pub struct Sessions {
    slots: Vec<Option<Session>>,
    started: Vec<Started>,
    free: Vec<u32>,
    live: u64,
}

impl Sessions {
    pub fn insert(&mut self, session: Session, now: Time) -> u32 {
        self.live += 1;
        let started = Started { session: now, request: now };
        match self.free.pop() {
            Some(id) => {
                self.slots[id as usize] = Some(session);
                self.started[id as usize] = started;
                id
            }
            None => {
                self.slots.push(Some(session));
                self.started.push(started);
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

    /// Where session `id`'s start times are kept, without reading them.
    pub fn started_place(&self, id: u32) -> Option<&Started> {
        self.started.get(id as usize)
    }

    pub fn started(&self, id: u32) -> Started {
        self.started.get(id as usize).copied().unwrap_or_default()
    }

    /// Session `id` sends its next request, created at `now`.
    pub fn next_request(&mut self, id: u32, now: Time) {
        if let (Some(Some(session)), Some(started)) =
            (self.slots.get_mut(id as usize), self.started.get_mut(id as usize))
        {
            session.remaining = session.remaining.saturating_sub(1);
            session.request = Request::new(now);
            started.request = now;
        }
    }

    /// The most sessions alive at once so far (the places kept for them).
    pub fn places(&self) -> usize {
        self.slots.len()
    }

    /// Sessions alive, each with exactly one request in flight.
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
