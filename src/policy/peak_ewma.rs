//! Peak-EWMA (Finagle's and Linkerd's latency-aware balancer): each chooser
//! keeps, per server, a moving average of the round trips it has timed,
//! which jumps straight to any slower round trip (the peak) and otherwise
//! decays towards recent ones with a time constant; a server's cost is that
//! average times the chooser's requests in flight there, plus one. Power of
//! two on the cost.
//!
//! The chooser times a request from its creation to its response, and only
//! requests that were never sent back, so a round trip belongs to one server.
//! A server never timed costs the chooser's typical round trip. The
//! averages are what the chooser learned, so they live in its table
//! (`engine/chooser/table.rs`), keyed by server: they outlast the policy,
//! which is rebuilt whenever the pool changes.
//! An error response is timed like any other (as Finagle and Linkerd do),
//! so a server that fails fast looks cheap: the black hole outlier
//! ejection cures (`engine/ejection.rs`).

use super::{
    least_time, lowest, ChooserView, Compared, Descriptor, Measure, Pick, Policy, Property, Routing, Seen,
};
use crate::rng::{Draw, SimRng};
use crate::time::Time;

pub static PEAK_EWMA: Descriptor = Descriptor {
    name: "peak-ewma",
    title: "peak-EWMA latency of two",
    description: "best of two by peak-sensitive average round trip × (requests in flight + 1)",
    properties: &[Property::ComparesASample, Property::TimesRoundTrips],
    routing: Routing::Picks(|_, _, _| Box::<PeakEwma>::default()),
};

/// How fast an average forgets (Finagle's and Linkerd's default: 10 s).
const DECAY: Time = Time(10 * 1_000 * Time::NANOS_PER_MS);

/// A moving average of round trips that takes any slower one at once;
/// beside it, the plain average of recent round trips that NGINX's
/// `least_time` keeps (`least_time.rs`), so that the chooser's one column
/// of timings serves both policies.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PeakAverage {
    /// Nanoseconds; 0 until the first round trip.
    value: f64,
    updated: Time,
    /// NGINX's average, in whole milliseconds; 0 until the first round trip.
    pub(super) recent_ms: f64,
}

impl PeakAverage {
    /// Takes a round trip (ns) that ended at `now`.
    pub fn observe(&mut self, round_trip: f64, now: Time) {
        if round_trip > self.value {
            self.value = round_trip;
        } else {
            let weight = libm::exp(-((now - self.updated).0 as f64) / DECAY.0 as f64);
            self.value = self.value * weight + round_trip * (1.0 - weight);
        }
        self.updated = now;
        self.recent_ms = least_time::average(self.recent_ms, Time(round_trip as u64));
    }
}

#[derive(Default)]
pub struct PeakEwma {
    /// The last pick's two candidates, if it compared any.
    candidates: Option<[usize; 2]>,
}

impl PeakEwma {
    fn cost(view: &ChooserView, position: usize) -> u64 {
        let timed = view.round_trips.each.get(position).filter(|a| a.value > 0.0);
        let average = timed.unwrap_or(&view.round_trips.typical);
        let in_flight = view.known[position].in_flight;
        (average.value * f64::from(in_flight + 1)) as u64
    }
}

impl Policy for PeakEwma {
    fn pick(&mut self, view: &ChooserView, rng: &mut SimRng) -> Pick {
        let n = view.pool_len();
        if n == 1 {
            self.candidates = None;
            return Pick::at(0);
        }
        let first = rng.index(n);
        let second = (first + 1 + rng.index(n - 1)) % n;
        self.candidates = Some([first, second]);
        Pick::at(lowest([first, second].into_iter(), |p| Self::cost(view, p), rng))
    }

    fn compared(&self, view: &ChooserView, into: &mut Vec<Seen>) -> Option<Compared> {
        let candidates = self.candidates?;
        let ms = |position| Time(Self::cost(view, position)).as_ms();
        into.extend(candidates.map(|position| Seen { position, amount: ms(position) }));
        Some(Compared { measure: Measure::Cost, fell_back: false })
    }
}

#[cfg(test)]
mod tests {
    use super::super::{testing::view, Column, Known, RoundTrips};
    use super::*;

    #[test]
    fn the_average_takes_peaks_at_once_and_forgets_slowly() {
        let mut a = PeakAverage::default();
        a.observe(100.0, Time::ZERO);
        a.observe(50.0, DECAY);
        // One time constant later, weight e^-1 on the old value.
        let expected = 100.0 / std::f64::consts::E + 50.0 * (1.0 - 1.0 / std::f64::consts::E);
        assert!((a.value - expected).abs() < 1e-9, "{}", a.value);
        a.observe(500.0, DECAY);
        assert_eq!(a.value, 500.0);
    }

    #[test]
    fn prefers_the_faster_server_and_weighs_requests_in_flight() {
        let mut known = [Known::default(); 2];
        let loads = [0; 2];
        let mut policy = PeakEwma::default();
        let mut rng = SimRng::new(3);
        let mut each = [PeakAverage::default(); 2];
        each[0].observe(Time::from_ms(10.0).0 as f64, Time::from_ms(1.0));
        each[1].observe(Time::from_ms(30.0).0 as f64, Time::from_ms(1.0));
        let round_trips = RoundTrips { each: Column::dense(&each), typical: PeakAverage::default() };
        assert_eq!(policy.pick(&ChooserView { round_trips, ..view(&known, &loads) }, &mut rng).position, 0);
        // Three in flight at the fast one: cost 40 ms against 30.
        known[0].in_flight = 3;
        assert_eq!(policy.pick(&ChooserView { round_trips, ..view(&known, &loads) }, &mut rng).position, 1);
    }
}
