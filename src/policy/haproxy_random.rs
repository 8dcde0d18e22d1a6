//! HAProxy's `random(<draws>)`, its default `balance` since 3.3 (haproxy
//! `src/backend.c`, `get_server_rnd`): each draw is a random 32-bit hash
//! looked up on the backend's weighted consistent-hash tree
//! (`src/lb_chash.c`), so one server can come up twice, and a server's
//! chance of being drawn is the share of the circle its points own, which
//! is uneven even with equal weights.
//!
//! The tree: a server of weight w has 16 × w points (`BE_WEIGHT_SCALE`),
//! point j of the server with id p at `full_hash(p × 4096 + j)` (Bob
//! Jenkins' avalanche hash; 4096 is `SRV_EWGHT_RANGE`, `hash-key id`, the
//! default); servers are numbered from 1 as HAProxy numbers a backend's.
//! A hash names the server of the nearer of the points either side of it,
//! the one before on a tie (`chash_get_server_hash`).
//!
//! Of two different servers drawn, the one with fewer requests in service
//! per effective weight is kept, the later draw on a tie. HAProxy breaks
//! such a tie first by each server's sessions over the last second, which
//! lbsim does not count.

use super::{ChooserView, Compared, Descriptor, Measure, Pick, Policy, Property, Routing, Seen, MAX_CHOICES};
use crate::rng::{Draw, SimRng};

pub static HAPROXY_RANDOM: Descriptor = Descriptor {
    name: "haproxy-random",
    title: "HAProxy's random(d), on its hash tree",
    description: "of d draws on HAProxy's consistent-hash tree (one may come up twice), the fewest requests in flight per weight (d: choices)",
    properties: &[Property::UsesChoices, Property::ComparesASample, Property::ReadsWeights],
    routing: Routing::Picks(|choices, weights, _| Box::new(HaproxyRandom::new(choices as usize, weights))),
};

/// Points per unit of weight (HAProxy's `BE_WEIGHT_SCALE`).
const POINTS_PER_WEIGHT: f64 = 16.0;

/// The keys one server id spans (`SRV_EWGHT_RANGE`: 256 weights × 16).
const KEYS_PER_ID: u32 = 4096;

/// The most points a server has: HAProxy's weights stop at 256.
const MOST_POINTS: u32 = 256 * 16;

pub struct HaproxyRandom {
    draws: usize,
    /// Each pool position's nominal weight, until the first pick builds the tree.
    weights: Vec<f64>,
    /// Built at the first pick, from the servers the view names: the
    /// policy is rebuilt whenever its pool changes.
    tree: Option<Tree>,
    /// The last pick's draws in order (the first `compared`), for the
    /// picture of its decision.
    drawn: [usize; MAX_CHOICES],
    compared: usize,
}

impl HaproxyRandom {
    /// `draws` hashes per pick; `weights`, the nominal weight of each pool position.
    pub fn new(draws: usize, weights: &[f64]) -> HaproxyRandom {
        let draws = draws.clamp(1, MAX_CHOICES);
        HaproxyRandom { draws, weights: weights.to_vec(), tree: None, drawn: [0; MAX_CHOICES], compared: 0 }
    }
}

/// A backend's consistent-hash tree, as a sorted list of points.
struct Tree {
    /// Each point's key and the pool position of its server, by key.
    points: Vec<(u32, usize)>,
    /// Each pool position's effective weight: how many points it has.
    effective: Vec<u32>,
}

impl Tree {
    /// The tree of a pool whose position `p` holds server `id(p)` (numbered
    /// from 0; HAProxy's ids start at 1) of nominal weight `weights[p]`.
    fn new(weights: &[f64], id: impl Fn(usize) -> usize) -> Tree {
        let effective: Vec<u32> =
            weights.iter().map(|w| ((w * POINTS_PER_WEIGHT).round() as u32).clamp(1, MOST_POINTS)).collect();
        let mut points: Vec<(u32, usize)> = effective
            .iter()
            .enumerate()
            .flat_map(|(position, &count)| {
                let base = (id(position) as u32 + 1).wrapping_mul(KEYS_PER_ID);
                (0..count).map(move |j| (full_hash(base.wrapping_add(j)), position))
            })
            .collect();
        sort_points(&mut points);
        Tree { points, effective }
    }

    /// The pool position a hash names: the server of the nearer point, the
    /// one before it on a tie, the circle wrapping at 2^32.
    fn lookup(&self, hash: u32) -> usize {
        let at = self.points.partition_point(|&(key, _)| key < hash);
        let next = self.points[at % self.points.len()];
        let prev = self.points[(at + self.points.len() - 1) % self.points.len()];
        let before = hash.wrapping_sub(prev.0);
        let after = next.0.wrapping_sub(hash);
        if before <= after {
            prev.1
        } else {
            next.1
        }
    }
}

