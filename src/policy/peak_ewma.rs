//! Peak-EWMA (Finagle's and Linkerd's latency-aware balancer): each chooser
//! keeps, per server, a moving average of the round trips it has timed,
//! which jumps straight to any slower round trip (the peak) and otherwise
//! decays towards recent ones with a time constant; a server's cost is that
//! average times the chooser's requests in flight there, plus one. Power of
//! two on the cost.
//!
//! The chooser times a request from its creation to its response, and only
//! requests that were never sent back, so a round trip belongs to one server.
//! A server never timed costs the chooser's typical round trip.
//! An error response is timed like any other (as Finagle and Linkerd do),
//! so a server that fails fast looks cheap: the black hole outlier
//! ejection cures (`engine/ejection.rs`).

use super::{lowest, ChooserView, Compared, Load, Measure, Pick, Policy, Seen};
use crate::rng::{Draw, SimRng};
use crate::time::Time;

/// How fast an average forgets (Finagle's and Linkerd's default: 10 s).
const DECAY: Time = Time(10 * 1_000 * Time::NANOS_PER_MS);

#[derive(Clone, Copy, Default)]
struct Average {
    /// Nanoseconds; 0 until the first round trip.
    value: f64,
    updated: Time,
}

impl Average {
    fn observe(&mut self, round_trip: f64, now: Time) {
        if round_trip > self.value {
            self.value = round_trip;
        } else {
            let weight = libm::exp(-((now - self.updated).0 as f64) / DECAY.0 as f64);
            self.value = self.value * weight + round_trip * (1.0 - weight);
        }
        self.updated = now;
    }
}

pub struct PeakEwma {
    averages: Vec<Average>,
    /// Over every server: the cost of one never timed.
    typical: Average,
    /// The last pick's two candidates, if it compared any.
    candidates: Option<[usize; 2]>,
}

impl PeakEwma {
    pub fn new(pool_len: usize) -> PeakEwma {
        PeakEwma {
            averages: vec![Average::default(); pool_len],
            typical: Average::default(),
            candidates: None,
        }
    }

    fn cost(&self, view: &ChooserView, position: usize) -> u64 {
        let average = self.averages.get(position).filter(|a| a.value > 0.0).unwrap_or(&self.typical);
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
        Pick::at(lowest([first, second].into_iter(), |p| Load(self.cost(view, p)), rng))
    }

    fn compared(&self, view: &ChooserView, into: &mut Vec<Seen>) -> Option<Compared> {
        let candidates = self.candidates?;
        let ms = |position| Time(self.cost(view, position)).as_ms();
        into.extend(candidates.map(|position| Seen { position, amount: ms(position) }));
        Some(Compared { measure: Measure::Cost, fell_back: false })
    }

    fn on_response(&mut self, position: usize, round_trip: Time, now: Time) {
        let round_trip = round_trip.0 as f64;
        if let Some(average) = self.averages.get_mut(position) {
            average.observe(round_trip, now);
        }
        self.typical.observe(round_trip, now);
    }
}

#[cfg(test)]
mod tests {
    use super::super::{testing::view, Known};
    use super::*;

    #[test]
    fn the_average_takes_peaks_at_once_and_forgets_slowly() {
        let mut a = Average::default();
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
        let mut policy = PeakEwma::new(2);
        let mut rng = SimRng::new(3);
        policy.on_response(0, Time::from_ms(10.0), Time::from_ms(1.0));
        policy.on_response(1, Time::from_ms(30.0), Time::from_ms(1.0));
        assert_eq!(policy.pick(&view(&known, &loads), &mut rng).position, 0);
        // Three in flight at the fast one: cost 40 ms against 30.
        known[0].in_flight = 3;
        assert_eq!(policy.pick(&view(&known, &loads), &mut rng).position, 1);
    }
}
