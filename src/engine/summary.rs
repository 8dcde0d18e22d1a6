//! The numbers a run ends with.

use super::feature::{HedgeTally, Hedging, Locality, Outliers};
use super::{ChangeReport, ErrorKind, KeySpread, Simulation};
use crate::metrics::{
    percentile_curve, Counts, Distribution, FailureReason, Figures, Imbalance, Interval, SamplePoint,
};
use crate::metrics::{Histogram, SAMPLE_INTERVAL};
use crate::theory::{self, Theory};
use serde::Serialize;

/// Every request created is completed, failed (with an error, or timed
/// out of queues past its budget), or in flight; and every
/// copy made has ended (its race lost, or dropped), or is in flight:
/// still racing, or lost and not yet ended. (When a copy wins, it answers in
/// its original's stead, and the original counts as the copy that lost.)
/// So has every attempt a FoundationDB balancer sent, or it is in flight.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Books {
    pub created: u64,
    pub completed: u64,
    pub failed: u64,
    /// Of `failed`: those whose last attempt was answered with an error,
    /// and those that timed out of queues once more than the budget allows.
    pub failed_with_errors: u64,
    pub failed_timed_out: u64,
    /// Of `failed_with_errors`: those a proxy's limits failed at their
    /// chooser (an overflow, or a wait past `timeout_queue_ms`).
    pub failed_at_proxy: u64,
    /// Requests a session waits on.
    pub in_flight: u64,
    /// Copies made (`hedged` in the summary's words, as in [`Counts`]).
    #[serde(rename = "hedged")]
    pub copies: u64,
    pub discarded: u64,
    /// Attempts a FoundationDB balancer sent, and those back.
    pub attempts_sent: u64,
    pub attempts_ended: u64,
    /// Copies racing, or lost and not yet ended, and attempts out.
    pub copies_in_flight: u64,
}

impl Books {
    pub fn balanced(&self) -> bool {
        self.created == self.completed + self.failed + self.in_flight
            && self.failed == self.failed_with_errors + self.failed_timed_out
            && self.copies + self.attempts_sent
                == self.discarded + self.attempts_ended + self.copies_in_flight
    }
}

#[derive(Clone, Debug, Serialize)]
pub struct Summary {
    pub seed: u64,
    pub policy: &'static str,
    pub simulated_s: f64,
    /// Simulated seconds after the warm-up, which the statistics cover.
    pub measured_s: f64,
    pub counts: Tally,
    pub in_flight: u64,
    pub failures: Vec<(FailureReason, u64)>,
    /// Error responses choosers heard, every attempt's, by kind.
    pub errors: Vec<(ErrorKind, u64)>,
    /// Retries sent (after queue timeouts and errors, within the budget).
    pub retries: u64,
    /// Attempts sent per request created, over the whole run: 1 plus
    /// retries per request, the load amplification. Requests still in
    /// flight count with the attempts they made so far, as the retries
    /// count theirs (dividing by the requests that ended would set every
    /// retry against fewer requests than made them); `None` before any
    /// request.
    pub attempts_per_request: Option<f64>,
    /// The share of requests that ended (after the warm-up) that succeeded;
    /// `None` while none has ended.
    pub availability: Option<f64>,
    /// Completed requests per simulated second after the warm-up.
    pub throughput: f64,
    /// Latency of the requests that succeeded.
    pub latency_ms: Distribution,
    /// Time from creation to failure of the requests that failed.
    pub failure_latency_ms: Distribution,
    pub queue_ms: Distribution,
    /// The share of requests that waited in a queue at all (queue time above
    /// zero): Erlang C's probability of waiting. 0 when none was measured.
    pub waited_share: f64,
    pub session_ms: Distribution,
    /// Session-time percentiles p0, p1, ..., p100: the client-experience curve.
    pub session_curve_ms: Vec<f64>,
    /// Age of the older counter behind each piggybacked power-of-two decision.
    pub decision_staleness_ms: Distribution,
    /// Retries (after queue timeouts and errors) per completed request.
    pub mean_retries: f64,
    /// Mean over the live series of the per-server load coefficient of variation.
    pub mean_load_cv: f64,
    /// The spread of work across servers after the warm-up, split into
    /// persistent and temporal imbalance.
    pub imbalance: Imbalance,
    pub completed_per_server: Vec<u64>,
    /// Error responses heard from each server, since time zero.
    pub errors_per_server: Vec<u64>,
    /// Per server, busy slots and queued requests averaged over the samples
    /// taken every 250 ms after the warm-up.
    pub mean_busy_per_server: Vec<f64>,
    pub mean_queued_per_server: Vec<f64>,
    pub events: u64,
    pub trace_hash: String,
    /// With several request classes, each one's figures.
    pub classes: Vec<ClassSummary>,
    /// With classes of different priorities: the mean queue time of the
    /// lowest priority's requests over the highest's (`None` when either
    /// measured none, or the highest waited not at all).
    pub starvation: Option<f64>,
    /// With hedging: how often it fired and what it cost.
    pub hedging: Option<Hedging>,
    /// The headline figures with 95% confidence intervals.
    pub confidence: Confidence,
    /// What queueing theory says of this scenario, where it knows (not of
    /// a replayed trace, whose arrivals are not the scenario's).
    pub theory: Option<Theory>,
    /// What each membership change did (keys moved against the ideal, and
    /// under a lagging table, requests sent where the table no longer says).
    pub membership: Vec<ChangeReport>,
    /// Under a key-placing policy: the spread of the members' key shares
    /// and loads.
    pub key_spread: Option<KeySpread>,
    /// What the figures above cannot show, in words (an empty measured period).
    pub warnings: Vec<String>,
}

