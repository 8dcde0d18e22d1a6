//! Each chooser's pool: drawn at the start (a subset of the servers, or of
//! its class's range, or all of them, or its aperture), drawn again when
//! the subset size changes, and changed when servers join or leave. What a chooser knew of
//! the servers in both its old and its new pool is kept where it was (in
//! their slots), with its connections to them.

use super::{aperture, Choosers};
use crate::rng::{Draw, SimRng};
use crate::scenario::{Scenario, SubsetMode};

/// How each chooser's pool is drawn: `size` servers (all when `None`), at
/// random per chooser or by deterministic subsetting; or its aperture of
/// at least `min_aperture` servers' worth.
#[derive(Clone, Copy, Debug)]
pub struct Subsets {
    pub size: Option<u32>,
    pub mode: SubsetMode,
    pub min_aperture: u32,
}

impl Subsets {
    pub fn of(scenario: &Scenario) -> Subsets {
        Subsets {
            size: scenario.subset_size,
            mode: scenario.subset_mode,
            min_aperture: scenario.min_aperture,
        }
    }

    #[cfg(test)]
    pub fn random(size: Option<u32>) -> Subsets {
        Subsets { size, mode: SubsetMode::Random, min_aperture: 12 }
    }
}

/// A chooser's pool (`None`: every server) and, under an aperture, each
/// of its servers with the length of ring it shares with the chooser's
/// arc, ascending (empty otherwise).
type Drawn = (Option<Vec<u32>>, Vec<(u32, f64)>);

impl Choosers {
    /// Draws every chooser a new pool among the members.
    pub fn redraw_pools(&mut self, subsets: Subsets, rng: &mut SimRng) {
        self.lift_ejections(rng);
        self.subsets = subsets;
        let mut scratch = self.active.clone();
        let members = &self.active;
        let drawn: Vec<Drawn> = (0..self.members.len())
            .map(|member| {
                let (pool, shares) = self.draw_pool(member, members, &mut scratch, rng);
                (pool.or_else(|| self.explicit.then(|| members.clone())), shares)
            })
            .collect();
        self.set_drawn_pools(drawn);
    }

    /// Draws chooser `member` a pool among `members` (ascending), as its
    /// subsets say; `scratch` is any permutation of the members.
    fn draw_pool(&self, member: usize, members: &[u32], scratch: &mut [u32], rng: &mut SimRng) -> Drawn {
        let range = self.class_pools.get(member % self.per_chooser);
        let chooser = (member / self.per_chooser, self.members.len() / self.per_chooser);
        draw_member_pool((range, members, &self.weights), (self.subsets, chooser), scratch, rng)
    }

    /// Gives every chooser its drawn pool and its shares of the ring.
    fn set_drawn_pools(&mut self, drawn: Vec<Drawn>) {
        let (pools, shares): (Vec<_>, Vec<_>) = drawn.into_iter().unzip();
        self.set_pools(pools);
        self.members.iter_mut().zip(shares).for_each(|(member, shares)| member.shares = shares);
    }

    /// The membership changed to `members` (ascending): each chooser's pool
    /// becomes an explicit list of members. A pool that held every member
    /// it could (of its class's range) holds every one it can now, newcomers
    /// included; a drawn subset keeps its members that stayed and draws, in
    /// place of each that left, one from the rest at random.
    pub fn change_members(&mut self, members: &[u32], rng: &mut SimRng) {
        self.lift_ejections(rng);
        if self.subsets.mode == SubsetMode::Aperture {
            // An aperture is a place on the ring of the members now.
            let drawn =
                (0..self.members.len()).map(|member| self.draw_pool(member, members, &mut [], rng)).collect();
            self.set_drawn_pools(drawn);
            return self.now_members(members);
        }
        let per_chooser = self.per_chooser;
        let eligible =
            |among: &[u32], member: usize| in_range(self.class_pools.get(member % per_chooser), among);
        let pools: Vec<_> = (0..self.members.len())
            .map(|member| {
                let before = eligible(&self.active, member);
                let now = eligible(members, member);
                let pool = self.members[member].pool.as_ref().unwrap_or(&self.active);
                if *pool == before {
                    return Some(now);
                }
                let mut kept: Vec<u32> =
                    pool.iter().copied().filter(|s| members.binary_search(s).is_ok()).collect();
                let mut rest: Vec<u32> = now.into_iter().filter(|s| pool.binary_search(s).is_err()).collect();
                for _ in kept.len()..pool.len() {
                    if rest.is_empty() {
                        break;
                    }
                    kept.push(rest.swap_remove(rng.index(rest.len())));
                }
                crate::sort::sort(&mut kept);
                Some(kept)
            })
            .collect();
        // The old pools are read as they were (`None` over the old servers).
        self.set_pools(pools);
        self.now_members(members);
    }

