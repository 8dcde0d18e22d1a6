//! Ranges (seed 004's "bucketing"): the hash space is cut into N equal
//! ranges, one per member in order. Even, and a lookup is one multiply;
//! but a change of N moves every boundary, so about half the keys move
//! when one server joins. Ranges are of the key's hash, not of the key
//! itself, so that the most popular keys (the lowest ranks) are not all
//! in the first range.

use super::{hash, KeyPlacement, Loads, Scheme};
use crate::policy::{Descriptor, Routing};
use std::rc::Rc;

pub static RANGES: Descriptor = Descriptor {
    name: "ranges",
    title: "key ranges",
    description: "the server whose equal range of the hash space holds the key's hash",
    properties: &[],
    routing: Routing::Keys(Scheme { settings: &[], build: |members, _| Rc::new(Ranges::new(members)) }),
};

pub struct Ranges {
    members: Vec<u32>,
}

impl Ranges {
    pub fn new(members: &[u32]) -> Ranges {
        Ranges { members: members.to_vec() }
    }
}

impl KeyPlacement for Ranges {
    fn place(&self, key: u64, _loads: &dyn Loads) -> u32 {
        self.members[hash::scaled(hash::key(key), self.members.len())]
    }

    fn members(&self) -> &[u32] {
        &self.members
    }

    fn rebuilt(&self, members: &[u32]) -> Rc<dyn KeyPlacement> {
        Rc::new(Ranges::new(members))
    }
}

#[cfg(test)]
mod tests {
    use super::super::{moved_fraction, Unloaded};
    use super::*;

    #[test]
    fn neighbouring_keys_scatter_and_a_join_moves_about_half() {
        let ranges = Ranges::new(&[0, 1, 2, 3]);
        let first: Vec<u32> = (0..8).map(|k| ranges.place(k, &Unloaded)).collect();
        assert!(first.windows(2).any(|w| w[0] != w[1]), "{first:?}");
        // From 4 to 5 equal ranges, the overlaps keep 1/5 + 3/20 + 1/10 + 1/20 = 1/2.
        let moved = moved_fraction(&ranges, &Ranges::new(&[0, 1, 2, 3, 4]), 40_000);
        assert!((moved - 0.5).abs() < 0.015, "{moved}");
    }
}
