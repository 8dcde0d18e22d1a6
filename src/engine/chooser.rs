//! The choosers (clients choosing for themselves, or balancers): each one's
//! pool of servers and policy, and one table of what every chooser knows
//! about each server of its pool.
//!
//! The table is kept in one piece, chooser after chooser: with 1,000 clients
//! each choosing among 1,000 servers it is a million entries (16 MB) read at
//! random, and one allocation can ask for huge pages. Clients choosing for
//! themselves also keep, place for place, whether each of their connections
//! is warm.

mod ejection;

use super::connections::Connections;
use super::{huge_pages, Timing};
use crate::keys::{Placement, Scheme, Unloaded};
use crate::policy::{self, Board, Compared, Known, PackedLoad, Pick, Policy, Seen, View};
use crate::rng::{Draw, SimRng};
use crate::scenario::PolicyKind;
use crate::time::Time;
use std::rc::Rc;

struct Member {
    /// Servers this chooser may pick, ascending; `None` means all.
    pool: Option<Vec<u32>>,
    /// Where this chooser's entries begin in the table.
    start: usize,
    policy: Box<dyn Policy>,
    /// Where a key-placing policy sends each key, over this pool: its copy,
    /// which under a lagging mapping table may be an old version.
    placement: Option<Rc<dyn Placement>>,
    /// Newer versions of its table, each with when it takes it, oldest
    /// first; empty when its copy is current.
    pending: Vec<(Time, Rc<dyn Placement>)>,
    /// Servers ejected from `pool`, each with when it returns
    /// (`Time::NEVER`: when a health check passes).
    ejected: Vec<(u32, Time)>,
}

pub struct Choosers {
    members: Vec<Member>,
    /// Entry `start + position` is what a chooser knows of the server at
    /// `position` of its pool.
    known: Vec<Known>,
    /// The connections to the servers, entry for entry with `known`.
    connections: Connections,
    servers: usize,
    /// The servers that are members, ascending (every server until the
    /// membership first changes).
    active: Vec<u32>,
    /// Whether every pool is an explicit list: from the first membership
    /// change on, `None` ("every server") would take in servers that left.
    explicit: bool,
    /// Requests routed by key while the chooser's table copy lagged, and
    /// those of them sent to another server than the current version names.
    lag_routes: u64,
    misrouted: u64,
    /// Each server's nominal weight, for the weighted policies.
    weights: Vec<f64>,
    /// With several request classes: each class's mean service time (ms),
    /// and, entry for entry with `known`, the work each chooser has in flight
    /// at each server (the sum of its requests' class means). Empty with one
    /// class, where work is requests.
    class_means: Vec<f32>,
    work: Vec<f32>,
    /// Whether the policy times round trips, or hears from idle servers.
    times_round_trips: bool,
    hears_idle_servers: bool,
    /// With class pools, each class's range of servers: every chooser is
    /// then one member per class, `per_chooser` in a row, each with its
    /// own pool, policy and knowledge. Empty: one member per chooser.
    class_pools: Vec<(u32, u32)>,
    per_chooser: usize,
    /// Whether a request's class picks its chooser's member.
    by_class: bool,
    /// The policy every member runs, and its d.
    kind: (PolicyKind, u32),
}

impl Choosers {
    /// Draws each chooser's pool of `subset_size` servers (all when `None`)
    /// and builds its policy, chooser by chooser. `clients_connect`: whether
    /// the choosers are clients, who open connections to servers themselves;
    /// `weights`, each server's nominal weight.
    pub fn new(
        (count, class_pools): (usize, &[(u32, u32)]),
        (weights, class_means): (Vec<f64>, Vec<f64>),
        (subset_size, clients_connect, timing): (Option<u32>, bool, &Timing),
        (kind, choices): (PolicyKind, u32),
        rng: &mut SimRng,
    ) -> Choosers {
        let servers = weights.len();
        let mut scratch: Vec<u32> = (0..servers as u32).collect();
        let per_chooser = class_pools.len().max(1);
        let mut members = Vec::with_capacity(count * per_chooser);
        let mut start = 0;
        let every_server = scratch.clone();
        for member in 0..count * per_chooser {
            let range = class_pools.get(member % per_chooser);
            let pool = draw_member_pool(range, &every_server, subset_size, &mut scratch, rng);
            let len = len_of(&pool, servers);
            let policy = policy::build(kind, choices, &pool_weights(&pool, &weights), rng);
            members.push(Member {
                pool,
                start,
                policy,
                placement: None,
                pending: Vec::new(),
                ejected: Vec::new(),
            });
            start += len;
        }
        let connections = Connections::new(start, clients_connect, timing);
        let several = class_means.len() > 1;
        Choosers {
            members,
            known: huge_pages::filled(start, Known::default()),
            connections,
            servers,
            active: (0..servers as u32).collect(),
            explicit: false,
            lag_routes: 0,
            misrouted: 0,
            weights,
            class_means: if several { class_means.iter().map(|&m| m as f32).collect() } else { Vec::new() },
            work: if several { vec![0.0; start] } else { Vec::new() },
            times_round_trips: kind.times_round_trips(),
            hears_idle_servers: kind.hears_idle_servers(),
            class_pools: class_pools.to_vec(),
            per_chooser,
            by_class: !class_pools.is_empty(),
            kind: (kind, choices),
        }
    }

