//! Routing policies: how a chooser (a client, or a balancer) picks a server.
//!
//! As in tower's `balance` and `load`, a policy and the load signal it reads
//! are separate ideas. A policy gets a read-only [`ChooserView`] of what its chooser
//! can know and returns a position in the chooser's pool. A [`Signal`] turns
//! that knowledge into comparable numbers: the true load (possibly read from a
//! stale board), the chooser's own count of requests in flight, or counters
//! piggybacked on responses. Policies are rebuilt, never patched, when the
//! scenario changes.
//!
//! Each policy's file holds its [`Descriptor`] (its names, what it reads,
//! how a chooser gets it), and [`POLICIES`] below lists them: a new policy
//! is a file and a line here (a placement scheme, a file and a line in
//! `keys/mod.rs`).

mod best_of_d;
mod column;
mod descriptor;
mod foundationdb;
mod haproxy_random;
mod join_idle_queue;
mod least_loaded;
mod least_time;
mod lowest;
mod peak_ewma;
mod placed;
mod random;
mod repick;
mod round_robin;
mod signal;
mod weighted_least_request;
mod weighted_p2c;
mod weighted_random;
mod weighted_round_robin;
mod with_replacement;

pub use crate::scenario::PolicyKind;
pub use best_of_d::{distinct_candidates, BestOfD, MAX_CHOICES};
pub use column::Column;
pub use descriptor::{Descriptor, Property, Routing};
pub use join_idle_queue::{IdleQueue, JoinIdleQueue};
pub use least_loaded::LeastLoaded;
pub use lowest::lowest;
pub use peak_ewma::{PeakAverage, PeakEwma};
pub use placed::Placed;
pub use random::RandomPick;
pub use repick::Repick;
pub use round_robin::RoundRobin;
pub use signal::{Board, Known, Load, PackedLoad, Rank, Signal};
pub use weighted_random::WeightedRandom;
pub use weighted_round_robin::WeightedRoundRobin;

use crate::keys::{self, KeyPlacement};
use crate::rng::SimRng;
use crate::time::Time;
use serde::Serialize;

/// Every routing policy, in the order they are listed to people (menus,
/// messages, links): those that pick a server, the placement schemes
/// ([`keys::SCHEMES`]), then FoundationDB's balancers.
pub const POLICIES: &[&Descriptor] = &descriptor::concat::<COUNT>(&[PICKING, keys::SCHEMES, FOUNDATIONDB]);

/// The policies that pick a server themselves: add a new one's line here,
/// after those it belongs with.
const PICKING: &[&Descriptor] = &[
    &random::RANDOM,
    &round_robin::ROUND_ROBIN,
    &repick::REPICK,
    &least_loaded::LEAST_CONNECTIONS,
    &best_of_d::POWER_OF_D,
    &least_loaded::SHORTEST_QUEUE,
    &best_of_d::PIGGYBACK,
    &best_of_d::LEAST_REQUEST,
    &with_replacement::LEAST_REQUEST_WITH_REPLACEMENT,
    &haproxy_random::HAPROXY_RANDOM,
    &least_loaded::LEAST_WORK,
    &peak_ewma::PEAK_EWMA,
    &least_time::LEAST_TIME,
    &join_idle_queue::JOIN_IDLE_QUEUE,
    &weighted_round_robin::WEIGHTED_ROUND_ROBIN,
    &weighted_random::WEIGHTED_RANDOM,
    &weighted_least_request::WEIGHTED_LEAST_REQUEST,
    &weighted_p2c::WEIGHTED_P2C,
];

const FOUNDATIONDB: &[&Descriptor] = &[&foundationdb::BASIC, &foundationdb::LOAD_BALANCE];

/// How many policies there are.
const COUNT: usize = PICKING.len() + keys::SCHEMES.len() + FOUNDATIONDB.len();