/// One request class's share, mean service time and what its requests saw.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ClassSummary {
    /// Its share of requests: the scenario's, or a replayed trace's as
    /// measured (of the requests completed after the warm-up).
    pub share: f64,
    pub mean_service_ms: f64,
    pub priority: u32,
    /// Queue timeouts per completed request of the class.
    pub timeouts_per_request: f64,
    pub queue_ms: Distribution,
    pub latency_ms: Distribution,
}

/// Headline figures with 95% confidence intervals by batch means (see
/// `metrics::confidence`), from the batches of measured time that are
/// complete (the last second or so is in the figures, not in the spread).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Confidence {
    /// How many batches, and how long each is in simulated seconds.
    pub batches: usize,
    pub batch_s: f64,
    pub queue_ms: Figures,
    pub latency_ms: Figures,
    /// Completed requests per simulated second.
    pub throughput: Interval,
}

/// What the run counted: the core's counts, then each feature's, read as
/// one object (in `--json`, one list of names).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Tally {
    #[serde(flatten)]
    pub core: Counts,
    /// Under outlier ejection, the servers ejected.
    #[serde(flatten)]
    pub outliers: Outliers,
    /// With several datacenters, where the sends went.
    #[serde(flatten)]
    pub locality: Locality,
}

/// The core's counts are read as the tally's own (`summary.counts.created`).
impl std::ops::Deref for Tally {
    type Target = Counts;

    fn deref(&self) -> &Counts {
        &self.core
    }
}

impl Summary {
    /// With several datacenters, the share of requests sent to a server in
    /// the sender's own.
    pub fn local_share(&self) -> Option<f64> {
        self.counts.locality.local_share()
    }
}

impl Simulation {
    /// What queueing theory gives for the scenario's own arrivals, over
    /// the time measured so far; none while a trace's arrivals are
    /// replayed instead, which no model here describes.
    pub fn theory(&self) -> Option<Theory> {
        if self.arrivals.replays() {
            None
        } else {
            theory::measured_until(&self.scenario, self.now.as_secs())
        }
    }