    /// The members are `members` (ascending) from now on, each pool an
    /// explicit list of them.
    fn now_members(&mut self, members: &[u32]) {
        self.active = members.to_vec();
        self.servers = self.servers.max(members.last().map_or(0, |&s| s as usize + 1));
        self.explicit = true;
    }

    /// A server joins with nominal weight `weight` (the next index).
    pub fn add_server(&mut self, weight: f64) {
        self.weights.push(weight);
    }

    /// The servers that are members, ascending.
    pub fn members(&self) -> &[u32] {
        &self.active
    }

    /// The nominal weight of `server` (1 for one unknown).
    pub fn weight(&self, server: u32) -> f64 {
        self.weights.get(server as usize).copied().unwrap_or(1.0)
    }

    /// The weighted policies read `weight` for `server` from now on: each
    /// chooser whose pool holds it builds its policy anew.
    pub fn set_weight(&mut self, server: u32, weight: f64, rng: &mut SimRng) {
        let Some(nominal) = self.weights.get_mut(server as usize) else { return };
        *nominal = weight;
        for member in 0..self.members.len() {
            if self.position_of(member, server).is_some() {
                self.rebuild_policy(member, rng);
            }
        }
    }

    /// Gives every chooser its new pool, keeping what each knew of the
    /// servers in both its old and its new pool, and its connections to
    /// them, where they are (`slots.rs`). The parts a pool outgrows grow
    /// first, all at once.
    fn set_pools(&mut self, pools: Vec<Option<Vec<u32>>>) {
        let rooms: Vec<usize> = pools.iter().map(|pool| len_of(pool, self.servers)).collect();
        self.make_room(&rooms);
        for (chooser, pool) in pools.into_iter().enumerate() {
            self.reslot(chooser, pool);
        }
    }
}

/// The weight a policy reads at each position of a pool: the server's
/// nominal weight or, under an aperture (`shares` not empty), the length
/// of ring it shares with the chooser's arc.
pub(super) fn pool_weights(pool: &Option<Vec<u32>>, weights: &[f64], shares: &[(u32, f64)]) -> Vec<f64> {
    let weight = |server: u32| match shares.binary_search_by_key(&server, |&(s, _)| s) {
        Ok(at) => shares[at].1,
        Err(_) => weights[server as usize],
    };
    match pool {
        None if shares.is_empty() => weights.to_vec(),
        None => (0..weights.len() as u32).map(weight).collect(),
        Some(pool) => pool.iter().map(|&server| weight(server)).collect(),
    }
}

/// The servers of `among` (ascending) in a class's `range`, or all of them.
fn in_range(range: Option<&(u32, u32)>, among: &[u32]) -> Vec<u32> {
    match range {
        Some(&(first, last)) => among.iter().copied().filter(|s| (first..=last).contains(s)).collect(),
        None => among.to_vec(),
    }
}

/// How many servers a pool holds (`None`: all of them).
pub(super) fn len_of(pool: &Option<Vec<u32>>, servers: usize) -> usize {
    pool.as_ref().map_or(servers, Vec::len)
}

/// The server at `position` of a pool (`None`: all servers, in order).
pub(super) fn server_at(pool: &Option<Vec<u32>>, position: usize) -> u32 {
    pool.as_ref().map_or(position as u32, |pool| pool[position])
}