/// What a chooser knows when it picks.
pub struct ChooserView<'a> {
    pub now: Time,
    /// The servers this chooser may pick, ascending; `None` means all of them.
    pub pool: Option<&'a [u32]>,
    /// The chooser's knowledge, read by pool position.
    pub known: Column<'a, Known>,
    /// With several request classes, the work (ms of mean service) the
    /// chooser has in flight at each pool position; empty with one class.
    pub work: Column<'a, f32>,
    /// True server load, by server index (live or as of the last board refresh).
    pub board: Board<'a>,
    /// After a queue timeout: the pool position of the server that sent the request back.
    pub avoid: Option<usize>,
    /// The request's key, when the policy places by key.
    pub key: Option<u64>,
    /// Where this chooser places keys (its copy, under a mapping table).
    pub placement: Option<&'a dyn KeyPlacement>,
    /// For a policy that times round trips, what the chooser has timed.
    pub round_trips: RoundTrips<'a>,
    /// For a policy that hears from idle servers, the pool position of the
    /// freshest that told the chooser it fell idle, taken for this pick.
    pub idle: Option<usize>,
}

/// The round trips a chooser has timed: an average per pool position
/// (empty unless its policy times round trips), and one over every server.
#[derive(Clone, Copy, Default)]
pub struct RoundTrips<'a> {
    pub each: Column<'a, PeakAverage>,
    pub typical: PeakAverage,
}

impl ChooserView<'_> {
    /// How many servers the chooser picks among (at least 1).
    pub fn pool_len(&self) -> usize {
        self.known.len()
    }

    /// The server at a pool position.
    pub fn server(&self, position: usize) -> usize {
        self.pool.map_or(position, |pool| pool[position] as usize)
    }

    /// The pool position of a server of the pool.
    pub fn position(&self, server: u32) -> usize {
        self.position_in_pool(server).unwrap_or(0)
    }

    /// The pool position of `server`, if it is in the pool.
    pub fn position_in_pool(&self, server: u32) -> Option<usize> {
        position_in(self.pool, self.pool_len(), server)
    }
}

/// The position of `server` in a pool of `len` servers: an ascending list,
/// or `None` for servers `0..len` in order. `None` when it is not there.
pub fn position_in(pool: Option<&[u32]>, len: usize, server: u32) -> Option<usize> {
    match pool {
        None => Some(server as usize).filter(|&p| p < len),
        Some(pool) => pool.binary_search(&server).ok(),
    }
}

/// A decision, with how stale its information was when that matters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pick {
    pub position: usize,
    /// For piggybacked load: the age of the older counter compared.
    pub staleness: Option<Time>,
}

impl Pick {
    pub fn at(position: usize) -> Pick {
        Pick { position, staleness: None }
    }
}

/// What a policy that compares a sample of servers compared them by.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Measure {
    /// Requests at the server (queued and in service), as the board says.
    #[default]
    Load,
    /// Requests at the server as it last reported, plus the chooser's sends since.
    Reported,
    /// The chooser's own requests in flight there.
    InFlight,
    /// The chooser's own work in flight there, in ms of mean service.
    Work,
    /// Peak-EWMA cost: the smoothed round trip (ms) times (in flight + 1).
    Cost,
    /// No comparison: the key decided. The candidates are where the key's
    /// place is with no load and, if a bound on load passed it, the server
    /// taken; the amounts, requests there.
    Key,
}

/// One candidate of a comparison and what the policy saw of it, in the
/// units of its [`Measure`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Seen {
    pub position: usize,
    pub amount: f64,
}

/// How the last pick compared its candidates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Compared {
    pub measure: Measure,
    /// Whether it ignored what it saw and took the first candidate (stale
    /// piggybacked counters).
    pub fell_back: bool,
}

pub trait Policy {
    /// Picks a pool position; `view.pool_len()` is at least 1.
    fn pick(&mut self, view: &ChooserView, rng: &mut SimRng) -> Pick;

    /// For a policy that compares a sample of servers: adds to `into` the
    /// candidates of its last pick, which was made on `view`, with what it
    /// saw of each. `None` (and nothing added) when that pick compared
    /// nothing, or the policy compares the whole pool.
    fn compared(&self, _view: &ChooserView, _into: &mut Vec<Seen>) -> Option<Compared> {
        None
    }
}

