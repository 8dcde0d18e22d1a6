//! Rendezvous, or highest-random-weight, hashing (Thaler and Ravishankar,
//! "Using name-based mappings to increase hit rates", IEEE/ACM ToN 1998):
//! each server's weight for a key is the hash of the pair, and the key goes
//! to the heaviest. A server joining wins exactly the keys for which its
//! weight is the highest, 1/(N+1) of them in expectation, and one leaving
//! hands each of its keys to that key's runner-up. No state beyond the
//! member list; a lookup costs N hashes, so above a few dozen servers the
//! answers are remembered per key (a member set never changes: a change
//! builds a new placement).

use super::{hash, KeyPlacement, Loads, Scheme};
use crate::policy::{Descriptor, Routing};
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

/// Pools at least this large remember their answers; below it N hashes
/// cost less than a map lookup.
const REMEMBER_FROM: usize = 64;
/// Keys remembered at most, so a huge key space cannot grow the map without
/// bound; keys past it are hashed each time.
const REMEMBERED_KEYS: usize = 1 << 20;

pub static RENDEZVOUS: Descriptor = Descriptor {
    name: "rendezvous",
    title: "rendezvous hashing",
    description: "the server whose hash with the key is highest",
    properties: &[],
    routing: Routing::Keys(Scheme { settings: &[], build: |members, _| Rc::new(Rendezvous::new(members)) }),
};

pub struct Rendezvous {
    members: Vec<u32>,
    placed: RefCell<HashMap<u64, u32>>,
}

impl Rendezvous {
    pub fn new(members: &[u32]) -> Rendezvous {
        Rendezvous { members: members.to_vec(), placed: RefCell::default() }
    }

    fn heaviest(&self, key: u64) -> u32 {
        let point = hash::key(key);
        let weight = |server: u32| hash::pair(hash::Salt::Weight, u64::from(server), point);
        // Ties (one in 2^64) go to the higher server, whatever the order.
        self.members.iter().copied().max_by_key(|&server| (weight(server), server)).unwrap_or_default()
    }
}

impl KeyPlacement for Rendezvous {
    fn place(&self, key: u64, _loads: &dyn Loads) -> u32 {
        if self.members.len() < REMEMBER_FROM {
            return self.heaviest(key);
        }
        if let Some(&server) = self.placed.borrow().get(&key) {
            return server;
        }
        let server = self.heaviest(key);
        let mut placed = self.placed.borrow_mut();
        if placed.len() < REMEMBERED_KEYS {
            placed.insert(key, server);
        }
        server
    }

    fn members(&self) -> &[u32] {
        &self.members
    }

    fn rebuilt(&self, members: &[u32]) -> Rc<dyn KeyPlacement> {
        Rc::new(Rendezvous::new(members))
    }

    fn lookup_cost(&self) -> u64 {
        self.members.len() as u64
    }
}

#[cfg(test)]
mod tests {
    use super::super::Unloaded;
    use super::*;

    #[test]
    fn a_departure_moves_only_the_departed_servers_keys() {
        let before = Rendezvous::new(&[0, 1, 2, 3, 4, 5]);
        let after = before.rebuilt(&[0, 1, 3, 4, 5]);
        for key in 0..5_000 {
            let (a, b) = (before.place(key, &Unloaded), after.place(key, &Unloaded));
            assert!(a == b || a == 2, "key {key} moved from {a} to {b}");
        }
    }

    #[test]
    fn a_remembered_answer_is_the_one_the_hashes_give() {
        let members: Vec<u32> = (0..200).collect();
        let placement = Rendezvous::new(&members);
        for round in 0..2 {
            for key in 0..1_000 {
                assert_eq!(
                    placement.place(key, &Unloaded),
                    placement.heaviest(key),
                    "key {key}, round {round}"
                );
            }
        }
        assert_eq!(placement.placed.borrow().len(), 1_000);
    }
}
