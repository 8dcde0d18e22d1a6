//! What one client knows of each server it reads from, as FoundationDB's
//! `QueueModel` (`fdbrpc/include/fdbrpc/QueueModel.h`, `fdbrpc/QueueModel.cpp`)
//! keeps it: its outstanding requests, smoothed over time and weighted by the
//! penalty the server last reported; the latency of its last reply; and a
//! time before which it is not tried, after a "future version" error.
//!
//! The model is a trait over where that is kept, by server number, as the
//! failure monitor is: the engine keeps it with what else each chooser
//! knows of each server (a column keyed by chooser and server, holding
//! only the servers the chooser sent to), the tests in a vector. The
//! source's model also holds the budget and multiplier of second requests,
//! which `loadBalance` shares across every request of the client; here
//! they are the client's [`Knowledge`](super::Knowledge).

use super::knobs::{
    FUTURE_VERSION_BACKOFF_GROWTH, FUTURE_VERSION_INITIAL_BACKOFF, FUTURE_VERSION_MAX_BACKOFF,
    INITIAL_LATENCY, QUEUE_MODEL_SMOOTHING_AMOUNT,
};
use crate::time::Time;

/// Exponential smoothing in continuous time (FoundationDB's `Smoother`,
/// `fdbrpc/include/fdbrpc/Smoother.h`): the estimate moves towards the total
/// by `1 - exp(-elapsed / e-folding time)` of the gap.
#[derive(Clone, Copy, Debug, Default)]
pub struct Smoother {
    total: f64,
    estimate: f64,
    updated: Time,
}

impl Smoother {
    fn estimate_at(&self, now: Time) -> f64 {
        let elapsed = (now - self.updated).0 as f64;
        let kept = libm::exp(-elapsed / QUEUE_MODEL_SMOOTHING_AMOUNT.0 as f64);
        self.estimate + (self.total - self.estimate) * (1.0 - kept)
    }

    pub fn add(&mut self, delta: f64, now: Time) {
        self.estimate = self.estimate_at(now);
        self.updated = now;
        self.total += delta;
    }

    /// The smoothed total: it lags behind the sum of what was added.
    pub fn smooth_total(&self, now: Time) -> f64 {
        self.estimate_at(now)
    }
}

/// One server, as the client sees it (`QueueData`).
#[derive(Clone, Copy, Debug)]
pub struct QueueData {
    /// Requests outstanding at the server, each counted at the penalty the
    /// server had when it was sent.
    pub outstanding: Smoother,
    /// The latency of the last reply (of the slowest, since the last clean one).
    pub latency: Time,
    /// The cost of one request, as the server last reported it (1 or more).
    pub penalty: f64,
    /// The server is not tried before this time.
    pub failed_until: Time,
    /// How long the next "future version" error keeps it away.
    pub future_version_backoff: Time,
    /// A "future version" error after this time doubles the backoff.
    pub increase_backoff_at: Time,
}

impl Default for QueueData {
    fn default() -> QueueData {
        QueueData {
            outstanding: Smoother::default(),
            latency: INITIAL_LATENCY,
            penalty: 1.0,
            failed_until: Time::ZERO,
            future_version_backoff: FUTURE_VERSION_INITIAL_BACKOFF,
            increase_backoff_at: Time::ZERO,
        }
    }
}

/// How a request to a server ended, for the model (`endRequest`'s arguments).
#[derive(Clone, Copy, Debug)]
pub struct Ended {
    pub latency: Time,
    /// The penalty the reply carried; `None` when nothing came back from the
    /// server (a broken connection), which leaves the last one in place.
    pub penalty: Option<f64>,
    /// What `add_request` returned when the request was sent.
    pub delta: f64,
    /// The server answered (with a value or an error of its own).
    pub clean: bool,
    /// The answer was "future version" or "process behind".
    pub future_version: bool,
}

/// A client's knowledge of every server, by server number.
pub trait QueueModel {
    /// What the client knows of `server` (a server never heard of looks idle).
    fn measurement(&self, server: usize) -> QueueData;

    /// What the client knows of `server`, to change (written from what a
    /// server never heard of looks like).
    fn data(&mut self, server: usize) -> &mut QueueData;

    /// A request goes to `server`: it counts as the server's penalty, which
    /// is returned so that the same amount is taken off when it ends.
    fn add_request(&mut self, server: usize, now: Time) -> f64 {
        let data = self.data(server);
        let delta = data.penalty;
        data.outstanding.add(delta, now);
        delta
    }

    fn end_request(&mut self, server: usize, now: Time, ended: Ended) {
        let data = self.data(server);
        data.outstanding.add(-ended.delta, now);
        data.latency = if ended.clean { ended.latency } else { data.latency.max(ended.latency) };
        if ended.future_version {
            if now > data.increase_backoff_at {
                let grown = Time(data.future_version_backoff.0.saturating_mul(FUTURE_VERSION_BACKOFF_GROWTH));
                data.future_version_backoff = grown.min(FUTURE_VERSION_MAX_BACKOFF);
                data.increase_backoff_at = now + data.future_version_backoff;
            }
            data.failed_until = now + data.future_version_backoff;
        } else if ended.clean {
            data.future_version_backoff = FUTURE_VERSION_INITIAL_BACKOFF;
            data.increase_backoff_at = Time::ZERO;
        }
        if let Some(penalty) = ended.penalty.filter(|&penalty| penalty > 0.0) {
            data.penalty = penalty;
        }
    }
}