/// Builds a chooser's policy for `kind`: `choices` is d for the best-of-d
/// policies, `weights` the nominal weight of each pool position.
pub fn build(kind: PolicyKind, choices: u32, weights: &[f64], rng: &mut SimRng) -> Box<dyn Policy> {
    match kind.descriptor().routing {
        Routing::Picks(build) => build(choices, weights, rng),
        Routing::Keys(_) => Box::new(Placed),
        // FoundationDB's balancers never ask the chooser's policy; the
        // random pick stands in for it.
        Routing::Fdb => Box::new(RandomPick),
    }
}

#[cfg(test)]
mod tests {
    use super::testing::view;
    use super::*;

    /// Chi-square statistic of `counts` against equal expected counts.
    fn chi_square(counts: &[u64]) -> f64 {
        let total: u64 = counts.iter().sum();
        let expected = total as f64 / counts.len() as f64;
        counts.iter().map(|&c| (c as f64 - expected).powi(2) / expected).sum()
    }

    /// How often each of the tied least-loaded servers of `loads` is picked
    /// by a policy of `kind`, over the picks that landed on one of them; the
    /// loads are shown to it as true load, as in-flight counts and as fresh
    /// piggybacked counters alike.
    fn tied_counts(kind: PolicyKind, choices: u32, loads: &[u32], rng: &mut SimRng) -> Vec<u64> {
        let now = Time::from_ms(1000.0);
        let mut known = vec![Known::default(); loads.len()];
        for (entry, &load) in known.iter_mut().zip(loads) {
            entry.in_flight = load;
            entry.learn(Load::new(load, 0), now);
        }
        let board: Vec<u64> = loads.iter().map(|&l| Load::new(l, 0).0).collect();
        let least = *loads.iter().min().unwrap();
        let tied: Vec<usize> = (0..loads.len()).filter(|&p| loads[p] == least).collect();
        let mut policy = build(kind, choices, &vec![1.0; loads.len()], rng);
        let mut counts = vec![0u64; tied.len()];
        for _ in 0..20_000 {
            let position = policy.pick(&view(&known, &board), rng).position;
            if let Some(i) = tied.iter().position(|&t| t == position) {
                counts[i] += 1;
            }
        }
        counts
    }

    #[test]
    fn every_policy_that_takes_a_minimum_breaks_ties_uniformly() {
        // Tied minima placed among runs of busier servers of every length.
        let layouts: [&[u32]; 4] = [
            &[5, 0, 5, 5, 5, 5, 5, 5, 5, 0],
            &[0, 0, 0, 7, 7, 7, 7, 7, 7, 0],
            &[1, 2, 3, 1, 4, 1, 9, 9, 9, 1],
            &[2, 2],
        ];
        let mut rng = SimRng::new(20261201);
        for loads in layouts {
            let n = loads.len() as u32;
            for (name, choices) in [
                ("least-connections", 2),
                ("shortest-queue", 2),
                ("power-of-d", n),
                ("power-of-d", 2),
                ("power-of-d", 5.min(n)),
                ("p2c-piggyback", 2),
                ("least-request", 2),
                ("least-request", n),
            ] {
                let kind = PolicyKind::from_name(name).unwrap();
                let counts = tied_counts(kind, choices, loads, &mut rng);
                assert!(counts.iter().sum::<u64>() > 3_000, "{kind:?}: too few tied picks {counts:?}");
                // k - 1 <= 3 degrees of freedom: 16.27 is the chi-square's
                // 99.9th percentile. Keeping the first minimum of a scan from
                // a random start scores in the thousands on these layouts.
                let statistic = chi_square(&counts);
                assert!(statistic < 16.27, "{kind:?} d={choices} {loads:?}: {counts:?} ({statistic:.1})");
            }
        }
    }
}

#[cfg(test)]
pub(crate) mod testing {
    use super::*;

    /// A view of `n` servers, all in the pool, with the given true loads.
    pub fn view<'a>(known: &'a [Known], loads: &'a [u64]) -> ChooserView<'a> {
        ChooserView {
            now: Time::from_ms(1000.0),
            pool: None,
            known: Column::dense(known),
            work: Column::default(),
            board: Board::Stale(loads),
            avoid: None,
            key: None,
            placement: None,
            round_trips: RoundTrips::default(),
            idle: None,
        }
    }
}
