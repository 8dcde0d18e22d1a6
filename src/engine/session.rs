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

#[derive(Clone, Debug)]
pub struct Request {
    pub created: Time,
    pub server: u32,
    pub stage: Stage,
    /// The current hop leaves at `departs` (later than now while a handshake
    /// is under way) and ends at `arrives`.
    pub departs: Time,
    pub arrives: Time,
    pub first_queued: Option<Time>,
    pub queued_at: Time,
    pub retries: u32,
    /// The load its server reported on the response or bounce, and when.
    pub reported: Load,
    pub measured_at: Time,
}

impl Request {
    pub fn new(now: Time) -> Request {
        Request {
            created: now,
            server: 0,
            stage: Stage::ToServer,
            departs: now,
            arrives: now,
            first_queued: None,
            queued_at: now,
            retries: 0,
            reported: Load::default(),
            measured_at: now,
        }
    }

    pub fn travel(&mut self, stage: Stage, departs: Time, arrives: Time) {
        self.stage = stage;
        self.departs = departs;
        self.arrives = arrives;
    }
}

#[derive(Clone, Debug)]
pub struct Session {
    pub client: u32,
    pub balancer: Option<u32>,
    pub started: Time,
    /// Requests still to be sent after the current one.
    pub remaining: u32,
    pub request: Request,
}

/// Sessions by index, reusing freed places.
#[derive(Default)]
pub struct Sessions {
    slots: Vec<Option<Session>>,
    free: Vec<u32>,
    live: u64,
}

impl Sessions {
    pub fn insert(&mut self, session: Session) -> u32 {
        self.live += 1;
        match self.free.pop() {
            Some(id) => {
                self.slots[id as usize] = Some(session);
                id
            }
            None => {
                self.slots.push(Some(session));
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

    /// Sessions alive, each with exactly one request in flight.
    pub fn live(&self) -> u64 {
        self.live
    }

    pub fn iter(&self) -> impl Iterator<Item = (u32, &Session)> {
        self.slots.iter().enumerate().filter_map(|(i, s)| s.as_ref().map(|s| (i as u32, s)))
    }
}
