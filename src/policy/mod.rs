//! Routing policies: how a chooser (a client, or a balancer) picks a server.
//!
//! As in tower's `balance` and `load`, a policy and the load signal it reads
//! are separate ideas. A policy gets a read-only [`View`] of what its chooser
//! can know and returns a position in the chooser's pool. A [`Signal`] turns
//! that knowledge into comparable numbers: the true load (possibly read from a
//! stale board), the chooser's own count of requests in flight, or counters
//! piggybacked on responses. Policies are rebuilt, never patched, when the
//! scenario changes.

mod best_of_d;
mod least_loaded;
mod random;
mod repick;
mod round_robin;
mod signal;

pub use best_of_d::BestOfD;
pub use least_loaded::LeastLoaded;
pub use random::RandomPick;
pub use repick::Repick;
pub use round_robin::RoundRobin;
pub use signal::{Board, Known, Load, Signal};

use crate::rng::SimRng;
use crate::scenario::PolicyKind;
use crate::time::Time;

/// What a chooser knows when it picks.
pub struct View<'a> {
    pub now: Time,
    /// The servers this chooser may pick, ascending; `None` means all of them.
    pub pool: Option<&'a [u32]>,
    /// The chooser's knowledge, one entry per pool position.
    pub known: &'a [Known],
    /// True server load, by server index (live or as of the last board refresh).
    pub board: Board<'a>,
    /// After a queue timeout: the pool position of the server that sent the request back.
    pub avoid: Option<usize>,
}

impl View<'_> {
    /// How many servers the chooser picks among (at least 1).
    pub fn pool_len(&self) -> usize {
        self.known.len()
    }

    /// The server at a pool position.
    pub fn server(&self, position: usize) -> usize {
        self.pool.map_or(position, |pool| pool[position] as usize)
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

pub trait Policy {
    /// Picks a pool position; `view.pool_len()` is at least 1.
    fn pick(&mut self, view: &View, rng: &mut SimRng) -> Pick;
}

/// Builds a chooser's policy for `kind`; `choices` is d for power-of-d.
pub fn build(kind: PolicyKind, choices: u32, pool_len: usize, rng: &mut SimRng) -> Box<dyn Policy> {
    match kind {
        PolicyKind::Random => Box::new(RandomPick),
        PolicyKind::RoundRobin => Box::new(RoundRobin::starting_at(rng.index(pool_len.max(1)))),
        PolicyKind::Repick => Box::new(Repick),
        PolicyKind::LeastConnections => Box::new(LeastLoaded::new(Signal::InFlight)),
        PolicyKind::ShortestQueue => Box::new(LeastLoaded::new(Signal::Board)),
        PolicyKind::PowerOfD => Box::new(BestOfD::new(choices as usize, Signal::Board)),
        PolicyKind::Piggyback => Box::new(BestOfD::new(2, Signal::Piggyback)),
    }
}

#[cfg(test)]
pub(crate) mod testing {
    use super::*;

    /// A view of `n` servers, all in the pool, with the given true loads.
    pub fn view<'a>(known: &'a [Known], loads: &'a [u64]) -> View<'a> {
        View { now: Time::from_ms(1000.0), pool: None, known, board: Board::Stale(loads), avoid: None }
    }
}
