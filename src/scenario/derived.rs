//! What a scenario implies beyond its fields: each class's mean service
//! time and priority level, each server's speed and weight, the choosers
//! and what they track, the capacity, the most servers a run holds, and
//! where servers and choosers stand across datacenters.

use super::{Change, Scenario};

impl Scenario {
    /// Each class's mean service time in ms: its cost scaled so that the mean
    /// over all requests stays `service_mean_ms` (so `load` keeps its meaning).
    pub fn class_means_ms(&self) -> Vec<f64> {
        let total_share: f64 = self.class_shares.iter().sum();
        let mean_cost: f64 =
            self.class_shares.iter().zip(&self.class_costs).map(|(s, c)| s * c).sum::<f64>() / total_share;
        self.class_costs.iter().map(|c| self.service_mean_ms * c / mean_cost).collect()
    }

    /// Each class's priority level: 0 for the highest priority, then one
    /// per distinct priority below it.
    pub fn class_levels(&self) -> Vec<u8> {
        let mut distinct = self.class_priorities.clone();
        crate::sort::sort_by(&mut distinct, |a, b| b.cmp(a));
        distinct.dedup();
        (0..self.class_shares.len())
            .map(|class| {
                let priority = self.class_priorities[class % self.class_priorities.len()];
                distinct.iter().position(|&p| p == priority).unwrap_or(0) as u8
            })
            .collect()
    }

    /// How many priority levels the classes fall into.
    pub fn priority_levels(&self) -> usize {
        self.class_levels().iter().max().map_or(1, |&top| usize::from(top) + 1)
    }

    /// The speed server `server` starts with.
    pub fn speed_of(&self, server: usize) -> f64 {
        self.server_speeds[server % self.server_speeds.len()]
    }

    /// The nominal weight of every server, in order.
    pub fn weights(&self) -> Vec<f64> {
        (0..self.servers as usize).map(|i| self.weight_of(i)).collect()
    }

    /// The nominal weight of server `server` (added ones included).
    pub fn weight_of(&self, server: usize) -> f64 {
        self.server_weights[server % self.server_weights.len()]
    }

    /// The number of servers one chooser picks among.
    pub fn pool_size(&self) -> u32 {
        self.subset_size.map_or(self.servers, |s| s.min(self.servers))
    }

    /// The per-server entries all choosers together track: with class
    /// pools, each chooser keeps one pool per class.
    pub fn knowledge_entries(&self) -> u64 {
        let per_chooser = match self.class_pools.as_slice() {
            [] => u64::from(self.pool_size()),
            ranges => ranges
                .iter()
                .map(|&(first, last)| {
                    u64::from(self.subset_size.map_or(last - first + 1, |s| s.min(last - first + 1)))
                })
                .sum(),
        };
        u64::from(self.choosers()) * per_chooser
    }

    /// The parties that choose servers: the balancers' workers, or the
    /// clients themselves. Worker `w` of balancer `b` is chooser
    /// `b × workers_per_balancer + w`.
    pub fn choosers(&self) -> u32 {
        if self.balancers > 0 {
            self.balancers * self.workers_per_balancer
        } else {
            self.clients
        }
    }

    /// The balancer whose worker is chooser `worker`.
    pub fn balancer_of(&self, worker: u32) -> u32 {
        worker / self.workers_per_balancer
    }

    /// Total service capacity in requests per second.
    pub fn capacity_per_sec(&self) -> f64 {
        let speed_sum: f64 =
            (0..self.servers as usize).map(|i| self.server_speeds[i % self.server_speeds.len()]).sum();
        speed_sum * self.slots as f64 * 1000.0 / self.service_mean_ms
    }

    /// The most servers a run holds: those it starts with, and those its
    /// membership schedule adds (a server removed keeps its place).
    pub fn most_servers(&self) -> u32 {
        let added = self.membership.iter().filter(|due| matches!(due.change, Change::Add)).count();
        self.servers + added as u32
    }

    /// Where the servers and choosers stand.
    pub fn datacenters(&self) -> Datacenters {
        let workers = if self.balancers > 0 { self.workers_per_balancer } else { 1 };
        Datacenters { count: self.datacenters, servers: self.servers, workers }
    }
}

/// How servers and choosers are split across datacenters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Datacenters {
    pub count: u32,
    /// The starting servers.
    pub servers: u32,
    /// The choosers each balancer (or client) is: its workers share its
    /// datacenter.
    pub workers: u32,
}

impl Datacenters {
    /// The datacenter of server `server`: the starting servers are split
    /// into runs of consecutive numbers, as equal as can be; servers added
    /// later join the last.
    pub fn of_server(self, server: u32) -> u8 {
        let run = u64::from(server) * u64::from(self.count) / u64::from(self.servers.max(1));
        run.min(u64::from(self.count) - 1) as u8
    }

    /// The datacenter of client or balancer `base`: they are dealt out in
    /// turn, so that each datacenter has its share of the demand.
    pub fn of_chooser(self, base: u32) -> u8 {
        (base / self.workers % self.count) as u8
    }
}
