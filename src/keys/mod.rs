//! Keys and where they live: the fixed hash, how popular each key is, and
//! the placement schemes that map a key to a server (seed 004: modulo,
//! ranges, a mapping table, consistent hashing; seed 001: virtual nodes,
//! sticky sessions).
//!
//! A [`KeyPlacement`] is built from the member set and rebuilt, never patched,
//! when membership changes (as pingora's `BackendSelection` is): a hash
//! scheme starts from scratch, while the mapping table, whose state is the
//! point, moves only the keys it must. Nothing here reads the clock or a
//! random generator, so every balancer holding the same member set computes
//! the same server for a key without talking to the others.

mod bounded;
mod counted;
pub mod hash;
mod maglev;
mod modulo;
mod popularity;
mod ranges;
mod rendezvous;
mod ring;
mod table;

pub use bounded::BoundedLoad;
pub use counted::CountedKeys;
pub use maglev::Maglev;
pub use modulo::Modulo;
pub use popularity::{Keys, Popularity};
pub use ranges::Ranges;
pub use rendezvous::Rendezvous;
pub use ring::Ring;
pub use table::{Table, TABLE};

use crate::policy::Descriptor;
use crate::scenario::Scenario;
use std::rc::Rc;

/// The placement schemes, each a routing policy (see
/// [`crate::policy::POLICIES`]), in the order they are listed to people: a
/// new scheme is a file here and a line in this list.
pub const SCHEMES: &[&Descriptor] = &[
    &modulo::MODULO,
    &ranges::RANGES,
    &table::TABLE,
    &ring::RING,
    &rendezvous::RENDEZVOUS,
    &maglev::MAGLEV,
    &bounded::BOUNDED_LOAD,
];

/// What a scheme that bounds load may read: the load of each server and
/// their total. Every other scheme ignores it.
pub trait Loads {
    fn load(&self, server: u32) -> u64;
    fn total(&self) -> u64;
}

/// No load at all, for schemes (and tests) that do not read it.
pub struct Unloaded;

impl Loads for Unloaded {
    fn load(&self, _server: u32) -> u64 {
        0
    }
    fn total(&self) -> u64 {
        0
    }
}

pub trait KeyPlacement {
    /// The server `key` goes to (one of the members).
    fn place(&self, key: u64, loads: &dyn Loads) -> u32;

    /// The servers this placement spreads keys over, ascending.
    fn members(&self) -> &[u32];

    /// This placement for a new member set (ascending, not empty).
    fn rebuilt(&self, members: &[u32]) -> Rc<dyn KeyPlacement>;

    /// What one lookup costs, in hashes: how many keys the statistics can
    /// afford to count (see [`CountedKeys`]).
    fn lookup_cost(&self) -> u64 {
        1
    }

    /// For a scheme built on a hash ring: its points (hash, server), in
    /// ring order, for drawing.
    fn ring_points(&self) -> Option<&[(u64, u32)]> {
        None
    }
}

/// A placement scheme, as a policy that places by key routes (see
/// [`Routing::Keys`](crate::policy::Routing::Keys)): its placement is built
/// from the member set and the scenario's settings.
pub struct Scheme {
    /// The scenario fields its placement is built from: a change of one
    /// rebuilds every chooser's placement.
    pub settings: &'static [&'static str],
    /// Its placement over `members` (ascending, not empty).
    pub build: fn(members: &[u32], scenario: &Scenario) -> Rc<dyn KeyPlacement>,
}

/// The share of keys `0..keys` that `before` and `after` place on different
/// servers (with no load).
pub fn moved_fraction(before: &dyn KeyPlacement, after: &dyn KeyPlacement, keys: u64) -> f64 {
    let moved = (0..keys).filter(|&k| before.place(k, &Unloaded) != after.place(k, &Unloaded)).count();
    moved as f64 / keys as f64
}

/// How many of keys `0..keys` each member holds, member by member.
pub fn key_counts(placement: &dyn KeyPlacement, keys: u64) -> Vec<u64> {
    key_counts_of(placement, 0..keys)
}

/// How many of `keys` each member holds, member by member.
pub fn key_counts_of(placement: &dyn KeyPlacement, keys: impl Iterator<Item = u64>) -> Vec<u64> {
    let members = placement.members();
    let mut counts = vec![0u64; members.len()];
    for key in keys {
        let server = placement.place(key, &Unloaded);
        if let Ok(i) = members.binary_search(&server) {
            counts[i] += 1;
        }
    }
    counts
}

