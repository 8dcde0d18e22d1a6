//! The choosers (clients choosing for themselves, or balancers): each one's
//! pool of servers and policy, and one table of what every chooser knows
//! about each server of its pool.
//!
//! The table is kept in one piece, chooser after chooser: with 1,000 clients
//! each choosing among 1,000 servers it is a million entries (16 MB) read at
//! random, and one allocation can ask for huge pages. Clients choosing for
//! themselves also keep, slot for slot, whether each of their connections
//! is warm.
//!
//! Here: building the choosers and running their policies. Beside it:
//! `table` (the table itself, column by column), `slots` (where each
//! server's entries stay while a pool changes), `pools` (drawing each
//! pool and changing it as servers come and go),
//! `placements` (where a key-placing chooser sends keys, and its table's
//! lag), `ejection` (outlier ejection and health checks) and `by_server`
//! (a column keyed by chooser and server, as features keep theirs).

mod aperture;
mod by_server;
mod ejection;
mod placements;
mod pools;
mod slots;
mod table;

use super::connections::Connections;
use super::{huge_pages, Timing};
use crate::keys::{KeyPlacement, Unloaded};
use crate::policy::{
    self, Board, ChooserView, Compared, IdleQueue, Known, PackedLoad, PeakAverage, Pick, Policy, Seen,
};
use crate::rng::SimRng;
use crate::scenario::PolicyKind;
use crate::time::Time;
pub use by_server::ByServer;
pub use pools::Subsets;
use pools::{draw_member_pool, len_of, pool_weights, server_at};
use std::rc::Rc;
use table::Table;

struct Member {
    /// Servers this chooser may pick, ascending; `None` means all.
    pool: Option<Vec<u32>>,
    /// The slot of each position of `pool` (`None`: the position itself),
    /// where what this chooser knows of the server there stays while the
    /// pool changes (`slots.rs`).
    slots: Option<Vec<u32>>,
    /// This chooser's part of the table, `room` slots from `start`: one for
    /// each server of its pool, and those left free (fresh) by servers
    /// that left it.
    start: usize,
    room: usize,
    /// Where a key-placing policy sends each key, over this pool: its copy,
    /// which under a lagging mapping table may be an old version.
    placement: Option<Rc<dyn KeyPlacement>>,
    /// Newer versions of its table, each with when it takes it, oldest
    /// first; empty when its copy is current.
    pending: Vec<(Time, Rc<dyn KeyPlacement>)>,
    /// Servers ejected from `pool`, each with when it returns
    /// (`Time::NEVER`: when a health check passes).
    ejected: Vec<(u32, Time)>,
    /// For a policy that times round trips: their average over every
    /// server, what a server never timed costs.
    typical: PeakAverage,
    /// For a policy that hears from idle servers, those that told this
    /// chooser they fell idle.
    idle: IdleQueue,
    /// Whether too few of its servers are in for the panic threshold: its
    /// pool then holds its ejected servers too.
    panicking: bool,
    /// Under an aperture, each server of its pool with the length of ring
    /// it shares with this chooser's arc, ascending: the weights its
    /// policy reads. Empty otherwise.
    shares: Vec<(u32, f64)>,
}

impl Member {
    /// The slot of the server at `position` of the pool, in this chooser's part.
    #[inline]
    fn slot(&self, position: usize) -> usize {
        self.slots.as_ref().map_or(position, |slots| slots[position] as usize)
    }

    /// The table's entry for the server at `position` of the pool.
    #[inline]
    fn entry(&self, position: usize) -> usize {
        self.start + self.slot(position)
    }

    /// What this member knows, from `table`, of the `len` servers of its
    /// pool, for a pick at `now` on `board` of a request with `key`: with
    /// no server to avoid and no idle report taken.
    fn view<'a>(
        &'a self,
        table: &'a Table,
        len: usize,
        (now, board, key): (Time, Board<'a>, Option<u64>),
    ) -> ChooserView<'a> {
        // In pool order, the first `len` slots are the pool's.
        let part = self.start..self.start + if self.slots.is_some() { self.room } else { len };
        let (known, work, round_trips) = table.entries(part, self.slots.as_deref(), self.typical);
        let pool = self.pool.as_deref();
        let placement = self.placement.as_deref();
        ChooserView { now, pool, known, work, board, avoid: None, key, placement, round_trips, idle: None }
    }
}

