//! Maglev hashing (Eisenbud et al., "Maglev: a fast and reliable software
//! network load balancer", NSDI 2016, section 3.4). A lookup table of prime
//! size M is filled by the members in turn, each taking the next free entry
//! of its own permutation of the table, `(offset + j × skip) mod M` with
//! offset and skip from two hashes of the server; a key goes to the entry
//! its hash names. Every member gets M/N entries to within one, a lookup
//! is one index, and a change of membership moves a little more than the
//! ideal share of keys (entries shift when the fill order changes).

use super::{hash, KeyPlacement, Loads, Scheme};
use crate::policy::{Descriptor, Routing};
use std::rc::Rc;

pub static MAGLEV: Descriptor = Descriptor {
    name: "maglev",
    title: "Maglev hashing",
    description: "the entry the key's hash names in Maglev's prime-sized lookup table",
    properties: &[],
    routing: Routing::Keys(Scheme { settings: &[], build: |members, _| Rc::new(Maglev::new(members)) }),
};

pub struct Maglev {
    /// Entry `i` is the server of keys whose hash lands on it.
    entries: Vec<u32>,
    members: Vec<u32>,
}

/// The paper's table size for small pools; more servers get the first prime
/// at or above 100 per server, so each keeps about 1% accuracy of share.
const SMALL_TABLE: u64 = 65_537;

/// The prime table size for `servers` members.
pub fn table_size(servers: usize) -> u64 {
    let mut size = SMALL_TABLE.max(100 * servers as u64);
    while !is_prime(size) {
        size += 1;
    }
    size
}

fn is_prime(n: u64) -> bool {
    n >= 2 && (2..).take_while(|d| d * d <= n).all(|d| n % d != 0)
}

impl Maglev {
    pub fn new(members: &[u32]) -> Maglev {
        let size = table_size(members.len());
        // Each member's permutation: where it starts and how far it steps. A
        // step from 1 to M − 1 is coprime with the prime M, so the walk
        // visits every entry.
        let walks: Vec<(u64, u64)> = members
            .iter()
            .map(|&server| {
                let offset = hash::of(hash::Salt::Offset, u64::from(server)) % size;
                let skip = hash::of(hash::Salt::Skip, u64::from(server)) % (size - 1) + 1;
                (offset, skip)
            })
            .collect();
        let mut next = vec![0u64; members.len()];
        let mut entries = vec![u32::MAX; size as usize];
        let mut filled = 0;
        'fill: loop {
            for (i, &(offset, skip)) in walks.iter().enumerate() {
                let mut entry = ((offset + next[i] * skip) % size) as usize;
                while entries[entry] != u32::MAX {
                    next[i] += 1;
                    entry = ((offset + next[i] * skip) % size) as usize;
                }
                entries[entry] = members[i];
                next[i] += 1;
                filled += 1;
                if filled == size {
                    break 'fill;
                }
            }
        }
        Maglev { entries, members: members.to_vec() }
    }
}

impl KeyPlacement for Maglev {
    fn place(&self, key: u64, _loads: &dyn Loads) -> u32 {
        self.entries[(hash::key(key) % self.entries.len() as u64) as usize]
    }

    fn members(&self) -> &[u32] {
        &self.members
    }

    fn rebuilt(&self, members: &[u32]) -> Rc<dyn KeyPlacement> {
        Rc::new(Maglev::new(members))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_sizes_are_prime() {
        assert_eq!(table_size(3), 65_537);
        assert!(is_prime(table_size(1_000)) && table_size(1_000) >= 100_000);
        assert!(!is_prime(65_535) && is_prime(7));
    }

    #[test]
    fn every_member_fills_its_share_of_the_table_to_within_one() {
        let maglev = Maglev::new(&[1, 4, 9, 16, 25, 36, 49]);
        let size = maglev.entries.len();
        assert!(maglev.entries.iter().all(|&s| s != u32::MAX));
        for &server in &maglev.members {
            let held = maglev.entries.iter().filter(|&&s| s == server).count();
            // Turns go round the members until the table is full, so shares
            // differ by at most one entry.
            assert!(held.abs_diff(size / 7) <= 1, "server {server}: {held} of {size}");
        }
    }
}