/// The penalty a server reports with each reply, from its queue, as a
/// storage server's `getPenalty` (`fdbserver/storageserver/storageserver.cpp`)
/// derives it from its write queue: 1 until the queue is within two springs
/// of its target, then one more for every spring beyond that. (The source's
/// other term, the inverse of the rate at which the server makes writes
/// durable, has no counterpart here.) Its knobs measure bytes
/// (`TARGET_BYTES_PER_STORAGE_SERVER` 1000e6, `SPRING_BYTES_STORAGE_SERVER`
/// 100e6, `fdbserver/core/ServerKnobs.cpp`); here the queue is in requests.
#[derive(Clone, Copy, Debug)]
pub struct PenaltyCurve {
    pub target: f64,
    pub spring: f64,
}

impl PenaltyCurve {
    pub fn penalty(&self, queue: f64) -> f64 {
        ((queue - (self.target - 2.0 * self.spring)) / self.spring).max(1.0)
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::Models;
    use super::*;

    const SECOND: Time = Time(1_000 * Time::NANOS_PER_MS);

    fn ended(latency: Time, clean: bool, future_version: bool) -> Ended {
        Ended { latency, penalty: Some(1.0), delta: 1.0, clean, future_version }
    }

    #[test]
    fn outstanding_requests_are_smoothed_with_a_two_second_folding_time() {
        let mut model = Models::default();
        model.add_request(4, Time::ZERO);
        assert_eq!(model.measurement(4).outstanding.smooth_total(Time::ZERO), 0.0);
        // After one e-folding time the estimate has covered 1 - 1/e of the gap.
        let at_two_seconds = model.measurement(4).outstanding.smooth_total(Time(2 * SECOND.0));
        assert!((at_two_seconds - (1.0 - (-1.0f64).exp())).abs() < 1e-12);
    }

    #[test]
    fn a_request_counts_as_the_penalty_the_server_last_reported() {
        let mut model = Models::default();
        let delta = model.add_request(0, Time::ZERO);
        model.end_request(0, SECOND, Ended { penalty: Some(3.0), delta, ..ended(SECOND, true, false) });
        assert_eq!(model.measurement(0).penalty, 3.0);
        assert_eq!(model.add_request(0, SECOND), 3.0);
        // A broken connection carries no penalty and changes none.
        model.end_request(0, SECOND, Ended { penalty: None, delta: 3.0, ..ended(SECOND, false, false) });
        assert_eq!(model.measurement(0).penalty, 3.0);
    }

    #[test]
    fn latency_is_the_last_clean_reply_or_the_slowest_since() {
        let mut model = Models::default();
        model.end_request(1, SECOND, ended(Time(5), true, false));
        assert_eq!(model.measurement(1).latency, Time(5));
        model.end_request(1, SECOND, ended(Time(9), false, false));
        model.end_request(1, SECOND, ended(Time(7), false, false));
        assert_eq!(model.measurement(1).latency, Time(9));
    }

    #[test]
    fn future_version_makes_a_server_unavailable_for_a_growing_time() {
        let mut model = Models::default();
        // The first error doubles the initial second: away for 2 s.
        model.end_request(2, SECOND, ended(Time(1), true, true));
        assert_eq!(model.measurement(2).failed_until, Time(3 * SECOND.0));
        // Another within those 2 s keeps the backoff; one after doubles it.
        model.end_request(2, Time(2 * SECOND.0), ended(Time(1), true, true));
        assert_eq!(model.measurement(2).failed_until, Time(4 * SECOND.0));
        model.end_request(2, Time(4 * SECOND.0), ended(Time(1), true, true));
        assert_eq!(model.measurement(2).failed_until, Time(8 * SECOND.0));
        // It never exceeds 8 s, and a clean reply starts again from 1 s.
        for at in [9, 20, 40] {
            model.end_request(2, Time(at * SECOND.0), ended(Time(1), true, true));
        }
        assert_eq!(model.measurement(2).future_version_backoff, FUTURE_VERSION_MAX_BACKOFF);
        model.end_request(2, Time(41 * SECOND.0), ended(Time(1), true, false));
        assert_eq!(model.measurement(2).future_version_backoff, FUTURE_VERSION_INITIAL_BACKOFF);
    }

    #[test]
    fn the_penalty_rises_by_one_for_each_spring_past_the_target_less_two() {
        let curve = PenaltyCurve { target: 100.0, spring: 10.0 };
        assert_eq!(curve.penalty(0.0), 1.0);
        assert_eq!(curve.penalty(90.0), 1.0);
        assert_eq!(curve.penalty(100.0), 2.0);
        assert_eq!(curve.penalty(125.0), 4.5);
    }
}
