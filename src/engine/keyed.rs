//! The key a request carries, as the core asks it when it places the
//! request (the keys are keyed placement's, `feature/keying.rs`), and where
//! the choosers would place a key.

use super::Simulation;
use crate::keys::Unloaded;

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
        self.owned.key(id, (session.number, session.remaining))
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

impl Simulation {
    /// Place `id` holds the request of a replayed trace's row, which gave
    /// it `key` (or none): keyed placement keeps it.
    #[inline]
    pub(super) fn on_replayed(&mut self, id: u32, key: Option<u64>) {
        self.owned.replay_key(id, key);
    }

    /// Whether each request of a session is placed on its own, by a key of
    /// its own or by the connection it rides, rather than staying with its
    /// session's server.
    #[inline]
    pub(super) fn placed_per_request(&self) -> bool {
        self.owned.keys_per_request() && self.choosers.reads_keys() || self.owned.balances_per_connection()
    }
}