    /// The member of chooser `base` (a client or balancer) that routes
    /// requests of `class`: the chooser itself without class pools.
    #[inline]
    pub fn member(&self, base: u32, class: u8) -> usize {
        if self.by_class {
            base as usize * self.per_chooser + usize::from(class)
        } else {
            base as usize
        }
    }

    pub fn count(&self) -> usize {
        self.members.len()
    }

    /// Whether servers falling idle should be reported to the choosers.
    pub fn hear_idle_servers(&self) -> bool {
        self.hears_idle_servers
    }

    /// `server` fell idle and tells `chooser`; false when the server is not
    /// in that chooser's pool (the report is lost).
    pub fn on_idle(&mut self, chooser: usize, server: u32) -> bool {
        let Some(position) = self.position_of(chooser, server) else { return false };
        self.members[chooser].policy.on_idle(position);
        true
    }

    pub fn pool_len(&self, chooser: usize) -> usize {
        len_of(&self.members[chooser].pool, self.servers)
    }

    pub fn position_of(&self, chooser: usize, server: u32) -> Option<usize> {
        match &self.members[chooser].pool {
            None => Some(server as usize).filter(|&p| p < self.servers),
            Some(pool) => pool.binary_search(&server).ok(),
        }
    }

    pub fn server_at(&self, chooser: usize, position: usize) -> u32 {
        server_at(&self.members[chooser].pool, position)
    }

    pub fn entry_mut(&mut self, chooser: usize, position: usize) -> &mut Known {
        &mut self.known[self.members[chooser].start + position]
    }

    /// The handshake `chooser` owes before sending to the server at
    /// `position` at `now`; the connection is warm from then on.
    pub fn connect(&mut self, chooser: usize, position: usize, now: Time, timing: &Timing) -> Time {
        self.connections.open(self.members[chooser].start + position, now, timing)
    }

    /// Hints that `chooser` will soon use what it knows of the server at
    /// `position`, and its connection to it.
    pub fn prefetch(&self, chooser: usize, position: usize) {
        let entry = self.members[chooser].start + position;
        if let Some(known) = self.known.get(entry) {
            super::prefetch::prefetch(known);
        }
        self.connections.prefetch(entry);
    }

    /// Runs `chooser`'s policy on what it knows. `avoid` is the server that
    /// just sent a request back, if any.
    pub fn pick(
        &mut self,
        chooser: usize,
        now: Time,
        board: Board,
        (avoid, key): (Option<u32>, Option<u64>),
        rng: &mut SimRng,
    ) -> Pick {
        let avoid = avoid.and_then(|server| self.position_of(chooser, server));
        let len = self.pool_len(chooser);
        let Member { pool, start, policy, placement, pending, .. } = &mut self.members[chooser];
        let known = &self.known[*start..*start + len];
        let work = self.work.get(*start..*start + len).unwrap_or(&[]);
        let placement = placement.as_deref();
        let pick =
            policy.pick(&View { now, pool: pool.as_deref(), known, work, board, avoid, key, placement }, rng);
        if let (Some((_, current)), Some(key)) = (pending.last(), key) {
            self.lag_routes += 1;
            let server = server_at(pool, pick.position);
            self.misrouted += u64::from(current.place(key, &Unloaded) != server);
        }
        pick
    }

    /// Requests routed by key while their chooser's table copy lagged, and
    /// those of them sent elsewhere than the current version says.
    pub fn lag_counts(&self) -> (u64, u64) {
        (self.lag_routes, self.misrouted)
    }

    /// Where `chooser` places keys, if its policy does.
    pub fn placement(&self, chooser: usize) -> Option<&dyn Placement> {
        self.members.get(chooser)?.placement.as_deref()
    }

