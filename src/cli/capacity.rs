//! `lbsim capacity`: each policy's effective capacity (see
//! `lbsim::capacity`), the policies searched in parallel, one per core.

use super::parallel::map_on_cores;
use super::progress::Progress;
use super::replay::TraceReplay;
use lbsim::capacity::{Objective, Outcome, Search, MOST_PROBES};
use lbsim::scenario::echo;
use lbsim::Scenario;

/// `p99=200ms` (queue time) or `latency-p99=250ms`; the unit may be left out.
pub fn parse_objective(text: &str) -> Result<Objective, String> {
    let bad = || {
        format!(
            "--slo takes p99=MS (queue time) or latency-p99=MS, such as p99=200ms, not {shown}",
            shown = echo(text)
        )
    };
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

/// Events a search runs between looks at its progress.
const STEP_EVENTS: u64 = 1_000_000;

/// Searches every `(policy, scenario)` on up to `cores` threads, with
/// progress in probes on a terminal; returns the outcomes in the order
/// given. With a trace, and the load it offers at speed 1, each probe
/// replays it (looped) at the speed that offers the probe's load.
pub fn search_all(
    scenarios: Vec<(String, Scenario)>,
    objective: Objective,
    trace: Option<(&TraceReplay, f64)>,
    cores: usize,
) -> Vec<Outcome> {
    let most = MOST_PROBES as u64;
    let progress =
        Progress::new(scenarios.len() as u64 * most, format!("of probes, {} policies", scenarios.len()));
    map_on_cores(scenarios.len(), cores, |index| {
        let (policy, scenario) = &scenarios[index];
        let mut search = match trace {
            None => Search::new(policy.clone(), scenario.clone(), objective),
            Some((trace, at_speed_1)) => {
                let (trace, classes) = (trace.clone(), scenario.class_shares.len());
                let at = move |load: f64| {
                    let faster = TraceReplay { speed: load / at_speed_1, looped: true, ..trace.clone() };
                    faster.arrivals(classes).map(|(replay, _)| replay)
                };
                Search::replaying(policy.clone(), scenario.clone(), objective, Box::new(at))
            }
        };
        let mut probes = 0;
        while !search.done() {
            search.step(STEP_EVENTS);
            let now = search.probes().len() as u64;
            progress.inc(now - probes);
            probes = now;
        }
        // A search that ends early leaves probes it will not need.
        progress.inc(most.saturating_sub(probes));
        search.outcome()
    })
}

/// Refuses a search that stood on a probe which measured nothing: its
/// "does not hold" is no finding, and the capacity built on it none either.
/// Over a trace (`replayed`), a probe that had to stop is refused too: the
/// trace's bursts, not the load searched, may have stopped it.
pub fn judged_every_probe(outcomes: &[Outcome], replayed: bool) -> Result<(), String> {
    for outcome in outcomes {
        if let Some(p) = outcome.probes.iter().find(|p| p.halted && replayed) {
            return Err(format!(
                "{}: the probe at load {:.3} stopped at {:.3} simulated s with too many requests in flight, so it judged nothing and no capacity is reported; set queue_timeout_ms so that waiting requests bounce and fail",
                outcome.policy, p.load, p.simulated_s
            ));
        }
        if let Some(p) = outcome.probes.iter().find(|p| p.p99_ms.is_none() && !p.halted) {
            return Err(format!(
                "{}: the probe at load {:.3} measured nothing: no request completed after the warm-up in its {} s run; lengthen --duration",
                outcome.policy, p.load, p.simulated_s
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_replayed_search_that_stood_on_a_halted_probe_reports_nothing() {
        let probe =
            lbsim::capacity::Probe { load: 0.5, p99_ms: None, simulated_s: 14.1, halted: true, holds: false };
        let outcome = Outcome {
            policy: "random".into(),
            capacity: Some(0.3),
            requests_per_sec: None,
            probes: vec![probe],
        };
        assert!(judged_every_probe(std::slice::from_ref(&outcome), false).is_ok());
        assert_eq!(
            judged_every_probe(&[outcome], true).unwrap_err(),
            "random: the probe at load 0.500 stopped at 14.100 simulated s with too many requests in flight, so it judged nothing and no capacity is reported; set queue_timeout_ms so that waiting requests bounce and fail"
        );
    }

    #[test]
    fn objectives_parse_or_say_what_is_allowed() {
        assert_eq!(parse_objective("p99=200ms"), Ok(Objective { latency: false, ms: 200.0 }));
        assert_eq!(parse_objective("latency-p99=250"), Ok(Objective { latency: true, ms: 250.0 }));
        for bad in ["p50=10ms", "p99", "p99=-1", "p99=soon"] {
            assert!(parse_objective(bad).unwrap_err().contains("--slo takes"), "{bad}");
        }
    }
}
