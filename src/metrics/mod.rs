//! What the simulation measures: per-request latency and queue time, per
//! session time, counts, and periodic samples for live charts; all in
//! bounded memory. Here, the figures a run reports (counts, distributions,
//! the live series' points, why requests failed); the record the engine
//! keeps as it goes, in `record`; the statistics behind them, in the
//! others.

mod batches;
mod confidence;
mod histogram;
mod imbalance;
mod record;
mod window;

pub use batches::{Batches, MAX_BATCHES};
pub use confidence::{standard_deviation, t_975, Figures, Interval};
pub use histogram::Histogram;
pub use imbalance::{Imbalance, ImbalanceSums};
pub use record::{Metrics, QUEUE_WINDOW, SAMPLE_INTERVAL, SENT_WINDOW, SERIES_POINTS, SERVER_HISTORY};
pub use window::Recorder;

use crate::time::Time;
use serde::Serialize;

/// Summary statistics of one measured quantity, in milliseconds.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Distribution {
    pub count: u64,
    pub mean: f64,
    pub p0: f64,
    pub p50: f64,
    pub p90: f64,
    pub p99: f64,
    pub p999: f64,
    pub p100: f64,
}

impl Distribution {
    pub fn of(histogram: &Histogram) -> Distribution {
        let q = histogram.quantiles(&[0.0, 0.5, 0.9, 0.99, 0.999, 1.0]);
        let ms = |i: usize| q[i].map_or(0.0, |ns| Time(ns).as_ms());
        Distribution {
            count: histogram.count(),
            mean: histogram.mean().map_or(0.0, |ns| ns / Time::NANOS_PER_MS as f64),
            p0: ms(0),
            p50: ms(1),
            p90: ms(2),
            p99: ms(3),
            p999: ms(4),
            p100: ms(5),
        }
    }
}

/// The percentiles p0, p1, ..., p100 of a histogram, in milliseconds
/// (empty when nothing was recorded).
pub fn percentile_curve(histogram: &Histogram) -> Vec<f64> {
    if histogram.count() == 0 {
        return Vec::new();
    }
    let qs: Vec<f64> = (0..=100).map(|p| p as f64 / 100.0).collect();
    histogram.quantiles(&qs).into_iter().map(|v| v.map_or(0.0, |ns| Time(ns).as_ms())).collect()
}

/// Why a request failed, by the name the summary gives it (kebab-case).
/// The core's own reasons are here; a feature that fails requests for a
/// reason of its own declares it beside itself ([`FailureReason::named`]),
/// saying whether its requests fail at their chooser, refused by the proxy
/// (the books count those apart), rather than for what a server did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FailureReason {
    name: &'static str,
    at_proxy: bool,
}

impl FailureReason {
    /// It timed out of queues more often than the retry budget allows.
    pub const RETRY_BUDGET_EXHAUSTED: FailureReason = FailureReason::named("retry-budget-exhausted", false);
    /// Its last attempt was refused by a server that was down, and the
    /// retry budget was spent.
    pub const REFUSED: FailureReason = FailureReason::named("refused", false);
    /// Its last attempt was answered with a server's error, and the retry
    /// budget was spent.
    pub const SERVER_ERROR: FailureReason = FailureReason::named("server-error", false);

    pub const fn named(name: &'static str, at_proxy: bool) -> FailureReason {
        FailureReason { name, at_proxy }
    }

    pub fn name(self) -> &'static str {
        self.name
    }

    /// Whether the request failed at its chooser, refused by the proxy.
    pub fn at_proxy(self) -> bool {
        self.at_proxy
    }
}

impl Serialize for FailureReason {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name)
    }
}

impl std::fmt::Display for FailureReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name)
    }
}

/// Running totals since time zero. The books: `created` equals `completed`
/// plus `failed` plus the requests in flight, at every instant.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Counts {
    pub created: u64,
    pub completed: u64,
    pub failed: u64,
    pub bounces: u64,
    pub sessions_started: u64,
    pub sessions_completed: u64,
    pub sessions_failed: u64,
    /// Copies of requests made, and copies (of either twin) that lost
    /// their race or were dropped and have ended. (`hedged` in the
    /// summary's words, from when hedging made the only copies.)
    #[serde(rename = "hedged")]
    pub copies: u64,
    pub discarded: u64,
    /// Requests a crashed server held, sent back to be placed again.
    pub crash_replaced: u64,
    /// Error responses heard by choosers (every attempt's), by kind.
    pub refused: u64,
    pub server_errors: u64,
    /// Retries sent, after queue timeouts and errors alike (each within
    /// the retry budget).
    pub retried: u64,
    /// Of `failed`, those that failed with an error (the rest timed out
    /// of queues past the budget).
    pub failed_with_errors: u64,
    /// Attempts features sent for the requests they keep
    /// (`Action::SendAttempt`), and those whose reply (or bounce) has come
    /// back.
    pub attempts_sent: u64,
    pub attempts_ended: u64,
}

/// One point of the live series.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct SamplePoint {
    pub time_ms: f64,
    /// Queue-time and latency percentiles over the last second (ms).
    pub queue_p50: f64,
    pub queue_p90: f64,
    pub queue_p99: f64,
    pub latency_p50: f64,
    pub latency_p90: f64,
    pub latency_p99: f64,
    /// Session-time percentiles of the sessions that ended in the last second.
    pub session_p50: f64,
    pub session_p90: f64,
    pub session_p99: f64,
    /// Completed requests per simulated second over the last second (a
    /// quarter-second's count, scaled up, read 596/s at a capacity of 500:
    /// the readout says "last second", and holds to it).
    pub throughput: f64,
    /// Queue timeouts per simulated second over the last second.
    pub bounce_rate: f64,
    /// Of the requests that ended (completed or failed) in the last
    /// second, the share that completed; NaN when none ended, since a
    /// second with no requests says nothing of how available servers were.
    pub availability: f64,
    /// Error responses choosers heard (refused and server errors, every
    /// attempt's, retried or not) per simulated second over the last second.
    pub error_rate: f64,
    /// Requests that failed (their last attempt met an error, or they timed
    /// out of queues more often than the retry budget allows) per simulated
    /// second over the last second: what availability leaves out, as a rate.
    pub failure_rate: f64,
    /// Coefficient of variation, across servers, of work started per unit of
    /// speed during the last interval (0 = perfectly even).
    pub load_cv: f64,
    pub busy_slots: u64,
    pub queued: u64,
}

#[cfg(test)]
mod tests;