    pub fn books(&self) -> Books {
        let counts = &self.metrics.counts;
        let answered = self.requests.iter().filter(|&(id, _)| self.requests.races.answers(id)).count() as u64;
        Books {
            created: counts.created,
            completed: counts.completed,
            failed: counts.failed,
            failed_with_errors: counts.failed_with_errors,
            failed_timed_out: self.metrics.failures_for(FailureReason::RETRY_BUDGET_EXHAUSTED),
            failed_at_proxy: self
                .metrics
                .failures
                .iter()
                .filter(|(r, _)| r.at_proxy())
                .map(|&(_, n)| n)
                .sum(),
            in_flight: answered,
            copies: counts.copies,
            discarded: counts.discarded,
            attempts_sent: counts.attempts_sent,
            attempts_ended: counts.attempts_ended,
            copies_in_flight: self.flights() - answered,
        }
    }

    pub fn summary(&self) -> Summary {
        let m = &self.metrics;
        let latency = m.latency.measured();
        let queue = m.queue_time.measured();
        let sessions = m.session_time.measured();
        let measured_s = (self.now - m.warmup_end).as_secs();
        let series: Vec<&SamplePoint> =
            m.series.iter().filter(|p| p.time_ms >= m.warmup_end.as_ms()).collect();
        Summary {
            seed: self.scenario.seed,
            policy: self.scenario.policy.name(),
            simulated_s: self.now.as_secs(),
            measured_s,
            counts: Tally {
                core: m.counts,
                outliers: self.owned.outliers(),
                locality: self.owned.locality(),
            },
            in_flight: self.books().in_flight,
            failures: m.failures.clone(),
            errors: [
                (ErrorKind::Refused, m.counts.refused),
                (ErrorKind::ServerError, m.counts.server_errors),
            ]
            .into_iter()
            .filter(|&(_, n)| n > 0)
            .collect(),
            retries: m.counts.retried,
            attempts_per_request: (m.counts.created > 0)
                .then(|| 1.0 + m.counts.retried as f64 / m.counts.created as f64),
            availability: {
                let ended = latency.count() + m.failure_latency.count();
                (ended > 0).then(|| latency.count() as f64 / ended as f64)
            },
            failure_latency_ms: Distribution::of(&m.failure_latency),
            throughput: self.throughput(&latency),
            latency_ms: Distribution::of(&latency),
            queue_ms: Distribution::of(&queue),
            waited_share: if queue.count() > 0 {
                1.0 - queue.zeros() as f64 / queue.count() as f64
            } else {
                0.0
            },
            session_ms: Distribution::of(&sessions),
            session_curve_ms: percentile_curve(&sessions),
            decision_staleness_ms: Distribution::of(&m.decision_staleness),
            mean_retries: m.retries as f64 / latency.count().max(1) as f64,
            mean_load_cv: if series.is_empty() {
                0.0
            } else {
                series.iter().map(|p| p.load_cv).sum::<f64>() / series.len() as f64
            },
            imbalance: m.imbalance.imbalance(),
            completed_per_server: m.completed_per_server.clone(),
            errors_per_server: m.errors_per_server.clone(),
            mean_busy_per_server: per_sample(&m.busy_sums, m.samples_measured),
            mean_queued_per_server: per_sample(&m.queued_sums, m.samples_measured),
            events: self.events_processed,
            trace_hash: format!("{:016x}", self.trace_hash),
            classes: self.class_summaries(),
            starvation: self.starvation(),
            hedging: self.hedging(latency.count()),
            confidence: self.confidence(&queue, &latency),
            theory: self.theory(),
            membership: self.membership_changes(),
            key_spread: self.key_spread(),
            warnings: self.warnings(latency.count(), measured_s),
        }
    }

    fn class_summaries(&self) -> Vec<ClassSummary> {
        let m = &self.metrics;
        let shares = self.class_shares();
        let means = self.scenario.class_means_ms();
        (0..m.class_latency.len())
            .map(|c| ClassSummary {
                share: shares[c],
                mean_service_ms: means[c],
                priority: self.scenario.class_priorities[c % self.scenario.class_priorities.len()],
                timeouts_per_request: m.class_retries[c] as f64 / m.class_latency[c].count().max(1) as f64,
                queue_ms: Distribution::of(&m.class_queue_time[c]),
                latency_ms: Distribution::of(&m.class_latency[c]),
            })
            .collect()
    }

