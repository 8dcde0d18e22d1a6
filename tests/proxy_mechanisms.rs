//! The mechanisms real proxies ship, against their documented behaviour:
//! Envoy's outlier ejections growing 30, 60, 90 … 300 s (and ending at its
//! sweeps) and forgetting one ejection at each sweep a server stays well.

mod common;

use common::scenario;
use lbsim::{Scenario, Simulation, Time};

/// One balancer before 10 servers, server 0 answering every request with
/// an error after 1 ms from the start; Envoy's outlier detection on the
/// others' side: 5 errors in a row, 30 s growing to 300 s, 10% of hosts.
fn black_hole(extra: &[(&str, &str)]) -> Scenario {
    let base = [
        ("servers", "10"),
        ("slots", "1"),
        ("service_mean_ms", "100"),
        ("balancers", "1"),
        ("session_length", "1"),
        ("load", "0.3"),
        ("queue_timeout_ms", "none"),
        ("retry_budget", "0"),
        ("failures", "0s:fast-fail:0:p=1:after=1ms"),
        ("eject_after", "5"),
        ("eject_for_ms", "30000"),
        ("eject_max_for_ms", "300000"),
        ("eject_max_fraction", "0.1"),
        ("duration_s", "2400"),
    ];
    with(&base, extra)
}

/// The default scenario with `base`, then `extra`, applied.
fn with(base: &[(&str, &str)], extra: &[(&str, &str)]) -> Scenario {
    scenario(&[base, extra].concat())
}

/// Each time server 0 was held out of the balancer's pool, (from, to) in
/// seconds, read every `step_s`.
fn times_out(scenario: &Scenario, step_s: f64) -> Vec<(f64, f64)> {
    let mut sim = Simulation::new(scenario).unwrap();
    let (mut spans, mut since) = (Vec::new(), None);
    for step in 1..=(scenario.duration_s / step_s) as u64 {
        let t = step as f64 * step_s;
        sim.advance_to(Time::from_ms(t * 1000.0), u64::MAX);
        match (sim.snapshot(0).servers[0].ejected > 0, since) {
            (true, None) => since = Some(t),
            (false, Some(from)) => {
                spans.push((from, t));
                since = None;
            }
            _ => {}
        }
    }
    spans
}

const ENVOY_LENGTHS_S: [f64; 11] = [30.0, 60.0, 90.0, 120.0, 150.0, 180.0, 210.0, 240.0, 270.0, 300.0, 300.0];

#[test]
fn envoys_ejections_of_a_failing_host_last_30_60_90_s_and_so_on_up_to_300_s() {
    let step = 0.25;
    let spans = times_out(&black_hole(&[]), step);
    let lengths: Vec<f64> = spans.iter().map(|(from, to)| to - from).collect();
    assert!(lengths.len() >= ENVOY_LENGTHS_S.len(), "{lengths:?}");
    for (length, expected) in lengths.iter().zip(ENVOY_LENGTHS_S) {
        assert!((length - expected).abs() <= step, "{lengths:?}");
    }
    // Without a maximum, each lasts the base time, as before.
    let spans = times_out(&black_hole(&[("eject_max_for_ms", "none"), ("duration_s", "200")]), step);
    assert!(spans.len() >= 5 && spans.iter().all(|(from, to)| (to - from - 30.0).abs() <= step), "{spans:?}");
}

#[test]
fn with_envoys_10_s_interval_an_ejection_ends_at_the_first_sweep_after_its_time() {
    let step = 0.25;
    let spans = times_out(&black_hole(&[("eject_interval_ms", "10000")]), step);
    assert!(spans.len() >= ENVOY_LENGTHS_S.len(), "{spans:?}");
    for (&(from, to), expected) in spans.iter().zip(ENVOY_LENGTHS_S) {
        let sweep = to.div_euclid(10.0) * 10.0;
        assert!(to - sweep <= step, "ends at {to} s, not at a sweep: {spans:?}");
        let length = to - from;
        assert!(length >= expected - step && length < expected + 10.0 + step, "{spans:?}");
    }
}

#[test]
fn a_host_that_stays_well_has_its_ejections_forgotten_one_a_sweep() {
    // Failing for 100 s: ejected for 30 s, then 60 s (the second ends at
    // 100 s or just after). Well for 100 s, ten sweeps forget both
    // ejections: failing again at 200 s, its next ejection lasts 30 s.
    let scenario = black_hole(&[
        ("failures", "0s:fast-fail:0:p=1:after=1ms:for=95s, 200s:fast-fail:0:p=1:after=1ms"),
        ("eject_interval_ms", "10000"),
        ("duration_s", "260"),
    ]);
    let spans = times_out(&scenario, 0.25);
    let after: Vec<f64> = spans.iter().filter(|(from, _)| *from > 200.0).map(|(f, t)| t - f).collect();
    assert!(!after.is_empty() && (30.0..40.5).contains(&after[0]), "{spans:?}");
}