    /// Whether the policy places requests by their key.
    pub fn reads_keys(&self) -> bool {
        self.members.first().is_some_and(|m| m.placement.is_some())
    }

    /// Builds every chooser's placement over its pool for `scheme`, or
    /// none, and returns the one over every member. Choosers whose pool is
    /// every member share that one, and neighbours with equal pools one.
    pub fn place_keys(&mut self, scheme: Option<Scheme>) -> Option<Rc<dyn Placement>> {
        let shared = scheme.map(|scheme| scheme.build(&self.active));
        let mut last: Option<(&[u32], Rc<dyn Placement>)> = None;
        for member in &mut self.members {
            member.pending.clear();
            member.placement = match (&member.pool, scheme) {
                (Some(pool), Some(_)) if *pool == self.active => shared.clone(),
                (Some(pool), Some(scheme)) => {
                    let built = match &last {
                        Some((previous, built)) if *previous == pool.as_slice() => built.clone(),
                        _ => scheme.build(pool),
                    };
                    last = Some((pool, built.clone()));
                    Some(built)
                }
                _ => shared.clone(),
            };
        }
        shared
    }

    /// Gives every chooser its placement for the new member set, rebuilt
    /// from the latest version it holds or will hold (so a mapping table
    /// moves only what must move); one whose pool is every member takes
    /// `directory`, the version over all of them. `due` says when chooser
    /// `member` takes it: `None` at once, else it keeps routing by its copy
    /// until then (a lagging table).
    pub fn update_placements(&mut self, directory: &Rc<dyn Placement>, due: impl Fn(usize) -> Option<Time>) {
        let mut last: Option<(*const u8, Vec<u32>, Rc<dyn Placement>)> = None;
        for (index, member) in self.members.iter_mut().enumerate() {
            let Some(held) = member.pending.last().map(|(_, p)| p).or(member.placement.as_ref()).cloned()
            else {
                continue;
            };
            let pool = member.pool.as_deref().unwrap_or(&self.active);
            let next = if pool == directory.members() {
                directory.clone()
            } else {
                let from = Rc::as_ptr(&held) as *const u8;
                match &last {
                    Some((previous, members, built)) if *previous == from && members == pool => built.clone(),
                    _ => {
                        let built = held.rebuilt(pool);
                        last = Some((from, pool.to_vec(), built.clone()));
                        built
                    }
                }
            };
            match due(index) {
                Some(at) => member.pending.push((at, next)),
                None => {
                    member.pending.clear();
                    member.placement = Some(next);
                }
            }
        }
    }

    /// Chooser `member` takes every newer version of its table due by `now`.
    pub fn take_tables(&mut self, member: usize, now: Time) {
        let Some(member) = self.members.get_mut(member) else { return };
        let due = member.pending.iter().take_while(|(at, _)| *at <= now).count();
        if let Some((_, newest)) = member.pending.drain(..due).next_back() {
            member.placement = Some(newest);
        }
    }

    /// What `chooser`'s last pick, made at `now` on `board` for a request
    /// with `key`, compared: its candidates (added to `into`, as pool
    /// positions) and how.
    pub fn compared(
        &self,
        chooser: usize,
        (now, board, key): (Time, Board, Option<u64>),
        into: &mut Vec<Seen>,
    ) -> Option<Compared> {
        let len = self.pool_len(chooser);
        let Member { pool, start, policy, placement, .. } = &self.members[chooser];
        let known = &self.known[*start..*start + len];
        let work = self.work.get(*start..*start + len).unwrap_or(&[]);
        let (avoid, placement) = (None, placement.as_deref());
        policy.compared(&View { now, pool: pool.as_deref(), known, work, board, avoid, key, placement }, into)
    }

    /// The client or balancer a member belongs to.
    pub fn base_of(&self, member: usize) -> u32 {
        (member / self.per_chooser) as u32
    }

    /// A request goes out to the server at `position`: count it, and assume
    /// it adds one to that server's load.
    pub fn on_send(&mut self, chooser: usize, position: usize, slots: u32, class: u8) {
        self.entry_mut(chooser, position).sent(slots);
        self.add_work(chooser, position, class, 1.0);
    }

    /// Adds (or, with `sign` −1, takes back) a request of `class` to the
    /// work `chooser` has in flight at `position`.
    fn add_work(&mut self, chooser: usize, position: usize, class: u8, sign: f32) {
        if let Some(&mean) = self.class_means.get(usize::from(class)) {
            let entry = &mut self.work[self.members[chooser].start + position];
            *entry = (*entry + sign * mean).max(0.0);
        }
    }

