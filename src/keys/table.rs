//! A mapping table, or directory (seed 004): every key's server is written
//! down. The table maps the key's hash onto 2^16 slots and each slot to a
//! server, so its size does not grow with the key space. Its state is the
//! point: when membership changes it is rebuilt from the previous table,
//! and only what must move moves. A departed server's slots go, one by
//! one, to the member holding fewest; a new server takes slots from the
//! members holding most until it has its share. So removing a server moves
//! only its own keys, and adding one moves 1/(N+1) of them: the ideal.
//!
//! The catch is that every balancer needs the same copy. Balancers that
//! hold different versions (one updated, one not yet) send requests for
//! one key to different servers.

use super::{hash, KeyPlacement, Loads, Scheme};
use crate::policy::{Descriptor, Property, Routing};
use std::rc::Rc;

pub const SLOTS: usize = 1 << 16;

pub static TABLE: Descriptor = Descriptor {
    name: "table",
    title: "mapping table",
    description: "the server a directory of 65,536 hash slots names; each chooser's copy follows changes table_lag_ms late",
    properties: &[Property::CopiesATable],
    routing: Routing::Keys(Scheme {
        settings: &[],
        build: |members, _| Rc::new(Table::new(members)),
    }),
};

pub struct Table {
    /// Each slot's server.
    slots: Vec<u32>,
    members: Vec<u32>,
}

impl Table {
    /// Slots dealt round the members in turn.
    pub fn new(members: &[u32]) -> Table {
        Table { slots: (0..SLOTS).map(|s| members[s % members.len()]).collect(), members: members.to_vec() }
    }

    /// How many slots each member holds, member by member.
    fn held(&self, members: &[u32]) -> Vec<usize> {
        let mut held = vec![0; members.len()];
        for server in &self.slots {
            if let Ok(i) = members.binary_search(server) {
                held[i] += 1;
            }
        }
        held
    }
}

/// The member index holding fewest slots (the lowest on ties).
fn fewest(held: &[usize], among: impl Iterator<Item = usize>) -> Option<usize> {
    among.min_by_key(|&i| (held[i], i))
}

impl KeyPlacement for Table {
    fn place(&self, key: u64, _loads: &dyn Loads) -> u32 {
        self.slots[hash::scaled(hash::key(key), SLOTS)]
    }

    fn members(&self) -> &[u32] {
        &self.members
    }

    fn rebuilt(&self, members: &[u32]) -> Rc<dyn KeyPlacement> {
        Rc::new(self.next(members))
    }
}

impl Table {
    /// The table for a new member set, moving as few slots as it can.
    fn next(&self, members: &[u32]) -> Table {
        let mut next = Table { slots: self.slots.clone(), members: members.to_vec() };
        let mut held = next.held(members);
        // A departed server's slots go to the members holding fewest.
        for slot in 0..SLOTS {
            if members.binary_search(&next.slots[slot]).is_err() {
                let Some(taker) = fewest(&held, 0..members.len()) else { continue };
                next.slots[slot] = members[taker];
                held[taker] += 1;
            }
        }
        // New servers take slots, walking the table, from any member above
        // the share every member keeps, until each has that share.
        let share = SLOTS / members.len();
        let newcomers: Vec<usize> =
            (0..members.len()).filter(|&i| self.members.binary_search(&members[i]).is_err()).collect();
        for slot in 0..SLOTS {
            let Some(taker) = fewest(&held, newcomers.iter().copied()).filter(|&t| held[t] < share) else {
                break;
            };
            let Ok(giver) = members.binary_search(&next.slots[slot]) else { continue };
            if held[giver] > share && !newcomers.contains(&giver) {
                next.slots[slot] = members[taker];
                held[giver] -= 1;
                held[taker] += 1;
            }
        }
        next
    }
}

#[cfg(test)]
mod tests {
    use super::super::{moved_fraction, Unloaded};
    use super::*;

    #[test]
    fn a_removal_moves_only_the_removed_servers_keys_and_keeps_shares_even() {
        let before = Table::new(&[0, 1, 2, 3]);
        let after = before.next(&[0, 1, 3]);
        for key in 0..5_000 {
            let (a, b) = (before.place(key, &Unloaded), after.place(key, &Unloaded));
            assert!(a == b || a == 2, "key {key} moved from {a} to {b}");
        }
        let held = after.held(&[0, 1, 3]);
        assert!(held.iter().all(|&h| h.abs_diff(SLOTS / 3) <= 1), "{held:?}");
    }

    #[test]
    fn a_join_moves_exactly_the_new_servers_share_of_slots() {
        let before = Table::new(&[0, 1, 2]);
        let after = before.next(&[0, 1, 2, 7]);
        let moved_slots = before.slots.iter().zip(&after.slots).filter(|(a, b)| a != b).count();
        assert_eq!(moved_slots, SLOTS / 4);
        assert!(after.slots.iter().zip(&before.slots).all(|(a, b)| a == b || *a == 7));
        assert_eq!(after.held(&[0, 1, 2, 7]), [SLOTS / 4; 4]);
        // Keys land on slots at random: the binomial standard error over
        // 40,000 keys is 0.0022.
        let moved = moved_fraction(&before, &after, 40_000);
        assert!((moved - 0.25).abs() < 0.011, "{moved}");
    }
}
