//! Consistent hashing on a ring (Karger et al., "Consistent hashing and
//! random trees", STOC 1997; seed 004's k hashes per server). Each server
//! takes `virtual_nodes` points of the 64-bit hash space; a key goes to the
//! owner of the first point at or after its own hash, wrapping round. A
//! server joining takes only the arcs its points cut, about 1/(N+1) of the
//! keys; one leaving gives up only its own. A server's share is the sum of
//! its arcs, so its spread across servers falls as 1/√(virtual nodes).
//! A lookup is a binary search over N × virtual nodes points.

use super::{hash, KeyPlacement, Loads, Scheme};
use crate::policy::{Descriptor, Routing};
use std::rc::Rc;

pub static RING: Descriptor = Descriptor {
    name: "ring",
    title: "consistent hashing ring",
    description: "the next of virtual_nodes points per server clockwise from the key's hash",
    properties: &[],
    routing: Routing::Keys(Scheme {
        settings: &["virtual_nodes"],
        build: |members, scenario| Rc::new(Ring::new(members, scenario.virtual_nodes)),
    }),
};

pub struct Ring {
    /// (point, server), ascending by point.
    points: Vec<(u64, u32)>,
    members: Vec<u32>,
    virtual_nodes: u32,
}

impl Ring {
    pub fn new(members: &[u32], virtual_nodes: u32) -> Ring {
        let mut points: Vec<(u64, u32)> = members
            .iter()
            .flat_map(|&server| {
                (0..virtual_nodes).map(move |node| {
                    (hash::pair(hash::Salt::Node, u64::from(server), u64::from(node)), server)
                })
            })
            .collect();
        points.sort_unstable();
        Ring { points, members: members.to_vec(), virtual_nodes }
    }

    /// The same ring's settings over a new member set.
    pub fn rebuilt_ring(&self, members: &[u32]) -> Ring {
        Ring::new(members, self.virtual_nodes)
    }

    /// The points, ascending, each with its server (for drawing the ring).
    pub fn points(&self) -> &[(u64, u32)] {
        &self.points
    }

    /// The index of the first point at or after `point`, wrapping round.
    pub fn successor(&self, point: u64) -> usize {
        let index = self.points.partition_point(|&(p, _)| p < point);
        if index == self.points.len() {
            0
        } else {
            index
        }
    }
}

impl KeyPlacement for Ring {
    fn place(&self, key: u64, _loads: &dyn Loads) -> u32 {
        self.points[self.successor(hash::key(key))].1
    }

    fn members(&self) -> &[u32] {
        &self.members
    }

    fn rebuilt(&self, members: &[u32]) -> Rc<dyn KeyPlacement> {
        Rc::new(self.rebuilt_ring(members))
    }

    fn ring_points(&self) -> Option<&[(u64, u32)]> {
        Some(self.points())
    }
}

#[cfg(test)]
mod tests {
    use super::super::{key_counts, moved_fraction, Unloaded};
    use super::*;

    #[test]
    fn a_key_goes_to_the_next_point_clockwise() {
        let ring = Ring::new(&[0, 1, 2], 4);
        assert_eq!(ring.points().len(), 12);
        for key in 0..500 {
            let point = hash::key(key);
            let owner = ring.place(key, &Unloaded);
            // The owner's point is the smallest at or after the key's, or the
            // ring's first when the key lies past the last point.
            let next = ring.points().iter().find(|&&(p, _)| p >= point).unwrap_or(&ring.points()[0]);
            assert_eq!(owner, next.1);
        }
    }

    #[test]
    fn a_join_moves_keys_only_to_the_new_server() {
        let before = Ring::new(&[0, 1, 2, 3, 4], 50);
        let after = before.rebuilt(&[0, 1, 2, 3, 4, 5]);
        for key in 0..5_000 {
            let (a, b) = (before.place(key, &Unloaded), after.place(key, &Unloaded));
            assert!(a == b || b == 5, "key {key} moved from {a} to {b}");
        }
        let moved = moved_fraction(&before, after.as_ref(), 5_000);
        let shares = key_counts(after.as_ref(), 5_000);
        assert_eq!(moved, shares[5] as f64 / 5_000.0);
    }
}
