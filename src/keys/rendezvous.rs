//! Rendezvous, or highest-random-weight, hashing (Thaler and Ravishankar,
//! "Using name-based mappings to increase hit rates", IEEE/ACM ToN 1998):
//! each server's weight for a key is the hash of the pair, and the key goes
//! to the heaviest. A server joining wins exactly the keys for which its
//! weight is the highest, 1/(N+1) of them in expectation, and one leaving
//! hands each of its keys to that key's runner-up. No state beyond the
//! member list; a lookup costs N hashes.

use super::{hash, Loads, Placement};
use std::rc::Rc;

pub struct Rendezvous {
    members: Vec<u32>,
}

impl Rendezvous {
    pub fn new(members: &[u32]) -> Rendezvous {
        Rendezvous { members: members.to_vec() }
    }
}

impl Placement for Rendezvous {
    fn place(&self, key: u64, _loads: &dyn Loads) -> u32 {
        let point = hash::key(key);
        let weight = |server: u32| hash::pair(hash::Salt::Weight, u64::from(server), point);
        // Ties (one in 2^64) go to the higher server, whatever the order.
        self.members.iter().copied().max_by_key(|&server| (weight(server), server)).unwrap_or_default()
    }

    fn members(&self) -> &[u32] {
        &self.members
    }

    fn rebuilt(&self, members: &[u32]) -> Rc<dyn Placement> {
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
}
