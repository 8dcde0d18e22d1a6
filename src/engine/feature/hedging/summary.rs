//! Hedging's section of the summary: how often it fired and what it cost.

use super::Hedges;
use crate::engine::RaceTally;
use serde::Serialize;

/// Hedged requests after the warm-up (seed 001: "the capacity cost is
/// directly proportional to the hedge rate").
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Hedging {
    /// The share of the requests completed after the warm-up that had sent
    /// a copy (one at most each). Copies sent, over completed requests,
    /// would count copies of requests that never completed in the same
    /// period: above 1 in an overload.
    pub hedge_rate: f64,
    /// Service time spent on losers of a race over the service time of the
    /// requests that answered (busy slot-time as sampled every 250 ms, less
    /// the losers'): the extra work hedging costs.
    pub extra_work: f64,
    /// The share of races the copy won, of those over (a copy whose
    /// original's response was already on its way lost its race). Races
    /// still running count for neither side: as copies sent after the
    /// warm-up, they would otherwise count as lost.
    pub copies_won: f64,
}

impl Hedges {
    /// Its section of the summary, while it hedges or once it has sent a
    /// copy: of `completed` requests after the warm-up, with the servers
    /// busy `busy_ns` slot-nanoseconds, and what the races counted, with
    /// those still `running`.
    pub(in crate::engine) fn summary(
        &self,
        completed: u64,
        busy_ns: f64,
        (races, running): (RaceTally, u64),
    ) -> Option<Hedging> {
        let t = self.tally;
        if !self.on && t.sent == 0 {
            return None;
        }
        let useful = (busy_ns - races.wasted_ns as f64).max(1.0);
        let races_ended = t.sent.saturating_sub(running).max(1);
        Some(Hedging {
            hedge_rate: t.completed as f64 / completed.max(1) as f64,
            extra_work: races.wasted_ns as f64 / useful,
            copies_won: races.copies_won as f64 / races_ended as f64,
        })
    }
}