    /// Each class's share of requests: the scenario's, or, when a trace is
    /// replayed, which brings its own mix, the share of the requests
    /// completed after the warm-up.
    fn class_shares(&self) -> Vec<f64> {
        let counts: Vec<f64> = match self.arrivals.replays() {
            true => self.metrics.class_latency.iter().map(|h| h.count() as f64).collect(),
            false => self.scenario.class_shares.clone(),
        };
        let total: f64 = counts.iter().sum();
        counts.iter().map(|n| if total > 0.0 { n / total } else { 0.0 }).collect()
    }

    /// What hedging counted after the warm-up.
    pub fn hedge_tally(&self) -> HedgeTally {
        self.owned.hedge_tally()
    }

    /// Hedging's section, with the busy slot-time from the samples every
    /// 250 ms and what the races between requests and copies counted.
    fn hedging(&self, completed: u64) -> Option<Hedging> {
        let busy_ns = self.metrics.busy_sums.iter().sum::<u64>() as f64 * SAMPLE_INTERVAL.0 as f64;
        self.owned.hedging(completed, busy_ns, || (self.race_tally(), self.races_running()))
    }

    fn starvation(&self) -> Option<f64> {
        let levels = self.scenario.class_levels();
        let lowest = *levels.iter().max()?;
        if lowest == 0 || self.metrics.class_queue_time.is_empty() {
            return None;
        }
        let mean_of = |level: u8| {
            let mut pooled = Histogram::default();
            for (class, _) in levels.iter().enumerate().filter(|(_, &l)| l == level) {
                pooled.merge(&self.metrics.class_queue_time[class]);
            }
            pooled.mean()
        };
        let (high, low) = (mean_of(0)?, mean_of(lowest)?);
        (high > 0.0).then(|| low / high)
    }

    /// Requests completed per second of the measured period (0 when it is
    /// empty), from the measured latency histogram: the throughput printed.
    pub(super) fn throughput(&self, latency: &Histogram) -> f64 {
        let measured_s = (self.now - self.metrics.warmup_end).as_secs();
        if measured_s > 0.0 {
            latency.count() as f64 / measured_s
        } else {
            0.0
        }
    }

    fn confidence(&self, queue: &Histogram, latency: &Histogram) -> Confidence {
        let (queue_batches, _) = self.metrics.queue_time.batches();
        let (latency_batches, batch) = self.metrics.latency.batches();
        let batch_s = batch.as_secs();
        let per_batch: Vec<f64> = latency_batches.iter().map(|b| b.count() as f64 / batch_s).collect();
        let throughput = self.throughput(latency);
        Confidence {
            batches: latency_batches.len(),
            batch_s,
            queue_ms: Figures::of(queue, queue_batches),
            latency_ms: Figures::of(latency, latency_batches),
            throughput: Interval::of(throughput, &per_batch),
        }
    }

    fn warnings(&self, measured_requests: u64, measured_s: f64) -> Vec<String> {
        let warmup_s = self.metrics.warmup_end.as_secs();
        if measured_requests > 0 {
            Vec::new()
        } else if self.now <= self.metrics.warmup_end {
            vec![format!(
                "nothing was measured: the run ended at {:.3} s, within the warm-up of {warmup_s} s",
                self.now.as_secs()
            )]
        } else {
            vec![format!(
                "no request completed in the {measured_s:.3} s measured after the warm-up of {warmup_s} s; lengthen duration_s or shorten warmup_s"
            )]
        }
    }
}

fn per_sample(sums: &[u64], samples: u64) -> Vec<f64> {
    sums.iter().map(|&sum| sum as f64 / samples.max(1) as f64).collect()
}