    /// A response or bounce came back from `server`, carrying its load;
    /// `round_trip`, for a response to a request never sent back, is how long
    /// after its creation it came back (at `now`).
    pub fn on_return(
        &mut self,
        chooser: usize,
        server: u32,
        (reported, measured_at): (PackedLoad, Time),
        (class, round_trip): (u8, Option<Time>),
        now: Time,
    ) {
        if let Some(position) = self.position_of(chooser, server) {
            let known = self.entry_mut(chooser, position);
            known.in_flight = known.in_flight.saturating_sub(1);
            known.learn(reported, measured_at);
            self.add_work(chooser, position, class, -1.0);
            if let (true, Some(round_trip)) = (self.times_round_trips, round_trip) {
                self.members[chooser].policy.on_response(position, round_trip, now);
            }
        }
    }

    /// `chooser` cancelled its request of `class` at `server` (a hedge's
    /// loser): it is no longer in flight there.
    pub fn on_cancel(&mut self, chooser: usize, server: u32, class: u8) {
        if let Some(position) = self.position_of(chooser, server) {
            let known = self.entry_mut(chooser, position);
            known.in_flight = known.in_flight.saturating_sub(1);
            self.add_work(chooser, position, class, -1.0);
        }
    }

    /// Gives every chooser a new policy of `kind`.
    pub fn rebuild_policies(&mut self, (kind, choices): (PolicyKind, u32), rng: &mut SimRng) {
        self.kind = (kind, choices);
        for chooser in 0..self.members.len() {
            self.rebuild_policy(chooser, rng);
        }
        self.times_round_trips = kind.times_round_trips();
        self.hears_idle_servers = kind.hears_idle_servers();
    }

    /// Gives `chooser` a new policy over its pool.
    fn rebuild_policy(&mut self, chooser: usize, rng: &mut SimRng) {
        let weights = pool_weights(&self.members[chooser].pool, &self.weights);
        self.members[chooser].policy = policy::build(self.kind.0, self.kind.1, &weights, rng);
    }

    /// Draws every chooser a new pool among the members.
    pub fn redraw_pools(&mut self, subset_size: Option<u32>, rng: &mut SimRng) {
        self.lift_ejections(rng);
        let mut scratch = self.active.clone();
        let per_chooser = self.per_chooser;
        let members = &self.active;
        let pools: Vec<_> = (0..self.members.len())
            .map(|member| {
                let range = self.class_pools.get(member % per_chooser);
                let pool = draw_member_pool(range, members, subset_size, &mut scratch, rng);
                pool.or_else(|| self.explicit.then(|| members.clone()))
            })
            .collect();
        self.set_pools(pools);
    }

    /// The membership changed to `members` (ascending): each chooser's pool
    /// becomes an explicit list of members. A pool that held every member
    /// it could (of its class's range) holds every one it can now, newcomers
    /// included; a drawn subset keeps its members that stayed and draws, in
    /// place of each that left, one from the rest at random.
    pub fn change_members(&mut self, members: &[u32], rng: &mut SimRng) {
        self.lift_ejections(rng);
        let per_chooser = self.per_chooser;
        let eligible = |among: &[u32], member: usize| -> Vec<u32> {
            match self.class_pools.get(member % per_chooser) {
                Some(&(first, last)) => {
                    among.iter().copied().filter(|s| (first..=last).contains(s)).collect()
                }
                None => among.to_vec(),
            }
        };
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
                kept.sort_unstable();
                Some(kept)
            })
            .collect();
        // The old pools are read as they were (`None` over the old servers).
        self.set_pools(pools);
        self.active = members.to_vec();
        self.servers = self.servers.max(members.last().map_or(0, |&s| s as usize + 1));
        self.explicit = true;
    }

    /// A server joins with nominal weight `weight` (the next index).
    pub fn add_server(&mut self, weight: f64) {
        self.weights.push(weight);
    }

    /// Gives every chooser its new pool, keeping what each knew of the
    /// servers in both its old and its new pool, and its connections to them.
    fn set_pools(&mut self, pools: Vec<Option<Vec<u32>>>) {
        let total = pools.iter().map(|pool| len_of(pool, self.servers)).sum();
        let mut known = huge_pages::filled(total, Known::default());
        let mut work = if self.work.is_empty() { Vec::new() } else { vec![0.0; total] };
        let mut connections = self.connections.cold(total);
        let mut start = 0;
        for (chooser, pool) in pools.into_iter().enumerate() {
            let len = len_of(&pool, self.servers);
            for position in 0..len {
                if let Some(old) = self.position_of(chooser, server_at(&pool, position)) {
                    let old = self.members[chooser].start + old;
                    known[start + position] = self.known[old];
                    if let Some(w) = work.get_mut(start + position) {
                        *w = self.work[old];
                    }
                    self.connections.copy_into(old, &mut connections, start + position);
                }
            }
            let member = &mut self.members[chooser];
            member.pool = pool;
            member.start = start;
            start += len;
        }
        self.known = known;
        self.work = work;
        self.connections = connections;
    }
}