/// The spread of per-server shares: (standard deviation over mean, max over mean).
pub fn spread(counts: &[u64]) -> (f64, f64) {
    let n = counts.len() as f64;
    let mean = counts.iter().sum::<u64>() as f64 / n;
    let variance = counts.iter().map(|&c| (c as f64 - mean).powi(2)).sum::<f64>() / n;
    let max = counts.iter().copied().max().unwrap_or(0) as f64;
    (libm::sqrt(variance) / mean, max / mean)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::PolicyKind;

    /// Every scheme, with 100 virtual nodes and c = 1.25.
    fn every_scheme() -> impl Iterator<Item = (PolicyKind, &'static Scheme, Scenario)> {
        PolicyKind::ALL.iter().filter_map(|&policy| {
            let scenario =
                Scenario { policy, virtual_nodes: 100, bounded_load_c: 1.25, ..Scenario::default() };
            Some((policy, policy.scheme()?, scenario))
        })
    }

    #[test]
    fn every_scheme_places_every_key_on_a_member() {
        let members = [2, 3, 5, 8, 13];
        assert_eq!(every_scheme().count(), SCHEMES.len());
        for (policy, scheme, scenario) in every_scheme() {
            let placement = (scheme.build)(&members, &scenario);
            assert_eq!(placement.members(), members);
            for key in 0..2_000 {
                assert!(members.contains(&placement.place(key, &Unloaded)), "{policy:?} key {key}");
            }
        }
    }

    /// Catches a scheme that reads anything but its input (a hash map's
    /// random seed, an address, the clock): two balancers building from
    /// the same members would then disagree.
    #[test]
    fn a_placement_built_twice_agrees_with_itself() {
        let members: Vec<u32> = (0..20).collect();
        for (policy, scheme, scenario) in every_scheme() {
            let (a, b) = ((scheme.build)(&members, &scenario), (scheme.build)(&members, &scenario));
            assert_eq!(moved_fraction(a.as_ref(), b.as_ref(), 5_000), 0.0, "{policy:?}");
        }
    }

    /// Balancers that saw different membership changes agree once they
    /// hold the same members: a hash scheme's placement is a function of
    /// the member set alone, so one rebuilt after a server left and came
    /// back, or after another was added and removed, is the one built
    /// fresh. Fails for a `rebuilt` that keeps state from before (stale
    /// members, a ring patched rather than rebuilt). The mapping table is
    /// left out: its history is its point, which is why its copies lag.
    #[test]
    fn a_hash_placement_rebuilt_after_changes_agrees_with_one_built_fresh() {
        let members: Vec<u32> = (0..20).collect();
        let without_7: Vec<u32> = members.iter().copied().filter(|&m| m != 7).collect();
        let with_20: Vec<u32> = (0..21).collect();
        for (policy, scheme, scenario) in every_scheme().filter(|(policy, ..)| *policy != PolicyKind::TABLE) {
            let fresh = (scheme.build)(&members, &scenario);
            for detour in [&without_7, &with_20] {
                let back = (scheme.build)(&members, &scenario).rebuilt(detour).rebuilt(&members);
                assert_eq!(back.members(), members, "{policy:?}");
                assert_eq!(
                    moved_fraction(fresh.as_ref(), back.as_ref(), 5_000),
                    0.0,
                    "{policy:?} via {detour:?}"
                );
                let away = (scheme.build)(&members, &scenario).rebuilt(detour);
                assert!(
                    moved_fraction(fresh.as_ref(), away.as_ref(), 5_000) > 0.0,
                    "{policy:?}: {detour:?} moved nothing"
                );
            }
        }
    }

    #[test]
    fn one_member_takes_every_key() {
        for (policy, scheme, scenario) in every_scheme() {
            let placement = (scheme.build)(&[7], &scenario);
            assert!((0..100).all(|k| placement.place(k, &Unloaded) == 7), "{policy:?}");
        }
    }

    #[test]
    fn spread_of_equal_counts_is_zero() {
        assert_eq!(spread(&[5, 5, 5]), (0.0, 1.0));
        let (cov, max) = spread(&[0, 10]);
        assert!((cov - 1.0).abs() < 1e-12 && (max - 2.0).abs() < 1e-12);
    }
}