/// Draws the pool of a member of chooser `chooser` of `choosers`: its
/// aperture on the ring of the `members` (ascending) of its class's range
/// of servers, whose nominal weights `weights` holds, or of all members
/// without class pools; else as [`draw_subset`] draws it.
pub(super) fn draw_member_pool(
    (range, members, weights): (Option<&(u32, u32)>, &[u32], &[f64]),
    (subsets, (chooser, choosers)): (Subsets, (usize, usize)),
    scratch: &mut [u32],
    rng: &mut SimRng,
) -> Drawn {
    if subsets.mode != SubsetMode::Aperture {
        return (draw_subset((range, members), (subsets, chooser), scratch, rng), Vec::new());
    }
    let ring = in_range(range, members);
    let shares = aperture::shares(&ring, weights, (chooser, choosers), subsets.min_aperture);
    (Some(shares.iter().map(|&(server, _)| server).collect()), shares)
}

/// Draws the pool of a member of chooser `chooser`: of `subsets.size`
/// servers (all when `None`) out of the `members` (ascending) of its
/// class's range of servers, or, without class pools, out of all of them
/// (`None` when it is all of them). `scratch` is any permutation of the
/// members.
fn draw_subset(
    (range, members): (Option<&(u32, u32)>, &[u32]),
    (subsets, chooser): (Subsets, usize),
    scratch: &mut [u32],
    rng: &mut SimRng,
) -> Option<Vec<u32>> {
    let deterministic = subsets.mode == SubsetMode::Deterministic;
    let Some(&(first, last)) = range else {
        return match deterministic {
            true => deterministic_pool(subsets.size, members, chooser),
            false => draw_pool(subsets.size, scratch.len(), scratch, rng),
        };
    };
    let mut range: Vec<u32> = members.iter().copied().filter(|s| (first..=last).contains(s)).collect();
    let len = range.len();
    let pool = match deterministic {
        true => deterministic_pool(subsets.size, &range, chooser),
        false => draw_pool(subsets.size, len, &mut range, rng),
    };
    // The whole range, in order, when the size asks for all of it.
    Some(pool.unwrap_or(range))
}

/// Chooser `chooser`'s pool of `size` out of `servers` by the SRE book's
/// deterministic subsetting ("Load Balancing in the Datacenter"): the
/// servers split into k = servers / size subsets, the choosers into rounds
/// of k; each round shuffles the servers with its number as the seed, and
/// chooser i takes subset i mod k of its round's shuffle. Every k choosers
/// so cover each server once, whatever the run's seed. (`None` when the
/// pool is all of them.)
fn deterministic_pool(size: Option<u32>, servers: &[u32], chooser: usize) -> Option<Vec<u32>> {
    let size = size? as usize;
    if size >= servers.len() {
        return None;
    }
    let subsets = servers.len() / size;
    let mut shuffled = servers.to_vec();
    let mut rng = SimRng::new((chooser / subsets) as u64);
    for i in (1..shuffled.len()).rev() {
        shuffled.swap(i, rng.index(i + 1));
    }
    let start = chooser % subsets * size;
    let mut pool = shuffled[start..start + size].to_vec();
    crate::sort::sort(&mut pool);
    Some(pool)
}

/// Draws a pool of `size` servers out of `servers` (`None` when it is all of them).
/// `scratch` is any permutation of `0..servers`; a partial Fisher–Yates
/// shuffle of it gives a uniform subset.
fn draw_pool(size: Option<u32>, servers: usize, scratch: &mut [u32], rng: &mut SimRng) -> Option<Vec<u32>> {
    let size = size? as usize;
    if size >= servers {
        return None;
    }
    for i in 0..size {
        let j = i + rng.index(servers - i);
        scratch.swap(i, j);
    }
    let mut pool = scratch[..size].to_vec();
    crate::sort::sort(&mut pool);
    Some(pool)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pools_are_distinct_sorted_and_in_range() {
        let mut rng = SimRng::new(8);
        let mut scratch: Vec<u32> = (0..50).collect();
        for _ in 0..100 {
            let pool = draw_pool(Some(7), 50, &mut scratch, &mut rng).unwrap();
            assert_eq!(pool.len(), 7);
            assert!(pool.windows(2).all(|w| w[0] < w[1]));
            assert!(pool.iter().all(|&s| s < 50));
        }
        assert_eq!(draw_pool(Some(50), 50, &mut scratch, &mut rng), None);
        assert_eq!(draw_pool(None, 50, &mut scratch, &mut rng), None);
    }
}