/// Sorts `points` by key, then position, as `sort_unstable` does, through
/// the sort of `u64`s the event wheel has already: a copy of the standard
/// sort for these pairs of its own weighed 8 KB of the browser's module.
/// Packed as key × 2^32 + position, a pair's number keeps its order, a
/// pool's positions being far under 2^32.
fn sort_points(points: &mut [(u32, usize)]) {
    let mut packed: Vec<u64> =
        points.iter().map(|&(key, position)| u64::from(key) << 32 | position as u64).collect();
    packed.sort_unstable();
    for (point, number) in points.iter_mut().zip(packed) {
        *point = ((number >> 32) as u32, (number & u64::from(u32::MAX)) as usize);
    }
}

/// Bob Jenkins' 32-bit avalanche hash, then a multiply by a prime near ¾
/// of 2^32, HAProxy's `full_hash` (`include/haproxy/intops.h`).
fn full_hash(a: u32) -> u32 {
    let a = a.wrapping_add(0x7ed5_5d16).wrapping_add(a << 12);
    let a = (a ^ 0xc761_c23c) ^ (a >> 19);
    let a = a.wrapping_add(0x1656_67b1).wrapping_add(a << 5);
    let a = a.wrapping_add(0xd3a2_646c) ^ (a << 9);
    let a = a.wrapping_add(0xfd70_46c5).wrapping_add(a << 3);
    let a = (a ^ 0xb55a_4f09) ^ (a >> 16);
    a.wrapping_mul(3_221_225_473)
}

impl Policy for HaproxyRandom {
    fn pick(&mut self, view: &ChooserView, rng: &mut SimRng) -> Pick {
        let weights = &self.weights;
        let tree = self.tree.get_or_insert_with(|| Tree::new(weights, |p| view.server(p)));
        for drawn in &mut self.drawn[..self.draws] {
            *drawn = tree.lookup(rng.next_u64() as u32);
        }
        let drawn = &self.drawn[..self.draws];
        let kept =
            drawn.iter().skip(1).fold(drawn[0], |kept, &later| fewer_per_weight(view, tree, kept, later));
        self.compared = if self.draws > 1 { self.draws } else { 0 };
        Pick::at(kept)
    }

    fn compared(&self, view: &ChooserView, into: &mut Vec<Seen>) -> Option<Compared> {
        if self.compared == 0 {
            return None;
        }
        into.extend(
            self.drawn[..self.compared]
                .iter()
                .map(|&position| Seen { position, amount: f64::from(view.known[position].in_flight) }),
        );
        Some(Compared { measure: Measure::InFlight, fell_back: false })
    }
}

/// Of the server kept so far and a later draw, the one with fewer requests
/// in flight per effective weight, the later on a tie (`get_server_rnd`
/// compares served × the other's weight).
fn fewer_per_weight(view: &ChooserView, tree: &Tree, kept: usize, later: usize) -> usize {
    let cost = |of: usize, by: usize| u64::from(view.known[of].in_flight) * u64::from(tree.effective[by]);
    if cost(later, kept) > cost(kept, later) {
        kept
    } else {
        later
    }
}

#[cfg(test)]
mod tests {
    use super::super::{testing::view, Known};
    use super::*;

    const CIRCLE: f64 = 4_294_967_296.0;

    /// How many of the 2^32 hashes name each pool position. Between
    /// consecutive points a and b, gap g apart, the hashes a to a + ⌊g/2⌋
    /// name a's server and the other g − 1 − ⌊g/2⌋ b's.
    fn hashes_owned(tree: &Tree) -> Vec<u64> {
        let mut owned = vec![0u64; tree.effective.len()];
        for (i, &(key, position)) in tree.points.iter().enumerate() {
            let (next_key, next_position) = tree.points[(i + 1) % tree.points.len()];
            let gap = match next_key.wrapping_sub(key) {
                0 if tree.points.len() == 1 => 1u64 << 32,
                gap => u64::from(gap),
            };
            let mine = (1 + gap / 2).min(gap);
            owned[position] += mine;
            owned[next_position] += gap - mine;
        }
        owned
    }

    #[test]
    fn points_sort_as_the_standard_sort_puts_them() {
        let mut points: Vec<(u32, usize)> =
            (0..2_000u32).map(|i| (full_hash(i % 700) | (i % 3), (i as usize * 7) % 13)).collect();
        points.extend([(u32::MAX, 12), (0, 0), (u32::MAX, 0), (0, 12)]);
        let mut expected = points.clone();
        expected.sort_unstable();
        sort_points(&mut points);
        assert_eq!(points, expected);
    }

