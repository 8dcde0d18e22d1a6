//! Shared helpers for the integration tests: building scenarios from
//! `key=value` pairs, and batch-means estimates with standard errors.
#![allow(dead_code)]

use lbsim::metrics::Histogram;
use lbsim::{Scenario, Simulation, Time};

/// The default scenario with `pairs` applied.
pub fn scenario(pairs: &[(&str, &str)]) -> Scenario {
    let mut scenario = Scenario::default();
    scenario.set_many(pairs.iter().copied()).unwrap_or_else(|e| panic!("{e}"));
    scenario
}

/// A proxy's pool as the proxies' tests study it: one balancer before the
/// servers, sessions of one request (each request picked on its own) and
/// no queue timeout (a request ends only by its answer or its error), with
/// each of `pairs` applied in turn.
pub fn behind_one_balancer(pairs: &[&[(&str, &str)]]) -> Scenario {
    let pool = [("balancers", "1"), ("session_length", "1"), ("queue_timeout_ms", "none")];
    scenario(&[&pool[..], &pairs.concat()].concat())
}

/// Exactly an M/M/c queue per server: Poisson arrivals, exponential service
/// with a mean of 1 ms, sessions of one request, no queue timeout, no network
/// delay and no handshake; a 2 s warm-up and a fixed seed.
pub fn classic(servers: u32, slots: u32, load: f64, policy: &str, duration_s: f64) -> lbsim::Scenario {
    let (servers, slots, load, duration) =
        (servers.to_string(), slots.to_string(), load.to_string(), duration_s.to_string());
    scenario(&[
        ("servers", &servers),
        ("slots", &slots),
        ("load", &load),
        ("policy", policy),
        ("service", "exponential"),
        ("service_mean_ms", "1"),
        ("queue_timeout_ms", "none"),
        ("client_delay_ms", "0"),
        ("handshake_round_trips", "0"),
        ("session_length", "1"),
        ("duration_s", &duration),
        ("warmup_s", "2"),
        ("seed", "20261130"),
    ])
}

/// A scenario file from `scenarios/` with `pairs` applied.
pub fn scenario_file(name: &str, pairs: &[(&str, &str)]) -> Scenario {
    let path = format!("{}/scenarios/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut scenario = Scenario::from_toml(&text).unwrap_or_else(|e| panic!("{path}: {e}"));
    scenario.set_many(pairs.iter().copied()).unwrap_or_else(|e| panic!("{e}"));
    scenario
}

/// A mean with its standard error.
#[derive(Clone, Copy, Debug)]
pub struct Estimate {
    pub mean: f64,
    pub se: f64,
}

impl Estimate {
    /// The mean and standard error of independent observations.
    pub fn of(values: &[f64]) -> Estimate {
        let n = values.len() as f64;
        let mean = values.iter().sum::<f64>() / n;
        let variance = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0);
        Estimate { mean, se: (variance / n).sqrt() }
    }

    /// Whether this estimate exceeds `other` by more than `k` standard errors
    /// of the difference.
    pub fn above(&self, other: &Estimate, k: f64) -> bool {
        self.mean - other.mean > k * (self.se * self.se + other.se * other.se).sqrt()
    }
}

/// The summary of `scenario` run to its end, its books checked.
pub fn summary_of(scenario: &Scenario) -> lbsim::Summary {
    let mut sim = Simulation::new(scenario).unwrap_or_else(|e| panic!("{e}"));
    sim.run();
    assert!(sim.books().balanced(), "{:?}", sim.books());
    sim.summary()
}

/// The mean and standard error of `measure` over seeds 1 to `seeds`, run
/// independently.
pub fn over_seeds(seeds: u64, measure: impl Fn(u64) -> f64) -> (f64, f64) {
    let values: Vec<f64> = (1..=seeds).map(measure).collect();
    let estimate = Estimate::of(&values);
    (estimate.mean, estimate.se)
}

/// One figure of the queue times recorded after the scenario's warm-up,
/// with a batch-means standard error: the measured span is cut into
/// `batches` equal batches whose figures are close to independent when
/// batches are long against the queue's relaxation time.
pub fn batch_means(scenario: &Scenario, batches: usize, figure: fn(&Histogram) -> f64) -> Estimate {
    let mut sim = Simulation::new(scenario).unwrap_or_else(|e| panic!("{e}"));
    let start = Time::from_secs(scenario.warmup_s);
    let span = Time::from_secs(scenario.duration_s) - start;
    sim.advance_to(start, u64::MAX);
    let mut before = Histogram::default();
    let mut values = Vec::with_capacity(batches);
    for k in 1..=batches as u64 {
        sim.advance_to(start + Time(span.0 / batches as u64 * k), u64::MAX);
        let now = sim.metrics().queue_time.measured();
        values.push(figure(&now.since(&before)));
        before = now;
    }
    assert!(sim.books().balanced());
    Estimate::of(&values)
}

/// Mean queue wait in ms, by batch means.
pub fn mean_queue_wait(scenario: &Scenario, batches: usize) -> Estimate {
    batch_means(scenario, batches, |h| h.sum() as f64 / h.count().max(1) as f64 / 1e6)
}

/// The share of requests that waited at all (queue time above zero), by batch means.
pub fn waited_share(scenario: &Scenario, batches: usize) -> Estimate {
    batch_means(scenario, batches, |h| 1.0 - h.zeros() as f64 / h.count().max(1) as f64)
}
