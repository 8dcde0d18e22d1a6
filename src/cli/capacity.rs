//! `lbsim capacity`: effective capacity, the highest offered load at which a
//! pool still meets a latency objective, per policy. Bisection on `load`;
//! each probe runs the scenario and judges the objective by the p99's 95%
//! interval, running four times longer when the interval straddles the
//! target. A run in which any request failed (its retry budget spent) does
//! not meet the objective, whatever the p99 of those served. Policies are
//! searched in parallel, one per core.

use lbsim::metrics::Interval;
use lbsim::{Scenario, Simulation, Time};
use serde::Serialize;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// A latency objective: the p99 of queue time (or of latency) at most `ms`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Objective {
    pub latency: bool,
    pub ms: f64,
}

impl Objective {
    /// `p99=200ms` (queue time) or `latency-p99=250ms`; the unit may be left out.
    pub fn parse(text: &str) -> Result<Objective, String> {
        let bad =
            || format!("--slo takes p99=MS (queue time) or latency-p99=MS, such as p99=200ms, not `{text}`");
        let (metric, value) = text.split_once('=').ok_or_else(bad)?;
        let latency = match metric.trim() {
            "p99" => false,
            "latency-p99" => true,
            _ => return Err(bad()),
        };
        match value.trim().trim_end_matches("ms").trim().parse::<f64>() {
            Ok(ms) if ms > 0.0 && ms.is_finite() => Ok(Objective { latency, ms }),
            _ => Err(bad()),
        }
    }

    pub fn describe(&self) -> String {
        let what = if self.latency { "p99 latency" } else { "p99 queue time" };
        format!("{what} ≤ {} ms", self.ms)
    }
}

/// The lowest and highest offered loads searched. Above 1 the servers
/// cannot keep up, so no objective holds in the long run, though a finite
/// run can hide it for a while (queues grow slowly just past 1).
const LOWEST: f64 = 0.05;
const HIGHEST: f64 = 1.0;
/// The search stops when the capacity is known to this much load.
const RESOLUTION: f64 = 0.01;

/// One run at one load.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Probe {
    pub load: f64,
    /// The p99 the objective is about, with its interval; `None` when the
    /// run had to stop (too many requests in flight) or measured nothing.
    pub p99_ms: Option<Interval>,
    pub simulated_s: f64,
    pub holds: bool,
}

/// A policy's search.
#[derive(Clone, Debug, Serialize)]
pub struct Outcome {
    pub policy: String,
    /// The highest load probed at which the objective held (`None`: not even
    /// at the lowest), and what that is in requests per second.
    pub capacity: Option<f64>,
    pub requests_per_sec: Option<f64>,
    /// Every probe, by load: the load-versus-p99 curve.
    pub probes: Vec<Probe>,
}

fn probe(base: &Scenario, load: f64, objective: Objective) -> Probe {
    let mut scenario = base.clone();
    scenario.load = load;
    let first = probe_once(&scenario, objective);
    let straddles = first
        .p99_ms
        .and_then(|p| p.bounds())
        .is_some_and(|(low, high)| low <= objective.ms && objective.ms < high);
    if !straddles {
        return first;
    }
    scenario.warmup_s = base.warmup_s * 4.0;
    scenario.duration_s = base.duration_s * 4.0;
    probe_once(&scenario, objective)
}

fn probe_once(scenario: &Scenario, objective: Objective) -> Probe {
    let load = scenario.load;
    let Ok(mut sim) = Simulation::new(scenario) else {
        return Probe { load, p99_ms: None, simulated_s: 0.0, holds: false };
    };
    sim.advance_to(Time::from_secs(scenario.duration_s), u64::MAX);
    let summary = sim.summary();
    let figures = if objective.latency { summary.confidence.latency_ms } else { summary.confidence.queue_ms };
    let measured = sim.halted().is_none() && summary.latency_ms.count > 0;
    let p99 = measured.then_some(figures.p99);
    let holds = summary.counts.failed == 0
        && match p99 {
            Some(p) => match p.bounds() {
                Some((_, high)) if high < objective.ms => true,
                Some((low, _)) if low > objective.ms => false,
                _ => p.estimate <= objective.ms,
            },
            None => false,
        };
    Probe { load, p99_ms: p99, simulated_s: summary.simulated_s, holds }
}

/// Bisection on load, assuming the p99 grows with it.
fn search(policy: String, base: &Scenario, objective: Objective) -> Outcome {
    let mut probes = vec![probe(base, LOWEST, objective)];
    let mut capacity = None;
    if probes[0].holds {
        let top = probe(base, HIGHEST, objective);
        let top_holds = top.holds;
        probes.push(top);
        let (mut low, mut high) = (LOWEST, HIGHEST);
        if top_holds {
            low = HIGHEST;
        }
        while high - low > RESOLUTION && !top_holds {
            let middle = (low + high) / 2.0;
            let p = probe(base, middle, objective);
            if p.holds {
                low = middle;
            } else {
                high = middle;
            }
            probes.push(p);
        }
        capacity = Some(low);
    }
    probes.sort_by(|a, b| a.load.total_cmp(&b.load));
    let requests_per_sec = capacity.map(|c| c * base.capacity_per_sec());
    Outcome { policy, capacity, requests_per_sec, probes }
}

/// Searches every `(policy, scenario)` on up to `cores` threads; returns the
/// outcomes in the order given.
pub fn search_all(scenarios: Vec<(String, Scenario)>, objective: Objective, cores: usize) -> Vec<Outcome> {
    let next = AtomicUsize::new(0);
    let outcomes: Mutex<Vec<Option<Outcome>>> = Mutex::new(vec![None; scenarios.len()]);
    std::thread::scope(|scope| {
        for _ in 0..cores.clamp(1, scenarios.len().max(1)) {
            scope.spawn(|| loop {
                let index = next.fetch_add(1, Ordering::Relaxed);
                let Some((policy, scenario)) = scenarios.get(index) else { break };
                let outcome = search(policy.clone(), scenario, objective);
                outcomes.lock().expect("a search thread panicked")[index] = Some(outcome);
            });
        }
    });
    outcomes.into_inner().expect("a search thread panicked").into_iter().flatten().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn objectives_parse_or_say_what_is_allowed() {
        assert_eq!(Objective::parse("p99=200ms"), Ok(Objective { latency: false, ms: 200.0 }));
        assert_eq!(Objective::parse("latency-p99=250"), Ok(Objective { latency: true, ms: 250.0 }));
        for bad in ["p50=10ms", "p99", "p99=-1", "p99=soon"] {
            assert!(Objective::parse(bad).unwrap_err().contains("--slo takes"), "{bad}");
        }
    }
}