pub struct Choosers {
    members: Vec<Member>,
    /// Each member's policy, apart from the rest so that it can pick while
    /// reading its member's view.
    policies: Vec<Box<dyn Policy>>,
    /// Entry `start + slot` is what a chooser knows of the server in that
    /// slot of its part, and its connection to it.
    table: Table,
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
    /// How the pools are drawn.
    subsets: Subsets,
    /// With several request classes, each class's mean service time (ms):
    /// the work a request of that class adds (see [`Table::work`]).
    class_means: Vec<f32>,
    /// Whether the policy hears from idle servers. (Whether it times round
    /// trips is whether the table keeps their averages.)
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
    /// Envoy's panic threshold: below this percentage of its servers in,
    /// a chooser routes to all of them (0: never).
    panic_percent: f64,
}

impl Choosers {
    /// Draws each chooser's pool as `subsets` says (all servers when its
    /// size is `None`) and builds its policy, chooser by chooser. `clients_connect`: whether
    /// the choosers are clients, who open connections to servers themselves;
    /// `weights`, each server's nominal weight.
    pub fn new(
        (count, class_pools): (usize, &[(u32, u32)]),
        (weights, class_means): (Vec<f64>, Vec<f64>),
        (subsets, clients_connect, timing): (Subsets, bool, &Timing),
        (kind, choices): (PolicyKind, u32),
        rng: &mut SimRng,
    ) -> Choosers {
        let servers = weights.len();
        let mut scratch: Vec<u32> = (0..servers as u32).collect();
        let per_chooser = class_pools.len().max(1);
        let mut members = Vec::with_capacity(count * per_chooser);
        let mut policies = Vec::with_capacity(count * per_chooser);
        let mut start = 0;
        let every_server = scratch.clone();
        for member in 0..count * per_chooser {
            let range = class_pools.get(member % per_chooser);
            let (pool, shares) = draw_member_pool(
                (range, &every_server, &weights),
                (subsets, (member / per_chooser, count)),
                &mut scratch,
                rng,
            );
            let len = len_of(&pool, servers);
            policies.push(policy::build(kind, choices, &pool_weights(&pool, &weights, &shares), rng));
            members.push(Member {
                pool,
                slots: None,
                start,
                room: len,
                placement: None,
                pending: Vec::new(),
                ejected: Vec::new(),
                typical: PeakAverage::default(),
                idle: IdleQueue::default(),
                panicking: false,
                shares,
            });
            start += len;
        }
        let several = class_means.len() > 1;
        let table = Table {
            known: huge_pages::filled(start, Known::default()),
            work: if several { vec![0.0; start] } else { Vec::new() },
            round_trips: round_trips_column(kind, start),
            connections: Connections::new(start, clients_connect, timing),
        };
        Choosers {
            members,
            policies,
            table,
            servers,
            active: (0..servers as u32).collect(),
            explicit: false,
            lag_routes: 0,
            misrouted: 0,
            weights,
            subsets,
            class_means: if several { class_means.iter().map(|&m| m as f32).collect() } else { Vec::new() },
            hears_idle_servers: kind.hears_idle_servers(),
            class_pools: class_pools.to_vec(),
            per_chooser,
            by_class: !class_pools.is_empty(),
            kind: (kind, choices),
            panic_percent: 0.0,
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

    /// `server` fell idle and tells `chooser`; false when the server is not
    /// in that chooser's pool (the report is lost).
    pub fn on_idle(&mut self, chooser: usize, server: u32) -> bool {
        if self.position_of(chooser, server).is_none() {
            return false;
        }
        let pool_len = self.pool_len(chooser);
        self.members[chooser].idle.heard(server, pool_len);
        true
    }

    pub fn pool_len(&self, chooser: usize) -> usize {
        len_of(&self.members[chooser].pool, self.servers)
    }

    pub fn position_of(&self, chooser: usize, server: u32) -> Option<usize> {
        policy::position_in(self.members[chooser].pool.as_deref(), self.servers, server)
    }

    pub fn server_at(&self, chooser: usize, position: usize) -> u32 {
        server_at(&self.members[chooser].pool, position)
    }

    /// What `chooser` knows of the server at `position`.
    pub fn entry(&self, chooser: usize, position: usize) -> &Known {
        &self.table.known[self.members[chooser].entry(position)]
    }

    /// The requests `chooser` has out at `server`: sent, not yet back.
    pub fn in_flight_at(&self, chooser: usize, server: u32) -> u32 {
        self.position_of(chooser, server).map_or(0, |position| self.entry(chooser, position).in_flight)
    }

    /// The requests `chooser` has out across its pool (its free slots are
    /// fresh, with none).
    pub fn in_flight_total(&self, chooser: usize) -> u32 {
        let member = &self.members[chooser];
        let part = member.start..member.start + member.room;
        self.table.known[part].iter().map(|known| known.in_flight).sum()
    }

    pub fn entry_mut(&mut self, chooser: usize, position: usize) -> &mut Known {
        &mut self.table.known[self.members[chooser].entry(position)]
    }

    /// The handshake `chooser` owes before sending to the server at
    /// `position` at `now`; the connection is warm from then on.
    pub fn connect(&mut self, chooser: usize, position: usize, now: Time, timing: &Timing) -> Time {
        self.table.connections.open(self.members[chooser].entry(position), now, timing)
    }

    /// Whether a chooser's send after `now` can still wait for a handshake
    /// (see [`Connections::handshakes_to_come`]).
    pub fn handshakes_to_come(&self, now: Time) -> bool {
        self.table.connections.handshakes_to_come(self.table.known.len(), now)
    }

    /// Hints that `chooser` will soon use what it knows of the server at
    /// `position`, and its connection to it.
    pub fn prefetch(&self, chooser: usize, position: usize) {
        let entry = self.members[chooser].entry(position);
        if let Some(known) = self.table.known.get(entry) {
            super::prefetch::prefetch(known);
        }
        self.table.connections.prefetch(entry);
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
        let heard = if self.hears_idle_servers { self.members[chooser].idle.take() } else { None };
        let idle = heard.and_then(|server| self.position_of(chooser, server));
        let len = self.pool_len(chooser);
        let member = &self.members[chooser];
        let view = ChooserView { avoid, idle, ..member.view(&self.table, len, (now, board, key)) };
        let pick = self.policies[chooser].pick(&view, rng);
        if let (Some((_, current)), Some(key)) = (member.pending.last(), key) {
            self.lag_routes += 1;
            let server = server_at(&member.pool, pick.position);
            self.misrouted += u64::from(current.place(key, &Unloaded) != server);
        }
        pick
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
        let view = self.members[chooser].view(&self.table, self.pool_len(chooser), (now, board, key));
        self.policies[chooser].compared(&view, into)
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
            let entry = &mut self.table.work[self.members[chooser].entry(position)];
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
            // Timed only when the table keeps round trips (the policy asks).
            if let Some(round_trip) = round_trip.filter(|_| !self.table.round_trips.is_empty()) {
                let member = &mut self.members[chooser];
                let round_trip = round_trip.0 as f64;
                self.table.round_trips[member.entry(position)].observe(round_trip, now);
                member.typical.observe(round_trip, now);
            }
        }
    }

    /// `chooser` cancelled its request of `class` at `server` (a race's
    /// loser): it is no longer in flight there.
    pub fn on_cancel(&mut self, chooser: usize, server: u32, class: u8) {
        if let Some(position) = self.position_of(chooser, server) {
            let known = self.entry_mut(chooser, position);
            known.in_flight = known.in_flight.saturating_sub(1);
            self.add_work(chooser, position, class, -1.0);
        }
    }

    /// Gives every chooser a new policy of `kind`. What the choosers timed
    /// is kept for a policy of the same kind, and forgotten for another.
    /// Their idle queues are emptied: the engine reports every idle server
    /// afresh after a rebuild (`feature/idle_reports.rs`).
    pub fn rebuild_policies(&mut self, (kind, choices): (PolicyKind, u32), rng: &mut SimRng) {
        if kind != self.kind.0 {
            self.table.round_trips = round_trips_column(kind, self.table.known.len());
            self.members.iter_mut().for_each(|member| member.typical = PeakAverage::default());
        }
        self.members.iter_mut().for_each(|member| member.idle.clear());
        self.kind = (kind, choices);
        for chooser in 0..self.members.len() {
            self.rebuild_policy(chooser, rng);
        }
        self.hears_idle_servers = kind.hears_idle_servers();
    }

    /// Gives `chooser` a new policy over its pool.
    fn rebuild_policy(&mut self, chooser: usize, rng: &mut SimRng) {
        let member = &self.members[chooser];
        let weights = pool_weights(&member.pool, &self.weights, &member.shares);
        self.policies[chooser] = policy::build(self.kind.0, self.kind.1, &weights, rng);
    }
}

/// The round-trip column for a table of `len` entries, under a policy of `kind`.
fn round_trips_column(kind: PolicyKind, len: usize) -> Vec<PeakAverage> {
    if kind.times_round_trips() {
        vec![PeakAverage::default(); len]
    } else {
        Vec::new()
    }
}
#[cfg(test)]
mod tests;
