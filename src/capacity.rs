//! Effective capacity: the highest offered load at which a pool still meets
//! a latency objective, under one policy. Bisection on `load`; each probe
//! runs the scenario and judges the objective by the p99's 95% interval,
//! running four times longer ([`LONGER`]) when the interval straddles the target. A run
//! in which any request failed (its retry budget spent) does not meet the
//! objective, whatever the p99 of those served.
//!
//! The requests are the scenario's own, at the probe's load, or a trace's
//! ([`Search::replaying`]), replayed at the speed that offers that load.
//!
//! A [`Search`] runs in steps of a bounded number of events, so the browser
//! can spread it over animation frames; the command line runs each to its
//! end, one policy per core.

use crate::engine::Replay;
use crate::metrics::Interval;
use crate::scenario::Demand;
use crate::{Scenario, Simulation, Time};
use serde::Serialize;

/// Why a search of `scenario` over its own arrivals cannot be made, if it
/// cannot: the search varies the load, which a spike ignores.
pub fn unsearchable(scenario: &Scenario) -> Option<&'static str> {
    (scenario.demand == Demand::Spike).then_some(
        "capacity searches over load, which demand=spike ignores (every client starts one session at time 0); use demand=continuous",
    )
}

/// A latency objective: the p99 of queue time (or of latency) at most `ms`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Objective {
    pub latency: bool,
    pub ms: f64,
}

impl Objective {
    pub fn describe(&self) -> String {
        let what = if self.latency { "p99 latency" } else { "p99 queue time" };
        format!("{what} ≤ {} ms", self.ms)
    }
}

/// The lowest and highest offered loads searched. Above 1 the servers
/// cannot keep up, so no objective holds in the long run, though a finite
/// run can hide it for a while (queues grow slowly just past 1).
pub const LOWEST: f64 = 0.05;
pub const HIGHEST: f64 = 1.0;
/// The search stops when the capacity is known to this much load.
const RESOLUTION: f64 = 0.01;
/// How many times longer a probe runs again when its interval straddles
/// the target.
pub const LONGER: f64 = 4.0;
/// Probes a search makes at most: the two ends, then bisection to the
/// resolution (a probe may run twice as long, which counts as one).
pub const MOST_PROBES: usize = 2 + 7;

/// One run at one load.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Probe {
    pub load: f64,
    /// The p99 the objective is about, with its interval; `None` when the
    /// run had to stop (too many requests in flight) or measured nothing.
    pub p99_ms: Option<Interval>,
    pub simulated_s: f64,
    /// Whether the run had to stop (too many requests in flight): without
    /// it, no p99 means the run measured nothing, and judged nothing.
    pub halted: bool,
    pub holds: bool,
}

/// A policy's search, done.
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

/// Where a search is.
#[derive(Clone, Copy, Debug)]
enum Phase {
    /// Probing the lowest load, then the highest.
    Lowest,
    Highest,
    /// The capacity lies in `[low, high)`.
    Bisect {
        low: f64,
        high: f64,
    },
    Done {
        capacity: Option<f64>,
    },
}

/// A probe under way: its simulation, and whether it is the longer rerun.
struct Running {
    sim: Simulation,
    until: Time,
    longer: bool,
}

/// A probe's requests at a load, when they are not the scenario's own: a
/// trace replayed at the speed that offers that load.
pub type ArrivalsAt = Box<dyn FnMut(f64) -> Result<Replay, String>>;

/// One policy's search for its capacity, run a step at a time.
pub struct Search {
    policy: String,
    base: Scenario,
    objective: Objective,
    arrivals: Option<ArrivalsAt>,
    phase: Phase,
    running: Option<Running>,
    probes: Vec<Probe>,
}

impl Search {
    pub fn new(policy: String, base: Scenario, objective: Objective) -> Search {
        Search::starting(policy, base, objective, None)
    }

    /// A search whose probes replay `arrivals` at each load instead of the
    /// scenario's own arrivals.
    pub fn replaying(policy: String, base: Scenario, objective: Objective, arrivals: ArrivalsAt) -> Search {
        Search::starting(policy, base, objective, Some(arrivals))
    }