/// The nominal weight of each position of a pool.
fn pool_weights(pool: &Option<Vec<u32>>, weights: &[f64]) -> Vec<f64> {
    match pool {
        None => weights.to_vec(),
        Some(pool) => pool.iter().map(|&server| weights[server as usize]).collect(),
    }
}

/// How many servers a pool holds (`None`: all of them).
fn len_of(pool: &Option<Vec<u32>>, servers: usize) -> usize {
    pool.as_ref().map_or(servers, Vec::len)
}

/// The server at `position` of a pool (`None`: all servers, in order).
fn server_at(pool: &Option<Vec<u32>>, position: usize) -> u32 {
    pool.as_ref().map_or(position as u32, |pool| pool[position])
}

/// Draws a member's pool: of `size` servers (all when `None`) out of the
/// `members` of its class's range of servers, or, without class pools, out
/// of all of them (`None` when it is all of them). `scratch` is any
/// permutation of the members.
fn draw_member_pool(
    range: Option<&(u32, u32)>,
    members: &[u32],
    size: Option<u32>,
    scratch: &mut [u32],
    rng: &mut SimRng,
) -> Option<Vec<u32>> {
    let Some(&(first, last)) = range else { return draw_pool(size, scratch.len(), scratch, rng) };
    let mut range: Vec<u32> = members.iter().copied().filter(|s| (first..=last).contains(s)).collect();
    let len = range.len();
    // The whole range, in order, when the size asks for all of it.
    Some(draw_pool(size, len, &mut range, rng).unwrap_or(range))
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
    pool.sort_unstable();
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

    /// What `chooser` knows of the server at `position` of its pool.
    fn entry(choosers: &Choosers, chooser: usize, position: usize) -> &Known {
        &choosers.known[choosers.members[chooser].start + position]
    }

    /// (server, requests in flight) for each server of `chooser`'s pool with some.
    fn in_flight(choosers: &Choosers, chooser: usize) -> Vec<(u32, u32)> {
        (0..choosers.pool_len(chooser))
            .map(|p| (choosers.server_at(chooser, p), entry(choosers, chooser, p).in_flight))
            .filter(|&(_, n)| n > 0)
            .collect()
    }

    #[test]
    fn redrawing_pools_keeps_shared_knowledge() {
        let mut rng = SimRng::new(1);
        let timing = Timing {
            client_delay: Time::ZERO,
            balancer_delay: Time::ZERO,
            handshake: Time(7),
            queue_timeout: None,
            idle_timeout: None,
            board_refresh: None,
            hedge_after: None,
            hedge_percentile: None,
            hedging: false,
            retry_backoff: None,
        };
        let mut choosers = Choosers::new(
            (3, &[]),
            (vec![1.0; 10], vec![1.0]),
            (Some(4), true, &timing),
            (PolicyKind::Random, 2),
            &mut rng,
        );
        for chooser in 0..3 {
            for position in 0..4 {
                for _ in 0..=position {
                    choosers.on_send(chooser, position, 10, 0);
                }
            }
        }
        let before: Vec<_> = (0..3).map(|c| in_flight(&choosers, c)).collect();
        choosers.redraw_pools(Some(6), &mut rng);
        for (chooser, before) in before.iter().enumerate() {
            assert_eq!(choosers.pool_len(chooser), 6);
            let kept: Vec<_> =
                before.iter().copied().filter(|&(s, _)| choosers.position_of(chooser, s).is_some()).collect();
            assert_eq!(in_flight(&choosers, chooser), kept);
        }
        // A response from a server no longer in the pool changes nothing.
        let outside = (0..10).find(|&s| choosers.position_of(0, s).is_none()).unwrap();
        let total = |c: &Choosers| (0..6).map(|p| entry(c, 0, p).in_flight).sum::<u32>();
        let sum = total(&choosers);
        choosers.on_return(0, outside, (policy::Load::new(0, 1).into(), Time(5)), (0, None), Time(5));
        assert_eq!(total(&choosers), sum);
    }
}
