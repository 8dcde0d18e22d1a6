//! The last few decisions of a policy that compares a sample of servers
//! (power of d, least-request, peak-EWMA...): which servers it looked at,
//! what it saw of each, what each really held, and which it took. Kept only
//! when asked for (the browser shows them; a run from the command line does
//! not pay for them).

use super::{Asks, Feature, Picked, Points, View};
use crate::engine::chooser::Choosers;
use crate::policy::{Board, Measure, Pick, Seen};
use crate::scenario::Scenario;
use crate::time::Time;
use serde::Serialize;
use std::collections::VecDeque;

/// One server a decision looked at.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Candidate {
    pub server: u32,
    /// What the chooser saw of it, in the units of the decision's measure.
    pub seen: f64,
    /// Requests really at the server then (queued and in service).
    pub load: u32,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Decision {
    pub time_ms: f64,
    /// Whether a balancer decided (otherwise a client, for itself).
    pub by_balancer: bool,
    /// The balancer's or client's index.
    pub chooser: u32,
    pub candidates: Vec<Candidate>,
    pub winner: u32,
    pub measure: Measure,
    /// Whether the chooser ignored what it saw (stale counters) and took
    /// the first candidate.
    pub fell_back: bool,
    /// Whether the request had been sent back by a queue timeout.
    pub after_bounce: bool,
    /// The key that placed the request, under a placement scheme.
    pub key: Option<u64>,
}

/// A ring of the latest decisions, reusing its entries' buffers.
pub struct Decisions {
    keep: usize,
    ring: VecDeque<Decision>,
    /// The candidates the chooser reported, before they become servers.
    seen: Vec<Seen>,
    /// Decisions kept since recording began, so that a step can go on to
    /// the next one (the ring's length stops growing once it is full).
    made: u64,
}

impl Feature for Decisions {
    /// It has no timers.
    const TRACE_KIND: u64 = 0;
    const HEARS: Points = Points::PICKED;

    /// Kept only when asked for ([`Simulation::record_decisions`]).
    ///
    /// [`Simulation::record_decisions`]: crate::engine::Simulation::record_decisions
    fn for_scenario(_scenario: &Scenario) -> Option<Decisions> {
        None
    }

    /// Keeps the pick, just made on the board its policy read.
    #[cold]
    fn picked(&mut self, picked: Picked, view: &View, _out: &mut Asks) {
        let Picked { chooser, avoid, key, pick } = picked;
        let load_of = |server: u32| {
            let load = view.servers[server as usize].load();
            load.queued() + load.busy()
        };
        let by_balancer = view.scenario.balancers > 0;
        let base = view.choosers.base_of(chooser);
        let named = if by_balancer { view.scenario.balancer_of(base) } else { base };
        view.read_board(|board| {
            self.record(
                (view.choosers, chooser, named),
                (view.now, board, key),
                (pick, by_balancer, avoid.is_some()),
                load_of,
            )
        });
    }

    /// Forgets every decision: the policy changed.
    fn policies_built(&mut self, _view: &View, _out: &mut Asks) {
        self.ring.clear();
    }
}

impl Decisions {
    pub fn new(keep: usize) -> Decisions {
        Decisions { keep, ring: VecDeque::with_capacity(keep), seen: Vec::new(), made: 0 }
    }

    /// Keeps `chooser`'s `pick` (the client or balancer `named` made it),
    /// just made at `now` on `board` for a
    /// request with `key`, if its policy compared candidates (or placed the
    /// key); `load_of` gives the requests really at a server.
    fn record(
        &mut self,
        (choosers, chooser, named): (&Choosers, usize, u32),
        (now, board, key): (Time, Board, Option<u64>),
        (pick, by_balancer, after_bounce): (Pick, bool, bool),
        load_of: impl Fn(u32) -> u32,
    ) {
        let mut seen = std::mem::take(&mut self.seen);
        seen.clear();
        if let Some(compared) = choosers.compared(chooser, (now, board, key), &mut seen) {
            self.made += 1;
            let entry = self.next();
            entry.time_ms = now.as_ms();
            entry.by_balancer = by_balancer;
            entry.chooser = named;
            entry.winner = choosers.server_at(chooser, pick.position);
            entry.measure = compared.measure;
            entry.fell_back = compared.fell_back;
            entry.after_bounce = after_bounce;
            entry.key = key.filter(|_| compared.measure == Measure::Key);
            entry.candidates.extend(seen.iter().map(|s| {
                let server = choosers.server_at(chooser, s.position);
                Candidate { server, seen: s.amount, load: load_of(server) }
            }));
        }
        self.seen = seen;
    }

    /// A fresh entry to fill, in place of the oldest once the ring is full.
    fn next(&mut self) -> &mut Decision {
        let mut entry =
            if self.ring.len() >= self.keep { self.ring.pop_front() } else { None }.unwrap_or_default();
        entry.candidates.clear();
        self.ring.push_back(entry);
        self.ring.back_mut().expect("just pushed")
    }

    /// How many decisions were kept since recording began.
    pub fn made(&self) -> u64 {
        self.made
    }

    /// Oldest first.
    pub fn latest(&self) -> impl Iterator<Item = &Decision> {
        self.ring.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_only_the_latest() {
        let mut decisions = Decisions::new(3);
        for winner in 0..5 {
            let entry = decisions.next();
            entry.winner = winner;
            entry.candidates.push(Candidate { server: winner, seen: 0.0, load: 0 });
        }
        let kept: Vec<u32> = decisions.latest().map(|d| d.winner).collect();
        assert_eq!(kept, [2, 3, 4]);
        assert!(decisions.latest().all(|d| d.candidates.len() == 1));
    }
}
