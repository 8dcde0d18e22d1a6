//! Envoy's least request when the hosts' weights differ: an earliest-
//! deadline-first schedule (Envoy's `EdfScheduler`) in which a host, each
//! time it is picked, is put back with a deadline 1 / weight later, its
//! weight being `load_balancing_weight / (active_requests + 1)^bias` at that
//! moment (bias 1.0, `active_request_bias`). A busy host is put back
//! further away, but never out of the schedule: hosts never fully drain
//! (`least_request_lb.cc` `hostWeight`; `load_balancers.rst`).
//!
//! Like Envoy, it reads each host's weight only when that host is picked,
//! so the others' deadlines keep the load they had when they last were.
//! Each chooser starts a random number of picks into its schedule (as
//! lbsim's round robins do), so that choosers do not move in step. A scan
//! stands in for Envoy's heap: the same order, linear in the pool.

use super::{ChooserView, Descriptor, Pick, Policy, Property, Routing};
use crate::rng::{Draw, SimRng};

pub static WEIGHTED_LEAST_REQUEST: Descriptor = Descriptor {
    name: "weighted-least-request",
    title: "weighted least request (Envoy's EDF)",
    description: "earliest deadline first on weight ÷ (requests in flight + 1)",
    properties: &[Property::ReadsWeights],
    routing: Routing::Picks(|_, weights, rng| {
        Box::new(WeightedLeastRequest::new(weights, rng.index(weights.len().max(1))))
    }),
};

/// Envoy's `active_request_bias` default: a host's weight is divided by
/// (its requests in flight + 1) to this power.
const ACTIVE_REQUEST_BIAS: f64 = 1.0;

pub struct WeightedLeastRequest {
    weights: Vec<f64>,
    /// Each pool position's place in the schedule: its deadline, then the
    /// order it was put back in (Envoy breaks equal deadlines first in,
    /// first out).
    deadlines: Vec<(f64, u64)>,
    put_back: u64,
}

impl WeightedLeastRequest {
    /// `weights`: one positive weight per pool position. The schedule
    /// starts `start` picks in, with nothing in flight.
    pub fn new(weights: &[f64], start: usize) -> WeightedLeastRequest {
        let deadlines = (0..).zip(weights).map(|(order, &weight)| (1.0 / weight, order)).collect();
        let mut policy =
            WeightedLeastRequest { weights: weights.to_vec(), deadlines, put_back: weights.len() as u64 };
        for _ in 0..start {
            let earliest = policy.earliest();
            policy.put_back(earliest, 0);
        }
        policy
    }

    /// The pool position whose deadline comes first.
    fn earliest(&self) -> usize {
        let mut earliest = 0;
        for (position, deadline) in self.deadlines.iter().enumerate() {
            if deadline < &self.deadlines[earliest] {
                earliest = position;
            }
        }
        earliest
    }

    /// Puts `position`, just picked, back 1 / (its weight with `in_flight`
    /// requests there) after its deadline.
    fn put_back(&mut self, position: usize, in_flight: u32) {
        let weight = self.weights[position] / f64::from(in_flight + 1).powf(ACTIVE_REQUEST_BIAS);
        let now = self.deadlines[position].0;
        self.deadlines[position] = (now + 1.0 / weight, self.put_back);
        self.put_back += 1;
    }
}

impl Policy for WeightedLeastRequest {
    fn pick(&mut self, view: &ChooserView, _rng: &mut SimRng) -> Pick {
        let earliest = self.earliest();
        self.put_back(earliest, view.known[earliest].in_flight);
        Pick::at(earliest)
    }
}

#[cfg(test)]
mod tests {
    use super::super::{testing::view, Known};
    use super::*;

    /// How many of `picks` picks each position gets, with `in_flight`
    /// requests held at each throughout.
    fn shares(weights: &[f64], in_flight: &[u32], picks: usize) -> Vec<usize> {
        let mut known = vec![Known::default(); weights.len()];
        known.iter_mut().zip(in_flight).for_each(|(entry, &n)| entry.in_flight = n);
        let loads = vec![0; weights.len()];
        let mut rng = SimRng::new(8);
        let mut policy = WeightedLeastRequest::new(weights, 4);
        let mut counts = vec![0; weights.len()];
        for _ in 0..picks {
            counts[policy.pick(&view(&known, &loads), &mut rng).position] += 1;
        }
        counts
    }

    /// Whether each count is within one of its expected share.
    fn within_one(counts: &[usize], expected: &[usize]) -> bool {
        counts.iter().zip(expected).all(|(&c, &e)| c.abs_diff(e) <= 1)
    }

    #[test]
    fn with_nothing_in_flight_shares_follow_the_weights() {
        // EDF gives each host its weight's share of every stretch of the
        // schedule, up to one pick at either end.
        let counts = shares(&[1.0, 2.0, 3.0], &[0, 0, 0], 600);
        assert!(within_one(&counts, &[100, 200, 300]), "{counts:?}");
    }

    #[test]
    fn requests_in_flight_divide_a_weight() {
        // Weights 1, 2 and 4 with 0, 1 and 3 in flight: 1/1 = 2/2 = 4/4, so
        // equal shares; with bias 1.0, and nothing ever drained to zero.
        let counts = shares(&[1.0, 2.0, 4.0], &[0, 1, 3], 300);
        assert!(within_one(&counts, &[100, 100, 100]), "{counts:?}");
        let busy = shares(&[1.0, 1.0], &[0, 9], 1100);
        assert!(within_one(&busy, &[1000, 100]), "{busy:?}");
    }
}
