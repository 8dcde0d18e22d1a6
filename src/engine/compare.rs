//! Two runs of one scenario that differ in chosen settings, compared figure
//! by figure: B over A, with a 95% interval from their aligned batches.
//!
//! When both runs share a seed they share every random number that does not
//! depend on routing (see `rng::Streams`): the same sessions arrive at the
//! same moments bringing the same work, so a batch that is busy for one is
//! busy for the other and the ratio's interval is narrow. With different
//! seeds the same ratio comes with a wider interval.

use super::Simulation;
use crate::metrics::{Histogram, Interval, Recorder};
use crate::time::Time;
use serde::Serialize;

#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Comparison {
    /// The batches both runs have complete, and their length in seconds.
    pub batches: usize,
    pub batch_s: f64,
    /// p99 and mean queue time, p99 latency and throughput of B over A.
    pub queue_p99: Interval,
    pub queue_mean: Interval,
    pub latency_p99: Interval,
    pub throughput: Interval,
    /// Queue timeouts after the warm-up in A and in B, and B over A (no
    /// interval: bounces are not kept per batch; `None` when A had none).
    pub measured_bounces: (u64, u64),
    pub bounces: Option<f64>,
}

impl Comparison {
    /// B over A. The runs should share the warm-up and have run to the same
    /// simulated time, so that their batches cover the same stretches of
    /// time; batches of different lengths give figures without intervals.
    pub fn of(a: &Simulation, b: &Simulation) -> Comparison {
        let (a_metrics, b_metrics) = (&a.metrics, &b.metrics);
        let (a_batches, length) = a_metrics.latency.batches();
        let (b_batches, b_length) = b_metrics.latency.batches();
        let p99 = |h: &Histogram| h.quantile(0.99).map_or(0.0, |ns| Time(ns).as_ms());
        let mean = |h: &Histogram| h.mean().unwrap_or(0.0);
        let count = |h: &Histogram| h.count() as f64;
        let (a_bounces, b_bounces) = (a_metrics.measured_bounces, b_metrics.measured_bounces);
        Comparison {
            batches: if length == b_length { a_batches.len().min(b_batches.len()) } else { 0 },
            batch_s: length.as_secs(),
            queue_p99: ratio(&a_metrics.queue_time, &b_metrics.queue_time, p99),
            queue_mean: ratio(&a_metrics.queue_time, &b_metrics.queue_time, mean),
            latency_p99: ratio(&a_metrics.latency, &b_metrics.latency, p99),
            // Per second of each run's measured period, as each summary
            // prints it; per batch the counts do, the batches being alike.
            throughput: paired(
                a.throughput(&a_metrics.latency.measured()),
                b.throughput(&b_metrics.latency.measured()),
                (&a_metrics.latency, &b_metrics.latency),
                count,
            ),
            measured_bounces: (a_bounces, b_bounces),
            bounces: (a_bounces > 0).then(|| b_bounces as f64 / a_bounces as f64),
        }
    }
}

/// `figure` of B over A, over the whole measured period, with an interval
/// from the batches both have complete (none when their lengths differ).
fn ratio(a: &Recorder, b: &Recorder, figure: impl Fn(&Histogram) -> f64) -> Interval {
    paired(figure(&a.measured()), figure(&b.measured()), (a, b), figure)
}

/// `whole_b / whole_a`, with an interval from `figure` of the batches both
/// recorders have complete (none when their lengths differ).
fn paired(
    whole_a: f64,
    whole_b: f64,
    (a, b): (&Recorder, &Recorder),
    figure: impl Fn(&Histogram) -> f64,
) -> Interval {
    let (a_batches, a_length) = a.batches();
    let (b_batches, b_length) = b.batches();
    let k = if a_length == b_length { a_batches.len().min(b_batches.len()) } else { 0 };
    let values = |batches: &[Histogram]| batches[..k].iter().map(&figure).collect::<Vec<f64>>();
    Interval::ratio(whole_b, whole_a, &values(b_batches), &values(a_batches))
}
