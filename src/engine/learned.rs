//! What a client has learned of each server's load, beside what is true:
//! under a policy that compares copies learned from responses
//! (p2c-piggyback), each copy is the load a server reported on its last
//! answer to that client, plus the client's sends since, and it ages until
//! the next answer. The picture draws a client's copies next to the real
//! queues, so a reader sees them lag and disagree: the staleness that
//! makes learned load worth less than live load.

use super::Simulation;
use crate::time::Time;

/// One server's load as a client's copy has it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LearnedLoad {
    pub server: u32,
    /// Queued and busy requests, as the copy counts them.
    pub queued: u32,
    pub busy: u32,
    /// How long ago the server measured it; `None` if it never answered
    /// this client.
    pub age: Option<Time>,
}

impl Simulation {
    /// Where `client`'s queued requests wait: each one's server and how
    /// many wait ahead of it there, in the order its server will serve
    /// them (a picture following a client draws its request at its place
    /// in the queue, not at the queue's end).
    pub fn queue_places(&self, client: u32) -> Vec<(u32, u32)> {
        let mut places = Vec::new();
        for (server, s) in self.servers.iter().enumerate() {
            for (ahead, flight) in s.queue.in_order().enumerate() {
                if self.in_flight(flight).is_some_and(|seen| seen.origin.client == client) {
                    places.push((server as u32, ahead as u32));
                }
            }
        }
        places
    }

    /// `client`'s copy of each server's load in its pool, when its policy
    /// learns load from responses and clients choose for themselves (with
    /// balancers, the balancers keep the copies); empty otherwise.
    pub fn learned_loads(&self, client: u32) -> Vec<LearnedLoad> {
        if !self.clients_keep_copies() || client >= self.scenario.clients {
            return Vec::new();
        }
        let chooser = self.choosers.member(client, 0);
        (0..self.choosers.pool_len(chooser))
            .map(|position| {
                let known = self.choosers.entry(chooser, position);
                LearnedLoad {
                    server: self.choosers.server_at(chooser, position),
                    queued: known.reported().queued(),
                    busy: known.reported().busy(),
                    age: known.measured_at().map(|at| self.now - at),
                }
            })
            .collect()
    }

    /// Whether each client keeps copies of the servers' loads: its policy
    /// learns load from responses, and clients choose for themselves.
    pub fn clients_keep_copies(&self) -> bool {
        self.scenario.policy.learns_load() && self.scenario.balancers == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Scenario;

    fn run(policy: &str, clients: &str) -> Simulation {
        let mut scenario = Scenario::default();
        for (key, value) in [("policy", policy), ("clients", clients), ("load", "0.9")] {
            scenario.set(key, value).unwrap();
        }
        let mut sim = Simulation::new(&scenario).unwrap();
        sim.advance_to(Time::from_secs(5.0), u64::MAX);
        sim
    }

    /// The median age of client 0's copies, in ms.
    fn median_age_ms(sim: &Simulation) -> f64 {
        let mut ages: Vec<f64> = sim.learned_loads(0).iter().filter_map(|l| l.age).map(Time::as_ms).collect();
        ages.sort_by(f64::total_cmp);
        ages[ages.len() / 2]
    }

    #[test]
    fn a_client_keeps_a_copy_of_each_servers_load_only_under_a_policy_that_learns_it() {
        assert!(run("power-of-d", "20").learned_loads(0).is_empty());
        let sim = run("p2c-piggyback", "20");
        let copies = sim.learned_loads(0);
        assert_eq!(copies.iter().map(|l| l.server).collect::<Vec<_>>(), (0..10).collect::<Vec<_>>());
        assert!(copies.iter().all(|l| l.age.is_some_and(|age| age <= Time::from_secs(5.0))));
        assert!(sim.learned_loads(20).is_empty(), "no client 20 among 20");
    }

    #[test]
    fn with_ten_times_the_clients_each_copy_is_older() {
        // The same load spread over more clients: each hears from each
        // server less often. 20 clients at 0.9 answer each client about
        // every 50 ms per server; 200, every 500 ms.
        let (few, many) =
            (median_age_ms(&run("p2c-piggyback", "20")), median_age_ms(&run("p2c-piggyback", "200")));
        assert!(many > 4.0 * few, "median copy age {few:.0} ms with 20 clients, {many:.0} ms with 200");
    }
}
