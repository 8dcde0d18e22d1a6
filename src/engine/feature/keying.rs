//! The key each request carries, drawn from a stream of its own keyed by
//! the request (session number, and with a key per request, its place in
//! the session), so that keys are the same under every policy and adding
//! them moves no other draw. A replayed trace's row may give its key
//! instead. Where a key goes is the choosers' placement's
//! (`chooser/placements.rs`); the core asks the key when it places a
//! request (`engine/keyed.rs`).

use super::Feature;
use crate::keys::{Keys, Popularity};
use crate::rng::{Keyed, Streams};
use crate::scenario::{KeyPer, Scenario};

pub(in crate::engine) struct Keying {
    keys: Keys,
    seed: u64,
    per_request: bool,
    /// A replayed trace's keys, by the place of the session that carries
    /// each (`None` where the trace gave none).
    replayed: Vec<Option<u64>>,
}

impl Feature for Keying {
    /// It sets no timers.
    const TRACE_KIND: u64 = 0;

    /// Present in every run: a policy that places by key may be chosen
    /// live, and a trace replayed.
    fn for_scenario(scenario: &Scenario) -> Option<Keying> {
        Some(Keying {
            keys: Keys::new(u64::from(scenario.key_space), Popularity::of(scenario)),
            seed: Streams::new(scenario.seed).keys,
            per_request: scenario.key_per == KeyPer::Request,
            replayed: Vec::new(),
        })
    }
}

impl Keying {
    /// The session at place `place` is a replayed trace's, which gave it
    /// `key` (or none: it then draws one).
    pub fn replay_key(&mut self, place: u32, key: Option<u64>) {
        let place = place as usize;
        if self.replayed.len() <= place {
            self.replayed.resize(place + 1, None);
        }
        self.replayed[place] = key;
    }

    /// Whether each request draws a key of its own (else its session's).
    pub fn per_request(&self) -> bool {
        self.per_request
    }

    /// The key of the request at place `place`, session `number`'s with
    /// `remaining` more behind it.
    pub fn key(&self, place: u32, (number, remaining): (u32, u16)) -> u64 {
        let replayed = self.replayed.get(place as usize).copied().flatten();
        replayed.unwrap_or_else(|| {
            let nth = if self.per_request { remaining } else { 0 };
            self.keys.draw(&mut Keyed::new(self.seed ^ (u64::from(number) << 16 | u64::from(nth))))
        })
    }
}