    #[test]
    fn points_lie_where_haproxys_full_hash_puts_them() {
        // Reference values from HAProxy's __full_hash, compiled as C.
        assert_eq!(full_hash(0), 2_874_071_335);
        assert_eq!(full_hash(4096), 1_237_450_891);
        assert_eq!(full_hash(4097), 2_761_370_759);
        assert_eq!(full_hash(10 * 4096 + 15), 1_609_685_223);
        let tree = Tree::new(&[1.0, 2.0], |p| p);
        assert_eq!(tree.effective, [16, 32]);
        assert_eq!(tree.points.len(), 48);
        assert!(tree.points.contains(&(1_237_450_891, 0)) && tree.points.contains(&(2_761_370_759, 0)));
    }

    #[test]
    fn a_hash_names_the_nearer_point_the_earlier_on_a_tie() {
        let tree = Tree::new(&[1.0; 10], |p| p);
        let owned = hashes_owned(&tree);
        assert_eq!(owned.iter().sum::<u64>(), 1 << 32);
        for (i, &(key, position)) in tree.points.iter().enumerate() {
            let (next_key, next_position) = tree.points[(i + 1) % tree.points.len()];
            let half = next_key.wrapping_sub(key) / 2;
            assert_eq!(tree.lookup(key), position);
            assert_eq!(tree.lookup(key.wrapping_add(half)), position, "the midpoint goes to the earlier");
            assert_eq!(tree.lookup(key.wrapping_add(half + 1)), next_position);
        }
    }

    #[test]
    fn two_draws_name_one_server_as_often_as_the_trees_shares_say() {
        let n = 10;
        let tree = Tree::new(&[1.0; 10], |p| p);
        let same: f64 = hashes_owned(&tree).iter().map(|&h| (h as f64 / CIRCLE).powi(2)).sum();
        // Each server's share is 16 points' cells between their neighbours'
        // midpoints: for random points its variance is 1/32 of its mean
        // squared, so Σ share² ≈ (1 + 1/32)/n. These ten servers' points
        // give 1.0364/n (shares from 0.71/n to 1.34/n).
        assert!((same * n as f64 - 1.0364).abs() < 1e-4, "Σ share² = {same} = {}/n", same * n as f64);
        let known = [Known::default(); 10];
        let loads = [0; 10];
        let mut policy = HaproxyRandom::new(2, &[1.0; 10]);
        let mut rng = SimRng::new(20261205);
        let picks = 400_000;
        let mut twice = 0;
        for _ in 0..picks {
            let view = view(&known, &loads);
            policy.pick(&view, &mut rng);
            let mut seen = Vec::new();
            policy.compared(&view, &mut seen);
            twice += u32::from(seen[0].position == seen[1].position);
        }
        let rate = f64::from(twice) / f64::from(picks);
        let standard_error = (same * (1.0 - same) / f64::from(picks)).sqrt();
        assert!((rate - same).abs() < 4.0 * standard_error, "{rate} against {same} ± {standard_error}");
        assert!(rate - 1.0 / n as f64 > 4.0 * standard_error, "{rate}: distinguishable from uniform draws");
    }

    /// The pick and draws of `picks` picks over servers of `weights` with
    /// `in_flight` requests out at each.
    fn picks_and_draws(weights: &[f64], in_flight: &[u32], picks: usize) -> Vec<(usize, [usize; 2])> {
        let mut known = vec![Known::default(); weights.len()];
        known.iter_mut().zip(in_flight).for_each(|(k, &f)| k.in_flight = f);
        let loads = vec![0; weights.len()];
        let mut policy = HaproxyRandom::new(2, weights);
        let mut rng = SimRng::new(7);
        (0..picks)
            .map(|_| {
                let pick = policy.pick(&view(&known, &loads), &mut rng).position;
                (pick, [policy.drawn[0], policy.drawn[1]])
            })
            .collect()
    }

    #[test]
    fn of_two_servers_it_keeps_fewer_per_weight_and_the_later_on_a_tie() {
        // 2 in flight at weight 2 against 1 at weight 1: a tie.
        let tied = picks_and_draws(&[2.0, 1.0], &[2, 1], 2_000);
        assert!(tied.iter().any(|(_, [a, b])| a != b));
        assert!(tied.iter().all(|&(pick, [_, later])| pick == later), "ties go to the later draw");
        // 3 in flight at weight 2 against 1 at weight 1: server 1 has fewer per weight.
        let uneven = picks_and_draws(&[2.0, 1.0], &[3, 1], 2_000);
        assert!(uneven.iter().all(|&(pick, [a, b])| pick == if a == b { a } else { 1 }));
    }
}
