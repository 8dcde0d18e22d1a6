//! The key each request carries, drawn from a stream of its own keyed by
//! the request (session number, and with a key per request, its place in
//! the session), so that keys are the same under every policy and adding
//! them moves no other draw.

use super::Simulation;
use crate::keys::{Keys, Unloaded};
use crate::rng::Keyed;
use crate::scenario::{KeyPer, Scenario};

pub struct Keying {
    keys: Keys,
    seed: u64,
    per_request: bool,
    /// A replayed trace's keys, by the place of the session that carries
    /// each (`None` where the trace gave none).
    replayed: Vec<Option<u64>>,
}

impl Keying {
    pub fn new(scenario: &Scenario, seed: u64) -> Keying {
        Keying {
            keys: Keys::new(u64::from(scenario.key_space), scenario.popularity()),
            seed,
            per_request: scenario.key_per == KeyPer::Request,
            replayed: Vec::new(),
        }
    }

    /// The session at place `id` is a replayed trace's, which gave it
    /// `key` (or none: it then draws one).
    pub fn replay_key(&mut self, id: u32, key: Option<u64>) {
        let id = id as usize;
        if self.replayed.len() <= id {
            self.replayed.resize(id + 1, None);
        }
        self.replayed[id] = key;
    }

    /// Whether each request draws a key of its own (else its session's).
    pub fn per_request(&self) -> bool {
        self.per_request
    }

    /// The key of session `number`'s request with `remaining` more behind it.
    pub fn key(&self, number: u32, remaining: u16) -> u64 {
        let place = if self.per_request { remaining } else { 0 };
        self.keys.draw(&mut Keyed::new(self.seed ^ (u64::from(number) << 16 | u64::from(place))))
    }
}

impl Simulation {
    /// Place `id`'s current key, when the policy places by key.
    pub(super) fn key_of(&self, id: u32) -> Option<u64> {
        if !self.choosers.reads_keys() {
            return None;
        }
        self.key_carried(id)
    }

    /// The key place `id`'s current request carries, whether or not the
    /// policy reads it.
    pub(super) fn key_carried(&self, id: u32) -> Option<u64> {
        let session = self.requests.get(id)?;
        let keying = &self.features.keying;
        let replayed = keying.replayed.get(id as usize).copied().flatten();
        Some(replayed.unwrap_or_else(|| keying.key(session.number, session.remaining)))
    }

    /// Where the first chooser places keys, if the policy places by key.
    pub fn key_placement(&self) -> Option<&dyn crate::keys::KeyPlacement> {
        self.choosers.placement(0)
    }

    /// The server chooser `chooser` (a balancer, or a client choosing for
    /// itself) would send `key` to with no load anywhere; `None` when the
    /// policy does not place by key or there is no such chooser.
    pub fn server_for_key(&self, chooser: usize, key: u64) -> Option<u32> {
        self.choosers.placement(chooser).map(|placement| placement.place(key, &Unloaded))
    }
}
