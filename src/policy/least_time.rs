//! NGINX's `least_time` (open source since nginx 1.31.0, before that NGINX
//! Plus only): a full scan for the server with the least estimated time to
//! finish what it has, `rt × (1 + connections)`, divided by its weight
//! (`ngx_http_upstream_least_time_module.c`, `..._least_time_eta`).
//!
//! `rt` is an average of the server's response times in whole
//! milliseconds: the first taken as it is, each later one moving it 5% of
//! the way, rounded (`ngx_http_upstream_response_time_avg` in
//! `ngx_http_upstream_round_robin.h`). Before comparing, NGINX rounds it up
//! to the next multiple of 20 ms, so that servers of close speed tie, and
//! caps it at 5,000 ms, where least time becomes least connections. A
//! server never timed has `rt` 0, so it looks fastest until it answers.
//!
//! What lbsim leaves out: NGINX breaks ties by weighted round robin where
//! lbsim draws uniformly among them; it halves a server's `rt` for every
//! `fail_timeout` (10 s) since it was last picked; it averages only
//! successful responses, where the chooser here times every response never
//! sent back (the timings peak-EWMA keeps), from the request's creation;
//! and `inflight` is off, as it is by default.

use super::{lowest, ChooserView, Descriptor, Pick, Policy, Property, Routing};
use crate::rng::SimRng;
use crate::time::Time;

pub static LEAST_TIME: Descriptor = Descriptor {
    name: "least-time",
    title: "least time (NGINX)",
    description: "least average round trip × (requests in flight + 1) ÷ weight, over the whole pool",
    properties: &[Property::TimesRoundTrips, Property::ReadsWeights],
    routing: Routing::Picks(|_, weights, _| Box::new(LeastTime { weights: weights.to_vec() })),
};

/// The share of the average a new response time takes.
const SMOOTHING: f64 = 0.05;
/// Averages are compared in steps of this many ms.
const BUCKET_MS: u64 = 20;
/// Averages above this many ms compare as equal.
const CAP_MS: u64 = 5000;

/// NGINX's average after a response time of `round_trip`, from `average`
/// (whole ms, 0 before the first).
pub fn average(average: f64, round_trip: Time) -> f64 {
    let ms = (round_trip.as_ms()).floor();
    if average == 0.0 {
        ms
    } else {
        (0.5 + ms * SMOOTHING + average * (1.0 - SMOOTHING)).floor()
    }
}

/// The average as NGINX compares it: up to the next step, or the cap.
fn bucketed(average_ms: f64) -> u64 {
    let ms = average_ms as u64;
    if ms > CAP_MS {
        CAP_MS
    } else {
        ms + BUCKET_MS - ms % BUCKET_MS
    }
}

pub struct LeastTime {
    weights: Vec<f64>,
}

impl LeastTime {
    /// A server's estimated time to finish, per unit of weight. Ranked by
    /// its bits: for floats of one sign these order as the numbers do.
    fn rank(&self, view: &ChooserView, position: usize) -> u64 {
        let average = view.round_trips.each.get(position).map_or(0.0, |timed| timed.recent_ms);
        let eta = bucketed(average) * u64::from(view.known[position].in_flight + 1);
        (eta as f64 / self.weights[position]).to_bits()
    }
}

impl Policy for LeastTime {
    fn pick(&mut self, view: &ChooserView, rng: &mut SimRng) -> Pick {
        Pick::at(lowest(0..view.pool_len(), |position| self.rank(view, position), rng))
    }
}

#[cfg(test)]
mod tests {
    use super::super::{testing::view, Column, Known, PeakAverage, RoundTrips};
    use super::*;

    #[test]
    fn the_average_moves_five_percent_of_the_way_in_whole_milliseconds() {
        let first = average(0.0, Time::from_ms(100.4));
        assert_eq!(first, 100.0);
        // 0.5 + 0.05 × 300 + 0.95 × 100 = 110.5, rounded down.
        assert_eq!(average(first, Time::from_ms(300.0)), 110.0);
    }

    #[test]
    fn averages_compare_in_twenty_millisecond_steps_up_to_five_seconds() {
        assert_eq!([0.0, 19.0, 20.0, 41.0, 5000.0, 9000.0].map(bucketed), [20, 20, 40, 60, 5020, 5000]);
    }

    #[test]
    fn picks_the_least_time_to_finish_per_weight() {
        let mut each = [PeakAverage::default(); 3];
        for (timed, ms) in each.iter_mut().zip([30.0, 10.0, 50.0]) {
            timed.observe(Time::from_ms(ms).0 as f64, Time::from_ms(1.0));
        }
        let round_trips = RoundTrips { each: Column::dense(&each), typical: PeakAverage::default() };
        let mut known = [Known::default(); 3];
        let loads = [0; 3];
        let mut rng = SimRng::new(2);
        let mut pick = |known: &[Known], weights: &[f64]| {
            let mut policy = LeastTime { weights: weights.to_vec() };
            policy.pick(&ChooserView { round_trips, ..view(known, &loads) }, &mut rng).position
        };
        // Steps of 40, 20 and 60 ms: the fastest wins.
        assert_eq!(pick(&known, &[1.0; 3]), 1);
        // Two in flight there: 20 × 3 = 60 against 40.
        known[1].in_flight = 2;
        assert_eq!(pick(&known, &[1.0; 3]), 0);
        // Weight 2 halves the slowest's 60.
        assert_eq!(pick(&known, &[1.0, 1.0, 2.0]), 2);
    }
}
