//! Which keys the key statistics (each server's share, the share a
//! membership change moved) count: every key while that is cheap, else a
//! uniform random sample drawn from a fixed seed. A sample taken with a
//! stride would alias with the schemes that place by the key itself:
//! under modulo, every 10th key of a million over 100 servers falls on ten
//! of them.

use super::KeyPlacement;
use crate::format::thousands;
use crate::rng::{Draw, Keyed};
use serde::Serialize;
use std::fmt;

/// Lookups the statistics may spend: about a tenth of a second natively
/// for the O(1) and O(log n) schemes, so every key of a million counts.
const LOOKUPS: u64 = 2_000_000;

/// The fewest keys counted however dear a lookup (rendezvous hashes every
/// member), so that a share is still measured over many keys per server.
const FEWEST: u64 = 100_000;

/// The sample's own seed: the same keys for every run, so that the figures
/// for a scenario do not move with its seed.
const SEED: u64 = 0x6b65_7973;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct CountedKeys {
    /// How many keys were counted (drawn, when at random).
    pub counted: u64,
    pub key_space: u64,
    /// Drawn uniformly at random (with replacement) rather than every key.
    pub drawn_at_random: bool,
}

impl CountedKeys {
    /// The keys counted for `placement` over keys `0..key_space`.
    pub fn for_placement(placement: &dyn KeyPlacement, key_space: u64) -> CountedKeys {
        let budget = (LOOKUPS / placement.lookup_cost().max(1)).max(FEWEST);
        CountedKeys { counted: key_space.min(budget), key_space, drawn_at_random: key_space > budget }
    }

    /// The keys themselves, the same on every call.
    pub fn keys(self) -> impl Iterator<Item = u64> {
        let mut rng = Keyed::new(SEED);
        let space = self.key_space;
        (0..self.counted)
            .map(move |i| if self.drawn_at_random { rng.index(space as usize) as u64 } else { i })
    }
}

impl fmt::Display for CountedKeys {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        if self.drawn_at_random {
            write!(f, "{} keys drawn at random from {}", thousands(self.counted), thousands(self.key_space))
        } else {
            write!(f, "all {} keys", thousands(self.key_space))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Modulo, Rendezvous};
    use super::*;

    #[test]
    fn a_small_key_space_is_counted_whole() {
        let counted = CountedKeys::for_placement(&Modulo::new(&[0, 1]), 1_000_000);
        assert_eq!(counted.keys().collect::<Vec<_>>(), (0..1_000_000).collect::<Vec<_>>());
        assert_eq!(counted.to_string(), "all 1,000,000 keys");
    }

    #[test]
    fn a_large_one_is_sampled_from_all_of_it_the_same_way_each_time() {
        let counted = CountedKeys::for_placement(&Modulo::new(&[0, 1]), 1 << 31);
        assert!(counted.drawn_at_random && counted.counted == LOOKUPS);
        assert!(counted.keys().eq(counted.keys()));
        // Keys land in every eighth of the space, near 1/8 of them each.
        let mut eighths = [0u64; 8];
        counted.keys().for_each(|key| eighths[(key >> 28) as usize] += 1);
        assert!(eighths.iter().all(|&n| (n as f64 / (LOOKUPS / 8) as f64 - 1.0).abs() < 0.01), "{eighths:?}");
    }

    #[test]
    fn dear_lookups_count_fewer_keys_but_never_under_the_floor() {
        let members: Vec<u32> = (0..100).collect();
        let counted = CountedKeys::for_placement(&Rendezvous::new(&members), 1_000_000);
        assert_eq!((counted.counted, counted.drawn_at_random), (FEWEST, true));
        assert_eq!(counted.to_string(), "100,000 keys drawn at random from 1,000,000");
    }
}
