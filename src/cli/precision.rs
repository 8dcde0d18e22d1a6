//! `run --until-precision`: whether the p99 queue time is known as well as
//! asked. An interval narrow only because there is next to nothing in it
//! (no request completed, or too few for a p99) is not a precision.

use super::report::seconds;
use lbsim::Summary;
use serde::Serialize;

/// Batches a precision needs before it is believed.
const MIN_BATCHES: usize = 10;
/// Requests a batch needs on average for its p99 to be more than its largest.
const MIN_REQUESTS_PER_BATCH: u64 = 100;

/// Where a run stands against `--until-precision`.
#[derive(Debug, PartialEq, Serialize)]
pub struct Precision {
    /// Asked: the half-width as a fraction of the p99.
    pub target: f64,
    pub reached: bool,
    /// The interval's half-width as a fraction of the p99, when there is one
    /// to speak of; why the target is not met, when it is not.
    pub relative_half_width: Option<f64>,
    pub why_not: Option<String>,
}

impl Precision {
    pub fn of(target: f64, summary: &Summary) -> Precision {
        let c = &summary.confidence;
        let p99 = c.queue_ms.p99;
        let requests = summary.queue_ms.count;
        let relative = p99.half_width.map(|h| if h == 0.0 { 0.0 } else { h / p99.estimate });
        let (relative, why_not) = if summary.latency_ms.count == 0 {
            (None, Some("no request completed".to_string()))
        } else if requests < MIN_REQUESTS_PER_BATCH * c.batches.max(1) as u64 {
            let why = format!(
                "only {requests} requests reached a slot in {} batches; a p99 needs {MIN_REQUESTS_PER_BATCH} a batch",
                c.batches
            );
            (None, Some(why))
        } else if c.batches < MIN_BATCHES {
            (relative, Some(format!("{} batches, and it takes {MIN_BATCHES}", c.batches)))
        } else {
            match relative {
                Some(r) if r <= target => (Some(r), None),
                Some(r) => (Some(r), Some(format!("the 95% interval is ±{:.2}%", 100.0 * r))),
                None => (None, Some("no interval".to_string())),
            }
        };
        Precision { target, reached: why_not.is_none(), relative_half_width: relative, why_not }
    }

    /// A line for people: when the run stopped and why.
    pub fn describe(&self, summary: &Summary) -> String {
        let target = 100.0 * self.target;
        let at = seconds(summary.simulated_s);
        match (&self.why_not, self.relative_half_width) {
            (None, Some(r)) => format!(
                "stopped at {at} simulated s: the p99 queue time's 95% interval is within ±{:.2}% (asked: {target}%)\n",
                100.0 * r
            ),
            (why, _) => format!(
                "precision not reached at {at} s (duration_s): {}; asked ±{target}% of the p99 queue time; lengthen --duration\n",
                why.as_deref().unwrap_or("no interval")
            ),
        }
    }
}