    fn starting(
        policy: String,
        base: Scenario,
        objective: Objective,
        arrivals: Option<ArrivalsAt>,
    ) -> Search {
        let phase = Phase::Lowest;
        let mut search =
            Search { policy, base, objective, arrivals, phase, running: None, probes: Vec::new() };
        search.start_probe(LOWEST, false);
        search
    }

    pub fn done(&self) -> bool {
        matches!(self.phase, Phase::Done { .. })
    }

    /// The probes finished so far.
    pub fn probes(&self) -> &[Probe] {
        &self.probes
    }

    /// Runs up to `max_events` events of the search; returns how many ran.
    pub fn step(&mut self, max_events: u64) -> u64 {
        let Some(running) = &mut self.running else { return 0 };
        let events = running.sim.advance_to(running.until, max_events).events;
        if running.sim.now() >= running.until || running.sim.halted().is_some() {
            self.finish_probe();
        }
        events
    }

    /// Runs the search to its end.
    pub fn run(mut self) -> Outcome {
        while !self.done() {
            self.step(u64::MAX);
        }
        self.outcome()
    }

    /// What the search found (so far, if it is not done).
    pub fn outcome(&self) -> Outcome {
        let mut probes = self.probes.clone();
        crate::sort::sort_by(&mut probes, |a, b| a.load.total_cmp(&b.load));
        let capacity = match self.phase {
            Phase::Done { capacity } => capacity,
            _ => None,
        };
        let requests_per_sec = capacity.map(|c| c * self.base.capacity_per_sec());
        Outcome { policy: self.policy.clone(), capacity, requests_per_sec, probes }
    }

    fn start_probe(&mut self, load: f64, longer: bool) {
        let mut scenario = self.base.clone();
        scenario.load = load;
        if longer {
            scenario.warmup_s *= LONGER;
            scenario.duration_s *= LONGER;
        }
        let built = match &mut self.arrivals {
            None => Simulation::new(&scenario).map_err(|e| e.to_string()),
            Some(at) => at(load)
                .and_then(|replay| Simulation::replaying(&scenario, replay).map_err(|e| e.to_string())),
        };
        self.running = match built {
            Ok(sim) => Some(Running { sim, until: Time::from_secs(scenario.duration_s), longer }),
            Err(_) => {
                self.probes.push(Probe { load, p99_ms: None, simulated_s: 0.0, halted: false, holds: false });
                self.phase = Phase::Done { capacity: None };
                None
            }
        };
    }

    /// Judges the probe that just ended, reruns it longer if its interval
    /// straddles the target, and otherwise moves the bisection on.
    fn finish_probe(&mut self) {
        let Some(running) = self.running.take() else { return };
        let probe = judge(&running.sim, self.objective);
        let straddles = probe
            .p99_ms
            .and_then(|p| p.bounds())
            .is_some_and(|(low, high)| low <= self.objective.ms && self.objective.ms < high);
        if straddles && !running.longer {
            self.start_probe(probe.load, true);
            return;
        }
        self.probes.push(probe);
        let next = match self.phase {
            Phase::Lowest if probe.holds => Phase::Highest,
            Phase::Lowest => Phase::Done { capacity: None },
            Phase::Highest if probe.holds => Phase::Done { capacity: Some(HIGHEST) },
            Phase::Highest => Phase::Bisect { low: LOWEST, high: HIGHEST },
            Phase::Bisect { high, .. } if probe.holds => Phase::Bisect { low: probe.load, high },
            Phase::Bisect { low, .. } => Phase::Bisect { low, high: probe.load },
            done @ Phase::Done { .. } => done,
        };
        self.phase = match next {
            Phase::Bisect { low, high } if high - low <= RESOLUTION => Phase::Done { capacity: Some(low) },
            other => other,
        };
        match self.phase {
            Phase::Highest => self.start_probe(HIGHEST, false),
            Phase::Bisect { low, high } => self.start_probe((low + high) / 2.0, false),
            _ => {}
        }
    }
}

/// Whether a finished run meets the objective.
fn judge(sim: &Simulation, objective: Objective) -> Probe {
    let load = sim.scenario().load;
    let summary = sim.summary();
    let figures = if objective.latency { summary.confidence.latency_ms } else { summary.confidence.queue_ms };
    let halted = sim.halted().is_some();
    let measured = !halted && summary.latency_ms.count > 0;
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
    Probe { load, p99_ms: p99, simulated_s: summary.simulated_s, halted, holds }
}
